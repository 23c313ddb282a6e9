"""Ratings (docs/server.md, "Ratings"): openskill's Plackett-Luce model, one rating per account and player count.

A finished rated game moves its players' ratings **exactly once**, also with several processes and across restarts:
one transaction inserts the game's ``rated_games`` row (its primary key) and updates the ratings, so a second
attempt — another process, a retry after a crash — fails on the key and changes nothing. The process that made
the final move applies it at once (an ``after_change`` hook); a loop picks up any finished rated game left
without its row (a process that died after the final commit).

Only a game made rated, with an account in every seat from the start and no account twice, in which no seat ran out
of time without a move of its own, counts; seats that went to a bot (a timeout or a resignation) rank below everyone who played
on, the earliest leaver lowest. A seat whose account was deleted during the game still counts for the others (as a
leaver once its clock ran out, or by its score if its person played on with the seat's token), and keeps no rating
itself.
"""

from __future__ import annotations

import asyncio
import logging
import re
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, HTTPException, Query
from openskill.models import PlackettLuce
from sqlalchemy import func, select
from sqlalchemy.exc import DBAPIError, IntegrityError

from .accounts import DELETED_SEAT_NAME
from .inputs import answers
from .rooms import summary_json
from .store import AccountRow, EventRow, GameRow, PresenceRow, RatedGameRow, RatingRow, SeatRow, Store, aware, now

if TYPE_CHECKING:
    from .services import Services

log = logging.getLogger("torres.server.ratings")

#: A rating is provisional (shown with a "?", listed after the established ones) until this many rated games.
PROVISIONAL_GAMES = 5
#: The displayed rating: ``round(BASE + SCALE * (mu - MU))``, monotonic in mu — a new player shows 1500, and one
#: mu point (openskill's scale: mu 25, sigma 25/3 at the start) is 40 rating points, so a first win in a two-player
#: game is worth about +100, as a provisional Elo rating would move.
BASE, SCALE = 1500, 40
MODEL = PlackettLuce()
#: How often each process looks for finished rated games whose ratings have not been applied.
SWEEP_SECONDS = 5.0
#: An account with a page open in the last this many seconds is online (presence table).
ONLINE_SECONDS = 60
RECENT_GAMES = 20
LEADERS = 100
_USERNAME = re.compile(r"[A-Za-z0-9_-]{1,40}")


def displayed(mu: float) -> int:
    return round(BASE + SCALE * (mu - MODEL.mu))


def ranks_of(scores: list[int], out: list[bool], left_at: list[int]) -> list[int]:
    """Each seat's rank, 1 the best, equal ranks tied: seats still played by their people by the engine's final
    scores (an equal score is an equal rank, as the engine's winners share the win), then the seats that went to
    a bot, below all of them, whoever left earlier (``left_at``: the version of their last own action) lower."""
    playing = [s for s in range(len(scores)) if not out[s]]
    ranks = [0] * len(scores)
    for s in playing:
        ranks[s] = 1 + sum(1 for t in playing if scores[t] > scores[s])
    for s in range(len(scores)):
        if out[s]:
            ranks[s] = len(playing) + 1 + sum(1 for t in range(len(scores)) if out[t] and left_at[t] > left_at[s])
    return ranks


def _deleted(seat: SeatRow) -> bool:
    """A seat whose account was deleted (accounts.py names such seats so; a rated game starts with an account in
    every seat, so no other seat of one has none)."""
    return seat.account_id is None and seat.name == DELETED_SEAT_NAME


def _unratable(game: GameRow, seats: list[SeatRow], acted: set[int]) -> str | None:
    """Why this game may not move ratings, whatever its ``rated`` flag says (the lobby makes rated games only
    between accounts, and this guards that promise here too). ``acted``: the seats that made a move of their own."""
    if len(seats) != game.players:
        return "its seats are incomplete"
    for s in seats:
        if s.account_id is None and not _deleted(s):
            return f"seat {s.seat} has no account (a guest or a bot)"
        if s.kind != "human" and s.out is None:
            return f"seat {s.seat} is a bot"
    accounts = [s.account_id for s in seats if s.account_id is not None]
    if len(set(accounts)) != len(accounts):
        return "an account sits in two seats"
    if not accounts:
        return "no seat has an account any more"
    # Aborted, not lost, as lichess aborts a game whose player does not make a first move: a rematch started while
    # the other player was away ran their clock out without them, and won a rating from a player who never sat
    # down. (A player who resigns has been there: a resignation counts.)
    absent = [s.seat for s in seats if s.seat not in acted and s.out == "timeout"]
    if absent:
        return f"seat {absent[0]} ran out of time without a move of its own (the game is aborted, not rated)"
    return None


