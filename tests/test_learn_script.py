"""scripts/learn_eval.py, which reproduces the learning experiments of docs/strength-log.md, is seeded: the same
command gives the same positions, and its fits run on them."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import load_script, run_command

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = [sys.executable, str(ROOT / "scripts" / "learn_eval.py")]
#: Seconds a script may take here (seconds on an idle machine; a hung one must not hang the suite).
TIMEOUT = 600


def test_the_learning_script_is_reproducible(tmp_path: Path) -> None:
    files = []
    for k, jobs in enumerate((1, 2)):
        out = tmp_path / f"positions-{k}.npz"
        run_command(SCRIPT + ["generate", "--games", "3", "--seed", "3", "--jobs", str(jobs), "--policies",
                                 "greedy:width=1,strong", "--out", str(out)], check=True, capture_output=True,
                    timeout=TIMEOUT)
        files.append(np.load(out))
    for key in ("phase", "x", "y", "tuned", "game"):
        assert np.array_equal(files[0][key], files[1][key]), key
    assert len(files[0]["y"]) > 50
    # the evaluation's expectation is stored beside the outcome, both relative to the rival
    assert files[0]["tuned"].shape == (len(files[0]["y"]), 2)
    report = run_command(SCRIPT + ["residuals", str(tmp_path / "positions-0.npz")], check=True,
                         capture_output=True, text=True, timeout=TIMEOUT).stdout
    assert report.count("castles fitted") == 3
    fitted = tmp_path / "weights.json"
    run_command(SCRIPT + ["fit", str(tmp_path / "positions-0.npz"), "--out", str(fitted)], check=True,
                capture_output=True, timeout=TIMEOUT)
    assert fitted.exists()


@pytest.mark.slow  # eight runs of the tuner's matches (~20 s); the tests below run it once each
def test_the_weight_tuning_script_is_reproducible(tmp_path: Path) -> None:
    """scripts/tune_spsa.py replays the same games and steps for a seed, with or without a field of fixed bots,
    and moves the weights by what the games said."""
    tune = [sys.executable, str(ROOT / "scripts" / "tune_spsa.py")]
    for extra in ([], ["--field", "greedy:width=1", "--players", "3"]):
        logs = []
        for k in range(2):
            out = tmp_path / f"spsa-{len(extra)}-{k}.jsonl"
            run_command(tune + ["--iterations", "2", "--jobs", "1", "--seed", "5", "--base", "greedy:width=1",
                                "--params", "later:0.6:0.1:0,card:3:0.5:0", "--out", str(out)] + extra,
                        check=True, capture_output=True, timeout=TIMEOUT)
            logs.append([json.loads(line) for line in out.read_text().splitlines()])
        assert logs[0] == logs[1]
        rows = logs[0]
        assert [row["iteration"] for row in rows] == [0, 1]
        assert all(len(row["margins"]) == 2 for row in rows)
        # a step has the sign of the result times the weight's perturbation
        first = rows[0]
        for name, start in (("later", 0.6), ("card", 3.0)):
            step = first["theta"][name] - start
            assert step * first["r"] * first["signs"][name] >= 0
            assert step or abs(first["r"]) < 0.01  # (the log rounds the result to 4 decimals)
        assert rows[-1]["mean"] == rows[-1]["theta"]  # the mean runs over the second half: here the last step
        for row in rows:  # the result: a smoothed win, on a scale of 20 points of margin
            if extra:  # the bots' margins against the field, on one deal
                plus, minus = row["margins"]
                assert row["r"] == pytest.approx((math.tanh(plus / 20) - math.tanh(minus / 20)) / 2, abs=1e-4)
            else:
                assert row["r"] == pytest.approx(sum(math.tanh(m / 20) for m in row["margins"]) / 2, abs=1e-4)


def test_the_weight_tuning_script_takes_several_fields_in_turn(tmp_path: Path) -> None:
    """With ``--field A,B`` the pairs of an iteration play against A and B in turn: each logged pair of margins is
    the one its field gives when the pair is played again."""
    out = tmp_path / "spsa.jsonl"
    fields = ["greedy:width=1", "random"]
    run_command([sys.executable, str(ROOT / "scripts" / "tune_spsa.py"), "--iterations", "1", "--jobs", "2",
                 "--seed", "5", "--base", "greedy:width=1", "--params", "later:0.6:0.1:0", "--field",
                 ",".join(fields), "--out", str(out)], check=True, capture_output=True, timeout=TIMEOUT)
    row = json.loads(out.read_text())
    assert row["fields"] == fields
    tune_spsa = _load_tuner()
    ck = 1.0  # the first iteration's perturbation, in units of c
    plus, minus = (tune_spsa.spec("greedy:width=1", {"later": 0.6 + sign * ck * 0.1 * row["signs"]["later"]})
                   for sign in (1, -1))
    replayed = [tune_spsa.play_pair((plus, minus, 5 * 1_000_003 + j, "riogrande", field, 2, False))
                for j, field in enumerate(fields)]
    assert row["margins"] == [m for pair in replayed for m in pair]
    # against random the bots win by far more than against a planner
    assert min(replayed[1]) > max(replayed[0])


def test_the_weight_tuning_script_draws_each_deals_setup_without_cards(tmp_path: Path) -> None:
    """Without cards a game has no chance after its setup: ``--random-setup`` draws each deal's first knights and
    king from its seed, so that the deals of an iteration are different games (the same without it)."""
    out = tmp_path / "spsa.jsonl"
    rules = "riogrande:max_buys=0"
    run_command([sys.executable, str(ROOT / "scripts" / "tune_spsa.py"), "--iterations", "1", "--jobs", "2",
                 "--seed", "5", "--base", "greedy:width=1", "--params", "later:0.6:0.1:0", "--rules", rules,
                 "--random-setup", "--out", str(out)], check=True, capture_output=True, timeout=TIMEOUT)
    row = json.loads(out.read_text())
    tune_spsa = _load_tuner()
    plus, minus = (tune_spsa.spec("greedy:width=1", {"later": 0.6 + sign * 0.1 * row["signs"]["later"]})
                   for sign in (1, -1))
    seeds = [5 * 1_000_003 + j for j in range(2)]
    replayed = [tune_spsa.play_pair((plus, minus, seed, rules, "", 2, True)) for seed in seeds]
    assert row["margins"] == [m for pair in replayed for m in pair]
    parsed = tune_spsa.Rules.from_text(rules)
    drawn = [tune_spsa.play([plus, minus], seed, parsed, random_setup=True) for seed in seeds]
    fixed = [tune_spsa.play([plus, minus], seed, parsed) for seed in seeds]
    assert fixed[0] == fixed[1]
    assert drawn[0] != drawn[1]


def test_the_weight_tuning_script_takes_several_boards_in_turn(tmp_path: Path) -> None:
    """``--rules`` more than once: pair ``j`` of iteration ``k`` plays on board ``(k·jobs + j) mod boards``, so weights
    tuned without cards meet games of more than one board's."""
    out = tmp_path / "spsa.jsonl"
    boards = ["riogrande:max_buys=0", "riogrande:max_buys=0,castles=b2.b8.c5.e1.f3.f8.g6.h2",
              "riogrande:max_buys=0,castles=a7.b2.b5.c8.f1.f6.h4.h7"]
    run_command([sys.executable, str(ROOT / "scripts" / "tune_spsa.py"), "--iterations", "2", "--jobs", "2",
                 "--seed", "5", "--base", "greedy:width=1", "--params", "later:0.6:0.1:0",
                 *(arg for board in boards for arg in ("--rules", board)), "--random-setup", "--out", str(out)],
                check=True, capture_output=True, timeout=TIMEOUT)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [row["rules"] for row in rows] == [boards[:2], [boards[2], boards[0]]]
    tune_spsa = _load_tuner()
    row = rows[0]
    plus, minus = (tune_spsa.spec("greedy:width=1", {"later": 0.6 + sign * 0.1 * row["signs"]["later"]})
                   for sign in (1, -1))
    replayed = [tune_spsa.play_pair((plus, minus, 5 * 1_000_003 + j, boards[j], "", 2, True)) for j in range(2)]
    assert row["margins"] == [m for pair in replayed for m in pair]
    refused = run_command([sys.executable, str(ROOT / "scripts" / "tune_spsa.py"), "--iterations", "1",
                           "--rules", "riogrande:castles=a1.a2", "--out", str(tmp_path / "no.jsonl")],
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert refused.returncode == 2 and "--rules riogrande:castles=a1.a2: castles lists" in refused.stderr


def _load_tuner() -> Any:
    return load_script("scripts/tune_spsa.py")


def test_the_weight_tuning_script_smooths_the_margin_on_the_scale_asked(tmp_path: Path) -> None:
    out = tmp_path / "spsa.jsonl"
    run_command([sys.executable, str(ROOT / "scripts" / "tune_spsa.py"), "--iterations", "1", "--jobs", "1",
                 "--seed", "5", "--base", "greedy:width=1", "--params", "later:0.6:0.1:0", "--scale", "4",
                 "--out", str(out)], check=True, capture_output=True, timeout=TIMEOUT)
    row = json.loads(out.read_text())
    assert any(row["margins"])
    assert row["r"] == pytest.approx(sum(math.tanh(m / 4) for m in row["margins"]) / 2, abs=1e-4)


def test_a_stopped_weight_tuning_run_resumes_as_the_whole_run_would_have_gone(tmp_path: Path) -> None:
    """``--resume`` keeps the logged iterations (a line cut short by a kill is played again) and goes on from the
    last logged weights with the seeded draws the whole run would have made: the log ends as an uninterrupted run's.
    A log another command wrote, or one already complete, is refused with a reason before any game."""
    tune = [sys.executable, str(ROOT / "scripts" / "tune_spsa.py"), "--iterations", "3", "--jobs", "2",
            "--base", "greedy:width=1", "--params", "later:0.6:0.1:0,reach:0.6:0.1:0",
            "--rules", "riogrande:max_buys=0", "--rules", "riogrande:max_buys=0,castles=b2.b8.c5.e1.f3.f8.g6.h2",
            "--random-setup"]
    whole = tmp_path / "whole.jsonl"
    run_command(tune + ["--seed", "5", "--out", str(whole)], check=True, capture_output=True, timeout=TIMEOUT)
    lines = whole.read_text().splitlines(keepends=True)
    assert len({json.dumps(json.loads(line)["theta"]) for line in lines}) == 3  # every iteration moved the weights

    stopped = tmp_path / "stopped.jsonl"
    stopped.write_text(lines[0] + lines[1][: len(lines[1]) // 2])  # killed while writing the second iteration
    resumed = run_command(tune + ["--seed", "5", "--out", str(stopped), "--resume"], check=True,
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert stopped.read_text() == whole.read_text()
    assert [line.split()[0] for line in resumed.stdout.splitlines()] == ["1", "2"]  # only the missing ones played

    before = stopped.read_text()
    other = "was not written by this command"
    for extra, reason in ((["--seed", "6", "--iterations", "4"], other),
                          (["--seed", "5", "--iterations", "4", "--jobs", "1"], "line 1 of"),
                          (["--seed", "5"], "already holds 3 iterations of 3")):
        refused = run_command(tune + extra + ["--out", str(stopped), "--resume"], capture_output=True, text=True,
                              timeout=TIMEOUT)
        assert refused.returncode == 2 and reason in refused.stderr, (extra, refused.stderr)
        assert stopped.read_text() == before  # nothing rewritten
    stranger = tmp_path / "stranger.jsonl"
    stranger.write_text("[1, 2]\n")
    refused = run_command(tune + ["--seed", "5", "--out", str(stranger), "--resume"], capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert refused.returncode == 2 and "is not a tuning log" in refused.stderr
    assert stranger.read_text() == "[1, 2]\n"
