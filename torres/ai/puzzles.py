"""Puzzles, "find the best turn": positions where the master's best turn beats the natural alternative by a clear
margin (docs/puzzles.md). Mining, checking and judging an attempt; engine and ai only.

A puzzle is a seat's turn start (a full position string), the solution (the master planner's best turn) and the
numbers that make it a puzzle:

* **value** of a turn: the master evaluation right after its ``end`` for the seat (:func:`~.analysis.turn_value`,
  the units of the analysis: the bot's estimate of the final margin, in points).
* **the same solution**: two turns are the same solution when they leave the seat's knights on the same squares at
  the same levels. They may differ in the order of their actions, in blocks placed elsewhere, in what the points
  left over were spent on (scoring-track steps, a card bought) and in the cards kept.
* **runner-up**: the best of the master planner's top :data:`TOP` distinct turns that is not the same solution.
* **natural alternative**: the turn the expert level plays (:func:`expert_turn`); when that is the same solution,
  the runner-up.
* A position **is a puzzle** when the solution beats the natural alternative by :data:`MARGIN` (8) points or more
  and the runner-up by :data:`SOLVED_WITHIN` (2) or more: "a clear margin, and unique within 2" -- every turn the
  master's planner finds within 2 points of the best is the same solution.
* **solved**: an attempt whose value is at least ``value - SOLVED_WITHIN``. A turn even better than the stored
  solution (one the planner missed) solves it too.

Everything is deterministic: the planner runs on the full position (the seat's own hand is the seat's; the
evaluation counts the rivals' hands by size only and a bought card never changes a value), no clock, no global
randomness.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Sequence

from ..engine.actions import DECODE, Kind, PLAY_KINDS, format_action
from ..engine.state import GameState, IllegalActionError, Stage
from .analysis import MAX_TURN_ACTIONS, turn_value
from .evaluate import Weights
from .levels import EXPERT_BUDGET, EXPERT_WIDTH, build_bot
from .lookahead import LookaheadBot
from .planner import Plan, plan_turn

#: The least a puzzle's solution beats the natural alternative (the expert's turn) by, in points.
MARGIN = 8.0
#: An attempt this close to the solution's value (or better) solves the puzzle; the least the solution beats every
#: turn with another board by ("unique within 2").
SOLVED_WITHIN = 2.0
#: Mining's first look (:func:`worth_checking`): its evaluations, and the lead that makes a position worth the
#: master's planner.
SCREEN_BUDGET = 6000
SCREEN = 4.0
#: How many distinct turns of the master's planner a puzzle is checked against.
TOP = 64
#: The fewest evaluations a puzzle is solved with: solving is not played against a clock, so it keeps what the
#: master's 2-player turn had when the puzzles were mined, though in play its budget is now 18,000 (issue #34).
SOLVE_BUDGET = 24000
#: ... and with 3–4 players, where the puzzles were mined on 48,000 before each seat count had its own, smaller
#: budget in play (its slowest turns took over a second, issue #34).
SOLVE_MANY_BUDGET = 48000
#: The themes, in the order a solution is given the first that fits.
THEMES = ("card", "king", "build-and-climb", "climb", "knight", "build", "points")
#: Difficulty: the weakest planner that finds the solution ("easy": a one-wide beam, "medium": the expert's).
DIFFICULTIES = ("easy", "medium", "hard")
_IN_TURN = (Stage.TURN, Stage.KEEP)


class PuzzleError(ValueError):
    """An attempt the engine refuses (an illegal action, too many, a turn not ended); the message says why."""


class _Leads:
    """A solution's leads, for a class with ``value``, ``runner_up`` and ``natural``."""

    value: float
    runner_up: float
    natural: float

    @property
    def margin(self) -> float:
        """How far the solution is ahead of the natural alternative."""
        return self.value - self.natural

    @property
    def unique_by(self) -> float:
        """How far the solution is ahead of every turn with another board."""
        return self.value - self.runner_up