def apply(store: Store, game_id: str) -> list[dict[str, Any]] | None:
    """Apply a finished rated game's result to its players' ratings, exactly once. Returns the changes if this
    call applied them (an empty list: the game was found not to count, and is marked so), ``None`` if there was
    nothing to do (not rated, not finished, or applied already — by this process or another)."""
    for attempt in range(3):
        try:
            return _apply_once(store, game_id)
        except IntegrityError:
            # The game's rated_games row exists: someone else applied it (this transaction rolled back).
            if _applied(store, game_id):
                return None
            raise
        except DBAPIError as exc:  # a deadlock or serialisation failure between two games' players: try again
            if attempt == 2:
                raise
            log.warning("applying the ratings of game %s failed (%s); trying again", game_id, exc.orig)
    return None


def _applied(store: Store, game_id: str) -> bool:
    with store.sessions() as session:
        return session.get(RatedGameRow, game_id) is not None


def _apply_once(store: Store, game_id: str) -> list[dict[str, Any]] | None:
    with store.sessions.begin() as session:
        game = session.get(GameRow, game_id)
        if game is None or not game.rated or not game.finished:
            return None
        if session.get(RatedGameRow, game_id) is not None:
            return None
        stamp = now()
        marker = RatedGameRow(game_id=game_id, changes=[], applied=stamp)
        session.add(marker)
        # The key first: a second attempt stops here (PostgreSQL makes it wait for the first one's outcome), and
        # on SQLite this write takes the database before any rating is read.
        session.flush()
        seats = list(session.scalars(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)))
        # each seat's last own action (an event with a client id: a person's, never a bot's)
        left_at = {seat: version for seat, version in session.execute(
            select(EventRow.seat, func.max(EventRow.version))
            .where(EventRow.game_id == game_id, EventRow.client_id.is_not(None)).group_by(EventRow.seat)).all()}
        problem = _unratable(game, seats, set(left_at))
        if problem is not None:
            log.warning("game %s is rated but does not count: %s", game_id, problem)
            return []
        accounts = [None if s.account_id is None else int(s.account_id) for s in seats]
        known = [a for a in accounts if a is not None]
        deleted = set(session.scalars(select(AccountRow.id).where(AccountRow.id.in_(known),
                                                                   AccountRow.deleted.is_(True))))
        fresh = [{"account_id": a, "players": game.players, "mu": MODEL.mu, "sigma": MODEL.sigma, "games": 0,
                  "updated": stamp} for a in sorted(known) if a not in deleted]
        if fresh:
            session.execute(_insert_missing(store, fresh))
        # Locked in one order (account id), so two games sharing players wait for each other, never deadlock.
        rows = {r.account_id: r for r in session.scalars(
            select(RatingRow).where(RatingRow.account_id.in_(known), RatingRow.players == game.players)
            .order_by(RatingRow.account_id).with_for_update())}
        ranks = ranks_of(list(game.scores), [s.out is not None for s in seats],
                         [int(left_at.get(s.seat, 0)) for s in seats])
        before = [MODEL.rating(mu=rows[a].mu, sigma=rows[a].sigma) if a in rows else MODEL.rating()
                  for a in accounts]
        after = [team[0] for team in MODEL.rate([[r] for r in before], ranks=[float(r) for r in ranks])]
        changes = []
        for s, account, old, new, rank in zip(seats, accounts, before, after, ranks):
            changes.append({"seat": s.seat, "account_id": account, "rank": rank, "before": displayed(old.mu),
                            "after": displayed(new.mu), "mu_before": old.mu, "sigma_before": old.sigma,
                            "mu": new.mu, "sigma": new.sigma})
            row = rows.get(account) if account is not None else None
            if row is not None:  # (a deleted account keeps no rating)
                row.mu, row.sigma, row.games, row.updated = new.mu, new.sigma, row.games + 1, stamp
        marker.changes = changes
        return changes


def _insert_missing(store: Store, rows: list[dict[str, Any]]) -> Any:
    """Rating rows for players' first game of this size, leaving existing ones alone (two games may race)."""
    from sqlalchemy.dialects import postgresql, sqlite

    if store.engine.dialect.name == "postgresql":
        return postgresql.insert(RatingRow).values(rows).on_conflict_do_nothing()
    return sqlite.insert(RatingRow).values(rows).on_conflict_do_nothing()


def unapplied(store: Store, limit: int = 100) -> list[str]:
    """Finished rated games whose result has not moved the ratings yet."""
    with store.sessions() as session:
        return list(session.scalars(
            select(GameRow.id).where(GameRow.finished.is_(True), GameRow.rated.is_(True),
                                     ~select(RatedGameRow.game_id).where(RatedGameRow.game_id == GameRow.id)
                                     .exists())
            .limit(limit)))


