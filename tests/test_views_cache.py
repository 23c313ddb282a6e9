"""The views the server sends are built once per version and seat (``Room._view_text``) and faster than they were
(lookup tables in ``torres/engine/view.py`` and ``torres/server/views.py``, orjson): neither may change a view.

- A view the room sends (in an update or a welcome) is always the view freshly built from the room's state now,
  after every action and undo of seeded games, for every seat and the spectator: a view built before a change is
  never sent after it (an action, an undo, a catch-up with another process's commits, the whole game read back).
- ``SeatView.to_json`` gives what it gave before its tables: checked field by field against the engine's own
  functions (``format_action``, ``square_name``, ``Card``, ``Rules.to_text``, ``score_phase``).
- ``json_text`` is ``json.dumps`` with compact separators, and ``legal_json`` hands out copies.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

import torres
from torres.engine.actions import DECODE, Kind, format_action
from torres.engine.board import board_info
from torres.engine.cards import Card
from torres.engine.scoring import score_phase
from torres.engine.squares import square_name
from torres.engine.state import GameState, Stage
from torres.engine.view import SPECTATOR, scoring_to_json
from torres.server.rooms import Connection, Room, progress_of, replay_state
from torres.server.store import Store
from torres.server.views import json_text, legal_json, seat_view_json

EDITIONS = list(torres.EDITIONS)


async def _nothing(_: str) -> None:
    return None


def drain(connection: Connection) -> list[dict[str, Any]]:
    out = []
    while not connection.queue.empty():
        message = connection.queue.get_nowait()
        if message is not None:
            out.append(json.loads(message))
    return out


def fresh(state: GameState, seat: int | None) -> dict[str, Any]:
    """The view as built from scratch, through plain ``json`` (no cache, no orjson)."""
    return dict(json.loads(json.dumps(seat_view_json(state, seat))))


def new_game(store: Store, players: int, edition: str, seed: int) -> Room:
    rules = torres.Rules.for_edition(edition)
    state = GameState(players, seed, rules)
    game_id, _, _ = store.create_game(rules=rules.to_text(), players=players, seed=seed, hotseat=True,
                                      bot_speed="instant", seats=[("human", None, f"P{s}") for s in range(players)],
                                      claim=range(players), progress=progress_of(state))
    return open_room(store, game_id)


def open_room(store: Store, game_id: str) -> Room:
    stored = store.load(game_id)
    assert stored is not None
    return Room(stored, replay_state(stored))


def attach(room: Room) -> dict[int | None, Connection]:
    connections = {seat: Connection(_nothing, seat=seat) for seat in [None, *range(room.state.n)]}
    room.connections = set(connections.values())
    return connections


def check_room(room: Room, connections: dict[int | None, Connection], kind: str = "update") -> None:
    """Every connection got one message of ``kind`` at the room's version with its seat's view as it is now,
    and a welcome now carries the same view."""
    for seat, connection in connections.items():
        messages = [m for m in drain(connection) if m["type"] in ("update", "welcome")]
        assert [m["type"] for m in messages] == [kind], (seat, messages)
        assert messages[0]["version"] == room.version
        expected = fresh(room.state, seat)
        assert messages[0]["view"] == expected, seat
        welcome = json.loads(room.view_message("welcome", seat, seat=seat, game=room.summary()))
        assert welcome["version"] == room.version and welcome["seat"] == seat
        assert welcome["view"] == expected, seat


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    store.create_schema()
    return store


@pytest.mark.parametrize("index", range(6))
def test_every_view_sent_is_the_view_of_the_state_now(store: Store, index: int) -> None:
    """Seeded games with undos: after every change, every receiver's update and welcome hold the fresh view."""
    rng = random.Random(index)
    room = new_game(store, 2 + index % 3, EDITIONS[index % len(EDITIONS)], seed=1000 + index)
    connections = attach(room)

    async def play() -> None:
        step = 0
        while not room.state.is_over() and step < 400:
            step += 1
            seat = room.state.current
            # a welcome first, now and then: the cached view it builds must not outlive the change that follows
            if rng.random() < 0.3:
                room.view_message("welcome", rng.choice([None, *range(room.state.n)]))
            if room.state.can_take_back() and rng.random() < 0.1:
                await room.undo(store, seat, f"u{step}", room.version)
            else:
                action = format_action(rng.choice(room.state.legal_action_ids()))
                await room.act(store, seat, f"a{step}", room.version, action)
            check_room(room, connections)

    asyncio.run(play())
    assert store.load(room.id).version == room.version  # type: ignore[union-attr]


