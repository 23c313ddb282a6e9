"""Hidden information: no seat ever receives another seat's hand, any deck order, a card another seat drew before it
is revealed, or the seed; spectators receive only public information; a finished game's record is public.

The method (it does not depend on knowing which fields might leak): a message sent to a seat must be a function of
that seat's information only. For a state and a seat, ``state.view(seat).determinize(rng)`` is a *twin*: a full
state that agrees with everything the seat knows, with every hidden card (other hands, drawn cards, deck orders,
the seed) dealt at random. The server's own output path (``Room.view_message``, ``Room.act``/``undo`` rejections,
``Room.summary``) is run on the real state and on twins, and what the seat would receive must be the same — only
``history``/``actors`` are left out, which a twin lacks (they are checked on their own: other seats' keeps are
``keep ?``). A leak of anything hidden differs between the real state and a random twin with high probability,
and ``test_the_checker_catches_*`` prove that it does.

1. ``test_no_secret_reaches_a_seat`` plays 1,000 games with ``--slow`` (as CI runs it; 300 without: the first 15
   of every 50, which hold every bot game and every setup) (random and ``beginner``/``casual`` bot seats, 2–4
   players, every edition, own and common decks, the master version, with undos) through ``Room`` with connections
   attached (the real broadcast: ``Room.act``/``undo`` → ``view_message`` → ``seat_view_json``/``event_json``).
   Checked: after every ``buy`` and ``keep`` (the spectator and another seat against a twin), after every undo and
   at ~3 random points per game (every receiver against two twins, the summary, and refused actions: illegal ones
   by the seat to act — their words may name its own cards, never others' — and any by other seats and the
   spectator), and the welcome every receiver would get after each phase scoring and at the end.
2. ``test_websocket_games_leak_nothing`` plays 10 hot-seat games (5 without ``--slow``) through the real websocket
   (Starlette's TestClient), records every frame each seated connection and a spectator receive, plus the HTTP
   answers, and checks them the same way once the finished game's record tells the seed.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from fastapi.testclient import TestClient

import torres
from torres.ai.base import Bot, make_bot
from torres.engine.actions import DECODE, NUM_ACTIONS, Kind, format_action, is_valid_id
from torres.engine.cards import Card, N_CARD_TYPES
from torres.engine.state import GameState, IllegalActionError
from torres.engine.view import SPECTATOR, SeatView
from torres.server import rooms as rooms_module
from torres.server import views as views_module
from torres.server.app import create_app
from torres.server.protocol import Limits, NewGame
from torres.server.rooms import Connection, Rejected, Room
from torres.server.store import Seat, StoredGame

GAMES = 1000
CHUNKS = 20  # parametrized, so pytest-xdist spreads them over the cores
#: Games of each chunk played without ``--slow``: the first of its 50, bot games (index % 50 == 3, the casual bot's
#: at 7 and 507) and every setup among them (test_the_games_cover_every_setup).
QUICK_CHUNK = 15
TWINS = 2  # twins per receiver of a sampled message
KEEP_TWINS = 1  # per receiver after every buy and keep (a dozen of those in a game)
REFUSAL_TWINS = 1  # per refused attempt (several attempts at each sampled point)
SAMPLE = 0.015  # the share of other actions after which everything is checked (~3 points in a game)
UNDO = 0.02  # how often a seat takes back an action when it may
EDITIONS = list(torres.EDITIONS)
CARDS = [c.text for c in Card]
#: Near misses and nonsense a player may type: every one must be refused with the same words as in any twin.
NEAR_MISSES = ["keep", "keep ?", "buy", "end", "c4-c4", "play lift c3 from:99", "play", "play six", "play seven",
               "keep climb", "keep vault top:climb", "stack 0", "stack 9", "block a1", "first 0", "score", "king",
               "start", "x", "keep lift bottom:climb,gate", "play gate c3-c4", "climb d8-d7"]

#: How games are set up: index → (players, edition, card_mode, master, bot levels by seat).
Setup = tuple[int, str, str | None, bool, dict[int, str]]


def setup_of(index: int) -> Setup:
    players = 2 + index % 3
    edition = EDITIONS[(index // 3) % len(EDITIONS)]
    card_mode = (None, "own", "common")[(index // 15) % 3]
    master = index % 11 == 5
    bots: dict[int, str] = {}
    if index % 50 == 3:
        bots = {s: "beginner" for s in range(1, players)}
    if index % 500 == 7:
        bots = {1: "casual"}
    return players, edition, card_mode, master, bots


class Leak(AssertionError):
    """A message that tells a seat something it may not know."""


class MemoryStore:
    """What ``Room`` asks of a store, without a database (the database never decides what is sent)."""

    def find_event(self, game_id: str, seat: int, client_id: str) -> int | None:
        return None

    def commit(self, game_id: str, *, expected: int, **_: Any) -> int:
        return expected + 1

    async def call(self, method: Any, /, *args: Any, **kwargs: Any) -> Any:
        return method(*args, **kwargs)


async def _nothing(_: str) -> None:
    return None


NAMES = ("Ann", "Bob", "Cy", "Di")


def stored_game(game_id: str, state: GameState, bots: dict[int, str]) -> StoredGame:
    stamp = datetime(2026, 1, 1, tzinfo=timezone.utc)
    seats = tuple(Seat(s, "bot" if s in bots else "human", bots.get(s), NAMES[s], s not in bots, 7)
                  for s in range(state.n))
    return StoredGame(id=game_id, rules=state.rules.to_text(), players=state.n, seed=state.seed, actions=(),
                      version=0, hotseat=True, bot_speed="instant", seats=seats, created=stamp, updated=stamp)


def seed_marks(seed: int) -> list[str]:
    """How the seed would look if it were sent: its decimal digits (and hex, for good measure)."""
    return [str(seed), format(seed, "x")]


_texts: dict[int, str] = {}


def expected_history(state: GameState, seat: int | None) -> list[str]:
    """The history as ``seat`` may know it (the rule itself, not the engine's code): other seats' keeps hidden."""
    out = []
    for a, actor in zip(state.history, state.actors):
        if DECODE[a][0] is Kind.KEEP and actor != seat:
            out.append("keep ?")
        else:
            if a not in _texts:
                _texts[a] = format_action(a)
            out.append(_texts[a])
    return out


def expected_event(state: GameState, seat: int | None) -> dict[str, Any] | None:
    action, actor = state.history[-1], state.actors[-1]
    if DECODE[action][0] is Kind.KEEP and actor != seat:
        return None  # a bare version: something happened, not what
    return {"seat": actor, "action": format_action(action)}


def without_history(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("history", "actors")}


class Checker:
    """Checks what the server sends about one game against twins of each receiver."""

    def __init__(self, room: Room, rng: random.Random) -> None:
        self.room = room
        self.rng = rng
        self.store = MemoryStore()
        self.checked = 0
        self.views: dict[tuple[int, int, int | None], SeatView] = {}

    @property
    def state(self) -> GameState:
        return self.room.state

    def receivers(self) -> list[int | None]:
        return [None, *range(self.state.n)]

    def twin_room(self, seat: int | None) -> Room:
        """A room holding a random twin of ``seat``'s knowledge, at the same version."""
        key = (self.room.version, len(self.state.history), seat)
        if key not in self.views:
            if len(self.views) > 8:
                self.views.clear()
            self.views[key] = self.state.view(SPECTATOR if seat is None else seat)
        view = self.views[key]
        twin = view.determinize(random.Random(self.rng.getrandbits(32)))
        room = Room(self.room.stored, twin)
        room.version = self.room.version
        return room

    def fail(self, seat: int | None, what: str, real: Any, twin: Any = None, other: str = "twin") -> None:
        who = "the spectator" if seat is None else f"seat {seat}"
        raise Leak(f"{who} receives {what} that depends on what it cannot know\n  sent: {real!r}\n"
                   f"  {other}: {twin!r}\n"
                   f"  game: {self.state!r}, version {self.room.version}, last actions "
                   f"{self.state.actions_text()[-4:]}")

    def no_seed(self, seat: int | None, text: str) -> None:
        for mark in seed_marks(self.state.seed):
            if mark in text and not self.state.is_over():
                self.fail(seat, "the seed", text[max(0, text.index(mark) - 60):text.index(mark) + 60])

    # --- views ----------------------------------------------------------------------------------------------
    def check_message(self, seat: int | None, text: str, kind: str, event: Any = "any", twins: int = TWINS) -> None:
        """One message carrying ``seat``'s view: its fields by the rules, its view against twins."""
        self.checked += 1
        self.no_seed(seat, text)
        message = json.loads(text)
        if message["type"] != kind or message["version"] != self.room.version:
            raise AssertionError(f"expected a {kind} at version {self.room.version}, got {text[:200]}")
        if event != "any" and message.get("event") != event:
            self.fail(seat, "an event", message.get("event"), event, "expected")
        view = message["view"]
        self.check_view_rules(seat, view)
        for _ in range(twins):
            twin = json.loads(self.twin_room(seat).view_message(kind, seat, **self.extra(kind, seat, message)))
            if without_history(twin["view"]) != without_history(view):
                diff = {k: (view.get(k), twin["view"].get(k)) for k in set(view) | set(twin["view"])
                        if k not in ("history", "actors") and view.get(k) != twin["view"].get(k)}
                self.fail(seat, "a view", {k: v[0] for k, v in diff.items()}, {k: v[1] for k, v in diff.items()})
            if {k: v for k, v in twin.items() if k not in ("view", "game")} != \
                    {k: v for k, v in message.items() if k not in ("view", "game")}:
                self.fail(seat, "a message", message, twin)

    def extra(self, kind: str, seat: int | None, message: dict[str, Any]) -> dict[str, Any]:
        if kind == "update":
            return {"event": message["event"]}
        return {"seat": seat, "game": message["game"]}

    def check_view_rules(self, seat: int | None, view: dict[str, Any]) -> None:
        state = self.state
        if view["history"] != expected_history(state, seat):
            self.fail(seat, "a history", view["history"], expected_history(state, seat), "expected")
        if view["actors"] != list(state.actors):
            self.fail(seat, "actors", view["actors"], list(state.actors))
        if "seed=?" not in view["position"]:
            self.fail(seat, "a position with the seed", view["position"])
        if seat is None:
            public = {"hand": {}, "drawn": [], "fresh": {}, "deck_known": [], "legal": [], "seat": None}
            if {k: view[k] for k in public} != public:
                self.fail(seat, "cards", {k: view[k] for k in public}, public)
            fields = dict(f.split("=", 1) for f in view["position"].split()[1:])
            for key in ("hands", "decks", "drawn", "fresh", "common"):
                if re.search(r"[a-z]", fields[key]):
                    self.fail(seat, f"cards in the position's {key}", fields[key])
        elif state.current != seat and (view["drawn"] or view["fresh"] or view["legal"]):
            self.fail(seat, "the acting seat's cards", (view["drawn"], view["fresh"], view["legal"]))

    def check_broadcast(self, sent: dict[int | None, list[str]], action: int | None, actor: int,
                        twins: int = TWINS) -> None:
        """The messages the connections got from one action (``None``: an undo): one update each, the event as
        the seat may learn it."""
        for seat, messages in sent.items():
            if len(messages) != 1:
                raise AssertionError(f"{seat}: expected one update, got {messages}")
            event = {"seat": actor, "undo": True} if action is None else expected_event(self.state, seat)
            # After a buy or keep, the secret moment is for the others; the actor's own view is held against
            # twins at the sampled points.
            self.check_message(seat, messages[0], "update", event, twins if seat != actor or twins > 1 else 0)

    def check_welcomes(self) -> None:
        """What a (re)connecting page gets: the welcome with its view and the game summary."""
        for seat in self.receivers():
            text = self.room.view_message("welcome", seat, seat=seat, game=self.room.summary())
            self.check_message(seat, text, "welcome", twins=1)

    # --- summaries and refusals -----------------------------------------------------------------------------
    def check_summary(self) -> None:
        real = self.room.summary()
        self.no_seed(None, json.dumps(real))
        for _ in range(TWINS):
            twin = self.twin_room(None).summary()
            if twin != real:
                self.fail(None, "a game summary", real, twin)

    async def refusal(self, room: Room, seat: int | None, text: str | None, version: int | None) -> Any:
        """What the server answers ``seat``'s action (``None``: an undo), which must be refused."""
        try:
            if text is None:
                await room.undo(self.store, seat, None, version)  # type: ignore[arg-type]
            else:
                await room.act(self.store, seat, None, version, text)  # type: ignore[arg-type]
        except Rejected as exc:
            return exc.code, exc.message
        return "accepted"

    async def check_refusals(self) -> None:
        """Illegal actions tried by the seat to act, and any action by other seats and the spectator: each answer
        (code and words) the same as in twins of that seat, and nothing changed."""
        state = self.state
        if state.is_over():
            return
        current, version = state.current, self.room.version
        legal = state.legal_action_ids()
        candidates = self.rng.sample(NEAR_MISSES, 2) + [f"keep {self.rng.choice(CARDS)}"]
        while len(candidates) < 6:
            action_id = self.rng.randrange(NUM_ACTIONS)
            if is_valid_id(action_id) and action_id not in legal:
                candidates.append(format_action(action_id))
        attempts: list[tuple[int | None, str | None, int | None]] = []
        for text in candidates:
            try:
                state.parse(text)
            except IllegalActionError:
                attempts.append((current, text, version))
        if not state.can_take_back():
            attempts.append((current, None, version))  # nothing to take back
        if version > 0:
            attempts.append((current, format_action(legal[0]), version - 1))  # stale
        other = self.rng.choice([s for s in range(state.n) if s != current])
        attempts.append((None, format_action(self.rng.choice(legal)), version))  # a spectator
        attempts.append((other, format_action(self.rng.choice(legal)), version))  # not its turn
        attempts.append((self.rng.choice([None, other]), None, version))
        for seat, text, made_on in attempts:
            before = len(state.history), state.history[-1:]
            real = await self.refusal(self.room, seat, text, made_on)
            if real == "accepted" or self.room.version != version or (len(state.history), state.history[-1:]) != before:
                raise AssertionError(f"seat {seat}: {text!r} on version {made_on} was accepted")
            self.no_seed(seat, json.dumps(real))
            for _ in range(REFUSAL_TWINS):
                twin = await self.refusal(self.twin_room(seat), seat, text, made_on)
                if twin != real:
                    self.fail(seat, f"a refusal of {text or 'undo'!r}", real, twin)


class Game:
    """One game driven through a ``Room``: the seats choose, the room applies, the checker looks."""

    def __init__(self, index: int, seed: int | None = None) -> None:
        self.index = index
        self.rng = random.Random(index * 7919 + 1)
        players, edition, card_mode, master, self.bots = setup_of(index)
        rules = NewGame(players=players, edition=edition, card_mode=card_mode, master=master).rules()
        seed = self.rng.getrandbits(63) if seed is None else seed
        state = GameState(players, seed, rules)
        self.room = Room(stored_game(f"g{index}", state, self.bots), state)
        self.checker = Checker(self.room, random.Random(index))
        self.connections = {seat: Connection(_nothing, seat=seat) for seat in self.checker.receivers()}
        self.players: dict[int, Bot] = {s: make_bot(level, index + s) for s, level in self.bots.items()}

    @property
    def state(self) -> GameState:
        return self.room.state

    def choose(self) -> int:
        seat = self.state.current
        if seat in self.players:
            return int(self.players[seat].choose(self.state.view(seat)))
        return self.rng.choice(self.state.legal_action_ids())

    async def step(self, action: int | None, watch: int) -> None:
        """One action (``None``: an undo) through the room. ``watch`` 0: nobody is connected; 1 (after every buy
        and keep): the spectator, the actor and another seat are, and the others' updates are held against a
        twin; 2 (sampled points and undos): every receiver is, each update is held against two twins, and the
        summary and refusals are checked. After a phase scoring and at the end: the welcome every receiver would
        get on reconnecting, against a twin."""
        room, store, seat = self.room, self.checker.store, self.state.current
        if watch > 1:
            room.connections = set(self.connections.values())
        elif watch:
            # After a buy or keep: the spectator, the actor and one other seat (at random) are connected.
            other = self.rng.choice([s for s in range(self.state.n) if s != seat])
            room.connections = {self.connections[s] for s in (None, seat, other)}
        scorings = len(self.state.scorings)
        if not watch and action is not None:
            # Nobody is connected: nothing is sent, so the engine alone moves the game on (the room's own path
            # is taken wherever a message goes out).
            self.state.push(action)
            room.version += 1
        elif action is None:
            await room.undo(store, seat, f"u{room.version}", room.version)  # type: ignore[arg-type]
        else:
            await room.act(store, seat, f"a{room.version}", room.version,  # type: ignore[arg-type]
                           format_action(action), by_bot=room.seat_is_bot(seat))  # a bot's seat is the bot's
        if watch:
            sent = {c.seat: drain(c) for c in room.connections}
            self.checker.check_broadcast(sent, action, seat, TWINS if watch > 1 else KEEP_TWINS)
            room.connections = set()
        if len(self.state.scorings) != scorings or self.state.is_over():
            self.checker.check_welcomes()
        if watch > 1 or self.state.is_over():
            self.checker.check_summary()
            await self.checker.check_refusals()

    async def play(self, limit: int = 5000) -> None:
        for _ in range(limit):
            if self.state.is_over():
                return
            seat = self.state.current
            if seat not in self.players and self.state.can_take_back() and self.rng.random() < UNDO:
                await self.step(None, 2)
                continue
            action = self.choose()
            watch = 2 if self.rng.random() < SAMPLE else 1 if DECODE[action][0] in (Kind.BUY, Kind.KEEP) else 0
            await self.step(action, watch)
        raise AssertionError("the game did not end")


def drain(connection: Connection) -> list[str]:
    out = []
    while not connection.queue.empty():
        message = connection.queue.get_nowait()
        if message is not None:
            out.append(message)
    return out


def check_finished(game: Game) -> None:
    """A finished game's record is public: it holds the seed and every action in full."""
    from torres.records import record_of

    state = game.state
    record = record_of(state)
    assert record["seed"] == state.seed and record["actions"] == state.actions_text()
    assert record["result"]["finished"]


async def play_games(indexes: range) -> int:
    checked = 0
    for index in indexes:
        game = Game(index)
        await game.play()
        check_finished(game)
        checked += game.checker.checked
    return checked


def games_of(chunk: int, slow_run: bool) -> range:
    size = GAMES // CHUNKS
    return range(chunk * size, chunk * size + (size if slow_run else QUICK_CHUNK))


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_no_secret_reaches_a_seat(chunk: int, slow_run: bool) -> None:
    games = games_of(chunk, slow_run)
    checked = asyncio.run(play_games(games))
    assert checked > len(games) * 20  # many messages per game were looked at


@pytest.mark.parametrize("slow_run", [False, True], ids=["quick", "slow"])
def test_the_games_cover_every_setup(slow_run: bool) -> None:
    setups = [setup_of(i) for chunk in range(CHUNKS) for i in games_of(chunk, slow_run)]
    assert len(setups) == (GAMES if slow_run else CHUNKS * QUICK_CHUNK)
    assert sum(bool(s[4]) for s in setups) == GAMES // 50 + 2  # every bot game plays either way
    assert {s[0] for s in setups} == {2, 3, 4}
    assert {s[1] for s in setups} == set(torres.EDITIONS)
    assert {s[2] for s in setups} == {None, "own", "common"}
    assert sum(s[3] for s in setups) >= len(setups) // 12  # the master version: 1 game in 11
    assert {level for s in setups for level in s[4].values()} == {"beginner", "casual"}
    rules = {NewGame(players=s[0], edition=s[1], card_mode=s[2], master=s[3]).rules() for s in setups}
    assert {r.card_mode.value for r in rules} == {"own", "common"}


# --- the checker must be able to fail ---------------------------------------------------------------------------
def leak_other_hand(original: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    def leaky(state: GameState, seat: int | None) -> dict[str, Any]:
        data = original(state, seat)
        other = ((seat if seat is not None else -1) + 1) % state.n
        data["badge"] = sum(state.hands[other][c] * (c + 1) for c in range(N_CARD_TYPES))  # a hand "checksum"
        return data
    return leaky


def leak_deck_top(original: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    def leaky(state: GameState, seat: int | None) -> dict[str, Any]:
        data = original(state, seat)
        deck = state.decks[seat] if seat is not None else state.common
        data["next_card_hint"] = deck[-1] % 2 if deck else None  # one bit of the top card
        return data
    return leaky


def leak_drawn(original: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    def leaky(state: GameState, seat: int | None) -> dict[str, Any]:
        data = original(state, seat)
        data["drawn"] = [Card(c).text for c in state.drawn]  # the acting seat's draw, to everybody
        return data
    return leaky


def leak_seed(original: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    def leaky(state: GameState, seat: int | None) -> dict[str, Any]:
        data = original(state, seat)
        data["game_number"] = state.seed
        return data
    return leaky


def leak_keep_event(original: Callable[..., Any]) -> Callable[..., Any]:
    def leaky(state: GameState, seat: int | None) -> Any:
        return {"seat": state.actors[-1], "action": format_action(state.history[-1])}
    return leaky


@pytest.mark.parametrize("name, leak", [
    ("seat_view_json", leak_other_hand), ("seat_view_json", leak_deck_top), ("seat_view_json", leak_drawn),
    ("seat_view_json", leak_seed), ("event_json", leak_keep_event)])
def test_the_checker_catches_a_small_leak(name: str, leak: Callable[..., Any],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rooms_module, name, leak(getattr(views_module, name)))
    with pytest.raises(Leak):
        asyncio.run(play_games(range(0, 40)))


def test_the_checker_catches_a_leaking_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A refusal that names what the acting seat may not know (here: the top card of its deck)."""
    original = GameState.parse

    def parse(self: GameState, text: str) -> Any:
        try:
            return original(self, text)
        except IllegalActionError as exc:
            deck = self.decks[self.current] or self.common
            raise IllegalActionError(f"{exc} (next card: {deck[-1] if deck else '-'})") from None

    monkeypatch.setattr(GameState, "parse", parse)
    with pytest.raises(Leak):
        asyncio.run(play_games(range(0, 40)))


# --- end to end: the real websocket and HTTP answers ------------------------------------------------------------
WS_GAMES = 10
WS_QUICK = 5  # the games played without --slow (each setup of the first five indexes: 2–4 players, two editions)
FAST = Limits(burst=100_000, per_second=100_000)
Frame = tuple[int | None, str]  # (receiver, the message as sent)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", client_limits=FAST)) as c:
        yield c


class Table:
    """A hot-seat game through the websocket: one connection per seat and a spectator, every frame recorded."""

    def __init__(self, client: TestClient, index: int, stack: Any) -> None:
        self.client, self.index, self.rng = client, index, random.Random(index)
        players, edition, card_mode, master, _ = setup_of(index)
        body = {"players": players, "edition": edition, "card_mode": card_mode, "master": master,
                "seats": [{"kind": "human", "name": NAMES[s]} for s in range(players)], "hotseat": True,
                "bot_speed": "instant"}
        created = client.post("/api/games", json=body)
        assert created.status_code == 201, created.text
        self.game = created.json()
        self.id, self.players = self.game["id"], players
        self.tokens = {int(k): v for k, v in self.game["tokens"].items()}
        assert set(self.tokens) == set(range(players))
        self.http: list[str] = []  # every HTTP answer while the game is unfinished
        self.frames: list[Frame] = []
        self.refusals: list[tuple[int, int | None, str | None, int, dict[str, Any]]] = []  # version, seat, ...
        self.events: list[str | None] = []  # the action that made each version (None: an undo)
        self.sockets = {seat: stack.enter_context(client.websocket_connect(f"/ws/{self.id}"))
                        for seat in [None, *range(players)]}
        self.last: dict[int | None, dict[str, Any]] = {}
        for seat, ws in self.sockets.items():
            ws.send_json({"type": "hello", "seat": seat, "token": self.tokens.get(seat) if seat is not None else None,
                          "version": None})
            welcome = self.read(seat, lambda m: m["type"] == "welcome")
            assert welcome["seat"] == seat

    def read(self, seat: int | None, until: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        for _ in range(100):
            text = self.sockets[seat].receive_text()
            self.frames.append((seat, text))
            message = json.loads(text)
            if message["type"] in ("update", "welcome"):
                self.last[seat] = message
            if until(message):
                return dict(message)
        raise AssertionError(f"{seat}: no answer")

    def get(self, path: str) -> Any:
        answer = self.client.get(path)
        self.http.append(answer.text)
        return answer

    @property
    def version(self) -> int:
        return len(self.events)

    def send(self, seat: int | None, message: dict[str, Any]) -> dict[str, Any]:
        """Send an act or undo for ``seat``; its answer (ack or rejected). On an ack, every connection is read up
        to the update of the new version."""
        self.sockets[seat].send_json(message)
        answer = self.read(seat, lambda m: m["type"] in ("ack", "rejected", "error"))
        if answer["type"] == "ack":
            assert answer["version"] == self.version + 1, answer
            self.events.append(message.get("action"))
            for other in self.sockets:
                if self.last[other]["version"] < self.version:
                    self.read(other, lambda m: m["type"] == "update" and m["version"] == self.version)
        else:
            assert answer["type"] == "rejected" and answer["code"] and answer["message"], answer
            self.refusals.append((self.version, seat, message.get("action"), message.get("version", -1), answer))
        return answer

    def play(self) -> None:
        step = 0
        while self.last[None]["view"]["stage"] != "over":
            step += 1
            view = self.last[None]["view"]
            current = view["current"]
            legal = self.last[current]["view"]["legal"]
            roll = self.rng.random()
            if roll < 0.03:  # an illegal action by the seat to act
                text = self.rng.choice(NEAR_MISSES + [format_action(self.rng.randrange(NUM_ACTIONS))])
                if text not in {a["action"] for a in legal}:
                    self.send(current, {"type": "act", "id": f"x{step}", "version": self.version, "action": text})
            elif roll < 0.05:  # someone else, or the spectator, tries the turn's action
                seat = self.rng.choice([s for s in self.sockets if s != current])
                self.send(seat, {"type": "act", "id": f"o{step}", "version": self.version,
                                 "action": self.rng.choice(legal)["action"]})
            elif roll < 0.10 and self.events and self.events[-1] is not None:  # take back (the engine decides)
                self.send(current, {"type": "undo", "id": f"u{step}", "version": self.version})
            else:
                self.send(current, {"type": "act", "id": f"a{step}", "version": self.version,
                                    "action": self.rng.choice(legal)["action"]})
            # The action just sent may have ended the game; a finished game's record is public (checked below).
            if step % 97 == 1 and self.last[None]["view"]["stage"] != "over":
                assert self.get(f"/api/games/{self.id}/record").status_code == 403
                assert self.get(f"/api/games/{self.id}/replay").status_code == 403
                assert self.get(f"/api/games/{self.id}").status_code == 200
                assert self.get(f"/api/games?ids={self.id},nope").status_code == 200
                wrong = self.client.post(f"/api/games/{self.id}/join", json={"invite": "x" * 43})
                self.http.append(wrong.text)
                assert wrong.status_code == 404
        for seat, ws in self.sockets.items():  # every frame up to now, to the last one
            ws.send_json({"type": "ping"})
            self.read(seat, lambda m: m["type"] == "pong")


async def check_table(table: Table, record: dict[str, Any]) -> int:
    """Replay the game version by version (the record tells the seed now) and hold every frame and refusal
    against the state it was sent at and against twins of its receiver."""
    seed = record["seed"]
    state = GameState(table.players, seed, NewGame(edition=record["rules"]).rules())
    room = Room(stored_game(table.id, state, {}), state)
    checker = Checker(room, random.Random(table.index))
    marks = seed_marks(seed) + list(table.tokens.values())
    by_version: dict[int, list[tuple[int | None, dict[str, Any], str]]] = {}
    for seat, text in table.frames:
        message = json.loads(text)
        if message["type"] not in ("pong", "ack", "rejected"):
            by_version.setdefault(message.get("version", message.get("game", {}).get("version")), []).append(
                (seat, message, text))
        for mark in marks:  # neither the seed (a finished game's record tells it, over HTTP) nor a token
            if mark in text:
                raise Leak(f"{seat} received {mark!r}: {text[:300]}")
    for text in table.http:
        for mark in marks:
            assert mark not in text, text[:300]
    refusals: dict[int, list[Any]] = {}
    for version, *rest in table.refusals:
        refusals.setdefault(version, []).append(rest)
    checked = 0
    for version in range(len(table.events) + 1):
        if version:
            action = table.events[version - 1]
            if action is None:
                actor = state.current
                state.pop()
            else:
                # as the server read it: the client's text may be a shorthand ("keep climb" for keeping it and
                # returning the others in order), which a near miss sometimes is, and which push alone does not read
                state.push(state.parse(action))
                actor = state.actors[-1]
        room.version = version
        for seat, message, text in by_version.get(version, []):
            if message["type"] == "game":
                assert message["game"]["status"] == ("finished" if state.is_over() else "playing")
                continue
            assert message["view"] == json.loads(room.view_message("x", seat))["view"]  # the same as in bulk
            event = "any" if message["type"] == "welcome" else \
                {"seat": actor, "undo": True} if table.events[version - 1] is None else expected_event(state, seat)
            checker.check_message(seat, text, message["type"], event, twins=1)
            checked += 1
        for seat, text, made_on, answer in refusals.get(version, []):
            if answer["code"] == "bad_message":
                continue
            twin = await checker.refusal(checker.twin_room(seat), seat, text, made_on)
            if twin != (answer["code"], answer["message"]):
                checker.fail(seat, f"a refusal of {text or 'undo'!r}", answer, twin)
    assert state.actions_text() == record["actions"]
    return checked


@pytest.mark.parametrize("index", [i if i < WS_QUICK else pytest.param(i, marks=pytest.mark.slow)
                                   for i in range(WS_GAMES)])
def test_websocket_games_leak_nothing(client: TestClient, index: int) -> None:
    from contextlib import ExitStack

    with ExitStack() as stack:
        table = Table(client, 1000 + index, stack)
        assert "seed" not in json.dumps(table.game)
        table.play()
        undos = table.events.count(None)
    record = client.get(f"/api/games/{table.id}/record")
    assert record.status_code == 200 and record.json()["seed"] >= 0  # finished: the record is public
    replay = client.get(f"/api/games/{table.id}/replay")
    assert replay.status_code == 200 and str(record.json()["seed"]) in replay.text
    assert replay.json()["frames"][-1]["hands"]  # every hand, now that nothing is secret
    checked = asyncio.run(check_table(table, record.json()))
    assert checked >= len(table.events) * (table.players + 1)
    assert index % 3 or undos or table.refusals  # undos and refusals happen


def test_the_websocket_check_catches_a_small_leak(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from contextlib import ExitStack

    monkeypatch.setattr(rooms_module, "seat_view_json", leak_other_hand(views_module.seat_view_json))
    with ExitStack() as stack:
        table = Table(client, 1003, stack)
        table.play()
    with pytest.raises(Leak):
        asyncio.run(check_table(table, client.get(f"/api/games/{table.id}/record").json()))
