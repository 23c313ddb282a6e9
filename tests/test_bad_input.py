"""Bad input gets a clear 4xx or a websocket answer, never a 500 or a dropped connection (issue #31)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from conftest import fresh_postgres_database
from fastapi.testclient import TestClient

from torres.server.app import create_app
from torres.server.inputs import MAX_BODY_BYTES
from torres.server.protocol import Limits
from torres.server.rooms import progress_of, replay_state

from test_lobby import sign_up
from test_server import act, hello, join_all, new_game, play_randomly, receive

FAST = Limits(burst=100_000, per_second=100_000)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", client_limits=FAST),
                    raise_server_exceptions=False) as c:
        yield c


def test_a_binary_frame_is_answered_and_the_connection_goes_on(client: TestClient) -> None:
    game = new_game(client)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_bytes(b'{"type":"ping"}')
        answer = ws.receive_json()
        assert answer["type"] == "error" and answer["code"] == "bad_message"
        assert "binary" in answer["message"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


@pytest.mark.parametrize("body", ["NaN", '{"players": NaN}', "[1e999]", '{"players": Infinity}',
                                  '{"players": -Infinity}', '{"players": 2, "edition": 1e400}'])
@pytest.mark.parametrize("path", ["/api/games", "/api/replay", "/api/games/nosuchgame/join"])
def test_numbers_json_does_not_have_are_a_422(client: TestClient, path: str, body: str) -> None:
    response = client.post(path, content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    assert response.json()["detail"]


def test_a_replay_upload_with_a_nan_inside_is_a_422_not_a_500(client: TestClient) -> None:
    body = '{"format": "torres-record", "rules": "riogrande", "players": 2, "seed": 1, "actions": [], ' \
           '"meta": {"x": NaN}}'
    response = client.post("/api/replay", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text


def test_a_websocket_message_with_nan_is_a_bad_message(client: TestClient) -> None:
    game = new_game(client)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_text('{"type": "act", "id": "n1", "version": NaN, "action": "end"}')
        answer = ws.receive_json()
        assert answer["type"] == "error" and answer["code"] == "bad_message" and "NaN" in answer["message"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_a_body_over_the_limit_is_a_413_before_it_is_read(client: TestClient) -> None:
    big = b'{"actions": [' + b'"end",' * (MAX_BODY_BYTES // 6) + b'"end"]}'
    response = client.post("/api/replay", content=big, headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert "limited" in response.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for start in range(0, len(big), 65536):
            yield big[start:start + 65536]

    response = client.post("/api/replay", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413


def test_a_spectator_asking_for_a_hint_has_no_seat(client: TestClient) -> None:
    game = new_game(client)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        hello(ws, None, None)
        ws.send_json({"type": "hint", "id": "h1"})
        answer = receive(ws, "rejected")
        assert answer["code"] == "no_seat" and answer["id"] == "h1"


def test_an_id_used_again_for_another_change_is_refused_as_a_duplicate_not_as_stale(client: TestClient) -> None:
    game = new_game(client)
    tokens = join_all(client, game)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        welcome = hello(ws, 0, tokens[0])
        first = welcome["view"]["legal"][0]["action"]
        assert act(ws, first, 0, "same")["version"] == 1
        with client.websocket_connect(f"/ws/{game['id']}") as other:  # seat 1 plays until seat 0 is to act
            while (summary := client.get(f"/api/games/{game['id']}").json())["current"] != 0:
                view = hello(other, 1, tokens[1])["view"]
                version = summary["version"]
                assert act(other, view["legal"][0]["action"], version, f"b{version}")["type"] == "ack"
        view = hello(ws, 0, tokens[0])["view"]
        assert view["legal"]
        reply = act(ws, view["legal"][0]["action"], summary["version"], "same")  # an id used before, on the
        # current version
        assert reply["type"] == "rejected" and reply["code"] == "duplicate_id", reply
        assert "new id" in reply["message"]
        # and the genuine re-send of the first change is still acknowledged with the version it produced
        assert act(ws, first, 0, "same") == {"type": "ack", "id": "same", "version": 1}


def test_a_resent_action_that_meets_a_commit_it_has_not_heard_of_is_acknowledged(client: TestClient) -> None:
    """After a failover the surviving process may not have heard of the commit: the re-send (same id, same
    version) conflicts at commit, and is then recognised and acknowledged, not refused as stale."""
    game = new_game(client)
    tokens = join_all(client, game)
    app: Any = client.app
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        welcome = hello(ws, 0, tokens[0])
        action = welcome["view"]["legal"][0]["action"]
        room = app.state.rooms.loaded_room(game["id"])
        # What another process did: commit the action to the database without this process's room knowing.
        other = replay_state(app.state.store.load(game["id"]))
        other.push(action)
        app.state.store.commit(game["id"], expected=0, actions=other.actions_text(), seat=0, client_id="lost",
                               kind="act", action=action, progress=progress_of(other))
        assert room.version == 0
        assert act(ws, action, 0, "lost") == {"type": "ack", "id": "lost", "version": 1}
        assert client.get(f"/api/games/{game['id']}").json()["version"] == 1


# --- text no id can hold, and text others read --------------------------------------------------------------
@pytest.fixture(params=["sqlite", "postgresql"])
def any_database_client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """The app on SQLite and on PostgreSQL, which refuses a NUL byte in text with an error instead of a miss."""
    def app(url: str) -> TestClient:
        return TestClient(create_app(url, client_limits=FAST), raise_server_exceptions=False)

    if request.param == "sqlite":
        with app(f"sqlite:///{tmp_path / 'games.db'}") as c:
            yield c
        return
    with fresh_postgres_database() as url, app(url) as c:
        yield c


ODD_IDS = ["abc%00", "%00", "a%01b", "a%E2%80%AEb", "x" * 65]


@pytest.mark.parametrize("odd", ODD_IDS)
def test_an_id_the_server_cannot_have_made_names_nothing_and_never_reaches_the_database(
        any_database_client: TestClient, odd: str) -> None:
    client = any_database_client
    for path in ("", "/record", "/replay", "/analysis", "/position?at=0"):
        answer = client.get(f"/api/games/{odd}{path}")
        assert answer.status_code == 404 and answer.json() == {"detail": "no such game"}, answer.text
    for path in ("/join", "/analysis"):
        assert client.post(f"/api/games/{odd}{path}", json={"invite": "x"}).status_code == 404
    assert client.get(f"/api/games?ids={odd},{odd}").json() == {"games": []}
    user = sign_up(client, "ann")
    for path in (f"/api/lobby/{odd}/join", f"/api/lobby/{odd}/leave", f"/api/lobby/{odd}/start"):
        assert user.post(path).json() == {"detail": "no such open game"}, path
    assert user.delete(f"/api/lobby/{odd}").status_code == 404
    assert user.post(f"/api/games/{odd}/rematch").json() == {"detail": "no such game"}
    with client.websocket_connect(f"/ws/{odd}") as ws:
        assert ws.receive_json() == {"type": "error", "code": "no_game", "message": "no such game"}


@pytest.mark.parametrize("text", ["a\u0000b", "\u202eevil", "\u001b[31mred", "a\u0007", "\ue000"])
def test_names_and_notes_others_read_refuse_control_and_invisible_characters(any_database_client: TestClient,
                                                                             text: str) -> None:
    client = any_database_client
    seats = [{"kind": "human", "name": text}, {"kind": "bot", "level": "beginner"}]
    answer = client.post("/api/games", json={"players": 2, "seats": seats})
    assert answer.status_code == 422 and "not allowed" in answer.json()["detail"][0]["msg"], answer.text
    user = sign_up(client, "ann")
    answer = user.post("/api/lobby", {"players": 2, "note": text})
    assert answer.status_code == 422 and answer.json()["detail"][0]["loc"] == ["body", "note"], answer.text


def test_names_keep_what_writing_needs(any_database_client: TestClient) -> None:
    client = any_database_client
    name = "Zoë \u0628\u200c\u0627 \U0001F600\u200d\U0001F525"  # a joiner in Persian and in an emoji
    game = new_game(client, seats=[{"kind": "human", "name": f"  {name}\n"}, {"kind": "bot"}])
    assert game["game"]["seats"][0]["name"] == name
    user = sign_up(client, "ann")
    made = user.post("/api/lobby", {"players": 2, "note": "come\tand  play"})
    assert made.status_code == 201 and made.json()["seek"]["note"] == "come and play"


def test_a_message_id_with_a_control_character_is_a_bad_message_and_changes_nothing(
        any_database_client: TestClient) -> None:
    client = any_database_client
    game = new_game(client)
    tokens = join_all(client, game)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        first = hello(ws, 0, tokens[0])["view"]["legal"][0]["action"]
        ws.send_json({"type": "act", "id": "a\u0000b", "version": 0, "action": first})
        answer = receive(ws, "error")
        assert answer["code"] == "bad_message" and "printable" in answer["message"]
        assert act(ws, first, 0, "fine")["version"] == 1  # the socket and the game go on


def test_a_resent_id_is_acknowledged_only_for_the_change_it_made(client: TestClient) -> None:
    # A client that reused an id for another change was told that change had been made (an outside probe).
    game = new_game(client)
    tokens = join_all(client, game)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        legal = [m["action"] for m in hello(ws, 0, tokens[0])["view"]["legal"]]
        assert act(ws, legal[0], 0, "S") == {"type": "ack", "id": "S", "version": 1}
        other = act(ws, legal[1], 0, "S")
        assert other["type"] == "rejected" and other["code"] == "duplicate_id", other
        ws.send_json({"type": "undo", "id": "S", "version": 0})
        assert receive(ws, "rejected")["code"] == "duplicate_id"
        assert act(ws, legal[0].upper(), 0, "S") == {"type": "ack", "id": "S", "version": 1}   # the same, re-sent
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 1


@pytest.mark.parametrize("sent, made, same", [
    ("keep climb", "keep climb bottom:lift,build", True), ("Keep  CLIMB", "keep climb bottom:lift,build", True),
    ("keep lift", "keep climb bottom:lift,build", False),
    ("keep climb bottom:lift,build", "keep climb bottom:build,lift", False),
    ("c5-c6", "c5-c6", True), ("C5 - C6", "c5-c6", False), ("end", "score", False), ("nonsense", "end", False)])
def test_a_resent_keep_in_short_is_the_keep_stored_in_full(sent: str, made: str, same: bool) -> None:
    from torres.server.rooms import _same_change
    assert _same_change("act", sent, "act", made) is same
    assert not _same_change("undo", None, "act", made)


def test_the_bot_speed_of_a_finished_game_stays_as_it_was(client: TestClient) -> None:
    game = new_game(client, hotseat=True, bot_speed="normal")
    tokens = {int(k): v for k, v in game["tokens"].items()}
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        play_randomly(ws, tokens, seed=3)
        ws.send_json({"type": "speed", "value": "fast"})
        assert receive(ws, "error")["code"] == "over"
    assert client.get(f"/api/games/{game['id']}").json()["bot_speed"] == "normal"


@pytest.mark.parametrize("depth", [40, 500])
def test_a_record_nested_deeper_than_any_record_is_a_422(client: TestClient, depth: int) -> None:
    # 500 levels of lists in a record's meta (3.5 KB) failed as a 500: the upload worker could not be handed the
    # record (pickling recursed too deeply)
    body = ('{"format": "torres-record", "rules": "riogrande", "players": 2, "seed": 1, "actions": [], "meta": {"x": '
            + "[" * depth + "]" * depth + "}}")
    response = client.post("/api/replay", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["detail"][0]["type"] == "json_invalid", response.text
