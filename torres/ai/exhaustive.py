"""The exhaustive yardstick: a full-width search over every action sequence of the current seat's turn.

The planner (:mod:`torres.ai.planner`) keeps only the best ``width`` positions at each step of a turn; this search
keeps them all, so it finds the turn whose position after ``end`` evaluates best, by construction (issue #34: it is
the yardstick the planner's misses are measured against, not a level). It shares the planner's machinery: the
engine's ``push``/``pop``, the planner's transposition key (a position reached again by another order of the same
actions is searched once), a buy planned as "buy, keep the best card drawn" (:func:`~torres.ai.planner.keep_choice`),
and leftover action points spent on the scoring track when the turn ends. A turn has no opponent move, so there is
nothing for alpha-beta to prune without a bound on the evaluation: the search is a plain depth-first max.

Children are searched best first by the value of ending the turn right after them (a value the search needs for
each position anyway), so that a search cut short by ``nodes`` or ``seconds`` still returns a good complete turn:
the best one among the positions it reached. ``nodes`` counts distinct positions expanded and is the deterministic
limit; ``seconds`` is a wall-clock limit (it makes the turn depend on the machine).

Two kinds of evaluation: any of the planner's (:data:`~torres.ai.evaluate.EVALUATIONS`, e.g. ``tuned``), or
``score``: the points each seat would have if the phase were scored now (the track as it stands plus castles, the
king's bonus and the master card's bonus, with the track's rule that a marker skips occupied spaces), the seat's
own minus the best rival's.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from ..engine.actions import DECODE, Kind, O_END, O_SCORE
from ..engine.master import MasterCard, master_bonus
from ..engine.rules import ScoringOrder
from ..engine.scoring import advance, castle_points, earns_king_bonus
from ..engine.state import GameState, Stage
from ..engine.view import SeatView
from .evaluate import DEFAULT_WEIGHTS, Weights, evaluate
from .greedy import TurnPlanningBot
from .planner import Evaluator, _key, keep_choice

#: No turn has more steps than this (5 action points, a six or seven card's 2 more, the stack, a card play and the
#: buys): a deeper search means the engine let an action repeat forever, which would be a bug worth stopping on.
MAX_DEPTH = 40


def scored_now(state: GameState) -> list[int]:
    """Every seat's points on the track if the phase were scored now: :func:`torres.engine.scoring.score_phase`'s
    ``after`` without building its record (a search calls this for every position it reaches;
    tests/test_exhaustive.py checks the two agree)."""
    n = state.n
    track = list(state.scores)
    phase = state.phase
    if state.rules.scoring_order is ScoringOrder.TRACK and phase > 0:
        order = sorted(range(n), key=lambda s: (-track[s], (s - state.start) % n))
    else:
        order = [(state.start + i) % n for i in range(n)]
    info, knights = state.info, state.knights
    for seat in order:
        advance(track, seat, castle_points(info, knights[seat])[0])
    bonus = state.rules.king_bonus[phase]
    for seat in order:
        if earns_king_bonus(info, knights[seat], state.king, phase):
            advance(track, seat, bonus)
    if state.master_card >= 0:
        extra = master_bonus(MasterCard(state.master_card), phase, info, knights)
        for seat in order:
            advance(track, seat, extra[seat])
    return track


def score_evaluation(state: GameState, seat: int) -> float:
    """The seat's points if the phase were scored now minus the best rival's. A turn that ends the phase has
    been scored by the engine already (the stage has moved on): its track is taken as it stands."""
    stage = state.stage
    points = scored_now(state) if stage is Stage.TURN or stage is Stage.KEEP else state.scores
    return float(points[seat] - max(p for s, p in enumerate(points) if s != seat))


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
    and its keep together. ``sequences`` counts the positions of the tree without merging (every distinct
    sequence of steps from the root, the root included), counted through the merged graph."""
    seat = state.current
    finished: dict[tuple[object, ...], int] = {}  # key → sequences below it (itself included)
    result = TurnSearch([O_END], float("-inf"))
    path: list[int] = []
    push, pop = state.push, state.pop

    def close(legal: list[int]) -> float | None:
        """The value of ending the turn here (leftover points to the track), and the best turn updated."""
        if O_END not in legal:
            return None
        tail = [O_SCORE] * state.ap if O_SCORE in legal else []
        for a in tail:
            push(a, check=False)
        push(O_END, check=False)
        value = evaluator(state, seat)
        for _ in range(len(tail) + 1):
            pop()
        result.evaluations += 1
        if value > result.value:
            result.value = value
            result.actions = path + tail + [O_END]
        return value

    def step(a: int) -> int:
        """Push one step (a buy with its keep): the number of actions pushed."""
        push(a, check=False)
        if DECODE[a][0] is Kind.BUY and state.stage is Stage.KEEP:
            push(keep_choice(state.legal_action_ids()), check=False)
            return 2
        return 1

    def expand(key: tuple[object, ...], legal: list[int], depth: int) -> int:
        """Search below this position (its own value already taken): the sequences below it, itself included."""
        result.nodes += 1
        result.depth = max(result.depth, depth)
        if depth > MAX_DEPTH:
            raise RuntimeError(f"a turn deeper than {MAX_DEPTH} steps: {path}")
        total = 1
        children: list[tuple[float, int, tuple[object, ...], list[int]]] = []
        for a in legal:
            kind = DECODE[a][0]
            if kind is Kind.END or kind is Kind.SCORE:
                continue
            pushed = step(a)
            child = _key(state, seat)
            known = finished.get(child)
            if known is not None:
                total += known
            else:
                path.append(a)
                if pushed == 2:
                    path.append(state.history[-1])
                child_legal = state.legal_action_ids()
                value = close(child_legal)
                children.append((float("-inf") if value is None else value, len(children), child, path[-pushed:]))
                del path[-pushed:]
            for _ in range(pushed):
                pop()
        # best first: a search cut short has looked where the best turns are likely to be
        children.sort(key=lambda c: (-c[0], c[1]))
        for _, _, child, actions in children:
            known = finished.get(child)  # (reached meanwhile below an earlier sibling)
            if known is not None:
                total += known
                continue
            if nodes and result.nodes >= nodes or deadline and time.perf_counter() >= deadline:
                result.complete = False
                break
            for a in actions:
                push(a, check=False)
            path.extend(actions)
            total += expand(child, state.legal_action_ids(), depth + 1)
            del path[-len(actions):]
            for _ in actions:
                pop()
        if result.complete:
            finished[key] = total
        return total

    legal = state.legal_action_ids()
    try:
        close(legal)
        result.sequences = expand(_key(state, seat), legal, 0)
    finally:
        # ``expand`` refers to itself through its closure: a reference cycle that would keep the table of every
        # position searched (hundreds of megabytes) alive until the collector's rare full collections
        # (torres.ai.collector); breaking it frees the table at once
        finished.clear()
        expand = None  # type: ignore[assignment]  # noqa: F841
    if result.value == float("-inf"):  # (no position where the turn may end: play what the engine allows)
        result.value = 0.0
        result.actions = [O_END]
    return result


