"""bench/live_cap.py: the clocked bot plays the unclocked one's turn but for the clock (no timing assertions)."""

from __future__ import annotations

from conftest import load_script

live_cap = load_script("bench/live_cap.py")


def test_with_time_to_spare_the_clocked_bot_plays_every_turn_alike() -> None:
    turns = live_cap.live_cap("greedy:width=2", "random", games=2, seed=3, seconds=1000.0)
    assert len(turns) > 20 and all(t.alike for t in turns)
    assert all(t.clocked_evaluations == t.evaluations > 0 for t in turns)


def test_a_clock_that_runs_out_at_once_cuts_the_turns_evaluations() -> None:
    turns = live_cap.live_cap("greedy:width=2", "random", games=1, seed=3, seconds=1e-9)
    assert all(t.clocked_evaluations <= t.evaluations for t in turns)
    assert sum(t.clocked_evaluations for t in turns) < sum(t.evaluations for t in turns) / 2
