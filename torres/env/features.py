"""The legal actions of a step as a small array of features, for policies that score actions one by one (a
pointer-style head) instead of a 20,936-wide output.

Row ``i`` describes ``legal[i]`` (the engine's sorted legal ids) in :data:`COLUMNS` order; every entry is a small
integer stored as ``float32``:

* what the action is, decoded with the engine's own tables (``torres.engine.actions.DECODE`` and ``KEEP_TABLE``):
  ``kind``, ``from`` and ``to`` squares, ``arg``, ``card``, its ``cost`` in action points;
* what it does, measured by playing it on the engine (``push``, read, ``pop``): the level change at ``to``, the
  change of the acting seat's *standing* (its score plus what the phase would score now, ``scoring_now()``) and
  the largest change of a rival's standing, and whether the turn passes to another seat.

Nothing here knows a rule: the kinds, squares and costs come from the engine's action tables, the effects from the
engine's state after the action. The effects read only public facts (levels, knights, the king, scores), so a seat
learns nothing from them that its own view does not show (``tests/test_env_features.py`` checks both).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..engine.actions import ACTION_POINTS, DECODE, KEEP_TABLE, PLAY_KINDS, Kind
from ..engine.state import GameState, Stage

#: Column names of the feature array, in order.
COLUMNS = (
    "kind",       # torres.Kind of the action (0 start .. 22 vault)
    "from",       # square a knight or block leaves (moves, climb, gate, diagonal, shift, redeploy, vault); -1 if none
    "to",         # square the action places, moves or builds on (a1 = 0 .. h8 = 63); -1 if none
    "arg",        # stack height (stack; lift: 0 = this turn's stack), seat (first), keep row (keep); -1 if none
    "card",       # torres.Card played, or kept (keep); -1 if none
    "cost",       # action points the action costs
    "level_from",  # level of ``from`` before the action; -1 if none
    "level_to",   # level of ``to`` before the action; -1 if none
    "d_level",    # change of the level of ``to`` (a block placed: +1; shift: the target's rise); 0 if none
    "d_score",    # change of the acting seat's standing: score + what the phase would score now
    "d_rival",    # the largest change of another seat's standing (0 with no change)
    "passes",     # 1 if another seat acts next (the turn ends, or the game does)
)
N_FEATURES = len(COLUMNS)
COLUMN = {name: i for i, name in enumerate(COLUMNS)}
#: Per-column bounds (the feature space's ``low`` and ``high``).
LOW = np.array([0, -1, -1, -1, -1, 0, -1, -1, -1, -400, -400, 0], np.float32)
HIGH = np.array([len(Kind) - 1, 63, 63, len(KEEP_TABLE) - 1, 9, 2, 92, 92, 92, 400, 400, 1], np.float32)

# kinds whose first decoded field is a square that the action acts on (placed on, built on, lifted under)
_TARGET_A = frozenset({Kind.START, Kind.KING, Kind.CASTLE, Kind.KNIGHT, Kind.BLOCK, Kind.BUILD, Kind.LIFT})
# kinds that decode to (source square, destination square)
_FROM_TO = frozenset({Kind.MOVE, Kind.CLIMB, Kind.GATE, Kind.DIAGONAL, Kind.SHIFT, Kind.REDEPLOY, Kind.VAULT})


def _static_row(action_id: int) -> tuple[int, ...]:
    kind, a, b = DECODE[action_id]
    src = dst = arg = card = -1
    if kind in _FROM_TO:
        src, dst = a, b
    elif kind in _TARGET_A:
        dst = a
        if kind is Kind.LIFT:
            arg = b
    elif kind in (Kind.STACK, Kind.FIRST):
        arg = a
    elif kind is Kind.KEEP:
        arg = a
        card = KEEP_TABLE[a][0]
    if kind in PLAY_KINDS:
        card = int(PLAY_KINDS[kind])
    return int(kind), src, dst, arg, card, ACTION_POINTS.get(kind, 0)


#: kind, from, to, arg, card, cost of every action id, from the engine's tables (computed once, 20,936 rows).
STATIC = np.array([_static_row(i) for i in range(len(DECODE))], np.int16)


def standing(state: GameState) -> list[int]:
    """Each seat's score plus what this phase would score now (its final score once the game is over)."""
    if state.stage is Stage.OVER:
        return list(state.scores)
    return list(state.scoring_now().after)


def action_features(state: GameState, legal: Sequence[int] | None = None,
                    out: np.ndarray | None = None) -> np.ndarray:
    """``float32[len(legal), N_FEATURES]``: the features of each legal action of the seat to act (``legal``
    defaults to ``state.legal_action_ids()``). Written into ``out[:len(legal)]`` when given. The state is left
    exactly as it was (each action is pushed and popped)."""
    if legal is None:
        legal = state.legal_action_ids()
    n = len(legal)
    rows = np.empty((n, N_FEATURES), np.float32) if out is None else out[:n]
    if n == 0:
        return rows
    ids = np.fromiter(legal, np.int64, n)
    static = STATIC[ids]
    rows[:, :6] = static
    seat = state.current
    src, dst = static[:, 1], static[:, 2]
    before = np.frombuffer(bytes(state.heights), np.uint8).astype(np.int16)
    rows[:, 6] = np.where(src >= 0, before[src], -1)
    rows[:, 7] = np.where(dst >= 0, before[dst], -1)
    base = standing(state)
    rivals = [s for s in range(state.n) if s != seat]
    effects = np.empty((n, 3), np.float32)
    for i, action in enumerate(legal):
        d = int(dst[i])
        state.push(action, check=False)
        now = standing(state)
        effects[i, 0] = state.heights[d] - before[d] if d >= 0 else 0
        effects[i, 1] = now[seat] - base[seat]
        effects[i, 2] = max(now[s] - base[s] for s in rivals)
        passes = state.stage is Stage.OVER or state.current != seat
        state.pop()
        rows[i, 11] = passes
    rows[:, 8:11] = effects
    return rows
