"""Sticky routing through a real proxy: Debian's nginx running ``deploy/nginx.conf`` (made loopback by
``bench/load.py``'s :func:`nginx_site`: its own port, no TLS, these processes as the upstream) in front of two
``torres serve`` processes on one PostgreSQL and one Redis. Every request and websocket of a game reaches the same
process, different games spread over both, a whole game plays through the proxy, and when a process dies its
games move to the other and go on.

Which process served a request is read from the processes' own access logs (``--log-level info``: uvicorn logs
every request and websocket), and checked against nginx's log of the upstream it chose.

PostgreSQL and Redis come from ``scripts/services`` (run by ``scripts/test``, which also installs nginx), through
TORRES_TEST_POSTGRES and TORRES_TEST_REDIS."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest
import websockets

from conftest import ServerProcess, fresh_postgres_database, load_script

ROOT = Path(__file__).resolve().parent.parent
load = load_script("bench/load.py", "torres_bench_load")

POSTGRES = os.environ.get("TORRES_TEST_POSTGRES")
REDIS = os.environ.get("TORRES_TEST_REDIS")
_missing = ("no PostgreSQL/Redis: run `eval \"$(scripts/services)\"` first" if not (POSTGRES and REDIS) else
            f"no nginx at {load.NGINX}: scripts/services installs Debian's nginx" if not Path(load.NGINX).exists()
            else None)
if _missing:
    if os.environ.get("CI"):
        raise RuntimeError(f"CI must run the proxy tests: {_missing}")
    pytest.skip(_missing, allow_module_level=True)

#: A request or websocket in uvicorn's access log: `"GET /api/games/X HTTP/1.1" 200`, `"WebSocket /ws/X" [accepted]`.
_SERVED = re.compile(r'"(?:GET|POST|PUT|PATCH|DELETE|HEAD|WebSocket) (/[^ "?]*)')
#: A line of nginx's log (bench/load.py's format): the request, the upstream it went to, the routing key.
_NGINX = re.compile(r'"[A-Z]+ (/[^ "?]*)[^"]*" \d+ upstream=(\S+) route=(\S+)')


@pytest.fixture
def database() -> Iterator[str]:
    """A fresh PostgreSQL database for one test, dropped afterwards."""
    with fresh_postgres_database() as url:
        yield url


class Cluster:
    """Two processes behind nginx; which of them served what, from their logs."""

    def __init__(self, servers: list[ServerProcess], nginx: Any) -> None:
        self.servers, self.nginx = servers, nginx
        self.url: str = nginx.url

    def served(self, index: int) -> list[str]:
        """The paths process ``index`` has served (its access log)."""
        return _SERVED.findall(self.servers[index].log.read_text(errors="replace"))

    def homes(self, game_id: str) -> set[int]:
        """The processes that served a request or websocket naming the game in its path."""
        named = re.compile(rf"^/(?:ws|api/games|game|join|replay)/{re.escape(game_id)}(?:/|$)")
        return {i for i in range(len(self.servers)) if any(named.match(path) for path in self.served(i))}

    def upstreams(self) -> dict[str, set[str]]:
        """For each routing key in nginx's log, the upstream addresses it went to."""
        found: dict[str, set[str]] = {}
        for _path, upstream, route in _NGINX.findall(self.nginx.access_log.read_text(errors="replace")):
            found.setdefault(route, set()).add(upstream)
        return found

    def nginx_log(self, lines: int = 0) -> list[tuple[str, str, str]]:
        """nginx's log: (path, upstream, routing key) of each request; waits a little for ``lines`` of them (nginx
        writes a request's line once the answer has gone out)."""
        deadline = time.monotonic() + 10
        while True:
            found = _NGINX.findall(self.nginx.access_log.read_text(errors="replace"))
            if len(found) >= lines or time.monotonic() > deadline:
                return found
            time.sleep(0.05)


