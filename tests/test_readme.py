"""Every example in README.md runs as written: its ```python blocks, and each line of its ```bash blocks in a
scratch directory where ``.venv`` is this checkout's (the README's commands say ``.venv/bin/torres``).

Some commands cannot run unattended or would take minutes; :data:`NOT_RUN_AS_WRITTEN` lists them, each with the
reason and what runs in its place (its ``--help``, or a short variant). A README command that is neither run nor
listed fails the test, so a new example cannot slip in untested."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_command

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BLOCK = re.compile(r"^```(bash|python)\n(.*?)^```", re.S | re.M)

#: Command prefix → (why it is not run as written, what runs instead or None).
NOT_RUN_AS_WRITTEN: dict[str, tuple[str, str | None]] = {
    "./scripts/": ("sets up the environment and serves or tests everything: what the test suite itself runs", None),
    ".venv/bin/torres serve": ("a server that runs until stopped", ".venv/bin/torres serve --help"),
    ".venv/bin/torres play --load": ("interactive: a person plays at the prompt",
                                     ".venv/bin/torres play --help"),
    ".venv/bin/torres play": ("interactive: asks questions, a person plays at the prompt",
                              ".venv/bin/torres play --help"),
    ".venv/bin/torres demo": ("watches a whole game with a pause after every turn (minutes)",
                              ".venv/bin/torres demo --players 2 --seed 3 --delay 0 --bots random,random"),
    ".venv/bin/torres tournament": ("200 games with the expert take many minutes",
                                    ".venv/bin/torres tournament --bots expert,casual --games 1 --players 2"),
    ".venv/bin/torres bench-ai": ("times the bots for a minute", ".venv/bin/torres bench-ai --help"),
    ".venv/bin/torres bench": ("times the engine for several seconds",
                               ".venv/bin/torres bench --seconds 0.01 --reps 1"),
}


def blocks() -> list[tuple[str, str]]:
    return [(kind, body) for kind, body in BLOCK.findall(README.read_text(encoding="utf-8"))]


def bash_commands() -> list[str]:
    """Every command line of the README's bash blocks, in reading order."""
    lines: list[str] = []
    for kind, body in blocks():
        if kind == "bash":
            lines.extend(line.strip() for line in body.splitlines() if line.strip() and
                         not line.strip().startswith("#"))
    return lines


def runnable(line: str) -> tuple[str, str]:
    """What to run for a README line, and why it differs from the line (empty when it runs as written)."""
    for prefix, (reason, instead) in NOT_RUN_AS_WRITTEN.items():
        if line.startswith(prefix):
            return (instead or ""), reason
    return line, ""


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory like a checkout's root for the commands: ``.venv`` is this one's, files land here."""
    path = tmp_path_factory.mktemp("readme")
    (path / ".venv").symlink_to(ROOT / ".venv")
    return path


def test_the_readme_has_examples_of_both_kinds() -> None:
    kinds = {kind for kind, _ in blocks()}
    assert kinds == {"bash", "python"}
    assert any(line.startswith(".venv/bin/torres hint") for line in bash_commands())


def test_no_placeholder_is_left_in_a_command() -> None:
    for line in bash_commands():
        assert "..." not in line and "…" not in line, f"a placeholder: {line}"


@pytest.mark.parametrize("index", range(sum(1 for kind, _ in blocks() if kind == "python")))
def test_python_examples_run(index: int, scratch: Path) -> None:
    code = [body for kind, body in blocks() if kind == "python"][index]
    result = run_command([sys.executable, "-c", code], cwd=scratch, capture_output=True, text=True,
                         timeout=120)
    assert result.returncode == 0, result.stderr


def test_bash_examples_run_in_order(scratch: Path) -> None:
    """One after another in the same directory: the record ``selfplay`` writes is the one ``replay`` reads."""
    env = dict(os.environ, TERM="dumb")
    env.pop("PYTHONPATH", None)
    ran = 0
    for line in bash_commands():
        command, reason = runnable(line)
        if not command:
            continue
        result = run_command(["bash", "-c", command], cwd=scratch, capture_output=True, text=True,
                             timeout=300, env=env, stdin=subprocess.DEVNULL)
        assert result.returncode == 0, f"{line}\n(ran: {command}; {reason or 'as written'})\n{result.stderr}"
        ran += 1
    assert ran >= 10


def test_every_skipped_example_is_still_in_the_readme() -> None:
    """The list of exceptions names only commands the README has (a stale entry would hide nothing)."""
    lines = bash_commands()
    for prefix in NOT_RUN_AS_WRITTEN:
        if prefix.startswith("./scripts/") or prefix.endswith("serve"):
            continue  # the top section, which another part of the project owns, may or may not show them
        assert any(line.startswith(prefix) for line in lines), prefix
