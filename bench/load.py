"""Load client for ``torres serve`` (issue #12, "Load"): many concurrent games of scripted players acting through
the websocket, with the round trip of every action measured.

Each game is a hot-seat game created over HTTP (the client holds every seat's token) with **one websocket per seat**,
so every action is seen by the other seats' connections. The seat to act picks a random legal action from its own
view, sends it, and the round trip is the time from sending until the ack has arrived **and** every connection of
the game has received the ``update`` of that version. Between two actions a game waits a random think time
(uniform in [0.5, 1.5] × ``--think``; 0 = as fast as the server answers). A finished game is replaced by a new one.
No bots: the server's own path is measured.

Everything is bounded: the number of games, the measured seconds, a time limit per action; traffic goes to
loopback only. Without ``--url`` the script starts its own ``torres serve`` on a free port with a fresh SQLite file
(``--database URL``: that database instead; ``--processes 2``: two processes sharing it through ``--redis``;
``--profile FILE``: the same server run in-process under cProfile, its stats written to FILE and summarised) and
reports the server's CPU per action (summed over every process of each server's process group, bot workers
included); ``--suite`` runs the table of docs/server.md, "Load" (``scripts/bench-load``). ``--proxy`` puts nginx with
``deploy/nginx.conf`` in front of the started servers (each game's connections to one process), and
``--scale-table`` runs docs/deploy.md's table: 1 and 2 processes behind it at the same load (``scripts/bench-scale``).

    .venv/bin/python bench/load.py                          # 500 games, think 1 s, 30 s measured
    .venv/bin/python bench/load.py --games 500 --think 0    # closed loop: the server's throughput
    .venv/bin/python bench/load.py --profile /tmp/serve.prof
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000 --games 100
    .venv/bin/python bench/load.py --suite                  # every row of the table, printed in markdown
    .venv/bin/python bench/load.py --postgres URL --redis URL --processes 2 --proxy --think 2
    .venv/bin/python bench/load.py --postgres URL --redis URL --scale-table --think 2   # docs/deploy.md
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib.metadata
import importlib.util
import json
import os
import random
import platform
import re
import resource
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: Messages a connection sends per second at most: under the server's flood limit (30 per second).
PACE = 25.0
#: An action not round-tripped within this many seconds counts as an error.
ACTION_TIMEOUT = 30.0
_HEAD = re.compile(r'\{"type":"(\w+)"(?:,"version":(\d+))?')


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # sent -> ack and every seat's update (s)
    sent_at: list[float] = field(default_factory=list)  # when each of those was sent (monotonic s)
    acks: list[float] = field(default_factory=list)  # sent -> ack (s)
    errors: dict[str, int] = field(default_factory=dict)
    games_created: int = 0
    games_finished: int = 0
    measuring: bool = False
    stopping: bool = False

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


class Seat:
    """One websocket speaking for one seat; a reader task keeps its latest view (parsed only when needed)."""

    def __init__(self, ws: Any, stats: Stats) -> None:
        self.ws, self.stats = ws, stats
        self.version = -1
        self.raw = ""  # the latest welcome / update, unparsed
        self._view: dict[str, Any] | None = None
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.changed = asyncio.Event()
        self.next_send = 0.0
        self.reader = asyncio.create_task(self._read())

    async def send(self, message: dict[str, Any]) -> None:
        now = time.monotonic()
        if now < self.next_send:
            await asyncio.sleep(self.next_send - now)
        self.next_send = max(now, self.next_send) + 1 / PACE
        await self.ws.send(json.dumps(message))

    def view(self) -> dict[str, Any]:
        if self._view is None:
            self._view = json.loads(self.raw)["view"]
        return self._view

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                head = _HEAD.match(text)
                kind = head.group(1) if head else ""
                if kind in ("update", "welcome") and head and head.group(2):
                    self.version, self.raw, self._view = int(head.group(2)), text, None
                    self.changed.set()
                elif kind in ("ack", "rejected"):
                    message = json.loads(text)
                    future = self.answers.pop(message["id"], None)
                    if future is not None and not future.done():
                        future.set_result(message)
                elif kind == "error":
                    self.stats.error("error:" + json.loads(text).get("code", "?"))
        except Exception as exc:  # the connection broke
            if not self.stats.stopping:
                self.stats.error(f"connection:{type(exc).__name__}")
        finally:
            self.changed.set()

    async def until(self, version: int) -> None:
        while self.version < version:
            if self.reader.done():
                raise ConnectionError("connection closed")
            self.changed.clear()
            await self.changed.wait()

    async def act(self, client_id: str, version: int, action: str) -> dict[str, Any]:
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.answers[client_id] = future
        await self.send({"type": "act", "id": client_id, "version": version, "action": action})
        return await future


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return dict(json.loads(answer.read()))


async def play(slot: int, args: argparse.Namespace, stats: Stats, creating: asyncio.Semaphore,
               connecting: asyncio.Semaphore, ready: list[int], go: asyncio.Event) -> None:
    """One game slot: a game played to its end, then a new one, until the run stops."""
    from websockets.asyncio.client import connect

    rng = random.Random(args.seed * 100_003 + slot)
    # With --also, the seats of a game are spread over the processes (they share the games through Redis), or with
    # --spread games each game is on one process, the games taking turns.
    urls = [args.url, *args.also]
    ws_urls = [u.replace("http", "ws", 1) for u in urls]
    home = slot % len(urls) if args.spread == "games" else 0
    first = True
    while not stats.stopping:
        seats: list[Seat] = []
        step = "create"  # where an error happened: create, connect, act (until the ack), update (the others' views)
        try:
            async with creating:
                game = await asyncio.to_thread(_post, f"{urls[home]}/api/games", {
                    "players": args.players, "hotseat": True, "bot_speed": "instant",
                    "seats": [{"kind": "human"}] * args.players})
            stats.games_created += 1
            tokens = {int(k): v for k, v in game["tokens"].items()}
            step = "connect"
            async with connecting:
                for seat in range(args.players):
                    ws_url = ws_urls[home if args.spread == "games" else (slot + seat) % len(ws_urls)]
                    ws = await connect(f"{ws_url}/ws/{game['id']}", proxy=None, max_size=2**22, open_timeout=30,
                                       compression=None if args.no_compression else "deflate")
                    seats.append(Seat(ws, stats))
                    await seats[-1].send({"type": "hello", "seat": seat, "token": tokens[seat], "version": None})
                for s in seats:
                    await asyncio.wait_for(s.until(0), ACTION_TIMEOUT)
            if first:  # every game starts playing once all are connected
                ready[0] += 1
                first = False
                await go.wait()
            count = 0
            while not stats.stopping:
                view = seats[0].view()
                if view["stage"] == "over":
                    stats.games_finished += 1
                    break
                if args.think:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * args.think)
                    if stats.stopping:
                        break
                actor = seats[view["current"]]
                own = actor.view()
                count += 1
                measured = stats.measuring
                step = "act"
                sent = time.perf_counter()
                answer = await asyncio.wait_for(
                    actor.act(f"{slot}-{count}", actor.version, rng.choice(own["legal"])["action"]), ACTION_TIMEOUT)
                acked = time.perf_counter()
                if answer["type"] != "ack":
                    stats.error("rejected:" + answer.get("code", "?"))
                    break
                step = "update"
                await asyncio.wait_for(asyncio.gather(*(s.until(answer["version"]) for s in seats)), ACTION_TIMEOUT)
                done = time.perf_counter()
                if measured and stats.measuring:
                    stats.latencies.append(done - sent)
                    stats.sent_at.append(time.monotonic() - (done - sent))
                    stats.acks.append(acked - sent)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not stats.stopping:
                behind = [f"seat {i} at {s.version}{' (closed)' if s.reader.done() else ''}" for i, s in
                          enumerate(seats) if step == "update"]
                stats.error(f"{step}: {type(exc).__name__}: {str(exc)[:80]}" + (f" ({', '.join(behind)})"
                                                                                   if behind else ""))
                await asyncio.sleep(0.5)
        finally:
            for s in seats:
                s.reader.cancel()
                try:
                    await asyncio.wait_for(s.ws.close(), 2)
                except Exception:
                    pass


def _cpu_seconds(groups: list[int]) -> float | None:
    """The CPU seconds of :func:`_cpu_by_group`, added up."""
    by_group = _cpu_by_group(groups)
    return None if by_group is None else sum(by_group.values())


def _cpu_by_group(groups: list[int]) -> dict[int, float] | None:
    """User + system CPU seconds of every process in these process groups: all their threads (database calls run
    in worker threads) and all their processes (bot workers, the uploads' process: each server is started in a
    group of its own), plus what the children they have waited for had used. ``None`` if a group is gone."""
    tick = os.sysconf("SC_CLK_TCK")
    wanted, total = set(groups), {group: 0 for group in groups}
    seen = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        if int(fields[2]) in wanted:  # fields: state, ppid, pgrp, ..., utime stime cutime cstime at 11-14
            seen.add(int(fields[2]))
            total[int(fields[2])] += sum(int(x) for x in fields[11:15])
    return {group: ticks / tick for group, ticks in total.items()} if seen == wanted else None


def _load_average() -> float | None:
    """The machine's 1-minute load average (other jobs on a shared machine show up here)."""
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _by_second(stats: Stats, start: float, window: float) -> list[float]:
    """The slowest round trip of the actions sent in each second of the window (stalls show up here)."""
    worst = [0.0] * (int(window) + 1)
    for at, latency in zip(stats.sent_at, stats.latencies):
        second = min(len(worst) - 1, max(0, int(at - start)))
        worst[second] = max(worst[second], round(1000 * latency, 1))
    return worst


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def run(args: argparse.Namespace, server_pids: list[int]) -> dict[str, Any]:
    stats = Stats()
    ready = [0]
    creating, connecting = asyncio.Semaphore(8), asyncio.Semaphore(32)
    go = asyncio.Event()
    tasks = [asyncio.create_task(play(i, args, stats, creating, connecting, ready, go))
             for i in range(args.games)]
    started = time.monotonic()
    while ready[0] < args.games and time.monotonic() - started < args.setup_limit:
        await asyncio.sleep(0.1)
    setup = time.monotonic() - started
    go.set()
    await asyncio.sleep(args.warmup)
    if server_pids and args.profile:
        os.kill(server_pids[0], signal.SIGUSR1)
    server_cpu0 = _cpu_seconds(server_pids) if server_pids else None
    each0 = _cpu_by_group(server_pids) if server_pids else None
    proxy_group = [args.proxy_group] if getattr(args, "proxy_group", None) else []
    proxy_cpu0 = _cpu_seconds(proxy_group) if proxy_group else None
    client_cpu0, window0 = time.process_time(), time.monotonic()
    stats.measuring = True
    load = [_load_average()]
    for _ in range(max(1, round(args.seconds / 5))):  # the load average every 5 s of the window
        await asyncio.sleep(args.seconds / max(1, round(args.seconds / 5)))
        load.append(_load_average())
    stats.measuring = False
    window = time.monotonic() - window0
    client_cpu = time.process_time() - client_cpu0
    server_cpu1 = _cpu_seconds(server_pids) if server_pids else None
    each1 = _cpu_by_group(server_pids) if server_pids else None
    proxy_cpu1 = _cpu_seconds(proxy_group) if proxy_group else None
    if server_pids and args.profile:
        os.kill(server_pids[0], signal.SIGUSR2)
    stats.stopping = True
    await asyncio.sleep(0.5)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    n = len(stats.latencies)
    result: dict[str, Any] = {
        "games": args.games, "players": args.players, "think": args.think, "seconds": round(window, 1),
        "connected_games": ready[0], "setup_seconds": round(setup, 1), "connections": ready[0] * args.players,
        "compression": not args.no_compression,
        "actions": n, "actions_per_second": round(n / window, 1),
        "round_trip_ms": {"p50": round(1000 * _percentile(stats.latencies, 0.5), 1),
                          "p90": round(1000 * _percentile(stats.latencies, 0.9), 1),
                          "p99": round(1000 * _percentile(stats.latencies, 0.99), 1),
                          "max": round(1000 * max(stats.latencies, default=float("nan")), 1),
                          "mean": round(1000 * statistics.fmean(stats.latencies), 1) if n else None},
        "ack_ms": {"p50": round(1000 * _percentile(stats.acks, 0.5), 1),
                   "p99": round(1000 * _percentile(stats.acks, 0.99), 1)},
        "errors": sum(stats.errors.values()), "error_kinds": stats.errors,
        "slowest": [[round(stats.sent_at[i] - window0, 2), round(1000 * stats.latencies[i], 1)]
                    for i in sorted(range(n), key=lambda i: -stats.latencies[i])[:12]],
        "max_ms_by_second": _by_second(stats, window0, window),
        "games_created": stats.games_created, "games_finished": stats.games_finished,
        "client_cpu_share": round(client_cpu / window, 2),
        "load_average": [x for x in load if x is not None],
    }
    if server_cpu0 is not None and server_cpu1 is not None:
        result["server_cpu_share"] = round((server_cpu1 - server_cpu0) / window, 2)
        # CPU milliseconds per action = CPU seconds per 1,000 actions, summed over every server process
        result["server_cpu_ms_per_action"] = round(1000 * (server_cpu1 - server_cpu0) / n, 3) if n else None
    if each0 is not None and each1 is not None:  # each process's share of a core: is any of them saturated?
        result["server_cpu_shares"] = [round((each1[g] - each0[g]) / window, 2) for g in server_pids]
    if proxy_cpu0 is not None and proxy_cpu1 is not None:
        result["proxy_cpu_share"] = round((proxy_cpu1 - proxy_cpu0) / window, 3)
        result["proxy_cpu_ms_per_action"] = round(1000 * (proxy_cpu1 - proxy_cpu0) / n, 3) if n else None
    return result


