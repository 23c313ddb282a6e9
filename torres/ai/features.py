"""Features of a position for each seat, from public facts and hand sizes only: what the learned evaluation
(:mod:`torres.ai.learned`) weighs.

Every feature is a count or a number of points that the rules give meaning to (castle points as they stand, the
king's bonus, blocks still to place, turns still to take before the coming scoring, ...); the learned model
weighs them per phase. Nothing here reads a hand's content: a seat's cards count by number, as another seat
sees them.
"""

from __future__ import annotations

from ..engine.scoring import castle_points
from ..engine.state import GameState, Stage
from .evaluate import DEFAULT_WEIGHTS, seat_terms

#: Names of the features, in order (``seat_features`` rows follow it).
FEATURES = (
    "castles",  # area × level of the seat's highest knight on each castle, summed: what it would score now
    "king",  # the king's bonus it would get at the coming scoring
    "master",  # master-card bonuses at the remaining scorings (discounted), 0 without the master version
    "reach",  # the best climbs its knights could make nearby (torres.ai.evaluate's potential)
    "reach_turns",  # reach × turns left before the coming scoring
    "reserve",  # knights not yet on the board
    "reserve_turns",  # reserve × turns left before the coming scoring
    "cards",  # cards in hand
    "cards_turns",  # cards × turns left before the coming scoring
    "blocks",  # blocks still in the seat's stacks this phase
    "turns",  # turns left before the coming scoring
    "castles_turns",  # castle points × turns left before the coming scoring
    "knight_levels",  # the levels of its knights, summed
    "castles_held",  # castles it stands on
    "headroom",  # on its castles: area × (the castle's top level − its highest knight there), summed
    "ground",  # knights on the board but on no castle
    "king_castle",  # the level of its highest knight on the king's castle
)
N_FEATURES = len(FEATURES)


def turns_before_scoring(state: GameState, seat: int) -> int:
    """The turns ``seat`` still takes before the coming phase scoring (a whole phase after a scoring; the seat
    to act counts the turn it is in)."""
    rounds = len(state.phase_stacks[min(state.phase, 2)])
    if state.stage is Stage.OVER:
        return 0
    if state.stage is not Stage.TURN and state.stage is not Stage.KEEP:
        return rounds
    this_round = 1 if (seat - state.start) % state.n >= state.turn else 0
    return rounds - state.round - 1 + this_round


def seat_features(state: GameState) -> list[list[float]]:
    """A row of :data:`FEATURES` per seat."""
    info = state.info
    h, cid, area, top = info.heights, info.cid, info.area, info.top
    king_castle = cid[state.king] if state.king >= 0 else -1
    terms = seat_terms(state, DEFAULT_WEIGHTS)
    rows = []
    for seat in range(state.n):
        t = terms[seat]
        squares = state.knights[seat]
        points, best = castle_points(info, squares)
        turns = float(turns_before_scoring(state, seat))
        headroom = 0.0
        for c, level in best.items():
            headroom += area[c] * (h[top[c]] - level)
        ground = sum(1 for sq in squares if cid[sq] < 0)
        blocks = sum(state.stacks[seat])
        if state.current == seat and state.turn_stack > 0:
            blocks += state.turn_stack
        rows.append([
            t.castles, t.king, t.master, t.reach, t.reach * turns, t.reserve, t.reserve * turns, t.cards,
            t.cards * turns, float(blocks), turns, t.castles * turns, float(sum(h[sq] for sq in squares)),
            float(len(best)), headroom, float(ground), float(best.get(king_castle, 0)) if king_castle >= 0 else 0.0,
        ])
    return rows

