"""The lobby (docs/server.md, "Lobby"): open games waiting for players ("seeks"), who is online, an account's games
in progress, and the rematch of a finished game.

Every decision is the database's, so it holds with several processes sharing one database: a seek's seats are
taken in one transaction that starts by writing the seek's row (a row lock in PostgreSQL, the write lock in SQLite),
so two players racing for the last seat are served one after the other and the game starts exactly once; a rematch
is pointed to by one conditional update. The pages hear of changes on ``/ws/lobby``; other processes hear of them
over the bus (only seek, game and account ids travel) and read the lobby back from the database themselves.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Annotated, Any, AsyncIterator, Literal

from fastapi import Depends, FastAPI, HTTPException, Request, Response, WebSocket, WebSocketDisconnect
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from ..engine.rules import Rules
from ..engine.state import GameState
from . import accounts, clocks
from .inputs import GameId, SeekId, answers, loads, one_line
from .protocol import Limits, NewGame, _Bucket, _receive_text
from .rooms import Connection, dumps, progress_of, summary_json
from .services import Services
from .store import AccountRow, GameRow, PresenceRow, SeatRow, SeekPlayerRow, SeekRow, Store, aware, now

log = logging.getLogger("torres.server.lobby")

#: Open seeks one account may sit in at once (its own and others'): enough to find a game, too few to flood the list.
MAX_OPEN_SEEKS = 5
#: At most this many seeks and online names in a lobby message (the oldest seeks first).
LIST_CAP = 200
#: An account is online while a page of it has told the server so within this many seconds.
ONLINE_SECONDS = 60
#: A seek is cancelled once its creator has had no page open for this long.
CREATOR_GONE_SECONDS = 30
#: How often a process writes down the accounts with a socket open on it (fewer writes than one per ping).
PRESENCE_SECONDS = 20
#: How often abandoned seeks are cancelled and the online list read again.
SWEEP_SECONDS = 10
#: A burst of changes makes at most one lobby message per this many seconds.
DEBOUNCE_SECONDS = 0.1
#: A lobby page only pings: small messages, and few.
LOBBY_LIMITS = Limits(max_bytes=256, burst=10, per_second=1.0)
#: At most this many games in "my games".
MY_GAMES_CAP = 100

Level = Literal["beginner", "casual", "strong", "expert", "master"]


class LobbyError(Exception):
    """A refused lobby request: the HTTP status and a message for people."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class NewSeek(BaseModel):
    """``POST /api/lobby``."""

    model_config = ConfigDict(extra="forbid")

    players: int = Field(2, ge=2, le=4)
    edition: str = Field("riogrande", max_length=200, description="an edition name or rules text, as for a game")
    card_mode: Literal["own", "common"] | None = None
    master: bool | None = None
    rated: bool = False
    clock: clocks.ClockSpec | None = None
    bots: Level | None = Field(None, description="fill the seats still empty at the start with bots of this level")
    note: Annotated[str, Field(max_length=80), AfterValidator(one_line)] = ""  # one line, as the list shows it

    @model_validator(mode="after")
    def _rated_needs(self) -> "NewSeek":
        # A rated game is between accounts only, and must end even when someone walks away: the clock ends it.
        if self.rated and self.bots is not None:
            raise ValueError("a rated game is between people only: no bots")
        if self.rated and self.clock is None:
            raise ValueError("a rated game needs a clock (so that an abandoned game ends)")
        return self

    def rules(self) -> Rules:
        """The rules exactly as ``POST /api/games`` reads them (the engine's one check of rules text)."""
        return NewGame(players=self.players, edition=self.edition, card_mode=self.card_mode,
                       master=self.master).rules()


@dataclass(frozen=True)
class Start:
    """A seek this request won the right to start: its players (account id, username) and settings."""

    seek_id: str
    players: int
    rules: str
    rated: bool
    clock: str | None
    bots: str | None
    accounts: tuple[tuple[int, str], ...]


# --- the database (blocking: run through Store.call) ----------------------------------------------------------
def _seek_json(row: SeekRow, creator: str, joined: list[str]) -> dict[str, Any]:
    return {"id": row.id, "creator": creator, "players": row.players, "edition": Rules.from_text(row.rules).edition,
            "rules": row.rules, "rated": row.rated, "clock": clocks.json_of(row.clock), "bots": row.bots,
            "note": row.note, "joined": joined, "created": aware(row.created).isoformat(timespec="seconds")}


