"""Tournament runs on one seed compared deal by deal (bench/paired.py) and the per-game results it reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import torres.cli.hint  # noqa: F401  (a second command, so that `tournament` is named as a subcommand)
from torres.cli.app import app
from torres.cli.tournament import play_game
from conftest import load_script

paired = load_script("bench/paired.py")


def _run(tmp_path: Path, bots: str, name: str, seed: int = 4) -> dict[str, Any]:
    out = tmp_path / name
    result = CliRunner().invoke(app, ["tournament", "--bots", bots, "--games", "6", "--seed", str(seed),
                                      "--json", str(out)])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(out.read_text())
    return data


def test_the_tournament_json_holds_every_game_as_played(tmp_path: Path) -> None:
    data = _run(tmp_path, "random,onestep", "a.json")
    assert [g["game"] for g in data["results"]] == list(range(6))
    for g in data["results"]:
        replay = play_game(["random", "onestep"], g["game"], 2, data["edition"], 4)
        assert (g["entries"], g["scores"], g["phases"]) == (replay.entries, replay.scores, replay.phases)
        assert len(g["phases"]) == 3 and g["phases"][-1] == g["scores"]  # the last scoring ends the game


def test_the_same_run_twice_differs_by_nothing(tmp_path: Path) -> None:
    first, second = _run(tmp_path, "random,random", "a.json"), _run(tmp_path, "random,random", "b.json")
    r = paired.compare(first, second)
    assert r.games == 6 and r.difference == 0 and r.half_width == 0 and r.only_first == r.only_second == 0
    assert 0 < r.win_rate[0] == r.win_rate[1] < 1 and r.margin[0] == r.margin[1]
    assert r.independent_half_width > 0  # what two independent runs would leave open


def test_a_paired_comparison_counts_the_games_each_run_alone_won() -> None:
    def run(scores: list[list[int]]) -> dict[str, Any]:
        return {"seed": 1, "players": 2, "edition": "riogrande",
                "results": [{"game": g, "entries": [g % 2, 1 - g % 2], "scores": s, "phases": [[0, s[1]], s]}
                            for g, s in enumerate(scores)]}

    # entry 0 sits at seat 0 in even games, at seat 1 in odd ones
    first = run([[30, 20], [20, 30], [10, 20], [15, 15]])  # won, won, lost, tied
    second = run([[10, 20], [20, 30], [30, 20], [25, 15]])  # lost, won, won, lost
    r = paired.compare(first, second)
    assert r.win_rate == (pytest.approx(2.5 / 4), pytest.approx(2 / 4))
    assert (r.only_first, r.only_second) == (1, 1)  # the tie is neither
    assert (r.first_only_games, r.second_only_games) == (["0"], ["2"])
    assert r.margin == (pytest.approx((10 + 10 - 10 + 0) / 4), pytest.approx((-10 + 10 + 10 - 10) / 4))
    # after the first scoring seat 0 had nothing and seat 1 its final score: entry 0 behind in even games, ahead in odd
    assert r.phase_margins[0] == [pytest.approx((-20 + 30 - 20 + 15) / 4), pytest.approx(r.margin[0])]
    with pytest.raises(ValueError, match="seed"):
        paired.compare(first, {**second, "seed": 2})


def test_pairs_of_runs_on_other_seeds_are_pooled_deal_by_deal(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    def run(seed: int, scores: list[list[int]]) -> dict[str, Any]:
        return {"seed": seed, "players": 2, "edition": "riogrande",
                "results": [{"game": g, "entries": [0, 1], "scores": s, "phases": [s]} for g, s in enumerate(scores)]}

    # the same game numbers on two seeds are different deals: four games in all
    pairs = [(run(1, [[30, 20], [10, 20]]), run(1, [[10, 20], [10, 20]])),
             (run(2, [[30, 20], [30, 20]]), run(2, [[30, 20], [10, 40]]))]
    r = paired.compare_pooled(pairs)
    assert r.games == 4 and r.win_rate == (pytest.approx(3 / 4), pytest.approx(1 / 4))
    assert (r.only_first, r.only_second) == (2, 0) and r.margin == (pytest.approx(5.0), pytest.approx(-10.0))
    assert (r.first_only_games, r.second_only_games) == (["1:0", "2:1"], [])
    assert paired.compare(*pairs[0]).games == 2
    with pytest.raises(ValueError, match="same deals"):
        paired.compare_pooled([pairs[0], pairs[0]])
    paths = []
    for k, run_data in enumerate(x for pair in pairs for x in pair):
        paths.append(str(tmp_path / f"{k}.json"))
        Path(paths[-1]).write_text(json.dumps(run_data))
    paired.main(paths)
    out = capsys.readouterr().out
    assert "4 games on the same deals" in out and "only in the first:" not in out
    paired.main(paths + ["--games"])
    out = capsys.readouterr().out
    assert "only in the first: 1:0, 2:1" in out and "only in the second: -" in out
    with pytest.raises(SystemExit):
        paired.main(paths[:3])


def test_the_paired_script_prints_the_comparison(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _run(tmp_path, "random,onestep", "a.json")
    _run(tmp_path, "onestep,random", "b.json")
    paired.main([str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--entry", "1"])
    out = capsys.readouterr().out
    assert "6 games on the same deals" in out and "paired" in out and "margin over the best rival" in out
    assert "after phase 3's scoring" in out
