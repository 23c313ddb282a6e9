"""Accounts: sign-up, log-in and out, sessions in a cookie, CSRF tokens, guessing slowed, and the seats that follow an
account from device to device (docs/server.md, "Accounts").

- **Passwords** are hashed with argon2id in a worker thread (at most :data:`HASHES_AT_ONCE` at a time: each takes
  64 MiB and a tenth of a second of CPU). A log-in with an unknown name verifies against a dummy hash, so it costs
  what a wrong password costs and gets the same answer: the answer's timing does not tell which names exist.
- **Sessions**: the cookie holds a random id, the database only its sha256, so a leaked database opens no session.
  Every log-in, sign-up and password change makes a new id (a cookie planted before log-in is never the session).
- **CSRF**: a change made with the cookie must carry the session's token in a header, which another site's page
  cannot read or send.
- **Guessing**: failed log-ins are counted in the database per account and per client address (so every server
  process sees the same counts); past :data:`FAILURE_LIMIT` in :data:`FAILURE_WINDOW`, log-ins are refused with
  429 before any password is checked. An attempt counts as a failure from before its password is checked until it
  succeeds, so guesses sent all at once are counted as they come (counted after the check, a burst of twelve was
  checked in full before the first failure was counted).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import math
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated, Any, Iterable, cast
from urllib.parse import urlsplit

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Depends, FastAPI, HTTPException, Request, Response, WebSocket
from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy import case, delete, select, update
from sqlalchemy.exc import IntegrityError

from .inputs import URL_SAFE, StrictJSONRoute, answers
from .services import Services
from .store import (
    AccountRow, LoginFailureRow, PresenceRow, RatingRow, SeatRow, SeekPlayerRow, SeekRow, SessionRow, Store,
    aware, new_secret, now, secret_hash, secret_matches,
)

log = logging.getLogger("torres.server")

SESSION_COOKIE = "torres_session"
SESSION_LIFETIME = timedelta(days=30)
CSRF_HEADER = "X-CSRF-Token"
#: Failed log-ins an account, or a client address, may have in :data:`FAILURE_WINDOW` before log-ins are refused.
FAILURE_LIMIT = 5
FAILURE_WINDOW = timedelta(minutes=15)
#: Seats one request may attach (a browser remembers the seats of its recent games, far fewer than this).
MAX_SEATS_PER_REQUEST = 50
#: argon2 hashes running at once in this process: each holds 64 MiB and a core for about 0.1 s, so a burst of
#: log-ins queues here instead of taking all the memory and CPU from the games.
HASHES_AT_ONCE = 2
#: How often old failure counts and expired sessions are swept away.
CLEAN_UP_SECONDS = 600.0

#: One answer for an unknown name and a wrong password: it must not tell which names exist.
WRONG_LOG_IN = "wrong username or password"
#: Deleted accounts are renamed ``deleted-<id>``; sign-up refuses the prefix so that rename can never collide.
DELETED_PREFIX = "deleted-"
DELETED_SEAT_NAME = "Deleted player"
USERNAME = re.compile(r"[A-Za-z0-9_-]{3,24}")
#: A cookie value longer than this is not one of ours (ours are 43 characters): it is ignored unhashed.
MAX_COOKIE_CHARS = 100


# --- the bodies ----------------------------------------------------------------------------------------------
# (pydantic refuses a string with a lone surrogate, which has no UTF-8 bytes to hash: tests/test_accounts.py)
Password = Annotated[str, Field(min_length=8, max_length=200)]
#: A password typed to prove who you are: any length an account's password can have (shorter ones are simply wrong).
GivenPassword = Annotated[str, Field(min_length=1, max_length=200)]


class SeatClaim(BaseModel):
    """A seat this browser holds the token of."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(min_length=1, max_length=16, pattern=URL_SAFE)
    seat: int = Field(ge=0, le=3)
    token: str = Field(min_length=1, max_length=200, pattern=URL_SAFE)


Seats = Annotated[list[SeatClaim], Field(max_length=MAX_SEATS_PER_REQUEST)]