def _seeks_json(session: Any, rows: list[SeekRow]) -> list[dict[str, Any]]:
    ids = [r.id for r in rows]
    players = session.execute(
        select(SeekPlayerRow.seek_id, AccountRow.username)
        .join(AccountRow, AccountRow.id == SeekPlayerRow.account_id)
        .where(SeekPlayerRow.seek_id.in_(ids)).order_by(SeekPlayerRow.joined)).all() if ids else []
    joined: dict[str, list[str]] = {}
    for seek_id, username in players:
        joined.setdefault(seek_id, []).append(username)
    creators: dict[int, str] = {}
    if rows:
        creators = {r[0]: r[1] for r in session.execute(select(AccountRow.id, AccountRow.username)
                                                        .where(AccountRow.id.in_({r.creator_id for r in rows})))}
    return [_seek_json(r, creators.get(r.creator_id, "?"), joined.get(r.id, [])) for r in rows]


def read_lobby(store: Store, at: datetime | None = None) -> dict[str, Any]:
    """The open seeks (oldest first) and the usernames online, capped."""
    since = (at or now()) - timedelta(seconds=ONLINE_SECONDS)
    with store.sessions() as session:
        rows = list(session.scalars(select(SeekRow).where(SeekRow.status == "open")
                                    .order_by(SeekRow.created, SeekRow.id).limit(LIST_CAP)).all())
        online = list(session.scalars(
            select(AccountRow.username).join(PresenceRow, PresenceRow.account_id == AccountRow.id)
            .where(PresenceRow.seen >= since, AccountRow.deleted.is_(False))
            .order_by(AccountRow.username_key).limit(LIST_CAP)).all())
        return {"seeks": _seeks_json(session, rows), "online": online}


def read_seek(store: Store, seek_id: str) -> dict[str, Any] | None:
    with store.sessions() as session:
        row = session.get(SeekRow, seek_id)
        return None if row is None else _seeks_json(session, [row])[0]


def _open_seeks_of(session: Any, account_id: int) -> int:
    return int(session.scalar(select(func.count()).select_from(SeekPlayerRow)
                              .join(SeekRow, SeekRow.id == SeekPlayerRow.seek_id)
                              .where(SeekPlayerRow.account_id == account_id, SeekRow.status == "open")) or 0)


def create_seek(store: Store, account_id: int, body: NewSeek, rules: str) -> str:
    clock = clocks.text_of(body.clock) if body.clock is not None else None
    note = body.note
    seek_id = secrets.token_urlsafe(9)
    stamp = now()
    with store.sessions.begin() as session:
        if _open_seeks_of(session, account_id) >= MAX_OPEN_SEEKS:
            raise LobbyError(409, f"you are in {MAX_OPEN_SEEKS} open games already: cancel or leave one first")
        session.add(SeekRow(id=seek_id, creator_id=account_id, players=body.players, rules=rules, rated=body.rated,
                            clock=clock, bots=body.bots, note=note, status="open", game_id=None, created=stamp))
        session.flush()
        session.add(SeekPlayerRow(seek_id=seek_id, account_id=account_id, joined=stamp))
    return seek_id


def _lock_open(session: Any, seek_id: str, *conditions: Any) -> SeekRow:
    """Take the seek for this transaction, if it is open (and meets ``conditions``): the first statement writes its
    row — PostgreSQL locks the row until the commit, SQLite takes its write lock — so every other join, leave or
    start of it waits, then finds it as this transaction left it. Otherwise :class:`LobbyError` saying why."""
    done = session.execute(update(SeekRow).where(SeekRow.id == seek_id, SeekRow.status == "open", *conditions)
                           .values(status="open").execution_options(synchronize_session=False))
    row: SeekRow | None = session.get(SeekRow, seek_id, populate_existing=True)
    if row is None:
        raise LobbyError(404, f"no open game {seek_id!r} in the lobby")
    if getattr(done, "rowcount", 0) != 1:
        if row.status == "started":
            raise LobbyError(409, "this game has started already")
        if row.status == "cancelled":
            raise LobbyError(409, "this game was cancelled")
        raise LobbyError(403, "only the player who opened this game may do that")
    return row


