"""Replays of finished games (and of uploaded records): the table after every action, everything revealed.

Only a finished game has a replay: its seed and every hand are public once it is over."""

from __future__ import annotations

import logging
from typing import Any

from ..engine.state import GameState
from ..records import MAX_ACTIONS, RecordError, record_of, replay, validate_record
from .views import frame_json

log = logging.getLogger("torres.server")

__all__ = ["MAX_ACTIONS", "replay_of_record", "replay_of_state"]


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
    """The replay of an uploaded record; :class:`RecordError` (the server's 400) for anything that does not replay,
    whatever is wrong with it.

    What an upload may cost is bounded before anything is replayed: the record's structure, its rules (the engine's
    one check) and its size (:data:`torres.records.MAX_ACTIONS` actions at most, and no more than its rules allow
    a game, each action, ``meta`` and every text in it bounded) are checked by :func:`validate_record` first."""
    try:
        record = validate_record(obj)
        state = replay(record)
        return replay_of_state(state, record.get("meta"))
    except RecordError:
        raise
    except (ValueError, TypeError, LookupError, ArithmeticError, RecursionError) as exc:
        # Whatever the engine says of a record that got past the checks above, it is the upload that is wrong;
        # logged, since it is also a check that this module lacks.
        log.warning("an uploaded record failed to replay: %r", exc)
        raise RecordError(f"this record does not replay: {exc}") from None
