"""The screens docs/strength-log.md reports but did not keep live on as patches in docs/experiments, and its commands
replay them with ``git apply``: a patch that no longer applies to the code would leave those figures with no way to
reproduce them, so each must still apply, alone, to the tree as it is."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PATCHES = sorted((ROOT / "docs" / "experiments").glob("*.diff"))


@pytest.fixture(autouse=True)
def _git_checkout() -> None:
    """Outside a git checkout (an unpacked source archive) there is no tree to apply a patch to; CI runs on a clone,
    so there a missing one is a broken set-up and fails."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        if os.environ.get("CI"):
            pytest.fail("CI must run these tests on a git checkout with git installed")
        pytest.skip("needs a git checkout of the project and git")


def test_there_are_patches_to_check() -> None:
    assert PATCHES, "docs/experiments holds no patch"


@pytest.mark.parametrize("patch", PATCHES, ids=[p.name for p in PATCHES])
def test_each_experiment_patch_still_applies(patch: Path) -> None:
    done = subprocess.run(["git", "apply", "--check", str(patch)], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, f"{patch.name} no longer applies: {done.stderr.strip()}"


@pytest.mark.parametrize("patch", PATCHES, ids=[p.name for p in PATCHES])
def test_each_experiment_patch_is_named_in_the_strength_log(patch: Path) -> None:
    log = (ROOT / "docs" / "strength-log.md").read_text(encoding="utf-8")
    assert f"experiments/{patch.name}" in log
