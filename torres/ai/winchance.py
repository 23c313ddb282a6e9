"""Each seat's chance to win a position, from the evaluation: a model fitted on self-play games
(scripts/fit_winchance.py; the fit and its calibration are in docs/analysis.md).

The model: seat ``s`` wins with probability ``exp(k·v_s) / Σ_j exp(k·v_j)``, where ``v_s`` is the seat's projected
final points (:func:`torres.ai.evaluate.seat_values` with the fitted evaluation) plus ``tempo`` points for each turn
it has left, and ``k = exp(a + b·progress)`` (``progress``: the share of the game's turns taken, 0 to 1); ``(a, b,
tempo)`` per player count. ``tempo`` is what a seat gains over its own turn, on average, against the others: the
evaluation counts what stands on the board, not the turn a seat is about to take, so without it the seat that has
just moved looks ahead of those still to move in the round and the chances see-saw from turn to turn. The chances
add up to 1; with two players it is a logistic curve of the projected margin. A finished game's chances are its
result (winners share a tie).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from ..engine.state import GameState, Stage
from .evaluate import EVALUATIONS, Weights, seat_values

#: Where the fitted constants live (written by scripts/fit_winchance.py).
DATA_FILE = "winchance.json"


def progress(state: GameState) -> float:
    """The share of the game's turns taken, 0 at the first turn to 1 at the end."""
    if state.is_over():
        return 1.0
    rounds = [len(stacks) for stacks in state.phase_stacks]
    total = sum(rounds) * state.n
    done = sum(rounds[:state.phase]) * state.n + state.round * state.n
    if state.stage in (Stage.TURN, Stage.KEEP):
        done += state.turn
    return max(0.0, min(1.0, done / total)) if total else 0.0


def turns_left(state: GameState) -> list[int]:
    """Each seat's turns still to come in the game (a turn in progress included)."""
    if state.is_over():
        return [0] * state.n
    later = sum(len(stacks) for stacks in state.phase_stacks[state.phase + 1:])
    return [left + later for left in state.turns_before_scoring()]


def softmax(values: Sequence[float], k: float) -> list[float]:
    top = max(values)
    weights = [math.exp(k * (v - top)) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


@dataclass(frozen=True)
class WinChance:
    """The fitted model: the evaluation it reads and ``(a, b)`` per player count."""

    evaluation: str
    params: Mapping[int, tuple[float, float, float]]  # read-only: the loaded model is shared

    @property
    def weights(self) -> Weights:
        return EVALUATIONS[self.evaluation]

    def sharpness(self, players: int, share: float) -> float:
        a, b, _ = self.params[players]
        return math.exp(a + b * share)

    def of_values(self, values: Sequence[float], share: float, left: Sequence[int] | None = None) -> list[float]:
        """The chances of seats whose projected points are ``values``, with ``left`` turns each still to come, at
        ``share`` of the game."""
        tempo = self.params[len(values)][2]
        points = [v + tempo * n for v, n in zip(values, left)] if left is not None else list(values)
        return softmax(points, self.sharpness(len(values), share))

    def chances(self, state: GameState) -> list[float]:
        """Each seat's chance to win ``state`` (a finished game: 1 for a winner, shared in a tie)."""
        if state.is_over():
            winners = state.winners()
            return [1.0 / len(winners) if s in winners else 0.0 for s in range(state.n)]
        return self.of_values(seat_values(state, self.weights), progress(state), turns_left(state))

    def to_json(self) -> dict[str, Any]:
        return {"evaluation": self.evaluation, "params": {str(n): list(p) for n, p in sorted(self.params.items())}}


def win_chance_of_json(data: dict[str, Any]) -> WinChance:
    evaluation = data["evaluation"]
    if evaluation not in EVALUATIONS:
        raise ValueError(f"unknown evaluation {evaluation!r} in the win-chance model")
    params = {int(n): (float(p[0]), float(p[1]), float(p[2])) for n, p in data["params"].items()}
    if sorted(params) != [2, 3, 4]:
        raise ValueError("the win-chance model needs parameters for 2, 3 and 4 players")
    return WinChance(evaluation, MappingProxyType(params))


@lru_cache(maxsize=1)
def load_win_chance() -> WinChance:
    """The fitted model shipped in torres/data (read once; the model is immutable)."""
    text = (resources.files("torres") / "data" / DATA_FILE).read_text(encoding="utf-8")
    return win_chance_of_json(json.loads(text))