@pytest.fixture
def cluster(database: str, tmp_path: Path) -> Iterator[Cluster]:
    assert REDIS
    servers = [ServerProcess(database, log=tmp_path / f"server{i}.log",
                             extra=("--redis", REDIS, "--log-level", "info")) for i in range(2)]
    nginx = None
    try:
        servers[0].start()  # the first one migrates the schema, then the second joins
        servers[1].start()
        nginx = load.Nginx([s.port for s in servers], tmp_path / "nginx").start()
        yield Cluster(servers, nginx)
    finally:
        if nginx is not None:
            nginx.stop()
        for server in servers:
            server.stop()


def call(url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(),
                                     method="GET" if body is None else "POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return dict(json.load(answer)) if answer.headers.get_content_type() == "application/json" else {}


def page(url: str) -> int:
    with urllib.request.urlopen(url, timeout=60) as answer:
        answer.read()
        return int(answer.status)


def new_game(base: str) -> tuple[str, dict[int, str]]:
    """A two-player game made through the proxy and its second seat joined by invite: (id, token per seat)."""
    game = call(base + "/api/games", {"players": 2, "bot_speed": "instant",
                                      "seats": [{"kind": "human"}, {"kind": "human"}]})
    invite = game["invites"]["1"]  # /join/<game>/<invite>
    assert page(base + invite) == 200  # the invite's page, as a browser opens it
    joined = call(base + f"/api/games/{game['id']}/join", {"invite": invite.rsplit("/", 1)[1]})
    return game["id"], {0: game["tokens"]["0"], 1: joined["token"]}


class Player:
    """One seat's page, connected through the proxy."""

    def __init__(self, base: str, game_id: str, seat: int, token: str) -> None:
        self.base, self.game_id, self.seat, self.token = base, game_id, seat, token
        self.ws: Any = None
        self.version = 0
        self.view: dict[str, Any] = {}
        self.seen: list[int] = []  # versions of the updates received, in order
        self.next_send = 0.0

    async def connect(self) -> None:
        self.ws = await websockets.connect(self.base.replace("http", "ws", 1) + f"/ws/{self.game_id}",
                                           open_timeout=60)
        await self.ws.send(json.dumps({"type": "hello", "seat": self.seat, "token": self.token,
                                       "version": self.version}))
        welcome = await self.next("welcome")
        self.version, self.view = welcome["version"], welcome["view"]

    async def next(self, kind: str) -> dict[str, Any]:
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), 60))  # (a busy machine is slow)
            if message["type"] == "update":
                self.seen.append(message["version"])
                self.version, self.view = message["version"], message["view"]
            if message["type"] == "error":
                raise AssertionError(message)
            if kind in ("*", message["type"]):
                return dict(message)

    async def wait_for(self, version: int) -> None:
        while self.version < version:
            await self.next("update")

    async def act(self, action: str, client_id: str) -> dict[str, Any]:
        wait = self.next_send - time.monotonic()  # under the server's flood limit (30 messages a second)
        if wait > 0:
            await asyncio.sleep(wait)
        self.next_send = time.monotonic() + 1 / 20
        await self.ws.send(json.dumps({"type": "act", "id": client_id, "version": self.version, "action": action}))
        while True:
            message = await self.next("*")
            if message["type"] in ("ack", "rejected") and message.get("id") == client_id:
                return message

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def play(players: list[Player], rng: random.Random, steps: int | None = None) -> None:
    """Random legal actions by whoever is to act, until the game ends (or ``steps`` actions)."""
    latest = max(p.version for p in players)
    step = 0
    while steps is None or step < steps:
        for p in players:
            await p.wait_for(latest)
        if players[0].view["stage"] == "over":
            return
        actor = next(p for p in players if p.seat == players[0].view["current"])
        answer = await actor.act(rng.choice(actor.view["legal"])["action"], f"{actor.seat}-{latest}-{step}")
        assert answer["type"] == "ack", answer
        latest = answer["version"]
        step += 1