def _players_of(session: Any, seek_id: str) -> list[tuple[int, str]]:
    return [(r[0], r[1]) for r in session.execute(
        select(SeekPlayerRow.account_id, AccountRow.username).join(AccountRow, AccountRow.id == SeekPlayerRow.account_id)
        .where(SeekPlayerRow.seek_id == seek_id).order_by(SeekPlayerRow.joined, SeekPlayerRow.account_id)).all()]


def _start_of(row: SeekRow, players: list[tuple[int, str]]) -> Start:
    return Start(row.id, row.players, row.rules, row.rated, row.clock, row.bots, tuple(players))


def join_seek(store: Store, seek_id: str, account_id: int) -> Start | None:
    """Take a seat in the seek; the :class:`Start` if that filled it (this caller then starts the game)."""
    with store.sessions.begin() as session:
        row = _lock_open(session, seek_id)
        players = _players_of(session, seek_id)
        if any(a == account_id for a, _ in players):
            raise LobbyError(409, "you are in this game already")
        if len(players) >= row.players:
            raise LobbyError(409, "this game is full")
        if _open_seeks_of(session, account_id) >= MAX_OPEN_SEEKS:
            raise LobbyError(409, f"you are in {MAX_OPEN_SEEKS} open games already: leave one first")
        session.add(SeekPlayerRow(seek_id=seek_id, account_id=account_id, joined=now()))
        session.flush()
        if len(players) + 1 < row.players:
            return None
        # The last seat: this transaction still holds the seek, so it alone marks it started.
        session.execute(update(SeekRow).where(SeekRow.id == seek_id).values(status="started")
                        .execution_options(synchronize_session=False))
        return _start_of(row, _players_of(session, seek_id))


def leave_seek(store: Store, seek_id: str, account_id: int) -> None:
    with store.sessions.begin() as session:
        row = _lock_open(session, seek_id)
        if row.creator_id == account_id:
            raise LobbyError(409, "you opened this game: cancel it instead (DELETE /api/lobby/<id>)")
        gone = session.execute(delete(SeekPlayerRow).where(SeekPlayerRow.seek_id == seek_id,
                                                           SeekPlayerRow.account_id == account_id))
        if getattr(gone, "rowcount", 0) != 1:
            raise LobbyError(409, "you are not in this game")


def cancel_seek(store: Store, seek_id: str, account_id: int) -> None:
    with store.sessions.begin() as session:
        _lock_open(session, seek_id, SeekRow.creator_id == account_id)
        session.execute(update(SeekRow).where(SeekRow.id == seek_id).values(status="cancelled")
                        .execution_options(synchronize_session=False))


def claim_start(store: Store, seek_id: str, account_id: int) -> Start:
    """The creator starts a seek with bots now: bots take the seats still empty."""
    with store.sessions.begin() as session:
        row = _lock_open(session, seek_id, SeekRow.creator_id == account_id)
        if row.bots is None:
            raise LobbyError(409, "this game waits for people: only a game with bots can start before it is full")
        session.execute(update(SeekRow).where(SeekRow.id == seek_id).values(status="started")
                        .execution_options(synchronize_session=False))
        return _start_of(row, _players_of(session, seek_id))


def _is_ours(store: Store, message: dict[str, Any]) -> bool:
    """Whether a "started" or "rematch" heard on the bus is about this database: account ids are small numbers
    that every database has, so a message from another deployment sharing the Redis (the tests' processes do)
    would otherwise reach this database's accounts. The seek and game ids are random: the database must say so."""
    with store.sessions() as session:
        if message.get("type") == "started":
            return bool(session.scalar(select(SeekRow.game_id).where(SeekRow.id == str(message.get("seek")))
                                       ) == message["game"])
        return bool(session.scalar(select(GameRow.rematch).where(GameRow.id == message["game"]))
                    == message.get("rematch"))


def set_seek_game(store: Store, seek_id: str, game_id: str | None) -> None:
    """The started seek's game (``None``: it could not be made, and the seek is cancelled)."""
    with store.sessions.begin() as session:
        values: dict[str, Any] = {"game_id": game_id} if game_id else {"status": "cancelled"}
        session.execute(update(SeekRow).where(SeekRow.id == seek_id).values(**values))


