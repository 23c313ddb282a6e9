"""Two ``torres serve`` processes on one PostgreSQL and one Redis serve the same games: seats connected to
different processes see every action in order, bots act exactly once, and when one process is killed the games go
on through the other. Also: the alembic migrations build exactly the schema the models describe.

PostgreSQL and Redis come from ``scripts/services`` (run by ``scripts/test``), through TORRES_TEST_POSTGRES and
TORRES_TEST_REDIS."""

from __future__ import annotations

import asyncio
import json
import os
import random
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest
import websockets
from sqlalchemy import create_engine, text

from conftest import ServerProcess, fresh_postgres_database
from torres.server.store import Store, database_url

POSTGRES = os.environ.get("TORRES_TEST_POSTGRES")
REDIS = os.environ.get("TORRES_TEST_REDIS")
if not (POSTGRES and REDIS):
    if os.environ.get("CI"):
        raise RuntimeError("CI must run the scale-out tests: scripts/services sets TORRES_TEST_POSTGRES/REDIS")
    pytest.skip("no PostgreSQL/Redis: run `eval \"$(scripts/services)\"` first", allow_module_level=True)


@pytest.fixture
def database() -> Iterator[str]:
    """A fresh PostgreSQL database for one test, dropped afterwards."""
    with fresh_postgres_database() as url:
        yield url


@pytest.fixture
def two_servers(database: str, tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    assert REDIS
    servers = tuple(ServerProcess(database, log=tmp_path / f"server{i}.log", extra=("--redis", REDIS))
                    for i in range(2))
    try:
        servers[0].start()  # the first one migrates the schema, then the second joins
        servers[1].start()
        yield servers[0], servers[1]
    finally:
        for server in servers:
            server.stop()


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return dict(json.load(answer))


def get(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return dict(json.load(answer))


class Player:
    """One seat's page: connects to a server, remembers every update, reconnects elsewhere when told to."""

    def __init__(self, game_id: str, seat: int, token: str, base: str) -> None:
        self.game_id, self.seat, self.token, self.base = game_id, seat, token, base
        self.ws: Any = None
        self.version = 0
        self.view: dict[str, Any] = {}
        self.seen: list[int] = []  # versions of the updates received, in order
        self.events: dict[int, Any] = {}

    async def connect(self, base: str | None = None) -> None:
        if base:
            self.base = base
        self.ws = await websockets.connect(self.base.replace("http", "ws") + f"/ws/{self.game_id}")
        await self.ws.send(json.dumps({"type": "hello", "seat": self.seat, "token": self.token,
                                       "version": self.version}))
        welcome = await self.next("welcome")
        self.version, self.view = welcome["version"], welcome["view"]

    async def next(self, kind: str) -> dict[str, Any]:
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), 60))  # (a busy machine is slow)
            if message["type"] == "update":
                self.seen.append(message["version"])
                self.events[message["version"]] = message["event"]
                self.version, self.view = message["version"], message["view"]
            if kind in ("*", message["type"]):
                return dict(message)

    async def wait_for(self, version: int) -> None:
        while self.version < version:
            await self.next("update")

    async def act(self, action: str, client_id: str) -> dict[str, Any]:
        await self.ws.send(json.dumps({"type": "act", "id": client_id, "version": self.version,
                                       "action": action}))
        while True:
            message = await self.next("*")  # any message: updates are recorded on the way
            if message["type"] in ("ack", "rejected") and message.get("id") == client_id:
                return message


async def play(players: list[Player], rng: random.Random, kill_at: int | None = None,
               on_kill: Any = None) -> None:
    """Random legal actions by whichever player is to act, until the game ends."""
    step, latest = 0, max(p.version for p in players)
    while True:
        for p in players:
            await p.wait_for(latest)
        view = players[0].view
        if view["stage"] == "over":
            return
        actor = next(p for p in players if p.seat == view["current"])
        if kill_at is not None and step == kill_at:
            await on_kill()
        answer = await actor.act(rng.choice(actor.view["legal"])["action"], f"s{actor.seat}-{step}")
        assert answer["type"] == "ack", answer
        latest = answer["version"]
        step += 1


def test_two_processes_serve_one_game_and_survive_losing_one(two_servers: tuple[ServerProcess, ServerProcess]) -> None:
    first, second = two_servers
    game = post(first.url + "/api/games", {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}],
                                           "bot_speed": "instant"})
    invite = game["invites"]["1"].rsplit("/", 1)[1]
    joined = post(second.url + f"/api/games/{game['id']}/join", {"invite": invite})  # through the other process

    async def scenario() -> None:
        ann = Player(game["id"], 0, game["tokens"]["0"], first.url)
        bob = Player(game["id"], 1, joined["token"], second.url)
        await ann.connect()
        await bob.connect()

        async def kill_first() -> None:
            first.kill()  # SIGKILL: Ann's page loses its server and reconnects to the other one
            await ann.connect(second.url)

        await play([ann, bob], random.Random(5), kill_at=150, on_kill=kill_first)
        final = ann.version
        # Bob, always on the second process, saw every version exactly once and in order, each with the action
        # as Ann's page saw it while both were connected
        assert bob.seen == list(range(1, final + 1))
        shared = [v for v in ann.events if v in bob.events]
        assert len(shared) > 100
        for v in shared:  # an action both may see reached both as the same event
            if ann.events[v] is not None and bob.events[v] is not None:
                assert ann.events[v] == bob.events[v]
        for p in (ann, bob):
            await p.ws.close()

    asyncio.run(scenario())
    summary = get(second.url + f"/api/games/{game['id']}")
    assert summary["status"] == "finished"
    record = get(second.url + f"/api/games/{game['id']}/record")
    assert len(record["actions"]) <= summary["version"]


