"""The web application: HTTP routes, the websocket, the static front-end (docs/server.md)."""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import secrets
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any, AsyncIterator

from fastapi import FastAPI, HTTPException, Query, Response, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from ..engine.cards import CARD_TEXT
from ..engine.master import MASTER_TEXT
from ..engine.rules import EDITIONS
from ..engine.state import GameState
from ..records import RecordError, record_of
from .bots import SPEEDS, BotDriver, BotPool, start_worker
from .bus import make_bus
from .inputs import BodyLimit, GameId, StrictJSONRoute, answers, is_id, validation_problem
from .protocol import CLIENT_LIMITS, LEVELS, Limits, NewGame, handle_socket
from .replays import replay_of_record, replay_of_state
from .rooms import Room, Rooms, dumps, progress_of, summary_json
from .rules_text import rules_html
from .store import Store
from .tutorial import router as tutorial_router
from . import accounts, analysis, clocks, lobby, puzzles, ratings, sandbox
from .services import Services

log = logging.getLogger("torres.server")

STATIC = Path(str(resources.files("torres") / "web" / "static"))
#: Page routes the single page app handles itself.
PAGES = ("/", "/game/{game_id}", "/join/{game_id}/{invite}", "/replay", "/replay/{game_id}", "/rules", "/tutorial",
         "/tutorial/{lesson}", "/login", "/signup", "/account", "/lobby", "/players/{username}", "/leaderboard")
#: Finished games' replays kept in memory (they never change).
REPLAY_CACHE = 64
#: How often a process looks for bots left waiting and for rooms it can forget.
SWEEP_SECONDS = 5.0


