"""Live games: the engine state of each open game, who is connected to it, and the one path every change takes.

A change (a player's action, an undo, a bot's action) is checked — token, turn, version — then the engine is asked,
the result is **committed** to the database, and only then applied to the live state, acknowledged and broadcast,
each connection getting its own seat's view. Per game, changes are serialised by a lock; across processes the
database's version check decides. Calls to a database server run in a thread (:meth:`Store.call`), so a slow
database stalls only its own game; while a commit is under way, everybody still reads the last committed state.

A process holds at most one live copy of a game (:class:`Rooms`): every user of a room — an open socket from its
accept on, an HTTP request, a bot's task, a catch-up — holds it, and only a room nobody holds is forgotten.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, AsyncIterator, Awaitable, Callable

from ..engine.actions import parse_action_id
from ..engine.cards import Card
from ..engine.rules import Rules
from ..engine.state import GameState, IllegalActionError
from . import clocks
from .store import Conflict, Progress, Seat, Store, StoredGame, aware, secret_matches
from .views import event_json, json_text, seat_view_json

log = logging.getLogger("torres.server")

#: Messages a slow connection may have waiting before it is dropped (it reconnects and resumes by version).
SEND_QUEUE_LIMIT = 256


class Rejected(Exception):
    """An action, undo or request the server refuses: a code for programs and a message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def progress_of(state: GameState) -> Progress:
    over = state.is_over()
    return Progress(finished=over, stage=state.stage.name.lower(), current=state.current, phase=state.phase + 1,
                    round=state.round + 1, scores=list(state.scores), winners=state.winners() if over else [])


def replay_state(stored: StoredGame) -> GameState:
    """The engine state of a stored game, with undo information (``push``), so a player can take back."""
    state = GameState(stored.players, stored.seed, Rules.from_text(stored.rules))
    for text in stored.actions:
        state.push(text)
    return state


@dataclass(eq=False)
class Connection:
    """One open page: the seat it speaks for (``None``: a spectator) and its outgoing queue."""

    send_text: Callable[[str], Awaitable[None]]
    seat: int | None = None
    #: the seat was opened by the page's session (its account sits there), not by the seat's token
    by_session: bool = False
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(SEND_QUEUE_LIMIT))
    closed: bool = False

    def push(self, message: str) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            log.warning("dropping a connection that does not keep up")
            self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            try:
                self.queue.put_nowait(None)
            except asyncio.QueueFull:
                pass

    async def finish(self, pump: "asyncio.Task[None]") -> None:
        """Close, and give the messages still queued two seconds to go out through ``pump`` (a page that stopped
        reading is not waited for)."""
        self.close()
        try:
            await asyncio.wait_for(pump, 2.0)
        except (asyncio.TimeoutError, Exception):
            pump.cancel()

    async def pump(self) -> None:
        """Send queued messages in order until closed."""
        while True:
            message = await self.queue.get()
            if message is None:
                return
            await self.send_text(message)


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


def _same_change(kind: str, text: str | None, made_kind: str, made_action: str) -> bool:
    """Whether a message (``kind``: act or undo; an act's ``text``) asks for the change committed as ``made_kind``
    and ``made_action`` (as stored: the engine's notation, in full)."""
    if kind != made_kind:
        return False
    if text is None:  # an undo
        return True
    try:
        sent, made = parse_action_id(text), parse_action_id(made_action)
    except ValueError:
        return False
    if sent == made:
        return True
    # "keep <card>" alone is stored in full, the other cards put back as the rules say (GameState.parse)
    words, made_words = text.lower().split(), made_action.lower().split()
    if len(words) != 2 or words[0] != "keep" or made_words[0] != "keep":
        return False
    try:
        return Card.parse(words[1]) == Card.parse(made_words[1])
    except ValueError:
        return False


def _ack(sender: Connection | None, client_id: str | None, version: int) -> None:
    if sender is not None and client_id is not None:
        sender.push(dumps({"type": "ack", "id": client_id, "version": version}))


