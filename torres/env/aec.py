"""Torres as a PettingZoo AEC environment (``torres_v0``), over the real engine.

A seat's turn is many actions (moves, blocks, cards, ``end``), so the same agent is selected for several steps in a
row: ``agent_selection`` is always the seat to act in the game (``game.current``). See docs/research.md.
"""

from __future__ import annotations

import operator
import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine.actions import DECODE, NUM_ACTIONS, Kind, format_action, parse_action_id
from ..engine.rules import Rules
from ..engine.state import GameState, Stage
from ..engine.view import SPECTATOR, SeatView
from .observation import OBS_SIZE, PublicFields, action_mask, encode, observation_high, slow_part

#: Kinds of action that leave every section of observation.slow_part as it was (the engine's hot actions).
_KEEPS_SLOW = frozenset({Kind.MOVE, Kind.BLOCK, Kind.KNIGHT, Kind.SCORE})

REWARDS = ("returns", "phase")
RENDER_MODES = ("ansi", "human")


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's usual classic-game wrappers: an illegal action ends the game with -1 for
    the seat that took it, actions out of range fail, and calls out of order fail."""
    wrapped: Any = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped


def _rules(rules: str | Rules, card_mode: str | None) -> Rules:
    r = rules if isinstance(rules, Rules) else Rules.from_text(rules)
    return r.replace(card_mode=card_mode) if card_mode is not None else r



def action_id_of(action: Any) -> int:
    """An agent's action as an action id: an integer (Python's or NumPy's), never a float or a bool, which
    ``int()`` would quietly turn into another action (3.7 into 3, True into 1)."""
    if isinstance(action, (bool, np.bool_)):
        raise TypeError(f"an action is an integer id, not {action!r}")
    try:
        return operator.index(action)
    except TypeError:
        raise TypeError(f"an action is an integer id, not {action!r}") from None

class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's naming (chess_v6.raw_env, connect_four_v3.raw_env)
    """Torres for 2–4 agents ``player_0``.. (seat numbers).

    Args:
        players: 2–4.
        rules: an edition with settings as text (``"idw:master=1"``, see ``Rules.from_text``) or a ``Rules``.
        card_mode: ``"own"`` or ``"common"`` to override the edition's card mode.
        reward: ``"returns"`` (default): 0 until the end, then ``game.returns()`` — +1 first, -1 last, ties
            share, zero-sum; ``"phase"``: at each of the three phase scorings every agent receives the points it
            gained since the previous scoring (track steps included), so an agent's rewards add up to its final
            score (not zero-sum).
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the terminal board as text) or ``"human"``
            (``render()`` prints it, and so does every step).
    """

    metadata = {"render_modes": list(RENDER_MODES), "name": "torres_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, players: int = 2, rules: str | Rules = "riogrande", card_mode: str | None = None,
                 reward: str = "returns", render_mode: str | None = None) -> None:
        super().__init__()
        if not 2 <= players <= 4:
            raise ValueError("Torres is for 2 to 4 players")
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r} (rewards: {', '.join(REWARDS)})")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"unknown render mode {render_mode!r} (render modes: {', '.join(RENDER_MODES)})")
        self.players = players
        self.rules = _rules(rules, card_mode)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = self.possible_agents[:]
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        high = observation_high()
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=0.0, high=high, shape=(OBS_SIZE,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._seeds = random.Random()
        self.game = GameState(players, 0, self.rules)
        self._cache_key: tuple[int, int] = (-1, -1)
        self._cache: dict[str, np.ndarray] = {}
        self._steps = 0
        self.reset()

    # --- spaces ---------------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the game ---------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` is the engine's game seed (start player, master card, deck order); without one the
        next seed comes from the environment's own generator (seeded by the last seed given)."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = int(seed)
        else:
            game_seed = self._seeds.randrange(2**31)
        self.game = GameState(self.players, game_seed, self.rules)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current]
        self._scored = [0] * self.players  # scores at the last phase scoring ("phase" rewards)
        self._phases = 0
        self._dirty = False  # rewards set in the last step
        self._steps = 0
        self._cache_key = (-1, -1)
        self._slow_version = 0  # counts the actions that may change observation.slow_part
        self._slow: list[tuple[int, Any]] = [(-1, None)] * self.players

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        action = action_id_of(action)
        if action not in game.legal_action_ids():
            game.push(action)  # raises IllegalActionError naming the rule (a legal id never gets here)
        self._cumulative_rewards[agent] = 0.0
        if self._dirty:
            self._clear_rewards()
            self._dirty = False
        game.apply(action)
        self._steps += 1
        if DECODE[action][0] not in _KEEPS_SLOW:
            self._slow_version += 1
        if self.reward_mode == "phase" and len(game.scorings) > self._phases:
            self._phases = len(game.scorings)
            after = game.scorings[-1].after
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] = float(after[s] - self._scored[s])
            self._scored = list(after)
            self._dirty = True
        if game.stage is Stage.OVER:
            if self.reward_mode == "returns":
                for a, r in zip(self.possible_agents, game.returns()):
                    self.rewards[a] = r
            self._dirty = True
            for a in self.agents:
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[game.current]
        if self._dirty:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation: ``observation`` from its own view only, ``action_mask`` of its legal ids (all
        zero when another seat is to act). The arrays are fresh, except that asking again before the next step
        returns the same ones."""
        seat = self._seat_of[agent]
        key = (self._steps, seat)
        if key == self._cache_key:
            return self._cache
        public = PublicFields(self.game, seat)
        version, slow = self._slow[seat]
        if version != self._slow_version:
            slow = slow_part(public)
            self._slow[seat] = (self._slow_version, slow)
        obs = {"observation": encode(public, slow=slow), "action_mask": action_mask(public.legal)}
        self._cache_key, self._cache = key, obs
        return obs

    def view(self, agent: str) -> SeatView:
        """The agent's :class:`~torres.engine.view.SeatView` (what a bot needs: ``torres.env.BotAgent``)."""
        return self.game.view(self._seat_of[agent])

    def state(self) -> np.ndarray:
        raise NotImplementedError("Torres has hidden cards: use observe(agent); env.game holds the full state")

    # --- actions as text ----------------------------------------------------------------------------------
    @staticmethod
    def action_to_string(action: int) -> str:
        """The notation of an action id (docs/notation.md), e.g. ``"block d7"``."""
        return format_action(int(action))

    @staticmethod
    def string_to_action(text: str) -> int:
        """The action id of a notation string (checks the form only, not legality); ``ValueError`` if bad."""
        return parse_action_id(text)

    # --- rendering -----------------------------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode (this environment offers 'ansi', 'human')")
            return None
        text = render_text(self.game.view(SPECTATOR))
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def close(self) -> None:
        pass


