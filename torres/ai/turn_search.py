"""The full-width search of one turn that the exhaustive yardstick plays (:mod:`torres.ai.exhaustive`, issue #34).

It lives apart from the bot so that it can be compiled with the planner and the evaluation it calls
(:mod:`torres.native`): a yardstick game spends nine tenths of its time here, and every measure against the
yardstick waits on it. The search is a class rather than nested functions (compiled, its fields and methods are
direct C accesses and calls); it visits the positions in the same order, counts them alike and returns the same
turn whether compiled or not (tests/test_exhaustive.py, tests/test_native.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from ..engine.actions import DECODE, O_END, O_SCORE, Kind
from ..engine.scoring import track_after_scoring
from ..engine.state import GameState, Stage
from .evaluate import Weights, evaluate
from .planner import Evaluator, _key, keep_choice

#: No turn has more steps than this (5 action points, a six or seven card's 2 more, the stack, a card play and the
#: buys): a deeper search means the engine let an action repeat forever, which would be a bug worth stopping on.
MAX_DEPTH = 40


def scored_now(state: GameState) -> list[int]:
    """Every seat's points on the track if the phase were scored now (the engine's
    :func:`~torres.engine.scoring.track_after_scoring`: :meth:`GameState.scoring_now`'s ``after`` without its
    record; tests/test_exhaustive.py checks the two agree)."""
    return track_after_scoring(state.rules, state.info, state.knights, state.king, state.phase, state.scores,
                               state.start, state.master_card)


def score_evaluation(state: GameState, seat: int) -> float:
    """The seat's points if the phase were scored now minus the best rival's. A turn that ends the phase has
    been scored by the engine already (the stage has moved on): its track is taken as it stands."""
    stage = state.stage
    points = scored_now(state) if stage is Stage.TURN or stage is Stage.KEEP else state.scores
    return float(points[seat] - max(p for s, p in enumerate(points) if s != seat))


@mypyc_attr(native_class=False)  # (a bot holding one still copies and pickles)
class WeightsEvaluation:
    """:func:`~torres.ai.evaluate.evaluate` with fixed weights, as an :data:`~torres.ai.planner.Evaluator`; the
    search recognises it and calls the evaluation directly."""

    def __init__(self, weights: Weights) -> None:
        self.weights = weights

    def __call__(self, state: GameState, seat: int) -> float:
        return evaluate(state, seat, self.weights)


@mypyc_attr(native_class=False)  # (a value type: a bot that keeps its last search still copies and pickles)
@dataclass
class TurnSearch:
    """The outcome of :func:`search_turn`: the best complete turn found and what the search cost."""

    actions: list[int]
    value: float
    nodes: int = 0  # distinct positions expanded (merged by the planner's key)
    evaluations: int = 0  # positions after ``end`` evaluated
    sequences: int = 0  # action sequences in the turn's tree (the nodes without merging); exact only if complete
    complete: bool = True  # False: a limit stopped the search
    depth: int = 0  # the most steps of any sequence searched


def search_turn(state: GameState, evaluator: Evaluator, nodes: int = 0, deadline: float = 0.0) -> TurnSearch:
    """The turn (ending with ``end``) whose position after it evaluates best for the seat to move, searched at full
    width. ``nodes`` > 0 stops the search once that many positions have been expanded (the root always is);
    ``deadline`` (a ``time.perf_counter()`` value) stops it by the clock. Either way the best complete turn found
    so far is returned. ``state`` must be in the TURN stage; it is restored before returning.

    A step is one action other than ``end`` and the scoring track (those close the turn: every position's value is
    that of ending the turn there, with its action points left spent on the track, as the planner does), a buy
    and its keep together. Children are searched best first by the value of ending the turn right after them, so
    that a search cut short has looked where the best turns are likely to be. ``sequences`` counts the positions
    of the tree without merging (every distinct sequence of steps from the root, the root included), counted
    through the merged graph."""
    search = _Search(state, evaluator, nodes, deadline)
    legal = state.legal_action_ids()
    search.close(legal)
    search.result.sequences = search.expand(_key(state, search.seat), legal, 0)
    result = search.result
    if result.value == float("-inf"):  # (no position where the turn may end: play what the engine allows)
        result.value = 0.0
        result.actions = [O_END]
    return result


class _Search:
    """One search's state: the position searched (pushed and popped in place), the path to it, the best turn so far,
    and the positions whose subtrees are done, with the sequences below each."""

    def __init__(self, state: GameState, evaluator: Evaluator, nodes: int, deadline: float) -> None:
        self.state = state
        self.seat = state.current
        self.evaluator = evaluator
        self.weights: Weights | None = evaluator.weights if isinstance(evaluator, WeightsEvaluation) else None
        self.nodes = nodes
        self.deadline = deadline
        self.finished: dict[tuple[object, ...], int] = {}
        self.result = TurnSearch([O_END], float("-inf"))
        self.path: list[int] = []

    def close(self, legal: list[int]) -> float | None:
        """The value of ending the turn here (leftover points to the track), and the best turn updated; None
        where the turn may not end."""
        if O_END not in legal:
            return None
        state = self.state
        tail = [O_SCORE] * state.ap if O_SCORE in legal else []
        for a in tail:
            state.push(a, False)
        state.push(O_END, False)
        weights = self.weights
        value = evaluate(state, self.seat, weights) if weights is not None else self.evaluator(state, self.seat)
        for _ in range(len(tail) + 1):
            state.pop()
        result = self.result
        result.evaluations += 1
        if value > result.value:
            result.value = value
            result.actions = self.path + tail + [O_END]
        return value

    def step(self, a: int) -> int:
        """Push one step (a buy with its keep): the number of actions pushed."""
        state = self.state
        state.push(a, False)
        if DECODE[a][0] is Kind.BUY and state.stage is Stage.KEEP:
            state.push(keep_choice(state.legal_action_ids()), False)
            return 2
        return 1

    def expand(self, key: tuple[object, ...], legal: list[int], depth: int) -> int:
        """Search below this position (its own value already taken): the sequences below it, itself included."""
        state, result, path, finished, seat = self.state, self.result, self.path, self.finished, self.seat
        result.nodes += 1
        if depth > result.depth:
            result.depth = depth
        if depth > MAX_DEPTH:
            raise RuntimeError(f"a turn deeper than {MAX_DEPTH} steps: {path}")
        total = 1
        children: list[tuple[float, int, tuple[object, ...], list[int]]] = []
        for a in legal:
            kind = DECODE[a][0]
            if kind is Kind.END or kind is Kind.SCORE:
                continue
            pushed = self.step(a)
            child = _key(state, seat)
            known = finished.get(child)
            if known is not None:
                total += known
            else:
                path.append(a)
                if pushed == 2:
                    path.append(state.history[-1])
                value = self.close(state.legal_action_ids())
                children.append((float("-inf") if value is None else value, len(children), child, path[-pushed:]))
                del path[-pushed:]
            for _ in range(pushed):
                state.pop()
        children.sort(key=_best_first)
        nodes, deadline = self.nodes, self.deadline
        for _, _, child, actions in children:
            known = finished.get(child)  # (reached meanwhile below an earlier sibling)
            if known is not None:
                total += known
                continue
            if nodes and result.nodes >= nodes or deadline and time.perf_counter() >= deadline:
                result.complete = False
                break
            for a in actions:
                state.push(a, False)
            path.extend(actions)
            total += self.expand(child, state.legal_action_ids(), depth + 1)
            del path[-len(actions):]
            for _ in actions:
                state.pop()
        if result.complete:
            finished[key] = total
        return total


def _best_first(child: tuple[float, int, tuple[object, ...], list[int]]) -> tuple[float, int]:
    return -child[0], child[1]
