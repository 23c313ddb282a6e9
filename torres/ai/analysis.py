"""Analysis of a finished game: every turn of every seat judged against the turn a bot finds from the same position
with the same information (docs/analysis.md).

A **turn** is one seat's actions from the start of its turn to its ``end`` (card draws and keeps inside it
included); setup placements, king moves and start-player choices are not turns and are not judged.

How a turn is judged (:func:`judge_turn`):

* **best**: the analysing bot plays the turn from the seat's own view (:meth:`GameState.view`), as it would in a
  game: its planner determinizes the cards it cannot see, and after a card draw it sees the card drawn and
  re-plans. It never sees a rival's hand or the deck's order.
* **value** of a turn: the analysing level's evaluation (:func:`torres.ai.evaluate.evaluate`, its own weights)
  right after the turn's ``end``, for the seat: its projected final points minus its rivals' — the bot's estimate
  of the final margin, in points of the scoring track. The evaluation counts hands by size, never by which cards
  they hold, so what a draw brought never changes a turn's value: a turn is judged by its decisions, not its luck.
* ``value_before`` is the value of the better of the two turns (what the position offered), ``value_after`` that
  of the turn played, and ``loss = value_before - value_after >= 0``. A played turn that evaluates at least as
  well as the bot's is the best (loss 0, ``best`` = ``played``).

The pieces are public so that an analysis board and a puzzle miner can judge any turn from any position:
:func:`game_turns`, :func:`bot_turn`, :func:`turn_value`, :func:`judge_turn`, :func:`analyse_record`.
Everything is deterministic for a seed: no clock, no global randomness.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..engine.actions import format_action
from ..engine.state import GameState, Stage
from .base import Bot
from .evaluate import DEFAULT_WEIGHTS, Weights, evaluate
from .levels import build_bot
from .winchance import WinChance, load_win_chance

#: The level whose judgement ``torres analyse`` and the server give unless told otherwise.
DEFAULT_LEVEL = "master"
#: How many of a seat's turns its summary names as its worst.
WORST_TURNS = 3
#: A turn's actions at most (a turn with every card is about 20; a bot that never ends its turn is a bug).
MAX_TURN_ACTIONS = 64
_IN_TURN = (Stage.TURN, Stage.KEEP)


class AnalysisError(ValueError):
    """A record that cannot be analysed (an unfinished game); the message says why."""


@dataclass(frozen=True)
class Turn:
    """A seat's turn in a game: it starts after ``start`` actions of the game and ends after ``end``."""

    index: int
    seat: int
    phase: int
    round: int
    start: int
    end: int
    played: tuple[int, ...]


@dataclass(frozen=True)
class Judgement:
    """One turn judged: what was played, the better turn found, their values for the seat and each seat's chance
    to win after the turn played."""

    turn: Turn
    played: tuple[str, ...]
    best: tuple[str, ...]
    value_before: float
    value_after: float
    win_chance: tuple[float, ...]

    @property
    def loss(self) -> float:
        return max(0.0, self.value_before - self.value_after)

    def to_json(self) -> dict[str, Any]:
        t = self.turn
        return {"turn": t.index, "seat": t.seat, "phase": t.phase, "round": t.round, "start": t.start, "end": t.end,
                "played": list(self.played), "best": list(self.best), "loss": _round(self.loss),
                "value_before": _round(self.value_before), "value_after": _round(self.value_after),
                "win_chance": [_round(p, 4) for p in self.win_chance]}


