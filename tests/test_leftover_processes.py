"""The end-of-run check in tests/conftest.py is real: a test run whose tests leave a process alive fails and names
it, with and without xdist, and the process is killed (that a run leaving nothing passes, this suite shows).
Also: ``ServerProcess`` ends a server's whole process group, its bot workers too."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import ROOT, ServerProcess, _processes, run_command

LEAKY = '''
import subprocess, sys

def test_waits_for_its_child():
    subprocess.run(["true"], check=True)  # passes: a process that ended is no leak

def test_leaves_a_child():
    subprocess.Popen(["sleep", "{seconds}"])  # started, never waited for: still our child at the end

def test_leaves_an_orphan():
    # a grandchild whose parent has gone: it belongs to init now, as a killed server's bot workers do
    subprocess.run([sys.executable, "-c",
                    "import subprocess; subprocess.Popen(['sleep', '{seconds}'], start_new_session=True)"],
                   check=True)
'''



def alive(seconds: str) -> list[int]:
    """Live ``sleep SECONDS`` processes (a number no other test sleeps for)."""
    found = []
    for pid, _, state in _processes():
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if state != "Z" and command[:2] == [b"sleep", seconds.encode()]:
            found.append(pid)
    return found


def inner_run(tmp_path: Path, body: str, *options: str) -> tuple[int, str]:
    """A pytest run of its own over ``body`` with this suite's conftest."""
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_inner.py").write_text(body)
    # (the leaks here never end by themselves: no need to wait long for them; no plugin but xdist loads)
    env = dict(os.environ, PYTHONPATH=str(ROOT), TORRES_TEST_GRACE="1", PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    result = run_command([sys.executable, "-m", "pytest", "-p", "xdist", "-p", "no:cacheprovider", "-q", "--rootdir",
                          str(tmp_path), "-c", os.devnull, *options, str(tmp_path)],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    return result.returncode, result.stdout + result.stderr


@pytest.mark.parametrize("options", [(), ("-n", "2")], ids=["alone", "xdist"])
def test_a_run_that_leaves_processes_fails_and_kills_them(tmp_path: Path, options: tuple[str, ...]) -> None:
    seconds = str(3000 + len(options) * 7 + os.getpid() % 997)
    try:
        code, output = inner_run(tmp_path, LEAKY.replace("{seconds}", seconds), *options)
        assert code != 0, output
        assert "still alive" in output and f"sleep {seconds}" in output, output
        assert output.count(f"sleep {seconds}") >= 2, output  # both: the child and the orphan
        assert "3 passed" in output and "error" in output, output  # the check fails the run, not the tests
        deadline = time.monotonic() + 5
        while alive(seconds) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(seconds)
    finally:
        for pid in alive(seconds):  # (only if the check failed)
            os.kill(pid, signal.SIGKILL)


def test_a_killed_server_takes_its_bot_workers_along(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "games.db")
    server.start()
    try:
        body = {"players": 2, "bot_speed": "instant", "seats": [{"kind": "bot", "level": "beginner"},
                                                                  {"kind": "bot", "level": "beginner"}]}
        request = urllib.request.Request(server.url + "/api/games", data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30):
            pass
        assert server.process is not None
        group = server.process.pid
        deadline = time.monotonic() + 60
        while len(members(group)) < 3 and time.monotonic() < deadline:  # the server, a bot worker, the tracker
            time.sleep(0.05)
        assert len(members(group)) >= 3, members(group)
        server.kill()
        deadline = time.monotonic() + 5
        while members(group) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not members(group)
    finally:
        server.stop()


def members(group: int) -> list[int]:
    """Live processes of a process group."""
    found = []
    for pid, _, state in _processes():
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if state != "Z" and int(stat[stat.rindex(")") + 2:].split()[2]) == group:
            found.append(pid)
    return found
