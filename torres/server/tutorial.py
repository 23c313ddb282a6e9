"""The guided first game (issue #32): the lessons of :mod:`torres.tutorial` over HTTP.

Stateless: the page sends the actions of its attempt so far, the server replays them on the lesson's position with
the engine (each parsed and checked: an illegal one is a 400 with the engine's reason) and answers the new view,
whether the lesson's goal is reached, and why — in English and German. A few pushes per request: no search, no
database."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ..engine.state import GameState, Stage
from ..tutorial import BY_ID, LEARNER, LESSONS, MAX_ACTION_CHARS, MAX_ACTIONS, AttemptError, Lesson, attempt
from .inputs import StrictJSONRoute, answers
from .views import seat_view_json

router = APIRouter(route_class=StrictJSONRoute)

#: A lesson id in a path: short, and looked up in the lessons (404 for any other).
LessonId = Annotated[str, Path(max_length=40, description="a lesson id from GET /api/tutorial")]


class Try(BaseModel):
    """The actions of an attempt so far, in notation (docs/notation.md), oldest first."""

    model_config = ConfigDict(extra="forbid")

    actions: list[Annotated[str, StringConstraints(max_length=MAX_ACTION_CHARS)]] = Field(
        default_factory=list, max_length=MAX_ACTIONS)


def lesson_or_404(lesson_id: str) -> Lesson:
    lesson = BY_ID.get(lesson_id)
    if lesson is None:
        raise HTTPException(404, f"no lesson {lesson_id[:40]!r} (lessons: {', '.join(BY_ID)})")
    return lesson


def points_now(state: GameState) -> list[int] | None:
    """What each seat would get if the phase ended now (castles and king's bonus: the engine's ``scoring_now``)."""
    if state.stage is not Stage.TURN:
        return None
    scoring = state.scoring_now()
    return [scoring.castle_points(s) + scoring.king_bonus[s] for s in range(state.n)]


def board_json(state: GameState) -> dict[str, Any]:
    return {"view": seat_view_json(state, LEARNER), "points_now": points_now(state)}


@router.get("/api/tutorial")
async def lessons() -> dict[str, Any]:
    """The lessons in order, with their titles in both languages."""
    return {"lessons": [{"id": lesson.id, "title": lesson.title} for lesson in LESSONS]}


@router.get("/api/tutorial/{lesson_id}", responses=answers(404))
async def lesson(lesson_id: LessonId) -> dict[str, Any]:
    """A lesson: its texts, what the page offers, and the position as the learner's view."""
    found = lesson_or_404(lesson_id)
    index = LESSONS.index(found)
    return {
        "id": found.id, "index": index, "count": len(LESSONS),
        "next": LESSONS[index + 1].id if index + 1 < len(LESSONS) else None,
        "title": found.title, "text": found.text, "task": found.task, "offer": list(found.offer),
        **board_json(found.setup()),
    }


@router.post("/api/tutorial/{lesson_id}/try", responses=answers(400, 404))
async def try_actions(lesson_id: LessonId, body: Try) -> dict[str, Any]:
    """Replay the attempt's actions on the lesson's position: the new view, the last action's outcome (``goal``,
    ``step`` or ``wrong``) and why, in both languages."""
    found = lesson_or_404(lesson_id)
    try:
        result = attempt(found, body.actions)
    except AttemptError as exc:
        raise HTTPException(400, str(exc)) from None
    last = result.last
    return {
        "id": found.id, "actions": list(body.actions),
        "outcome": last.kind if last else None, "goal": bool(last and last.kind == "goal"),
        "message": last.message if last else None,
        **board_json(result.state),
    }
