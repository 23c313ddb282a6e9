"""Ratings (docs/server.md, "Ratings"): a finished rated game moves its players' ratings exactly once — also when
two processes apply it at the same moment (SQLite, and PostgreSQL when TORRES_TEST_POSTGRES is set) and after a
restart — seats that timed out or resigned rank last, and nothing else moves a rating: not an unrated game, not a
game with a bot, not a player who resigned and tries to come back."""

from __future__ import annotations

import random
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from torres.engine.actions import format_action
from torres.engine.state import GameState
from torres.server import ratings
from torres.server.accounts import _anonymise
from torres.server.rooms import progress_of, replay_state
from torres.server.store import PresenceRow, RatedGameRow, RatingRow, SeatRow, Store

from test_clocks import hello_refused, make_accounts, make_game, quiet_app, race, services
from test_server import act, hello, receive
from conftest import fresh_postgres_database


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(quiet_app(db)) as c:
        yield c


@pytest.fixture
def postgres() -> Iterator[str]:
    with fresh_postgres_database() as url:
        yield url


def play_to_end(store: Store, game_id: str, *, seed: int = 0, out_at: dict[int, tuple[int, str]] | None = None,
                leave_last: bool = False) -> tuple[GameState, int]:
    """Play a stored game on with random legal actions, committed as the server commits them (a person's with a
    client id, a bot's without). ``out_at``: seat -> (version, "timeout" or "resigned"): the seat goes to a bot
    there. ``leave_last``: stop before the final action. Returns the state and the final action."""
    stored = store.load(game_id)
    assert stored is not None
    state, version = replay_state(stored), stored.version
    rng = random.Random(seed)
    gone = {s.seat for s in stored.seats if s.is_bot}
    for _ in range(5000):
        for seat, (at, why) in (out_at or {}).items():
            if version >= at and seat not in gone:
                gone.add(seat)
                with store.sessions.begin() as session:
                    session.execute(update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                                    .values(kind="bot", level="strong", out=why))
        seat = state.current
        action = rng.choice(state.legal_action_ids())
        state.push(action, check=False)
        if state.is_over() and leave_last:
            state.pop()
            return state, action
        store.commit(game_id, expected=version, actions=state.actions_text(), seat=seat,
                     client_id=None if seat in gone else f"c{version}", kind="act", action=format_action(action),
                     progress=progress_of(state), by_bot=seat in gone)
        version += 1
        if state.is_over():
            return state, action
    raise AssertionError("the game did not end")


def rating_rows(store: Store) -> dict[tuple[int, int], RatingRow]:
    with store.sessions() as session:
        return {(r.account_id, r.players): r for r in session.scalars(select(RatingRow))}


def finish_live(client: TestClient, game_id: str, tokens: dict[int, str], state: GameState,
                final: int) -> dict[str, Any]:
    """Make the final move through the live server and return the summary the pages get once the ratings are
    applied (the hook of the process that made the move applies them). A bot's final move is committed as its
    driver would, with no live room: the ratings loop finds the game then."""
    last = state.current
    store = services(client).store
    stored = store.load(game_id)
    assert stored is not None
    if stored.seats[last].is_bot:
        state.push(final, check=False)
        store.commit(game_id, expected=stored.version, actions=state.actions_text(), seat=last, client_id=None,
                     kind="act", action=format_action(final), progress=progress_of(state), by_bot=True)
        assert client.portal is not None
        client.portal.call(client.app.state.quiet_loops["ratings"].run)  # type: ignore[attr-defined]
        return dict(client.get(f"/api/games/{game_id}").json())
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        welcome = hello(ws, last, tokens[last])
        answer = act(ws, format_action(final), welcome["version"], "final")
        assert answer["type"] == "ack", answer
        if not stored.rated:
            return dict(receive(ws, "update"))
        for _ in range(200):
            message = receive(ws, "game")
            if message["game"]["rating_changes"] is not None:
                return dict(message["game"])
    raise AssertionError("no rating changes arrived")