# --- the server -----------------------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for(url: str, process: subprocess.Popen[bytes], seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url + "/api/meta", timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not answer")


def serve_profiled(port: int, database: str, profile: str | None, pragmas: list[str], gc_default: bool,
                   loop: str = "auto", redis: str | None = None) -> None:
    """``torres serve``'s app in this process's event loop, under cProfile with ``profile`` over the measured
    window (SIGUSR1 to SIGUSR2; stats written on SIGINT), timing the event loop's GC pauses, with extra SQLite
    ``pragmas`` to try; ``gc_default`` leaves Python's GC as it is instead of freezing as ``torres serve`` does;
    ``loop``: uvicorn's event loop (``auto``, as ``torres serve``: uvloop when it is installed; ``asyncio``)."""
    import cProfile

    import uvicorn
    from sqlalchemy import event

    from torres.server.app import create_app
    from torres.server.protocol import CLIENT_LIMITS

    app = create_app(database, redis=redis)
    if pragmas:
        def extra(dbapi_connection: Any, _record: Any) -> None:
            for pragma in pragmas:
                dbapi_connection.execute(f"PRAGMA {pragma}")

        event.listen(app.state.store.engine, "connect", extra)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws_ping_interval=20,
                            ws_ping_timeout=20, ws_max_size=CLIENT_LIMITS.max_bytes * 4, loop=loop)
    server = uvicorn.Server(config)
    pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
    began = [0.0]

    def timed(phase: str, info: dict[str, int]) -> None:  # how long the event loop stands still for the GC
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            pauses[info["generation"]].append(time.perf_counter() - began[0])

    gc.callbacks.append(timed)
    if not gc_default:  # as torres serve does (run.py), where it does
        from torres.server import run as server_run

        freeze = getattr(server_run, "freeze_gc_survivors", None)
        if freeze is not None:
            freeze()
    # Timed by each thread's CPU clock, not the wall clock: on a shared machine (and between threads taking turns
    # on the GIL) a wall clock would count the time the server waited for a core as time spent where it stood.
    profiler = cProfile.Profile(time.thread_time) if profile else None
    # The server runs its database calls in worker threads (asyncio.to_thread), which a profiler enabled in the
    # event loop's thread does not see: each worker thread profiles the calls it runs in the window on its own
    # profiler, and all are added up at the end.
    in_window = [False]
    thread_profilers: dict[int, cProfile.Profile] = {}
    if profiler is not None:
        import threading

        to_thread = asyncio.to_thread

        def profiled_call(function: Any, /, *args: Any, **kwargs: Any) -> Any:
            if not in_window[0]:
                return function(*args, **kwargs)
            own = thread_profilers.setdefault(threading.get_ident(), cProfile.Profile(time.thread_time))
            own.enable()
            try:
                return function(*args, **kwargs)
            finally:
                own.disable()

        async def profiled_to_thread(function: Any, /, *args: Any, **kwargs: Any) -> Any:
            return await to_thread(profiled_call, function, *args, **kwargs)

        asyncio.to_thread = profiled_to_thread

    def window(signum: int, _frame: Any) -> None:
        """SIGUSR1: the measured window begins (profile and GC pauses from here); SIGUSR2: it ends."""
        if signum == signal.SIGUSR1:
            for times in pauses.values():
                times.clear()
            if profiler is not None:
                in_window[0] = True
                profiler.enable()
        elif profiler is not None:
            in_window[0] = False
            profiler.disable()

    signal.signal(signal.SIGUSR1, window)
    signal.signal(signal.SIGUSR2, window)
    try:
        server.run()
    except KeyboardInterrupt:  # uvicorn passes the SIGINT it stopped on
        pass
    finally:
        if profiler is not None and profile:
            import pstats

            stats = pstats.Stats(profiler)
            for own in list(thread_profilers.values()):
                stats.add(own)
            stats.dump_stats(profile)
        for generation, times in pauses.items():
            print(f"gc: generation {generation}: {len(times)} collections, {1000 * sum(times):.0f} ms in all, "
                  f"longest {1000 * max(times, default=0):.1f} ms", file=sys.stderr, flush=True)


