"""Accounts (issue #33, docs/server.md "Accounts"): sign up, log in and out, change the password, delete the account
(its games stay, anonymised), sessions in a cookie, and seats that attach to the account at log-in so another
device opens them with only its session cookie."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any, Iterator

import pytest
from fastapi.testclient import TestClient

from torres.server.app import create_app
from torres.server.protocol import Limits

from test_server import act, hello, new_game, receive
from conftest import fresh_postgres_database

FAST = Limits(burst=100_000, per_second=100_000)
PASSWORD = "correct horse battery"


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def client(db_file: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{db_file}", client_limits=FAST)) as c:
        yield c


def sign_up(client: TestClient, username: str = "Ann", password: str = PASSWORD, **extra: Any) -> dict[str, Any]:
    answer = client.post("/api/accounts", json={"username": username, "password": password, **extra})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def log_in(client: TestClient, username: str = "Ann", password: str = PASSWORD, **extra: Any) -> dict[str, Any]:
    answer = client.post("/api/session", json={"username": username, "password": password, **extra})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def csrf(client: TestClient) -> dict[str, str]:
    """The header a cookie-authenticated change needs, as the page learns it."""
    token = client.get("/api/session").json()["csrf"]
    assert token
    return {"X-CSRF-Token": token}


def use_cookie(client: TestClient, session_id: str) -> None:
    """Make the browser send this session cookie (and no other)."""
    client.cookies.clear()
    client.cookies.set("torres_session", session_id, domain="testserver.local")  # where the server's cookie lives


def rows(db_file: Path, query: str, *args: Any) -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(db_file)) as db:
        return list(db.execute(query, args).fetchall())


def guest_game(client: TestClient) -> tuple[str, str]:
    """A game made by a guest (Ann at seat 0, Bob's seat waiting for its invite): its id and seat 0's token."""
    game = new_game(client)
    return game["id"], game["tokens"]["0"]


def test_sign_up_logs_in_with_a_session_cookie(client: TestClient, db_file: Path) -> None:
    assert client.get("/api/session").json() == {"account": None, "csrf": None}
    answer = client.post("/api/accounts", json={"username": "Ann_1", "password": PASSWORD})
    assert answer.status_code == 201
    body = answer.json()
    assert body["account"]["username"] == "Ann_1" and isinstance(body["account"]["id"], int)
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("torres_session=")
    for attribute in ("HttpOnly", "Path=/", "SameSite=lax", f"Max-Age={30 * 24 * 3600}"):
        assert attribute in cookie
    assert "Secure" not in cookie  # plain http here: a Secure cookie would never come back
    assert client.get("/api/session").json() == {"account": body["account"], "csrf": body["csrf"]}
    # the database keeps the session id's hash only
    session_id = client.cookies["torres_session"]
    assert rows(db_file, "SELECT count(*) FROM sessions WHERE id_hash = ?", session_id) == [(0,)]
    assert rows(db_file, "SELECT count(*) FROM sessions") == [(1,)]


def test_the_cookie_is_secure_over_https(db_file: Path) -> None:
    with TestClient(create_app(f"sqlite:///{db_file}"), base_url="https://testserver") as client:
        answer = client.post("/api/accounts", json={"username": "Ann", "password": PASSWORD})
        assert answer.status_code == 201
        assert "Secure" in answer.headers["set-cookie"]


def test_names_are_unique_ignoring_case_and_bodies_are_bounded(client: TestClient) -> None:
    sign_up(client, "Ann")
    client.cookies.clear()
    taken = client.post("/api/accounts", json={"username": "aNN", "password": PASSWORD})
    assert taken.status_code == 409 and "taken" in taken.json()["detail"]
    for body in ({"username": "an", "password": PASSWORD},                  # too short
                 {"username": "a" * 25, "password": PASSWORD},              # too long
                 {"username": "Ann Smith", "password": PASSWORD},           # a space
                 {"username": "<script>", "password": PASSWORD},
                 {"username": "Ånn", "password": PASSWORD},
                 {"username": "deleted-7", "password": PASSWORD},           # the names of deleted accounts
                 {"username": "Cid", "password": "short"},
                 {"username": "Cid", "password": "x" * 201},
                 {"username": "Cid", "password": 12345678},
                 {"username": "Cid", "password": PASSWORD, "admin": True},  # unknown fields
                 {"username": "Cid", "password": PASSWORD,
                  "seats": [{"game": "g", "seat": 0, "token": "t"}] * 51},  # at most 50 seats
                 {"username": "Cid", "password": PASSWORD, "seats": [{"game": "g", "seat": 9, "token": "t"}]}):
        answer = client.post("/api/accounts", json=body)
        assert answer.status_code == 422, (body, answer.text)
        assert "x" * 201 not in answer.text and PASSWORD not in answer.text  # the input is not echoed back
    assert client.post("/api/session", json={"username": "Ann", "password": PASSWORD, "x": 1}).status_code == 422
    assert client.post("/api/session", content=b"{not json", headers={"content-type": "application/json"}
                       ).status_code == 422
    assert client.get("/api/session").json()["account"] is None


def test_odd_input_is_a_422_never_a_500(client: TestClient) -> None:
    sign_up(client)
    for body in (b'{"username": "Ann", "password": "\\ud800\\udfff\\ud800xxxxxx"}',  # a pair is fine: 401
                 b'{"username": "Ann", "password": "\\ud800xxxxxxxxx"}',  # a lone surrogate has no UTF-8
                 b'{"username": "A\\u0000n", "password": "xxxxxxxxxx"}',  # PostgreSQL refuses NUL in text
                 b'{"username": "Ann", "password": NaN}'):
        for path in ("/api/session", "/api/accounts"):
            answer = client.post(path, content=body, headers={"content-type": "application/json"})
            assert answer.status_code in (401, 409, 422), (path, body, answer.text)
    seats = {"seats": [{"game": "g\u0000", "seat": 0, "token": "t"}]}
    assert client.post("/api/account/seats", headers=csrf(client), json=seats).status_code == 422
    for origin in ("http://[::1", "null", ""):
        answer = client.post("/api/session", headers={"Origin": origin}, json={"username": "Ann", "password": "x"})
        assert answer.status_code == 403, (origin, answer.text)
        with client.websocket_connect("/ws/nosuchgame", headers={"Origin": origin}) as ws:
            assert ws.receive_json()["code"] == "no_game"


def test_a_wrong_password_and_an_unknown_name_get_the_same_401(client: TestClient) -> None:
    sign_up(client)
    client.cookies.clear()
    wrong_password = client.post("/api/session", json={"username": "Ann", "password": "not the password"})
    unknown_name = client.post("/api/session", json={"username": "Nobody", "password": "not the password"})
    assert wrong_password.status_code == unknown_name.status_code == 401
    assert wrong_password.json() == unknown_name.json() == {"detail": "wrong username or password"}
    assert "set-cookie" not in wrong_password.headers
    assert log_in(client, "ANN")["account"]["username"] == "Ann"  # the name is found ignoring case


def test_log_out_ends_the_session(client: TestClient, db_file: Path) -> None:
    sign_up(client)
    old_cookie = client.cookies["torres_session"]
    answer = client.delete("/api/session", headers=csrf(client))
    assert answer.status_code == 204
    assert 'torres_session=""' in answer.headers["set-cookie"] or "Max-Age=0" in answer.headers["set-cookie"]
    assert rows(db_file, "SELECT count(*) FROM sessions") == [(0,)]
    assert client.get("/api/session").json()["account"] is None
    # the old cookie, kept by someone, opens nothing
    use_cookie(client, old_cookie)
    assert client.get("/api/session").json()["account"] is None
    assert client.delete("/api/session").status_code == 204  # logging out with no live session is harmless


def test_changing_the_password_ends_the_other_sessions(client: TestClient, db_file: Path) -> None:
    sign_up(client)
    client.cookies.clear()
    log_in(client)
    laptop = client.cookies["torres_session"]
    client.cookies.clear()
    log_in(client)
    phone = client.cookies["torres_session"]
    wrong = client.post("/api/account/password", headers=csrf(client),
                        json={"old_password": "not the password", "new_password": "a new password"})
    assert wrong.status_code == 403
    answer = client.post("/api/account/password", headers=csrf(client),
                         json={"old_password": PASSWORD, "new_password": "a new password"})
    assert answer.status_code == 204
    now_phone = client.cookies["torres_session"]
    assert now_phone != phone  # a new session id for this browser
    assert client.get("/api/session").json()["account"]["username"] == "Ann"
    assert rows(db_file, "SELECT count(*) FROM sessions") == [(1,)]
    for old in (laptop, phone):
        use_cookie(client, old)
        assert client.get("/api/session").json()["account"] is None
    client.cookies.clear()
    assert client.post("/api/session", json={"username": "Ann", "password": PASSWORD}).status_code == 401
    log_in(client, password="a new password")
    too_short = client.post("/api/account/password", headers=csrf(client),
                            json={"old_password": "a new password", "new_password": "short"})
    assert too_short.status_code == 422


def test_deleting_the_account_keeps_its_games_anonymised(client: TestClient, db_file: Path) -> None:
    game_id, token = guest_game(client)
    account = sign_up(client, seats=[{"game": game_id, "seat": 0, "token": token}])["account"]
    assert client.get(f"/api/games/{game_id}").json()["seats"][0]["account"] == "Ann"
    rows(db_file, "SELECT 1")  # (the file exists)
    with contextlib.closing(sqlite3.connect(db_file)) as db:
        db.execute("INSERT INTO ratings (account_id, players, mu, sigma, games, updated) "
                   "VALUES (?, 2, 25, 8, 0, '2026-01-01 00:00:00')", (account["id"],))
        db.commit()
    wrong = client.request("DELETE", "/api/account", headers=csrf(client), json={"password": "not the password"})
    assert wrong.status_code == 403
    answer = client.request("DELETE", "/api/account", headers=csrf(client), json={"password": PASSWORD})
    assert answer.status_code == 204
    assert client.get("/api/session").json()["account"] is None
    name = f"deleted-{account['id']}"
    assert rows(db_file, "SELECT username, username_key, password_hash, deleted FROM accounts") == [
        (name, name, None, 1)]
    assert rows(db_file, "SELECT count(*) FROM sessions") == [(0,)]
    assert rows(db_file, "SELECT count(*) FROM ratings") == [(0,)]
    assert rows(db_file, "SELECT account_id, name FROM seats WHERE game_id = ? AND seat = 0", game_id) == [
        (None, "Deleted player")]
    summary = client.get(f"/api/games/{game_id}").json()  # the game stays
    assert summary["seats"][0]["account"] is None and summary["seats"][0]["name"] == "Deleted player"
    assert client.post("/api/session", json={"username": "Ann", "password": PASSWORD}).status_code == 401
    sign_up(client, "Ann")  # the name is free again


def test_seats_attach_at_log_in_and_open_on_another_device_with_only_the_cookie(client: TestClient) -> None:
    game_id, token = guest_game(client)
    other_id, other_token = guest_game(client)
    sign_up(client)
    client.cookies.clear()
    # the laptop logs in holding the seat's token (and a wrong one, and one for a seat that is not there)
    answer = log_in(client, seats=[{"game": game_id, "seat": 0, "token": token},
                                   {"game": other_id, "seat": 0, "token": "not-the-token"},
                                   {"game": other_id, "seat": 1, "token": other_token},
                                   {"game": "nosuchgame", "seat": 0, "token": token}])
    assert answer["attached"] == [{"game": game_id, "seat": 0}]
    assert client.get(f"/api/games/{game_id}").json()["seats"][0]["account"] == "Ann"
    assert client.get(f"/api/games/{other_id}").json()["seats"][0]["account"] is None
    # the phone: a fresh browser that logs in, knowing no token
    client.cookies.clear()
    log_in(client)
    with client.websocket_connect(f"/ws/{game_id}") as phone:
        welcome = hello(phone, 0, None)
        assert welcome["seat"] == 0 and welcome["view"]["seat"] == 0 and welcome["view"]["legal"]
        assert act(phone, "start d8", welcome["version"], "a1")["type"] == "ack"
    # the guest's token still works as before
    client.cookies.clear()
    with client.websocket_connect(f"/ws/{game_id}") as laptop:
        assert hello(laptop, 0, token)["seat"] == 0


def test_a_page_that_opened_a_seat_by_its_session_loses_it_when_the_session_ends(client: TestClient) -> None:
    # An outside probe: after a password change "every other session ends", yet a socket the old session had open
    # went on acting for the seat, and could say hello to it again.
    game_id, token = guest_game(client)
    sign_up(client, seats=[{"game": game_id, "seat": 0, "token": token}])
    old_session = client.cookies["torres_session"]
    with client.websocket_connect(f"/ws/{game_id}") as page:  # the old session's page, its seat by the cookie
        welcome = hello(page, 0, None)
        assert welcome["seat"] == 0 and act(page, "start d8", welcome["version"], "a1")["type"] == "ack"
        client.cookies.clear()
        log_in(client)  # elsewhere, the password is changed: every other session ends
        changed = client.post("/api/account/password", headers=csrf(client),
                              json={"old_password": PASSWORD, "new_password": "another good password"})
        assert changed.status_code == 204
        refused = act(page, "king c6", welcome["version"] + 1, "a2")
        assert refused["type"] == "rejected" and refused["code"] == "no_seat" and "session" in refused["message"]
        again = hello(page, 0, None)  # the old cookie opens the seat no more ...
        assert again["seat"] is None
        assert hello(page, 0, token)["seat"] == 0  # ... though the seat's own token still does
    assert old_session != client.cookies["torres_session"]


def test_seats_attach_later_and_pages_see_who_sits_there(client: TestClient) -> None:
    game_id, token = guest_game(client)
    sign_up(client)
    with client.websocket_connect(f"/ws/{game_id}") as page:
        hello(page, None, None)
        seats = [{"game": game_id, "seat": 0, "token": token}]
        assert client.post("/api/account/seats", json={"seats": seats}).status_code == 403  # no CSRF token
        answer = client.post("/api/account/seats", headers=csrf(client), json={"seats": seats})
        assert answer.status_code == 200 and answer.json() == {"attached": [{"game": game_id, "seat": 0}]}
        assert receive(page, "game")["game"]["seats"][0]["account"] == "Ann"
    # attaching again is harmless; another account cannot take the seat over with the same token
    assert client.post("/api/account/seats", headers=csrf(client), json={"seats": seats}).json()["attached"] == [
        {"game": game_id, "seat": 0}]
    client.cookies.clear()
    sign_up(client, "Bob")
    assert client.post("/api/account/seats", headers=csrf(client), json={"seats": seats}).json()["attached"] == []
    too_many = client.post("/api/account/seats", headers=csrf(client), json={"seats": seats * 51})
    assert too_many.status_code == 422
    client.cookies.clear()
    assert client.post("/api/account/seats", json={"seats": seats}).status_code == 401


# --- several processes: the counts of failed log-ins live in the database ------------------------------------
@pytest.fixture(params=["sqlite", "postgresql"])
def shared_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
        return
    with fresh_postgres_database() as url:
        yield url


@pytest.fixture
def two_processes(shared_database: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two servers on one database, each seeing requests from its own client address."""
    with TestClient(create_app(shared_database), client=("10.0.0.1", 1000)) as first, \
            TestClient(create_app(shared_database), client=("10.0.0.2", 1000)) as second:
        yield first, second


def test_guessing_is_counted_across_processes(two_processes: tuple[TestClient, TestClient]) -> None:
    first, second = two_processes
    sign_up(first)
    first.cookies.clear()
    wrong = {"username": "Ann", "password": "not the password"}
    for client in (first, first, first, second, second):
        assert client.post("/api/session", json=wrong).status_code == 401
    for client in (first, second):
        refused = client.post("/api/session", json={"username": "Ann", "password": PASSWORD})
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 800


def test_a_successful_log_in_clears_the_accounts_count(two_processes: tuple[TestClient, TestClient]) -> None:
    first, second = two_processes
    sign_up(first)
    first.cookies.clear()
    wrong = {"username": "Ann", "password": "not the password"}
    for _ in range(4):
        assert first.post("/api/session", json=wrong).status_code == 401
    log_in(second)
    assert second.post("/api/session", json=wrong).status_code == 401  # 1 failure since the log-in, not 5
    log_in(second)