# --- ranks and the displayed rating --------------------------------------------------------------------------
def test_ranks_follow_the_scores_and_leavers_rank_last() -> None:
    assert ratings.ranks_of([10, 7, 10], [False, False, False], [0, 0, 0]) == [1, 3, 1]  # a shared win
    # Seat 0 scored most but timed out: below everyone who played on.
    assert ratings.ranks_of([30, 7, 9], [True, False, False], [5, 0, 0]) == [3, 2, 1]
    # Two leavers: the one who left earlier (last own action at version 4) lowest.
    assert ratings.ranks_of([30, 7, 9, 1], [True, False, True, False], [40, 0, 4, 0]) == [3, 1, 4, 2]
    assert ratings.ranks_of([3, 3], [True, True], [6, 6]) == [1, 1]


def test_the_displayed_rating_rises_with_mu() -> None:
    assert ratings.displayed(25.0) == 1500
    values = [ratings.displayed(mu) for mu in (10.0, 20.0, 25.0, 27.5, 40.0)]
    assert values == sorted(values) and values[3] == 1600


# --- applying a result --------------------------------------------------------------------------------------
def test_a_rated_game_moves_its_players_ratings_once_when_it_ends(client: TestClient) -> None:
    store = services(client).store
    ann, bob = make_accounts(store, "Ann", "Bob")
    game_id, tokens = make_game(store, rated=True, accounts={0: ann, 1: bob}, clock=None)
    summary = finish_live(client, game_id, tokens, *play_to_end(store, game_id, seed=1, leave_last=True))
    changes = summary["rating_changes"]
    assert [c["account"] for c in changes] == ["Ann", "Bob"] and summary["status"] == "finished"
    (winner,) = summary["winners"]  # (this seed's game has one winner)
    assert changes[winner]["after"] > changes[winner]["before"]
    assert changes[1 - winner]["after"] < changes[1 - winner]["before"]
    assert client.get(f"/api/games/{game_id}").json()["rating_changes"] == changes
    rows = rating_rows(store)
    assert rows[(ann, 2)].games == 1 and rows[(bob, 2)].games == 1

    profile = client.get("/api/players/ann").json()  # any case
    assert profile["username"] == "Ann" and profile["online"] is False
    assert profile["ratings"]["2"]["games"] == 1 and profile["ratings"]["2"]["provisional"] is True
    assert profile["ratings"]["2"]["rating"] == changes[0]["after"]
    assert [g["id"] for g in profile["recent"]] == [game_id]
    assert profile["recent"][0]["rating_changes"] == changes
    board = client.get("/api/leaderboard", params={"players": 2}).json()
    assert board["players"] == 2 and {p["username"] for p in board["leaders"]} == {"Ann", "Bob"}
    assert [p["rating"] for p in board["leaders"]] == sorted((p["rating"] for p in board["leaders"]), reverse=True)
    assert client.get("/api/leaderboard", params={"players": 3}).json()["leaders"] == []

    # Applying again, by the hook, the sweep or by hand, changes nothing.
    assert ratings.apply(store, game_id) is None
    assert client.portal is not None
    client.portal.call(client.app.state.quiet_loops["ratings"].run)  # type: ignore[attr-defined]
    assert rating_rows(store)[(ann, 2)].games == 1


def test_profiles_and_leaderboards_refuse_what_is_not_there(client: TestClient) -> None:
    store = services(client).store
    (gone,) = make_accounts(store, "Gone")
    with store.sessions.begin() as session:
        from torres.server.store import AccountRow
        session.execute(update(AccountRow).where(AccountRow.id == gone).values(deleted=True))
    assert client.get("/api/players/nobody").status_code == 404
    assert client.get("/api/players/Gone").status_code == 404  # deleted
    assert client.get("/api/players/" + "a" * 300).status_code == 404
    assert client.get("/api/players/%3Cscript%3E").status_code == 404
    for bad in ("1", "5", "two", "9" * 30):
        assert client.get("/api/leaderboard", params={"players": bad}).status_code == 422
    (eve,) = make_accounts(store, "Eve")
    with store.sessions.begin() as session:
        session.add(PresenceRow(account_id=eve, seen=datetime.now(timezone.utc)))
    assert client.get("/api/players/Eve").json()["online"] is True


def finished_rated_games(store: Store, count: int) -> tuple[list[str], list[int]]:
    accounts = make_accounts(store, *(f"p{i}" for i in range(3)))
    games = []
    for i in range(count):
        game_id, _ = make_game(store, 3, rated=True, accounts=dict(enumerate(accounts)), clock=None, seed=i)
        play_to_end(store, game_id, seed=i)
        games.append(game_id)
    return games, accounts


