"""The game server without a browser: seats and tokens, turn and version checks, exactly-once actions, undo,
per-seat views, records and replays, and games that survive a restart (Starlette's TestClient, in process)."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import torres
from conftest import fast_limits
from torres.server.app import create_app
from torres.server.protocol import Limits

#: Scripted players act far faster than people: the flood limit is tested on its own.
FAST = fast_limits()

Socket = Any


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("players", 2)
    body.setdefault("seats", [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    body.setdefault("bot_speed", "instant")
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def join_all(client: TestClient, game: dict[str, Any]) -> dict[int, str]:
    """Tokens for every human seat: the creator's, and one claimed through each invite link."""
    tokens = {int(k): v for k, v in game["tokens"].items()}
    for seat, link in game["invites"].items():
        invite = link.rsplit("/", 1)[1]
        answer = client.post(f"/api/games/{game['id']}/join", json={"invite": invite})
        assert answer.status_code == 200, answer.text
        tokens[int(seat)] = answer.json()["token"]
    return tokens


def receive(ws: Socket, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` (others, such as seat summaries, are passed over)."""
    for _ in range(50):
        message = dict(ws.receive_json())
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind!r} message")


def hello(ws: Socket, seat: int | None, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "seat": seat, "token": token, "version": None})
    return receive(ws, "welcome")


def act(ws: Socket, action: str, version: int, client_id: str) -> dict[str, Any]:
    """Send an action and return its answer (``ack`` or ``rejected``)."""
    ws.send_json({"type": "act", "id": client_id, "version": version, "action": action})
    for _ in range(50):
        message = dict(ws.receive_json())
        if message["type"] in ("ack", "rejected") and message.get("id") == client_id:
            return message
    raise AssertionError("no answer")


def test_creating_a_game_returns_secrets_once_and_stores_only_hashes(client: TestClient, tmp_path: Path) -> None:
    game = new_game(client)
    assert set(game["tokens"]) == {"0"} and set(game["invites"]) == {"1"}
    token = game["tokens"]["0"]
    assert len(token) >= 32  # 256 random bits, URL-safe base64
    invite = game["invites"]["1"].rsplit("/", 1)[1]
    dump = "\n".join(sqlite3.connect(tmp_path / "games.db").iterdump())
    assert token not in dump and invite not in dump
    summary = client.get(f"/api/games/{game['id']}").json()
    assert "seed" not in json.dumps(summary) and token not in json.dumps(summary)


def test_an_invite_claims_its_seat_once(client: TestClient) -> None:
    game = new_game(client)
    invite = game["invites"]["1"].rsplit("/", 1)[1]
    first = client.post(f"/api/games/{game['id']}/join", json={"invite": invite})
    assert first.status_code == 200 and first.json()["seat"] == 1
    again = client.post(f"/api/games/{game['id']}/join", json={"invite": invite})
    assert again.status_code == 409
    wrong = client.post(f"/api/games/{game['id']}/join", json={"invite": "x" * 43})
    assert wrong.status_code == 404


def test_no_action_without_the_seats_token(client: TestClient) -> None:
    game = new_game(client)
    tokens = join_all(client, game)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_json({"type": "hello", "seat": 0, "token": tokens[1], "version": None})  # seat 1's token for seat 0
        assert receive(ws, "error")["code"] == "bad_token"
        assert receive(ws, "welcome")["seat"] is None  # stays a spectator
        answer = act(ws, "start d8", 0, "a")
        assert answer["type"] == "rejected" and answer["code"] == "no_seat"
        ws.send_json({"type": "hello", "seat": 1, "token": None, "version": None})
        assert receive(ws, "error")["code"] == "bad_token"
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 0


def test_out_of_turn_stale_and_illegal_actions_are_rejected_with_reasons(client: TestClient) -> None:
    game = new_game(client)
    tokens = join_all(client, game)
    with client.websocket_connect(f"/ws/{game['id']}") as ann, client.websocket_connect(f"/ws/{game['id']}") as bob:
        hello(ann, 0, tokens[0])
        hello(bob, 1, tokens[1])
        answer = act(bob, "start d8", 0, "b1")
        assert answer["code"] == "not_your_turn"
        answer = act(ann, "start a1", 0, "a1")
        assert answer["code"] == "illegal" and "start a1" in answer["message"]
        assert act(ann, "start d8", 0, "a2")["type"] == "ack"
        answer = act(bob, "start c6", 0, "b2")  # made against version 0, the game is at 1
        assert answer["code"] == "stale" and answer["version"] == 1
        assert act(bob, "start c6", 1, "b3") == {"type": "ack", "id": "b3", "version": 2}
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["version"] == 2 and summary["current"] == 1  # seat 1 places the king


def test_a_resent_action_is_acknowledged_again_and_applied_once(client: TestClient) -> None:
    game = new_game(client, hotseat=True)
    tokens = {int(k): v for k, v in game["tokens"].items()}
    assert set(tokens) == {0, 1}  # hot-seat: the creator holds every human seat
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        hello(ws, 0, tokens[0])
        first = act(ws, "start d8", 0, "same-id")
        again = act(ws, "start d8", 0, "same-id")  # the ack was lost; the page sends it again
        assert first == again == {"type": "ack", "id": "same-id", "version": 1}
        welcome = hello(ws, 0, tokens[0])
        assert welcome["view"]["history"] == ["start d8"]


def test_every_connection_gets_its_own_view_and_hidden_events_as_bare_versions(client: TestClient) -> None:
    game = new_game(client, hotseat=True)
    tokens = {int(k): v for k, v in game["tokens"].items()}
    with client.websocket_connect(f"/ws/{game['id']}") as ann, \
            client.websocket_connect(f"/ws/{game['id']}") as bob, \
            client.websocket_connect(f"/ws/{game['id']}") as spectator:
        hello(ann, 0, tokens[0])
        hello(bob, 1, tokens[1])
        hello(spectator, None, None)
        version = 0
        for action, seat in (("start d8", 0), ("start c6", 1), ("king f6", 1), ("buy", 0)):
            ws = ann if seat == 0 else bob
            answer = act(ws, action, version, f"x{version}")
            assert answer["type"] == "ack", answer
            version = answer["version"]
        drawn = receive(ann, "update")
        while drawn["version"] < version:
            drawn = receive(ann, "update")
        assert len(drawn["view"]["drawn"]) == 3
        keep = next(a["action"] for a in drawn["view"]["legal"] if a["kind"] == "keep")
        assert act(ann, keep, version, "keep")["type"] == "ack"
        for ws in (bob, spectator):
            last = receive(ws, "update")
            while last["version"] < version + 1:
                last = receive(ws, "update")
            assert last["event"] is None  # which card Ann kept: not for them
            assert last["view"]["drawn"] == [] and last["view"]["history"][-1] == "keep ?"
            assert last["view"]["hand"] == {} and "seed=?" in last["view"]["position"]
            assert keep not in json.dumps(last)
        own = receive(ann, "update")
        while own["version"] < version + 1:
            own = receive(ann, "update")
        assert own["event"] == {"seat": 0, "action": keep}


def test_undo_within_the_turn_but_never_across_a_card_draw(client: TestClient) -> None:
    game = new_game(client, hotseat=True)
    tokens = {int(k): v for k, v in game["tokens"].items()}
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        hello(ws, 0, tokens[0])
        version = 0
        for action, seat in (("start d8", 0), ("start c6", 1), ("king f6", 1), ("stack 3", 0), ("block d7", 0)):
            hello(ws, seat, tokens[seat])
            version = act(ws, action, version, f"a{version}")["version"]
        ws.send_json({"type": "undo", "id": "u1", "version": version})
        assert receive(ws, "ack")["version"] == version + 1
        update = receive(ws, "update")
        assert update["event"] == {"seat": 0, "undo": True} and update["view"]["history"][-1] == "stack 3"
        version += 1
        version = act(ws, "buy", version, "buy")["version"]
        ws.send_json({"type": "undo", "id": "u2", "version": version})
        rejected = receive(ws, "rejected")
        assert rejected["code"] == "cannot_undo"


def play_randomly(ws: Socket, tokens: dict[int, str], seed: int, limit: int = 3000) -> dict[str, Any]:
    """Both seats of a hot-seat game play random legal actions (from their own views) to the end."""
    rng = random.Random(seed)
    view = hello(ws, 0, tokens[0])
    version, seat = view["version"], 0
    for step in range(limit):
        current = view["view"]["current"]
        if view["view"]["stage"] == "over":
            return view
        if current != seat:
            seat = current
            view = hello(ws, seat, tokens[seat])
            continue
        legal = view["view"]["legal"]
        answer = act(ws, rng.choice(legal)["action"], version, f"r{step}")
        assert answer["type"] == "ack", answer
        version = answer["version"]
        view = receive(ws, "update")
        while view["version"] < version:
            view = receive(ws, "update")
    raise AssertionError("the game did not end")


def test_records_and_replays_only_for_finished_games(client: TestClient) -> None:
    game = new_game(client, hotseat=True)
    tokens = {int(k): v for k, v in game["tokens"].items()}
    game_id = game["id"]
    assert client.get(f"/api/games/{game_id}/record").status_code == 403
    assert client.get(f"/api/games/{game_id}/replay").status_code == 403
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        final = play_randomly(ws, tokens, seed=3)
    record = client.get(f"/api/games/{game_id}/record")
    assert record.status_code == 200
    data = record.json()
    assert data["result"]["finished"] and data["result"]["scores"] == final["view"]["scores"]
    replay = client.get(f"/api/games/{game_id}/replay").json()
    assert len(replay["frames"]) == len(data["actions"]) + 1 and len(replay["scorings"]) == 3
    assert replay["frames"][-1]["scores"] == final["view"]["scores"]
    uploaded = client.post("/api/replay", json=data)
    assert uploaded.status_code == 200 and uploaded.json()["scorings"] == replay["scorings"]
    data["actions"][5] = "block a1"
    bad = client.post("/api/replay", json=data)
    assert bad.status_code == 400 and "action 5" in bad.json()["detail"]


def test_a_restarted_server_continues_every_game_where_it_was(db: str) -> None:
    with TestClient(create_app(db, client_limits=FAST)) as first:
        game = new_game(first, hotseat=True)
        tokens = {int(k): v for k, v in game["tokens"].items()}
        with first.websocket_connect(f"/ws/{game['id']}") as ws:
            hello(ws, 0, tokens[0])
            version = 0
            for action, seat in (("start d8", 0), ("start c6", 1), ("king f6", 1), ("stack 3", 0)):
                hello(ws, seat, tokens[seat])
                version = act(ws, action, version, f"a{version}")["version"]
            before = hello(ws, 0, tokens[0])["view"]
    with TestClient(create_app(db, client_limits=FAST)) as second:
        with second.websocket_connect(f"/ws/{game['id']}") as ws:
            after = hello(ws, 0, tokens[0])
            assert after["version"] == version and after["view"] == before
            assert act(ws, "block d7", version, "after-restart")["type"] == "ack"


def test_a_bot_seat_plays_by_itself(client: TestClient) -> None:
    game = new_game(client, seats=[{"kind": "human"}, {"kind": "bot", "level": "beginner"}])
    token = game["tokens"]["0"]
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        hello(ws, 0, token)
        assert act(ws, "start d8", 0, "a")["type"] == "ack"
        seen = []
        while len(seen) < 2:  # the bot places its first knight and the king
            update = receive(ws, "update")
            if update["event"] and update["event"]["seat"] == 1:
                seen.append(update["event"]["action"])
        assert seen[1].startswith("king ")
        assert update["view"]["current"] == 0 and update["view"]["legal"]


def test_malformed_and_oversized_messages_get_errors(client: TestClient) -> None:
    game = new_game(client)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_text("not json")
        assert receive(ws, "error")["code"] == "bad_message"
        ws.send_json({"type": "act", "id": "q", "version": -1, "action": "end"})
        rejected = receive(ws, "rejected")
        assert rejected["code"] == "bad_message" and rejected["id"] == "q"
        ws.send_json({"type": "act", "id": "big", "version": 0, "action": "x" * 5000})
        assert receive(ws, "error")["code"] == "too_large"
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 0
    assert client.post("/api/games", json={"players": 5}).status_code == 422
    assert client.post("/api/games", json={"players": 2, "edition": "nope"}).status_code == 400
    assert client.get("/api/games/nope").status_code == 404


def test_a_flood_of_messages_is_cut_off(db: str) -> None:
    with TestClient(create_app(db, client_limits=Limits(burst=5, per_second=1))) as client:
        game = new_game(client)
        with client.websocket_connect(f"/ws/{game['id']}") as ws:
            for _ in range(6):
                ws.send_json({"type": "ping"})
            for _ in range(5):
                assert ws.receive_json() == {"type": "pong"}
            assert receive(ws, "error")["code"] == "too_many"
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()


def test_rules_page_and_meta(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert set(meta["editions"]) == set(torres.EDITIONS) and meta["levels"][-2:] == ["expert", "master"]
    assert client.get("/api/rules/xx").status_code == 404


def test_my_games_lists_known_games_in_the_order_asked(client: TestClient, db: str) -> None:
    first, second = new_game(client), new_game(client, hotseat=True)
    listed = client.get(f"/api/games?ids={second['id']},nope,{first['id']}").json()["games"]
    assert [g["id"] for g in listed] == [second["id"], first["id"]]
    assert all(g["status"] == "playing" and g["current"] == 0 for g in listed)
    # read from the database too, by a server that has none of them in memory
    with TestClient(create_app(db, client_limits=FAST)) as fresh:
        again = fresh.get(f"/api/games?ids={first['id']},{second['id']}").json()["games"]
    assert [g["seats"] for g in again] == [first["game"]["seats"], second["game"]["seats"]]


def test_two_pages_racing_on_one_version_exactly_one_wins(client: TestClient) -> None:
    game = new_game(client, hotseat=True)
    token = game["tokens"]["0"]
    with client.websocket_connect(f"/ws/{game['id']}") as one, client.websocket_connect(f"/ws/{game['id']}") as two:
        hello(one, 0, token)
        hello(two, 0, token)
        # both pages of seat 0 act on version 0 at once, with different actions
        one.send_json({"type": "act", "id": "one", "version": 0, "action": "start d8"})
        two.send_json({"type": "act", "id": "two", "version": 0, "action": "start c6"})
        answers = [next(m for m in iter(ws.receive_json, None) if m.get("id") == cid) for ws, cid in
                   ((one, "one"), (two, "two"))]
    assert sorted(a["type"] for a in answers) == ["ack", "rejected"]
    assert next(a for a in answers if a["type"] == "rejected")["code"] == "stale"
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 1