def cancel_abandoned(store: Store, at: datetime | None = None) -> list[str]:
    """Cancel the open seeks whose creator has had no page open for :data:`CREATOR_GONE_SECONDS`; their ids."""
    since = (at or now()) - timedelta(seconds=CREATOR_GONE_SECONDS)
    with store.sessions.begin() as session:
        recent = select(PresenceRow.account_id).where(PresenceRow.seen >= since)
        ids = list(session.scalars(select(SeekRow.id).where(SeekRow.status == "open",
                                                            SeekRow.creator_id.not_in(recent))).all())
        if ids:
            # The same condition again: a creator who came back since the read keeps the seek.
            session.execute(update(SeekRow).where(SeekRow.id.in_(ids), SeekRow.status == "open",
                                                  SeekRow.creator_id.not_in(recent))
                            .values(status="cancelled").execution_options(synchronize_session=False))
        return ids


def mark_present(store: Store, account_ids: list[int], at: datetime | None = None) -> None:
    """These accounts have a page open now (an upsert: one statement, whichever process writes)."""
    if not account_ids:
        return
    stamp = at or now()
    from sqlalchemy.dialects import postgresql, sqlite

    insert: Any = postgresql.insert if store.engine.dialect.name == "postgresql" else sqlite.insert
    statement = insert(PresenceRow).values([{"account_id": a, "seen": stamp} for a in sorted(set(account_ids))])
    statement = statement.on_conflict_do_update(index_elements=[PresenceRow.account_id],
                                                set_={"seen": statement.excluded.seen})
    try:
        with store.sessions.begin() as session:
            session.execute(statement)
    except IntegrityError:  # an account deleted meanwhile: the others are written one by one
        for account_id in account_ids:
            try:
                with store.sessions.begin() as session:
                    session.execute(statement.values([{"account_id": account_id, "seen": stamp}]))
            except IntegrityError:
                pass


def my_games(store: Store, account_id: int) -> list[tuple[str, int]]:
    """The unfinished games the account plays in (not those it has left to a bot): (game id, its seat)."""
    with store.sessions() as session:
        return [(r[0], r[1]) for r in session.execute(
            select(SeatRow.game_id, func.min(SeatRow.seat)).join(GameRow, GameRow.id == SeatRow.game_id)
            .where(SeatRow.account_id == account_id, SeatRow.out.is_(None), GameRow.finished.is_(False))
            .group_by(SeatRow.game_id, GameRow.updated).order_by(GameRow.updated.desc())
            .limit(MY_GAMES_CAP)).all()]


def point_rematch(store: Store, game_id: str, rematch: str) -> str:
    """Make ``rematch`` the game's rematch unless another request did first; the rematch that counts."""
    with store.sessions.begin() as session:
        session.execute(update(GameRow).where(GameRow.id == game_id, GameRow.rematch.is_(None))
                        .values(rematch=rematch).execution_options(synchronize_session=False))
        winner = session.scalar(select(GameRow.rematch).where(GameRow.id == game_id))
    return str(winner)


def delete_game(store: Store, game_id: str) -> None:
    """A game nobody has seen (the rematch that lost the race), with its seats."""
    with store.sessions.begin() as session:
        session.execute(delete(SeatRow).where(SeatRow.game_id == game_id))
        session.execute(delete(GameRow).where(GameRow.id == game_id))


# --- the live part of one process ---------------------------------------------------------------------------
@dataclass(eq=False)
class LobbySocket:
    connection: Connection
    account_id: int | None
    last: str = ""