def exactly_once(url: str) -> None:
    stores = [Store(url), Store(url)]
    try:
        stores[0].create_schema()
        games, accounts = finished_rated_games(stores[0], 6)
        results = race(stores, lambda store, i: ratings.apply(store, games[i]), len(games))
        for answers in results:
            assert sum(a is not None for a in answers) == 1, answers
        rows = rating_rows(stores[0])
        assert [rows[(a, 3)].games for a in accounts] == [6, 6, 6]
        assert ratings.unapplied(stores[1]) == []
    finally:
        for store in stores:
            store.close()


def test_exactly_once_when_two_processes_apply_at_once(tmp_path: Any) -> None:
    exactly_once(f"sqlite:///{tmp_path / 'race.db'}")


def test_exactly_once_when_two_processes_apply_at_once_on_postgresql(postgres: str) -> None:
    exactly_once(postgres)


def test_a_result_left_by_a_process_that_died_is_applied_after_the_restart_once(db: str) -> None:
    with TestClient(quiet_app(db)) as first:
        store = services(first).store
        ann, bob = make_accounts(store, "Ann", "Bob")
        game_id, _ = make_game(store, rated=True, accounts={0: ann, 1: bob}, clock=None)
        play_to_end(store, game_id, seed=2)  # committed, but nobody applied it (the process "died")
        assert rating_rows(store) == {}
    for _ in range(2):  # two restarts: the first applies it, the second finds nothing to do
        with TestClient(quiet_app(db)) as again:
            assert again.portal is not None
            again.portal.call(again.app.state.quiet_loops["ratings"].run)  # type: ignore[attr-defined]
            rows = rating_rows(services(again).store)
            assert rows[(ann, 2)].games == 1 and rows[(bob, 2)].games == 1
            assert again.get(f"/api/games/{game_id}").json()["rating_changes"] is not None


def test_a_player_who_timed_out_ranks_last_however_they_scored(client: TestClient) -> None:
    store = services(client).store
    accounts = make_accounts(store, "Ann", "Bob", "Cy")
    for seed in range(40):  # a game where seat 0, who timed out, still scored most
        game_id, _ = make_game(store, 3, rated=True, accounts=dict(enumerate(accounts)), clock=None, seed=seed)
        state, _ = play_to_end(store, game_id, seed=seed, out_at={0: (100, "timeout")})
        if state.scores[0] > max(state.scores[1:]):
            break
    else:  # the deals are fixed: a test that found none would otherwise stop testing anything
        raise AssertionError("no deal of the 40 tried has the player who timed out scoring most")
    changes = ratings.apply(store, game_id)
    assert changes is not None
    assert changes[0]["rank"] == 3 and changes[0]["after"] < changes[0]["before"]
    assert sorted(c["rank"] for c in changes[1:]) in ([1, 2], [1, 1])


def test_of_two_leavers_the_earlier_ranks_lower(client: TestClient) -> None:
    store = services(client).store
    accounts = make_accounts(store, "Ann", "Bob", "Cy")
    game_id, _ = make_game(store, 3, rated=True, accounts=dict(enumerate(accounts)), clock=None, seed=3)
    play_to_end(store, game_id, seed=3, out_at={1: (20, "resigned"), 2: (80, "timeout")})
    changes = ratings.apply(store, game_id)
    assert changes is not None
    assert [c["rank"] for c in changes] == [1, 3, 2]


# --- security: nothing else moves a rating -----------------------------------------------------------------
def test_an_unrated_game_moves_no_rating(client: TestClient) -> None:
    store = services(client).store
    ann, bob = make_accounts(store, "Ann", "Bob")
    game_id, tokens = make_game(store, rated=False, accounts={0: ann, 1: bob}, clock=None)
    finish_live(client, game_id, tokens, *play_to_end(store, game_id, seed=4, leave_last=True))  # the hook sees it
    assert ratings.apply(store, game_id) is None
    assert ratings.unapplied(store) == []
    assert rating_rows(store) == {}
    assert client.get(f"/api/games/{game_id}").json()["rating_changes"] is None


