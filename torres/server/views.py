"""What the server sends about a game: per-seat views with the legal actions spelled out for clicking.

Everything here is read from the engine (``SeatView``, ``Action``, ``ACTION_POINTS``); nothing decides a rule."""

from __future__ import annotations

from typing import Any

import orjson

from ..engine.actions import ACTION_POINTS, Action
from ..engine.cards import Card
from ..engine.squares import square_name
from ..engine.state import GameState
from ..engine.view import SPECTATOR, SeatView, action_text_for


def json_text(obj: Any) -> str:
    """``obj`` as compact JSON text: what ``json.dumps(obj, separators=(",", ":"))`` gives (text beyond ASCII as
    UTF-8 rather than ``\\u`` escapes), a tenth of its time — the server sends a view to every seat after every
    action."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


#: :func:`legal_json` of each action id met so far: a pure function of the id, asked for every legal action of
#: every view the server sends (a few dozen per action), so worked out once per id (at most ``NUM_ACTIONS``).
_LEGAL: dict[int, dict[str, Any]] = {}


def legal_json(action_id: int) -> dict[str, Any]:
    """One legal action as the browser needs it to light up a target: kind, squares, card and cost."""
    known = _LEGAL.get(action_id)
    if known is None:
        action = Action(action_id)
        known = _LEGAL[action_id] = {
            "action": str(action),
            "kind": action.kind.name.lower(),
            "from": square_name(action.source) if action.source >= 0 else None,
            "to": square_name(action.square) if action.square >= 0 else None,
            "card": action.card.text if action.card is not None else None,
            "cost": ACTION_POINTS.get(action.kind, 0),
        }
    return known.copy()  # a caller may change its copy; the table stays as it is


def view_json(view: SeatView) -> dict[str, Any]:
    """``view.to_json()`` with ``legal`` as objects (:func:`legal_json`) and ``seat`` null for a spectator."""
    data = view.to_json()
    data["legal"] = [legal_json(a) for a in view.legal]
    if view.seat == SPECTATOR:
        data["seat"] = None
        data["deck_known"] = []
    return data


def seat_view_json(state: GameState, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator's public view), with the seat that took each action of the
    history (public: everybody saw who acted)."""
    data = view_json(state.view(SPECTATOR if seat is None else seat))
    data["actors"] = list(state.actors)
    return data


def event_json(state: GameState, seat: int | None) -> dict[str, Any] | None:
    """The last action as ``seat`` may learn it, or ``None`` when it is hidden from that seat."""
    action_id, actor = state.history[-1], state.actors[-1]
    text = action_text_for(action_id, actor, SPECTATOR if seat is None else seat)
    return None if text is None else {"seat": actor, "action": text}


def frame_json(state: GameState) -> dict[str, Any]:
    """The table as everybody may see it once the game is over: the public view and every seat's hand."""
    data = view_json(state.view(SPECTATOR))
    for key in ("history", "position", "legal"):
        data.pop(key, None)
    data["hands"] = [{Card(c).text: n for c, n in enumerate(hand) if n} for hand in state.hands]
    return data
