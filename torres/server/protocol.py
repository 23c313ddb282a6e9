"""The messages of the HTTP API and the websocket, validated before anything else sees them (docs/server.md)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Annotated, Any, Awaitable, Callable, Literal, Union

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from ..engine.rules import EDITIONS, CardMode, Rules
from .bots import Busy
from .inputs import loads, one_line, printable
from .rooms import Connection, Rejected, Room, dumps
from .store import Store

if TYPE_CHECKING:
    from .accounts import Account

log = logging.getLogger("torres.server")

LEVELS = ("beginner", "casual", "strong", "expert", "master")


class Limits(BaseModel):
    """What one connection may send: a message's size, and a burst of messages refilled at a steady rate."""

    max_bytes: int = 4096
    burst: int = 60
    per_second: float = 30.0


CLIENT_LIMITS = Limits()

#: Rules settings that shape the board, the supply and the turn. The engine bounds them (``Rules`` refuses a value
#: out of its range with ``RulesError``, docs/notation.md §4), as it does every setting, wherever rules come from.
SHAPING_SETTINGS = ("stack_cap", "knights_per_player", "action_points", "max_buys", "blocks_total", "min_castles",
                    "castles", "phase_stacks", "king_bonus")

# --- HTTP ----------------------------------------------------------------------------------------------------


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["human", "bot"] = "human"
    level: Literal["beginner", "casual", "strong", "expert", "master"] | None = None  # bots only; default casual
    name: Annotated[str, Field(max_length=24), AfterValidator(one_line)] = ""

    @property
    def bot_level(self) -> str:
        return self.level or "casual"

    def display_name(self, index: int) -> str:
        if self.name:
            return self.name
        return f"{self.bot_level.capitalize()} bot" if self.kind == "bot" else f"Player {index + 1}"


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")

    players: int = Field(2, ge=2, le=4)
    edition: str = Field("riogrande", max_length=200, description="an edition name or rules text, e.g. "
                                                                  "'riogrande' or 'idw:master=1'")
    card_mode: Literal["own", "common"] | None = None
    master: bool | None = None
    seats: list[SeatSpec] = Field(default_factory=list, max_length=4)
    hotseat: bool = False
    bot_speed: Literal["slow", "normal", "fast", "instant"] = "normal"

    @model_validator(mode="after")
    def _seats_fit(self) -> "NewGame":
        if not self.seats:
            self.seats = [SeatSpec(kind="human")] + [SeatSpec(kind="bot") for _ in range(self.players - 1)]
        if len(self.seats) != self.players:
            raise ValueError(f"{self.players} players need {self.players} seats, not {len(self.seats)}")
        return self

    def rules(self) -> Rules:
        """The game's rules: the edition text, then ``card_mode`` and ``master`` where given. ``ValueError`` (the
        engine's ``RulesError``: the setting and its allowed values) for rules the engine refuses."""
        name = self.edition.partition(":")[0]
        if name not in EDITIONS:
            raise ValueError(f"unknown edition {name!r} (editions: {', '.join(EDITIONS)})")
        rules = Rules.from_text(self.edition)  # the engine's one check of rules text (docs/notation.md §4)
        changes: dict[str, Any] = {}
        if self.card_mode is not None:
            changes["card_mode"] = CardMode(self.card_mode)
        if self.master is not None:
            changes["master"] = self.master
        return rules.replace(**changes) if changes else rules


# --- the websocket -------------------------------------------------------------------------------------------
ClientId = Annotated[str, Field(min_length=1, max_length=64), AfterValidator(printable)]


class Hello(BaseModel):
    type: Literal["hello"]
    seat: int | None = Field(None, ge=0, le=3)
    token: str | None = Field(None, max_length=200)
    version: int | None = Field(None, ge=0)


class Act(BaseModel):
    type: Literal["act"]
    id: ClientId
    version: int = Field(ge=0)
    action: str = Field(min_length=1, max_length=200)


