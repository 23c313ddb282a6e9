"""bench/leaf_fit.py: the turn starts of a real game with their final margin, and a line that recovers a linear
margin exactly where the fitted evaluation cannot."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import load_script

leaf_fit = load_script("bench/leaf_fit.py")


def test_every_turn_start_is_seen_from_both_seats_with_the_games_final_margin() -> None:
    rows = leaf_fit.play((["strong", "strong"], 0, "riogrande:max_buys=0", 3))
    kinds = [kind for kind, _ in rows]
    assert len(rows) == 2 * 2 * 12  # 12 turns a seat, each seen from both seats
    assert sorted(set(kinds)) == [(p, r, m) for p in range(3) for r in range(4) for m in (0, 1)]
    margins = {row[2] for _, row in rows}
    assert len(margins) == 2 and sum(margins) == 0  # one seat's margin and the other's
    first, second = rows[0][1], rows[1][1]  # the first turn start, from seat 0 and from seat 1
    assert first[0][1] == -second[0][1] == 0.0 and len(first[0]) == len(leaf_fit.FEATURES)


def test_a_linear_margin_is_recovered_by_the_line_and_not_by_the_evaluation() -> None:
    rng = random.Random(5)
    games = []
    for _ in range(50):
        rows = []
        for kind in [(2, 0, 1), (2, 0, 0)]:
            x = [1.0] + [rng.uniform(-10, 10) for _ in leaf_fit.FEATURES[1:]]
            margin = 3.0 + 2.0 * x[1] - 1.5 * x[2] + 0.5 * x[4]
            rows.append((kind, (x, rng.uniform(-10, 10), margin)))  # an evaluation that knows nothing
        games.append(rows)
    compared = leaf_fit.compare(games, held_out=0.2)
    for kind in [(2, 0, 1), (2, 0, 0)]:
        assert compared[kind].held_out == 10
        assert compared[kind].line < 0.05 < 5 < compared[kind].evaluation
        assert abs(compared[kind].score - 2.0) < 0.01


def test_the_lines_saved_are_those_of_the_kinds_asked_for(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "lines.json"
    leaf_fit.main(["--bots", "strong,strong", "--rules", "riogrande:max_buys=0", "--games", "5", "--save", str(saved),
                   "--save-from", "3,3"])
    lines = json.loads(saved.read_text())
    assert sorted(lines) == ["2,2,0", "2,2,1", "2,3,0", "2,3,1"]  # (phase 3, rounds 3 and 4, from 0)
    assert all(len(line) == len(leaf_fit.FEATURES) for line in lines.values())
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("5 games") and len(printed) == 2 + 12  # a row per phase and round
