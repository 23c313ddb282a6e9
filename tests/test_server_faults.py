"""The server under faults (issue #12, "Faults").

1. A real ``torres serve`` process is killed with SIGKILL at random moments while scripted clients play many games
   through real websockets; it is started again on the same SQLite file, the clients reconnect by themselves
   (backoff, ``hello`` with their last version, unacknowledged actions re-sent with the same id) and every game is
   played to its end. Then: every acknowledged action is in the database at the version it was acknowledged with,
   nothing was applied twice, what the clients saw is what the database holds, ``PRAGMA integrity_check`` is ok,
   and bot seats whose turn it was when the server died played on after the restart.
2. A bot that raises, or runs past its time, does not stop its game or the server: the failure is logged and a
   simpler bot plays the action (a failing worker function is put into the app's bot pool; it runs in the real
   spawned worker process).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sqlite3
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pytest
from conftest import ServerProcess
from fastapi.testclient import TestClient
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from torres.engine import GameState
from torres.engine.view import SeatView
from torres.server.app import create_app
from torres.server.bots import ON_DEMAND_WAITING, BotPool, Busy, choose_in_worker, fallback_action
from torres.server.protocol import Limits

#: Scripted players act far faster than people (the flood limit has its own test).
FAST = Limits(burst=100_000, per_second=100_000)
#: The whole fault run gives up after this long (it takes a fraction of it).
DEADLINE = 150.0
#: Messages per second a scripted client sends at most: under the server's flood limit (30 per second).
PACE = 25.0
#: How often a client drops its connection right after sending an action (a lost ack, without a kill).
DROP = 0.01


# --- 1. SIGKILL at random moments -----------------------------------------------------------------------------


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return dict(json.loads(answer.read()))


def get(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return dict(json.loads(answer.read()))


class Dropped(Exception):
    """The client dropped its own connection right after sending an action: as if its ack were lost."""


@dataclass
class Ack:
    client_id: str
    seat: int
    version: int
    action: str


@dataclass
class Player:
    """A scripted client of one game holding the token of every human seat (hot-seat, one connection that switches
    seats by ``hello``). It plays random legal actions from its own view, and when the connection breaks it
    reconnects with backoff, says ``hello`` with the last version it saw and re-sends its unacknowledged action
    with the same client id."""

    url: str
    game_id: str
    tokens: dict[int, str]
    seed: int
    deadline: float
    progress: list[int]  # shared counter of acknowledgements, for the killer to pick its moments
    version: int | None = None
    view: dict[str, Any] = field(default_factory=dict)
    seat: int | None = None
    pending: Ack | None = None
    acked: list[Ack] = field(default_factory=list)
    seen: dict[int, dict[str, Any]] = field(default_factory=dict)  # version -> event, as the updates told it
    problems: list[str] = field(default_factory=list)
    connections: int = 0
    resent: int = 0
    acked_again: int = 0  # re-sent actions that had been committed before the kill (their ack was lost)
    actions: int = 0
    kills_survived: int = 0  # kills while this game was being played

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.next_send = 0.0

    async def _send_text(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        """Send at most :data:`PACE` messages a second, as the server's flood limit asks."""
        now = time.monotonic()
        if now < self.next_send:
            await asyncio.sleep(self.next_send - now)
        self.next_send = max(now, self.next_send) + 1 / PACE
        await ws.send(json.dumps(message))

    async def run(self) -> None:
        backoff = 0.05
        while True:
            try:
                async with connect(f"{self.url}/ws/{self.game_id}", open_timeout=5, close_timeout=1, proxy=None,
                                   max_size=2**22) as ws:
                    self.connections += 1
                    backoff = 0.05
                    if await self._session(ws):
                        return
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError, EOFError, Dropped):
                pass  # the server is gone (or not back yet): try again
            if time.monotonic() > self.deadline:
                raise AssertionError(f"game {self.game_id} did not end (at version {self.version})")
            await asyncio.sleep(backoff * self.rng.uniform(0.5, 1.5))
            backoff = min(1.0, backoff * 2)

    async def _session(self, ws: ClientConnection) -> bool:
        """Play on one connection; True when the game is over."""
        first = self.pending.seat if self.pending else (self.seat if self.seat is not None else min(self.tokens))
        last_seen = self.version
        welcome = await self._hello(ws, first)
        if last_seen is not None and welcome["version"] < last_seen:
            self.problems.append(f"welcome at version {welcome['version']} after version {last_seen} was seen")
        if self.pending is not None:  # sent before the connection broke, never acknowledged: send it again
            self.resent += 1
            answer = await self._send(ws, self.pending)
            if answer["version"] <= welcome["version"]:
                self.acked_again += 1
            while self.version < answer["version"]:
                await self._receive(ws)
        while True:
            view = self.view
            if view["stage"] == "over":
                return True
            current = view["current"]
            if current not in self.tokens:  # a bot's turn: wait for it
                await self._receive(ws)
                continue
            if self.seat != current:
                await self._hello(ws, current)
                continue
            action = self.rng.choice(view["legal"])["action"]
            self.actions += 1
            assert self.version is not None
            self.pending = Ack(f"{self.game_id}-{self.actions}", current, self.version, action)
            answer = await self._send(ws, self.pending, drop=self.rng.random() < DROP)
            while self.version < answer["version"]:  # the update that carries the new view
                await self._receive(ws)

    async def _hello(self, ws: ClientConnection, seat: int) -> dict[str, Any]:
        await self._send_text(ws, {"type": "hello", "seat": seat, "token": self.tokens[seat],
                                   "version": self.version})
        while True:
            message = await self._receive(ws)
            if message["type"] == "welcome":
                if message["seat"] != seat:
                    self.problems.append(f"welcome for seat {message['seat']}, not {seat}")
                return message

    async def _send(self, ws: ClientConnection, act: Ack, drop: bool = False) -> dict[str, Any]:
        """Send ``act`` (made against ``act.version``) and wait for its ack; records it as acknowledged. With
        ``drop`` the connection is closed right after sending, before any answer is read."""
        await self._send_text(ws, {"type": "act", "id": act.client_id, "version": act.version,
                                   "action": act.action})
        if drop:
            await ws.close()
            raise Dropped(act.client_id)
        while True:
            message = await self._receive(ws)
            if message["type"] in ("ack", "rejected") and message["id"] == act.client_id:
                break
        if message["type"] == "rejected":
            self.problems.append(f"{act} rejected: {message}")
            raise AssertionError(f"game {self.game_id}: {act} rejected: {message}")
        self.acked.append(Ack(act.client_id, act.seat, message["version"], act.action))
        self.pending = None
        self.progress[0] += 1
        return message

    async def _receive(self, ws: ClientConnection) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
        kind = message["type"]
        if kind == "welcome":
            self.seat, self.version, self.view = message["seat"], message["version"], message["view"]
        elif kind == "update":
            if self.version is not None and message["version"] != self.version + 1:
                self.problems.append(f"update {message['version']} after {self.version} on one connection")
            self.version, self.view = message["version"], message["view"]
            if message["event"] is not None:
                self.seen[message["version"]] = message["event"]
        elif kind == "error":
            self.problems.append(f"error {message}")
        return message