class Room:
    """One game in memory."""

    def __init__(self, stored: StoredGame, state: GameState) -> None:
        self.id = stored.id
        self.stored = stored
        self.seats: tuple[Seat, ...] = stored.seats
        self.state = state
        self.version = stored.version
        self.bot_speed = stored.bot_speed
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        # Who uses this room now (sockets, requests, bot tasks, catch-ups): it is never forgotten while held.
        self.holders = 0
        # Called after every change: (room, made here). A change made here is announced to the other processes.
        self.on_change: Callable[["Room", bool], None] = lambda room, local: None
        # Called after its seats or settings changed here (a claim, the bot speed), to tell the other processes.
        self.on_seats: Callable[["Room"], None] = lambda room: None

    # --- reading ---------------------------------------------------------------------------------------------
    def seat_is_bot(self, seat: int) -> bool:
        return self.seats[seat].is_bot

    def bot_to_act(self) -> int | None:
        if self.state.is_over():
            return None
        seat = self.state.current
        return seat if self.seat_is_bot(seat) else None

    @property
    def idle(self) -> bool:
        """Nobody holds, watches or changes this room, and no bot is to act in it: it may be forgotten."""
        return self.holders == 0 and not self.connections and not self.lock.locked() and self.bot_to_act() is None

    def online(self) -> list[bool]:
        present = {c.seat for c in self.connections if not c.closed}
        return [s.seat in present for s in self.seats]

    def summary(self) -> dict[str, Any]:
        state = self.state
        return summary_json(self.stored, self.seats, self.version, self.bot_speed, progress_of(state),
                            self.online())

    def view_message(self, kind: str, viewer: int | None, **extra: Any) -> str:
        """A message carrying ``viewer``'s view (``None``: the public view), the view last; the view's JSON is built
        once per version and seat (:meth:`_view_text`)."""
        head = json_text({"type": kind, "version": self.version, **extra})
        return f'{head[:-1]},"view":{self._view_text(viewer)}}}'

    #: The JSON of each seat's view (``None``: the public one) of the state they were built from: ``_views_of``
    #: names that state — the state object, the room's version and the history's length and last action.
    _views: dict[int | None, str] | None = None
    _views_of: tuple[Any, ...] = ()

    def _view_text(self, viewer: int | None) -> str:
        """``viewer``'s view as JSON, built once per version and seat: the update to every connection of a seat
        and the welcomes after it share it. Any change of the state (an action, an undo, a catch-up, a reload, a
        state replaced) changes the version, the history or the state object, and the views built before it are
        dropped."""
        state = self.state
        history = state.history
        of = (state, self.version, len(history), history[-1] if history else -1)
        views = self._views
        if views is None or self._views_of != of:
            views = self._views = {}
            self._views_of = of
        text = views.get(viewer)
        if text is None:
            text = views[viewer] = json_text(seat_view_json(state, viewer))
        return text

    # --- changing --------------------------------------------------------------------------------------------
    def check_seat(self, seat: int | None) -> int:
        if seat is None:
            raise Rejected("no_seat", "spectators cannot act: open your invite link to take a seat")
        return seat

    async def act(self, store: Store, seat: int | None, client_id: str | None, version: int | None,
                  text: str, sender: Connection | None = None, by_bot: bool = False) -> tuple[int, bool]:
        """Apply ``text`` for ``seat``; returns the version it produced and whether it was new (``False``: the
        same client id was committed before and is only acknowledged again). ``sender`` gets its ack before the
        broadcast. ``by_bot``: the server's bot acts (a person may not act for a bot's seat, nor a bot for a
        person's)."""

        def change() -> _Change:
            try:
                action = self.state.parse(text)
            except IllegalActionError as exc:
                raise Rejected("illegal", str(exc)) from None
            # (``parse`` checked it against this state, which only the change itself moves on while it runs)
            action_id = action.id
            return _Change(str(action), do=lambda: self.state.push(action_id, check=False), undo=self.state.pop)

        return await self._change(store, seat, client_id, version, sender, "act", change, by_bot, text)

    async def undo(self, store: Store, seat: int | None, client_id: str | None, version: int | None,
                   sender: Connection | None = None) -> tuple[int, bool]:
        """Take back ``seat``'s last action if the engine allows it (:meth:`GameState.can_take_back`)."""

        def change() -> _Change:
            if not self.state.can_take_back():
                raise Rejected("cannot_undo", "nothing to take back: only your own actions of this turn, and never "
                                              "a card draw")
            last = self.state.history[-1]
            return _Change(_action_text(last), do=self.state.pop, undo=lambda: self.state.push(last, check=False))

        return await self._change(store, seat, client_id, version, sender, "undo", change)

    async def _change(self, store: Store, seat: int | None, client_id: str | None, version: int | None,
                      sender: Connection | None, kind: str, change: Callable[[], "_Change"],
                      by_bot: bool = False, text: str | None = None) -> tuple[int, bool]:
        """The one path of every change: seat, re-sent id, turn and version checked; the engine asked
        (``change`` says what to do and how to take it back); committed; applied; acknowledged; then broadcast.

        The change is tried on the state to learn what to store, taken back, and made again only once the commit
        succeeded: the commit runs in a thread, and meanwhile every reader (a welcome, a bot, a summary) must see
        the committed state, never one that may yet fail to commit."""
        seat = self.check_seat(seat)
        async with self.lock:
            if version is not None and version != self.version:
                earlier = await self._earlier_commit(store, seat, client_id, version, kind, text)
                if earlier is not None:
                    _ack(sender, client_id, earlier)
                    return earlier, False
            self._check_turn(seat, version)
            at = clocks.now()
            self._check_seat_and_clock(seat, by_bot, at)
            planned = change()
            planned.do()
            try:
                actions, progress = self.state.actions_text(), progress_of(self.state)
                clock = self._clock_after(seat, at)
            finally:
                planned.undo()
            try:
                new_version = await store.call(
                    store.commit, self.id, expected=self.version, actions=actions, seat=seat, client_id=client_id,
                    kind=kind, action=planned.text, progress=progress, by_bot=by_bot, clock=clock)
            except Conflict:
                # Another process moved the game on, or this id was committed already (a re-send that crossed a
                # failover, or an id used twice), or the seat went to a bot or ran out of time: look at what is
                # committed before answering.
                before = self.version
                await self._catch_up(store)
                earlier = await self._earlier_commit(store, seat, client_id, version, kind, text)
                if earlier is not None:
                    _ack(sender, client_id, earlier)
                    return earlier, False
                if self.version == before:  # nothing new was committed: the seat or the clock refused it
                    await self._reload(store)
                    self._check_seat_and_clock(seat, by_bot, at)
                raise Rejected("stale", f"the game has moved on to version {self.version} (another change came "
                                        "first): look again") from None
            planned.do()
            self.version = new_version
            settled = clock is not None and clock[1] != self.stored.deadline
            if clock is not None:
                self.stored = dataclasses.replace(self.stored, clock_left=tuple(clock[0]), deadline=clock[1])
            _ack(sender, client_id, new_version)
            self._broadcast_update(seat, undo=kind == "undo")
            if settled:  # the seat to act changed: pages count down the new deadline (the summary's clock)
                self.broadcast_summary()
        self.on_change(self, True)
        return new_version, True

    async def _earlier_commit(self, store: Store, seat: int, client_id: str | None, version: int | None,
                              kind: str, text: str | None) -> int | None:
        """The version that an earlier commit of this change produced, if this is a re-sent change (a lost ack).

        A re-send repeats its message: it names the version it was first made against, one below the version its
        commit produced, and the same change (``kind``, and an action's ``text``). An id committed for some other
        change is a client's mistake and is refused: acknowledged, the client would believe a change was made
        that never was."""
        if client_id is None:
            return None
        found = await store.call(store.find_event, self.id, seat, client_id)
        if found is None:
            return None
        made, made_kind, made_action = found
        if version is None or (made == version + 1 and _same_change(kind, text, made_kind, made_action)):
            return made
        raise Rejected("duplicate_id", f"the id {client_id!r} was used for another change (version {made}): "
                                       "send every change with a new id")

    def _check_seat_and_clock(self, seat: int, by_bot: bool, at: datetime) -> None:
        """A bot's seat is played by the bot only (its person resigned or ran out of time), a person's by the
        person only; and nobody acts after the deadline (the seat is about to go to a bot)."""
        info = self.seats[seat]
        if info.is_bot and not by_bot:
            reason = {"timeout": "ran out of time", "resigned": "resigned"}.get(info.out or "", "is a bot's")
            raise Rejected("out", f"a bot plays this seat now (its player {reason}): it cannot be taken back")
        if by_bot and not info.is_bot:
            raise Rejected("not_your_turn", "a person plays this seat now")
        deadline = aware(self.stored.deadline)
        if not by_bot and deadline is not None and at >= deadline:
            raise Rejected("time_up", "your time has run out: a bot takes over your seat")

    def _clock_after(self, seat: int, at: datetime) -> tuple[list[int], datetime | None, datetime] | None:
        """The clock to commit with a change (the state shows the change made): ``None`` for a game without one."""
        stored = self.stored
        if stored.clock is None or stored.clock_left is None:
            return None
        state = self.state
        after = None if state.is_over() or self.seats[state.current].is_bot else state.current
        left, deadline = clocks.turn_change(stored.clock, list(stored.clock_left), stored.deadline, seat, after, at)
        return left, deadline, at

    async def _reload(self, store: Store) -> None:
        """Read the seats, settings and clock back from the store (the caller holds the lock)."""
        stored = await store.call(store.load, self.id)
        if stored is None:
            return
        self.stored, self.seats, self.bot_speed = stored, stored.seats, stored.bot_speed
        # A connection whose seat went to a bot watches from now on: it can no longer act for the seat.
        for conn in list(self.connections):
            if conn.seat is not None and self.seats[conn.seat].is_bot:
                conn.seat = None
                conn.push(self.view_message("welcome", None, seat=None, game=self.summary()))

    async def resign(self, store: Store, seat: int | None) -> None:
        """The player of ``seat`` gives up: a bot plays the seat to the end (seats.out = "resigned") and they can
        never take it back; in a rated game they rank last (docs/server.md, "Ratings")."""
        seat = self.check_seat(seat)
        async with self.lock:
            if self.state.is_over():
                raise Rejected("over", "the game is over")
            if self.seats[seat].is_bot:
                raise Rejected("out", "a bot plays this seat already")
            if not await store.call(store.resign, self.id, seat, clocks.now()):
                await self._reload(store)
                raise Rejected("out", "this seat is no longer yours to give up (or the game is over)")
            await self._reload(store)
        self.broadcast_summary()
        self.on_seats(self)

    def _check_turn(self, seat: int, version: int | None) -> None:
        if self.state.is_over():
            raise Rejected("over", "the game is over")
        if version is not None and version != self.version:
            raise Rejected("stale", f"your move was made on version {version}, the game is at {self.version}: "
                                    "look again")
        if self.state.current != seat:
            raise Rejected("not_your_turn", f"it is not your turn ({self.seats[self.state.current].name} is to act)")

    async def catch_up(self, store: Store, version: int) -> None:
        """Another process announced ``version``: apply the committed events this room has not seen yet, and
        tell each connection as if they had happened here."""
        if version <= self.version:
            return
        async with self.lock:
            await self._catch_up(store)
        self.on_change(self, False)

    async def refresh(self, store: Store) -> None:
        """Catch up with whatever was committed that this room has not heard of (an announcement lost with a
        process or a Redis outage): a page that (re)connects always starts from the newest version."""
        latest = await store.call(store.version_of, self.id)
        if latest is not None and latest > self.version:
            await self.catch_up(store, latest)

    async def _catch_up(self, store: Store) -> None:
        """Apply the events past this room's version (the caller holds the lock)."""
        events = await store.call(store.events_after, self.id, self.version)
        if not events:
            return
        if events[0][0] != self.version + 1:
            await self._replace(store)
            return
        settled = False
        if self.stored.clock is not None:  # the clock those events left behind
            left, deadline = await store.call(store.clock_state, self.id)
            settled = deadline != self.stored.deadline
            self.stored = dataclasses.replace(self.stored, clock_left=left, deadline=deadline)
        for version, seat, kind, action in events:
            if kind == "undo":
                self.state.pop()
            else:
                self.state.push(action)
            self.version = version
            self._broadcast_update(seat, undo=kind == "undo")
        if settled:
            self.broadcast_summary()

    async def _replace(self, store: Store) -> None:
        """Read the whole game back (when the events do not join up with this room's version)."""
        loaded = await asyncio.to_thread(load_game, store, self.id)
        if loaded is None:
            return
        stored, state = loaded
        self.stored, self.seats, self.version, self.state = stored, stored.seats, stored.version, state
        self.broadcast_fresh()

    def _broadcast_update(self, actor: int, undo: bool) -> None:
        """Each connection gets its own seat's view; an action it may not see arrives as a bare version."""
        per_seat: dict[int | None, str] = {}
        for conn in list(self.connections):
            if conn.seat not in per_seat:
                if undo:
                    event: dict[str, Any] | None = {"seat": actor, "undo": True}
                else:
                    event = event_json(self.state, conn.seat)
                per_seat[conn.seat] = self.view_message("update", conn.seat, event=event)
            conn.push(per_seat[conn.seat])

    def broadcast_fresh(self) -> None:
        game = self.summary()
        for conn in list(self.connections):
            conn.push(self.view_message("welcome", conn.seat, seat=conn.seat, game=game))

    async def seats_changed(self, store: Store, made_here: bool) -> None:
        """Read the seats and settings back from the store (a claim, the bot speed, a seat gone to a bot, rating
        changes) and tell every page. Under the lock: a commit under way must not be overtaken by an older read
        of the clock."""
        async with self.lock:
            await self._reload(store)
        self.broadcast_summary()
        if made_here:
            self.on_seats(self)

    def broadcast_summary(self) -> None:
        message = dumps({"type": "game", "game": self.summary()})
        for conn in list(self.connections):
            conn.push(message)

    async def authenticate(self, store: Store, seat: int | None, token: str | None,
                           account_id: int | None = None) -> int | None:
        """The seat a connection may speak for: ``seat`` if ``token`` is its token or the connection's account
        (``account_id``, from its session cookie) sits there, else :class:`Rejected`. Who sits there is read from
        the store, not this room's seats: a seat attached, or an account deleted, in another process counts at
        once."""
        if seat is None:
            return None
        if not (0 <= seat < len(self.seats)) or self.seats[seat].is_bot:
            raise Rejected("bad_token", f"there is no human seat {seat} in this game")
        if token is not None and secret_matches(token, await store.call(store.seat_token_hash, self.id, seat)):
            return seat
        if account_id is not None:
            stored = await store.call(store.load, self.id)
            if stored is not None and seat < len(stored.seats) and stored.seats[seat].account_id == account_id:
                return seat
            raise Rejected("bad_token", "your account does not sit in that seat")
        raise Rejected("bad_token", "this browser holds no valid token for that seat")


