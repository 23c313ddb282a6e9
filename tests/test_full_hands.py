"""bench/full_hands.py: the planner under a budget equal to its stop cuts a full hand's turn short; a stop above
the budget lets it finish (no timing assertions)."""

from __future__ import annotations

from torres.ai.samples import FULL_HAND
from torres.engine import GameState
from conftest import load_script

full_hands = load_script("bench/full_hands.py")


def test_a_stop_at_the_budget_cuts_a_full_hands_turn_short_and_one_above_it_finishes_it() -> None:
    state = GameState.from_position(FULL_HAND)
    before = state.position()
    (_, cut_actions, cut_evaluations, _), (_, actions, _, _) = full_hands.plan_under(
        state, [(1000, 1000), (700, 3000)])
    assert state.position() == before  # (planned on a copy)
    assert cut_evaluations >= 1000 and cut_actions <= 2
    assert actions > cut_actions
