"""Shared fixtures: a real ``torres serve`` process for browser and end-to-end tests."""

from __future__ import annotations

import gc
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``torres serve`` on a free loopback port with its own SQLite file (or a database URL, with ``log`` given);
    can be killed and started again. ``extra``: more ``torres serve`` options (``--redis URL``)."""

    def __init__(self, database: Path | str, port: int | None = None, log: Path | None = None,
                 extra: tuple[str, ...] = ()) -> None:
        self.database = database
        self.database_url = f"sqlite:///{database}" if isinstance(database, Path) else database
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        if log is None:
            assert isinstance(database, Path), "a server on a database URL needs a log path"
            log = database.with_suffix(".log")
        self.log = log
        self.extra = extra

    def start(self, timeout: float = 30.0) -> "ServerProcess":
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "torres.cli.main", "serve", "--port", str(self.port),
                 "--database", self.database_url, *self.extra],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"torres serve exited: {self.log.read_text()}")
            try:
                with urllib.request.urlopen(self.url + "/api/meta", timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"torres serve did not answer within {timeout} s: {self.log.read_text()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, as in a crash."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
        self.process = None


@pytest.fixture(autouse=True)
def collector_thresholds() -> Iterator[None]:
    """Commands that search raise the process's garbage-collector thresholds (torres.ai.collector); a test that
    runs one in-process must not leave them changed for the tests after it."""
    thresholds = gc.get_threshold()
    yield
    gc.set_threshold(*thresholds)


@pytest.fixture
def server_process(tmp_path: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path / "games.db")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def live_server(server_process: ServerProcess) -> str:
    """The base URL of a running ``torres serve`` with a fresh database."""
    return server_process.start().url
