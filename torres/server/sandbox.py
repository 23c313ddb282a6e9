"""The analysis board and the position editor (docs/analysis-board.md): a stateless sandbox on any full position.

The page holds the position it started from and the actions tried since; every request sends both, and the engine
replays and checks them (:func:`replay_sandbox`), so undo is the page dropping its last action. A sandbox position is
public by construction: it is a finished game's moment (:func:`position_at`, refused for a game in progress, whose
position holds cards still hidden) or one a person built in the editor (:func:`build_position`, the engine's builder
and position check). So the sandbox shows every seat's cards; the bots that play seats out and the master's
suggestion still choose from their own seat's view only.

Bots and hints think in the server's bot workers (:class:`~torres.server.bots.BotPool`), never in the event loop.
"""

from __future__ import annotations

import asyncio
import secrets
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Query
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from ..engine.actions import format_action
from ..engine.builder import build
from ..engine.cards import Card
from ..engine.position import from_position, to_position
from ..engine.rules import Rules
from ..engine.state import GameState, Stage
from ..engine.view import SPECTATOR
from .bots import Busy
from .inputs import GameId, answers
from .services import Services
from .views import legal_json, view_json

#: Bounds on what a page may send: a position string is about 400 characters (a 4-player one with long rules
#: text under 1,000), and a sandbox holds at most :data:`MAX_ACTIONS` actions after its position (a whole game
#: from the start takes about 200-450); the page starts again from the position reached when it needs more.
MAX_POSITION_CHARS = 2000
MAX_ACTIONS = 500
MAX_ACTION_CHARS = 80
#: Bot actions one request may play (a whole round of three bots' turns takes about 40).
MAX_BOT_ACTIONS = 120
#: Why a game in progress gives no position (the 403's reason).
UNFINISHED = "only a finished game's moments open on the analysis board: a game in progress still holds hidden cards"
PAGES = ("/board", "/board/edit")
STATIC = Path(str(resources.files("torres") / "web" / "static"))

Level = Literal["beginner", "casual", "strong", "expert", "master"]
ActionText = Annotated[str, Field(max_length=MAX_ACTION_CHARS)]
Square = Annotated[str, Field(min_length=2, max_length=2, description="a square, a1..h8")]
CardName = Annotated[str, Field(max_length=12, description="a card name, e.g. 'six'")]


class BotSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int = Field(ge=0, le=3)
    level: Level


class SandboxRequest(BaseModel):
    """A full position string and the actions tried after it; with ``bots``, those seats are played out."""

    model_config = ConfigDict(extra="forbid")

    position: str = Field(max_length=MAX_POSITION_CHARS, description="a full position string (docs/notation.md §3)")
    actions: list[ActionText] = Field(default_factory=list, max_length=MAX_ACTIONS)
    bots: list[BotSeat] = Field(default_factory=list, max_length=4,
                                description="seats a bot plays: after the actions, the bots act until another seat "
                                            "is to act or the game is over")


class HintRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    position: str = Field(max_length=MAX_POSITION_CHARS)
    actions: list[ActionText] = Field(default_factory=list, max_length=MAX_ACTIONS)


class PositionRequest(BaseModel):
    """The editor's position: what the engine's builder takes (phase and round from 1, as in position strings)."""

    model_config = ConfigDict(extra="forbid")

    players: int = Field(2, ge=2, le=4)
    edition: str = Field("riogrande", max_length=200, description="an edition name or rules text")
    heights: dict[Square, Annotated[int, Field(ge=0, le=35)]] = Field(default_factory=dict, max_length=64)
    knights: list[Annotated[list[Square], Field(max_length=64)]] = Field(default_factory=list, max_length=4)
    king: Square | None = None
    phase: int = Field(1, ge=1, le=3)
    round: int = Field(1, ge=1, le=20)
    current: int = Field(0, ge=0, le=3)
    start: int = Field(0, ge=0, le=3)
    scores: list[Annotated[int, Field(ge=0, le=10_000)]] | None = Field(None, max_length=4)
    hands: list[Annotated[list[CardName], Field(max_length=40)]] | None = Field(None, max_length=4)
    seed: int = Field(0, ge=0, le=2**31 - 1, description="deals the decks the cards are bought from")


class Refused(ValueError):
    """A sandbox request the engine refuses (the 400's reason)."""


# --- the engine's side (blocking: run in a thread) --------------------------------------------------------------
def replay_sandbox(position: str, actions: list[str]) -> tuple[GameState, list[str]]:
    """The state after ``actions`` from ``position``, and the actions in canonical notation; :class:`Refused` says
    which action is not legal and why."""
    try:
        state = from_position(position)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    done = []
    for number, text in enumerate(actions, 1):
        try:
            action = state.parse(text)
        except ValueError as exc:  # (IllegalActionError is one)
            raise Refused(f"action {number} ({text[:MAX_ACTION_CHARS]!r}) is not legal here: {exc}") from None
        state.push(action)
        done.append(str(action))
    return state, done


def sandbox_json(state: GameState, actions: list[str], actors: list[int]) -> dict[str, Any]:
    """The board as the sandbox shows it: the acting seat's view with its legal actions, every seat's cards, and
    the position reached (to share, or to start again from)."""
    over = state.is_over()
    view = view_json(state.view(SPECTATOR if over else state.current))
    view.pop("position", None)
    view["hands"] = [{Card(c).text: n for c, n in enumerate(hand) if n} for hand in state.hands]
    return {"position": to_position(state), "actions": actions, "actors": actors, "view": view,
            "legal": [] if over else [legal_json(a) for a in state.legal_action_ids()], "over": over,
            "current": None if over else state.current}


