"""bench/sibling_turns.py: the look-ahead's leaf in parts adds up to the evaluation, and the ranking measures."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from torres.ai.base import make_bot
from torres.ai.evaluate import MASTER_WEIGHTS, evaluate
from torres.cli.tournament import start_game
from torres.engine import GameState
from torres.engine.stage import Stage
from conftest import load_script

sibling_turns = load_script("bench/sibling_turns.py")


def test_the_leaf_in_parts_adds_up_to_the_masters_evaluation() -> None:
    start = start_game(["greedy", "greedy"], 1, 2, "riogrande:max_buys=0", 3, random_setup=True)
    state, seats = start.state, start.seats
    line = np.array(sibling_turns.master_line())
    checked = 0
    while not state.is_over():
        if state.stage is Stage.TURN:
            for seat in range(2):
                parts = np.array(sibling_turns.leaf_parts(state, seat))
                assert abs(float(parts @ line) - evaluate(state, seat, MASTER_WEIGHTS)) < 1e-9
                checked += 1
        state.push(seats[state.current].choose(state.view(state.current)))
    assert checked > 50


def _start(margins: list[int], values: list[float]) -> dict[str, Any]:
    return {"game": 0, "turns": [{"margin": m, "v": v, "parts": [0.0] * 9} for m, v in zip(margins, values)]}


def test_concordance_counts_pairs_ordered_as_their_margins_and_the_first_choices_regret() -> None:
    starts = [_start([3, 1, -2], [0.9, 0.5, 0.1]),  # every pair in order, the best turn first: no regret
              _start([3, 1, -2], [0.1, 0.5, 0.9]),  # every pair reversed: the worst turn first, 5 points lost
              _start([2, 2, 0], [0.5, 0.5, 0.5])]  # one pair of equal margins skipped; ties count half
    agree, pairs, regret = sibling_turns.concordance(starts, lambda turns, _: [t["v"] for t in turns])
    assert pairs == 3 + 3 + 2
    assert agree == (3 + 0 + 1) / 8
    assert regret == pytest.approx((0 + 5 + (2 - 4 / 3)) / 3)


def test_the_within_fit_finds_a_line_that_holds_within_turn_starts_only() -> None:
    rng = np.random.default_rng(1)
    truth = np.array([1.0, 0.5, -0.5, 0.2, -0.2, 2.0, -1.0, 0.3, -0.3])
    starts = []
    for _ in range(60):
        parts = rng.normal(size=(6, 9))
        offset = rng.normal(scale=50.0)  # what the turn start adds to all its turns' margins: taken out
        starts.append({"turns": [{"parts": list(p), "margin": float(p @ truth + offset)} for p in parts]})
    assert np.allclose(sibling_turns.within_fit(starts, ridge=1e-9), truth, atol=1e-6)


def test_each_judged_turn_has_the_leaf_the_look_ahead_saw_and_the_margin_it_leads_to() -> None:
    start = start_game(["greedy", "greedy"], 2, 2, "riogrande:max_buys=0", 5, random_setup=True)
    state, seats = start.state, start.seats
    while not (state.phase == 2 and state.round == 3 and state.stage is Stage.TURN):  # the game's last round
        state.push(seats[state.current].choose(state.view(state.current)))
    seat = state.current
    judged = sibling_turns.judge(state, seats, master_seed=1)  # (raises if a leaf is not the one judged)
    assert judged is not None and judged["seat"] == seat and len(judged["turns"]) > 2
    assert any(t["played"] for t in judged["turns"])
    for turn in judged["turns"]:
        assert abs(float(np.array(turn["parts"]) @ np.array(sibling_turns.master_line())) - turn["leaf"]) < 1e-9
        assert abs(turn["score"] - (np.tanh(turn["leaf"] / 25) + turn["prior"])) < 1e-12
    # the margins are those of the game played on: the master's chosen turn, then the same bots
    chosen = next(t for t in judged["turns"] if t["played"])
    assert chosen["margin"] == sibling_turns.margin_of(
        sibling_turns.play_out(_after_masters_turn(state, seat), seats), seat)


def _after_masters_turn(state: GameState, seat: int) -> GameState:
    master = make_bot("master", 1)
    played = state.clone()
    while played.current == seat and not played.is_over() and played.stage is Stage.TURN:
        played.push(master.choose(played.view(seat)))
    return played