def bot_turns(database: Path) -> dict[str, tuple[int, int]]:
    """Unfinished games whose turn is a bot's, read from the file: game id -> (version, bot seat)."""
    with sqlite3.connect(database, timeout=10) as db:
        rows = db.execute("SELECT g.id, g.version, g.current FROM games g JOIN seats s ON s.game_id = g.id AND "
                          "s.seat = g.current WHERE g.finished = 0 AND s.kind = 'bot'").fetchall()
    return {game_id: (version, seat) for game_id, version, seat in rows}


def integrity(database: Path) -> str:
    with sqlite3.connect(database, timeout=10) as db:
        return str(db.execute("PRAGMA integrity_check").fetchone()[0])


GAMES: list[dict[str, Any]] = [
    # hot-seat: one client holds every seat's token
    {"players": 2, "hotseat": True, "seats": [{"kind": "human"}] * 2},
    {"players": 2, "hotseat": True, "seats": [{"kind": "human"}] * 2, "card_mode": "common"},
    {"players": 3, "hotseat": True, "seats": [{"kind": "human"}] * 3},
    {"players": 3, "hotseat": True, "seats": [{"kind": "human"}] * 3, "edition": "idw:master=1"},
    {"players": 4, "hotseat": True, "seats": [{"kind": "human"}] * 4},
    {"players": 2, "hotseat": True, "seats": [{"kind": "human"}] * 2, "master": True},
    # bots at bot speed instant, against one scripted person
    {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]},
    {"players": 3, "seats": [{"kind": "bot", "level": "beginner"}, {"kind": "human"},
                             {"kind": "bot", "level": "beginner"}]},
    {"players": 4, "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "beginner"}] * 3},
]


