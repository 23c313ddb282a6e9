"""scripts/mine_puzzles.py --resume: it mines only the games the file lacks and writes the file a whole run writes
(the mining of a game is stubbed with shipped puzzles: what is tested is the bookkeeping, not the search)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from torres.ai.puzzles import Puzzle, load_puzzles
from conftest import load_script

mine_puzzles = load_script("scripts/mine_puzzles.py")

SHIPPED = load_puzzles()


def _run(monkeypatch: pytest.MonkeyPatch, *args: str) -> list[int]:
    """Run the script's main with ``args``; the games it mined."""
    mined: list[int] = []

    def stub(game: int) -> list[Puzzle]:
        mined.append(game)
        return SHIPPED[2 * game:2 * game + game % 3]  # (0, 1 or 2 puzzles a game)

    monkeypatch.setattr(mine_puzzles, "mine_game", stub)
    monkeypatch.setattr(sys, "argv", ["mine_puzzles.py", *args])
    mine_puzzles.main()
    return mined


def test_resume_mines_only_the_missing_games_and_writes_the_same_file(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    assert _run(monkeypatch, "--games", "5", "--out", str(whole)) == [0, 1, 2, 3, 4]
    assert _run(monkeypatch, "--games", "2", "--out", str(part)) == [0, 1]
    assert _run(monkeypatch, "--games", "5", "--out", str(part), "--resume") == [2, 3, 4]
    assert part.read_bytes() == whole.read_bytes()
    assert json.loads(whole.read_text())["games"] == 5 and len(load_puzzles(str(whole))) == sum(g % 3 for g in range(5))
    # a file mined with other settings is not carried on
    doc = json.loads(part.read_text())
    part.write_text(json.dumps({**doc, "margin": doc["margin"] + 1}))
    with pytest.raises(SystemExit):
        _run(monkeypatch, "--games", "6", "--out", str(part), "--resume")
    # without a file to resume, --resume mines from the first game
    assert _run(monkeypatch, "--games", "2", "--out", str(tmp_path / "new.json"), "--resume") == [0, 1]
