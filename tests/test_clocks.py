"""Clocks (docs/server.md, "Clocks"): the deadline of the seat to act, settled at each change of the seat to act;
no move after the deadline; a seat out of time goes to a bot that plays on; exactly one sweeper acts on each expiry,
also with several processes; resignation; all of it in the database, so it survives a restart.

Time is moved, not waited for: ``clocks.now`` is replaced by a clock the test sets, and the sweeper's one pass
(``clocks.expire``) is called directly (the app's own loops are taken out, so nothing acts behind the test's back).
"""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Iterator

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError
from sqlalchemy import update

from torres.ai.base import make_bot
from torres.engine.rules import Rules
from torres.engine.state import GameState
from torres.engine.view import SeatView
from torres.server import clocks
from torres.server.app import create_app
from torres.server.protocol import Limits
from torres.server.rooms import progress_of, replay_state
from torres.server.store import AccountRow, Conflict, GameRow, SeatRow, Store, new_secret, secret_hash

from test_server import act, hello, receive
from conftest import fresh_postgres_database

FAST = Limits(burst=100_000, per_second=100_000)
T0 = datetime(2030, 1, 1, 12, 0, tzinfo=timezone.utc)


def quick_worker(game_id: str, seat: int, level: str, seed: int, view: SeatView) -> int:
    """The bot pool's chooser in these tests: a random bot, whatever the seat's level (a strong bot thinks for most
    of a second a turn; what is tested here is who plays, not how well)."""
    return int(make_bot("random", seed + len(view.history)).choose(view))


class FakeTime:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> datetime:
        self.at += timedelta(seconds=seconds)
        return self.at


@pytest.fixture
def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    fake = FakeTime(T0)
    monkeypatch.setattr(clocks, "now", fake)
    return fake


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


def quiet_app(db: str) -> Any:
    """The app without its background loops (the test runs the sweeps itself) and with quick bots."""
    app = create_app(db, client_limits=FAST)
    app.state.quiet_loops = {loop.name: loop for loop in app.state.services.loops}  # for a test to run by hand
    app.state.services.loops.clear()
    app.state.services.pool.worker = quick_worker
    return app


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(quiet_app(db)) as c:
        yield c


def services(client: TestClient) -> Any:
    return client.app.state.services  # type: ignore[attr-defined]


def make_accounts(store: Store, *names: str) -> list[int]:
    ids = []
    with store.sessions.begin() as session:
        for name in names:
            row = AccountRow(username=name, username_key=name.lower(), password_hash=None, deleted=False,
                             created=datetime.now(timezone.utc))
            session.add(row)
            session.flush()
            ids.append(row.id)
    return ids


def make_game(store: Store, players: int = 2, *, clock: str | None = "live:60+5", rated: bool = False,
              accounts: dict[int, int] | None = None, bots: dict[int, str] | None = None,
              at: datetime = T0, seed: int = 7) -> tuple[str, dict[int, str]]:
    """A game made as the lobby makes one, with a token for every human seat (account seats too, so a test can
    speak for them without a session cookie)."""
    bots = bots or {}
    accounts = accounts or {}
    state = GameState(players, seed, Rules.from_text("riogrande"))
    clock_left, deadline = clocks.initial(clock, players, state.current not in bots, at)
    game_id, tokens, _ = store.create_game(
        rules="riogrande", players=players, seed=seed, hotseat=False, bot_speed="instant",
        seats=[("bot", bots[i], f"Bot {i}") if i in bots else ("human", None, f"P{i}") for i in range(players)],
        claim=range(players), progress=progress_of(state), accounts=accounts, rated=rated, clock=clock,
        clock_left=clock_left, deadline=deadline)
    with store.sessions.begin() as session:
        for seat in accounts:
            if seat not in bots:
                tokens[seat] = new_secret()
                session.execute(update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                                .values(token_hash=secret_hash(tokens[seat])))
    return game_id, tokens


def game_row(store: Store, game_id: str) -> GameRow:
    with store.sessions() as session:
        row = session.get(GameRow, game_id)
        assert row is not None
        return row


def seat_row(store: Store, game_id: str, seat: int) -> SeatRow:
    with store.sessions() as session:
        row = session.get(SeatRow, (game_id, seat))
        assert row is not None
        return row