async def play_through_kills(server: ServerProcess, players: list[Player], kills: int,
                             rng: random.Random) -> list[dict[str, tuple[int, int]]]:
    """Play every game while the server is killed ``kills`` times at random moments; returns, for each kill, the
    games that were at a bot's turn when the server died."""
    progress = players[0].progress
    tasks = [asyncio.create_task(p.run(), name=p.game_id) for p in players]
    at_bot_turn: list[dict[str, tuple[int, int]]] = []
    try:
        for kill in range(kills):
            target = progress[0] + rng.randint(30, 150)  # a random moment, measured in acknowledged actions
            while progress[0] < target and not all(t.done() for t in tasks):
                await asyncio.sleep(0.005)
            if kill == 1:  # aim one kill at a moment when some bot is to act, and kill at once: a bot at instant
                for _ in range(400):  # speed acts within a few milliseconds, and a wait could miss its turn
                    if bot_turns(server.database):
                        break
                    await asyncio.sleep(0.005)
            else:
                await asyncio.sleep(rng.uniform(0, 0.02))  # anywhere in an action's path: before, in or after commit
            server.kill()
            for player, task in zip(players, tasks):
                player.kills_survived += not task.done()
            assert integrity(server.database) == "ok"
            at_bot_turn.append(bot_turns(server.database))
            await asyncio.sleep(rng.uniform(0.05, 0.5))  # the clients try to reconnect meanwhile
            await asyncio.to_thread(server.start)
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return at_bot_turn


def check_database(database: Path, players: list[Player], url: str) -> None:
    """Every acknowledged action is stored at the version its ack named, nothing twice, and what the clients saw
    is what the database holds."""
    assert integrity(database) == "ok"
    db = sqlite3.connect(database)
    try:
        for player in players:
            game_id = player.game_id
            version, finished, actions = db.execute(
                "SELECT version, finished, actions FROM games WHERE id = ?", (game_id,)).fetchone()
            actions = json.loads(actions)
            events = db.execute("SELECT version, seat, client_id, kind, action FROM events WHERE game_id = ? "
                                "ORDER BY version", (game_id,)).fetchall()
            assert finished == 1 and player.view["stage"] == "over"
            # versions 1..N, one event each; replaying the events gives the stored action list
            assert [e[0] for e in events] == list(range(1, version + 1))
            replayed: list[str] = []
            for _, _, _, kind, action in events:
                if kind == "act":
                    replayed.append(action)
                else:
                    replayed.pop()
            assert replayed == actions
            # every acknowledged action is there, at its acknowledged version, once; and nothing else was done
            # for the client's seats
            by_id = {(seat, cid): (v, kind, action) for v, seat, cid, kind, action in events if cid is not None}
            assert len(by_id) == sum(1 for e in events if e[2] is not None)
            for ack in player.acked:
                assert by_id.get((ack.seat, ack.client_id)) == (ack.version, "act", ack.action), (game_id, ack)
            assert len({a.client_id for a in player.acked}) == len(player.acked)
            human_events = [e for e in events if e[1] in player.tokens]
            assert len(human_events) == len(player.acked), game_id
            assert all(e[2] is None for e in events if e[1] not in player.tokens)  # the bots' own actions
            # what the updates told the client is what happened
            for v, event in player.seen.items():
                assert events[v - 1][1] == event["seat"] and events[v - 1][4] == event["action"], (game_id, v)
            history = player.view["history"]
            assert len(history) == len(actions)
            assert all(h == a or (h == "keep ?" and a.startswith("keep ")) for h, a in zip(history, actions))
            record = get(f"{url}/api/games/{game_id}/record")
            assert record["actions"] == actions and record["result"]["finished"]
    finally:
        db.close()