@pytest.mark.parametrize("bot_account", [False, True])
def test_a_game_with_a_bot_moves_no_rating(client: TestClient, bot_account: bool) -> None:
    """Rated (as a lobby bug or a forged row might make it), but a bot sat in a seat from the start — with no
    account, or with one attached to the bot's seat."""
    store = services(client).store
    ann, bob = make_accounts(store, "Ann", "Bob")
    seats = {0: ann, 1: bob} if bot_account else {0: ann}
    game_id, _ = make_game(store, rated=True, accounts=seats, bots={1: "beginner"}, clock=None)
    play_to_end(store, game_id, seed=5)
    assert ratings.apply(store, game_id) == []  # looked at once, found not to count
    assert ratings.apply(store, game_id) is None
    assert rating_rows(store) == {}
    assert client.get(f"/api/games/{game_id}").json()["rating_changes"] == []  # its page says it does not count


def test_an_account_in_two_seats_moves_no_rating(client: TestClient) -> None:
    store = services(client).store
    (ann,) = make_accounts(store, "Ann")
    game_id, _ = make_game(store, rated=True, accounts={0: ann, 1: ann}, clock=None)
    play_to_end(store, game_id, seed=6)
    assert ratings.apply(store, game_id) == [] and rating_rows(store) == {}


def test_a_resigned_player_cannot_come_back_and_ranks_last_once(client: TestClient) -> None:
    """Abandon a rated game (resign), then try to take the seat back: the old token no longer opens it, nothing can
    be played for it, and the result counts the leaver last, once."""
    store = services(client).store
    ann, bob = make_accounts(store, "Ann", "Bob")
    game_id, tokens = make_game(store, rated=True, accounts={0: ann, 1: bob}, clock=None)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        hello(ws, 1, tokens[1])
        ws.send_json({"type": "resign", "id": "bye"})
        while ws.receive_json()["type"] != "ack":
            pass
        hello_refused(ws, 1, tokens[1])
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        welcome = hello_refused(ws, 1, tokens[1])
        assert act(ws, "start d8", welcome["version"], "back")["code"] == "no_seat"
    assert client.portal is not None
    client.portal.call(services(client).rooms.forget_idle)
    # A bot plays Bob's seat from here on, and outscores Ann (this seed): Bob still ranks last, for he left.
    summary = finish_live(client, game_id, tokens, *play_to_end(store, game_id, seed=13, leave_last=True))
    assert summary["scores"][1] > summary["scores"][0]
    changes = {c["seat"]: c for c in summary["rating_changes"]}
    assert changes[1]["after"] < changes[1]["before"] and changes[0]["after"] > changes[0]["before"]
    assert ratings.apply(store, game_id) is None
    rows = rating_rows(store)
    assert rows[(ann, 2)].games == 1 and rows[(bob, 2)].games == 1
    with store.sessions() as session:
        assert len(session.scalars(select(RatedGameRow)).all()) == 1


def test_a_player_who_never_moved_before_running_out_of_time_aborts_the_game(client: TestClient) -> None:
    # An outside probe: a rematch asked for while the other player was away started their clock, which ran out,
    # and the one who asked won rating points from a player who never sat down, again and again.
    store = services(client).store
    ann, bob = make_accounts(store, "Ann", "Bob")
    game_id, _ = make_game(store, rated=True, accounts={0: ann, 1: bob}, clock=None)
    play_to_end(store, game_id, seed=8, out_at={1: (0, "timeout")})
    assert ratings.apply(store, game_id) == [] and rating_rows(store) == {}
    assert client.get(f"/api/games/{game_id}").json()["rating_changes"] == []  # its page says it does not count


def test_a_deleted_account_does_not_take_the_game_from_the_others(client: TestClient) -> None:
    # An outside probe: the losing player deleted the account, and the winner's result no longer counted.
    store = services(client).store
    ann, bob, cy = make_accounts(store, "Ann", "Bob", "Cy")
    game_id, _ = make_game(store, 3, rated=True, accounts={0: ann, 1: bob, 2: cy}, clock=None, seed=4)
    play_to_end(store, game_id, seed=4, out_at={1: (30, "timeout")})  # Bob's clock runs out after a few moves,
    _anonymise(store, bob)                                              # and he deletes his account
    changes = ratings.apply(store, game_id)
    assert changes is not None and len(changes) == 3
    by_seat = {c["seat"]: c for c in changes}
    assert by_seat[1]["rank"] == 3 and by_seat[1]["account_id"] is None
    rows = rating_rows(store)
    assert set(rows) == {(ann, 3), (cy, 3)} and all(r.games == 1 for r in rows.values())
    assert sorted(by_seat[s]["rank"] for s in (0, 2)) in ([1, 2], [1, 1])
