"""Live games: the engine state of each open game, who is connected to it, and the one path every change takes.

A change (a player's action, an undo, a bot's action) is checked — token, turn, version — then the engine is asked,
the result is **committed** to the database, and only then acknowledged and broadcast, each connection getting its
own seat's view. Per game, changes are serialised by a lock; across processes the database's version check decides.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from ..engine.rules import Rules
from ..engine.state import GameState, IllegalActionError
from .store import Conflict, Progress, Seat, Store, StoredGame, secret_matches
from .views import event_json, seat_view_json

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

    async def pump(self) -> None:
        """Send queued messages in order until closed."""
        while True:
            message = await self.queue.get()
            if message is None:
                return
            await self.send_text(message)


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


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

    def online(self) -> list[bool]:
        present = {c.seat for c in self.connections if not c.closed}
        return [s.seat in present for s in self.seats]

    def summary(self) -> dict[str, Any]:
        state = self.state
        return summary_json(self.stored, self.seats, self.version, self.bot_speed, progress_of(state),
                            self.online())

    def view_message(self, kind: str, viewer: int | None, **extra: Any) -> str:
        """A message carrying ``viewer``'s view (``None``: the public view)."""
        return dumps({"type": kind, "version": self.version, **extra, "view": seat_view_json(self.state, viewer)})

    # --- changing --------------------------------------------------------------------------------------------
    def check_seat(self, seat: int | None) -> int:
        if seat is None:
            raise Rejected("no_seat", "spectators cannot act: open your invite link to take a seat")
        return seat

    async def act(self, store: Store, seat: int | None, client_id: str | None, version: int | None,
                  text: str, sender: Connection | None = None) -> tuple[int, bool]:
        """Apply ``text`` for ``seat``; returns the version it produced and whether it was new (``False``: the
        same client id was committed before and is only acknowledged again). ``sender`` gets its ack before the
        broadcast."""

        def apply() -> tuple[str, Callable[[], object]]:
            try:
                action = self.state.parse(text)
            except IllegalActionError as exc:
                raise Rejected("illegal", str(exc)) from None
            self.state.push(action)
            return str(action), self.state.pop

        return await self._change(store, seat, client_id, version, sender, "act", apply)

    async def undo(self, store: Store, seat: int | None, client_id: str | None, version: int | None,
                   sender: Connection | None = None) -> tuple[int, bool]:
        """Take back ``seat``'s last action if the engine allows it (:meth:`GameState.can_take_back`)."""

        def apply() -> tuple[str, Callable[[], object]]:
            if not self.state.can_take_back():
                raise Rejected("cannot_undo", "nothing to take back: only your own actions of this turn, and never "
                                              "a card draw")
            undone = self.state.pop()
            return str(undone), lambda: self.state.push(undone)

        return await self._change(store, seat, client_id, version, sender, "undo", apply)

    async def _change(self, store: Store, seat: int | None, client_id: str | None, version: int | None,
                      sender: Connection | None, kind: str,
                      apply: Callable[[], tuple[str, Callable[[], object]]]) -> tuple[int, bool]:
        """The one path of every change: seat, re-sent id, turn and version checked; the engine asked (``apply``
        changes the state and returns the change's text and how to revert it); committed; acknowledged; then
        broadcast."""
        seat = self.check_seat(seat)
        async with self.lock:
            earlier = self._committed_before(store, seat, client_id, version)
            if earlier is not None:
                _ack(sender, client_id, earlier)
                return earlier, False
            self._check_turn(seat, version)
            text, revert = apply()
            try:
                new_version = store.commit(self.id, expected=self.version, actions=self.state.actions_text(),
                                           seat=seat, client_id=client_id, kind=kind, action=text,
                                           progress=progress_of(self.state))
            except Conflict:
                revert()
                await self._reload(store)
                raise Rejected("stale", "the game has moved on (another change came first): look again") from None
            self.version = new_version
            _ack(sender, client_id, new_version)
            self._broadcast_update(seat, undo=kind == "undo")
        self.on_change(self, True)
        return new_version, True

    def _committed_before(self, store: Store, seat: int, client_id: str | None, version: int | None) -> int | None:
        """The version an earlier commit of this client id produced, if this is a re-sent change. A re-sent change
        was made against an older version (its own commit moved the game on), so only those are looked up; a
        reused id on the current version is still refused by the unique index at commit."""
        if client_id is None or version is None or version == self.version:
            return None
        return store.find_event(self.id, seat, client_id)

    def _check_turn(self, seat: int, version: int | None) -> None:
        if self.state.is_over():
            raise Rejected("over", "the game is over")
        if version is not None and version != self.version:
            raise Rejected("stale", f"your move was made on version {version}, the game is at {self.version}: "
                                    "look again")
        if self.state.current != seat:
            raise Rejected("not_your_turn", f"it is not your turn ({self.seats[self.state.current].name} is to act)")

    async def _reload(self, store: Store) -> None:
        """Another process changed the game: apply what it committed (the caller holds the lock)."""
        self._catch_up(store)

    async def catch_up(self, store: Store, version: int) -> None:
        """Another process announced ``version``: apply the committed events this room has not seen yet, and
        tell each connection as if they had happened here."""
        if version <= self.version:
            return
        async with self.lock:
            self._catch_up(store)
        self.on_change(self, False)

    def _catch_up(self, store: Store) -> None:
        events = store.events_after(self.id, self.version)
        if not events or events[0][0] != self.version + 1:
            self._replace(store)
            return
        for version, seat, kind, action in events:
            if kind == "undo":
                self.state.pop()
            else:
                self.state.push(action)
            self.version = version
            self._broadcast_update(seat, undo=kind == "undo")

    def _replace(self, store: Store) -> None:
        """Read the whole game back (when the events do not join up with this room's version)."""
        stored = store.load(self.id)
        if stored is None:
            return
        self.stored, self.seats, self.version = stored, stored.seats, stored.version
        self.state = replay_state(stored)
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
        for conn in list(self.connections):
            conn.push(self.view_message("welcome", conn.seat, seat=conn.seat, game=self.summary()))

    def seats_changed(self, store: Store, made_here: bool) -> None:
        """Read the seats and settings back from the store (a claim, the bot speed) and tell every page."""
        stored = store.load(self.id)
        if stored is None:
            return
        self.stored, self.seats, self.bot_speed = stored, stored.seats, stored.bot_speed
        self.broadcast_summary()
        if made_here:
            self.on_seats(self)

    def broadcast_summary(self) -> None:
        message = dumps({"type": "game", "game": self.summary()})
        for conn in list(self.connections):
            conn.push(message)

    def authenticate(self, store: Store, seat: int | None, token: str | None) -> int | None:
        """The seat a connection may speak for: ``seat`` if ``token`` is its token, else :class:`Rejected`."""
        if seat is None:
            return None
        if not (0 <= seat < len(self.seats)) or self.seats[seat].is_bot:
            raise Rejected("bad_token", f"there is no human seat {seat} in this game")
        if not secret_matches(token, store.seat_token_hash(self.id, seat)):
            raise Rejected("bad_token", "this browser holds no valid token for that seat")
        return seat


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
                   "online": bool(online and online[s.seat])} for s in seats],
        "hotseat": stored.hotseat,
        "bot_speed": bot_speed,
        "created": stored.created.isoformat(timespec="seconds"),
        "updated": stored.updated.isoformat(timespec="seconds"),
    }


class Rooms:
    """The open games of this process, loaded from the store on first use."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()
        self.on_change: Callable[[Room, bool], None] = lambda room, local: None
        self.on_seats: Callable[[Room], None] = lambda room: None

    async def get(self, game_id: str) -> Room | None:
        room = self._rooms.get(game_id)
        if room is not None:
            return room
        async with self._loading:
            room = self._rooms.get(game_id)
            if room is None:
                stored = self.store.load(game_id)
                if stored is None:
                    return None
                room = Room(stored, replay_state(stored))
                room.on_change = self.on_change
                room.on_seats = self.on_seats
                self._rooms[game_id] = room
            return room

    def loaded_room(self, game_id: str) -> Room | None:
        """The room if this process has it in memory (no database read)."""
        return self._rooms.get(game_id)

    def forget_idle(self) -> None:
        """Drop rooms nobody watches and no bot plays in (they are reloaded from the store when needed)."""
        for game_id, room in list(self._rooms.items()):
            if not room.connections and room.bot_to_act() is None and not room.lock.locked():
                del self._rooms[game_id]

