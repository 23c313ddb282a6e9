"""Torres as an OpenSpiel python game, ``python_torres`` (``pip install torres[openspiel]``).

    import pyspiel
    import torres.env.openspiel  # registers the game
    game = pyspiel.load_game("python_torres", {"players": 3, "rules": "idw:master=1"})

* Player actions are the engine's action ids (``num_distinct_actions`` = ``torres.NUM_ACTIONS``).
* Chance is explicit: the game opens with chance nodes for everything the engine draws from its seed — the start
  player (yucata rules), the master card (master version, unless the rules fix it), then every deck card by card
  (own decks bottom to top, ten cards each, uniform over the cards left; or the 40-card common deck, by the
  counts left). Draws later take the top of these decks, exactly as in the engine.
* ``information_state_string(p)``: the seat's redacted position (``game.position(p)``) and every action as the
  seat saw it (other seats' ``keep`` hidden) plus the cards it drew from a common deck: perfect recall.
  ``observation_string(p)``: the redacted position alone. Both tensors are the environment's observation of the
  seat (torres.env.observation; not perfect recall).
* ``resample_from_infostate(p, sampler)`` deals the cards ``p`` cannot see at random
  (:meth:`~torres.engine.view.SeatView.determinize`), so OpenSpiel's python ISMCTS runs on Torres.
* Returns: ``game.returns()`` at the end (+1 first … -1 last, zero-sum).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-untyped,import-not-found,unused-ignore]

from ..engine.actions import DECODE, NUM_ACTIONS, Kind, format_action
from ..engine.cards import N_CARD_TYPES, Card
from ..engine.master import MasterCard
from ..engine.position import CARD_LETTERS
from ..engine.rules import CardMode, Rules, StartPlayer
from ..engine.state import GameState, Stage
from ..engine.view import SeatView, action_text_for
from .observation import OBS_SIZE, PublicFields, encode

SHORT_NAME = "python_torres"
#: A bound on the actions of one game (random play takes 150–300, bots fewer).
MAX_GAME_LENGTH = 5000

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Torres (python, torres.env.openspiel)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "rules": "riogrande"},
)


def rules_param(rules: Rules) -> str:
    """The rules text as a game parameter: OpenSpiel's game strings reserve ``=`` and ``,``, so they are written
    ``~`` and ``;`` (``idw:master~1``); both spellings are accepted."""
    return rules.to_text().replace("=", "~").replace(",", ";")


class TorresGame(pyspiel.Game):  # type: ignore[misc]
    """Parameters: ``players`` (2–4), ``rules`` (edition text, e.g. ``"idw:master=1"`` or ``"idw:master~1"``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.players = int(params.get("players", 2))
        self.rules = Rules.from_text(str(params.get("rules", "riogrande")).replace("~", "=").replace(";", ","))
        if not 2 <= self.players <= 4:
            raise ValueError("Torres is for 2 to 4 players")
        info = pyspiel.GameInfo(num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=N_CARD_TYPES,
                                num_players=self.players, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=MAX_GAME_LENGTH)
        super().__init__(GAME_TYPE, info, {"players": self.players, "rules": rules_param(self.rules)})
        base = GameState(self.players, 0, self.rules)
        self.base_position = base.position()
        # The chance plan: ("start", None) / ("master", None) / ("deck", seat) / ("common", None), in order.
        plan: list[tuple[str, int]] = []
        r = self.rules
        if r.start_player is StartPlayer.RANDOM:
            plan.append(("start", -1))
        if r.master and r.master_card < 0:
            plan.append(("master", -1))
        if not (r.master or r.full_hand):
            if r.card_mode is CardMode.OWN:
                plan += [("deck", s) for s in range(self.players) for _ in range(N_CARD_TYPES)]
            else:
                plan += [("common", -1)] * (4 * N_CARD_TYPES)
        self.plan = tuple(plan)

    def new_initial_state(self) -> "TorresState":
        return TorresState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "TorresObserver":
        perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        return TorresObserver(perfect_recall)


class TorresState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: TorresGame) -> None:
        super().__init__(game)
        # Plain data only: OpenSpiel may hand a state a game object without these attributes (clones).
        self.players: int = game.players
        self.plan: tuple[tuple[str, int], ...] = game.plan
        self.base_position: str = game.base_position
        self.chance: list[int] = []  # the chance outcomes so far
        self.game: GameState | None = None
        self.log: list[tuple[int, int]] = []  # (actor, action id); -1 for another seat's keep nobody may see
        self.private: list[list[str]] = [[] for _ in range(game.players)]  # what each seat drew (common deck)
        if not game.plan:
            self._deal()

    # --- chance -------------------------------------------------------------------------------------------
    def _step(self) -> tuple[str, int]:
        return self.plan[len(self.chance)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        kind, seat = self._step()
        n = self.players
        if kind == "start":
            return [(s, 1.0 / n) for s in range(n)]
        if kind == "master":
            return [(m, 1.0 / len(MasterCard)) for m in range(len(MasterCard))]
        counts = self._left(kind, seat)
        total = sum(counts)
        return [(c, k / total) for c, k in enumerate(counts) if k]

    def _left(self, kind: str, seat: int) -> list[int]:
        plan, done = self.plan, self.chance
        if kind == "deck":
            left = [1] * N_CARD_TYPES
            for (k, s), c in zip(plan, done):
                if k == "deck" and s == seat:
                    left[c] -= 1
        else:
            left = [4] * N_CARD_TYPES
            for (k, _), c in zip(plan, done):
                if k == "common":
                    left[c] -= 1
        return left

    def _deal(self) -> None:
        """The initial state from the chance outcomes (the engine's own setup, with these draws)."""
        fields: dict[str, str] = {}
        for tok in self.base_position.split():
            key, _, value = tok.partition("=")
            fields[key] = value
        decks: list[list[int]] = [[] for _ in range(self.players)]
        common: list[int] = []
        for (kind, seat), outcome in zip(self.plan, self.chance):
            if kind == "start":
                fields["start"] = str(outcome)
            elif kind == "master":
                fields["master"] = str(outcome)
            elif kind == "deck":
                decks[seat].append(outcome)
            else:
                common.append(outcome)
        if any(decks):
            fields["decks"] = "|".join("".join(CARD_LETTERS[c].upper() for c in d) or "-" for d in decks)
        if common:
            fields["common"] = "".join(CARD_LETTERS[c] for c in common)
        text = " ".join(f"{k}={v}" if v or k != "torres/1" else k for k, v in fields.items())
        self.game = GameState.from_position(text)

    # --- the pyspiel API ----------------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.game.stage is Stage.OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.game.current

    def _legal_actions(self, player: int) -> list[int]:
        assert self.game is not None
        return list(self.game.legal_action_ids()) if player == self.game.current else []

    def _apply_action(self, action: int) -> None:
        if self.game is None:
            self.chance.append(int(action))
            if len(self.chance) == len(self.plan):
                self._deal()
            return
        game = self.game
        actor = game.current
        before = list(game.hands[actor]) if DECODE[action][0] is Kind.BUY else None
        game.push(int(action))  # checked: a wrong id raises IllegalActionError
        self.log.append((actor, int(action)))
        if before is not None and game.rules.card_mode is CardMode.COMMON:
            drawn = [c for c in range(N_CARD_TYPES) if game.hands[actor][c] > before[c]]
            self.private[actor].append("drew " + ",".join(Card(c).text for c in drawn))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            kind, seat = self._step() if self.game is None else ("dealt", -1)
            if kind == "start":
                return f"start player {action}"
            if kind == "master":
                return f"master card {MasterCard(action).name.lower()}"
            return f"deal {Card(action).text}" + (f" to deck {seat}" if kind == "deck" else "")
        return format_action(int(action))

    def is_terminal(self) -> bool:
        return self.game is not None and self.game.stage is Stage.OVER

    def returns(self) -> list[float]:
        if self.game is None or self.game.stage is not Stage.OVER:
            return [0.0] * self.players
        return self.game.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> "TorresState":
        """A state ``player_id`` cannot tell from this one: the cards it cannot see dealt at random."""
        if self.game is None:
            return self.clone()  # type: ignore[no-any-return]
        seed = int(probability_sampler() * 2**31) if callable(probability_sampler) else random.randrange(2**31)
        other = TorresState(self.get_game())
        other.chance = list(self.chance)  # (no longer read once dealt)
        other.game = self.game.view(player_id).determinize(random.Random(seed))
        other.log = [(actor, a if actor == player_id or DECODE[a][0] is not Kind.KEEP else -1)
                     for actor, a in self.log]
        other.private = [list(p) if s == player_id else [] for s, p in enumerate(self.private)]
        return other

    def view(self, player: int) -> SeatView:
        assert self.game is not None
        return self.game.view(player)

    def history_text(self, player: int) -> list[str]:
        """Every action as ``player`` saw it."""
        return [action_text_for(a, actor, player) or "keep ?" if a >= 0 else "keep ?" for actor, a in self.log]

    def __str__(self) -> str:
        if self.game is None:
            return f"setup chance {len(self.chance)}/{len(self.plan)}"
        return self.game.position()


class TorresObserver:
    """OpenSpiel's PyObserver: the tensor is the environment's observation of the seat; the string the seat's
    redacted position, with its history when ``perfect_recall``."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(OBS_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TorresState, player: int) -> None:
        if state.game is None:
            self.tensor.fill(0.0)
        else:
            encode(PublicFields(state.game, player), out=self.tensor)

    def string_from(self, state: TorresState, player: int) -> str:
        if state.game is None:
            return f"setup chance {len(state.chance)}/{len(state.plan)}"
        text = state.game.position(player)
        if not self.perfect_recall:
            return text
        return text + " | " + " ; ".join(state.history_text(player)) + " | " + " ; ".join(state.private[player])


pyspiel.register_game(GAME_TYPE, TorresGame)
