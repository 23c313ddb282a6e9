"""Shared fixtures: a real ``torres serve`` process for browser and end-to-end tests; the ``--slow`` option; and the
check that a test run leaves no process behind.

Every process a test starts must end with it. Servers run in their own process group (``ServerProcess``), which
is stopped or killed as a whole, bot workers and multiprocessing's resource tracker included; other commands run
through :func:`run_command`, which ends the command's whole group on a timeout. At the end of the run each pytest
process (the xdist workers and the controller) looks for processes it started that are still alive, kills them
and fails the run naming them (:func:`leftover_processes`)."""

from __future__ import annotations

import gc
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any, Collection, Iterator, Sequence

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The tests run the pure modules, as CI's fresh clone does, even where the checkout has a build (scripts/run makes
# one): set before anything imports torres, and inherited by every process a test starts. TORRES_NATIVE naming a
# build runs them compiled; tests/test_native.py builds its own.
os.environ.setdefault("TORRES_NATIVE", "off")
#: How long a server may take to say it is ready: generous, so that a machine busy with other work still makes it
#: (an idle one needs 1–3 s); a server that exits meanwhile fails at once.
READY_TIMEOUT = 120.0
#: The line ``torres serve`` prints once it accepts connections (torres/server/run.py).
READY = b"torres: ready, open http://"


def load_script(relative: str, name: str | None = None) -> ModuleType:
    """A bench or script file (``"bench/paired.py"``) imported as a module, registered under its name (or ``name``)
    so that its dataclasses, and other files that import it by that name, find it. Loaded once, as ``import`` does:
    a second copy would leave the first's functions unpicklable for worker processes (pickled by name, they would
    resolve to the other copy's)."""
    spec = importlib.util.spec_from_file_location(name or Path(relative).stem, ROOT / relative)
    assert spec is not None and spec.loader is not None
    loaded = sys.modules.get(spec.name)
    if loaded is not None and getattr(loaded, "__file__", None) == spec.origin:
        return loaded
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: PostgreSQL and Redis on loopback for the tests of several processes (``eval "$(scripts/services)"`` sets them).
POSTGRES = os.environ.get("TORRES_TEST_POSTGRES")
REDIS = os.environ.get("TORRES_TEST_REDIS")


def need_services(redis: bool = False) -> None:
    """Skip a test without PostgreSQL (and Redis) on a developer's machine; under CI, fail it: scripts/test starts
    them, so a missing one is a broken set-up, not a reason to run less."""
    missing = [name for name, value in (("TORRES_TEST_POSTGRES", POSTGRES),
                                        ("TORRES_TEST_REDIS", REDIS if redis else "not needed")) if not value]
    if missing:
        message = f"no {' or '.join(missing)}: run `eval \"$(scripts/services)\"` first"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run this test: {message}")
        pytest.skip(message)


@contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """The URL of a fresh PostgreSQL database, dropped afterwards (:func:`need_services` without one)."""
    import secrets

    from sqlalchemy import create_engine, text

    from torres.server.store import database_url

    need_services()
    assert POSTGRES
    name = f"torres_test_{secrets.token_hex(4)}"
    admin = create_engine(database_url(POSTGRES), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield POSTGRES.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- --slow ---------------------------------------------------------------------------------------------------
def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run the slow tests (marked slow: whole games between the strongest bots) and the "
                          "soak tests at full length; CI (.ci/run) passes it")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow: runs with --slow (as CI does)")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def slow_run(request: pytest.FixtureRequest) -> bool:
    """Whether the run has ``--slow``: soak tests then run at their full length."""
    return bool(request.config.getoption("--slow"))