class SignUp(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: str = Field(min_length=3, max_length=24, description="3-24 of A-Z a-z 0-9 _ -")
    password: Password
    seats: Seats = Field(default_factory=list)

    @field_validator("username")
    @classmethod
    def _plain_name(cls, name: str) -> str:
        if not USERNAME.fullmatch(name):
            raise ValueError("a username is 3-24 letters (A-Z, a-z), digits, '_' or '-'")
        if name.lower().startswith(DELETED_PREFIX):
            raise ValueError(f"names starting with {DELETED_PREFIX!r} are reserved")
        return name


class LogIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # a name outside the sign-up alphabet cannot exist (422); a name of it that does not exist is a 401 like any
    username: str = Field(min_length=1, max_length=24, pattern=URL_SAFE)
    password: GivenPassword
    seats: Seats = Field(default_factory=list)


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    old_password: GivenPassword
    new_password: Password


class AccountDeletion(BaseModel):
    model_config = ConfigDict(extra="forbid")

    password: GivenPassword


class SeatsToAttach(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seats: Seats


# --- who is asking -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Account:
    id: int
    username: str

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "username": self.username}


@dataclass(frozen=True)
class _Session:
    account: Account
    csrf: str


def _services(request: Request | WebSocket) -> Services:
    services: Services = request.app.state.services
    return services


def _session_id(request: Request | WebSocket) -> str | None:
    value = request.cookies.get(SESSION_COOKIE)
    if not value or len(value) > MAX_COOKIE_CHARS:
        return None
    return value


_UNREAD = object()


async def _session_of(request: Request | WebSocket) -> _Session | None:
    """The live session the request's cookie names (``None``: no cookie, or one that is expired, logged out or of a
    deleted account); looked up once per request."""
    cached = getattr(request.state, "torres_session", _UNREAD)
    if cached is not _UNREAD:
        return cast("_Session | None", cached)
    session_id = _session_id(request)
    store = _services(request).store
    found = None if session_id is None else await store.call(_load_session, store, session_id)
    request.state.torres_session = found
    return found


async def current_account(request: Request) -> Account | None:
    """The logged-in account of a request, for reading (no CSRF check: a read changes nothing)."""
    session = await _session_of(request)
    return session.account if session else None


async def account_for_change(request: Request) -> Account:
    """FastAPI dependency of every change made with the session cookie: 401 without a live session, 403 unless the
    ``X-CSRF-Token`` header holds the session's token (another site can make the browser send the cookie, but it
    cannot read the token to send with it)."""
    session = await _session_of(request)
    if session is None:
        raise HTTPException(401, "log in first")
    given = request.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(given.encode(), session.csrf.encode()):
        raise HTTPException(403, f"missing or wrong {CSRF_HEADER} header (GET /api/session tells the page its token)")
    return session.account


async def account_of_socket(websocket: WebSocket) -> Account | None:
    """The account a websocket speaks for, from its cookie. Browsers send cookies with websockets opened by any
    site and websockets have no CORS, so a socket whose ``Origin`` is another site's gets no account (cross-site
    websocket hijacking); a client that sends no ``Origin`` is not a browser page and cannot have been tricked."""
    if not same_origin(websocket):
        return None
    session = await _session_of(websocket)
    return session.account if session else None


async def socket_session_alive(websocket: WebSocket) -> bool:
    """Whether the session a websocket was opened with is still live, read afresh: a password change, a log-out or
    the account's deletion ends it while the socket stays open."""
    session_id = _session_id(websocket)
    store = _services(websocket).store
    return session_id is not None and await store.call(_load_session, store, session_id) is not None


def same_origin(request: Request | WebSocket) -> bool:
    """Whether the ``Origin`` header, if any, names this server (the host the request was sent to)."""
    origin = request.headers.get("origin")
    if origin is None:
        return True
    host = request.headers.get("host", "")
    try:
        origin_host = urlsplit(origin).netloc
    except ValueError:  # e.g. "http://[::1": not a site this server is
        return False
    return bool(host) and origin_host.lower() == host.lower()


def _address(request: Request) -> str:
    # behind a proxy uvicorn puts the X-Forwarded-For address here (docs/deploy.md: --forwarded-allow-ips)
    return (request.client.host if request.client else "unknown")[:60]


# --- passwords -----------------------------------------------------------------------------------------------
class Passwords:
    """argon2id hashing off the event loop, a few at a time."""

    def __init__(self, hasher: PasswordHasher | None = None, at_once: int = HASHES_AT_ONCE) -> None:
        self.hasher = hasher or PasswordHasher(type=Type.ID)
        self._slots = asyncio.Semaphore(at_once)
        self._dummy: str | None = None

    async def hash(self, password: str) -> str:
        async with self._slots:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> tuple[bool, str | None]:
        """Whether ``password`` matches ``stored`` (``None``: no such account, checked against a dummy hash all the
        same) and, if it matches a hash made with weaker parameters than today's, its new hash."""
        if self._dummy is None:
            self._dummy = await self.hash(secrets.token_urlsafe(16))
        async with self._slots:
            return await asyncio.to_thread(self._verify, stored, password)

    def _verify(self, stored: str | None, password: str) -> tuple[bool, str | None]:
        try:
            self.hasher.verify(stored or self._dummy or "", password)
        except (VerificationError, InvalidHashError):
            return False, None
        if stored is None:
            return False, None
        return True, self.hasher.hash(password) if self.hasher.check_needs_rehash(stored) else None


# --- the database (blocking: called through Store.call) --------------------------------------------------------
def _load_session(store: Store, session_id: str) -> _Session | None:
    with store.sessions() as session:
        row = session.execute(
            select(SessionRow.csrf, AccountRow.id, AccountRow.username)
            .join(AccountRow, AccountRow.id == SessionRow.account_id)
            .where(SessionRow.id_hash == secret_hash(session_id), SessionRow.expires > now(),
                   AccountRow.deleted.is_(False))).first()
    return None if row is None else _Session(Account(row[1], row[2]), row[0])


def _open_session(store: Store, account_id: int, replacing: Iterable[str] = (), end_others: bool = False
                  ) -> tuple[str, str]:
    """A new session (its id and CSRF token) for the account; the sessions ``replacing`` names end (the browser's
    earlier session), and with ``end_others`` every other session of the account (a password change)."""
    session_id, csrf = new_secret(), new_secret()
    stamp = now()
    with store.sessions.begin() as session:
        if end_others:
            session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
        hashes = [secret_hash(old) for old in replacing]
        if hashes:
            session.execute(delete(SessionRow).where(SessionRow.id_hash.in_(hashes)))
        session.add(SessionRow(id_hash=secret_hash(session_id), account_id=account_id, csrf=csrf, created=stamp,
                               expires=stamp + SESSION_LIFETIME))
    return session_id, csrf


def _end_session(store: Store, session_id: str) -> None:
    with store.sessions.begin() as session:
        session.execute(delete(SessionRow).where(SessionRow.id_hash == secret_hash(session_id)))


def _name_taken(store: Store, key: str) -> bool:
    with store.sessions() as session:
        return session.scalar(select(AccountRow.id).where(AccountRow.username_key == key)) is not None


def _create_account(store: Store, username: str, password_hash: str) -> Account | None:
    """The new account; ``None`` if its name is taken (checked by the unique key, also against another process)."""
    try:
        with store.sessions.begin() as session:
            row = AccountRow(username=username, username_key=username.lower(), password_hash=password_hash,
                             deleted=False, created=now())
            session.add(row)
            session.flush()
            return Account(row.id, row.username)
    except IntegrityError:
        return None


def _password_of(store: Store, *, key: str | None = None, account_id: int | None = None
                 ) -> tuple[Account, str | None] | None:
    """A live account, by name key or id, and its password hash."""
    query = select(AccountRow).where(AccountRow.deleted.is_(False))
    query = query.where(AccountRow.username_key == key) if key is not None else query.where(AccountRow.id == account_id)
    with store.sessions() as session:
        row = session.scalars(query).first()
        return None if row is None else (Account(row.id, row.username), row.password_hash)


def _set_password(store: Store, account_id: int, password_hash: str) -> None:
    with store.sessions.begin() as session:
        session.execute(update(AccountRow).where(AccountRow.id == account_id).values(password_hash=password_hash))


def _attempt(store: Store, keys: list[str]) -> int:
    """Count an attempt as a failure on each counter before its password is checked (:func:`_succeeded` takes it
    back), and say how long to wait (0: check the password now): the longest wait of the counters it took over the
    limit. Each count is one statement, so attempts made at once, in any process, each see a count of their own."""
    _count_failure(store, keys)
    stamp = now()
    with store.sessions() as session:
        rows = session.scalars(select(LoginFailureRow).where(LoginFailureRow.key.in_(keys))).all()
        ends = [aware(row.since) + FAILURE_WINDOW for row in rows if row.count > FAILURE_LIMIT]
    return max((math.ceil((end - stamp).total_seconds()) for end in ends if end > stamp), default=0)


def _succeeded(store: Store, account_key: str, address_key: str) -> None:
    """A right password: the account's failures are forgotten, and the address's count loses the attempt that
    :func:`_attempt` counted (its other failures stay: one account is not all)."""
    with store.sessions.begin() as session:
        session.execute(delete(LoginFailureRow).where(LoginFailureRow.key == account_key))
        session.execute(update(LoginFailureRow).where(LoginFailureRow.key == address_key, LoginFailureRow.count > 0)
                        .values(count=LoginFailureRow.count - 1))


def _count_failure(store: Store, keys: list[str]) -> None:
    """One more failure for each counter, in one statement per counter so that processes counting at once all
    count; a counter whose window has passed starts again at 1."""
    stamp = now()
    window_over = LoginFailureRow.since < stamp - FAILURE_WINDOW
    for attempt in range(3):
        try:
            with store.sessions.begin() as session:
                for key in keys:
                    done = session.execute(
                        update(LoginFailureRow).where(LoginFailureRow.key == key)
                        .values(count=case((window_over, 1), else_=LoginFailureRow.count + 1),
                                since=case((window_over, stamp), else_=LoginFailureRow.since)))
                    if getattr(done, "rowcount", 0) == 0:
                        session.add(LoginFailureRow(key=key, count=1, since=stamp))
                        session.flush()
            return
        except IntegrityError:  # another process inserted the same counter first: count on its row
            if attempt == 2:
                raise


def _clean_up(store: Store) -> None:
    stamp = now()
    with store.sessions.begin() as session:
        session.execute(delete(LoginFailureRow).where(LoginFailureRow.since < stamp - FAILURE_WINDOW))
        session.execute(delete(SessionRow).where(SessionRow.expires < stamp))


def _attach(store: Store, account_id: int, claims: list[SeatClaim]) -> list[tuple[str, int]]:
    """The claimed seats whose token matches, now the account's (a seat already another account's stays theirs)."""
    attached: list[tuple[str, int]] = []
    with store.sessions.begin() as session:
        for claim in claims:
            row = session.get(SeatRow, (claim.game, claim.seat))
            if row is None or row.kind != "human" or not secret_matches(claim.token, row.token_hash):
                continue
            if row.account_id is None:
                done = session.execute(
                    update(SeatRow).where(SeatRow.game_id == claim.game, SeatRow.seat == claim.seat,
                                          SeatRow.account_id.is_(None)).values(account_id=account_id))
                if getattr(done, "rowcount", 0) != 1:
                    continue
            elif row.account_id != account_id:
                continue
            if (claim.game, claim.seat) not in attached:
                attached.append((claim.game, claim.seat))
    return attached


def _anonymise(store: Store, account_id: int) -> list[str]:
    """Delete an account but not its games: the name becomes ``deleted-<id>``, the password, sessions, ratings and
    presence go, its seats are nobody's and named "Deleted player", its open seeks are cancelled. Returns the
    games whose seats changed."""
    name = f"{DELETED_PREFIX}{account_id}"
    with store.sessions.begin() as session:
        games = sorted(set(session.scalars(select(SeatRow.game_id).where(SeatRow.account_id == account_id)).all()))
        session.execute(update(SeatRow).where(SeatRow.account_id == account_id)
                        .values(account_id=None, name=DELETED_SEAT_NAME))
        session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
        session.execute(delete(RatingRow).where(RatingRow.account_id == account_id))
        session.execute(delete(PresenceRow).where(PresenceRow.account_id == account_id))
        open_seeks = select(SeekRow.id).where(SeekRow.status == "open")
        session.execute(delete(SeekPlayerRow).where(SeekPlayerRow.account_id == account_id,
                                                    SeekPlayerRow.seek_id.in_(open_seeks)))
        session.execute(update(SeekRow).where(SeekRow.creator_id == account_id, SeekRow.status == "open")
                        .values(status="cancelled"))
        session.execute(update(AccountRow).where(AccountRow.id == account_id)
                        .values(username=name, username_key=name, password_hash=None, deleted=True))
    return games


# --- the routes ----------------------------------------------------------------------------------------------
def _set_cookie(request: Request, response: Response, session_id: str) -> None:
    response.set_cookie(SESSION_COOKIE, session_id, max_age=int(SESSION_LIFETIME.total_seconds()), path="/",
                        httponly=True, samesite="lax", secure=request.url.scheme == "https")


def _clear_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")


def _refuse_other_sites(request: Request) -> None:
    """Log-in and sign-up need no session, so no CSRF token can guard them: refuse them from another site's page,
    which could otherwise log the browser into the attacker's account."""
    if not same_origin(request):
        raise HTTPException(403, "sign-up and log-in are accepted only from this site's pages")


def install(app: FastAPI, services: Services) -> None:
    """Add the account routes and the sweep of stale failure counts and sessions."""
    store = services.store
    passwords = Passwords()
    app.state.passwords = passwords
    router = APIRouter(route_class=StrictJSONRoute)

    async def check_password(account: Account, password: str, request: Request) -> None:
        """A password given to change the account: guessing here is slowed like a log-in's (a stolen cookie must
        not let anyone try passwords at full speed)."""
        found = await store.call(_password_of, store, account_id=account.id)
        if found is None:
            raise HTTPException(401, "log in first")
        keys = [f"account:{account.username.lower()}", f"address:{_address(request)}"]
        await attempt(keys)
        ok, _ = await passwords.verify(found[1], password)
        if not ok:
            raise HTTPException(403, "wrong password")  # (counted as a failure by the attempt)
        await store.call(_succeeded, store, *keys)

    async def attempt(keys: list[str]) -> None:
        """Counts the attempt (see :func:`_attempt`); 429 if the counts say to wait."""
        wait = await store.call(_attempt, store, keys)
        if wait > 0:
            raise HTTPException(429, f"too many failed log-ins: try again in {math.ceil(wait / 60)} minutes",
                                headers={"Retry-After": str(wait)})

    async def seats_changed(game_ids: Iterable[str]) -> None:
        """Pages open on these games, here or on other processes, see who sits there now. Only a game this process
        has in memory is read back: loading up to 50 games (replaying each) to tell pages that are not here would
        be work for nothing, so the others only hear of it on the bus."""
        for game_id in dict.fromkeys(game_ids):
            loaded = services.rooms.loaded_room(game_id)
            if loaded is None:
                services.bus.announce_seats(game_id)
                continue
            async with services.rooms.holding(loaded) as room:
                await room.seats_changed(store, made_here=True)

    async def attach(account: Account, claims: list[SeatClaim]) -> list[dict[str, Any]]:
        attached = await store.call(_attach, store, account.id, claims) if claims else []
        await seats_changed(game for game, _ in attached)
        return [{"game": game, "seat": seat} for game, seat in attached]

    async def logged_in(request: Request, response: Response, account: Account, claims: list[SeatClaim]
                        ) -> dict[str, Any]:
        """A new session for ``account`` in the cookie (never the id the browser had: no fixation)."""
        old = _session_id(request)
        session_id, csrf = await store.call(_open_session, store, account.id, [old] if old else [])
        _set_cookie(request, response, session_id)
        return {"account": account.json(), "csrf": csrf, "attached": await attach(account, claims)}

    @router.get("/api/session")
    async def session_info(request: Request) -> dict[str, Any]:
        session = await _session_of(request)
        if session is None:
            return {"account": None, "csrf": None}
        return {"account": session.account.json(), "csrf": session.csrf}

    @router.post("/api/accounts", status_code=201, responses=answers(403, 409))
    async def sign_up(body: SignUp, request: Request, response: Response) -> dict[str, Any]:
        _refuse_other_sites(request)
        key = body.username.lower()
        taken = f"the username {body.username!r} is taken"
        if await store.call(_name_taken, store, key):  # before hashing: a taken name costs no argon2
            raise HTTPException(409, taken)
        account = await store.call(_create_account, store, body.username, await passwords.hash(body.password))
        if account is None:
            raise HTTPException(409, taken)
        log.info("account %d signed up", account.id)
        return await logged_in(request, response, account, body.seats)

    @router.post("/api/session", responses=answers(401, 403, 429))
    async def log_in(body: LogIn, request: Request, response: Response) -> dict[str, Any]:
        _refuse_other_sites(request)
        keys = [f"account:{body.username.lower()}", f"address:{_address(request)}"]
        await attempt(keys)
        found = await store.call(_password_of, store, key=body.username.lower())
        ok, rehashed = await passwords.verify(found[1] if found else None, body.password)
        if not ok or found is None:
            raise HTTPException(401, WRONG_LOG_IN)  # (counted as a failure by the attempt)
        account = found[0]
        await store.call(_succeeded, store, *keys)
        if rehashed is not None:
            await store.call(_set_password, store, account.id, rehashed)
        return await logged_in(request, response, account, body.seats)

    @router.delete("/api/session", status_code=204, responses=answers(403))
    async def log_out(request: Request) -> Response:
        session_id = _session_id(request)
        if await _session_of(request) is not None:
            await account_for_change(request)  # a live session ends only at its own page's request (CSRF)
        if session_id is not None:
            await store.call(_end_session, store, session_id)
        response = Response(status_code=204)
        _clear_cookie(request, response)
        return response

    @router.post("/api/account/password", status_code=204, responses=answers(401, 403, 429))
    async def change_password(body: PasswordChange, request: Request,
                              account: Account = Depends(account_for_change)) -> Response:
        await check_password(account, body.old_password, request)
        await store.call(_set_password, store, account.id, await passwords.hash(body.new_password))
        # every other browser is logged out (the password may have changed because it leaked); this one goes on
        # with a new session id, whose CSRF token the page reads again from GET /api/session
        session_id, _ = await store.call(_open_session, store, account.id, (), True)
        response = Response(status_code=204)
        _set_cookie(request, response, session_id)
        log.info("account %d changed its password", account.id)
        return response

    @router.delete("/api/account", status_code=204, responses=answers(401, 403, 429))
    async def delete_account(body: AccountDeletion, request: Request,
                             account: Account = Depends(account_for_change)) -> Response:
        await check_password(account, body.password, request)
        await seats_changed(await store.call(_anonymise, store, account.id))
        # its seeks are cancelled and its name leaves the online list: lobby pages hear of it now, not at the sweep
        app.state.lobby.changed()
        response = Response(status_code=204)
        _clear_cookie(request, response)
        log.info("account %d deleted", account.id)
        return response

    @router.post("/api/account/seats", responses=answers(401, 403))
    async def attach_seats(body: SeatsToAttach, account: Account = Depends(account_for_change)) -> dict[str, Any]:
        return {"attached": await attach(account, body.seats)}

    app.include_router(router)

    async def clean_up() -> None:
        await store.call(_clean_up, store)

    services.every(CLEAN_UP_SECONDS, "accounts clean-up", clean_up)
