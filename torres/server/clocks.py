"""Clocks (docs/server.md, "Clocks"): live time controls and correspondence days, owned by the server.

The database holds the whole clock, so it survives restarts and every process sees the same one:

- ``games.clock``: the time control as text, ``"live:<seconds>+<increment>"`` or ``"days:<n>"``;
- ``games.clock_left``: each seat's milliseconds at the start of the current turn (correspondence: the days of a
  turn, the same for every seat);
- ``games.deadline``: when the seat to act runs out (``None`` while a bot is to act or the game is over).

A Torres turn is several actions, so the clock is settled only when the seat to act changes (:func:`turn_change`);
the room computes the new values before its commit and stores them in the commit's own UPDATE, whose WHERE refuses
a commit made after the deadline. A sweeper (:func:`expire`) hands an expired seat to a bot; its UPDATE is
conditional on the very deadline it saw, so with several processes exactly one acts on each expiry.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field, RootModel
from sqlalchemy import select, update

from .store import TAKEOVER_LEVEL, aware

if TYPE_CHECKING:
    from .services import Services
    from .store import Store

log = logging.getLogger("torres.server.clocks")

#: How often each process looks for expired deadlines.
SWEEP_SECONDS = 1.0
DAY_MS = 86_400_000


class LiveClock(BaseModel):
    """Minutes per player (given in seconds) plus seconds added for every turn."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["live"]
    seconds: int = Field(ge=10, le=10_800)
    increment: int = Field(0, ge=0, le=180)


class CorrespondenceClock(BaseModel):
    """Days per turn."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["correspondence"]
    days: int = Field(ge=1, le=14)


class ClockSpec(RootModel[Annotated[Union[LiveClock, CorrespondenceClock], Field(discriminator="kind")]]):
    """A time control as requests carry it: ``{"kind": "live", "seconds", "increment"}`` or
    ``{"kind": "correspondence", "days"}`` (``.root`` is the :class:`LiveClock` or :class:`CorrespondenceClock`)."""


Spec = Union[LiveClock, CorrespondenceClock]


def now() -> datetime:
    """The server's time (module-level so tests can move it)."""
    return datetime.now(timezone.utc)


def _spec(spec: ClockSpec | Spec) -> Spec:
    return spec.root if isinstance(spec, ClockSpec) else spec


def text_of(spec: ClockSpec | Spec) -> str:
    """The stored text of a time control."""
    inner = _spec(spec)
    if isinstance(inner, LiveClock):
        return f"live:{inner.seconds}+{inner.increment}"
    return f"days:{inner.days}"


def parse(text: str) -> Spec:
    """The time control of stored text (:func:`text_of`); ``ValueError`` for anything else."""
    kind, _, rest = text.partition(":")
    try:
        if kind == "live":
            seconds, _, increment = rest.partition("+")
            return LiveClock(kind="live", seconds=int(seconds), increment=int(increment or 0))
        if kind == "days":
            return CorrespondenceClock(kind="correspondence", days=int(rest))
    except Exception as exc:  # pydantic's ValidationError is a ValueError too; name it plainly
        raise ValueError(f"not a clock: {text!r}") from exc
    raise ValueError(f"not a clock: {text!r}")


def json_of(text: str | None) -> dict[str, Any] | None:
    """The clock JSON of stored text (``None``: no clock), e.g. for a seek."""
    return None if text is None else parse(text).model_dump()


def _turn_ms(spec: Spec) -> int:
    """A seat's time at the start of the game (live) or of every turn (correspondence)."""
    return spec.seconds * 1000 if isinstance(spec, LiveClock) else spec.days * DAY_MS


def initial(text: str | None, players: int, first_seat_is_human: bool,
            now: datetime) -> tuple[list[int] | None, datetime | None]:
    """A new game's ``(clock_left, deadline)``: every seat's full time, and the first seat's deadline if a person
    acts first (``(None, None)`` without a clock)."""
    if text is None:
        return None, None
    ms = _turn_ms(parse(text))
    return [ms] * players, (now + timedelta(milliseconds=ms) if first_seat_is_human else None)