#: Where the server's time goes: cumulative time of these functions (file suffix, function name).
PROFILE_GROUPS: list[tuple[str, str, str]] = [
    ("message handling (everything for one client message)", "torres/server/protocol.py", "_dispatch"),
    ("  validation (pydantic)", "pydantic/type_adapter.py", "validate_python"),
    ("  action: Room.act (check, engine, commit, ack, broadcast)", "torres/server/rooms.py", "act"),
    ("    client id look-up (SELECT events)", "torres/server/store.py", "find_event"),
    ("    engine: parse", "torres/engine/state.py", "parse"),
    ("    engine: push", "torres/engine/state.py", "push"),
    ("    database commit (UPDATE games + INSERT event; a worker thread)", "torres/server/store.py", "commit"),
    ("    progress (summary columns)", "torres/server/rooms.py", "progress_of"),
    ("    broadcast: per-seat views as JSON", "torres/server/rooms.py", "_broadcast_update"),
    ("      engine: GameState.view", "torres/engine/state.py", "view"),
    ("      view to JSON objects (views.py)", "torres/server/views.py", "view_json"),
    ("      JSON text (orjson)", "torres/server/views.py", "json_text"),
    ("  hello: token hash look-up", "torres/server/store.py", "seat_token_hash"),
    ("sending frames (Connection.pump -> uvicorn -> websockets)", "torres/server/rooms.py", "pump"),
    ("  permessage-deflate compress", "websockets/extensions/permessage_deflate.py", "encode"),
    ("receiving frames (uvicorn's websockets protocol)", "websockets_sansio_impl.py", "data_received"),
    ("  permessage-deflate decompress", "websockets/extensions/permessage_deflate.py", "decode"),
    ("HTTP: create a game", "torres/server/app.py", "create_game"),
]