def test_bots_act_exactly_once_across_processes(two_servers: tuple[ServerProcess, ServerProcess],
                                                database: str) -> None:
    first, second = two_servers
    game = post(first.url + "/api/games", {"players": 3, "bot_speed": "instant", "seats": [
        {"kind": "human"}, {"kind": "bot", "level": "beginner"}, {"kind": "bot", "level": "beginner"}]})

    async def scenario() -> None:
        ann = Player(game["id"], 0, game["tokens"]["0"], first.url)
        watcher = Player(game["id"], 0, game["tokens"]["0"], second.url)  # the same seat, on the other process
        await ann.connect()
        await watcher.connect()
        rng = random.Random(7)
        for step in range(60):
            while ann.view["current"] != 0 and ann.view["stage"] != "over":
                await ann.next("update")
            if ann.view["stage"] == "over":
                break
            answer = await ann.act(rng.choice(ann.view["legal"])["action"], f"a{step}")
            assert answer["type"] == "ack", answer
            await ann.wait_for(answer["version"])
        while ann.view["current"] != 0 and ann.view["stage"] != "over":  # the bots finish; then nothing moves
            await ann.next("update")
        await watcher.wait_for(ann.version)
        assert watcher.seen == list(range(1, watcher.version + 1))
        assert watcher.view == ann.view
        await ann.ws.close()
        await watcher.ws.close()

    asyncio.run(scenario())
    engine = create_engine(database_url(database))
    with engine.connect() as connection:
        versions = [row[0] for row in connection.execute(
            text("SELECT version FROM events WHERE game_id = :g ORDER BY version"), {"g": game["id"]})]
        stored = connection.execute(text("SELECT version, actions FROM games WHERE id = :g"),
                                    {"g": game["id"]}).one()
    engine.dispose()
    assert versions == list(range(1, stored[0] + 1))  # one event per version: nothing applied twice
    actions = stored[1] if isinstance(stored[1], list) else json.loads(stored[1])
    assert len(actions) == stored[0]  # no undo here: one action per version


def test_migrations_build_the_models_schema(database: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from torres.server.store import Base

    store = Store(database)
    store.create_schema()
    store.create_schema()  # upgrading an up-to-date database changes nothing
    with store.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    store.close()
    assert differences == []


def test_a_burst_of_announcements_arrives_whole_and_in_order() -> None:
    """Under load every change of a process is announced at once; none may be lost (they once were: one Redis
    connection per announcement exhausted the pool)."""
    from torres.server.bus import RedisBus

    assert REDIS

    async def scenario() -> list[tuple[str, int]]:
        heard: list[tuple[str, int]] = []
        done = asyncio.Event()

        async def on_version(game_id: str, version: int) -> None:
            if game_id.startswith("burst-"):  # other tests may share the channel
                heard.append((game_id, version))
            if len(heard) == 2000:
                done.set()

        listener, speaker = RedisBus(REDIS), RedisBus(REDIS)
        await listener.start(on_version)
        await speaker.start(on_version=lambda g, v: asyncio.sleep(0))
        for version in range(1, 1001):
            for game in ("burst-a", "burst-b"):
                speaker.announce(game, version)
        await asyncio.wait_for(done.wait(), 20)
        await speaker.close()
        await listener.close()
        return heard

    heard = asyncio.run(scenario())
    for game in ("burst-a", "burst-b"):
        assert [v for g, v in heard if g == game] == list(range(1, 1001))


def test_two_processes_racing_on_one_version_exactly_one_wins(
        two_servers: tuple[ServerProcess, ServerProcess]) -> None:
    first, second = two_servers

    async def race(game_id: str, token: str) -> list[dict[str, Any]]:
        """Seat 0's pages on both processes act on version 0 at once, with different actions."""
        here, there = Player(game_id, 0, token, first.url), Player(game_id, 0, token, second.url)
        await here.connect()
        await there.connect()
        answers = list(await asyncio.gather(here.act("start d8", "here"), there.act("start c6", "there")))
        await here.ws.close()
        await there.ws.close()
        return answers

    for _ in range(5):  # a race can fall either way; each time exactly one wins
        game = post(first.url + "/api/games", {"players": 2, "hotseat": True, "bot_speed": "instant",
                                               "seats": [{"kind": "human"}, {"kind": "human"}]})
        answers = asyncio.run(race(game["id"], game["tokens"]["0"]))
        assert sorted(a["type"] for a in answers) == ["ack", "rejected"], answers
        assert next(a for a in answers if a["type"] == "rejected")["code"] == "stale"
        assert get(second.url + f"/api/games/{game['id']}")["version"] == 1


def test_seat_claims_and_settings_reach_pages_on_the_other_process(
        two_servers: tuple[ServerProcess, ServerProcess]) -> None:
    first, second = two_servers
    game = post(first.url + "/api/games", {"players": 2, "bot_speed": "normal",
                                           "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}]})

    async def scenario() -> None:
        ann = Player(game["id"], 0, game["tokens"]["0"], first.url)
        await ann.connect()
        joined = await asyncio.to_thread(post, second.url + f"/api/games/{game['id']}/join",
                                         {"invite": game["invites"]["1"].rsplit("/", 1)[1]})
        summary = (await ann.next("game"))["game"]
        while not summary["seats"][1]["claimed"]:
            summary = (await ann.next("game"))["game"]
        bob = Player(game["id"], 1, joined["token"], second.url)
        await bob.connect()
        await bob.ws.send(json.dumps({"type": "speed", "value": "fast"}))
        while summary["bot_speed"] != "fast":
            summary = (await ann.next("game"))["game"]
        await ann.ws.close()
        await bob.ws.close()

    asyncio.run(scenario())
    assert get(first.url + f"/api/games/{game['id']}")["bot_speed"] == "fast"