# --- processes --------------------------------------------------------------------------------------------------
def kill_group(pgid: int, sig: int = signal.SIGKILL) -> None:
    """Signal a whole process group; nothing happens if it is gone already."""
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def run_command(args: Sequence[str], *, timeout: float, check: bool = False, capture_output: bool = False,
                **kwargs: Any) -> subprocess.CompletedProcess[Any]:
    """``subprocess.run`` in a process group of its own: on a timeout (or any error) the command's whole group is
    killed, the processes it started included, not only the command."""
    if capture_output:
        kwargs.update(stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with subprocess.Popen(args, start_new_session=True, **kwargs) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except BaseException:  # a timeout, or the test interrupted: the command and all it started end here
            kill_group(process.pid)
            process.wait()
            raise
    result = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
    if check:
        result.check_returncode()
    return result


class ServerProcess:
    """``torres serve`` on a loopback port with its own SQLite file (or a database URL, with ``log`` given); can be
    killed and started again (on the same port). ``extra``: more ``torres serve`` options (``--redis URL``).

    The server runs in a process group of its own, with its bot workers and multiprocessing's resource tracker:
    :meth:`stop` and :meth:`kill` end the whole group, so nothing outlives a test."""

    def __init__(self, database: Path | str, port: int | None = None, log: Path | None = None,
                 extra: tuple[str, ...] = ()) -> None:
        self.database = database
        self.database_url = f"sqlite:///{database}" if isinstance(database, Path) else database
        self.port = port or 0  # 0: the server takes a free port, which its ready line names (no race for it)
        self.process: subprocess.Popen[bytes] | None = None
        if log is None:
            assert isinstance(database, Path), "a server on a database URL needs a log path"
            log = database.with_suffix(".log")
        self.log = log
        self.extra = extra

    @property
    def url(self) -> str:
        assert self.port, "the server's port is known once it has started"
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = READY_TIMEOUT) -> "ServerProcess":
        """Start the server and return once it says it accepts connections (its ready line in the log)."""
        assert self.process is None, "already running"
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        offset = self.log.stat().st_size if self.log.exists() else 0
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "torres.cli.main", "serve", "--port", str(self.port),
                 "--database", self.database_url, *self.extra],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            with open(self.log, "rb") as log:
                log.seek(offset)
                text = log.read()
            if READY in text:
                line = text[text.index(READY) + len(READY):].split(b"/", 1)[0]  # 127.0.0.1:PORT
                self.port = int(line.rsplit(b":", 1)[1])
                return self
            if self.process.poll() is not None:
                self.stop()
                raise RuntimeError(f"torres serve exited before it was ready:\n{text.decode(errors='replace')}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"torres serve was not ready within {timeout:g} s:\n"
                                   f"{text.decode(errors='replace')}")
            time.sleep(0.05)

    def stop(self) -> None:
        """SIGTERM: the server shuts down cleanly; then whatever is left of its group is killed."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                pass
        kill_group(self.process.pid)
        self.process.wait()
        self.process = None

    def kill(self) -> None:
        """SIGKILL to the whole group, as in a crash of the machine: no shutdown handler runs, and no bot worker or
        resource tracker of the dead server is left behind."""
        if self.process is not None:
            kill_group(self.process.pid)
            self.process.wait()
        self.process = None


@pytest.fixture(autouse=True)
def collector_thresholds() -> Iterator[None]:
    """Commands that search raise the process's garbage-collector thresholds and freeze what outlives each
    decision (torres.ai.collector); a test that runs one in-process must not leave them so for the tests after it."""
    thresholds = gc.get_threshold()
    yield
    gc.set_threshold(*thresholds)
    gc.unfreeze()


#: How long a test waits for a websocket message in process before it fails: generous for a busy machine, and a
#: message that never comes (one lost between processes) fails the test instead of hanging the whole run.
SOCKET_DEADLINE = 120.0


@pytest.fixture(scope="session", autouse=True)
def sockets_wait_with_a_deadline() -> Iterator[None]:
    """Starlette's test socket waits for ever for the next message; here every wait has :data:`SOCKET_DEADLINE`."""
    import anyio
    from starlette.testclient import WebSocketTestSession

    waits_for_ever = WebSocketTestSession.receive

    def receive(self: Any) -> Any:
        if not hasattr(self, "_send_rx"):  # a Starlette this wrapper does not know: wait as it does
            return waits_for_ever(self)

        async def within() -> Any:
            with anyio.fail_after(SOCKET_DEADLINE):
                return await self._send_rx.receive()
        try:
            return self.portal.call(within)
        except TimeoutError:
            raise AssertionError(f"no websocket message came within {SOCKET_DEADLINE:g} s") from None

    WebSocketTestSession.receive = receive  # type: ignore[method-assign]
    yield
    WebSocketTestSession.receive = waits_for_ever  # type: ignore[method-assign]


def fast_limits() -> Any:
    """A client's rate limits that no test reaches (the server's own are tested where they matter)."""
    from torres.server.protocol import Limits

    return Limits(burst=100_000, per_second=100_000)


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A new SQLite database for an app in a test."""
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def client(db: str) -> Iterator[Any]:
    """The app on ``db``, in process (a test module may define its own ``client``)."""
    from fastapi.testclient import TestClient

    from torres.server.app import create_app

    with TestClient(create_app(db, client_limits=fast_limits())) as c:
        yield c


@pytest.fixture
def server_process(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of this test alone (to kill and restart), not started yet."""
    server = ServerProcess(tmp_path / "games.db")
    try:
        yield server
    finally:
        server.stop()


