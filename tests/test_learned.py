"""The learned evaluation: its features read only what a seat may know, the shipped weights load and match the
features, and the script that fits them is reproducible."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from torres.ai import make_bot
from torres.ai.features import FEATURES, seat_features, turns_before_scoring
from torres.ai.greedy import GreedyBot
from torres.ai.learned import LearnedEvaluation, learned_evaluation
from torres.engine import GameState, Rules
from torres.engine.actions import O_END
from torres.engine.state import Stage

ROOT = Path(__file__).resolve().parent.parent


def _midgame(seed: int = 4, players: int = 2, rules: str = "riogrande", actions: int = 90) -> GameState:
    state = GameState(players, seed, Rules.from_text(rules))
    bots = [make_bot("greedy:width=1", seed + s) for s in range(players)]
    while not state.is_over() and len(state.history) < actions:
        state.push(bots[state.current].choose(state.view(state.current)))
    return state


@pytest.mark.parametrize("rules", ["riogrande", "riogrande:card_mode=common", "idw:master=1"])
def test_features_and_value_depend_only_on_the_seats_view(rules: str) -> None:
    state = _midgame(rules=rules)
    evaluation = learned_evaluation()
    for seat in range(state.n):
        view = state.view(seat)
        twins = [view.determinize(random.Random(k)) for k in range(4)]
        assert all(seat_features(t) == seat_features(state) for t in twins)
        assert len({evaluation(t, seat) for t in twins + [state]}) == 1


def test_turns_before_the_scoring_count_down_seat_by_seat() -> None:
    state = GameState(2, 1, Rules())
    while state.stage is not Stage.TURN:
        state.push(state.legal_action_ids()[0])
    rounds = state.rounds_in_phase
    mover, other = state.current, 1 - state.current
    assert turns_before_scoring(state, mover) == turns_before_scoring(state, other) == rounds
    state.push(O_END)
    assert (turns_before_scoring(state, mover), turns_before_scoring(state, other)) == (rounds - 1, rounds)
    state.push(O_END)
    assert turns_before_scoring(state, mover) == turns_before_scoring(state, other) == rounds - 1


def test_the_shipped_weights_match_the_features_and_judge_a_finished_game_by_its_score() -> None:
    data = json.loads((ROOT / "torres" / "data" / "learned_eval.json").read_text())
    assert data["features"] == list(FEATURES)
    evaluation = learned_evaluation()
    state = _midgame(actions=100_000)
    assert state.is_over()
    assert evaluation(state, 0) == state.scores[0] - state.scores[1]
    with pytest.raises(ValueError):
        LearnedEvaluation([[0.0] * len(FEATURES)] * 2)


def test_a_feature_weight_moves_the_value_by_the_feature() -> None:
    state = _midgame()
    rows = seat_features(state)
    j = FEATURES.index("castles")
    zero = [[0.0] * len(FEATURES) for _ in range(3)]
    one = [row[:] for row in zero]
    one[min(state.phase, 2)][j] = 1.0
    base, plus = LearnedEvaluation(zero).seat_values(state), LearnedEvaluation(one).seat_values(state)
    assert [p - b for p, b in zip(plus, base)] == pytest.approx([row[j] for row in rows])


def test_the_learned_planner_plays_whole_legal_games() -> None:
    bot = make_bot("greedy:value=learned:width=2", 3)
    assert isinstance(bot, GreedyBot) and bot.evaluator is learned_evaluation()
    state = GameState(2, 5, Rules())
    rival = make_bot("greedy:width=1", 4)
    while not state.is_over():
        seat = state.current
        action = (bot if seat == 0 else rival).choose(state.view(seat))
        state.push(action)
    with pytest.raises(ValueError):
        make_bot("greedy:value=nonsense")


def test_the_fitting_script_is_reproducible(tmp_path: Path) -> None:
    script = [sys.executable, str(ROOT / "scripts" / "learn_eval.py")]
    outs = []
    for k in range(2):
        data, fitted = tmp_path / f"positions-{k}.npz", tmp_path / f"weights-{k}.json"
        subprocess.run(script + ["generate", "--games", "2", "--seed", "3", "--jobs", "1", "--policies",
                                 "greedy:width=1", "--out", str(data)], check=True, capture_output=True)
        subprocess.run(script + ["fit", str(data), "--out", str(fitted)], check=True, capture_output=True)
        outs.append(json.loads(fitted.read_text()))
    assert outs[0]["phases"] == outs[1]["phases"]
    assert outs[0]["features"] == list(FEATURES)
    assert learned_evaluation(str(tmp_path / "weights-0.json")).phases[0] == tuple(outs[0]["phases"][0])
