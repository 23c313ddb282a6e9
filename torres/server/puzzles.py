"""Puzzles, "find the best turn" (docs/puzzles.md): the shipped puzzles, each played from its position by the
engine on every request.

The server keeps nothing between requests: the page sends the actions of the turn so far and gets the seat's view
after them, its legal actions and, once the turn has ended, the verdict. A puzzle's position string holds every
hand and deck, so it never leaves the server: the page sees the seat's view only (:meth:`GameState.view`). The
solution is sent only with a verdict that missed it, or when asked for (``POST .../solution``).
"""

from __future__ import annotations

import asyncio
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Path as PathParam
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from ..ai.analysis import MAX_TURN_ACTIONS
from ..ai.puzzles import DIFFICULTIES, MARGIN, SOLVED_WITHIN, Attempt, Puzzle, PuzzleError, attempt, judge, load_puzzles
from ..engine.state import GameState
from .inputs import answers
from .services import Services
from .views import view_json

PAGES = ("/puzzles", "/puzzles/{puzzle_id}")
STATIC = Path(str(resources.files("torres") / "web" / "static"))
MAX_ACTION_CHARS = 80
MAX_ID_CHARS = 32

ActionText = Annotated[str, Field(max_length=MAX_ACTION_CHARS)]
PuzzleId = Annotated[str, PathParam(max_length=MAX_ID_CHARS, description="a puzzle's id, as GET /api/puzzles lists")]


class Actions(BaseModel):
    """The actions of the seat's turn so far, in notation (``end`` last once the turn is over)."""

    model_config = ConfigDict(extra="forbid")

    actions: list[ActionText] = Field(default_factory=list, max_length=MAX_TURN_ACTIONS)


def _round(value: float) -> float:
    return round(float(value), 1) + 0.0


def seat_view(state: GameState, seat: int) -> dict[str, Any]:
    """The seat's view as the page draws it (no other seat's cards, no deck order), with the legal actions."""
    return view_json(state.view(seat))


def solution_json(puzzle: Puzzle) -> dict[str, Any]:
    """The solution, with the seat's view after it (to draw it on the board) and the best other turn's value."""
    after = attempt(puzzle, list(puzzle.solution))
    return {"actions": list(puzzle.solution), "value": _round(puzzle.value), "runner_up": _round(puzzle.runner_up),
            "margin": _round(puzzle.margin), "view": seat_view(after.state, puzzle.seat)}


def step_json(puzzle: Puzzle, tried: Attempt) -> dict[str, Any]:
    """Where the turn stands after the actions sent; once it has ended, the verdict (and the solution if missed)."""
    out: dict[str, Any] = {"id": puzzle.id, "actions": tried.actions, "done": tried.done,
                           "view": seat_view(tried.state, puzzle.seat)}
    if not tried.done:
        return out
    verdict = judge(tried)
    out["result"] = {"solved": verdict.solved, "value": _round(verdict.value), "short": _round(verdict.short),
                     "solution": None if verdict.solved else solution_json(puzzle)}
    return out


def puzzle_json(puzzle: Puzzle) -> dict[str, Any]:
    state = puzzle.state()
    return {**puzzle.summary(), "seat": puzzle.seat, "view": seat_view(state, puzzle.seat),
            "margin": MARGIN, "solved_within": SOLVED_WITHIN}


def install(app: FastAPI, services: Services) -> None:
    # (easy ones first: the page offers the first puzzle not solved yet)
    puzzles = {p.id: p for p in sorted(load_puzzles(), key=lambda p: DIFFICULTIES.index(p.difficulty))}
    listing = {"margin": MARGIN, "solved_within": SOLVED_WITHIN, "puzzles": [p.summary() for p in puzzles.values()]}

    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    for path in PAGES:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    def find(puzzle_id: str) -> Puzzle:
        puzzle = puzzles.get(puzzle_id)
        if puzzle is None:
            raise HTTPException(404, f"no puzzle {puzzle_id[:MAX_ID_CHARS]!r}")
        return puzzle

    def played(puzzle: Puzzle, actions: list[str]) -> Attempt:
        try:
            return attempt(puzzle, actions)
        except PuzzleError as exc:
            raise HTTPException(400, str(exc)) from None

    @app.get("/api/puzzles")
    async def list_puzzles() -> dict[str, Any]:
        """Every puzzle: id, theme, players, difficulty, phase, round and whether a phase scoring follows."""
        return listing

    @app.get("/api/puzzles/{puzzle_id}", responses=answers(404))
    async def get_puzzle(puzzle_id: PuzzleId) -> dict[str, Any]:
        """A puzzle's position as its seat sees it (the view, with the legal actions); never the solution."""
        puzzle = find(puzzle_id)
        return await asyncio.to_thread(puzzle_json, puzzle)

    @app.post("/api/puzzles/{puzzle_id}/step", responses=answers(400, 404))
    async def step(puzzle_id: PuzzleId, body: Actions) -> dict[str, Any]:
        """The engine plays ``actions`` from the puzzle's position (each must be legal): the seat's view and legal
        actions after them; once the turn has ended, ``result``: solved or not, the turn's value, the points short
        of the solution, and the solution when it was missed."""
        puzzle = find(puzzle_id)
        tried = await asyncio.to_thread(played, puzzle, body.actions)
        return await asyncio.to_thread(step_json, puzzle, tried)

    @app.post("/api/puzzles/{puzzle_id}/attempt", responses=answers(400, 404))
    async def attempt_puzzle(puzzle_id: PuzzleId, body: Actions) -> dict[str, Any]:
        """A whole turn (``end`` last) judged: as ``step``, and a 400 when the turn has not ended."""
        puzzle = find(puzzle_id)
        tried = await asyncio.to_thread(played, puzzle, body.actions)
        if not tried.done:
            raise HTTPException(400, 'the turn is not over: an attempt is a whole turn, "end" last')
        return await asyncio.to_thread(step_json, puzzle, tried)

    @app.post("/api/puzzles/{puzzle_id}/solution", responses=answers(404))
    async def solution(puzzle_id: PuzzleId) -> dict[str, Any]:
        """The solution (the master's best turn), its value, the best other turn's, and the seat's view after it."""
        puzzle = find(puzzle_id)
        return await asyncio.to_thread(solution_json, puzzle)


__all__ = ["Actions", "PAGES", "install", "puzzle_json", "solution_json", "step_json"]