def build_position(body: PositionRequest) -> str:
    """The editor's position as a full position string, built and checked by the engine; :class:`Refused` gives
    the engine's reason for an impossible one."""
    players = body.players
    if len(body.knights) > players or (body.scores is not None and len(body.scores) != players) or (
            body.hands is not None and len(body.hands) != players):
        raise Refused(f"knights, scores and hands list at most {players} seats (scores and hands exactly)")
    if body.current >= players or body.start >= players:
        raise Refused(f"the seat to act and the start player are seats 0..{players - 1}")
    try:
        rules = Rules.from_text(body.edition)
        hands = None if body.hands is None else {s: [Card.parse(c) for c in cards] for s, cards in enumerate(body.hands)}
        state = build(players, heights=dict(body.heights), knights=dict(enumerate(body.knights)), king=body.king,
                      rules=rules, phase=body.phase - 1, round=body.round - 1, current=body.current, start=body.start,
                      scores=body.scores, hands=hands, seed=body.seed)
        text = to_position(state)
        from_position(text)  # the position check every loaded position passes (ranges, pieces, supply)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    return text


def position_at(state: GameState, at: int) -> str:
    """The full position after the first ``at`` actions of a finished game."""
    step = GameState(state.n, state.seed, state.rules)
    for action_id in state.history[:at]:
        step.apply(action_id)
    return to_position(step)


# --- the routes -------------------------------------------------------------------------------------------------
def install(app: FastAPI, services: Services) -> None:
    pool = services.pool

    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    for path in PAGES:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    async def replayed(position: str, actions: list[str]) -> tuple[GameState, list[str]]:
        try:
            return await asyncio.to_thread(replay_sandbox, position, actions)
        except Refused as exc:
            raise HTTPException(400, str(exc)) from None

    @app.post("/api/sandbox", responses=answers(400, 503))
    async def sandbox(body: SandboxRequest) -> dict[str, Any]:
        """Replay ``actions`` from ``position`` (each checked by the engine), let the ``bots`` play their seats,
        and give the board: the acting seat's view, its legal actions, every seat's cards and the position
        reached."""
        state, done = await replayed(body.position, list(body.actions))
        bots = {b.seat: b.level for b in body.bots if b.seat < state.n}
        # one key per request: the worker's bot plans this request's turn afresh and hands the plan out
        key = f"sandbox-{secrets.token_hex(8)}"
        played = 0
        while (not state.is_over() and state.current in bots and len(done) < MAX_ACTIONS
               and played < MAX_BOT_ACTIONS):
            seat = state.current
            try:
                action = await pool.choose(key, seat, bots[seat], len(done) * 4 + seat, state.view(seat),
                                           asked_for=True)
            except Busy as exc:
                raise HTTPException(503, str(exc)) from None
            state.push(action)
            done.append(format_action(action))
            played += 1
        return sandbox_json(state, done, list(state.actors))

    @app.post("/api/sandbox/hint", responses=answers(400, 503))
    async def sandbox_hint(body: HintRequest) -> dict[str, Any]:
        """The master's suggestion for the seat to act, found from that seat's view (as a hint in a game)."""
        state, _ = await replayed(body.position, list(body.actions))
        if state.is_over():
            raise HTTPException(400, "the game is over: there is no turn to suggest")
        seat = state.current
        try:
            actions, text = await pool.hint(f"sandbox-{secrets.token_hex(8)}", state.view(seat),
                                            seed=len(body.actions))
        except Busy as exc:
            raise HTTPException(503, str(exc)) from None
        except Exception:
            raise HTTPException(503, "no suggestion could be found this time: try again") from None
        return {"seat": seat, "actions": actions, "text": text}

    @app.post("/api/sandbox/position", responses=answers(400))
    async def sandbox_position(body: PositionRequest) -> dict[str, Any]:
        """Build the editor's position with the engine's builder: the position string and its board, or 400 with
        the engine's reason why the position is impossible."""
        try:
            text = await asyncio.to_thread(build_position, body)
            state, _ = await asyncio.to_thread(replay_sandbox, text, [])
        except Refused as exc:
            raise HTTPException(400, str(exc)) from None
        return sandbox_json(state, [], [])

    @app.get("/api/games/{game_id}/position", responses=answers(400, 403, 404))
    async def game_position(game_id: GameId, at: int = Query(..., ge=0, le=100_000,
                                                          description="actions played: frame `at` of the replay")
                            ) -> dict[str, Any]:
        """The full position of a finished game after ``at`` actions (to continue from it on the board)."""
        async with services.rooms.hold(game_id) as room:
            if room is None:
                raise HTTPException(404, f"no game {game_id!r}")
            if not room.state.is_over():
                raise HTTPException(403, UNFINISHED)
            state = room.state  # (a finished game's state never changes again)
        if at > len(state.history):
            raise HTTPException(400, f"the game has {len(state.history)} actions, not {at}")
        return {"game": game_id, "at": at, "position": await asyncio.to_thread(position_at, state, at)}