def test_a_catch_up_and_a_reload_drop_the_views_built_before(store: Store) -> None:
    """Two rooms on one game, as in two processes: the one that catches up with the other's commits, or reads the
    whole game back, sends the views of its new state, never those it built before."""
    here = new_game(store, 2, "riogrande", seed=7)
    there = open_room(store, here.id)
    rng = random.Random(3)

    async def act(room: Room, count: int) -> None:
        for _ in range(count):
            seat = room.state.current
            await room.act(store, seat, None, room.version, format_action(rng.choice(room.state.legal_action_ids())))

    async def play() -> None:
        connections = attach(there)
        for round_ in range(4):
            for seat in connections:  # every seat's view cached at the old version
                there.view_message("welcome", seat)
            await act(here, 3)
            await there.catch_up(store, here.version)
            assert there.version == here.version
            for seat, connection in connections.items():
                updates = [m for m in drain(connection) if m["type"] == "update"]
                assert [m["version"] for m in updates] == list(range(here.version - 2, here.version + 1))
                assert updates[-1]["view"] == fresh(here.state, seat) == fresh(there.state, seat)
            for seat in connections:
                assert json.loads(there.view_message("welcome", seat))["view"] == fresh(here.state, seat)
        # the whole game read back: a new state object at the stored version
        for seat in connections:
            there.view_message("welcome", seat)
        await act(here, 2)
        stored = store.load(here.id)
        assert stored is not None
        there.stored, there.version, there.state = stored, stored.version, replay_state(stored)
        there.broadcast_fresh()
        for seat, connection in connections.items():
            welcomes = [m for m in drain(connection) if m["type"] == "welcome"]
            assert len(welcomes) == 1 and welcomes[0]["view"] == fresh(here.state, seat)

    asyncio.run(play())


def test_a_state_changed_by_hand_with_its_version_is_seen(store: Store) -> None:
    """The checks of tests/test_server_secrets.py move a room's state and version by hand: the views follow."""
    room = new_game(store, 3, "riogrande", seed=11)
    rng = random.Random(5)
    for step in range(150):
        if room.state.is_over():
            break
        seat = rng.choice([None, *range(room.state.n)])
        assert json.loads(room.view_message("x", seat))["view"] == fresh(room.state, seat)
        if step % 7 == 3 and room.state.can_take_back():
            room.state.pop()
        else:
            room.state.push(rng.choice(room.state.legal_action_ids()))
        room.version += 1
        assert json.loads(room.view_message("x", seat))["view"] == fresh(room.state, seat)


def reference_to_json(state: GameState, seat: int) -> dict[str, Any]:
    """The fields of ``SeatView.to_json`` that now come from lookup tables, spelled out with the engine's own
    functions, as ``to_json`` had them before."""
    view = state.view(seat)
    history = ["keep ?" if DECODE[a][0] is Kind.KEEP and actor != seat else format_action(a)
               for a, actor in zip(state.history, state.actors)]
    return {
        "rules": state.rules.to_text(),
        "knights": [[square_name(sq) for sq in k] for k in view.knights],
        "king": square_name(view.king) if view.king >= 0 else None,
        "hand": {Card(c).text: n for c, n in enumerate(view.hand) if n},
        "fresh": {Card(c).text: n for c, n in enumerate(view.fresh) if n},
        "drawn": [Card(c).text for c in view.drawn],
        "deck_known": [Card(c).text if c >= 0 else None for c in view.deck_known],
        "discards": [{Card(c).text: n for c, n in enumerate(d) if n} for d in view.discards],
        "scoring_now": scoring_to_json(score_phase(
            view.rules, board_info(view.heights), [list(k) for k in view.knights], view.king, min(view.phase, 2),
            view.scores, view.start, view.master_card)) if view.stage is not Stage.OVER else None,
        "history": history,
        "legal": [format_action(a) for a in view.legal],
    }


@pytest.mark.parametrize("index", range(9))
def test_the_lookup_tables_do_not_change_a_view(index: int) -> None:
    rng = random.Random(index)
    edition = EDITIONS[index % len(EDITIONS)]
    state = GameState(2 + index % 3, 50 + index, torres.Rules.for_edition(edition))
    while True:
        for seat in [SPECTATOR, *range(state.n)]:
            data = state.view(seat).to_json()
            for key, value in reference_to_json(state, seat).items():
                assert data[key] == value, (key, seat, len(state.history))
        if state.is_over():
            break
        state.push(rng.choice(state.legal_action_ids()))


def test_json_text_is_compact_json() -> None:
    state = GameState(2, 3)
    rng = random.Random(1)
    for _ in range(60):
        state.push(rng.choice(state.legal_action_ids()))
    for seat in (None, 0, 1):
        data = seat_view_json(state, seat)
        assert json_text(data) == json.dumps(data, separators=(",", ":"))
    odd = {"name": "Jürgen ♞", 3: [None, True, 1.5], "nested": {"x": []}}
    assert json.loads(json_text(odd)) == json.loads(json.dumps(odd))


def test_legal_json_hands_out_copies() -> None:
    state = GameState(2, 3)
    action = state.legal_action_ids()[0]
    first = legal_json(action)
    first["action"] = "changed"
    assert legal_json(action)["action"] == format_action(action)
