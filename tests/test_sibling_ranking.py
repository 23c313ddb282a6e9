"""bench/sibling_ranking.py: a fit of the order of sibling turns finds what their margins follow, and measures it
as the master's score is measured."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from conftest import load_script

sibling_ranking = load_script("bench/sibling_ranking.py")
SCALE, PRIOR = 25.0, 1.0


def _starts(margin: Callable[[float, float, float], float], count: int = 120, seed: int = 1) -> list[dict[str, Any]]:
    """Turn starts of six turns whose margins are ``margin(leaf, term, other)``; the prior is noise."""
    rng = np.random.default_rng(seed)
    starts = []
    for game in range(count):
        offset = rng.normal(scale=30.0)  # what the turn start adds to all its turns: the ranking ignores it
        turns = []
        for _ in range(6):
            leaf, term, other = (float(v) for v in rng.normal(scale=5.0, size=3))
            turns.append({"leaf": leaf, "prior": float(rng.normal(scale=0.01)), "parts": [0.0] * 9,
                          "columns": {"term": term, "other": other},
                          "margin": round(10 * margin(leaf, term, other) + offset)})
        starts.append({"game": game, "turns": turns})
    return starts


def _fitted(starts: list[dict[str, Any]], hidden: int) -> Any:
    x = sibling_ranking.rows(starts, ["other", "term"], SCALE)
    better, worse = sibling_ranking.pairs(starts)
    return sibling_ranking.fit(x, better, worse, ridge=0.001, hidden=hidden, prior=PRIOR)


def _ordered(starts: list[dict[str, Any]], ranker: Any) -> float:
    return sibling_ranking.measure(starts, ranker, ["other", "term"], SCALE, PRIOR)[0]


def test_pairs_are_every_sibling_pair_whose_margins_differ_better_first() -> None:
    starts = [{"turns": [{"margin": 3}, {"margin": 1}, {"margin": 3}]}, {"turns": [{"margin": 0}, {"margin": 5}]}]
    better, worse = sibling_ranking.pairs(starts)
    assert sorted(zip(better.tolist(), worse.tolist())) == [(0, 1), (2, 1), (4, 3)]


def test_the_master_s_score_is_where_the_fit_starts_and_what_it_is_measured_against() -> None:
    starts = _starts(lambda leaf, term, other: leaf)
    master = _ordered(starts, None)
    assert master > 0.95  # the margins follow the leaf: the master's score orders nearly every pair
    # a fit that takes no step is the master's score, in order
    x = sibling_ranking.rows(starts, ["other", "term"], SCALE)
    better, worse = sibling_ranking.pairs(starts)
    unfitted = sibling_ranking.fit(x, better, worse, ridge=0.001, hidden=0, prior=PRIOR, steps=0)
    assert _ordered(starts, unfitted) == master


def test_a_term_the_margins_follow_is_found_by_the_linear_fit() -> None:
    starts = _starts(lambda leaf, term, other: leaf + 0.8 * term)
    train, test = starts[:80], starts[80:]
    assert _ordered(test, _fitted(train, hidden=0)) > _ordered(test, None) + 0.1


def test_only_the_hidden_layer_finds_a_margin_that_follows_the_term_s_size() -> None:
    starts = _starts(lambda leaf, term, other: 0.1 * leaf + abs(term))
    train, test = starts[:80], starts[80:]
    linear, net = _ordered(test, _fitted(train, hidden=0)), _ordered(test, _fitted(train, hidden=8))
    assert net > linear + 0.1
