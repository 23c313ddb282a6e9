"""Durable storage of games (SQLAlchemy 2): a SQLite file by default, PostgreSQL by URL.

A game row holds its record (rules, seed, the actions in notation) and a **version** that rises with every action
and every undo. Writes are optimistic: an update names the version it was made against and succeeds only if the
row still has it, so two writers racing on one game (in one process or several) cannot both win. Every accepted
action or undo is also an ``events`` row carrying the client's action id, so a re-sent action is recognised.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from importlib import resources
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Iterable, TypeVar, overload

from sqlalchemy import (
    JSON, BigInteger, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text, bindparam, create_engine, event,
    exists, insert, or_, select, update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

#: Random bytes in a seat token and an invite code (256 bits: far beyond guessing).
TOKEN_BYTES = 32
#: The bot that plays on for a person who ran out of time or resigned (docs/server.md, "Clocks").
TAKEOVER_LEVEL = "strong"


def now() -> datetime:
    return datetime.now(timezone.utc)


@overload
def aware(stamp: datetime) -> datetime: ...
@overload
def aware(stamp: None) -> None: ...
def aware(stamp: datetime | None) -> datetime | None:
    """A stored time with its zone: SQLite hands times back without one, and every time stored here is UTC."""
    if stamp is None or stamp.tzinfo is not None:
        return stamp
    return stamp.replace(tzinfo=timezone.utc)


def new_secret() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def secret_hash(secret: str) -> str:
    """Tokens are stored only as hashes: a leaked database does not let anyone act for a seat."""
    return hashlib.sha256(secret.encode()).hexdigest()


def secret_matches(secret: str | None, stored_hash: str | None) -> bool:
    """Constant-time comparison of a presented secret against a stored hash."""
    if not secret or not stored_hash:
        return False
    return hmac.compare_digest(secret_hash(secret), stored_hash)


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    rules: Mapped[str] = mapped_column(Text)
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    actions: Mapped[list[str]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    hotseat: Mapped[bool] = mapped_column(Boolean, default=False)
    bot_speed: Mapped[str] = mapped_column(String(16), default="normal")
    # What a game list shows, kept beside the record so listing games needs no replay.
    finished: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    stage: Mapped[str] = mapped_column(String(16))
    current: Mapped[int] = mapped_column(Integer)
    phase: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer)
    scores: Mapped[list[int]] = mapped_column(JSON)
    winners: Mapped[list[int]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Games between strangers (docs/server.md, "Lobby", "Ratings", "Clocks"): whether the result moves ratings;
    # the time control ("live:<seconds>+<increment>" or "days:<n>", None: no clock); each seat's time left in
    # milliseconds at the start of the current turn (live clocks); when the seat to act runs out of time (None: no
    # clock running, e.g. a bot or nobody to act); the game its players' rematch started.
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    clock: Mapped[str | None] = mapped_column(String(32), nullable=True)
    clock_left: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    rematch: Mapped[str | None] = mapped_column(String(16), nullable=True)


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "human" or "bot"
    level: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bot_seed: Mapped[int] = mapped_column(BigInteger, default=0)
    # The account sitting here (None: a guest holding a token, or a bot); a deleted account leaves None behind.
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True,
                                                   index=True)
    # Why a bot plays this seat for a person who sat here: "timeout" or "resigned" (None: they still play).
    out: Mapped[str | None] = mapped_column(String(12), nullable=True)


class AccountRow(Base):
    """A player's identity across devices (docs/server.md, "Accounts")."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(24))  # as typed at sign-up
    username_key: Mapped[str] = mapped_column(String(24), unique=True)  # lower case: names differ by more than case
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)  # argon2id; None once deleted
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SessionRow(Base):
    """A logged-in browser: the cookie holds the session id, the database only its hash."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))  # sent back in a header with every cookie-authenticated change
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LoginFailureRow(Base):
    """Failed log-ins per account and per address in the current window, shared by every server process."""

    __tablename__ = "login_failures"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)  # "account:<key>" or "address:<ip>"
    count: Mapped[int] = mapped_column(Integer, default=0)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PresenceRow(Base):
    """When an account's page last told the server it is open (who is online, across processes)."""

    __tablename__ = "presence"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SeekRow(Base):
    """An open game in the lobby, waiting for players."""

    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    creator_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    players: Mapped[int] = mapped_column(Integer)
    rules: Mapped[str] = mapped_column(Text)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    clock: Mapped[str | None] = mapped_column(String(32), nullable=True)
    bots: Mapped[str | None] = mapped_column(String(16), nullable=True)  # level of bots filling empty seats
    note: Mapped[str] = mapped_column(String(80), default="")
    status: Mapped[str] = mapped_column(String(12), index=True)  # "open", "started", "cancelled"
    game_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeekPlayerRow(Base):
    __tablename__ = "seek_players"

    seek_id: Mapped[str] = mapped_column(ForeignKey("seeks.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    joined: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """An account's openskill rating for games of ``players`` players."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatedGameRow(Base):
    """A finished rated game whose result has moved the ratings: its primary key makes that happen once."""

    __tablename__ = "rated_games"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    changes: Mapped[list[dict[str, Any]]] = mapped_column(JSON)  # per seat: account, rank, rating before, after
    applied: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AnalysisRow(Base):
    """A finished game's analysis by one level (docs/analysis.md): in progress (the turns judged so far) or done."""

    __tablename__ = "analyses"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    level: Mapped[str] = mapped_column(String(16), primary_key=True)
    status: Mapped[str] = mapped_column(String(8))  # "running", "done" or "failed"
    done: Mapped[int] = mapped_column(Integer, default=0)  # turns judged
    total: Mapped[int] = mapped_column(Integer, default=0)  # turns to judge
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # the turns so far, then the analysis
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # the running job's heartbeat: a job not heard of for a while is taken over (its process died)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EventRow(Base):
    __tablename__ = "events"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)  # the version this event produced
    seat: Mapped[int] = mapped_column(Integer)
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    kind: Mapped[str] = mapped_column(String(8))  # "act" or "undo"
    action: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_events_client", "game_id", "seat", "client_id", unique=True),)


#: The two statements of every commit (:meth:`Store.commit`), built once with bound parameters and compiled once
#: per store (:class:`_Compiled`): built per call, their ``.values()`` coercions, cache key and compiled-cache look-up
#: cost several times what SQLite itself does (docs/server.md, "Load").
_GAMES, _EVENTS, _SEATS = (Base.metadata.tables[name] for name in ("games", "events", "seats"))
_PROGRESS = ("finished", "stage", "current", "phase", "round", "scores", "winners")
# The seat is still played by whoever acts for it: a person's action for a seat that has gone to a bot (it timed
# out or resigned, possibly in another process) is refused by the database, not only by a room that may not have
# heard of it yet (docs/server.md, "Clocks").
_ADVANCE = (update(_GAMES)
            .where(_GAMES.c.id == bindparam("game_id"), _GAMES.c.version == bindparam("expected"),
                   exists().where(_SEATS.c.game_id == bindparam("game_id"), _SEATS.c.seat == bindparam("seat"),
                                  _SEATS.c.kind == bindparam("seat_kind")))
            .values(actions=bindparam("actions"), version=bindparam("version"), updated=bindparam("updated"),
                    **{name: bindparam(name) for name in _PROGRESS}))
# A game with a clock also stores the clock after the change, and refuses a change after its deadline (the sweeper
# may not have handed the seat to a bot yet).
_ADVANCE_CLOCK = (_ADVANCE.where(or_(_GAMES.c.deadline.is_(None), _GAMES.c.deadline > bindparam("clock_now")))
                  .values(clock_left=bindparam("clock_left"), deadline=bindparam("deadline")))
_RECORD = insert(_EVENTS).values({name: bindparam(name) for name in (
    "game_id", "version", "seat", "client_id", "kind", "action", "created")})


class _Compiled:
    """A statement compiled once for a dialect, executed on the driver's cursor of a pooled connection inside an
    SQLAlchemy transaction: its SQL text and parameter order come from SQLAlchemy's compiler and each parameter is
    converted by its column type's bind processor (JSON, booleans and dates as SQLAlchemy would convert them), so
    the database sees exactly what ``connection.execute(statement, parameters)`` would send, without the per-call
    work of the SQLAlchemy execution context. Immutable once built: threads share it."""

    def __init__(self, statement: Any, dialect: Any) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql: str = compiled.string
        self.order: tuple[str, ...] | None = tuple(compiled.positiontup) if compiled.positiontup else None
        self.convert = {name: process for name, bind in compiled.binds.items()
                        if (process := bind.type.dialect_impl(dialect).bind_processor(dialect)) is not None}

    def run(self, cursor: Any, parameters: dict[str, Any]) -> int:
        """Execute with ``parameters`` (converted in place); the number of rows it changed."""
        for name, process in self.convert.items():
            parameters[name] = process(parameters[name])
        cursor.execute(self.sql, parameters if self.order is None else tuple(parameters[n] for n in self.order))
        return int(cursor.rowcount)


@dataclass(frozen=True)
class Seat:
    seat: int
    kind: str
    level: str | None
    name: str
    claimed: bool
    bot_seed: int
    account_id: int | None = None
    #: The account's username (public), ``None`` for a guest or a bot.
    account: str | None = None
    #: "timeout" or "resigned": a bot plays on for the person who sat here.
    out: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"


@dataclass(frozen=True)
class StoredGame:
    id: str
    rules: str
    players: int
    seed: int
    actions: tuple[str, ...]
    version: int
    hotseat: bool
    bot_speed: str
    seats: tuple[Seat, ...]
    created: datetime
    updated: datetime
    rated: bool = False
    clock: str | None = None
    clock_left: tuple[int, ...] | None = None
    deadline: datetime | None = None
    rematch: str | None = None
    #: A rated game's rating changes once applied (:mod:`torres.server.ratings`): per seat its account id,
    #: rank and displayed rating before and after (empty: the game was found not to count).
    rating_changes: tuple[dict[str, Any], ...] | None = None


@dataclass(frozen=True)
class Progress:
    """The summary fields of a game after a change (see :class:`GameRow`)."""

    finished: bool
    stage: str
    current: int
    phase: int
    round: int
    scores: list[int]
    winners: list[int]


class Conflict(Exception):
    """The game is no longer at the version the write was made against."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL with synchronous=NORMAL survives a killed process without losing committed transactions; the busy
    # timeout lets several server processes share the file.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def database_url(url: str) -> str:
    """``postgresql://`` means the psycopg 3 driver (SQLAlchemy's default for it would be psycopg2)."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str) -> Engine:
    url = database_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


T = TypeVar("T")


class Store:
    """Games, seats and events in one database."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        # the driver's unique-violation error, raised by the commit's statements (run on its cursor)
        self._integrity_errors: tuple[type[Exception], ...] = (
            IntegrityError, self.engine.dialect.loaded_dbapi.IntegrityError)
        self._commit_statements: tuple[_Compiled, _Compiled, _Compiled] | None = None  # compiled on first commit
        #: Whether the event loop hands this database's calls to a thread (:meth:`call`).
        self.in_thread = self.engine.dialect.name != "sqlite"

    async def call(self, method: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run one of this store's blocking methods for the event loop. A database server's round trips (PostgreSQL,
        over a network) run in a thread, so a slow database holds up only the game that waits for it. SQLite is a
        local file whose calls cost a tenth of a millisecond of CPU and no wait (WAL, ``synchronous=NORMAL``): there
        the hand-over to a thread cost more than the call and raised the load test's p99 (docs/server.md, "Load"),
        so they run at once."""
        if self.in_thread:
            return await asyncio.to_thread(method, *args, **kwargs)
        return method(*args, **kwargs)

    def create_schema(self) -> None:
        """Bring the database to the newest schema (alembic migrations in torres/server/migrations)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(resources.files("torres.server") / "migrations"))
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def close(self) -> None:
        self.engine.dispose()

    # --- games -----------------------------------------------------------------------------------------------
    def create_game(self, *, rules: str, players: int, seed: int, hotseat: bool, bot_speed: str,
                    seats: Iterable[tuple[str, str | None, str]], claim: Iterable[int],
                    progress: Progress, accounts: dict[int, int] | None = None, rated: bool = False,
                    clock: str | None = None, clock_left: list[int] | None = None,
                    deadline: datetime | None = None) -> tuple[str, dict[int, str], dict[int, str]]:
        """A new game; returns its id, the tokens of the seats in ``claim`` and invite codes for the other human
        seats. Secrets are returned once and stored only as hashes. ``accounts`` maps seats to the accounts that
        sit there (a seat with an account needs neither token nor invite: the account's session opens it)."""
        claim = set(claim)
        accounts = accounts or {}
        game_id = secrets.token_urlsafe(9)
        stamp = now()
        tokens: dict[int, str] = {}
        invites: dict[int, str] = {}
        with self.sessions.begin() as session:
            session.add(GameRow(id=game_id, rules=rules, players=players, seed=seed, actions=[], version=0,
                                hotseat=hotseat, bot_speed=bot_speed, created=stamp, updated=stamp,
                                rated=rated, clock=clock, clock_left=clock_left, deadline=deadline,
                                **_progress_columns(progress)))
            session.flush()
            for index, (kind, level, name) in enumerate(seats):
                token_hash = invite_hash = None
                if kind == "human" and index not in accounts:
                    if index in claim:
                        tokens[index] = new_secret()
                        token_hash = secret_hash(tokens[index])
                    else:
                        invites[index] = new_secret()
                        invite_hash = secret_hash(invites[index])
                session.add(SeatRow(game_id=game_id, seat=index, kind=kind, level=level, name=name,
                                    token_hash=token_hash, invite_hash=invite_hash,
                                    bot_seed=secrets.randbelow(2**31), account_id=accounts.get(index)))
        return game_id, tokens, invites

    def load(self, game_id: str) -> StoredGame | None:
        with self.sessions() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            seats = session.scalars(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)).all()
            return _stored(row, seats, _usernames(session, seats), _rating_changes(session, [row]))

    def version_of(self, game_id: str) -> int | None:
        """The game's committed version (``None``: no such game)."""
        with self.sessions() as session:
            return session.scalar(select(GameRow.version).where(GameRow.id == game_id))

    def listed(self, game_ids: list[str]) -> list[tuple[StoredGame, Progress]]:
        """These games (unknown ids left out) with their progress, read without replaying any."""
        with self.sessions() as session:
            rows = session.scalars(select(GameRow).where(GameRow.id.in_(game_ids))).all()
            seats = session.scalars(select(SeatRow).where(SeatRow.game_id.in_(game_ids))
                                    .order_by(SeatRow.seat)).all()
            by_game: dict[str, list[SeatRow]] = {}
            for s in seats:
                by_game.setdefault(s.game_id, []).append(s)
            names = _usernames(session, seats)
            changes = _rating_changes(session, rows)
            return [(_stored(r, by_game.get(r.id, []), names, changes), _progress(r)) for r in rows]

    def unfinished_ids(self) -> list[str]:
        with self.sessions() as session:
            return list(session.scalars(select(GameRow.id).where(GameRow.finished.is_(False))).all())

    def waiting_for_bots(self, idle_seconds: float) -> list[str]:
        """Unfinished games whose seat to act is a bot and that have not changed for ``idle_seconds`` (their
        process may have died in the middle of the bot's turn)."""
        since = now() - timedelta(seconds=idle_seconds)
        with self.sessions() as session:
            return list(session.scalars(
                select(GameRow.id).join(SeatRow, (SeatRow.game_id == GameRow.id) & (SeatRow.seat == GameRow.current))
                .where(GameRow.finished.is_(False), SeatRow.kind == "bot", GameRow.updated < since)).all())

    # --- seats -----------------------------------------------------------------------------------------------
    def seat_token_hash(self, game_id: str, seat: int) -> str | None:
        with self.sessions() as session:
            row = session.get(SeatRow, (game_id, seat))
            return row.token_hash if row else None

    def claim(self, game_id: str, invite: str) -> tuple[int, str] | None:
        """The seat whose invite code this is and a fresh token for it, if the seat is still free: an invite
        claims its seat once."""
        with self.sessions.begin() as session:
            seats = session.scalars(select(SeatRow).where(SeatRow.game_id == game_id)).all()
            for row in seats:
                if row.invite_hash is not None and secret_matches(invite, row.invite_hash):
                    token = new_secret()
                    done = session.execute(
                        update(SeatRow)
                        .where(SeatRow.game_id == game_id, SeatRow.seat == row.seat,
                               SeatRow.invite_hash == row.invite_hash, SeatRow.token_hash.is_(None))
                        .values(token_hash=secret_hash(token)))
                    if getattr(done, "rowcount", 0) != 1:
                        return None
                    return row.seat, token
        return None

    def invite_seat(self, game_id: str, invite: str) -> int | None:
        """Which seat an invite code opens, claimed or not (to tell a taken seat from a wrong code)."""
        with self.sessions() as session:
            for row in session.scalars(select(SeatRow).where(SeatRow.game_id == game_id)).all():
                if row.invite_hash is not None and secret_matches(invite, row.invite_hash):
                    return row.seat
        return None

    def set_bot_speed(self, game_id: str, speed: str) -> None:
        with self.sessions.begin() as session:
            session.execute(update(GameRow).where(GameRow.id == game_id).values(bot_speed=speed))

    # --- events ----------------------------------------------------------------------------------------------
    def find_event(self, game_id: str, seat: int, client_id: str) -> tuple[int, str, str] | None:
        """The version an earlier event with this client id produced, its kind and its action, if there was one."""
        with self.sessions() as session:
            row = session.execute(select(EventRow.version, EventRow.kind, EventRow.action).where(
                EventRow.game_id == game_id, EventRow.seat == seat, EventRow.client_id == client_id)).first()
            return None if row is None else (row[0], row[1], row[2])

    def events_after(self, game_id: str, version: int) -> list[tuple[int, int, str, str]]:
        """The events past ``version``, oldest first: (version, seat, kind, action)."""
        with self.sessions() as session:
            rows = session.execute(
                select(EventRow.version, EventRow.seat, EventRow.kind, EventRow.action)
                .where(EventRow.game_id == game_id, EventRow.version > version).order_by(EventRow.version)).all()
            return [(r[0], r[1], r[2], r[3]) for r in rows]

    def commit(self, game_id: str, *, expected: int, actions: list[str], seat: int, client_id: str | None,
               kind: str, action: str, progress: Progress, by_bot: bool = False,
               clock: tuple[list[int], datetime | None, datetime] | None = None) -> int:
        """Store the game's new action list at ``expected + 1`` with its event, atomically; :class:`Conflict` if
        the game has moved on (or the client id was used already), if ``seat`` is no longer played by a bot
        (``by_bot``) or a person (not ``by_bot``) — it timed out or resigned meanwhile — or, for a game with a clock
        (``clock``: its new time left per seat, new deadline, and the time of the change), if the change comes
        after the game's deadline.

        Blocking, and safe to call from several threads at once (the server runs it in a worker thread): each call
        takes its own pooled connection and transaction, and the compiled statements are shared, immutable."""
        version = expected + 1
        stamp = now()
        try:
            # This runs for every action: the statements are built and compiled once (_Compiled), and run on the
            # driver's cursor in a transaction of SQLAlchemy's (begin, commit or roll back, the pool).
            with self.engine.begin() as connection:
                if self._commit_statements is None:  # compiled once the dialect knows its server (first connect)
                    self._commit_statements = (_Compiled(_ADVANCE, self.engine.dialect),
                                               _Compiled(_ADVANCE_CLOCK, self.engine.dialect),
                                               _Compiled(_RECORD, self.engine.dialect))
                advance, advance_clock, record = self._commit_statements
                parameters = {"game_id": game_id, "expected": expected, "seat": seat,
                              "seat_kind": "bot" if by_bot else "human", "actions": actions, "version": version,
                              "updated": stamp, **_progress_columns(progress)}
                if clock is not None:
                    advance = advance_clock
                    parameters["clock_left"], parameters["deadline"], parameters["clock_now"] = clock
                cursor = connection.connection.cursor()
                try:
                    if advance.run(cursor, parameters) != 1:
                        # not at the expected version, no such game, the seat changed hands, or out of time
                        raise Conflict(game_id)
                    record.run(cursor, {"game_id": game_id, "version": version, "seat": seat, "client_id": client_id,
                                        "kind": kind, "action": action, "created": stamp})
                finally:
                    cursor.close()
        except self._integrity_errors as exc:  # the unique index on (game, seat, client id): the id was used
            raise Conflict(game_id) from exc
        return version

    # --- clocks and seats that go to a bot (docs/server.md, "Clocks") ----------------------------------------
    def clock_state(self, game_id: str) -> tuple[tuple[int, ...] | None, datetime | None]:
        """The game's committed clock: time left per seat and the deadline (a room catching up reads it)."""
        with self.sessions() as session:
            row = session.execute(select(GameRow.clock_left, GameRow.deadline).where(GameRow.id == game_id)).first()
            if row is None:
                return None, None
            return (tuple(row[0]) if row[0] is not None else None), row[1]

    def resign(self, game_id: str, seat: int, at: datetime) -> bool:
        """Hand a person's seat to a bot for good (seats.out = "resigned"), if the game is still being played and
        the seat is still theirs; if it was their turn, their clock stops. Whether it happened."""
        with self.sessions.begin() as session:
            # The write comes first: it takes the row (PostgreSQL) or the database (SQLite) before anything is read.
            done = session.execute(
                update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.kind == "human",
                                      exists().where(GameRow.id == game_id, GameRow.finished.is_(False)))
                .values(kind="bot", level=TAKEOVER_LEVEL, out="resigned"))
            if getattr(done, "rowcount", 0) != 1:
                return False
            row = session.get(GameRow, game_id)
            if row is not None and row.current == seat and row.deadline is not None:
                if row.clock_left is not None and row.clock and row.clock.startswith("live:"):
                    deadline = row.deadline if row.deadline.tzinfo else row.deadline.replace(tzinfo=timezone.utc)
                    left = list(row.clock_left)
                    left[seat] = max(0, (deadline - at) // timedelta(milliseconds=1))
                    row.clock_left = left
                row.deadline = None  # a bot acts now: no clock runs for it
            return True


def _progress_columns(progress: Progress) -> dict[str, Any]:
    return {"finished": progress.finished, "stage": progress.stage, "current": progress.current,
            "phase": progress.phase, "round": progress.round, "scores": progress.scores,
            "winners": progress.winners}


def _progress(row: GameRow) -> Progress:
    return Progress(finished=row.finished, stage=row.stage, current=row.current, phase=row.phase, round=row.round,
                    scores=list(row.scores), winners=list(row.winners))


def _usernames(session: Any, seats: Iterable[SeatRow]) -> dict[int, str]:
    """The usernames of the accounts sitting in ``seats``."""
    ids = {s.account_id for s in seats if s.account_id is not None}
    if not ids:
        return {}
    return {account_id: name for account_id, name in session.execute(
        select(AccountRow.id, AccountRow.username).where(AccountRow.id.in_(ids))).all()}


def _rating_changes(session: Any, rows: Iterable[GameRow]) -> dict[str, list[dict[str, Any]]]:
    """The applied rating changes of those of ``rows`` that are rated and finished."""
    ids = [r.id for r in rows if r.rated and r.finished]
    if not ids:
        return {}
    return {game_id: changes for game_id, changes in session.execute(
        select(RatedGameRow.game_id, RatedGameRow.changes).where(RatedGameRow.game_id.in_(ids))).all()}


def _stored(row: GameRow, seats: Iterable[SeatRow], usernames: dict[int, str] | None = None,
            rating_changes: dict[str, list[dict[str, Any]]] | None = None) -> StoredGame:
    usernames = usernames or {}
    changes = (rating_changes or {}).get(row.id)
    return StoredGame(
        id=row.id, rules=row.rules, players=row.players, seed=row.seed, actions=tuple(row.actions),
        version=row.version, hotseat=row.hotseat, bot_speed=row.bot_speed,
        seats=tuple(Seat(s.seat, s.kind, s.level, s.name, s.token_hash is not None or s.account_id is not None,
                         s.bot_seed, s.account_id, usernames.get(s.account_id) if s.account_id else None, s.out)
                    for s in seats),
        created=row.created, updated=row.updated, rated=row.rated, clock=row.clock,
        clock_left=tuple(row.clock_left) if row.clock_left is not None else None, deadline=row.deadline,
        rematch=row.rematch, rating_changes=tuple(changes) if changes is not None else None)