def turn_change(text: str, left: list[int], deadline: datetime | None, before: int, after: int | None,
                now: datetime) -> tuple[list[int], datetime | None]:
    """The clock after a commit: ``before`` was the seat to act, ``after`` is the person to act now (``None``: a
    bot, or the game is over). Only a change of the seat to act settles the clock (a turn is several actions); the
    seat that hands over keeps what it had left plus the increment (live), and the next person's deadline is their
    time left (live) or a turn's days (correspondence) from now."""
    if after == before and deadline is not None:
        return left, deadline  # the same person still acts: their clock runs on
    spec = parse(text)
    left = list(left)
    if deadline is not None and isinstance(spec, LiveClock):
        remaining = (aware(deadline) - now) // timedelta(milliseconds=1)
        left[before] = max(0, remaining) + spec.increment * 1000
    if after is None:
        return left, None
    if isinstance(spec, LiveClock):
        return left, now + timedelta(milliseconds=left[after])
    return left, now + timedelta(days=spec.days)


def clock_json(text: str | None, left: tuple[int, ...] | list[int] | None,
               deadline: datetime | None) -> dict[str, Any] | None:
    """A summary's ``"clock"``: the page counts the seat to act down from ``deadline`` less ``now`` (the server's
    time, so it can allow for its own clock's skew)."""
    if text is None:
        return None
    spec = parse(text)
    deadline = aware(deadline)
    return {"spec": text, "kind": spec.kind, "left": list(left) if left is not None else None,
            "deadline": deadline.isoformat(timespec="milliseconds") if deadline else None,
            "now": now().isoformat(timespec="milliseconds")}


# --- the sweeper ---------------------------------------------------------------------------------------------
def expired(store: "Store", at: datetime) -> list[tuple[str, datetime]]:
    """Games whose seat to act ran out of time before ``at`` (the deadline index finds them)."""
    from .store import GameRow

    with store.sessions() as session:
        rows = session.execute(select(GameRow.id, GameRow.deadline).where(GameRow.deadline < at)
                               .order_by(GameRow.deadline).limit(500)).all()
        return [(r[0], r[1]) for r in rows if r[1] is not None]


def take_over(store: "Store", game_id: str, deadline: datetime, at: datetime) -> int | None:
    """Hand the seat that ran out of time to a bot, in one transaction conditional on the deadline still being
    the one seen: the process whose UPDATE changed the row acts, every other one finds nothing (``None``). Returns
    the seat taken over."""
    from .store import GameRow, SeatRow

    with store.sessions.begin() as session:
        # The write comes first: it takes the row (PostgreSQL) or the database (SQLite) before anything is read.
        won = session.execute(update(GameRow).where(GameRow.id == game_id, GameRow.deadline == deadline,
                                                    GameRow.finished.is_(False))
                              .values(deadline=None))
        if getattr(won, "rowcount", 0) != 1:
            return None
        seat, left = session.execute(select(GameRow.current, GameRow.clock_left)
                                     .where(GameRow.id == game_id)).one()
        if left is not None and 0 <= seat < len(left):
            left = list(left)
            left[seat] = 0
            session.execute(update(GameRow).where(GameRow.id == game_id).values(clock_left=left))
        session.execute(update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat,
                                              SeatRow.kind == "human")
                        .values(kind="bot", level=TAKEOVER_LEVEL, out="timeout"))
        log.info("game %s: seat %d ran out of time (deadline %s, now %s); a bot plays on", game_id, seat,
                 deadline, at)
        return int(seat)


async def expire(services: "Services", at: datetime | None = None) -> list[tuple[str, int]]:
    """One sweep: every expired seat becomes a bot, and the bot plays on (the room, loaded here if need be,
    reads its seats back and tells the other processes). Returns what this process took over."""
    store = services.store
    at = at or now()
    done: list[tuple[str, int]] = []
    for game_id, deadline in await store.call(expired, store, at):
        seat = await store.call(take_over, store, game_id, deadline, at)
        if seat is None:
            continue  # another process (or a commit just in time) came first
        done.append((game_id, seat))
        async with services.rooms.hold(game_id) as room:
            if room is not None:
                await room.seats_changed(store, made_here=True)
                services.driver.wake(room)
    return done


def install(app: FastAPI, services: "Services") -> None:
    """The expiry sweeper: every process runs it; the conditional UPDATE lets one act on each deadline."""

    async def sweep() -> None:
        await expire(services)

    services.every(SWEEP_SECONDS, "clocks", sweep)
