"""bench/sibling_terms.py: the leaf's terms are what they say, and a term that ranks sibling turns is found."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from torres.ai.evaluate import MASTER_WEIGHTS, _board_position
from torres.cli.tournament import start_game
from torres.engine import GameState
from torres.engine.scoring import castle_points
from conftest import load_script

_BENCH = Path(__file__).parent.parent / "bench"
sibling_terms = load_script("bench/sibling_terms.py")


def _played(until: Callable[[GameState], bool]) -> GameState:
    """A game without cards between two greedy bots, played until ``until`` holds."""
    start = start_game(["greedy", "greedy"], 1, 2, "riogrande:max_buys=0", 3, random_setup=True)
    state, seats = start.state, start.seats
    while not until(state):
        state.push(seats[state.current].choose(state.view(state.current)))
    return state


def _late_position() -> GameState:
    return _played(lambda state: state.phase >= 2)


def test_the_leafs_terms_are_the_seats_own_and_its_rivals() -> None:
    state = _late_position()
    seat = 1
    columns = sibling_terms.leaf_columns(GameState.from_position(state.position()), seat)
    points = [castle_points(state.info, state.knights[s])[0] for s in range(2)]
    assert columns["own castles"] == points[seat] and columns["rival castles"] == points[1 - seat]
    assert columns["diff castles"] == points[seat] - points[1 - seat]
    gains = [_board_position(state, MASTER_WEIGHTS)[1][s][3] for s in range(2)]
    assert columns["own max_gain"] == max(gains[seat]) and columns["rival max_gain"] == max(gains[1 - seat])
    # in the last phase the split puts a term's whole value in "last phase" and none in "before"
    assert columns["own max_gain last phase"] == columns["own max_gain"] and columns["own max_gain before"] == 0
    assert columns["own topk_reach"] >= columns["own max_gain"]
    assert columns["own tops"] + columns["own exposed"] == points[seat]
    king_squares = set(state.info.squares[state.info.cid[state.king]])
    for side, s in (("own", seat), ("rival", 1 - seat)):  # a knight in the king's castle is at distance 0
        assert (columns[f"{side} king_dist"] == 0) == bool(king_squares & set(state.knights[s]))
        assert 0 <= columns[f"{side} king_dist"] <= 14


def test_no_terms_at_the_games_end() -> None:
    assert sibling_terms.leaf_columns(_played(GameState.is_over), 0) == {}


def _starts(weight: float, count: int = 80, seed: int = 1) -> list[dict[str, Any]]:
    """Turn starts whose margins follow the leaf and a term ``weight`` times as much as a point of the leaf, with
    a noise term that follows nothing; the prior is noise."""
    rng = np.random.default_rng(seed)
    starts = []
    for _ in range(count):
        offset = rng.normal(scale=30.0)  # what the turn start adds to all its turns: the ranking ignores it
        turns = []
        for _ in range(6):
            leaf, term, noise = rng.normal(scale=5.0), rng.normal(scale=5.0), rng.normal(scale=5.0)
            turns.append({"leaf": leaf, "prior": 0.0, "parts": [0.0] * 9, "columns": {"term": term, "noise": noise},
                          "margin": round(10 * (leaf + weight * term) + offset)})
        starts.append({"turns": turns})
    return starts


def test_a_term_the_margins_follow_is_weighted_and_ranks_more_pairs() -> None:
    starts = _starts(weight=0.8)
    c, agree, fitted = sibling_terms.best_weight(starts, "term", scale=25.0, prior=1.0)
    assert fitted == pytest.approx(0.8, abs=0.05)
    assert c > 0
    master = sibling_terms.concordance(starts, sibling_terms.scorer(25.0, 1.0, {}))[0]
    assert agree > master + 0.1
    # a term the margins do not follow gains next to nothing
    _, noise_agree, _ = sibling_terms.best_weight(starts, "noise", scale=25.0, prior=1.0)
    assert noise_agree < master + 0.02


def test_all_terms_at_once_find_the_weights_on_the_leafs_scale() -> None:
    weights = sibling_terms.all_terms(_starts(weight=-0.5), ["term", "noise"], ridge=1e-6)
    assert weights["term"] == pytest.approx(-0.5, abs=0.05) and abs(weights["noise"]) < 0.05
