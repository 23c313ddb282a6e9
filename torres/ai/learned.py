"""The learned evaluation: a linear model per phase over :mod:`torres.ai.features`, fitted to how self-play games
ended (``scripts/learn_eval.py`` reproduces the weights in ``torres/data/learned_eval.json``).

A seat's value is its score plus the weighted features of its phase; like the hand-tuned evaluation, a seat is
judged by its value minus its rivals' (the rival in 2-player games, 0.6 × the best plus 0.4 × the mean in larger
ones), so it reads only public facts and hand sizes.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

from ..engine.state import GameState, Stage
from .evaluate import DEFAULT_WEIGHTS, relative
from .features import FEATURES, seat_features


class LearnedEvaluation:
    """``evaluation(state, seat)``: the seat's learned value minus its rivals'."""

    def __init__(self, phases: list[list[float]], name: str = "learned") -> None:
        if len(phases) != 3 or any(len(w) != len(FEATURES) for w in phases):
            raise ValueError(f"expected 3 phases of {len(FEATURES)} weights")
        self.phases = [tuple(w) for w in phases]
        self.name = name

    def seat_values(self, state: GameState) -> list[float]:
        if state.stage is Stage.OVER:
            return [float(s) for s in state.scores]
        weights = self.phases[min(state.phase, 2)]
        return [score + sum(w * f for w, f in zip(weights, row))
                for score, row in zip(state.scores, seat_features(state))]

    def __call__(self, state: GameState, seat: int) -> float:
        return relative(self.seat_values(state), seat, DEFAULT_WEIGHTS)


@lru_cache(maxsize=None)
def learned_evaluation(path: str = "") -> LearnedEvaluation:
    """The shipped model (package data), or one fitted by ``scripts/learn_eval.py`` into the file ``path``."""
    if path:
        text = Path(path).read_text()
    else:
        text = resources.files("torres").joinpath("data", "learned_eval.json").read_text()
    data = json.loads(text)
    if list(data["features"]) != list(FEATURES):
        raise ValueError(f"{path or 'learned_eval.json'} was fitted on other features: {data['features']}")
    return LearnedEvaluation(data["phases"], path or "learned")