def test_sigkill_at_random_moments_loses_no_acknowledged_action_and_every_game_ends(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "games.db")
    rng = random.Random(12)
    try:
        server.start()
        deadline = time.monotonic() + DEADLINE
        progress = [0]
        players = []
        for index, spec in enumerate(GAMES):
            game = post(f"{server.url}/api/games", {"bot_speed": "instant", **spec})
            tokens = {int(seat): token for seat, token in game["tokens"].items()}
            players.append(Player(server.url.replace("http", "ws", 1), game["id"], tokens, seed=index,
                                  deadline=deadline, progress=progress))
        at_bot_turn = asyncio.run(play_through_kills(server, players, kills=3, rng=rng))
        problems = [f"{p.game_id}: {problem}" for p in players for problem in p.problems]
        assert not problems, problems
        # each client reconnected by itself after the kills that hit its game (two kills may come while it waits)
        assert all(p.connections >= 2 for p in players if p.kills_survived), \
            [(p.connections, p.kills_survived) for p in players]
        assert sum(p.kills_survived for p in players) >= 2 * len(players)  # the kills came mid-game
        assert sum(p.acked_again for p in players) >= 1  # re-sent ids that had been committed: acked, not redone
        check_database(server.database, players, server.url)
        # bots whose turn it was when the server died played that turn after the restart
        resumed = 0
        with sqlite3.connect(server.database) as db:
            for games in at_bot_turn:
                for game_id, (version, seat) in games.items():
                    (actor,) = db.execute("SELECT seat FROM events WHERE game_id = ? AND version = ?",
                                          (game_id, version + 1)).fetchone()
                    assert actor == seat, (game_id, version)
                    resumed += 1
        assert resumed >= 1, at_bot_turn
        print(f"\n{sum(p.actions for p in players)} actions by the clients, "
              f"{sum(len(p.acked) for p in players)} acknowledged, {sum(p.resent for p in players)} re-sent after "
              f"a kill ({sum(p.acked_again for p in players)} of them committed before it), "
              f"{sum(p.connections for p in players)} connections, {resumed} bot turns resumed, "
              f"kills survived by game: {[p.kills_survived for p in players]}")
        server.stop()
        log = server.log.read_text()
        assert "Traceback" not in log, log[-4000:]
    finally:
        server.stop()


# --- 2. A bot that raises or hangs ----------------------------------------------------------------------------
#: The level whose bot fails in these tests; every other level plays as usual.
BROKEN = "expert"


def raising_bot(game_id: str, seat: int, level: str, seed: int, view: SeatView) -> int:
    """Runs in the worker process: the ``BROKEN`` level's bot raises on every action."""
    if level == BROKEN:
        raise RuntimeError("this bot is broken")
    return choose_in_worker(game_id, seat, level, seed, view)


def sleeping_bot(game_id: str, seat: int, level: str, seed: int, view: SeatView) -> int:
    """Runs in the worker process: the ``BROKEN`` level's bot thinks far past any time limit over its knight and
    the king (the first actions of a game), then plays as a beginner."""
    if level == BROKEN:
        if len(view.history) < 3:
            time.sleep(15)
        level = "beginner"
    return choose_in_worker(game_id, seat, level, seed, view)


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", client_limits=FAST)
    with TestClient(app) as client:
        yield client


def create(client: TestClient, seats: list[dict[str, Any]], **body: Any) -> tuple[str, dict[int, str]]:
    answer = client.post("/api/games", json={"players": len(seats), "seats": seats, "bot_speed": "instant",
                                             **body})
    assert answer.status_code == 201, answer.text
    game = answer.json()
    return game["id"], {int(k): v for k, v in game["tokens"].items()}


class Seated:
    """A synchronous scripted player on the in-process app: one connection, every token it holds."""

    def __init__(self, ws: Any, tokens: dict[int, str], seed: int) -> None:
        self.ws, self.tokens, self.rng = ws, tokens, random.Random(seed)
        self.seat = min(tokens)
        self.version, self.view = 0, self.hello(self.seat)
        self.count = 0

    def receive(self) -> dict[str, Any]:
        message = dict(self.ws.receive_json())
        if message["type"] in ("welcome", "update"):
            self.version, self.view = message["version"], message["view"]
        assert message["type"] not in ("error", "rejected"), message
        return message

    def hello(self, seat: int) -> dict[str, Any]:
        self.ws.send_json({"type": "hello", "seat": seat, "token": self.tokens[seat], "version": None})
        while (message := self.receive())["type"] != "welcome":
            pass
        self.seat = seat
        return dict(message["view"])

    def await_change(self, seconds: float = 60.0) -> None:
        """Wait until the game moves on (a bot acts); pings keep each wait bounded, so a bot that never plays
        fails the test instead of hanging it."""
        version, deadline = self.version, time.monotonic() + seconds
        while True:
            self.ws.send_json({"type": "ping"})
            while self.receive()["type"] != "pong":
                pass
            if self.version != version:
                return
            assert time.monotonic() < deadline, f"nobody acted after version {version}"
            time.sleep(0.02)

    def step(self) -> bool:
        """Act if one of our seats is to act, else wait for the next change; False once the game is over."""
        if self.view["stage"] == "over":
            return False
        current = self.view["current"]
        if current not in self.tokens:
            self.await_change()
            return True
        if self.seat != current:
            self.hello(current)
        self.count += 1
        client_id = f"a{self.count}"
        self.ws.send_json({"type": "act", "id": client_id, "version": self.version,
                           "action": self.rng.choice(self.view["legal"])["action"]})
        while (message := self.receive())["type"] != "ack":
            pass
        while self.version < message["version"]:
            self.receive()
        return True


