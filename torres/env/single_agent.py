"""A single-agent Gymnasium environment: the learner plays one seat, bots of a given level play the others.

>>> from torres.env import single_agent_env
>>> env = single_agent_env(opponent="random", players=2)
>>> obs, info = env.reset(seed=3)
>>> obs.shape, int(env.action_masks().sum()) > 0
((873,), True)

``actions="flat"`` (default) keeps the engine's 20,936 action ids with :meth:`SingleAgentEnv.action_masks` for
sb3-contrib's ``MaskablePPO``; ``actions="features"`` numbers the legal actions ``0..n-1`` instead and adds their
features (:mod:`torres.env.features`) to the observation, for pointer-style policies. docs/research.md.
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from ..ai.base import Bot
from ..ai.levels import build_bot
from ..engine.actions import NUM_ACTIONS
from ..engine.rules import Rules
from ..engine.state import GameState, Stage
from .aec import action_id_of
from ..engine.view import SPECTATOR
from .aec import render_text
from .features import HIGH, LOW, N_FEATURES, action_features
from .observation import OBS_SIZE, PublicFields, encode, observation_high

REWARDS = ("returns", "margin")
ACTIONS = ("flat", "features")
#: Rows of the feature observation: more than any step has offered in the tests' games (random play reaches ~520,
#: a full hand of cards ~800).
MAX_ACTIONS = 1024


class TooManyActions(RuntimeError):
    """A step offered more legal actions than the feature observation has rows (``max_actions``)."""


def feature_observation(state: GameState, seat: int, legal: Sequence[int],
                        max_actions: int = MAX_ACTIONS) -> dict[str, np.ndarray]:
    """The ``actions="features"`` observation of ``seat``: ``observation`` (its encoded view), ``actions`` (the
    features of ``legal``, then zero rows) and ``action_mask`` (1 for the legal rows). ``state`` may be the real
    game or any determinization of the seat's view: nothing here reads a card the seat cannot see."""
    if len(legal) > max_actions:
        raise TooManyActions(f"{len(legal)} legal actions, more than max_actions={max_actions}")
    rows = np.zeros((max_actions, N_FEATURES), np.float32)
    action_features(state, legal, out=rows)
    mask = np.zeros(max_actions, np.int8)
    mask[:len(legal)] = 1
    return {"observation": encode(PublicFields(state, seat)), "actions": rows, "action_mask": mask}


def single_agent_env(opponent: str | Sequence[str] = "expert", players: int = 2, seat: int | None = None,
                     **kwargs: Any) -> "SingleAgentEnv":
    """The learner in ``seat`` (``None``: a seat drawn per episode from the seeded generator) against bots:
    ``opponent`` is a bot spec for every other seat, or one spec per other seat in seat order. Other options:
    :class:`SingleAgentEnv`."""
    return SingleAgentEnv(opponent=opponent, players=players, seat=seat, **kwargs)