class Undo(BaseModel):
    type: Literal["undo"]
    id: ClientId
    version: int = Field(ge=0)


class HintRequest(BaseModel):
    type: Literal["hint"]
    id: ClientId


class Speed(BaseModel):
    type: Literal["speed"]
    value: Literal["slow", "normal", "fast", "instant"]


class Ping(BaseModel):
    type: Literal["ping"]


class Resign(BaseModel):
    """The player gives up their seat to a bot for good (docs/server.md, "Clocks")."""

    type: Literal["resign"]
    id: ClientId


ClientMessage = TypeAdapter(Annotated[Union[Hello, Act, Undo, HintRequest, Speed, Ping, Resign],
                                      Field(discriminator="type")])


def _error(code: str, message: str) -> str:
    return dumps({"type": "error", "code": code, "message": message})


def _reason(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "message"
    return f"{where}: {first.get('msg', 'invalid')}"


class _Bucket:
    """Token bucket: a burst of messages, refilled at a steady rate."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.tokens = float(limits.burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.limits.burst, self.tokens + (now - self.stamp) * self.limits.per_second)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


async def handle_socket(websocket: WebSocket, room: Room, store: Store, pool: Any,
                        limits: Limits = CLIENT_LIMITS, account: Account | None = None,
                        session_alive: Callable[[], Awaitable[bool]] | None = None) -> None:
    """Serve one page until it goes away; ``account``: the account its session cookie names (it opens the
    account's seats without a token), as long as ``session_alive`` says that session is still live."""
    connection = Connection(websocket.send_text)
    pump = asyncio.create_task(connection.pump())
    bucket = _Bucket(limits)
    cut_off = False
    try:
        while not connection.closed:
            text = await _receive_text(websocket)
            if text is None:
                connection.push(_error("bad_message", "messages are JSON in text frames, not binary frames"))
                if not bucket.take():
                    cut_off = True
                    break
                continue
            if len(text) > limits.max_bytes:
                connection.push(_error("too_large", f"messages are limited to {limits.max_bytes} bytes"))
                cut_off = True
                break
            if not bucket.take():
                connection.push(_error("too_many", "too many messages: slow down"))
                cut_off = True
                break
            await _dispatch(text, connection, room, store, pool, account, session_alive)
    except WebSocketDisconnect:
        pass
    finally:
        room.connections.discard(connection)
        await connection.finish(pump)
        if connection.seat is not None:
            room.broadcast_summary()
    if cut_off:  # the error is sent; a policy-violation close tells the client not to go on like this
        await websocket.close(code=1008)


async def _receive_text(websocket: WebSocket) -> str | None:
    """The next text frame (``None`` for a binary frame); :class:`WebSocketDisconnect` when the page goes away.
    Starlette's ``receive_text`` fails with a ``KeyError`` on a binary frame, dropping the connection unanswered."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else None



async def _dispatch(text: str, connection: Connection, room: Room, store: Store, pool: Any,
                    account: Account | None = None,
                    session_alive: Callable[[], Awaitable[bool]] | None = None) -> None:
    try:
        message = ClientMessage.validate_python(loads(text))
    except (ValueError, ValidationError) as exc:
        reason = _reason(exc) if isinstance(exc, ValidationError) else f"not JSON: {exc}"
        request_id = _id_of(text)
        if request_id is not None:
            connection.push(dumps({"type": "rejected", "id": request_id, "code": "bad_message", "message": reason,
                                   "version": room.version}))
        else:
            connection.push(_error("bad_message", reason))
        return
    if isinstance(message, Ping):
        connection.push(dumps({"type": "pong"}))
    elif isinstance(message, Hello):
        by_session = False
        try:
            try:
                seat = await room.authenticate(store, message.seat, message.token)
            except Rejected:  # not by the token: by the account, while the page's session lives
                if account is None or (session_alive is not None and not await session_alive()):
                    raise
                seat = await room.authenticate(store, message.seat, None, account.id)
                by_session = True
        except Rejected as exc:
            connection.push(_error(exc.code, exc.message))
            seat = None
        await room.refresh(store)
        was = connection.seat
        connection.seat, connection.by_session = seat, by_session
        # A page hears of changes only after its welcome, so the first version it sees is the welcome's and every
        # update after it follows on (none can slip in between: nothing from here on awaits).
        room.connections.add(connection)
        connection.push(room.view_message("welcome", seat, seat=seat, game=room.summary()))
        if seat != was:
            room.broadcast_summary()
    elif await _session_ended(message, connection, room, session_alive):
        return
    elif isinstance(message, (Act, Undo)):
        try:
            if isinstance(message, Act):
                await room.act(store, connection.seat, message.id, message.version, message.action, connection)
            else:
                await room.undo(store, connection.seat, message.id, message.version, connection)
        except Rejected as exc:
            connection.push(dumps({"type": "rejected", "id": message.id, "code": exc.code, "message": exc.message,
                                   "version": room.version}))
    elif isinstance(message, Resign):
        try:
            await room.resign(store, connection.seat)
        except Rejected as exc:
            connection.push(dumps({"type": "rejected", "id": message.id, "code": exc.code, "message": exc.message,
                                   "version": room.version}))
        else:
            connection.push(dumps({"type": "ack", "id": message.id, "version": room.version}))
    elif isinstance(message, HintRequest):
        await _hint(message, connection, room, pool)
    elif isinstance(message, Speed):
        if connection.seat is None:
            connection.push(_error("no_seat", "spectators cannot change the bot speed"))
            return
        if room.state.is_over():
            connection.push(_error("over", "the game is over: no bot plays any more"))
            return
        await store.call(store.set_bot_speed, room.id, message.value)
        await room.seats_changed(store, made_here=True)


async def _session_ended(message: Any, connection: Connection, room: Room,
                         session_alive: Callable[[], Awaitable[bool]] | None) -> bool:
    """A seat opened by the page's session speaks for it only while that session lives: after a password change, a
    log-out or the account's deletion the page becomes a spectator (it may say hello again with the seat's token,
    or log in again). Answers the message and returns ``True`` if so."""
    if connection.seat is None or not connection.by_session or session_alive is None or await session_alive():
        return False
    connection.seat, connection.by_session = None, False
    reason = "your session has ended (a log-out or a password change): log in again"
    client_id = getattr(message, "id", None)
    connection.push(dumps({"type": "rejected", "id": client_id, "code": "no_seat", "message": reason,
                           "version": room.version}) if client_id is not None else _error("no_seat", reason))
    room.broadcast_summary()
    return True


async def _hint(message: HintRequest, connection: Connection, room: Room, pool: Any) -> None:
    seat = connection.seat
    if seat is None:
        connection.push(dumps({"type": "rejected", "id": message.id, "code": "no_seat",
                               "message": "spectators get no hints: open your invite link to take a seat",
                               "version": room.version}))
        return
    if room.state.is_over() or room.state.current != seat:
        connection.push(dumps({"type": "rejected", "id": message.id, "code": "not_your_turn",
                               "message": "hints are for the player to act", "version": room.version}))
        return
    try:
        actions, text = await pool.hint(room.id, room.state.view(seat), seed=room.version)
    except Busy as exc:
        connection.push(dumps({"type": "rejected", "id": message.id, "code": "busy", "message": str(exc),
                               "version": room.version}))
        return
    except Exception:
        log.exception("hint failed in game %s", room.id)
        connection.push(dumps({"type": "rejected", "id": message.id, "code": "hint_failed",
                               "message": "no hint could be found this time", "version": room.version}))
        return
    connection.push(dumps({"type": "hint", "id": message.id, "actions": actions, "text": text}))


def _id_of(text: str) -> str | None:
    """The client id of a message that failed validation, so its rejection can name it."""
    try:
        data = loads(text)
    except ValueError:
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, str) and 0 < len(value) <= 64 and value.isprintable() else None

