"""The lobby (docs/server.md, "Lobby"): seeks made, listed, joined, left, cancelled and started (with bots), the
live lobby socket and its "started" message, presence and abandoned seeks, the race for a seek's last seat (two
apps on one database: one game), a player's games in progress, and exactly one rematch per finished game. With
TORRES_TEST_POSTGRES and TORRES_TEST_REDIS set, the same across two apps sharing PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select, text, update

from torres.engine.rules import Rules
from torres.engine.state import GameState
from torres.server import lobby as lobby_module
from torres.server.accounts import CSRF_HEADER, SESSION_COOKIE
from torres.server.app import create_app
from torres.server.rooms import progress_of
from torres.server.store import GameRow, SeekRow, Store, database_url, now
from conftest import fast_limits, fresh_postgres_database, need_services

FAST = fast_limits()
POSTGRES = os.environ.get("TORRES_TEST_POSTGRES")
REDIS = os.environ.get("TORRES_TEST_REDIS")
LIVE = {"kind": "live", "seconds": 300, "increment": 5}


class User:
    """A logged-in account talking to one app: its cookie and CSRF token go with every request."""

    def __init__(self, client: TestClient, username: str, session: str, csrf: str, account_id: int) -> None:
        self.client, self.username, self.session, self.csrf, self.id = client, username, session, csrf, account_id

    @property
    def headers(self) -> dict[str, str]:
        return {"Cookie": f"{SESSION_COOKIE}={self.session}", CSRF_HEADER: self.csrf}

    def on(self, client: TestClient) -> "User":
        """The same session used on another app (process) sharing the database."""
        return User(client, self.username, self.session, self.csrf, self.id)

    def get(self, path: str) -> Any:
        return self.client.get(path, headers=self.headers)

    def post(self, path: str, body: Any = None) -> Any:
        return self.client.post(path, json=body, headers=self.headers)

    def delete(self, path: str) -> Any:
        return self.client.delete(path, headers=self.headers)

    def socket(self, path: str = "/ws/lobby") -> Any:
        return self.client.websocket_connect(path, headers={"Cookie": f"{SESSION_COOKIE}={self.session}"})


def sign_up(client: TestClient, username: str) -> User:
    answer = client.post("/api/accounts", json={"username": username, "password": "correct horse battery"})
    assert answer.status_code == 201, answer.text
    session = answer.cookies[SESSION_COOKIE]
    client.cookies.clear()  # every request names its user's cookie itself
    body = answer.json()
    return User(client, username, session, body["csrf"], body["account"]["id"])


def seek(user: User, **body: Any) -> dict[str, Any]:
    body.setdefault("players", 2)
    answer = user.post("/api/lobby", body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def next_of(ws: Any, kind: str, where: Callable[[dict[str, Any]], bool] = lambda m: True) -> dict[str, Any]:
    for _ in range(50):
        message = dict(ws.receive_json())
        if message["type"] == kind and where(message):
            return message
    raise AssertionError(f"no {kind!r} message")


Wanted = tuple[str, Callable[[dict[str, Any]], bool]]


def all_of(ws: Any, *wanted: Wanted) -> list[dict[str, Any]]:
    """The first message matching each of ``wanted``, whatever order they come in: messages announced across
    processes may overtake one another (a page's lobby read can beat a "started" that waits on its own read)."""
    found: list[dict[str, Any] | None] = [None] * len(wanted)
    for _ in range(50):
        message = dict(ws.receive_json())
        for i, (kind, where) in enumerate(wanted):
            if found[i] is None and message["type"] == kind and where(message):
                found[i] = message
                break
        if all(found):
            return [m for m in found if m is not None]
    raise AssertionError(f"not all of {[kind for kind, _ in wanted]} came: {found}")


@pytest.fixture
def two_clients(db: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two apps on one database file: two processes, each with its own event loop and connections."""
    with TestClient(create_app(db, client_limits=FAST)) as first:
        with TestClient(create_app(db, client_limits=FAST)) as second:
            yield first, second


def games_in(db: str) -> int:
    engine = create_engine(database_url(db))
    try:
        with engine.connect() as connection:
            return int(connection.scalar(select(func.count()).select_from(GameRow)) or 0)
    finally:
        engine.dispose()


# --- seeks ---------------------------------------------------------------------------------------------------
def test_a_seek_is_listed_joined_and_started_and_both_players_hear_of_it(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    with ann.socket() as ann_ws, bob.socket() as bob_ws:
        assert next_of(ann_ws, "lobby")["seeks"] == []
        next_of(bob_ws, "lobby")
        made = seek(ann, edition="riogrande", card_mode="common", clock=LIVE, note="friendly")
        listed = next_of(bob_ws, "lobby", lambda m: bool(m["seeks"]))["seeks"]
        assert listed == [made["seek"]]
        assert made["seek"]["creator"] == "ann" and made["seek"]["joined"] == ["ann"]
        assert made["seek"]["clock"] == LIVE and made["seek"]["edition"] == "riogrande"
        assert "card_mode=common" in made["seek"]["rules"] and made["seek"]["rated"] is False
        assert client.get("/api/lobby").json()["seeks"] == [made["seek"]]

        joined = bob.post(f"/api/lobby/{made['id']}/join")
        assert joined.status_code == 200, joined.text
        game_id = joined.json()["game"]
        assert game_id
        for ws in (ann_ws, bob_ws):
            assert next_of(ws, "started") == {"type": "started", "seek": made["id"], "game": game_id}
            next_of(ws, "lobby", lambda m: m["seeks"] == [])  # the full seek is gone
    assert client.get("/api/lobby").json()["seeks"] == []
    game = client.get(f"/api/games/{game_id}").json()
    assert sorted(s["account"] for s in game["seats"]) == ["ann", "bob"]
    assert sorted(s["name"] for s in game["seats"]) == ["ann", "bob"]
    assert all(s["kind"] == "human" and s["claimed"] for s in game["seats"])
    assert game["rules"] == made["seek"]["rules"] and game["clock"]["spec"] == "live:300+5"
    # the seat opens for its account, without a token
    seat = next(s["seat"] for s in game["seats"] if s["account"] == "bob")
    with bob.socket(f"/ws/{game_id}") as ws:
        ws.send_json({"type": "hello", "seat": seat})
        assert next_of(ws, "welcome")["seat"] == seat
    assert bob.post(f"/api/lobby/{made['id']}/join").status_code == 409  # started


def test_join_leave_cancel_and_their_refusals(client: TestClient) -> None:
    ann, bob, cat = sign_up(client, "ann"), sign_up(client, "bob"), sign_up(client, "cat")
    made = seek(ann, players=3)
    path = f"/api/lobby/{made['id']}"
    assert bob.post(path + "/join").json() == {"seek": {**made["seek"], "joined": ["ann", "bob"]}, "game": None}
    assert bob.post(path + "/join").status_code == 409  # twice
    assert ann.post(path + "/join").status_code == 409  # the creator sits in it already
    assert cat.post(path + "/leave").status_code == 409  # not in it
    assert ann.post(path + "/leave").status_code == 409  # the creator cancels instead
    assert bob.post(path + "/leave").status_code == 204
    assert client.get("/api/lobby").json()["seeks"][0]["joined"] == ["ann"]
    assert bob.delete(path).status_code == 403  # only the creator cancels
    assert ann.delete(path).status_code == 204
    assert client.get("/api/lobby").json()["seeks"] == []
    for answer in (bob.post(path + "/join"), ann.delete(path), bob.post(path + "/leave")):
        assert answer.status_code == 409 and "cancelled" in answer.json()["detail"]
    for answer in (bob.post("/api/lobby/nosuchseek/join"), ann.delete("/api/lobby/nosuchseek"),
                   ann.post("/api/lobby/" + "x" * 300 + "/start")):
        assert answer.status_code == 404


def test_a_seek_with_bots_starts_when_its_creator_says(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    made = seek(ann, players=4, bots="strong")
    assert bob.post(f"/api/lobby/{made['id']}/join").json()["game"] is None
    assert bob.post(f"/api/lobby/{made['id']}/start").status_code == 403
    started = ann.post(f"/api/lobby/{made['id']}/start")
    assert started.status_code == 200, started.text
    game = client.get(f"/api/games/{started.json()['game']}").json()
    assert sorted((s["kind"], s["account"]) for s in game["seats"]) == [
        ("bot", None), ("bot", None), ("human", "ann"), ("human", "bob")]
    assert {s["level"] for s in game["seats"] if s["kind"] == "bot"} == {"strong"}
    assert {s["name"] for s in game["seats"] if s["kind"] == "bot"} == {"Strong bot"}
    assert ann.post(f"/api/lobby/{made['id']}/start").status_code == 409  # once
    waiting = seek(ann)  # no bots: it waits for people
    refused = ann.post(f"/api/lobby/{waiting['id']}/start")
    assert refused.status_code == 409 and "bots" in refused.json()["detail"]


def test_seeks_are_validated_like_new_games(client: TestClient) -> None:
    ann = sign_up(client, "ann")
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"rated": True, "bots": "casual", "clock": LIVE}, 422, "no bots"),
        ({"rated": True}, 422, "needs a clock"),
        ({"edition": "nosuch"}, 400, "unknown edition"),
        ({"edition": "riogrande:stack_cap=99"}, 400, "stack_cap"),
        ({"note": "x" * 81}, 422, "note"),
        ({"players": 5}, 422, "players"),
        ({"clock": {"kind": "live", "seconds": 5}}, 422, "seconds"),
        ({"bots": "godlike"}, 422, "bots"),
        ({"seats": []}, 422, "seats"),  # no unknown fields
    ]
    for body, status, words in cases:
        answer = ann.post("/api/lobby", {"players": 2, **body})
        assert answer.status_code == status, (body, answer.text)
        assert words in answer.text, (body, answer.text)
    rated = seek(ann, rated=True, clock={"kind": "correspondence", "days": 3})
    assert rated["seek"]["rated"] is True and rated["seek"]["clock"] == {"kind": "correspondence", "days": 3}


def test_a_player_sits_in_a_few_open_seeks_at_most(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    for _ in range(lobby_module.MAX_OPEN_SEEKS):
        seek(ann, players=3)
    assert ann.post("/api/lobby", {"players": 2}).status_code == 409
    others = [seek(bob, players=3)["id"] for _ in range(lobby_module.MAX_OPEN_SEEKS)]
    assert ann.post(f"/api/lobby/{others[0]}/join").status_code == 409


def test_changes_need_the_session_and_its_csrf_token_and_act_for_that_account_only(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    assert client.post("/api/lobby", json={"players": 2}).status_code == 401
    no_csrf = {"Cookie": f"{SESSION_COOKIE}={ann.session}"}
    assert client.post("/api/lobby", json={"players": 2}, headers=no_csrf).status_code == 403
    made = seek(ann)
    assert client.post(f"/api/lobby/{made['id']}/join").status_code == 401
    wrong = {"Cookie": f"{SESSION_COOKIE}={bob.session}", CSRF_HEADER: ann.csrf}
    assert client.post(f"/api/lobby/{made['id']}/join", headers=wrong).status_code == 403
    # the seat goes to the session's account whatever the body names
    joined = client.post(f"/api/lobby/{made['id']}/join", json={"account": ann.id, "username": "ann"},
                         headers=bob.headers)
    assert joined.status_code == 200 and sorted(joined.json()["seek"]["joined"]) == ["ann", "bob"]
    game = client.get(f"/api/games/{joined.json()['game']}").json()
    assert sorted(s["account"] for s in game["seats"]) == ["ann", "bob"]
    assert client.delete(f"/api/lobby/{seek(bob)['id']}", headers=ann.headers).status_code == 403


def test_seek_text_comes_back_as_plain_json_text(client: TestClient) -> None:
    ann = sign_up(client, "ann")
    note = '<script>alert("x")</script> & <img src=x onerror=alert(1)>'
    made = seek(ann, note=note)
    assert made["seek"]["note"] == note
    answer = client.get("/api/lobby")
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.json()["seeks"][0]["note"] == note
    with ann.socket() as ws:
        assert next_of(ws, "lobby")["seeks"][0]["note"] == note
    refused = client.post("/api/accounts", json={"username": "<script>", "password": "correct horse battery"})
    assert refused.status_code == 422


# --- presence and abandoned seeks ----------------------------------------------------------------------------
def test_a_game_started_while_a_lobby_page_opens_reaches_that_page(client: TestClient,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's first lobby read takes a while (a busy database): a "started" sent meanwhile is not lost."""
    import conftest

    monkeypatch.setattr(conftest, "SOCKET_DEADLINE", 15.0)  # the message lost would never come
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    made = seek(ann)
    joined = threading.Event()
    read_lobby = lobby_module.Lobby.lobby_text

    async def after_the_join(self: lobby_module.Lobby) -> str:
        await asyncio.to_thread(joined.wait, 30)
        return await read_lobby(self)
    monkeypatch.setattr(lobby_module.Lobby, "lobby_text", after_the_join)
    with ann.socket() as ann_ws:  # accepted; its first read waits for the join
        game = bob.post(f"/api/lobby/{made['id']}/join").json()["game"]
        joined.set()
        started, _ = all_of(ann_ws, ("started", lambda m: True), ("lobby", lambda m: m["seeks"] == []))
        assert started == {"type": "started", "seek": made["id"], "game": game}


def test_a_lobby_changed_while_a_page_opens_is_not_followed_by_the_older_one(client: TestClient,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's first read is taken, then held (a busy moment); a seek opened meanwhile reaches the page, and the
    page's own older read is not sent after it."""
    import conftest

    monkeypatch.setattr(conftest, "SOCKET_DEADLINE", 15.0)
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    taken, release = threading.Event(), threading.Event()
    read_lobby = lobby_module.Lobby.lobby_text
    calls = []

    async def first_read_held(self: lobby_module.Lobby) -> str:
        calls.append(1)
        text = await read_lobby(self)
        if len(calls) == 1:  # the page's own first read: no seek in it
            taken.set()
            await asyncio.to_thread(release.wait, 30)
        return text
    monkeypatch.setattr(lobby_module.Lobby, "lobby_text", first_read_held)
    with ann.socket() as ann_ws:
        assert taken.wait(30)
        made = seek(bob)
        assert next_of(ann_ws, "lobby", lambda m: bool(m["seeks"]))["seeks"][0]["id"] == made["id"]
        release.set()
        ann_ws.send_json({"type": "ping"})
        heard = []
        while not heard or heard[-1]["type"] != "pong":
            heard.append(dict(ann_ws.receive_json()))
        assert all(m["seeks"] for m in heard if m["type"] == "lobby"), heard  # nothing older came after it


def test_who_is_online_and_seeks_whose_creator_left(client: TestClient) -> None:
    lobby: lobby_module.Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    assert client.get("/api/lobby").json()["online"] == []
    with bob.socket() as bob_ws:
        assert "bob" in next_of(bob_ws, "lobby")["online"]
        made = seek(ann)  # opening a seek counts as a page open
        next_of(bob_ws, "lobby", lambda m: bool(m["seeks"]))
        assert client.get("/api/lobby").json()["online"] == ["ann", "bob"]
        at = now()
        assert client.portal.call(lobby.sweep, at + timedelta(seconds=29)) == []  # type: ignore[union-attr]
        assert client.get("/api/lobby").json()["seeks"] != []
        # Bob's page stays open (the presence loop writes it down); Ann's never opened: her seek is cancelled
        client.portal.call(lobby.store.call, lobby_module.mark_present, lobby.store,  # type: ignore[union-attr]
                           [bob.id], at + timedelta(seconds=31))
        cancelled = client.portal.call(lobby.sweep, at + timedelta(seconds=31))  # type: ignore[union-attr]
        assert cancelled == [made["id"]]
        next_of(bob_ws, "lobby", lambda m: m["seeks"] == [])
        assert bob.post(f"/api/lobby/{made['id']}/join").status_code == 409
        # a creator with a page open keeps the seek
        with ann.socket():
            kept = seek(ann)
            client.portal.call(lobby.keep_present)  # type: ignore[union-attr]
            assert client.portal.call(lobby.sweep, now() + timedelta(seconds=25)) == []  # type: ignore[union-attr]
            assert [s["id"] for s in client.get("/api/lobby").json()["seeks"]] == [kept["id"]]
    # a game page counts too
    game = bob.post(f"/api/lobby/{kept['id']}/join").json()["game"]
    with client.websocket_connect("/ws/lobby") as anonymous, bob.socket(f"/ws/{game}") as game_ws:
        game_ws.send_json({"type": "ping"})
        next_of(game_ws, "pong")
        assert "bob" in next_of(anonymous, "lobby")["online"]
        assert lobby.present == {bob.id: 1}


def test_the_lobby_socket_takes_only_small_pings(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby") as ws:
        next_of(ws, "lobby")
        ws.send_json({"type": "ping"})
        assert next_of(ws, "pong") == {"type": "pong"}
        ws.send_json({"type": "join", "seek": "x"})
        assert next_of(ws, "error")["code"] == "bad_message"
        ws.send_text("x" * 10_000)
        assert next_of(ws, "error")["code"] == "bad_message"
        closed = ws.receive()
        assert closed["type"] == "websocket.close" and closed["code"] == 1008


# --- races between processes ---------------------------------------------------------------------------------
def race(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls at the same moment in threads; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def check_race_for_the_last_seat(first: TestClient, second: TestClient, database: str, rounds: int = 5) -> None:
    ann, bob, cat = sign_up(first, "ann"), sign_up(first, "bob"), sign_up(second, "cat")
    before = games_in(database)
    for _ in range(rounds):
        made = seek(ann)
        path = f"/api/lobby/{made['id']}/join"
        answers = race(lambda: bob.post(path), lambda: cat.post(path))
        codes = sorted(a.status_code for a in answers)
        assert codes == [200, 409], [a.text for a in answers]
        winner = next(a for a in answers if a.status_code == 200).json()
        assert winner["game"] and len(winner["seek"]["joined"]) == 2
    assert games_in(database) == before + rounds  # each seek started exactly once


def test_two_processes_racing_for_the_last_seat_start_one_game(two_clients: tuple[TestClient, TestClient],
                                                                db: str) -> None:
    check_race_for_the_last_seat(*two_clients, db)


def test_the_last_seat_is_taken_once_by_many_threads_on_two_stores(tmp_path: Path) -> None:
    """The store functions alone, on two engines (two processes' worth) and many threads at once."""
    url = f"sqlite:///{tmp_path / 'race.db'}"
    stores = [Store(url), Store(url)]
    stores[0].create_schema()
    try:
        with stores[0].sessions.begin() as session:
            session.execute(text("INSERT INTO accounts (id, username, username_key, deleted, created) VALUES "
                                 + ", ".join(f"({i}, 'p{i}', 'p{i}', false, '2026-01-01')" for i in range(1, 10))))
        body = lobby_module.NewSeek.model_validate({"players": 3})
        for _ in range(3):
            seek_id = lobby_module.create_seek(stores[0], 1, body, "riogrande")

            def join(account: int) -> Any:
                try:
                    return lobby_module.join_seek(stores[account % 2], seek_id, account)
                except lobby_module.LobbyError as exc:
                    return exc.status

            results = race(*[lambda a=a: join(a) for a in range(2, 10)])
            assert results.count(None) == 1  # one took the second seat, one the last
            starts = [r for r in results if isinstance(r, lobby_module.Start)]
            assert len(starts) == 1 and len(starts[0].accounts) == 3
            assert sorted(r for r in results if isinstance(r, int)) == [409] * 6
    finally:
        for store in stores:
            store.close()


# --- my games and rematches ----------------------------------------------------------------------------------
def make_game(store: Store, seats: list[User | None], finished: bool = False, **extra: Any) -> str:
    """A game between these accounts (``None``: a guest seat with a token)."""
    state = GameState(len(seats), 7, Rules.from_text("riogrande"))
    game_id, _, _ = store.create_game(
        rules="riogrande", players=len(seats), seed=7, hotseat=False, bot_speed="normal",
        seats=[("human", None, u.username if u else "Guest") for u in seats], claim=[0], progress=progress_of(state),
        accounts={i: u.id for i, u in enumerate(seats) if u is not None}, **extra)
    if finished:
        with store.sessions.begin() as session:
            session.execute(update(GameRow).where(GameRow.id == game_id).values(finished=True, stage="over"))
    return game_id


def test_my_games_lists_unfinished_games_with_my_turn_first(client: TestClient) -> None:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    assert client.get("/api/account/games").status_code == 401
    waiting = make_game(store, [bob, ann])  # seat 0 acts first: Bob
    mine = make_game(store, [ann, bob])
    make_game(store, [ann, bob], finished=True)
    with store.sessions.begin() as session:  # the game waiting for Bob moved last
        session.execute(update(GameRow).where(GameRow.id == waiting).values(updated=now() + timedelta(seconds=5)))
    games = ann.get("/api/account/games").json()["games"]
    assert [(g["id"], g["seat"], g["your_turn"]) for g in games] == [(mine, 0, True), (waiting, 1, False)]
    assert games[0]["seats"][0]["account"] == "ann"
    assert [(g["id"], g["your_turn"]) for g in bob.get("/api/account/games").json()["games"]] == [
        (waiting, True), (mine, False)]


def test_a_finished_game_gets_exactly_one_rematch(two_clients: tuple[TestClient, TestClient], db: str) -> None:
    first, second = two_clients
    store: Store = first.app.state.store  # type: ignore[attr-defined]
    ann, bob, cat = sign_up(first, "ann"), sign_up(first, "bob"), sign_up(first, "cat")
    unfinished = make_game(store, [ann, bob])
    assert ann.post(f"/api/games/{unfinished}/rematch").status_code == 409
    old = make_game(store, [ann, bob], finished=True, rated=True, clock="live:300+5", clock_left=[300_000] * 2)
    assert cat.post(f"/api/games/{old}/rematch").status_code == 403
    assert first.post(f"/api/games/{old}/rematch").status_code == 401
    assert ann.post("/api/games/nosuchgame/rematch").status_code == 404
    before = games_in(db)
    # Both players click at once, on two processes
    answers = race(lambda: ann.post(f"/api/games/{old}/rematch"),
                   lambda: bob.on(second).post(f"/api/games/{old}/rematch"))
    assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
    new = answers[0].json()["game"]
    assert answers[1].json()["game"] == new
    assert games_in(db) == before + 1  # the race's loser left nothing behind
    # whoever comes later (here: in the same instant as the winner's update) points to the winner's game
    assert lobby_module.point_rematch(store, old, "latecomer") == new
    assert ann.post(f"/api/games/{old}/rematch").json() == {"game": new}
    game = first.get(f"/api/games/{new}").json()
    assert [s["account"] for s in game["seats"]] == ["bob", "ann"]  # seats rotated
    assert game["rated"] is True and game["clock"]["spec"] == "live:300+5" and game["rules"] == "riogrande"
    # the other player's lobby page hears of it (on the process that made it; across processes the bus carries it)
    again = make_game(store, [ann, bob], finished=True)
    with bob.socket() as bob_ws:
        next_of(bob_ws, "lobby")
        made = ann.post(f"/api/games/{again}/rematch").json()["game"]
        assert next_of(bob_ws, "rematch") == {"type": "rematch", "game": again, "rematch": made}
    # guests (a token, no account) cannot have a rematch
    with_guest = make_game(store, [None, ann], finished=True)
    refused = ann.post(f"/api/games/{with_guest}/rematch")
    assert refused.status_code == 409 and "accounts" in refused.json()["detail"]


# --- across processes: PostgreSQL and Redis ------------------------------------------------------------------
@pytest.fixture
def shared() -> Iterator[tuple[TestClient, TestClient, str]]:
    """Two apps on one fresh PostgreSQL database and one Redis."""
    need_services(redis=True)
    with fresh_postgres_database() as database:
        with TestClient(create_app(database, client_limits=FAST, redis=REDIS)) as first:
            with TestClient(create_app(database, client_limits=FAST, redis=REDIS)) as second:
                yield first, second, database


@pytest.mark.parametrize("slow_check", [False, True], ids=["", "the-started-message-late"])
def test_across_processes_the_lobby_and_started_games_reach_every_page(
        shared: tuple[TestClient, TestClient, str], slow_check: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if slow_check:  # a busy database: the "started" heard on the bus comes after the lobby it raced
        is_ours = lobby_module._is_ours

        def slowly(store: Store, message: dict[str, Any]) -> bool:
            time.sleep(1.0)
            return is_ours(store, message)
        monkeypatch.setattr(lobby_module, "_is_ours", slowly)
    first, second, _ = shared
    ann, bob = sign_up(first, "ann"), sign_up(second, "bob")
    with ann.on(second).socket() as ann_ws:  # Ann's lobby page is on the second process
        next_of(ann_ws, "lobby")
        made = seek(ann)  # made on the first
        assert next_of(ann_ws, "lobby", lambda m: bool(m["seeks"]))["seeks"][0]["id"] == made["id"]
        game = bob.on(first).post(f"/api/lobby/{made['id']}/join").json()["game"]
        started, _ = all_of(ann_ws, ("started", lambda m: True), ("lobby", lambda m: m["seeks"] == []))
        assert started == {"type": "started", "seek": made["id"], "game": game}


def test_across_processes_on_postgresql_the_last_seat_is_taken_once(
        shared: tuple[TestClient, TestClient, str]) -> None:
    first, second, database = shared
    check_race_for_the_last_seat(first, second, database)
    # and the seeks say so
    engine = create_engine(database_url(database))
    with engine.connect() as connection:
        statuses = connection.execute(select(SeekRow.status, SeekRow.game_id)).all()
    engine.dispose()
    assert all(status == "started" and game for status, game in statuses)


def test_another_deployment_sharing_the_redis_does_not_reach_these_accounts() -> None:
    """Account ids are small numbers every database has: a game started in another database whose processes
    share the Redis (the tests' processes do) must not send this database's account 1 to that game."""
    need_services(redis=True)
    with fresh_postgres_database() as here, fresh_postgres_database() as elsewhere:
        with TestClient(create_app(here, client_limits=FAST, redis=REDIS)) as ours, \
                TestClient(create_app(elsewhere, client_limits=FAST, redis=REDIS)) as theirs:
            ann = sign_up(ours, "ann")
            eve, mallory = sign_up(theirs, "eve"), sign_up(theirs, "mallory")
            assert ann.id == eve.id  # the same number in both databases
            with ann.socket() as ann_ws:
                next_of(ann_ws, "lobby")
                made = seek(eve)
                game = mallory.post(f"/api/lobby/{made['id']}/join").json()["game"]
                assert game is not None
                # Ann opens a seek here and her page hears of it: whatever it heard before must not be Eve's start
                mine = seek(ann)
                heard = []
                while not (heard and heard[-1]["type"] == "lobby" and heard[-1]["seeks"]):
                    heard.append(dict(ann_ws.receive_json()))
                assert [s["id"] for s in heard[-1]["seeks"]] == [mine["id"]]
                assert all(m["type"] == "lobby" for m in heard), heard


def test_a_deleted_accounts_seek_leaves_the_lobby_pages_at_once(db: str) -> None:
    # The pages heard of it only at the next sweep, up to 10 s later (an outside probe); here no sweep runs at all.
    from test_clocks import quiet_app
    with TestClient(quiet_app(db)) as client:
        ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
        seek(ann, players=3)
        with bob.socket() as ws:
            assert next_of(ws, "lobby")["seeks"]
            answer = client.request("DELETE", "/api/account", headers=ann.headers,
                                    json={"password": "correct horse battery"})
            assert answer.status_code == 204, answer.text
            assert next_of(ws, "lobby", lambda m: not m["seeks"])["seeks"] == []