def summary_json(stored: StoredGame, seats: tuple[Seat, ...], version: int, bot_speed: str, progress: Progress,
                 online: list[bool] | None = None) -> dict[str, Any]:
    rules = Rules.from_text(stored.rules)
    return {
        "id": stored.id,
        "players": stored.players,
        "rules": stored.rules,
        "edition": rules.edition,
        "master": rules.master,
        "card_mode": rules.card_mode.value,
        "version": version,
        "status": "finished" if progress.finished else "playing",
        "stage": progress.stage,
        "current": progress.current,
        "phase": progress.phase,
        "round": progress.round,
        "scores": progress.scores,
        "winners": progress.winners,
        "seats": [{"seat": s.seat, "kind": s.kind, "level": s.level, "name": s.name, "claimed": s.claimed,
                   "account": s.account, "out": s.out, "online": bool(online and online[s.seat])} for s in seats],
        "rated": stored.rated,
        "clock": clocks.clock_json(stored.clock, stored.clock_left, stored.deadline),
        "rating_changes": _rating_changes(stored, seats),
        "hotseat": stored.hotseat,
        "bot_speed": bot_speed,
        "created": stored.created.isoformat(timespec="seconds"),
        "updated": stored.updated.isoformat(timespec="seconds"),
    }


def _rating_changes(stored: StoredGame, seats: tuple[Seat, ...]) -> list[dict[str, Any]] | None:
    """A rated game's rating changes once applied (an empty list: it was found not to count, e.g. a player ran out
    of time without a move); the account is named as it is now (a deleted account's anonymised name, never the one
    it had)."""
    if not stored.rated or stored.rating_changes is None:
        return None
    return [{"seat": c["seat"], "account": seats[c["seat"]].account if c["seat"] < len(seats) else None,
             "before": c["before"], "after": c["after"]} for c in stored.rating_changes]