@dataclass(frozen=True)
class Puzzle(_Leads):
    id: str
    position: str  # the full position at the seat's turn start (it holds every hand and deck: never sent out)
    seat: int
    solution: tuple[str, ...]  # notation, ``end`` last
    value: float
    runner_up: float
    natural: float  # the natural alternative's value (the expert's turn, or the runner-up if the expert finds it)
    theme: str
    players: int
    phase: int  # 1-based, as the view's JSON
    round: int
    difficulty: str
    scoring: bool = False  # the turn ends a phase: its scoring follows at once
    card: str = ""  # the card the solution plays, if any
    missed: bool = False  # the seat that played the position in the game did not find the solution
    source: str = ""  # where it was mined: "players:game:turn"

    def state(self) -> GameState:
        return GameState.from_position(self.position)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "position": self.position, "seat": self.seat, "solution": list(self.solution),
                "value": _round(self.value), "runner_up": _round(self.runner_up),
                "natural": _round(self.natural), "theme": self.theme,
                "players": self.players, "phase": self.phase, "round": self.round, "difficulty": self.difficulty,
                "scoring": self.scoring, "card": self.card, "missed": self.missed, "source": self.source}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> "Puzzle":
        return cls(id=str(obj["id"]), position=str(obj["position"]), seat=int(obj["seat"]),
                   solution=tuple(str(a) for a in obj["solution"]), value=float(obj["value"]),
                   runner_up=float(obj["runner_up"]), natural=float(obj["natural"]), theme=str(obj["theme"]),
                   players=int(obj["players"]), phase=int(obj["phase"]), round=int(obj["round"]),
                   difficulty=str(obj["difficulty"]), scoring=bool(obj.get("scoring", False)),
                   card=str(obj.get("card", "")), missed=bool(obj.get("missed", False)),
                   source=str(obj.get("source", "")))

    def summary(self) -> dict[str, Any]:
        """What a list of puzzles shows (nothing of the solution)."""
        return {"id": self.id, "theme": self.theme, "players": self.players, "difficulty": self.difficulty,
                "phase": self.phase, "round": self.round, "scoring": self.scoring}


def _round(value: float) -> float:
    return round(float(value), 2) + 0.0


# --- the master's planner --------------------------------------------------------------------------------------
def master_planner() -> LookaheadBot:
    bot = build_bot("master", 0)
    if not isinstance(bot, LookaheadBot):
        raise TypeError("the master level is expected to be a look-ahead over a whole-turn planner")
    return bot


def master_weights() -> Weights:
    return master_planner().weights


