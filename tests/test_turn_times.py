"""bench/turn_times.py: every turn of the timed bot, with the evaluations it took (no timing assertions)."""

from __future__ import annotations

import pytest

from torres.ai.base import Bot, make_bot
from conftest import load_script

turn_times = load_script("bench/turn_times.py")


def test_each_turn_counts_the_evaluations_the_bot_spent_in_it(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[tuple[str, Bot]] = []

    def recorded(spec: str, seed: int) -> Bot:
        made.append((spec, make_bot(spec, seed)))
        return made[-1][1]

    monkeypatch.setattr(turn_times, "make_bot", recorded)
    turns = turn_times.turn_times("greedy:width=1", "random", games=1, seed=3)
    timed = [bot for spec, bot in made if spec == "greedy:width=1"]
    assert len(timed) == 1 and len(turns) > 10
    assert all(evaluations > 0 for *_, evaluations in turns)
    assert sum(evaluations for *_, evaluations in turns) == getattr(timed[0], "evaluations")
    assert all(position.startswith("torres/1 ") for _, _, position, _ in turns)
    # a bot that counts no evaluations
    assert all(evaluations == 0 for *_, evaluations in turn_times.turn_times("random", "random", games=1, seed=3))