@dataclass(frozen=True)
class Analysis:
    level: str
    seed: int
    players: int
    judgements: tuple[Judgement, ...]
    evaluation: str = ""
    final_scores: tuple[int, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return analysis_json(self.level, self.seed, self.evaluation, self.final_scores,
                             [j.to_json() for j in self.judgements])


def _round(value: float, digits: int = 2) -> float:
    return round(float(value), digits) + 0.0  # (+ 0.0: no "-0.0" in the JSON)


# --- the turns of a game -------------------------------------------------------------------------------------
def game_turns(start: GameState, actions: Sequence[int]) -> list[Turn]:
    """The turns of the game that ``actions`` (ids) play from ``start`` (which is not changed)."""
    state = start.clone()
    turns: list[Turn] = []
    first, key = 0, None  # where the turn being read started, and its key (None: between turns)
    for i, action in enumerate(actions):
        now = _turn_key(state) if state.stage in _IN_TURN else None
        if now != key:
            if key is not None:
                turns.append(_turn(len(turns), key, first, i, actions))
            first, key = i, now
        state.apply(action)
    if key is not None:
        turns.append(_turn(len(turns), key, first, len(actions), actions))
    return turns


def _turn_key(state: GameState) -> tuple[int, int, int, int]:
    return (state.phase, state.round, state.turn, state.current)


def _turn(index: int, key: tuple[int, int, int, int], first: int, end: int, actions: Sequence[int]) -> Turn:
    phase, rnd, _, seat = key
    return Turn(index, seat, phase, rnd, first, end, tuple(actions[first:end]))


# --- judging one turn ----------------------------------------------------------------------------------------
def bot_turn(state: GameState, bot: Bot) -> GameState:
    """A copy of ``state`` (a seat's turn start) after ``bot`` has played the whole turn from that seat's view, as
    in a game: each decision from :meth:`GameState.view` of the seat, the real draw seen only once bought."""
    seat, key = state.current, _turn_key(state)
    after = state.clone()
    for _ in range(MAX_TURN_ACTIONS):
        if after.stage not in _IN_TURN or _turn_key(after) != key:
            return after
        after.push(bot.choose(after.view(seat)))
    raise RuntimeError(f"{bot.name} did not end its turn within {MAX_TURN_ACTIONS} actions")


def turn_value(after: GameState, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """A turn's value for ``seat``: the evaluation right after its ``end`` (projected final points minus the
    rivals'; at the game's end, the real margin)."""
    return evaluate(after, seat, weights)


def weights_of(bot: Bot) -> Weights:
    """The evaluation a level judges with: its own, or the tuned one for bots without one (random, ismcts...)."""
    weights = getattr(bot, "weights", None)
    return weights if isinstance(weights, Weights) else DEFAULT_WEIGHTS


def turn_seed(seed: int, index: int) -> int:
    """The analysing bot's seed for turn ``index``: each turn is judged alone, the same in any order or process."""
    return seed * 100_003 + index


def judge_turn(state: GameState, turn: Turn, level: str = DEFAULT_LEVEL, seed: int = 0,
               win_chance: WinChance | None = None) -> Judgement:
    """``turn`` judged from ``state``, the game at the turn's start (the bot sees only the seat's view of it)."""
    if state.stage is not Stage.TURN or state.current != turn.seat:
        raise ValueError(f"the position is not seat {turn.seat}'s turn start")
    bot = build_bot(level, turn_seed(seed, turn.index))
    weights = weights_of(bot)
    played_state = state.clone()
    for action in turn.played:
        played_state.apply(action)
    best_state = bot_turn(state, bot)
    value_after = turn_value(played_state, turn.seat, weights)
    value_best = turn_value(best_state, turn.seat, weights)
    played = tuple(format_action(a) for a in turn.played)
    if value_best > value_after:
        best = tuple(format_action(a) for a in best_state.history[len(state.history):])
    else:
        best, value_best = played, value_after
    chances = (win_chance or load_win_chance()).chances(played_state)
    return Judgement(turn, played, best, value_best, value_after, tuple(chances))


# --- a whole game --------------------------------------------------------------------------------------------
def finished_game(record: dict[str, Any]) -> tuple[GameState, list[int]]:
    """The start of a (validated, finished) record's game and its actions as ids; :class:`AnalysisError` for an
    unfinished game, whose analysis would reveal the cards still hidden."""
    from ..records import new_game

    return new_game(record), list(_final(record).history)


def final_scores(record: dict[str, Any]) -> list[int]:
    return list(_final(record).scores)


def _final(record: dict[str, Any]) -> GameState:
    from ..records import replay

    final = replay(record)
    if not final.is_over():
        raise AnalysisError("only a finished game can be analysed: the analysis of an unfinished game would "
                            "reveal cards that are still hidden")
    return final


def analyse_record(record: dict[str, Any], level: str = DEFAULT_LEVEL, seed: int = 0,
                   progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Every turn of a finished game's record judged by ``level`` (:func:`judge_turn`); ``progress(done, total)``
    after each turn."""
    build_bot(level, seed)  # an unknown level fails before any work
    start, actions = finished_game(record)
    turns = game_turns(start, actions)
    chance = load_win_chance()
    state = start.clone()
    done_actions = 0
    judgements = []
    for turn in turns:
        for action in actions[done_actions:turn.start]:
            state.apply(action)
        done_actions = turn.start
        judgements.append(judge_turn(state, turn, level, seed, chance))
        if progress is not None:
            progress(len(judgements), len(turns))
    for action in actions[done_actions:]:
        state.apply(action)
    return Analysis(level, seed, start.n, tuple(judgements), evaluation_name(level), tuple(state.scores))


def judge_record_turn(record: dict[str, Any], index: int, level: str = DEFAULT_LEVEL, seed: int = 0) -> Judgement:
    """Turn ``index`` of a finished record judged alone (what a worker process does, one turn at a time)."""
    start, actions = finished_game(record)
    turns = game_turns(start, actions)
    if not 0 <= index < len(turns):
        raise ValueError(f"the game has {len(turns)} turns, not a turn {index}")
    turn = turns[index]
    for action in actions[:turn.start]:
        start.apply(action)
    return judge_turn(start, turn, level, seed)


def evaluation_name(level: str) -> str:
    """The name of the evaluation ``level`` judges with (as in :data:`torres.ai.evaluate.EVALUATIONS`)."""
    from .evaluate import EVALUATIONS

    weights = weights_of(build_bot(level, 0))
    return next((name for name, w in EVALUATIONS.items() if w == weights), "custom")


def analysis_json(level: str, seed: int, evaluation: str, scores: Sequence[int],
                  turns: list[dict[str, Any]]) -> dict[str, Any]:
    """The analysis as JSON (docs/analysis.md): the judged turns (:meth:`Judgement.to_json`) and a summary per
    seat."""
    return {"level": level, "seed": seed, "evaluation": evaluation, "scores": list(scores), "turns": turns,
            "players": player_summaries(turns, len(scores))}


def player_summaries(turns: Sequence[dict[str, Any]], players: int) -> list[dict[str, Any]]:
    """Per seat: the turns judged, the mean and total loss per turn and its worst turns (largest loss first,
    turns with no loss left out)."""
    out = []
    for seat in range(players):
        own = [t for t in turns if t["seat"] == seat]
        total = sum(t["loss"] for t in own)
        worst = sorted((t for t in own if t["loss"] > 0), key=lambda t: (-t["loss"], t["turn"]))[:WORST_TURNS]
        out.append({"seat": seat, "turns": len(own), "mean_loss": _round(total / len(own) if own else 0.0),
                    "total_loss": _round(total), "best_turns": sum(1 for t in own if t["loss"] == 0),
                    "worst": [t["turn"] for t in worst]})
    return out


def record_turns(record: dict[str, Any]) -> int:
    """How many turns of a finished record an analysis judges."""
    start, actions = finished_game(record)
    return len(game_turns(start, actions))


def record_analysis(record: dict[str, Any], level: str, seed: int, turns: list[dict[str, Any]]) -> dict[str, Any]:
    """The analysis JSON of a finished record from its turns judged one at a time (:func:`judge_record_turn`)."""
    return analysis_json(level, seed, evaluation_name(level), final_scores(record), turns)


__all__ = ["Analysis", "AnalysisError", "DEFAULT_LEVEL", "Judgement", "Turn", "analyse_record", "analysis_json",
           "bot_turn", "finished_game", "game_turns", "judge_record_turn", "judge_turn", "player_summaries",
           "record_analysis", "record_turns", "turn_value", "weights_of"]
