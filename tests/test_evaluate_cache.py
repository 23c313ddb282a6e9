"""The evaluation's caches change nothing: a cached value equals the value computed from scratch, and the castle
points and king's bonus it writes out agree with the engine's scoring functions."""

from __future__ import annotations

import random

import pytest

import torres.ai.evaluate as evaluation
from torres.ai.evaluate import (BASIC_WEIGHTS, DEFAULT_WEIGHTS, MASTER_WEIGHTS, Weights, clear_caches, raw_terms,
                                seat_values)
from torres.engine import GameState, Rules
from torres.engine.actions import DECODE, Kind
from torres.engine.board import _analyse
from torres.engine.scoring import castle_points, earns_king_bonus
from torres.engine.state import Stage

#: The evaluation's caches, kept aside while a value is computed from scratch.
CACHES = (evaluation._SEAT_TERMS, evaluation._TERMS_CONTEXTS, evaluation._NEAR, evaluation._TURNS)


def fresh_values(state: GameState, weights: Weights = DEFAULT_WEIGHTS, seat: int = -1) -> list[float]:
    """``seat_values`` from scratch: with empty caches, on a fresh analysis of the board (one derived from another
    leads the evaluation to the terms of that other), and the caches as they were afterwards."""
    saved = [dict(cache) for cache in CACHES]
    clear_caches()
    copy = state.clone()
    copy._info = _analyse(bytes(copy.heights))
    values = seat_values(copy, weights, seat)
    for cache, entries in zip(CACHES, saved):
        cache.clear()
        cache.update(entries)  # type: ignore[arg-type]
    return values


@pytest.mark.parametrize("rules", ["riogrande", "ravensburger", "idw:master=1", "yucata"])
@pytest.mark.parametrize("players", [2, 4])
def test_cached_values_equal_fresh_ones_along_searches(rules: str, players: int) -> None:
    rng = random.Random(players * 7 + len(rules))
    state = GameState(players, rng.randrange(1000), Rules.from_text(rules))
    checked = 0

    def check() -> None:
        # (the master's weights: what a seat's turns left before the scoring and the evaluating seat change)
        cases = ((DEFAULT_WEIGHTS, -1), (BASIC_WEIGHTS, -1), (MASTER_WEIGHTS, state.current))
        cached = [seat_values(state, weights, seat) for weights, seat in cases]
        assert [fresh_values(state, weights, seat) for weights, seat in cases] == cached

    while not state.is_over():
        check()
        legal = state.legal_action_ids()
        # a search's pattern: try several actions from the same position, evaluating each
        for a in rng.sample(legal, min(4, len(legal))):
            state.push(a, check=False)
            check()
            checked += 1
            state.pop()
        state.push(rng.choice(legal), check=False)
    assert checked > 100


def test_castle_points_and_king_bonus_agree_with_the_engine() -> None:
    rng = random.Random(5)
    for game in range(6):
        state = GameState(2 + game % 3, game, Rules())
        while not state.is_over():
            if state.stage is Stage.TURN and rng.random() < 0.3:
                phase = min(state.phase, 2)
                bonus = state.rules.king_bonus[phase]
                for seat, terms in enumerate(raw_terms(state)):
                    squares = state.knights[seat]
                    assert terms[0] == castle_points(state.info, squares)[0]
                    assert terms[1] == (bonus if earns_king_bonus(state.info, squares, state.king, phase) else 0)
            state.push(rng.choice(state.legal_action_ids()), check=False)


@pytest.mark.parametrize("rules", ["riogrande", "ravensburger", "idw:master=1", "yucata"])
@pytest.mark.parametrize("players", [2, 3])
def test_terms_carried_over_a_block_or_shift_equal_fresh_ones(rules: str, players: int,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Every legal action from sampled positions, evaluated in turn as a search does (the caches shared, the
    position's terms known): the terms the evaluation carries over from the board before a block or a shift,
    and from the board a shift took its block from, equal those computed from scratch."""
    carried = {"all": 0, "shift": 0}
    computed = incremental = 0

    def counted(*args: object) -> tuple[float, ...]:
        nonlocal computed, incremental
        computed += 1
        incremental += len(args) > 8 and args[8] is not None  # (``before``: carried over in part)
        return board_terms(*args)  # type: ignore[arg-type, no-any-return]

    board_terms = evaluation._board_terms
    monkeypatch.setattr(evaluation, "_board_terms", counted)
    rng = random.Random(players * 11 + len(rules))
    state = GameState(players, rng.randrange(1000), Rules.from_text(rules))
    while not state.is_over():
        legal = state.legal_action_ids()
        if state.stage is Stage.TURN and rng.random() < 0.25:
            seat_values(state)
            for a in legal:
                state.push(a, check=False)
                computed = incremental = 0
                cached = seat_values(state)
                if state.info.derived_from is not None and (computed < players or incremental):
                    carried["shift" if DECODE[a][0] is Kind.SHIFT else "all"] += 1
                assert fresh_values(state) == cached, state.actions_text()[-3:]
                state.pop()
        state.push(rng.choice(legal), check=False)
    assert carried["all"] + carried["shift"] > 50
    if rules == "riogrande":  # (the random games of the other editions here never play the shift card)
        assert carried["shift"] > 20