class SingleAgentEnv(gymnasium.Env):
    """Torres for one learner against bots.

    Args:
        opponent: a bot spec (``"random"``, ``"beginner"``, ``"casual"``, ``"expert"``, ``"greedy:width=8"``…)
            for every other seat, or a list with one spec per other seat. Bots are built afresh every episode by
            ``torres.ai.levels.build_bot`` with seeds from the environment's generator.
        players: 2–4.
        seat: the learner's seat, or ``None`` for a seat drawn per episode.
        rules, card_mode: as for ``torres_v0.raw_env``.
        reward: paid once, at the end of the game (0 before). ``"returns"``: ``game.returns()`` for the learner,
            +1 first to −1 last, ties share (2 players: +1 win, 0 tie, −1 loss). ``"margin"``: that plus
            (learner's score − best other score) / 100, so a closer loss pays more than a rout.
        actions: ``"flat"`` — ``Discrete(20936)``, the engine's ids, observation ``Box(873)``; ``"features"`` —
            ``Discrete(max_actions)``, action ``i`` is the ``i``-th legal id (sorted), observation a ``Dict`` of
            ``observation`` (873), ``actions`` (``max_actions`` × 12 features, zero rows past the legal ones) and
            ``action_mask`` (1 for the legal rows).
        illegal: ``"lose"`` (default) — an action outside the mask ends the episode with reward −1 and
            ``info["illegal_action"]``, as PettingZoo's classic games do; ``"raise"`` — ``ValueError``.
        render_mode: ``"ansi"`` (``render()`` returns the text board) or ``"human"`` (prints it).
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, opponent: str | Sequence[str] = "expert", players: int = 2, seat: int | None = None,
                 rules: str | Rules = "riogrande", card_mode: str | None = None, reward: str = "returns",
                 actions: str = "flat", max_actions: int = MAX_ACTIONS, illegal: str = "lose",
                 render_mode: str | None = None) -> None:
        if not 2 <= players <= 4:
            raise ValueError("Torres is for 2 to 4 players")
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not a seat of a {players}-player game")
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r} (rewards: {', '.join(REWARDS)})")
        if actions not in ACTIONS:
            raise ValueError(f"unknown actions {actions!r} (choose: {', '.join(ACTIONS)})")
        if illegal not in ("lose", "raise"):
            raise ValueError("illegal is 'lose' or 'raise'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render mode {render_mode!r} (render modes: ansi, human)")
        specs = [opponent] * (players - 1) if isinstance(opponent, str) else list(opponent)
        if len(specs) != players - 1:
            raise ValueError(f"{players} players need {players - 1} opponent specs, got {len(specs)}")
        for spec in specs:
            build_bot(spec, 0)  # a bad spec fails here, not in the middle of training
        self.opponents = specs
        self.players = players
        self.fixed_seat = seat
        self.rules = rules if isinstance(rules, Rules) else Rules.from_text(rules)
        if card_mode is not None:
            self.rules = self.rules.replace(card_mode=card_mode)
        self.reward_mode = reward
        self.actions = actions
        self.max_actions = max_actions
        self.illegal = illegal
        self.render_mode = render_mode
        obs_box = spaces.Box(low=0.0, high=observation_high(), shape=(OBS_SIZE,), dtype=np.float32)
        if actions == "flat":
            self.observation_space: spaces.Space[Any] = obs_box
            self.action_space: spaces.Space[Any] = spaces.Discrete(NUM_ACTIONS)
        else:
            self.observation_space = spaces.Dict({
                "observation": obs_box,
                "actions": spaces.Box(low=np.tile(LOW, (max_actions, 1)), high=np.tile(HIGH, (max_actions, 1)),
                                      shape=(max_actions, N_FEATURES), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(max_actions,), dtype=np.int8),
            })
            self.action_space = spaces.Discrete(max_actions)
        self.game = GameState(players, 0, self.rules)
        self.seat = 0
        self.bots: dict[int, Bot] = {}
        self._legal: list[int] = []

    # --- the episode ------------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """A new game: its engine seed, the learner's seat (if not fixed) and the bots' seeds come from the
        environment's generator (seeded by ``seed``)."""
        super().reset(seed=seed)
        rng = self.np_random
        self.game = GameState(self.players, int(rng.integers(2**31)), self.rules)
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(self.players))
        others = [s for s in range(self.players) if s != self.seat]
        self.bots = {s: build_bot(spec, int(rng.integers(2**31))) for s, spec in zip(others, self.opponents)}
        self._play_bots()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        game = self.game
        if game.stage is Stage.OVER:
            raise RuntimeError("the game is over: call reset()")
        chosen = action_id_of(action)
        action_id = self._action_id(chosen)
        if action_id is None:
            if self.illegal == "raise":
                raise ValueError(f"action {chosen} is not legal here (see action_masks())")
            return self._observe(), -1.0, True, False, {**self._info(), "illegal_action": True}
        game.apply(action_id)
        self._play_bots()
        over = game.is_over()
        reward = self._final_reward() if over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Booleans over the action space: which actions are legal for the learner now (all False once the game
        is over). sb3-contrib's ``MaskablePPO`` calls this."""
        size = NUM_ACTIONS if self.actions == "flat" else self.max_actions
        mask = np.zeros(size, bool)
        if self.actions == "flat":
            mask[self._legal] = True
        else:
            mask[:len(self._legal)] = True
        return mask

    def legal_action_ids(self) -> list[int]:
        """The engine's ids of the learner's legal actions now, in action-space order for ``"features"``."""
        return list(self._legal)

    def render(self) -> str | None:
        text = render_text(self.game.view(SPECTATOR))
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    # --- internals ----------------------------------------------------------------------------------------------
    def _play_bots(self) -> None:
        game = self.game
        while game.stage is not Stage.OVER and game.current != self.seat:
            seat = game.current
            game.apply(self.bots[seat].choose(game.view(seat)))
        self._legal = game.legal_action_ids() if game.stage is not Stage.OVER else []

    def _action_id(self, action: int) -> int | None:
        legal = self._legal
        if self.actions == "flat":
            return action if action in legal else None
        return legal[action] if 0 <= action < len(legal) else None

    def _observe(self) -> Any:
        if self.actions == "flat":
            return encode(PublicFields(self.game, self.seat))
        return feature_observation(self.game, self.seat, self._legal, self.max_actions)

    def _final_reward(self) -> float:
        game, seat = self.game, self.seat
        reward = game.returns()[seat]
        if self.reward_mode == "margin":
            best_other = max(s for i, s in enumerate(game.scores) if i != seat)
            reward += (game.scores[seat] - best_other) / 100
        return float(reward)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"seat": self.seat, "legal_actions": len(self._legal)}
        if self.game.stage is Stage.OVER:
            info["scores"] = list(self.game.scores)
        return info


# ``gymnasium.make("torres/SingleAgent-v0", opponent="beginner", ...)``
gymnasium.register(id="torres/SingleAgent-v0", entry_point=f"{__name__}:SingleAgentEnv")
