"""A bot on several boards at once, each on its own seed (bench/unseen_boards.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import load_script

distinct = load_script("bench/distinct_setups.py")
paired = load_script("bench/paired.py")
unseen = load_script("bench/unseen_boards.py")

BOTS = ["greedy:width=1:reach=0", "greedy:width=1"]
OTHER = ["onestep", "greedy:width=1"]
BOARDS = ["riogrande:max_buys=0,castles=a2.b5.b8.d3.e5.f8.h3.h7", "riogrande:max_buys=0"]


def _run(bots: list[str], out: Path, *extra: str) -> None:
    unseen.main(["--bots", ",".join(bots), "--games", "12", "--seed", "50", "--dir", str(out),
                 *(arg for rules in BOARDS for arg in ("--rules", rules)), *extra])


def test_each_board_is_its_own_run_on_the_next_seed_and_the_pairing_pools_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _run(OTHER, tmp_path / "other")
    _run(BOTS, tmp_path / "bots", "--against", str(tmp_path / "other"))
    printed = capsys.readouterr().out
    alone = [distinct.weighted_tournament(BOTS, rules, 12, 50 + i) for i, rules in enumerate(BOARDS)]
    files = [json.loads((tmp_path / "bots" / f"{50 + i}.json").read_text()) for i in range(2)]
    # board i is distinct_setups' run of its rules on seed 50 + i, kept as torres tournament --json keeps a run
    assert [f["seed"] for f in files] == [50, 51] and [f["edition"] for f in files] == BOARDS
    assert [f["results"] for f in files] == [r.results for r in alone]
    wins = sum(r.wins for r in alone)
    assert f"{wins / 24:.1%}" in printed.splitlines()[-4] and "of 24 games on 2 boards" in printed
    theirs = [json.loads((tmp_path / "other" / f"{50 + i}.json").read_text()) for i in range(2)]
    pooled = paired.compare_pooled(list(zip(files, theirs)))
    assert pooled.games == 24
    assert printed.splitlines()[-1].startswith(f"paired with {tmp_path / 'other'} over 24 games: ")
    assert f"difference {pooled.difference:+.1%} ± {pooled.half_width:.1%}" in printed.splitlines()[-1]
    # and each board's own pair, as bench/paired.py gives it for that board's two files
    for i, pair in enumerate(zip(files, theirs)):
        alone_pair = paired.compare_pooled([pair])
        line = printed.splitlines()[-3 + i]
        assert line.startswith(f"  --seed {50 + i} paired: ") and alone_pair.games == 12
        assert f"difference {alone_pair.difference:+.1%} ± {alone_pair.half_width:.1%}" in line
        assert f"won only here {alone_pair.only_first}, only there {alone_pair.only_second}" in line
    # played again, each board resumes from its rows: nothing is played twice
    rows = [(tmp_path / "bots" / f"{50 + i}.jsonl").read_text() for i in range(2)]
    _run(BOTS, tmp_path / "bots")
    assert [(tmp_path / "bots" / f"{50 + i}.jsonl").read_text() for i in range(2)] == rows


@pytest.mark.parametrize("extra, message", [
    (["--rules", "riogrande"], "max_buys=0"),                                   # cards: a setup is not a game
    (["--rules", "riogrande:max_buys=0,castles=a1.a2"], "5 to 8 starting castles"),
])
def test_a_board_it_cannot_play_stops_with_its_reason(tmp_path: Path, extra: list[str], message: str) -> None:
    with pytest.raises(SystemExit, match=message):
        unseen.main(["--bots", ",".join(OTHER), "--games", "2", "--dir", str(tmp_path), *extra])


def test_a_missing_run_to_pair_with_is_named_before_any_game(tmp_path: Path) -> None:
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "50.json").write_text("{}")
    with pytest.raises(SystemExit, match="51.json missing"):
        _run(OTHER, tmp_path / "bots", "--against", str(tmp_path / "other"))
    assert not (tmp_path / "bots").exists()
    with pytest.raises(SystemExit):   # (argparse: its own run is no comparison)
        _run(OTHER, tmp_path / "bots", "--against", str(tmp_path / "bots"))
