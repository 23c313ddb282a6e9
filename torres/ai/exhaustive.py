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
own minus the best rival's. The search itself is :mod:`torres.ai.turn_search`, which the native build compiles.
"""

from __future__ import annotations

import time
from typing import Callable

from ..engine.view import SeatView
from .evaluate import DEFAULT_WEIGHTS, Weights
from .greedy import TurnPlanningBot
from .planner import Evaluator
from .turn_search import TurnSearch, WeightsEvaluation, score_evaluation, scored_now, search_turn

__all__ = ["ExhaustiveBot", "TurnSearch", "build", "score_evaluation", "scored_now", "search_turn",
           "weights_evaluator"]


def weights_evaluator(weights: Weights) -> Evaluator:
    return WeightsEvaluation(weights)


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