_OCCUPANT = {0: " ", 1: "a", 2: "b", 3: "c", 4: "d", 9: "K"}


def render_text(view: SeatView) -> str:
    """A compact text board (rank 8 on top; each square its level, ``.`` for ground, then ``a``-``d`` for a knight
    of seat 0-3 or ``K`` for the king), then the stage, scores, stacks and cards as public facts."""
    lines = ["    " + "  ".join("abcdefgh")]
    for rank in range(7, -1, -1):
        cells = []
        for file in range(8):
            sq = rank * 8 + file
            level = view.heights[sq]
            cells.append(f"{level if level else '.'}{_OCCUPANT.get(view.occupancy[sq], '?')}")
        lines.append(f"{rank + 1}  " + " ".join(cells))
    stage = view.stage.name.lower()
    if view.stage is Stage.OVER:
        lines.append(f"game over after phase 3; scores {list(view.scores)}")
    else:
        lines.append(f"phase {view.phase + 1} round {view.round + 1}  stage {stage}  seat {view.current} to act"
                     + (f"  ap {view.ap}" if view.stage is Stage.TURN else ""))
    lines.append("scores " + " ".join(f"{s}:{v}" for s, v in enumerate(view.scores))
                 + "   stacks " + " ".join(f"{s}:{'.'.join(map(str, st)) or '-'}" for s, st in enumerate(view.stacks))
                 + f"   supply {view.supply}")
    lines.append("cards in hand " + " ".join(f"{s}:{n}" for s, n in enumerate(view.hand_sizes)))
    return "\n".join(lines) + "\n"
