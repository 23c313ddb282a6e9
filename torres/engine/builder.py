"""Build a position directly (for tests, puzzles and rulebook examples): squares, heights, knights, king.

>>> g = build(2, heights={"a3": 2, "a4": 1, "a2": 1}, knights={0: ["a3"], 1: ["a4"]}, king="a2")
>>> g.info.area[g.info.cid[16]], g.level(16)
(3, 2)
"""

from __future__ import annotations

from typing import Mapping, Sequence

from .cards import N_CARD_TYPES, Card
from .rules import Rules
from .squares import parse_square
from .state import KING, GameState, Stage


def build(
    players: int = 2,
    *,
    heights: Mapping[str, int],
    knights: Mapping[int, Sequence[str]] = {},
    king: str | None = None,
    rules: Rules | None = None,
    phase: int = 0,
    round: int = 0,
    current: int = 0,
    start: int = 0,
    scores: Sequence[int] | None = None,
    hands: Mapping[int, Sequence[Card]] | None = None,
    stacks: Mapping[int, Sequence[int]] | None = None,
    seed: int = 0,
) -> GameState:
    """A state in the TURN stage of ``phase`` (0-based) with exactly the given pieces. Heights not named are 0;
    the supply is whatever the 92 blocks leave. Stacks default to the phase card's."""
    state = GameState(players, seed, rules)
    state.heights = bytearray(64)
    state.occ = bytearray(64)
    for name, height in heights.items():
        state.heights[parse_square(name)] = height
    state.knights = [[] for _ in range(players)]
    for seat, squares in knights.items():
        for name in squares:
            sq = parse_square(name)
            if state.occ[sq]:
                raise ValueError(f"two pieces on {name}")
            state.knights[seat].append(sq)
            state.occ[sq] = seat + 1
    state.king = -1
    if king is not None:
        sq = parse_square(king)
        if state.occ[sq]:
            raise ValueError(f"two pieces on {king}")
        state.king = sq
        state.occ[sq] = KING
    state.stage = Stage.TURN
    state.phase, state.round, state.start = phase, round, start
    state.turn = (current - start) % players
    state.scores = list(scores) if scores is not None else [0] * players
    phase_card = state.phase_stacks[phase]
    state.stacks = [list(stacks.get(s, phase_card)) if stacks else list(phase_card) for s in range(players)]
    for s in state.stacks:
        s.sort(reverse=True)
    if hands is not None:
        state.hands = [[0] * N_CARD_TYPES for _ in range(players)]
        for seat, cards in hands.items():
            for card in cards:
                state.hands[seat][card] += 1
    state.supply = state.rules.blocks_total - sum(state.heights) - sum(sum(s) for s in state.stacks)
    state.refresh()
    state._begin_turn()  # editions that take the turn's stack automatically (yucata.de) do so now
    state.supply = state.rules.blocks_total - sum(state.heights) - sum(sum(s) for s in state.stacks) - max(
        state.turn_stack, 0)
    return state