def summarise_profile(path: str, actions: int) -> list[dict[str, Any]]:
    """Cumulative seconds of :data:`PROFILE_GROUPS`, as shares of the busy time (all but waiting in epoll)."""
    import pstats

    raw = pstats.Stats(path).stats  # type: ignore[attr-defined]
    # Time in Python functions and builtins; waiting for the network is not among them (uvloop waits in C
    # outside any profiled call; the plain asyncio loop waits in epoll.poll, taken out here).
    busy = sum(tt for (_, _, name), (_, _, tt, _, _) in raw.items()
               if name != "<method 'poll' of 'select.epoll' objects>")
    rows = [{"what": "busy (profiled time, all but waiting for the network)", "seconds": round(busy, 2), "share": 1.0,
             "us_per_action": round(1e6 * busy / actions) if actions else None}]
    for label, suffix, function in PROFILE_GROUPS:
        seconds = 0.0
        for (file, _, name), (_, _, _, ct, callers) in raw.items():
            if name == function and file.endswith(suffix):
                # recursion or a second entry of the same function would count twice: cumtime is per entry
                seconds += ct
        rows.append({"what": label, "seconds": round(seconds, 2), "share": round(seconds / busy, 3) if busy else 0,
                     "us_per_action": round(1e6 * seconds / actions) if actions else None})
    return rows


def software(loop: str = "auto") -> dict[str, Any]:
    """What the servers run on (this interpreter, the venv's packages) and the event loop they use: uvicorn's
    ``auto``, as ``torres serve`` has it, takes uvloop when it is installed."""
    found: dict[str, Any] = {"python": platform.python_version()}
    for name in ("uvicorn", "uvloop", "httptools", "websockets", "fastapi", "sqlalchemy", "orjson", "psycopg"):
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found[name] = None
    found["loop"] = ("uvloop" if importlib.util.find_spec("uvloop") else "asyncio") if loop == "auto" else loop
    return found


class ScratchPostgres:
    """A throwaway database on the PostgreSQL server of ``admin_url`` (e.g. scripts/services'), dropped after."""

    def __init__(self, admin_url: str) -> None:
        from sqlalchemy import create_engine

        from torres.server.store import database_url

        self.admin = create_engine(database_url(admin_url), isolation_level="AUTOCOMMIT")
        self.name = f"torres_load_{secrets.token_hex(4)}"
        self.url = admin_url.rsplit("/", 1)[0] + "/" + self.name

    def __enter__(self) -> str:
        from sqlalchemy import text

        with self.admin.connect() as connection:
            connection.execute(text(f"CREATE DATABASE {self.name}"))
        return self.url

    def __exit__(self, *_: Any) -> None:
        from sqlalchemy import text

        with self.admin.connect() as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)"))
        self.admin.dispose()


