"""How many of a run's distinct games another run played too (bench/shared_games.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import load_script

shared = load_script("bench/shared_games.py")

MINE = {"bots": "master,exhaustive", "rules": "riogrande:max_buys=0"}


def _row(game: int, seating: list[int], scores: list[int], win: float, **settings: str) -> dict[str, object]:
    return {"game": game, "scores": scores, "win": win, "digest": f"{seating}:{game:016x}", **(settings or MINE)}


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_games_are_the_same_by_seating_and_scores_among_the_same_bots(tmp_path: Path) -> None:
    other_bots = {"bots": "expert,exhaustive", "rules": MINE["rules"]}
    rows = _write(tmp_path / "a.jsonl", [
        _row(0, [0, 1], [10, 5], 1.0),
        _row(1, [1, 0], [3, 7], 0.0),
        _row(2, [0, 1], [10, 5], 1.0),    # another setup that played game 0's game
        _row(3, [0, 1], [4, 9], 0.0),
        _row(4, [0, 1], [1, 2], 0.0, **other_bots),   # another bot's: not this run's
    ])
    other = _write(tmp_path / "b.jsonl", [
        _row(7, [0, 1], [10, 5], 1.0),
        _row(8, [0, 1], [4, 9], 0.0),
        _row(9, [1, 0], [3, 8], 0.0),     # the seating of game 1, other scores: another game
        _row(5, [1, 0], [3, 7], 0.0, **other_bots),    # game 1's seating and scores, but another bot's game
    ])
    assert shared.shared_games(rows, other) == shared.Shared(games=3, lost=2, shared=2, shared_lost=1, other=3)
    assert shared.shared_games(rows, rows) == shared.Shared(games=3, lost=2, shared=3, shared_lost=2, other=3)


def test_an_empty_file_is_refused_with_its_name(tmp_path: Path) -> None:
    empty = _write(tmp_path / "empty.jsonl", [])
    with pytest.raises(ValueError, match="empty.jsonl has no rows"):
        shared.shared_games(empty, empty)
    with pytest.raises(SystemExit, match="empty.jsonl has no rows"):
        shared.main([str(empty), str(empty)])


def test_a_file_of_other_rows_is_refused_with_its_name(tmp_path: Path) -> None:
    games = _write(tmp_path / "games.jsonl", [{"game": 0, "scores": [1, 2], **MINE}])  # a tournament's, say
    with pytest.raises(SystemExit, match="games.jsonl is not a --rows file"):
        shared.main([str(games), str(games)])
    for line in ("[1, 2]", "not json"):
        (tmp_path / "odd.jsonl").write_text(line + "\n")
        with pytest.raises(SystemExit, match="odd.jsonl is not a --rows file"):
            shared.main([str(tmp_path / "odd.jsonl"), str(games)])
