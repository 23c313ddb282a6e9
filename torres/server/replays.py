"""Replays of finished games (and of uploaded records): the table after every action, everything revealed.

Only a finished game has a replay: its seed and every hand are public once it is over."""

from __future__ import annotations

from typing import Any

from ..engine.state import GameState
from ..records import RecordError, record_of, replay, validate_record
from .views import frame_json

#: An uploaded record may hold at most this many actions (a whole game has about a thousand at most).
MAX_ACTIONS = 5000


def replay_of_state(state: GameState, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """Every frame of a game: frame ``i`` is the table after ``i`` actions."""
    record = record_of(state, meta=meta)
    step = GameState(state.n, state.seed, state.rules)
    frames = [frame_json(step)]
    scorings = []
    for action_id in state.history:
        done = len(step.scorings)
        step.apply(action_id)
        frames.append(frame_json(step))
        if len(step.scorings) > done:
            scorings.append(len(frames) - 1)
    return {"record": record, "actions": record["actions"], "actors": list(state.actors), "frames": frames,
            "scorings": scorings}


def replay_of_record(obj: Any) -> dict[str, Any]:
    """The replay of an uploaded record (:class:`RecordError` if it is not a valid, finished game)."""
    if isinstance(obj, dict) and isinstance(obj.get("actions"), list) and len(obj["actions"]) > MAX_ACTIONS:
        raise RecordError(f"a record holds at most {MAX_ACTIONS} actions")
    try:
        state = replay(validate_record(obj))
    except RecordError:
        raise
    except ValueError as exc:  # rules text the engine refuses (an unknown square, a bad setting)
        raise RecordError(f"this record does not replay: {exc}") from None
    meta = obj.get("meta") if isinstance(obj.get("meta"), dict) else None
    return replay_of_state(state, meta)