# --- reading ---------------------------------------------------------------------------------------------------
def _rating_json(row: RatingRow) -> dict[str, Any]:
    return {"rating": displayed(row.mu), "games": row.games, "provisional": row.games < PROVISIONAL_GAMES,
            "mu": row.mu, "sigma": row.sigma}


def profile(store: Store, username: str) -> dict[str, Any] | None:
    """A player's public profile (``None``: no such player, or the account was deleted)."""
    with store.sessions() as session:
        account = session.scalar(select(AccountRow).where(AccountRow.username_key == username.lower(),
                                                          AccountRow.deleted.is_(False)))
        if account is None:
            return None
        ratings = session.scalars(select(RatingRow).where(RatingRow.account_id == account.id)
                                  .order_by(RatingRow.players)).all()
        seen = session.scalar(select(PresenceRow.seen).where(PresenceRow.account_id == account.id))
        recent = list(session.scalars(
            select(GameRow.id).join(SeatRow, SeatRow.game_id == GameRow.id)
            .where(SeatRow.account_id == account.id, GameRow.finished.is_(True))
            .order_by(GameRow.updated.desc()).limit(RECENT_GAMES)))
    order = {game_id: i for i, game_id in enumerate(recent)}
    games = sorted(store.listed(recent), key=lambda pair: order[pair[0].id])
    online = seen is not None and aware(seen) > now() - timedelta(seconds=ONLINE_SECONDS)
    return {"username": account.username, "created": aware(account.created).isoformat(timespec="seconds"),
            "online": online, "ratings": {str(r.players): _rating_json(r) for r in ratings},
            "recent": [summary_json(stored, stored.seats, stored.version, stored.bot_speed, progress)
                       for stored, progress in games]}


def leaders(store: Store, players: int) -> list[dict[str, Any]]:
    """The best ratings for games of ``players``: established ratings first, then provisional ones."""
    with store.sessions() as session:
        rows = session.execute(
            select(AccountRow.username, RatingRow)
            .join(RatingRow, RatingRow.account_id == AccountRow.id)
            .where(RatingRow.players == players, AccountRow.deleted.is_(False))
            .order_by(RatingRow.games < PROVISIONAL_GAMES, RatingRow.mu.desc(), AccountRow.username_key)
            .limit(LEADERS)).all()
    return [{"username": name, "rating": displayed(row.mu), "games": row.games,
             "provisional": row.games < PROVISIONAL_GAMES} for name, row in rows]


# --- the app ---------------------------------------------------------------------------------------------------
def install(app: FastAPI, services: "Services") -> None:
    """The profile and leaderboard routes, the hook that applies a rated game's result when it ends here, and the
    loop that applies any left over."""
    store, rooms = services.store, services.rooms
    under_way: set[str] = set()  # games this process is applying now
    tasks: set[asyncio.Task[None]] = set()  # (kept referenced until done)

    async def settle(game_id: str) -> None:
        if game_id in under_way:
            return
        under_way.add(game_id)
        try:
            changes = await store.call(apply, store, game_id)
        finally:
            under_way.discard(game_id)
        if changes is None:
            return
        # Every page of the game sees the new ratings: this process's room reads them back, the others hear.
        room = rooms.loaded_room(game_id)
        if room is None:
            services.bus.announce_seats(game_id)
            return
        async with rooms.holding(room):
            await room.seats_changed(store, made_here=True)

    def after_change(room: Any, made_here: bool) -> None:
        # The process that made the final move applies it at once, off the hook (the hook may not wait).
        if made_here and room.stored.rated and room.state.is_over():
            task = asyncio.ensure_future(settle(room.id))
            tasks.add(task)
            task.add_done_callback(_done(tasks, room.id))

    async def sweep() -> None:
        for game_id in await store.call(unapplied, store):
            await settle(game_id)

    services.after_change.append(after_change)
    services.every(SWEEP_SECONDS, "ratings", sweep)

    @app.get("/api/players/{username}", responses=answers(404))
    async def player(username: str) -> dict[str, Any]:
        """A player's public profile: ratings per player count, whether they are online, recent finished
        games."""
        if not _USERNAME.fullmatch(username):
            raise HTTPException(404, "no such player")
        found = await store.call(profile, store, username)
        if found is None:
            raise HTTPException(404, "no such player")
        return found

    @app.get("/api/leaderboard")
    async def leaderboard(players: int = Query(2, ge=2, le=4)) -> dict[str, Any]:
        """The best-rated players of games of ``players`` players (established ratings first)."""
        return {"players": players, "leaders": await store.call(leaders, store, players)}


def _done(tasks: set[asyncio.Task[None]], game_id: str) -> Any:
    def done(task: asyncio.Task[None]) -> None:
        tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("applying the ratings of game %s failed", game_id, exc_info=task.exception())
    return done