#: The proxy configuration a deployer copies (docs/deploy.md), which --proxy and tests/test_proxy.py run as it is.
DEPLOY_NGINX = ROOT / "deploy" / "nginx.conf"
#: Debian's nginx (scripts/services installs it); /usr/sbin is not on every user's PATH.
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def nginx_site(template: str, listen_port: int, upstream_ports: list[int]) -> str:
    """``deploy/nginx.conf`` on loopback: its ``listen`` lines become one plain-HTTP ``127.0.0.1:listen_port``,
    its ``ssl_`` lines go, and the upstream's ``server 127.0.0.1:PORT ...`` lines become one per given port
    (each with the options of the first). Everything else — the routing — stays exactly as deployed."""
    out: list[str] = []
    listened = upstream = False
    for line in template.splitlines():
        words = line.split("#", 1)[0].split()
        if words[:1] == ["listen"]:
            if not listened:
                out.append(f"    listen 127.0.0.1:{listen_port};")
                listened = True
            continue
        if words and words[0].startswith("ssl_"):
            continue
        if len(words) >= 2 and words[0] == "server" and re.fullmatch(r"127\.0\.0\.1:\d+;?", words[1]):
            if not upstream:
                options = " ".join(words[2:]).rstrip(";")
                out += [f"    server 127.0.0.1:{port} {options};".replace(" ;", ";") for port in upstream_ports]
                upstream = True
            continue
        out.append(line)
    if not (listened and upstream):
        raise ValueError("the nginx template has no `listen` line or no `server 127.0.0.1:PORT` upstream line")
    return "\n".join(out) + "\n"