@dataclass(eq=False)
class Lobby:
    """This process's lobby pages and the accounts with a page open here."""

    services: Services
    sockets: set[LobbySocket] = field(default_factory=set)
    #: Open sockets (lobby and game pages) per account on this process: these accounts are online.
    present: dict[int, int] = field(default_factory=dict)
    _stale: bool = False
    _flusher: asyncio.Task[None] | None = None

    @property
    def store(self) -> Store:
        return self.services.store

    def changed(self, announce: bool = True) -> None:
        """The lobby changed: tell this process's pages soon (a burst makes one message) and, if the change was made
        here, the other processes."""
        if announce:
            self.services.bus.announce_lobby(dumps({"kind": "lobby"}))
        self._stale = True
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush(), name="lobby-flush")

    async def _flush(self) -> None:
        while self._stale:
            await asyncio.sleep(DEBOUNCE_SECONDS)
            self._stale = False  # a change from here on reads again after the next pause
            try:
                await self.push_lobby()
            except Exception:
                log.exception("could not send the lobby")

    async def lobby_text(self) -> str:
        lobby = await self.store.call(read_lobby, self.store)
        return dumps({"type": "lobby", **lobby})

    async def push_lobby(self) -> None:
        """Send the lobby as the database has it to every page whose copy differs."""
        if not self.sockets:
            return
        text = await self.lobby_text()
        for socket in list(self.sockets):
            if socket.last != text:
                socket.last = text
                socket.connection.push(text)

    def tell(self, account_ids: list[int], message: dict[str, Any], announce: bool = True) -> None:
        """Send ``message`` to these accounts' lobby pages here, and (if it happened here) announce it."""
        text = dumps(message)
        wanted = set(account_ids)
        for socket in list(self.sockets):
            if socket.account_id in wanted:
                socket.connection.push(text)
        if message["type"] == "rematch":  # the finished game's pages here offer the rematch too
            room = self.services.rooms.loaded_room(message["game"])
            if room is not None:
                for connection in list(room.connections):
                    connection.push(text)
        if announce:
            self.services.bus.announce_lobby(dumps({"kind": "tell", "accounts": sorted(wanted), "message": message}))

    async def heard(self, text: str) -> None:
        """Another process's announcement: read the lobby back (the announcement carries only ids)."""
        data = loads(text)
        if not isinstance(data, dict):
            return
        if data.get("kind") == "tell":
            message = data.get("message")
            if (isinstance(message, dict) and message.get("type") in ("started", "rematch")
                    and isinstance(message.get("game"), str)
                    and await self.store.call(_is_ours, self.store, message)):
                self.tell([a for a in data.get("accounts", []) if isinstance(a, int)], message, announce=False)
        self.changed(announce=False)

    @asynccontextmanager
    async def online(self, account_id: int | None) -> AsyncIterator[None]:
        """While the block runs, the account has a page open on this process."""
        if account_id is None:
            yield
            return
        first = account_id not in self.present
        self.present[account_id] = self.present.get(account_id, 0) + 1
        try:
            if first:  # newly online here: written down now, and every lobby's online list updated
                try:
                    await self.store.call(mark_present, self.store, [account_id])
                    self.changed()
                except Exception:  # presence is a courtesy: it must not cost a player their game page
                    log.exception("could not write down that account %s is online", account_id)
            yield
        finally:
            self.present[account_id] -= 1
            if self.present[account_id] <= 0:
                del self.present[account_id]

    async def keep_present(self) -> None:
        """Write down the accounts with a page open here (their presence stays under :data:`ONLINE_SECONDS`)."""
        await self.store.call(mark_present, self.store, list(self.present))

    async def sweep(self, at: datetime | None = None) -> list[str]:
        """Cancel the seeks whose creators are gone, and send the lobby where it changed (names going offline)."""
        cancelled = await self.store.call(cancel_abandoned, self.store, at)
        if cancelled:
            self.services.bus.announce_lobby(dumps({"kind": "lobby"}))
        await self.push_lobby()
        return cancelled

    # --- starting games ----------------------------------------------------------------------------------------
    async def new_game(self, *, rules: str, players: int, seats: list[tuple[str, str | None, str, int | None]],
                       rated: bool, clock: str | None) -> str:
        """Create a game between accounts (and bots) and let its bots play if they act first."""
        store = self.store
        seed = secrets.randbits(63)
        state = GameState(players, seed, Rules.from_text(rules))
        clock_left, deadline = (None, None)
        if clock is not None:
            clock_left, deadline = clocks.initial(clock, players, seats[state.current][0] == "human", now())
        game_id, _, _ = await store.call(
            store.create_game, rules=rules, players=players, seed=seed, hotseat=False, bot_speed="normal",
            seats=[(kind, level, name) for kind, level, name, _ in seats], claim=[], progress=progress_of(state),
            accounts={i: a for i, (_, _, _, a) in enumerate(seats) if a is not None}, rated=rated, clock=clock,
            clock_left=clock_left, deadline=deadline)
        return game_id

    async def wake(self, game_id: str) -> None:
        async with self.services.rooms.hold(game_id) as room:
            if room is not None:
                self.services.driver.wake(room)

    async def start(self, start: Start) -> str:
        """Start a seek this request won: seats in random order, bots in the seats nobody took."""
        seats: list[tuple[str, str | None, str, int | None]] = [("human", None, name, a) for a, name in start.accounts]
        level = start.bots or "casual"
        seats += [("bot", level, f"{level.capitalize()} bot", None)] * (start.players - len(seats))
        secrets.SystemRandom().shuffle(seats)  # who moves first is nobody's choice
        try:
            game_id = await self.new_game(rules=start.rules, players=start.players, seats=seats, rated=start.rated,
                                          clock=start.clock)
        except Exception:
            await self.store.call(set_seek_game, self.store, start.seek_id, None)
            self.changed()
            raise
        await self.store.call(set_seek_game, self.store, start.seek_id, game_id)
        await self.wake(game_id)
        self.changed()
        self.tell([a for a, _ in start.accounts], {"type": "started", "seek": start.seek_id, "game": game_id})
        return game_id

    # --- the lobby page's socket -------------------------------------------------------------------------------
    async def serve(self, websocket: WebSocket) -> None:
        await websocket.accept()
        account = await accounts.account_of_socket(websocket)
        connection = Connection(websocket.send_text)
        socket = LobbySocket(connection, account.id if account else None)
        pump = asyncio.create_task(connection.pump())
        bucket = _Bucket(LOBBY_LIMITS)
        cut_off = False
        try:
            async with self.online(socket.account_id):
                # Listed before the first read: a "started" sent while the page's lobby is read must reach it.
                self.sockets.add(socket)
                lobby = await self.lobby_text()
                if not socket.last:
                    socket.last = lobby
                    connection.push(lobby)
                elif socket.last != lobby:  # a change was pushed meanwhile, read apart from this: read once more
                    self.changed(announce=False)
                while not connection.closed:
                    text = await _receive_text(websocket)
                    if text is None or len(text) > LOBBY_LIMITS.max_bytes or not bucket.take():
                        connection.push(dumps({"type": "error", "code": "bad_message", "message":
                                               f"a lobby page sends {{\"type\": \"ping\"}} (at most "
                                               f"{LOBBY_LIMITS.max_bytes} bytes, now and then)"}))
                        cut_off = True
                        break
                    try:
                        message = loads(text)
                    except ValueError:
                        message = None
                    if isinstance(message, dict) and message.get("type") == "ping":
                        connection.push(dumps({"type": "pong"}))
                    else:
                        connection.push(dumps({"type": "error", "code": "bad_message",
                                               "message": "the lobby understands only {\"type\": \"ping\"}"}))
        except WebSocketDisconnect:
            pass
        finally:
            self.sockets.discard(socket)
            await connection.finish(pump)
        if cut_off:
            await websocket.close(code=1008)


