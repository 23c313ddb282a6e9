"""The benchmark's bookkeeping, with a fake clock (no timing assertions)."""

from __future__ import annotations

import statistics

import pytest

from torres import Rules
from torres.bench import chess_game, run_bench, torres_game


class StepClock:
    """Each reading is ``step`` seconds after the previous one."""

    def __init__(self, step: float) -> None:
        self.t = 0.0
        self.step = step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def test_medians_of_interleaved_repetitions_with_a_fake_clock() -> None:
    reps = 3
    # 7 series x 3 repetitions share 2.1 s: 0.1 s each; a clock step of 0.5 s means one game per repetition.
    result = run_bench(seconds=2.1, reps=reps, clock=StepClock(0.5))
    assert result.chess is not None
    rules = Rules.for_edition("riogrande")
    assert [(s.players, s.mode) for s in result.torres] == [(n, m) for n in (2, 3, 4) for m in ("push", "apply")]
    for s in result.torres:
        lengths = [torres_game(s.players, seed, rules, s.mode) for seed in range(reps)]
        assert s.games == reps
        assert s.samples == pytest.approx([n / 0.5 for n in lengths])
        assert s.actions_per_second == pytest.approx(statistics.median(lengths) / 0.5)
        assert s.games_per_second == pytest.approx(2.0)
        assert s.actions_per_game == pytest.approx(sum(lengths) / reps)
        assert result.ratio(s) == pytest.approx(s.actions_per_second / result.chess.actions_per_second)
    chess_lengths = [chess_game(seed) for seed in range(reps)]
    assert result.chess.actions_per_second == pytest.approx(statistics.median(chess_lengths) / 0.5)
    assert all(n <= 200 for n in chess_lengths)


def test_push_and_apply_playouts_play_the_same_game() -> None:
    rules = Rules.for_edition("idw")
    for players in (2, 3, 4):
        assert torres_game(players, 4, rules, "push") == torres_game(players, 4, rules, "apply")


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown playout mode"):
        torres_game(2, 0, Rules(), "teleport")
    with pytest.raises(ValueError, match="positive"):
        run_bench(seconds=0)
    with pytest.raises(ValueError, match="at least 1"):
        run_bench(seconds=1, reps=0)