def create_app(database: str = "sqlite:///torres.db", bot_workers: int = 1,
               client_limits: Limits = CLIENT_LIMITS, redis: str | None = None,
               sweep_seconds: float = SWEEP_SECONDS) -> FastAPI:
    """The app on ``database``; with ``redis``, one of several processes serving the same games.
    ``sweep_seconds``: how often idle rooms are forgotten and stalled bots looked for."""
    store = Store(database)
    rooms = Rooms(store)
    pool = BotPool(bot_workers)
    bus = make_bus(redis)
    driver = BotDriver(rooms, pool, bus)
    services = Services(store, rooms, pool, driver, bus)
    replays: dict[str, str] = {}  # finished games' replays, written out
    # Uploaded records are replayed in a process of their own: in a thread, the replay would still take the
    # interpreter from the event loop for milliseconds at a time (bench/upload_stall.py, docs/server.md).
    uploads = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=start_worker,
                                  initargs=(False,))

    def changed(room: Room, made_here: bool) -> None:
        driver.wake(room)
        if made_here:
            bus.announce(room.id, room.version)
        for hook in services.after_change:
            hook(room, made_here)

    rooms.on_change = changed

    def seats_changed(room: Room) -> None:
        # A seat that went to a bot here (a resignation, a timeout) is played from here; the others hear of it.
        driver.wake(room)
        bus.announce_seats(room.id)

    rooms.on_seats = seats_changed

    async def announced(game_id: str, version: int | None) -> None:
        """Another process changed a game: catch up if this process has it open."""
        loaded = rooms.loaded_room(game_id)
        if loaded is None:
            return
        async with rooms.holding(loaded) as room:
            if version is None:
                await room.seats_changed(store, made_here=False)
            else:
                await room.catch_up(store, version)

    async def wake_waiting_bots(idle_seconds: float) -> None:
        for game_id in await store.call(store.waiting_for_bots, idle_seconds=idle_seconds):
            async with rooms.hold(game_id) as room:
                if room is not None:
                    driver.wake(room)

    async def sweep() -> None:
        """Bots whose process died mid-turn, and rooms nobody needs any more."""
        while True:
            await asyncio.sleep(sweep_seconds)
            try:
                await wake_waiting_bots(max(sweep_seconds, SWEEP_SECONDS))
                rooms.forget_idle()
            except Exception:
                log.exception("sweep failed")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store.create_schema()
        await bus.start(announced)
        await wake_waiting_bots(0.0)  # bots whose turn it was when the server stopped play on
        for start in services.at_start:
            await start()
        tasks = [asyncio.create_task(sweep(), name="sweep")]
        tasks += [asyncio.create_task(loop.forever(), name=loop.name) for loop in services.loops]
        yield
        for task in tasks:
            task.cancel()
        await driver.close()
        await bus.close()
        pool.close()
        uploads.shutdown(wait=True, cancel_futures=True)
        store.close()

    app = FastAPI(title="torres", version="0.1.0", lifespan=lifespan,
                  description="Play Torres in the browser: games, seats, per-seat views (docs/server.md).")
    app.router.route_class = StrictJSONRoute
    app.add_exception_handler(RequestValidationError, validation_problem)
    app.add_middleware(GZipMiddleware, minimum_size=2048)
    app.add_middleware(BodyLimit)
    app.state.store, app.state.rooms, app.state.driver = store, rooms, driver
    app.state.services = services

    @asynccontextmanager
    async def room_or_404(game_id: str) -> AsyncIterator[Room]:
        async with rooms.hold(game_id) as room:
            if room is None:
                raise HTTPException(404, f"no game {game_id!r}")
            yield room

    # --- pages -----------------------------------------------------------------------------------------------
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    for path in PAGES:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")

    # --- api -------------------------------------------------------------------------------------------------
    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        return {
            "editions": list(EDITIONS),
            "levels": list(LEVELS),
            "card_modes": ["own", "common"],
            "speeds": list(SPEEDS),
            "cards": {card.text: text for card, text in CARD_TEXT.items()},
            "master_cards": {card.text: text for card, text in MASTER_TEXT.items()},
        }

    @app.get("/api/rules/{lang}", responses=answers(404))
    async def rules(lang: str) -> dict[str, str]:
        try:
            return {"lang": lang, "html": rules_html(lang)}
        except LookupError as exc:
            raise HTTPException(404, str(exc)) from None

    @app.post("/api/games", status_code=201, responses=answers(400))
    async def create_game(body: NewGame) -> dict[str, Any]:
        try:
            rules = body.rules()
        except ValueError as exc:
            raise HTTPException(400, str(exc)) from None
        seed = secrets.randbits(63)
        state = GameState(body.players, seed, rules)
        humans = [i for i, s in enumerate(body.seats) if s.kind == "human"]
        claim = humans if body.hotseat else humans[:1]
        game_id, tokens, invites = await store.call(
            store.create_game,
            rules=rules.to_text(), players=body.players, seed=seed, hotseat=body.hotseat, bot_speed=body.bot_speed,
            seats=[(s.kind, s.bot_level if s.kind == "bot" else None, s.display_name(i))
                   for i, s in enumerate(body.seats)],
            claim=claim, progress=progress_of(state))
        async with room_or_404(game_id) as room:
            driver.wake(room)
            return {"id": game_id, "version": room.version, "tokens": {str(k): v for k, v in tokens.items()},
                    "invites": {str(k): f"/join/{game_id}/{v}" for k, v in invites.items()},
                    "game": room.summary()}

    @app.get("/api/games")
    async def list_games(ids: str = Query("", max_length=2000)) -> dict[str, Any]:
        wanted = [i for i in ids.split(",") if is_id(i)][:100]
        out = []
        for stored, progress in await store.call(store.listed, wanted):
            room = rooms.loaded_room(stored.id)
            out.append(room.summary() if room is not None else
                       summary_json(stored, stored.seats, stored.version, stored.bot_speed, progress))
        order = {game_id: i for i, game_id in enumerate(wanted)}
        out.sort(key=lambda g: order.get(g["id"], 0))
        return {"games": out}

    @app.get("/api/games/{game_id}", responses=answers(404))
    async def game_summary(game_id: GameId) -> dict[str, Any]:
        async with room_or_404(game_id) as room:
            return room.summary()

    @app.post("/api/games/{game_id}/join", responses=answers(400, 404, 409))
    async def join(game_id: GameId, body: dict[str, Any]) -> dict[str, Any]:
        invite = body.get("invite")
        if not isinstance(invite, str) or not 1 <= len(invite) <= 200:
            raise HTTPException(400, "an invite code is a string")
        async with room_or_404(game_id) as room:
            claimed = await store.call(store.claim, game_id, invite)
            if claimed is None:
                if await store.call(store.invite_seat, game_id, invite) is not None:
                    raise HTTPException(409, "this seat has been taken already")
                raise HTTPException(404, "this invite link is not valid for this game (it may have been used)")
            seat, token = claimed
            await room.seats_changed(store, made_here=True)
            return {"seat": seat, "token": token}

    @app.get("/api/games/{game_id}/record", responses=answers(403, 404))
    async def record(game_id: GameId) -> JSONResponse:
        async with room_or_404(game_id) as room:
            if not room.state.is_over():
                raise HTTPException(403, "a record holds the seed: it is served once the game is finished")
            return JSONResponse(record_of(room.state, meta=_meta(room)),
                                headers={"Content-Disposition": f'attachment; filename="torres-{game_id}.json"'})

    @app.get("/api/games/{game_id}/replay", responses=answers(403, 404))
    async def replay(game_id: GameId) -> Response:
        async with room_or_404(game_id) as room:
            if not room.state.is_over():
                raise HTTPException(403, "replays are for finished games")
            if game_id not in replays:
                text = await asyncio.to_thread(lambda: dumps(replay_of_state(room.state, _meta(room))))
                if len(replays) >= REPLAY_CACHE:
                    replays.pop(next(iter(replays)))
                replays[game_id] = text
            return Response(replays[game_id], media_type="application/json")

    @app.post("/api/replay", responses=answers(400, 413))
    async def replay_upload(body: dict[str, Any]) -> Response:
        loop = asyncio.get_running_loop()
        refused, text = await loop.run_in_executor(uploads, replay_text_of_record, body)
        if refused:
            raise HTTPException(400, text)
        return Response(text, media_type="application/json")

    app.include_router(tutorial_router)
    # --- strangers: accounts, the lobby, ratings, clocks (docs/server.md) ------------------------------------
    for part in (accounts, lobby, ratings, clocks, analysis, sandbox, puzzles):
        part.install(app, services)

    # --- the websocket ---------------------------------------------------------------------------------------
    @app.websocket("/ws/{game_id}")
    async def socket(websocket: WebSocket, game_id: str) -> None:
        account = await accounts.account_of_socket(websocket)  # its cookie's account opens that account's seats
        await websocket.accept()
        if not is_id(game_id):
            await websocket.send_json({"type": "error", "code": "no_game", "message": "no such game"})
            await websocket.close(code=4404)
            return
        # The socket holds its room from the accept on, greeted or not, so the room stays the one live copy.
        async with rooms.hold(game_id) as room:
            if room is None:
                await websocket.send_json({"type": "error", "code": "no_game", "message": f"no game {game_id!r}"})
                await websocket.close(code=4404)
                return
            try:
                async with app.state.lobby.online(account.id if account else None):  # who is online (lobby.py)
                    await handle_socket(websocket, room, store, pool, client_limits, account,
                                        functools.partial(accounts.socket_session_alive, websocket))
            except WebSocketDisconnect:
                pass

    return app


def replay_text_of_record(body: Any) -> tuple[bool, str]:
    """In the uploads' process: (False, the replay as JSON text) or (True, why the record was refused)."""
    try:
        return False, dumps(replay_of_record(body))
    except RecordError as exc:
        return True, str(exc)


def _meta(room: Room) -> dict[str, Any]:
    return {"players": [{"name": s.name, "kind": s.kind, "level": s.level} for s in room.seats],
            "program": "torres serve", "game": room.id}