def _refuse(exc: LobbyError) -> HTTPException:
    return HTTPException(exc.status, exc.message)


def install(app: FastAPI, services: Services) -> None:
    """The lobby's routes, its socket, the presence and seek sweepers, and its bus announcements."""
    store = services.store
    lobby = Lobby(services)
    app.state.lobby = lobby
    services.bus.on_lobby = lobby.heard
    services.every(PRESENCE_SECONDS, "lobby-presence", lobby.keep_present)

    async def sweep() -> None:
        await lobby.sweep()

    services.every(SWEEP_SECONDS, "lobby-sweep", sweep)
    changer = Depends(accounts.account_for_change)

    async def run(method: Any, *args: Any) -> Any:
        try:
            return await store.call(method, store, *args)
        except LobbyError as exc:
            raise _refuse(exc) from None

    @app.get("/api/lobby")
    async def get_lobby() -> dict[str, Any]:
        return dict(await store.call(read_lobby, store))

    @app.post("/api/lobby", status_code=201, responses=answers(400, 401, 403, 409))
    async def open_seek(body: NewSeek, account: accounts.Account = changer) -> dict[str, Any]:
        try:
            rules = body.rules().to_text()
        except ValueError as exc:
            raise HTTPException(400, str(exc)) from None
        seek_id = await run(create_seek, account.id, body, rules)
        # Opening a seek is a page open now: the creator counts as present until their lobby page takes over.
        await store.call(mark_present, store, [account.id])
        lobby.changed()
        return {"id": seek_id, "seek": await store.call(read_seek, store, seek_id)}

    @app.post("/api/lobby/{seek_id}/join", responses=answers(401, 403, 404, 409))
    async def join(seek_id: SeekId, account: accounts.Account = changer) -> dict[str, Any]:
        # The seat goes to the session's account, whatever the request says.
        start = await run(join_seek, seek_id, account.id)
        game_id = await lobby.start(start) if start is not None else None
        if start is None:
            lobby.changed()
        return {"seek": await store.call(read_seek, store, seek_id), "game": game_id}

    @app.post("/api/lobby/{seek_id}/leave", status_code=204, responses=answers(401, 403, 404, 409))
    async def leave(seek_id: SeekId, account: accounts.Account = changer) -> Response:
        await run(leave_seek, seek_id, account.id)
        lobby.changed()
        return Response(status_code=204)

    @app.delete("/api/lobby/{seek_id}", status_code=204, responses=answers(401, 403, 404, 409))
    async def cancel(seek_id: SeekId, account: accounts.Account = changer) -> Response:
        await run(cancel_seek, seek_id, account.id)
        lobby.changed()
        return Response(status_code=204)

    @app.post("/api/lobby/{seek_id}/start", responses=answers(401, 403, 404, 409))
    async def start_now(seek_id: SeekId, account: accounts.Account = changer) -> dict[str, Any]:
        start = await run(claim_start, seek_id, account.id)
        return {"game": await lobby.start(start)}

    @app.websocket("/ws/lobby")
    async def lobby_socket(websocket: WebSocket) -> None:
        await lobby.serve(websocket)

    @app.get("/api/account/games", responses=answers(401))
    async def account_games(request: Request) -> dict[str, Any]:
        account = await accounts.current_account(request)
        if account is None:
            raise HTTPException(401, "log in to see your games")
        seats = dict(await store.call(my_games, store, account.id))
        out = []
        for stored, progress in await store.call(store.listed, list(seats)):
            room = services.rooms.loaded_room(stored.id)
            summary = room.summary() if room is not None else summary_json(
                stored, stored.seats, stored.version, stored.bot_speed, progress)
            seat = seats[stored.id]
            your_turn = (summary["status"] == "playing" and summary["current"] == seat
                         and summary["seats"][seat]["kind"] == "human")
            out.append({**summary, "seat": seat, "your_turn": your_turn})
        # your turn first, then the games that moved last
        out.sort(key=lambda g: g["updated"], reverse=True)
        out.sort(key=lambda g: not g["your_turn"])
        return {"games": out}

    @app.post("/api/games/{game_id}/rematch", responses=answers(401, 403, 404, 409))
    async def rematch(game_id: GameId, account: accounts.Account = changer) -> dict[str, Any]:
        listed = await store.call(store.listed, [game_id])
        if not listed:
            raise HTTPException(404, f"no game {game_id!r}")
        stored, progress = listed[0]
        if not any(s.account_id == account.id for s in stored.seats):
            raise HTTPException(403, "only the game's players can ask for a rematch")
        if not progress.finished:
            raise HTTPException(409, "a rematch is for a finished game")
        if stored.rematch is not None:
            return {"game": stored.rematch}
        if any(s.account_id is None and (s.kind == "human" or s.out is not None) for s in stored.seats):
            raise HTTPException(409, ("a rematch needs accounts: every player of the game must have one (a guest or a deleted "
                                     "account sat in it)"))
        n = stored.players
        old = [stored.seats[(i + 1) % n] for i in range(n)]  # rotated: who sat second now sits first
        seats: list[tuple[str, str | None, str, int | None]] = [
            ("human", None, s.account or s.name, s.account_id) if s.account_id is not None
                 else ("bot", s.level, s.name, None) for s in old]
        made = await lobby.new_game(rules=stored.rules, players=n, seats=seats, rated=stored.rated,
                                    clock=stored.clock)
        winner = await store.call(point_rematch, store, game_id, made)
        if winner != made:  # another request won the race: its game is the rematch; ours was never shown
            await store.call(delete_game, store, made)
            return {"game": winner}
        await lobby.wake(made)
        lobby.tell([a for _, _, _, a in seats if a is not None], {"type": "rematch", "game": game_id, "rematch": made})
        return {"game": made}