def master_turns(state: GameState, top: int = TOP) -> list[Plan]:
    """The master planner's best ``top`` distinct turns from ``state`` (a seat's turn start), best first: its beam
    width and evaluations for the number of players (never fewer than :data:`SOLVE_BUDGET`, or
    :data:`SOLVE_MANY_BUDGET` with 3–4 players), stopped at half as much again, where its own planner stops."""
    bot = master_planner()
    width, budget = bot.beam(state.n)
    budget = max(budget, SOLVE_BUDGET if state.n == 2 else SOLVE_MANY_BUDGET)
    return plan_turn(state.clone(), width, bot.weights, top=top, budget=budget, limit=budget * 3 // 2)


def board_of(state: GameState, seat: int) -> tuple[tuple[int, int], ...]:
    """What makes two turns the same solution: where the seat's knights stand, and how high."""
    return tuple(sorted((sq, state.heights[sq]) for sq in state.knights[seat]))


def after_turn(state: GameState, actions: Sequence[int]) -> GameState:
    after = state.clone()
    for action in actions:
        after.apply(action)
    return after


def expert_turn(state: GameState) -> list[int]:
    """The natural turn: the one the expert level plays (its beam, evaluations and own evaluation) from ``state``."""
    expert = build_bot("expert", 0)
    weights = getattr(expert, "weights", master_weights())
    plans = plan_turn(state.clone(), EXPERT_WIDTH, weights, budget=EXPERT_BUDGET, limit=EXPERT_BUDGET * 3 // 2)
    return plans[0].actions


@dataclass(frozen=True)
class Check(_Leads):
    """A position judged as a puzzle: the master's best turn and its value, the best turn with another board
    (``runner_up``) and the natural alternative's value (the expert's turn, or the runner-up when the expert finds
    the solution)."""

    solution: tuple[int, ...]
    value: float
    runner_up: float
    natural: float
    alternatives: int  # distinct turns compared
    same: int = 0  # other turns found that are the same solution (same board)
    expert: tuple[int, ...] = ()  # the expert's turn

    @property
    def is_puzzle(self) -> bool:
        return self.margin >= MARGIN and self.unique_by >= SOLVED_WITHIN


def worth_checking(state: GameState, expert: Sequence[int]) -> bool:
    """A cheap first look for mining (a beam twice the expert's with a quarter of the master's evaluations, the
    master's evaluation): whether its best turn is at least :data:`SCREEN` points ahead of the expert's turn and of
    its best turn with another board. Only such positions are judged by the master's planner (the first look
    finds most of the puzzles at a fifth of the cost; it decides nothing about a puzzle)."""
    seat, weights = state.current, master_weights()
    plans = plan_turn(state.clone(), EXPERT_WIDTH * 2, weights, top=TOP, budget=SCREEN_BUDGET,
                      limit=SCREEN_BUDGET * 3 // 2)
    best_board = board_of(after_turn(state, plans[0].actions), seat)
    others = [p.value for p in plans[1:] if board_of(after_turn(state, p.actions), seat) != best_board]
    expert_after = after_turn(state, expert)
    if board_of(expert_after, seat) != best_board:
        others.append(turn_value(expert_after, seat, weights))
    return plans[0].value - max(others, default=plans[0].value) >= SCREEN


def check_position(state: GameState, top: int = TOP, natural_turn: Sequence[int] | None = None) -> Check:
    """``state`` (a seat's turn start) judged by the master's planner, against the expert's turn (``natural_turn``
    when it is known already)."""
    if state.stage is not Stage.TURN:
        raise ValueError("a puzzle starts at a seat's turn start")
    seat = state.current
    plans = master_turns(state, top)
    best = plans[0]
    best_board = board_of(after_turn(state, best.actions), seat)
    runner_up, same = float("-inf"), 0
    for plan in plans[1:]:
        if board_of(after_turn(state, plan.actions), seat) == best_board:
            same += 1
        else:
            runner_up = max(runner_up, plan.value)
    if runner_up == float("-inf"):  # (a single way to play the turn is no puzzle)
        runner_up = best.value
    if natural_turn is None:
        natural_turn = expert_turn(state)
    expert = after_turn(state, natural_turn)
    natural = runner_up if board_of(expert, seat) == best_board else turn_value(expert, seat, master_weights())
    return Check(tuple(best.actions), best.value, runner_up, natural, len(plans), same, tuple(natural_turn))


# --- themes and difficulty ---------------------------------------------------------------------------------------
def theme_of(state: GameState, actions: Sequence[int]) -> tuple[str, str]:
    """The solution's theme (the first of :data:`THEMES` that fits) and the card it plays ("" for none)."""
    seat = state.current
    after = after_turn(state, actions)
    kinds = [DECODE[a][0] for a in actions]
    card = next((PLAY_KINDS[k] for k in kinds if k in PLAY_KINDS), None)
    if card is not None:
        return "card", card.text
    if _king_castle_level(after, seat) > _king_castle_level(state, seat):
        return "king", ""
    rose = _top_level(after, seat) > _top_level(state, seat)
    if rose and Kind.BLOCK in kinds:
        return "build-and-climb", ""
    if rose:
        return "climb", ""
    if Kind.KNIGHT in kinds:
        return "knight", ""
    if Kind.BLOCK in kinds:
        return "build", ""
    return "points", ""


def _top_level(state: GameState, seat: int) -> int:
    return max((state.heights[sq] for sq in state.knights[seat]), default=0)


def _king_castle_level(state: GameState, seat: int) -> int:
    """The seat's highest knight in the king's castle (-1 without one)."""
    if state.king < 0:
        return -1
    castle = state.info.cid[state.king]
    return max((state.heights[sq] for sq in state.knights[seat] if state.info.cid[sq] == castle >= 0), default=-1)


def difficulty_of(state: GameState, solution_value: float) -> str:
    """"easy" when a one-wide beam finds a turn as good (within :data:`SOLVED_WITHIN`), "medium" when the expert's
    planner does, else "hard"."""
    weights = master_weights()
    for name, width, budget in (("easy", 1, 0), ("medium", EXPERT_WIDTH, EXPERT_BUDGET)):
        plan = plan_turn(state.clone(), width, weights, budget=budget, limit=budget * 3 // 2)[0]
        if plan.value >= solution_value - SOLVED_WITHIN:
            return name
    return "hard"


def ends_phase(state: GameState, actions: Sequence[int]) -> bool:
    return len(after_turn(state, actions).scorings) > len(state.scorings)


def make_puzzle(state: GameState, check: Check, puzzle_id: str, missed: bool = False, source: str = "") -> Puzzle:
    theme, card = theme_of(state, check.solution)
    return Puzzle(id=puzzle_id, position=state.position(), seat=state.current,
                  solution=tuple(format_action(a) for a in check.solution), value=check.value,
                  runner_up=check.runner_up, natural=check.natural, theme=theme, players=state.n,
                  phase=state.phase + 1, round=state.round + 1, difficulty=difficulty_of(state, check.value),
                  scoring=ends_phase(state, check.solution), card=card, missed=missed, source=source)


# --- an attempt --------------------------------------------------------------------------------------------------
@dataclass
class Attempt:
    """The puzzle's position after the actions given: the seat's turn, over or not."""

    puzzle: Puzzle
    state: GameState
    actions: list[str] = field(default_factory=list)
    start_key: tuple[int, int, int] = (0, 0, 0)

    @property
    def done(self) -> bool:
        """Whether the seat's turn has ended (with ``end``; a phase scoring may follow)."""
        return self.state.stage not in _IN_TURN or _turn_key_of(self.state) != self.start_key

    def value(self) -> float:
        return turn_value(self.state, self.puzzle.seat, master_weights())


def _turn_key_of(state: GameState) -> tuple[int, int, int]:
    return (state.phase, state.round, state.turn)


def attempt(puzzle: Puzzle, actions: Sequence[Any]) -> Attempt:
    """The engine plays ``actions`` (notation) from the puzzle's position, each checked legal; :class:`PuzzleError`
    for anything else. The turn may be unfinished (the page sends the actions so far)."""
    if not isinstance(actions, (list, tuple)):
        raise PuzzleError("actions must be a list of actions in notation")
    if len(actions) > MAX_TURN_ACTIONS:
        raise PuzzleError(f"a turn has at most {MAX_TURN_ACTIONS} actions, not {len(actions)}")
    start = puzzle.state()
    key = _turn_key_of(start)
    state = start
    played: list[str] = []
    for i, text in enumerate(actions):
        if not isinstance(text, str) or not text or len(text) > 80:
            raise PuzzleError(f"action {i + 1} is not an action in notation")
        if state.stage not in _IN_TURN or _turn_key_of(state) != key:
            raise PuzzleError(f"action {i + 1} ({text[:40]!r}) comes after the turn's end")
        try:
            action = state.parse(text)
            state.push(action)
        except (IllegalActionError, ValueError) as exc:
            raise PuzzleError(f"action {i + 1} ({text[:40]!r}) is not legal here: {exc}") from None
        played.append(format_action(state.history[-1]))
    return Attempt(puzzle, state, played, key)


@dataclass(frozen=True)
class Verdict:
    solved: bool
    value: float
    short: float  # points short of the solution (0 when solved or better)


def judge(attempt_: Attempt) -> Verdict:
    """A finished turn judged against the puzzle's solution."""
    if not attempt_.done:
        raise PuzzleError("the turn is not over yet: end it with \"end\"")
    value = attempt_.value()
    short = max(0.0, attempt_.puzzle.value - value)
    return Verdict(value >= attempt_.puzzle.value - SOLVED_WITHIN, value, short)


# --- the shipped puzzles -----------------------------------------------------------------------------------------
def load_puzzles(path: str | None = None) -> list[Puzzle]:
    """The puzzles shipped in ``torres/data/puzzles.json`` (or ``path``)."""
    if path is None:
        text = (resources.files("torres") / "data" / "puzzles.json").read_text(encoding="utf-8")
    else:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    return [Puzzle.from_json(p) for p in json.loads(text)["puzzles"]]


__all__ = ["Attempt", "Check", "DIFFICULTIES", "MARGIN", "Puzzle", "PuzzleError", "SOLVED_WITHIN", "THEMES", "TOP",
           "Verdict", "attempt", "board_of", "check_position", "judge", "load_puzzles", "make_puzzle",
           "master_turns", "theme_of"]