class Rooms:
    """The open games of this process, each loaded from the store once and kept while anyone holds it.

    A room is used only inside :meth:`hold` (or :meth:`holding`), which counts its holders; :meth:`forget_idle`
    drops only rooms that nobody holds. So a socket that has connected but not yet said hello, a request half-way
    through, a bot's task and a catch-up all keep the same copy, and a game never splits into two copies that each
    think they are current."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self.on_change: Callable[[Room, bool], None] = lambda room, local: None
        self.on_seats: Callable[[Room], None] = lambda room: None

    @asynccontextmanager
    async def hold(self, game_id: str) -> AsyncIterator[Room | None]:
        """The game's room (``None``: no such game), held until the block ends."""
        room = await self._take(game_id)
        try:
            yield room
        finally:
            if room is not None:
                room.holders -= 1

    @asynccontextmanager
    async def holding(self, room: Room) -> AsyncIterator[Room]:
        """Hold a room already in hand for a while (e.g. while catching it up)."""
        room.holders += 1
        try:
            yield room
        finally:
            room.holders -= 1

    async def _take(self, game_id: str) -> Room | None:
        """The room with one more holder, loaded (in a thread) if needed; loads of one game are shared."""
        while True:
            room = self._rooms.get(game_id)
            if room is not None:
                room.holders += 1  # (nothing awaits between the look-up and the hold)
                return room
            loading = self._loading.get(game_id)
            if loading is None:
                loading = asyncio.ensure_future(self._load(game_id))
                self._loading[game_id] = loading
                loading.add_done_callback(lambda _: self._loading.pop(game_id, None))
            if await asyncio.shield(loading) is None:
                return None
            # Loaded: take it on the next pass (it may have been forgotten again in between, then it loads again).

    async def _load(self, game_id: str) -> Room | None:
        loaded = await asyncio.to_thread(load_game, self.store, game_id)
        if loaded is None:
            return None
        room = self._rooms.get(game_id)
        if room is None:
            room = Room(*loaded)
            room.on_change = self.on_change
            room.on_seats = self.on_seats
            self._rooms[game_id] = room
        return room

    def loaded_room(self, game_id: str) -> Room | None:
        """The room if this process has it in memory (no database read); for a look that does not await."""
        return self._rooms.get(game_id)

    def __len__(self) -> int:
        return len(self._rooms)

    def forget_idle(self) -> None:
        """Drop the rooms nobody holds, watches or plays in (they are loaded from the store again when needed)."""
        for game_id, room in list(self._rooms.items()):
            if room.idle:
                del self._rooms[game_id]


@dataclass(frozen=True)
class _Change:
    """A change the engine accepted: its text for the store, how to make it and how to take it back."""

    text: str
    do: Callable[[], object]
    undo: Callable[[], object]


def _action_text(action_id: int) -> str:
    from ..engine.actions import format_action

    return format_action(action_id)


def load_game(store: Store, game_id: str) -> tuple[StoredGame, GameState] | None:
    """A stored game and its engine state (blocking: run it in a thread, a long game takes a while to replay)."""
    stored = store.load(game_id)
    return None if stored is None else (stored, replay_state(stored))
