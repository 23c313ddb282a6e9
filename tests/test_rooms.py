"""One live copy of a game per process (issue #31): a room is never forgotten while anything holds it, so every
path — a socket that has not said hello yet, HTTP, a bot, a catch-up — sees the same version."""

from __future__ import annotations

import contextlib
import random
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from fastapi.testclient import TestClient

from torres.server.app import create_app
from torres.server.protocol import Limits

from test_server import act, hello, join_all, new_game, receive

FAST = Limits(burst=100_000, per_second=100_000)


@pytest.fixture(params=["at once", "in a thread"])
def app(tmp_path: Path, request: pytest.FixtureRequest) -> Any:
    # Sweeps many times a second: what took an idle pause of 11 s happens within a fraction of one. The store's
    # calls run at once (SQLite) or in a thread (as for PostgreSQL, whose commits other paths may overtake).
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", client_limits=FAST, sweep_seconds=0.01)
    app.state.store.in_thread = request.param == "in a thread"
    return app


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def forget_idle(client: TestClient) -> None:
    """Run the idle sweep now, on the server's event loop (the sweeper task runs it too, every 10 ms here)."""
    assert client.portal is not None
    client.portal.call(client.app.state.rooms.forget_idle)  # type: ignore[attr-defined]


def stored_version(client: TestClient, game_id: str) -> int:
    version = client.app.state.store.version_of(game_id)  # type: ignore[attr-defined]
    assert version is not None
    return int(version)


def test_a_socket_that_has_not_said_hello_keeps_the_one_copy_of_its_game(client: TestClient) -> None:
    """The issue's sequence: a socket connects and waits past the idle sweep, then acts; every other path must
    see its action, and the other seat must be able to move."""
    game = new_game(client)
    tokens = join_all(client, game)
    game_id = game["id"]
    with client.websocket_connect(f"/ws/{game_id}") as first:
        time.sleep(0.2)  # many sweeps of the sweeper task
        forget_idle(client)  # and one for certain
        assert client.get(f"/api/games/{game_id}").json()["version"] == 0
        welcome = hello(first, 0, tokens[0])
        action = welcome["view"]["legal"][0]["action"]
        assert act(first, action, 0, "a1") == {"type": "ack", "id": "a1", "version": 1}
        forget_idle(client)
        summary = client.get(f"/api/games/{game_id}").json()
        assert summary["version"] == 1 and summary["current"] == 1
        with client.websocket_connect(f"/ws/{game_id}") as second:
            welcome = hello(second, 1, tokens[1])
            assert welcome["version"] == 1
            assert welcome["view"]["legal"], "the seat to act has legal actions"
            reply = act(second, welcome["view"]["legal"][0]["action"], 1, "b1")
            assert reply["type"] == "ack" and reply["version"] == 2
            assert receive(first, "update")["version"] == 1  # its own action
            assert receive(first, "update")["version"] == 2  # and the other seat's, live
    assert client.portal is not None
    assert len(client.app.state.rooms) <= 1  # type: ignore[attr-defined]


def test_a_room_nobody_holds_is_forgotten_and_comes_back_at_the_stored_version(client: TestClient) -> None:
    game = new_game(client)
    tokens = join_all(client, game)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        welcome = hello(ws, 0, tokens[0])
        assert act(ws, welcome["view"]["legal"][0]["action"], 0, "x")["version"] == 1
    forget_idle(client)
    assert client.app.state.rooms.loaded_room(game["id"]) is None  # type: ignore[attr-defined]
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 1


@pytest.mark.parametrize("seed", range(6))
def test_random_interleavings_of_connect_idle_hello_act_and_get_never_split_a_game(client: TestClient,
                                                                                  seed: int) -> None:
    """Sockets come and go, greet or stay silent, act, and the idle sweep runs between any two steps: every
    welcome and every summary shows the committed version, every action on the seat to act is acknowledged, and
    there is never more than the one copy of the game in memory."""
    rng = random.Random(seed)
    game = new_game(client)
    tokens = join_all(client, game)
    game_id = game["id"]
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    with contextlib.ExitStack() as stack:
        open_sockets: list[tuple[Any, contextlib.ExitStack]] = []
        greeted: dict[int, Any] = {}  # seat -> a socket greeted as that seat, with its welcome's legal actions
        counter = 0
        for _ in range(60):
            step = rng.choice(["connect", "connect", "idle", "hello", "act", "act", "get", "close"])
            version = stored_version(client, game_id)
            if step == "connect" and len(open_sockets) < 4:
                inner = contextlib.ExitStack()
                ws = inner.enter_context(client.websocket_connect(f"/ws/{game_id}"))
                stack.callback(inner.close)
                open_sockets.append((ws, inner))
            elif step == "idle":
                forget_idle(client)
                time.sleep(0.02)
            elif step == "hello" and open_sockets:
                ws, _ = rng.choice(open_sockets)
                if any(ws is s for s in greeted.values()):
                    continue
                seat = rng.randrange(2)
                welcome = hello(ws, seat, tokens[seat])
                assert welcome["version"] == version
                greeted.setdefault(seat, ws)
            elif step == "act":
                summary = client.get(f"/api/games/{game_id}").json()
                seat = summary["current"]
                ws = greeted.get(seat)
                if ws is None:
                    continue
                welcome = hello(ws, seat, tokens[seat])  # the socket's own catch-up: a fresh view
                assert welcome["version"] == version
                counter += 1
                reply = act(ws, welcome["view"]["legal"][0]["action"], version, f"id{counter}")
                assert reply["type"] == "ack" and reply["version"] == version + 1, reply
            elif step == "get":
                assert client.get(f"/api/games/{game_id}").json()["version"] == version
            elif step == "close" and open_sockets:
                ws, inner = open_sockets.pop(rng.randrange(len(open_sockets)))
                for seat in [s for s, g in greeted.items() if g is ws]:
                    del greeted[seat]
                inner.close()
            loaded = rooms.loaded_room(game_id)
            assert len(rooms) <= 1
            if loaded is not None:
                assert loaded.version == stored_version(client, game_id)
        assert counter > 0