class Nginx:
    """Debian's nginx run as this user in the foreground, in a process group of its own, with everything (config,
    pid, temp files, logs) in ``directory``: ``deploy/nginx.conf`` made loopback by :func:`nginx_site`, in front
    of ``upstream_ports``. ``access_log``: a file naming, for each request, the upstream that served it."""

    def __init__(self, upstream_ports: list[int], directory: Path, port: int | None = None,
                 access_log: bool = True, template: Path = DEPLOY_NGINX) -> None:
        self.upstream_ports, self.directory, self.port = upstream_ports, Path(directory), port or _free_port()
        self.access_log = self.directory / "access.log" if access_log else None
        self.template = template
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def config(self) -> str:
        d = self.directory
        temp = "\n".join(f"    {kind}_temp_path {d / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                        "scgi"))
        log = (f"    log_format torres '$remote_addr \"$request\" $status upstream=$upstream_addr "
               f"route=$torres_route';\n    access_log {self.access_log} torres;") if self.access_log else \
            "    access_log off;"
        return (f"daemon off;\nmaster_process on;\nworker_processes 1;\nworker_rlimit_nofile 16384;\n"
                f"pid {d / 'nginx.pid'};\nerror_log stderr notice;\n"
                + ("user root;\n" if os.geteuid() == 0 else "")  # (as root, workers would otherwise be nobody)
                + f"events {{\n    worker_connections 8192;\n}}\nhttp {{\n{temp}\n{log}\n"
                f"    include {d / 'torres.conf'};\n}}\n")

    def start(self, timeout: float = 30.0) -> "Nginx":
        """Start nginx and return once it accepts connections on its port."""
        if not Path(NGINX).exists():
            raise FileNotFoundError(f"{NGINX}: Debian's nginx is not installed (scripts/services installs it)")
        self.directory.mkdir(parents=True, exist_ok=True)
        (self.directory / "torres.conf").write_text(nginx_site(self.template.read_text(), self.port,
                                                               self.upstream_ports))
        (self.directory / "nginx.conf").write_text(self.config())
        self.log = self.directory / "nginx.log"
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [NGINX, "-e", "stderr", "-p", str(self.directory), "-c", str(self.directory / "nginx.conf")],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                self.process = None
                raise RuntimeError(f"nginx exited: {self.log.read_text(errors='replace')[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"nginx did not listen within {timeout:g} s") from None
                time.sleep(0.05)

    def stop(self) -> None:
        """SIGTERM (nginx's fast shutdown, open websockets closed), then the rest of its group is killed."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.process.wait()
        self.process = None


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """One run: start the server(s) unless ``--url``, play, stop them; the result as a dict."""
    for url in ([args.url] if args.url else []) + args.also:
        host = urllib.parse.urlsplit(url).hostname or ""
        if not (host == "localhost" or host.startswith("127.") or host == "::1"):
            raise SystemExit("the load client only targets loopback addresses")
    if args.also and not args.url:
        raise SystemExit("--also needs --url")
    if args.url and args.proxy:
        raise SystemExit("--proxy puts nginx in front of the servers this script starts: leave --url out")
    if args.url:
        args.url = args.url.rstrip("/")
        args.also = [u.rstrip("/") for u in args.also]
        return _measured(args, [])
    if args.postgres and not args.database:
        with ScratchPostgres(args.postgres) as database:
            return _started(args, database)
    return _started(args, args.database)


def _started(args: argparse.Namespace, database: str | None) -> dict[str, Any]:
    processes: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory(prefix="torres-load-") as tmp:
        database = database or f"sqlite:///{Path(tmp) / 'load.db'}"
        if args.processes > 1 and (database.startswith("sqlite") or not args.redis):
            raise SystemExit("--processes 2 or more needs PostgreSQL (--database or --postgres) and --redis")
        in_process = bool(args.profile or args.pragma or args.gc_default or args.loop != "auto")
        redis = ["--redis", args.redis] if args.processes > 1 or args.with_redis else []
        urls: list[str] = []
        nginx: Nginx | None = None
        try:
            for index in range(args.processes):  # one after the other: the first one migrates the schema
                port = _free_port()
                if in_process:
                    command = [sys.executable, str(Path(__file__).resolve()), "--serve", "--port", str(port),
                               "--database", database, "--loop", args.loop, *redis]
                    command += ["--profile", str(Path(args.profile).resolve())] if args.profile and not index else []
                    command += [f"--pragma={pragma}" for pragma in args.pragma]
                    command += ["--gc-default"] if args.gc_default else []
                else:
                    command = [sys.executable, "-m", "torres.cli.main", "serve", "--port", str(port), "--database",
                               database, *redis]
                # the torres of this checkout, whatever the interpreter has installed
                env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
                # each server in a process group of its own: its CPU is counted, and it is stopped, with its bot
                # workers and every other process it starts
                processes.append(subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                                  stderr=open(Path(tmp) / f"server{index}.log", "wb"),
                                                  start_new_session=True))
                urls.append(f"http://127.0.0.1:{port}")
                _wait_for(urls[-1], processes[-1])
            args.url, args.also = urls[0], urls[1:]
            if args.proxy:  # every connection through deploy/nginx.conf, which routes each game to one process
                nginx = Nginx([int(url.rsplit(":", 1)[1]) for url in urls], Path(tmp) / "nginx",
                              access_log=False).start()
                assert nginx.process is not None
                args.url, args.also, args.proxy_group = nginx.url, [], nginx.process.pid
            result = _measured(args, [p.pid for p in processes])
        finally:
            if nginx is not None:
                nginx.stop()
            for process in processes:
                process.send_signal(signal.SIGINT if in_process else signal.SIGTERM)
            for process in processes:
                try:
                    process.wait(60)
                except subprocess.TimeoutExpired:
                    process.kill()
                try:  # what is left of its group (a bot worker that did not end with it)
                    os.killpg(process.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        logs = [(Path(tmp) / f"server{i}.log").read_text(errors="replace") for i in range(len(processes))]
        for log in logs:
            if "Traceback" in log:
                print(log[-3000:], file=sys.stderr)
        result["server_gc"] = [line[4:] for line in logs[0].splitlines() if line.startswith("gc: ")] if logs else []
        result["server_warnings"] = [line for log in logs for line in log.splitlines()
                                     if " WARNING " in line or " ERROR " in line][:20]
        result["servers"] = len(processes)
        result["proxy"] = "nginx (deploy/nginx.conf)" if args.proxy else None
        result["database"] = "sqlite" if database.startswith("sqlite") else "postgresql"
        if args.profile:
            result["profile"] = summarise_profile(args.profile, result["actions"])
    return result


def _measured(args: argparse.Namespace, pids: list[int]) -> dict[str, Any]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # a socket per seat, here and in the server
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    result = asyncio.run(run(args, pids))
    result["software"] = software(args.loop) if pids else None
    result["spread"] = args.spread if args.also else None
    return result


def _report(args: argparse.Namespace, result: dict[str, Any]) -> None:
    rt = result["round_trip_ms"]
    where = "" if not result.get("servers") else (
        f", {result['servers']} server process{'es' if result['servers'] > 1 else ''} on {result['database']}"
        f", {result['software']['loop']}")
    print(f"{result['connected_games']} games ({result['connections']} websockets, {args.players} players, "
          f"think {args.think:g} s, compression {'on' if result['compression'] else 'off'}{where}), "
          f"{result['seconds']} s measured after {result['setup_seconds']} s of setup")
    print(f"actions/s {result['actions_per_second']}  ({result['actions']} round trips)")
    print(f"round trip ms  p50 {rt['p50']}  p90 {rt['p90']}  p99 {rt['p99']}  max {rt['max']}   "
          f"(ack alone: p50 {result['ack_ms']['p50']}, p99 {result['ack_ms']['p99']})")
    print(f"errors {result['errors']} {result['error_kinds'] or ''}")
    print(f"CPU: client {result['client_cpu_share']:.0%} of a core" + (
        f", server {result['server_cpu_share']:.0%} of a core ("
        f"{' + '.join(f'{x:.0%}' for x in result.get('server_cpu_shares', []))}), "
        f"{result['server_cpu_ms_per_action']} s per 1,000 actions (all server processes and their children)"
        if "server_cpu_share" in result else "") + (
        f", nginx {result['proxy_cpu_share']:.0%} of a core ({result['proxy_cpu_ms_per_action']} s per 1,000 actions)"
        if "proxy_cpu_share" in result else ""))
    print(f"load average (1 min) during the window: {_load_text(result['load_average'])} on {os.cpu_count()} cores")
    for line in result.get("server_gc", []):
        print(f"server GC: {line}")
    for row in result.get("profile", []):
        print(f"  {row['what']:<62} {row['seconds']:>7.2f} s {row['share']:>6.1%} {row['us_per_action']:>6} us/action")


def _or_dash(value: float) -> str:
    return "—" if value != value else f"{value:.2f}"  # (NaN: not measured)


def _load_text(load: list[float]) -> str:
    return f"{min(load):.1f}–{max(load):.1f}" if load else "?"


#: The rows of docs/server.md's table ("Load"): a label and the options that differ from the defaults.
SUITE: list[tuple[str, dict[str, Any]]] = [
    ("1 process, SQLite, 500 games, think 1 s", {"games": 500, "think": 1.0}),
    ("1 process, SQLite, 200 games, think 1 s", {"games": 200, "think": 1.0}),
    ("1 process, SQLite, 500 games, think 0 (capacity)", {"games": 500, "think": 0.0}),
    ("1 process, SQLite, 500 games, think 1 s, plain asyncio loop (no uvloop)",
     {"games": 500, "think": 1.0, "loop": "asyncio"}),
    ("1 process, PostgreSQL, 500 games, think 1 s", {"games": 500, "think": 1.0, "postgres": True}),
    ("2 processes, PostgreSQL + Redis, each game on one process, 500 games, think 1 s",
     {"games": 500, "think": 1.0, "postgres": True, "processes": 2, "spread": "games"}),
]


def run_suite(args: argparse.Namespace) -> None:
    """Every row of :data:`SUITE` (the PostgreSQL rows with ``--postgres``, the two-process one with ``--redis``
    too), each with fresh servers and a fresh database; the table in markdown (``--json``: every result)."""
    rows: list[tuple[str, dict[str, Any] | None]] = []
    for label, options in SUITE:
        if options.get("postgres") and not args.postgres or options.get("processes", 1) > 1 and not args.redis:
            rows.append((label, None))
            continue
        row = argparse.Namespace(**{**vars(args), "url": None, "also": [], "database": None, "suite": False,
                                    "postgres": None, "processes": 1, "spread": "seats", "loop": "auto",
                                    "proxy": False})
        for key, value in options.items():
            setattr(row, key, args.postgres if key == "postgres" else value)
        print(f"{label} ...", file=sys.stderr, flush=True)
        rows.append((label, measure(row)))
    if args.json:
        print(json.dumps({"software": software(), "cores": os.cpu_count(),
                          "rows": [{"row": label, **(result or {"skipped": True})} for label, result in rows]},
                         indent=1))
        return
    found = software()
    print(f"Python {found['python']}, uvicorn {found['uvicorn']}, event loop {found['loop']} (uvloop "
          f"{found['uvloop'] or 'not installed'}, httptools {found['httptools'] or 'not installed'}), websockets "
          f"{found['websockets']}, SQLAlchemy {found['sqlalchemy']}, orjson {found['orjson']}, psycopg "
          f"{found['psycopg'] or '-'}; {os.cpu_count()} cores; {args.players} players a game, one websocket per "
          f"seat, compression {'off' if args.no_compression else 'on'}, {args.seconds:g} s measured per row")
    print()
    print("| setup | offered | actions/s | p50 | p90 | p99 | max | errors | server CPU | CPU per action | "
          "client CPU | load average |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, r in rows:
        if r is None:
            print(f"| {label} | skipped: no {'--redis' if args.postgres else '--postgres'} | | | | | | | | | | |")
            continue
        rt = r["round_trip_ms"]
        offered = f"~{r['games'] / r['think']:.0f}/s" if r["think"] else "closed loop"
        print(f"| {label} | {offered} | {r['actions_per_second']:.0f} | {rt['p50']:.1f} ms | {rt['p90']:.1f} ms | "
              f"**{rt['p99']:.1f} ms** | {rt['max']:.0f} ms | {r['errors']} | {r.get('server_cpu_share', 0):.0%} | "
              f"**{r.get('server_cpu_ms_per_action')} ms** | {r['client_cpu_share']:.0%} | "
              f"{_load_text(r['load_average'])} |")


#: The rows of docs/deploy.md's table ("Capacity"): one process, and two sharing the games through Redis, both
#: behind nginx with deploy/nginx.conf, at the same offered load.
SCALE_ROWS: list[tuple[str, dict[str, Any]]] = [
    ("1 process", {"processes": 1}),
    ("1 process + Redis", {"processes": 1, "with_redis": True}),
    ("2 processes + Redis", {"processes": 2}),
    # before: no proxy, each game's two seats on different processes (what a least_conn proxy does)
    ("2 processes + Redis, each game's seats on both (no sticky routing)", {"processes": 2, "proxy": False}),
]


def run_scale_table(args: argparse.Namespace) -> None:
    """:data:`SCALE_ROWS` ``--reps`` times, interleaved (a change in the machine's load hits both rows alike), each
    run with fresh servers, a fresh database and a fresh nginx; the medians in markdown, the ratio of the CPU per
    action of 2 processes to 1, and every run below (``--json``: every result)."""
    if not (args.postgres and args.redis):
        raise SystemExit("--scale-table needs --postgres and --redis (scripts/bench-scale starts both)")
    runs: dict[str, list[dict[str, Any]]] = {label: [] for label, _ in SCALE_ROWS}
    for rep in range(args.reps):
        for label, options in SCALE_ROWS:
            row = argparse.Namespace(**{**vars(args), "url": None, "also": [], "database": None, "suite": False,
                                        "scale_table": False, "proxy": True, "spread": "seats", **options})
            print(f"run {rep + 1}/{args.reps}: {label} ...", file=sys.stderr, flush=True)
            result = measure(row)
            runs[label].append(result)
            print(f"  {result['actions_per_second']} actions/s, p50 {result['round_trip_ms']['p50']} ms, p99 "
                  f"{result['round_trip_ms']['p99']} ms, {result.get('server_cpu_ms_per_action')} CPU s per 1,000 "
                  f"actions, {result['errors']} errors, load {_load_text(result['load_average'])}",
                  file=sys.stderr, flush=True)
    cpu = {label: [r.get("server_cpu_ms_per_action") or float("nan") for r in rs] for label, rs in runs.items()}
    one, two = SCALE_ROWS[0][0], SCALE_ROWS[2][0]
    ratio = statistics.median(cpu[two]) / statistics.median(cpu[one])
    paired = [round(b / a, 3) for a, b in zip(cpu[one], cpu[two])]
    if args.json:
        print(json.dumps({"software": software(), "cores": os.cpu_count(), "ratio": round(ratio, 3),
                          "ratios_by_rep": paired, "runs": runs}, indent=1))
        return
    print_scale_table(args, runs)


def print_scale_table(args: argparse.Namespace, runs: dict[str, list[dict[str, Any]]]) -> None:
    """The markdown of :func:`run_scale_table` (``runs``: its JSON's, for a table from a saved run)."""
    cpu = {label: [r.get("server_cpu_ms_per_action") or float("nan") for r in rs] for label, rs in runs.items()}
    labels = list(runs)
    one, with_redis, two = labels[0], labels[1], labels[2]
    ratio = statistics.median(cpu[two]) / statistics.median(cpu[one])
    paired = [b / a for a, b in zip(cpu[one], cpu[two])]
    found = software()
    print(f"Python {found['python']}, uvicorn {found['uvicorn']}, event loop {found['loop']}, psycopg "
          f"{found['psycopg']}; {os.cpu_count()} cores; nginx with deploy/nginx.conf in front; {args.games} games of "
          f"{args.players} players, think {args.think:g} s (~{args.games / args.think:.0f} actions/s offered), "
          f"{args.seconds:g} s measured per run; medians of {args.reps} runs, the rows interleaved")
    print()
    print("| setup | actions/s | p50 | p99 | server CPU s per 1,000 actions | CPU per process (share of a core) | "
          "nginx CPU s per 1,000 actions | errors | load average |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")

    def median(values: list[float]) -> float:
        return statistics.median(values) if values else float("nan")

    for label, rs in runs.items():
        shares = [median([r["server_cpu_shares"][i] for r in rs if "server_cpu_shares" in r])
                  for i in range(len(rs[0].get("server_cpu_shares", [])))]
        loads = [x for r in rs for x in r["load_average"]]
        print(f"| {label} | {median([r['actions_per_second'] for r in rs]):.0f} | "
              f"{median([r['round_trip_ms']['p50'] for r in rs]):.1f} ms | "
              f"{median([r['round_trip_ms']['p99'] for r in rs]):.1f} ms | **{median(cpu[label]):.2f}** | "
              f"{' + '.join(f'{x:.0%}' for x in shares)} | "
              f"{_or_dash(median([r['proxy_cpu_ms_per_action'] for r in rs if r.get('proxy_cpu_ms_per_action')]))} | "
              f"{sum(r['errors'] for r in rs)} | {_load_text(loads)} |")
    print()
    print(f"2 processes / 1 process, CPU per action: **{ratio:.2f}×** (median over median; run by run: "
          f"{', '.join(f'{x:.2f}' for x in paired)})")
    redis_ratio = statistics.median(cpu[two]) / statistics.median(cpu[with_redis])
    print(f"2 processes / 1 process with Redis: {redis_ratio:.2f}× (run by run: "
          f"{', '.join(f'{b / a:.2f}' for a, b in zip(cpu[with_redis], cpu[two]))})")
    print()
    print("Every run (CPU s per 1,000 actions / p99 ms):")
    for label, rs in runs.items():
        print(f"- {label}: " + "; ".join(f"{r.get('server_cpu_ms_per_action')} / {r['round_trip_ms']['p99']}"
                                         for r in rs))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=500, help="concurrent games (default 500)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds between a game's actions (0: act as soon as the last one is through)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds (default 30)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds played before measuring")
    parser.add_argument("--setup-limit", type=float, default=120.0, help="seconds to create and connect the games")
    parser.add_argument("--url", help="a running server on loopback (default: start one)")
    parser.add_argument("--also", action="append", default=[], metavar="URL",
                        help="another process serving the same games (--redis): seats are spread over all of them")
    parser.add_argument("--spread", choices=("seats", "games"), default="seats",
                        help="with several processes: each game's seats on different ones (seats), or each game "
                             "on one, the games taking turns (games)")
    parser.add_argument("--database", metavar="URL",
                        help="the started server's database (default: a fresh SQLite file); postgresql://... as is")
    parser.add_argument("--postgres", metavar="URL", default=None,
                        help="a PostgreSQL server (any database URL on it, e.g. $TORRES_TEST_POSTGRES from "
                             "scripts/services): the started servers use a throwaway database on it")
    parser.add_argument("--redis", metavar="URL", default=None,
                        help="Redis for --processes 2 and more (e.g. $TORRES_TEST_REDIS from scripts/services)")
    parser.add_argument("--processes", type=int, default=1, help="server processes to start (more than one: "
                                                                 "PostgreSQL and --redis)")
    parser.add_argument("--proxy", action="store_true",
                        help="put nginx with deploy/nginx.conf in front of the started servers (Debian's nginx, "
                             "run as this user on loopback): every game's connections reach one process")
    parser.add_argument("--with-redis", action="store_true",
                        help="give a single started server --redis too (what Redis alone costs)")
    parser.add_argument("--scale-table", action="store_true",
                        help="the table of docs/deploy.md: 1 process, 1 with --redis and 2 (PostgreSQL) behind "
                             "--proxy, and 2 without it, seats spread, at the same offered load, --reps times each, "
                             "interleaved; medians and ratios")
    parser.add_argument("--reps", type=int, default=3, help="repetitions of each row of --scale-table (default 3)")
    parser.add_argument("--loop", choices=("auto", "asyncio", "uvloop"), default="auto",
                        help="the started server's event loop: auto (as torres serve: uvloop if installed), or "
                             "asyncio / uvloop (then run in this script's process, as with --profile)")
    parser.add_argument("--suite", action="store_true",
                        help="run the rows of docs/server.md's table (PostgreSQL ones with --postgres, the two-"
                             "process one with --redis too) and print it in markdown")
    parser.add_argument("--no-compression", action="store_true", help="websockets without permessage-deflate")
    parser.add_argument("--profile", metavar="FILE", help="run the started server under cProfile, stats to FILE")
    parser.add_argument("--pragma", action="append", default=[],
                        help="an extra SQLite pragma for the started server, to try one (repeatable; the server "
                             "then runs in this script's process, as with --profile)")
    parser.add_argument("--gc-default", action="store_true",
                        help="the started server runs in this script's process with Python's GC as it is, not "
                             "frozen after full collections as torres serve does: the stalls of docs/server.md")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the result as JSON only")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # internal: the profiled server
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve_profiled(args.port, args.database, args.profile, args.pragma, args.gc_default, args.loop, args.redis)
        return
    if args.suite:
        run_suite(args)
        return
    if args.scale_table:
        run_scale_table(args)
        return
    result = measure(args)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        _report(args, result)


if __name__ == "__main__":
    main()
