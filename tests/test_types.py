"""The package type-checks under ``mypy --strict`` (configured in pyproject.toml)."""

from __future__ import annotations

from pathlib import Path

from mypy import api


def test_mypy_strict() -> None:
    root = Path(__file__).resolve().parent.parent
    stdout, stderr, status = api.run(["--config-file", str(root / "pyproject.toml"), str(root / "torres")])
    assert status == 0, stdout + stderr