#: Debian's chromium (scripts/test installs it; Playwright cannot download browsers here) and how tests start it.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless chromium for a test module's pages; a developer's machine without it skips (CI never does)."""
    if not Path(CHROMIUM).exists() and not os.environ.get("CI"):  # pragma: no cover
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright import sync_api

    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running ``torres serve``, shared by the tests of this pytest process: each makes its own
    games and its own browser context, so they do not meet (a test that kills its server uses ``server_process``)."""
    server = ServerProcess(tmp_path_factory.mktemp("live-server") / "games.db")
    try:
        yield server.start().url
    finally:
        server.stop()


# --- nothing is left behind ---------------------------------------------------------------------------------------
#: Set by the controller (or the only pytest process): every process of the run inherits it.
RUN_MARK = "TORRES_TEST_RUN"
#: Set by each pytest process to its pid: the processes it (and its tests) started inherit it.
OWNER_MARK = "TORRES_TEST_OWNER"
#: How long processes that are ending anyway (bot workers after their pool's shutdown, a browser's helpers) may
#: take before they count as left behind.
GRACE = float(os.environ.get("TORRES_TEST_GRACE", "10"))


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # the controller, or a run without xdist
        os.environ[RUN_MARK] = f"{os.getpid()}-{time.time_ns()}"
    os.environ[OWNER_MARK] = str(os.getpid())


def _processes() -> Iterator[tuple[int, int, str]]:
    """(pid, parent pid, state) of every process, from /proc."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        yield int(entry), int(fields[1]), fields[0]


def _environment(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return b""


def describe(pid: int) -> str:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        command = "?"
    return f"{pid} {command[:200]}"


def leftover_processes(mark: str, value: str, exclude: Collection[int] = ()) -> list[int]:
    """Live processes (not zombies) that inherited ``mark=value`` from this pytest process, wherever they are now
    (a killed server's bot workers belong to init), and this process's own children whatever their environment."""
    me = os.getpid()
    needle = f"\0{mark}={value}\0".encode()
    found = []
    for pid, parent, state in _processes():
        if pid == me or pid in exclude or state in ("Z", "X"):
            continue
        if parent == me or needle in b"\0" + _environment(pid):
            found.append(pid)
    return found


def _own_helpers() -> set[int]:
    """Processes of this pytest process that end with it and are no test's: multiprocessing's resource tracker
    (started for a test's in-process bot pool, it outlives the pool by design)."""
    helpers = set()
    try:
        from multiprocessing import resource_tracker

        pid = getattr(resource_tracker._resource_tracker, "_pid", None)
        if pid:
            helpers.add(int(pid))
    except ImportError:  # pragma: no cover
        pass
    return helpers


def check_nothing_left(mark: str, value: str, grace: float = GRACE) -> list[str]:
    """Wait up to ``grace`` seconds for the run's processes to end; kill and name those that do not."""
    deadline = time.monotonic() + grace
    while True:
        left = leftover_processes(mark, value, _own_helpers())
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    named = [describe(pid) for pid in left]
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    return named


@pytest.fixture(scope="session", autouse=True)
def no_process_left_behind() -> Iterator[None]:
    """After this pytest process's last test (its session fixtures torn down first): no process it started is
    alive. A failure here is an error of the last test's teardown, and the processes named are killed."""
    yield
    left = check_nothing_left(OWNER_MARK, str(os.getpid()))
    if left:
        pytest.fail("processes started by the tests of this pytest process are still alive at its end (now "
                    "killed): " + "; ".join(left), pytrace=False)


_LEFT = pytest.StashKey[list[str]]()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """The controller, once its workers have gone: no process of the whole run is left (a worker that died may
    have left some its own check never saw)."""
    if hasattr(session.config, "workerinput"):
        return
    left = check_nothing_left(RUN_MARK, os.environ[RUN_MARK], grace=min(GRACE, 2.0))
    if left:
        session.config.stash[_LEFT] = left
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    left = config.stash.get(_LEFT, [])
    if left:
        terminalreporter.section("processes left behind", sep="=", red=True, bold=True)
        for line in left:
            terminalreporter.line(f"killed: {line}", red=True)
