"""The accounts' security promises (issue #33, "Security tests"), each checked to fail when its protection is taken
out: no plain-text password in the database or the log, guessing slowed per account and per address, no session
fixation, CSRF refused, one account never acting for or seeing the private view of another's seat, and a websocket
opened by another site's page getting no cookie authority."""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import sqlite3
from pathlib import Path
from typing import Any, Iterator

import pytest
from fastapi.testclient import TestClient

from torres.server.app import create_app

from test_accounts import FAST, PASSWORD, csrf, guest_game, log_in, sign_up, use_cookie
from test_server import act, hello

NEW_PASSWORD = "Tr0ub4dor&3 and more"


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def client(db_file: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{db_file}", client_limits=FAST)) as c:
        yield c


def hello_with_cookie_only(ws: Any, seat: int) -> tuple[list[str], dict[str, Any]]:
    """Ask for ``seat`` with no token: the error codes answered before the welcome, and the welcome."""
    ws.send_json({"type": "hello", "seat": seat, "token": None, "version": None})
    errors: list[str] = []
    for _ in range(50):
        message = ws.receive_json()
        if message["type"] == "error":
            errors.append(message["code"])
        elif message["type"] == "welcome":
            return errors, message
    raise AssertionError("no welcome")


def every_stored_text(db_file: Path) -> str:
    """Every value of every table, as text."""
    out: list[str] = []
    with contextlib.closing(sqlite3.connect(db_file)) as db:
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        assert {"accounts", "sessions", "login_failures", "seats"} <= set(tables)
        for table in tables:
            for row in db.execute(f'SELECT * FROM "{table}"'):
                out.extend(str(value) for value in row)
    return "\n".join(out)


def test_passwords_are_never_stored_or_logged_in_plain_text(client: TestClient, db_file: Path,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)  # every logger, every level
    sign_up(client, password=PASSWORD)
    client.cookies.clear()
    assert client.post("/api/session", json={"username": "Ann", "password": NEW_PASSWORD}).status_code == 401
    assert client.post("/api/session", json={"username": "Nobody", "password": PASSWORD}).status_code == 401
    log_in(client, password=PASSWORD)
    assert client.post("/api/account/password", headers=csrf(client),
                       json={"old_password": PASSWORD, "new_password": NEW_PASSWORD}).status_code == 204
    assert client.post("/api/accounts", json={"username": "Bob", "password": PASSWORD, "x": 1}).status_code == 422
    stored = every_stored_text(db_file)
    for password in (PASSWORD, NEW_PASSWORD):
        assert password not in stored
        assert password not in caplog.text
    with contextlib.closing(sqlite3.connect(db_file)) as db:
        (hashed,) = db.execute("SELECT password_hash FROM accounts").fetchone()
    assert hashed.startswith("$argon2id$")


def test_guessing_is_slowed_per_account_and_per_address(db_file: Path) -> None:
    url = f"sqlite:///{db_file}"
    with TestClient(create_app(url), client=("10.0.0.1", 1000)) as here, \
            TestClient(create_app(url), client=("10.0.0.2", 1000)) as there:
        sign_up(here, "Ann")
        sign_up(here, "Bob")
        here.cookies.clear()
        # per account: guesses from two addresses add up, and then even the right password is refused unchecked
        for client in (here, there, here, there, here):
            assert client.post("/api/session", json={"username": "Ann", "password": "guess"}).status_code == 401
        refused = there.post("/api/session", json={"username": "Ann", "password": PASSWORD})
        assert refused.status_code == 429 and 800 < int(refused.headers["Retry-After"]) <= 900
        assert "set-cookie" not in refused.headers
        # per address: guesses at other names from the first address (3 failures so far) add up to 5 ...
        for name in ("Cid", "Dee"):
            assert here.post("/api/session", json={"username": name, "password": "guess"}).status_code == 401
        assert here.post("/api/session", json={"username": "Bob", "password": PASSWORD}).status_code == 429
        log_in(there, "Bob")  # ... and Bob himself, elsewhere (2 failures there), is not locked out


def test_guesses_sent_all_at_once_are_counted_as_they_come(db_file: Path) -> None:
    # counted only once each password had been checked, twelve guesses sent at once were all checked (an outside
    # probe); the limit is five
    with TestClient(create_app(f"sqlite:///{db_file}"), client=("10.0.0.3", 1000)) as client:
        sign_up(client, "Ann")
        client.cookies.clear()
        guess = {"username": "Ann", "password": "guess"}
        with concurrent.futures.ThreadPoolExecutor(12) as pool:
            answers = list(pool.map(lambda _: client.post("/api/session", json=guess).status_code, range(12)))
        assert sorted(answers) == [401] * 5 + [429] * 7
        assert client.post("/api/session", json={"username": "Ann", "password": PASSWORD}).status_code == 429


def test_a_right_password_does_not_count_against_its_address(db_file: Path) -> None:
    with TestClient(create_app(f"sqlite:///{db_file}"), client=("10.0.0.4", 1000)) as client:
        sign_up(client, "Ann")
        for _ in range(8):  # more log-ins than the limit, all right: nobody is locked out
            client.cookies.clear()
            log_in(client, "Ann")


def test_a_session_id_set_before_log_in_is_never_the_session_after_it(client: TestClient) -> None:
    sign_up(client)
    first = client.cookies["torres_session"]
    # an attacker plants a session id of their choosing (or one of theirs) in the victim's browser
    client.cookies.clear()
    planted = "attacker-chosen-session-id"
    use_cookie(client, planted)
    log_in(client)
    after = client.cookies["torres_session"]
    assert after != planted
    use_cookie(client, planted)
    assert client.get("/api/session").json()["account"] is None  # the planted id opens nothing
    # a live session id is replaced at log-in too, and the old one ends
    use_cookie(client, after)
    log_in(client)
    again = client.cookies["torres_session"]
    assert again not in (after, first)
    use_cookie(client, after)
    assert client.get("/api/session").json()["account"] is None
    use_cookie(client, again)
    assert client.get("/api/session").json()["account"]["username"] == "Ann"


def test_cookie_authenticated_changes_without_the_csrf_token_are_refused(client: TestClient, db_file: Path) -> None:
    game_id, token = guest_game(client)
    sign_up(client)
    changes: list[tuple[str, str, dict[str, Any]]] = [
        ("POST", "/api/account/password", {"old_password": PASSWORD, "new_password": NEW_PASSWORD}),
        ("POST", "/api/account/seats", {"seats": [{"game": game_id, "seat": 0, "token": token}]}),
        ("DELETE", "/api/account", {"password": PASSWORD}),
        ("DELETE", "/api/session", {}),
    ]
    for headers in ({}, {"X-CSRF-Token": "wrong"}, {"X-CSRF-Token": ""}):
        for method, path, body in changes:
            answer = client.request(method, path, headers=headers, json=body or None)
            assert answer.status_code == 403, (method, path, headers, answer.text)
    # nothing changed: same session, same password, no seat attached, the account is there
    assert client.get("/api/session").json()["account"]["username"] == "Ann"
    assert client.get(f"/api/games/{game_id}").json()["seats"][0]["account"] is None
    client.cookies.clear()
    log_in(client, password=PASSWORD)
    # and with the token each works
    assert client.post("/api/account/seats", headers=csrf(client), json=changes[1][2]).status_code == 200


def test_log_in_and_sign_up_from_another_sites_page_are_refused(client: TestClient) -> None:
    evil = {"Origin": "https://evil.example"}
    answer = client.post("/api/accounts", headers=evil, json={"username": "Ann", "password": PASSWORD})
    assert answer.status_code == 403
    sign_up(client)
    client.cookies.clear()
    assert client.post("/api/session", headers=evil, json={"username": "Ann", "password": PASSWORD}).status_code == 403
    ours = {"Origin": "http://testserver"}
    assert client.post("/api/session", headers=ours, json={"username": "Ann", "password": PASSWORD}).status_code == 200


def test_another_account_cannot_act_for_or_see_the_private_view_of_a_seat(client: TestClient) -> None:
    game_id, token = guest_game(client)
    sign_up(client, "Ann", seats=[{"game": game_id, "seat": 0, "token": token}])
    ann_cookie = client.cookies["torres_session"]
    client.cookies.clear()
    sign_up(client, "Bob")
    with client.websocket_connect(f"/ws/{game_id}") as bob:
        errors, welcome = hello_with_cookie_only(bob, 0)
        assert errors == ["bad_token"] and welcome["seat"] is None
        view = welcome["view"]  # the public view: no seat, no legal actions, no deck knowledge, no hand
        assert view["seat"] is None and view["legal"] == [] and view["deck_known"] == [] and view["hand"] == {}
        assert act(bob, "start d8", welcome["version"], "b1")["code"] == "no_seat"
    # Ann's own cookie does open it (so the refusal above is about Bob, not about cookies)
    use_cookie(client, ann_cookie)
    with client.websocket_connect(f"/ws/{game_id}") as ann:
        welcome = hello(ann, 0, None)
        assert welcome["seat"] == 0 and welcome["view"]["legal"]
    # once Ann deletes her account, her old cookie opens nothing
    assert client.request("DELETE", "/api/account", headers=csrf(client), json={"password": PASSWORD}
                          ).status_code == 204
    use_cookie(client, ann_cookie)
    with client.websocket_connect(f"/ws/{game_id}") as ghost:
        errors, welcome = hello_with_cookie_only(ghost, 0)
        assert errors == ["bad_token"] and welcome["seat"] is None


def test_a_websocket_from_another_sites_page_gets_no_cookie_authority(client: TestClient) -> None:
    game_id, token = guest_game(client)
    sign_up(client, seats=[{"game": game_id, "seat": 0, "token": token}])
    with client.websocket_connect(f"/ws/{game_id}", headers={"Origin": "https://evil.example"}) as hijacked:
        errors, welcome = hello_with_cookie_only(hijacked, 0)
        assert errors == ["bad_token"] and welcome["seat"] is None and welcome["view"]["legal"] == []
    with client.websocket_connect(f"/ws/{game_id}", headers={"Origin": "http://testserver"}) as ours:
        assert hello(ours, 0, None)["seat"] == 0
