"""scripts/learn_eval.py, which reproduces the learning experiments of docs/strength.md, is seeded: the same
command gives the same positions, and its fits run on them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = [sys.executable, str(ROOT / "scripts" / "learn_eval.py")]


def test_the_learning_script_is_reproducible(tmp_path: Path) -> None:
    files = []
    for k, jobs in enumerate((1, 2)):
        out = tmp_path / f"positions-{k}.npz"
        subprocess.run(SCRIPT + ["generate", "--games", "3", "--seed", "3", "--jobs", str(jobs), "--policies",
                                 "greedy:width=1,strong", "--out", str(out)], check=True, capture_output=True)
        files.append(np.load(out))
    for key in ("phase", "x", "y", "tuned", "game"):
        assert np.array_equal(files[0][key], files[1][key]), key
    assert len(files[0]["y"]) > 50
    # the evaluation's expectation is stored beside the outcome, both relative to the rival
    assert files[0]["tuned"].shape == (len(files[0]["y"]), 2)
    report = subprocess.run(SCRIPT + ["residuals", str(tmp_path / "positions-0.npz")], check=True,
                            capture_output=True, text=True).stdout
    assert report.count("castles fitted") == 3
    fitted = tmp_path / "weights.json"
    subprocess.run(SCRIPT + ["fit", str(tmp_path / "positions-0.npz"), "--out", str(fitted)], check=True,
                   capture_output=True)
    assert fitted.exists()