def test_every_connection_of_a_game_reaches_one_process_and_games_spread(cluster: Cluster) -> None:
    games = [new_game(cluster.url) for _ in range(16)]

    async def visit(game_id: str, tokens: dict[int, str]) -> None:
        players = [Player(cluster.url, game_id, seat, token) for seat, token in tokens.items()]
        for p in players:
            await p.connect()
        for p in players:
            await p.close()

    for game_id, tokens in games:
        assert page(cluster.url + f"/game/{game_id}") == 200
        assert call(cluster.url + f"/api/games/{game_id}")["id"] == game_id
        asyncio.run(visit(game_id, tokens))
    homes = {game_id: cluster.homes(game_id) for game_id, _ in games}
    # each game's page, invite page, join, summary and both websockets: all on one process
    assert all(len(where) == 1 for where in homes.values()), homes
    # and the games are spread over both (16 games on one of two processes: 1 in 30,000 by chance)
    assert {i for where in homes.values() for i in where} == {0, 1}, homes
    for game_id, _ in games:
        (home,) = homes[game_id]
        served = [path for path in cluster.served(home) if game_id in path]
        assert f"/ws/{game_id}" in served and f"/api/games/{game_id}" in served and f"/game/{game_id}" in served
    # nginx agrees: each game's key went to one upstream, the process that logged it
    upstreams = cluster.upstreams()
    for game_id, _ in games:
        (home,) = homes[game_id]
        assert upstreams[game_id] == {f"127.0.0.1:{cluster.servers[home].port}"}


def test_requests_without_a_game_spread_and_the_lobby_socket_is_no_game(cluster: Cluster) -> None:
    for _ in range(16):
        call(cluster.url + "/api/meta")
        try:  # the lobby's websocket path, opened as a plain request: only its routing key matters here
            page(cluster.url + "/ws/lobby")
        except urllib.error.HTTPError:
            pass
    log = cluster.nginx_log(lines=32)
    meta = [(upstream, route) for path, upstream, route in log if path == "/api/meta"]
    lobby = [route for path, _upstream, route in log if path == "/ws/lobby"]
    assert len(meta) == 16 and len(lobby) == 16
    assert len({route for _, route in meta}) == 16  # a random key for each request ...
    assert len({upstream for upstream, _ in meta}) == 2  # ... so they reach both processes
    assert "lobby" not in lobby and len(set(lobby)) == 16  # /ws/lobby is not a game called "lobby"


def test_a_whole_game_through_the_proxy(cluster: Cluster) -> None:
    game_id, tokens = new_game(cluster.url)

    async def scenario() -> list[Player]:
        players = [Player(cluster.url, game_id, seat, token) for seat, token in tokens.items()]
        for p in players:
            await p.connect()
        await play(players, random.Random(11))
        for p in players:
            await p.close()
        return players

    players = asyncio.run(scenario())
    summary = call(cluster.url + f"/api/games/{game_id}")
    assert summary["status"] == "finished"
    for p in players:  # every version reached every page once, in order
        assert p.seen == list(range(1, summary["version"] + 1))
    record = call(cluster.url + f"/api/games/{game_id}/record")
    assert record["actions"]
    assert len(cluster.homes(game_id)) == 1


def test_a_killed_process_hands_its_games_to_the_other(cluster: Cluster) -> None:
    game_id, tokens = new_game(cluster.url)

    async def scenario() -> tuple[int, list[Player]]:
        players = [Player(cluster.url, game_id, seat, token) for seat, token in tokens.items()]
        for p in players:
            await p.connect()
        await play(players, random.Random(3), steps=20)
        (home,) = cluster.homes(game_id)
        cluster.servers[home].kill()  # SIGKILL: its pages lose their connections
        for p in players:  # and reconnect through the proxy, as the page does by itself
            with pytest.raises(websockets.ConnectionClosed):
                while True:  # (updates already on their way first)
                    await p.next("*")
            started = time.monotonic()
            await p.connect()
            assert time.monotonic() - started < 30
        await play(players, random.Random(4))
        for p in players:
            await p.close()
        return home, players

    home, players = asyncio.run(scenario())
    other = 1 - home
    summary = call(cluster.url + f"/api/games/{game_id}")
    assert summary["status"] == "finished"
    assert players[0].version == players[1].version == summary["version"]
    assert f"/ws/{game_id}" in cluster.served(other)  # the game moved to the survivor
    assert cluster.homes(game_id) == {home, other}