def weights_evaluator(weights: Weights) -> Evaluator:
    return lambda s, p: evaluate(s, p, weights)


class ExhaustiveBot(TurnPlanningBot):
    """Plays the best turn of a full-width search, action by action, and searches again after a card draw (what
    is left of the turn's ``nodes`` and ``seconds`` is shared by those searches)."""

    name = "exhaustive"

    def __init__(self, seed: int = 0, nodes: int = 0, seconds: float = 0.0, weights: Weights = DEFAULT_WEIGHTS,
                 score: bool = False) -> None:
        super().__init__(seed)
        if nodes < 0 or seconds < 0:
            raise ValueError("exhaustive: nodes and seconds must be ≥ 0 (0: no limit)")
        self.nodes = nodes
        self.seconds = seconds
        self.weights = weights
        self.evaluator: Evaluator = score_evaluation if score else weights_evaluator(weights)
        self.last: TurnSearch | None = None
        self._turn: tuple[int, int, int] = (-1, -1, -1)
        self._spent = 0
        self._deadline = 0.0

    def plan(self, view: SeatView) -> list[int]:
        state = view.determinize(self.rng)
        turn = (view.phase, view.round, view.turn)
        if turn != self._turn:
            self._turn, self._spent = turn, 0
            self._deadline = time.perf_counter() + self.seconds if self.seconds else 0.0
        nodes = max(1, self.nodes - self._spent) if self.nodes else 0
        self.last = search_turn(state, self.evaluator, nodes=nodes, deadline=self._deadline)
        self._spent += self.last.nodes
        return self.last.actions


def build(seed: int, opts: dict[str, str]) -> ExhaustiveBot:
    """``exhaustive[:nodes=N][:seconds=S][:eval=score|tuned|master|basic][:weight=value...]`` (the options are
    removed from ``opts``; the caller refuses any left over)."""
    from .levels import _weights  # (levels imports the bots; imported here to keep the import graph one way)

    def number(key: str, kind: Callable[[str], float], default: float) -> float:
        text = opts.pop(key, None)
        if text is None:
            return default
        try:
            value = kind(text)
        except ValueError:
            raise ValueError(f"exhaustive: {key} must be a {'whole ' if kind is int else ''}number ≥ 0, "
                             f"not {text!r}") from None
        if value < 0 or value != value:
            raise ValueError(f"exhaustive: {key} must be ≥ 0 (0: no limit), not {text!r}")
        return value

    nodes = int(number("nodes", int, 0))
    seconds = float(number("seconds", float, 0.0))
    score = opts.get("eval") == "score"
    if score:
        opts.pop("eval")
        weights = DEFAULT_WEIGHTS
    else:
        weights = _weights(opts)
    return ExhaustiveBot(seed, nodes=nodes, seconds=seconds, weights=weights, score=score)