def bot_failures(caplog: pytest.LogCaptureFixture, game_id: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "torres.server.bots" and r.levelno >= logging.WARNING
            and game_id in r.getMessage()]


def test_the_bot_standing_in_for_a_broken_one_draws_afresh_at_every_action() -> None:
    # Bot seed 33 is one whose first draw, repeated at every action, ended the broken seat's turns at once: it
    # took 17 actions in this game instead of 60 to 100.
    state, opponent = GameState(2, 1), random.Random(0)
    while not state.is_over():
        if state.current == 1:
            state.push(fallback_action(33, state.view(1)))
        else:
            state.push(opponent.choice(list(state.legal_actions)))
    assert sum(1 for seat in state.actors if seat == 1) > 50


def test_a_bot_that_raises_is_replaced_by_a_simpler_one_and_its_game_goes_on(
        app_client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    pool = app_client.app.state.driver.pool  # type: ignore[attr-defined]
    pool.worker = raising_bot
    broken, broken_tokens = create(app_client, [{"kind": "human"}, {"kind": "bot", "level": BROKEN}])
    sound, sound_tokens = create(app_client, [{"kind": "bot", "level": "beginner"}, {"kind": "human"}])
    with app_client.websocket_connect(f"/ws/{broken}") as ws_broken, \
            app_client.websocket_connect(f"/ws/{sound}") as ws_sound:
        a, b = Seated(ws_broken, broken_tokens, seed=1), Seated(ws_sound, sound_tokens, seed=2)
        going = [a, b]
        while going:  # both games to their end, taking turns
            going = [p for p in going if p.step()]
        assert a.view["scores"] and b.view["stage"] == "over"
    failures = bot_failures(caplog, broken)
    bot_actions = sum(1 for seat in a.view["actors"] if seat == 1)
    assert len(failures) == bot_actions > 20  # every action of the broken bot failed, was logged, was replaced
    assert all("a random bot plays instead" in r.getMessage() and r.exc_info and
               "this bot is broken" in str(r.exc_info[1]) for r in failures)
    assert not bot_failures(caplog, sound)  # the other game's bot played on the same worker as usual
    assert app_client.get(f"/api/games/{broken}/record").json()["result"]["finished"]


def test_a_bot_past_its_time_is_replaced_and_the_server_serves_other_games_meanwhile(
        app_client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    pool = app_client.app.state.driver.pool  # type: ignore[attr-defined]
    pool.worker, pool.timeout = sleeping_bot, 1.0
    slow, slow_tokens = create(app_client, [{"kind": "human"}, {"kind": "bot", "level": BROKEN}])
    other, other_tokens = create(app_client, [{"kind": "human"}] * 2, hotseat=True)
    with app_client.websocket_connect(f"/ws/{slow}") as ws_slow, \
            app_client.websocket_connect(f"/ws/{other}") as ws_other:
        person = Seated(ws_slow, slow_tokens, seed=3)
        person.step()  # the person places a knight: now the bot thinks, and thinks...
        waiting = person.version
        hot = Seated(ws_other, other_tokens, seed=4)
        served_meanwhile = 0
        for _ in range(6):  # ... while another game is played on the same server
            hot.step()
            summary = app_client.get(f"/api/games/{slow}").json()
            if summary["version"] == waiting and summary["current"] == 1:
                served_meanwhile += 1
        assert served_meanwhile >= 1
        while person.view["actors"].count(1) < 2:
            person.step()  # the bot's knight and king, each played by the fallback after the time limit
        assert person.view["actors"] == [0, 1, 1] and person.view["current"] == 0
        pool.timeout = 10.0  # room for a fresh worker to start
        while person.version < 20:
            person.step()  # and the game goes on, the bot playing its own turns again
        assert 1 in person.view["actors"][3:]
    failures = bot_failures(caplog, slow)
    assert len(failures) == 2 and all("took over 1 s; a random bot plays instead" in r.getMessage()
                                      for r in failures)
    # after its worker was replaced, bots of other games play as usual on the fresh one
    fresh, fresh_tokens = create(app_client, [{"kind": "human"}, {"kind": "bot", "level": "beginner"}])
    with app_client.websocket_connect(f"/ws/{fresh}") as ws:
        player = Seated(ws, fresh_tokens, seed=5)
        while player.version < 4:
            player.step()
    assert player.view["actors"][:3] == [0, 1, 1] and not bot_failures(caplog, fresh)


def slow_hint(view: SeatView, seed: int) -> tuple[list[str], str]:
    """Runs in the worker process: a hint that takes a while, as the master's search does."""
    time.sleep(0.3)
    return [], f"hint {seed}"


def test_hints_asked_for_at_once_wait_their_turn_a_few_at_a_time_and_the_rest_are_refused() -> None:
    # One page that asked for many hints at once queued them all ahead of every game's bots (an outside probe:
    # sixteen, and the bots of other games ran out of time and played at random). Now a worker runs one hint at a
    # time, ON_DEMAND_WAITING wait for it, and the rest are told the server is busy; the games' bots never wait in
    # that line.
    async def ask() -> list[object]:
        pool = BotPool(workers=1)
        pool.hint_worker = slow_hint
        view = GameState(2, 1).view(0)
        try:
            return await asyncio.gather(*(pool.hint("g", view, seed=i) for i in range(ON_DEMAND_WAITING + 4)),
                                        return_exceptions=True)
        finally:
            pool.close()

    answers = asyncio.run(ask())
    assert [type(a).__name__ for a in answers] == ["tuple"] * (1 + ON_DEMAND_WAITING) + ["Busy"] * 3
    assert [a for a in answers if isinstance(a, tuple)] == [([], f"hint {i}") for i in range(1 + ON_DEMAND_WAITING)]


def test_a_hint_refused_as_busy_is_told_to_its_page(app_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    async def busy(*args: object, **kwargs: object) -> tuple[list[str], str]:
        raise Busy("the server's bots are busy: ask again in a moment")

    monkeypatch.setattr(app_client.app.state.driver.pool, "hint", busy)  # type: ignore[attr-defined]
    game, tokens = create(app_client, [{"kind": "human"}, {"kind": "bot", "level": "beginner"}])
    with app_client.websocket_connect(f"/ws/{game}") as ws:
        ws.send_json({"type": "hello", "seat": 0, "token": tokens[0]})
        assert ws.receive_json()["type"] == "welcome"
        ws.send_json({"type": "hint", "id": "h1"})
        answer = ws.receive_json()
        while answer["type"] != "rejected":
            answer = ws.receive_json()
    assert answer["id"] == "h1" and answer["code"] == "busy" and "ask again" in answer["message"]


def endless_hint(view: SeatView, seed: int) -> tuple[list[str], str]:
    """Runs in the worker process: a hint's search that does not stop by itself."""
    time.sleep(60)
    return [], "too late"


def test_a_hint_past_its_time_has_its_worker_replaced() -> None:
    # Its search went on in the worker after the page was told no hint came, and every game's bot on that worker
    # waited behind it until one of them ran out of time (an outside probe: a position with a million action points).
    async def ask() -> tuple[BaseException | None, Any, tuple[list[str], str]]:
        pool = BotPool(workers=1, timeout=1.0)
        pool.hint_worker = endless_hint
        view = GameState(2, 1).view(0)
        first = pool._executor("g")
        try:
            try:
                await pool.hint("g", view, seed=0)
                error = None
            except BaseException as exc:  # noqa: BLE001 (the test looks at what came)
                error = exc
            processes = list((getattr(first, "_processes", None) or {}).values())
            pool.hint_worker, pool.timeout = slow_hint, 60.0  # room for a fresh worker to start
            return error, processes, await pool.hint("g", view, seed=1)
        finally:
            pool.close()

    error, processes, after = asyncio.run(ask())
    assert isinstance(error, asyncio.TimeoutError)
    for process in processes:
        process.join(timeout=30)
        assert not process.is_alive()
    assert after == ([], "hint 1")