def wait_until(condition: Any, seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


# --- the time control ----------------------------------------------------------------------------------------
def test_clock_json_is_bounded_and_stored_as_text() -> None:
    live = clocks.ClockSpec.model_validate({"kind": "live", "seconds": 300, "increment": 5})
    days = clocks.ClockSpec.model_validate({"kind": "correspondence", "days": 3})
    assert clocks.text_of(live) == "live:300+5" and clocks.text_of(days) == "days:3"
    assert clocks.parse("live:300+5") == live.root and clocks.parse("days:3") == days.root
    assert clocks.json_of("live:300+5") == {"kind": "live", "seconds": 300, "increment": 5}
    for bad in ({"kind": "live", "seconds": 9}, {"kind": "live", "seconds": 10_801},
                {"kind": "live", "seconds": 60, "increment": 181}, {"kind": "correspondence", "days": 0},
                {"kind": "correspondence", "days": 15}, {"kind": "blitz", "seconds": 60},
                {"kind": "live", "seconds": 60, "days": 2}, {"kind": "live", "seconds": "60s"}):
        with pytest.raises(ValidationError):
            clocks.ClockSpec.model_validate(bad)
    for bad_text in ("live:9+0", "days:99", "weeks:2", "live:x"):
        with pytest.raises(ValueError):
            clocks.parse(bad_text)


def test_initial_clock() -> None:
    assert clocks.initial(None, 3, True, T0) == (None, None)
    assert clocks.initial("live:60+5", 3, True, T0) == ([60_000] * 3, T0 + timedelta(seconds=60))
    assert clocks.initial("live:60+5", 2, False, T0) == ([60_000] * 2, None)  # a bot acts first
    assert clocks.initial("days:2", 2, True, T0) == ([2 * 86_400_000] * 2, T0 + timedelta(days=2))


def test_the_turn_change_settles_the_clock() -> None:
    deadline = T0 + timedelta(seconds=60)
    at = T0 + timedelta(seconds=20)
    # The same person acts again (a turn is several actions): nothing moves.
    assert clocks.turn_change("live:60+5", [60_000, 60_000], deadline, 0, 0, at) == ([60_000, 60_000], deadline)
    # Seat 0 hands over after 20 s: 40 s left plus the 5 s increment; seat 1's full minute starts now.
    assert clocks.turn_change("live:60+5", [60_000, 60_000], deadline, 0, 1, at) == (
        [45_000, 60_000], at + timedelta(seconds=60))
    # To a bot, or the game ends: no deadline.
    assert clocks.turn_change("live:60+5", [60_000, 60_000], deadline, 0, None, at) == ([45_000, 60_000], None)
    # From a bot (no deadline ran): nothing to charge.
    assert clocks.turn_change("live:60+5", [45_000, 60_000], None, 1, 0, at) == (
        [45_000, 60_000], at + timedelta(seconds=45))
    # Correspondence: a turn's days from now, whatever was used.
    assert clocks.turn_change("days:2", [1, 1], deadline, 0, 1, at) == ([1, 1], at + timedelta(days=2))
    # SQLite hands times back without their zone: they are UTC.
    assert clocks.turn_change("live:60+0", [60_000, 60_000], deadline.replace(tzinfo=None), 0, 1, at)[0] == [
        40_000, 60_000]


# --- clocks in play ----------------------------------------------------------------------------------------------
def test_the_deadline_follows_the_seat_to_act_and_a_move_after_it_is_refused(client: TestClient,
                                                                            fake_time: FakeTime) -> None:
    store = services(client).store
    game_id, tokens = make_game(store)
    summary = client.get(f"/api/games/{game_id}").json()
    assert summary["clock"]["spec"] == "live:60+5" and summary["clock"]["kind"] == "live"
    assert summary["clock"]["left"] == [60_000, 60_000]
    assert datetime.fromisoformat(summary["clock"]["deadline"]) == T0 + timedelta(seconds=60)
    assert datetime.fromisoformat(summary["clock"]["now"]) == T0
    with client.websocket_connect(f"/ws/{game_id}") as first, client.websocket_connect(f"/ws/{game_id}") as second:
        hello(first, 0, tokens[0])
        hello(second, 1, tokens[1])
        fake_time.advance(20)
        assert act(first, "start d8", 0, "a")["type"] == "ack"  # seat 1 to act now
        for _ in range(10):  # the pages hear of the new deadline (a summary follows the update)
            clock = receive(second, "game")["game"]["clock"]
            if datetime.fromisoformat(clock["deadline"]) == T0 + timedelta(seconds=80):
                break
        else:
            raise AssertionError("no summary with the new deadline")
        assert clock["left"] == [45_000, 60_000]
        row = game_row(store, game_id)
        assert row.clock_left == [45_000, 60_000]
        assert clocks.aware(row.deadline) == T0 + timedelta(seconds=80)
        fake_time.advance(10)
        assert act(second, "start c6", 1, "b")["type"] == "ack"  # still seat 1 (the king next): nothing moves
        assert clocks.aware(game_row(store, game_id).deadline) == T0 + timedelta(seconds=80)
        fake_time.advance(20)
        assert act(second, "king f6", 2, "c")["type"] == "ack"  # seat 0's turn: 30 s + 5 s kept by seat 1
        row = game_row(store, game_id)
        assert row.clock_left == [45_000, 35_000]
        assert clocks.aware(row.deadline) == T0 + timedelta(seconds=95)
        summary = client.get(f"/api/games/{game_id}").json()
        assert summary["clock"]["left"] == [45_000, 35_000]
        assert datetime.fromisoformat(summary["clock"]["deadline"]) == T0 + timedelta(seconds=95)

        fake_time.advance(46)  # past seat 0's deadline: the sweeper has not come by yet
        refused = act(first, "stack 3", 3, "d")
        assert refused["type"] == "rejected" and refused["code"] == "time_up", refused
        assert game_row(store, game_id).version == 3
    # The database refuses it too, whatever a room believes (another process's room, say).
    state = replay_state(store.load(game_id))  # type: ignore[arg-type]
    state.push("stack 3")
    with pytest.raises(Conflict):
        store.commit(game_id, expected=3, actions=state.actions_text(), seat=0, client_id="e", kind="act",
                     action="stack 3", progress=progress_of(state),
                     clock=([45_000, 35_000], None, fake_time.at))
    store.commit(game_id, expected=3, actions=state.actions_text(), seat=0, client_id="e", kind="act",
                 action="stack 3", progress=progress_of(state),
                 clock=([45_000, 35_000], None, T0 + timedelta(seconds=94)))  # in time, it is taken


def test_a_seat_out_of_time_goes_to_a_bot_and_the_bots_finish_the_game(client: TestClient,
                                                                      fake_time: FakeTime) -> None:
    store = services(client).store
    game_id, tokens = make_game(store)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        hello(ws, 0, tokens[0])
        fake_time.advance(59)
        assert client.portal is not None
        assert client.portal.call(clocks.expire, services(client), fake_time.at) == []  # not yet
        fake_time.advance(2)
        assert client.portal.call(clocks.expire, services(client), fake_time.at) == [(game_id, 0)]
        # The page of the seat learns it watches now; the seat is a strong bot's, marked "timeout".
        welcome = receive(ws, "welcome")
        assert welcome["seat"] is None and welcome["game"]["seats"][0]["out"] == "timeout"
        seat = seat_row(store, game_id, 0)
        assert (seat.kind, seat.level, seat.out) == ("bot", "strong", "timeout")
        assert game_row(store, game_id).clock_left[0] == 0  # type: ignore[index]
        # The bot plays seat 0's turn; then seat 1's clock runs, and it runs out too.
        wait_until(lambda: game_row(store, game_id).current == 1 and game_row(store, game_id).deadline is not None)
        assert clocks.aware(game_row(store, game_id).deadline) == fake_time.at + timedelta(seconds=60)
        fake_time.advance(61)
        assert client.portal.call(clocks.expire, services(client), fake_time.at) == [(game_id, 1)]
        wait_until(lambda: game_row(store, game_id).finished)
    summary = client.get(f"/api/games/{game_id}").json()
    assert summary["status"] == "finished" and [s["out"] for s in summary["seats"]] == ["timeout", "timeout"]
    assert summary["clock"]["deadline"] is None
    assert client.portal is not None
    assert client.portal.call(clocks.expire, services(client), fake_time.advance(1000)) == []


def test_the_deadline_survives_a_restart(db: str, fake_time: FakeTime) -> None:
    with TestClient(quiet_app(db)) as first:
        game_id, _ = make_game(services(first).store)
        before = first.get(f"/api/games/{game_id}").json()["clock"]
    with TestClient(quiet_app(db)) as second:
        after = second.get(f"/api/games/{game_id}").json()["clock"]
        assert after["deadline"] == before["deadline"] and after["left"] == before["left"]
        assert second.portal is not None
        fake_time.advance(61)
        assert second.portal.call(clocks.expire, services(second), fake_time.at) == [(game_id, 0)]
        assert second.get(f"/api/games/{game_id}").json()["seats"][0]["out"] == "timeout"


def test_no_deadline_while_a_bot_is_to_act(client: TestClient, fake_time: FakeTime) -> None:
    store = services(client).store
    game_id, _ = make_game(store, bots={0: "beginner"})  # seat 0 acts first
    assert game_row(store, game_id).deadline is None

    async def wake() -> None:  # as whatever makes a game wakes its bots
        async with services(client).rooms.hold(game_id) as room:
            services(client).driver.wake(room)

    assert client.portal is not None
    client.portal.call(wake)
    wait_until(lambda: game_row(store, game_id).current == 1)  # the bot's first turn: then seat 1's clock runs
    assert clocks.aware(game_row(store, game_id).deadline) == T0 + timedelta(seconds=60)


def race(stores: list[Store], work: Any, rounds: int) -> list[list[Any]]:
    """Each round, every store runs ``work(store, round)`` in its own thread at the same moment."""
    results: list[list[Any]] = []
    for index in range(rounds):
        barrier = threading.Barrier(len(stores))
        answers: list[Any] = [None] * len(stores)
        errors: list[BaseException] = []

        def run(i: int, store: Store) -> None:
            try:
                barrier.wait()
                answers[i] = work(store, index)
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        threads = [threading.Thread(target=run, args=(i, s)) for i, s in enumerate(stores)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors, errors
        results.append(answers)
    return results


def expiry_race(url: str) -> None:
    """Two "processes" (two stores on one database) sweep the same expired deadlines at once: on every one,
    exactly one of them hands the seat to a bot."""
    stores = [Store(url), Store(url)]
    try:
        stores[0].create_schema()
        games = [make_game(stores[0], seed=i)[0] for i in range(12)]
        at = T0 + timedelta(seconds=61)

        def sweep(store: Store, index: int) -> int | None:
            for game_id, deadline in clocks.expired(store, at):
                if game_id == games[index]:
                    return clocks.take_over(store, game_id, deadline, at)
            return None

        for answers in race(stores, sweep, len(games)):
            assert sorted(answers, key=str) == [0, None], answers
        assert clocks.expired(stores[0], at) == []
        for game_id in games:
            assert seat_row(stores[0], game_id, 0).out == "timeout"
    finally:
        for store in stores:
            store.close()


def test_two_sweepers_racing_on_one_expiry_exactly_one_acts(tmp_path: Path) -> None:
    expiry_race(f"sqlite:///{tmp_path / 'race.db'}")


@pytest.fixture
def postgres() -> Iterator[str]:
    with fresh_postgres_database() as url:
        yield url


def test_two_sweepers_racing_on_postgresql_exactly_one_acts(postgres: str) -> None:
    expiry_race(postgres)


def test_a_move_just_in_time_beats_the_sweeper(client: TestClient, fake_time: FakeTime) -> None:
    """The sweeper acts only on the deadline it saw: a move committed meanwhile set a new one, and nothing
    happens."""
    store = services(client).store
    game_id, tokens = make_game(store)
    seen = clocks.expired(store, T0 + timedelta(seconds=61))
    assert [g for g, _ in seen] == [game_id]
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        hello(ws, 0, tokens[0])
        fake_time.advance(59)
        assert act(ws, "start d8", 0, "a")["type"] == "ack"
    assert clocks.take_over(store, game_id, seen[0][1], T0 + timedelta(seconds=61)) is None
    assert seat_row(store, game_id, 0).kind == "human"


# --- resigning -----------------------------------------------------------------------------------------------------
def hello_refused(ws: Any, seat: int, token: str) -> dict[str, Any]:
    """Say hello for a seat that must refuse: the error, and the welcome that follows it shows no seat (read up to
    the welcome, so a seat wrongly opened fails the test instead of leaving it waiting for an error)."""
    ws.send_json({"type": "hello", "seat": seat, "token": token})
    errors = []
    for _ in range(50):
        message = dict(ws.receive_json())
        if message["type"] == "error":
            errors.append(message)
        elif message["type"] == "welcome":
            assert message["seat"] is None, "the seat opened"
            assert [e["code"] for e in errors] == ["bad_token"], errors
            return message
    raise AssertionError("no welcome")


def resign(ws: Any, client_id: str, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Resign and return the answer (``seen``: the messages that came before it)."""
    ws.send_json({"type": "resign", "id": client_id})
    for _ in range(50):
        message = dict(ws.receive_json())
        if message["type"] in ("ack", "rejected") and message.get("id") == client_id:
            return message
        if seen is not None:
            seen.append(message)
    raise AssertionError("no answer")


def test_a_resigned_seat_goes_to_a_bot_for_good(client: TestClient, fake_time: FakeTime) -> None:
    store = services(client).store
    game_id, tokens = make_game(store)
    with client.websocket_connect(f"/ws/{game_id}") as ws, client.websocket_connect(f"/ws/{game_id}") as other:
        hello(other, 1, tokens[1])
        with client.websocket_connect(f"/ws/{game_id}") as watcher:
            hello(watcher, None, None)
            assert resign(watcher, "r1")["code"] == "no_seat"
        hello(ws, 0, tokens[0])
        fake_time.advance(10)
        seen: list[dict[str, Any]] = []
        assert resign(ws, "r2", seen)["type"] == "ack"
        seat = seat_row(store, game_id, 0)
        assert (seat.kind, seat.level, seat.out) == ("bot", "strong", "resigned")
        row = game_row(store, game_id)
        assert row.deadline is None or row.current != 0  # no clock runs for the bot
        # The page watches now; the old token no longer opens the seat, and the seat cannot act.
        assert [m["seat"] for m in seen if m["type"] == "welcome"] == [None]
        hello_refused(ws, 0, tokens[0])
        assert act(ws, "start d8", 0, "x")["code"] == "no_seat"
        assert resign(ws, "r3")["code"] == "no_seat"
        summary = client.get(f"/api/games/{game_id}").json()
        assert summary["seats"][0]["out"] == "resigned" and summary["seats"][0]["kind"] == "bot"


@pytest.mark.parametrize("resigned", [True, False])
def test_timed_out_or_resigned_seats_refuse_their_person_in_room_and_database(client: TestClient,
                                                                            fake_time: FakeTime,
                                                                            resigned: bool) -> None:
    """A connection greeted before the seat went to a bot (in this process, or a room elsewhere that has not
    heard yet) cannot act for it: the room refuses, and so does the database."""
    store = services(client).store
    game_id, tokens = make_game(store, clock=None if resigned else "live:60+0")
    assert client.portal is not None
    room_holder = services(client).rooms
    if resigned:
        assert store.resign(game_id, 0, T0)
    else:
        assert clocks.take_over(store, game_id, game_row(store, game_id).deadline, T0 + timedelta(seconds=61)) == 0

    async def act_as_person() -> str:
        async with room_holder.hold(game_id) as room:
            from torres.server.rooms import Rejected
            try:
                await room.act(store, 0, "late", 0, "start d8")
            except Rejected as exc:
                return exc.code
            return "accepted"

    # This room loaded the seats after the change: it refuses.
    assert client.portal.call(act_as_person) == "out"
    # The database refuses a person's commit for a bot's seat, whatever a room believes.
    state = replay_state(store.load(game_id))  # type: ignore[arg-type]
    state.push("start d8")
    with pytest.raises(Conflict):
        store.commit(game_id, expected=0, actions=state.actions_text(), seat=0, client_id="late", kind="act",
                     action="start d8", progress=progress_of(state))
    with pytest.raises(Conflict):  # nor, the other way round, a bot's commit for a person's seat
        store.commit(game_id, expected=0, actions=state.actions_text(), seat=1, client_id=None, kind="act",
                     action="start d8", progress=progress_of(state), by_bot=True)


def test_no_resigning_a_finished_game(client: TestClient) -> None:
    store = services(client).store
    game_id, tokens = make_game(store, clock=None)
    with store.sessions.begin() as session:
        session.execute(update(GameRow).where(GameRow.id == game_id).values(finished=True))
    assert not store.resign(game_id, 0, T0)
    assert seat_row(store, game_id, 0).kind == "human"


def test_resign_messages_are_validated(client: TestClient) -> None:
    game_id, _ = make_game(services(client).store, clock=None)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        ws.send_json({"type": "resign"})
        assert receive(ws, "error")["code"] == "bad_message"
        ws.send_json({"type": "resign", "id": "x" * 65})
        assert receive(ws, "error")["code"] == "bad_message"
