"""Random-playout throughput of the engine, with python-chess random playouts as a yardstick.

A torres playout plays whole games from the initial position choosing uniformly among the legal actions:

* ``push``: ``ids = state.legal_action_ids(); state.push(rng.choice(ids), check=False)`` — keeps undo
  information, what a search uses;
* ``apply``: the same with ``state.apply(id)``, the fast path without undo information.

The chess reference plays ``random.choice(list(board.legal_moves))`` / ``board.push`` from ``chess.Board()``
until ``board.is_game_over()`` or 200 plies, in the same process. Each series runs for an equal share of the
time budget, split into ``reps`` repetitions; a repetition plays whole games until its share is used up (at
least one game), and the reported figures are the medians over the repetitions. Repetitions are interleaved
(repetition 1 of every series, then repetition 2, ...) so that a drifting machine load affects all series
alike; the ratio to chess is the ratio of the medians.

Measuring is the only side effect (it reads the clock); nothing is printed here.
"""

from __future__ import annotations

import platform
import random
import statistics
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from .engine import GameState, Rules

PLAYER_COUNTS = (2, 3, 4)
MODES = ("push", "apply")
CHESS_MAX_PLIES = 200


@dataclass(frozen=True)
class Series:
    """One measured series: medians over ``reps`` repetitions."""

    name: str  # "torres" or "chess"
    mode: str  # "push" / "apply" for torres, "push" for chess
    players: int  # 2 for chess
    actions_per_second: float  # median
    games_per_second: float  # median
    actions_per_game: float  # mean over every game played
    games: int  # games played in all repetitions
    samples: list[float] = field(default_factory=list)  # actions/second of each repetition

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class BenchResult:
    seconds: float
    reps: int
    edition: str
    torres: list[Series]
    chess: Series | None  # None when python-chess is not installed
    python: str = field(default_factory=platform.python_version)

    def ratio(self, series: Series) -> float | None:
        """torres actions/second over chess moves/second."""
        if self.chess is None or self.chess.actions_per_second == 0:
            return None
        return series.actions_per_second / self.chess.actions_per_second

    def to_json(self) -> dict[str, Any]:
        return {
            "seconds": self.seconds,
            "reps": self.reps,
            "edition": self.edition,
            "python": self.python,
            "torres": [dict(s.to_json(), ratio_vs_chess=self.ratio(s)) for s in self.torres],
            "chess": self.chess.to_json() if self.chess is not None else None,
        }


def torres_game(players: int, seed: int, rules: Rules, mode: str) -> int:
    """Play one random game; return the number of actions taken."""
    state = GameState(players, seed, rules)
    rng = random.Random(seed)
    if mode == "push":
        while not state.is_over():
            ids = state.legal_action_ids()
            state.push(rng.choice(ids), check=False)
    elif mode == "apply":
        while not state.is_over():
            ids = state.legal_action_ids()
            state.apply(rng.choice(ids))
    else:
        raise ValueError(f"unknown playout mode {mode!r} (modes: {', '.join(MODES)})")
    return len(state.history)


def chess_game(seed: int) -> int:
    """Play one random chess game (at most 200 plies); return the number of moves."""
    import chess

    board = chess.Board()
    rng = random.Random(seed)
    plies = 0
    while plies < CHESS_MAX_PLIES and not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
        plies += 1
    return plies


@dataclass
class _Runner:
    """One series being measured: what it plays, and what its repetitions measured so far."""

    name: str
    mode: str
    players: int
    play: Callable[[int], int]
    rates: list[float] = field(default_factory=list)
    game_rates: list[float] = field(default_factory=list)
    games: int = 0
    actions: int = 0
    seed: int = 0

    def repetition(self, share: float, clock: Callable[[], float]) -> None:
        """Play whole games until ``share`` seconds have passed (at least one game)."""
        actions = games = 0
        start = clock()
        while True:
            actions += self.play(self.seed)
            self.seed += 1
            games += 1
            elapsed = clock() - start
            if elapsed >= share:
                break
        elapsed = max(elapsed, 1e-9)
        self.rates.append(actions / elapsed)
        self.game_rates.append(games / elapsed)
        self.games += games
        self.actions += actions

    def series(self) -> Series:
        return Series(self.name, self.mode, self.players, statistics.median(self.rates),
                      statistics.median(self.game_rates), self.actions / self.games, self.games, self.rates)


def chess_available() -> bool:
    try:
        import chess  # noqa: F401
    except ImportError:
        return False
    return True


def run_bench(seconds: float = 10.0, reps: int = 5, edition: str = "riogrande",
              clock: Callable[[], float] = time.perf_counter) -> BenchResult:
    """Measure every series for about ``seconds`` in total (each plays at least ``reps`` games)."""
    if seconds <= 0:
        raise ValueError("seconds must be positive")
    if reps < 1:
        raise ValueError("reps must be at least 1")
    rules = Rules.for_edition(edition)
    runners: list[_Runner] = []
    for players in PLAYER_COUNTS:
        for mode in MODES:
            def play(seed: int, players: int = players, mode: str = mode) -> int:
                return torres_game(players, seed, rules, mode)

            runners.append(_Runner("torres", mode, players, play))
    chess = _Runner("chess", "push", 2, chess_game) if chess_available() else None
    if chess is not None:
        runners.append(chess)
    share = seconds / (len(runners) * reps)
    # Repetitions go round-robin over the series, so a change in machine load hits every series alike.
    for _ in range(reps):
        for runner in runners:
            runner.repetition(share, clock)
    return BenchResult(seconds, reps, edition, [r.series() for r in runners if r is not chess],
                       chess.series() if chess is not None else None)

__all__ = ["BenchResult", "Series", "chess_game", "run_bench", "torres_game"]
