"""The analysis of a finished game (torres/ai/analysis.py, ``torres analyse``): turns judged on hand-built positions
where the better turn is known, refusal of unfinished games, determinism, the JSON's shape, the win chance."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from torres.ai.analysis import (Turn, analyse_record, bot_turn, game_turns, judge_turn, turn_seed, turn_value,
                                weights_of)
from torres.ai.base import make_bot
from torres.ai.evaluate import EVALUATIONS
from torres.ai.winchance import load_win_chance, progress
from torres.engine.builder import build
from torres.engine.state import GameState, Stage
from torres.records import record_of, write_record

ROOT = Path(__file__).resolve().parent.parent


def climb_before_scoring() -> GameState:
    """Seat 0's last turn of the first phase: its knight stands on level 1 of a castle of 5 squares (b3) and can
    step up to level 2 (c3) before the phase is scored, which doubles what the castle pays it (the king stands on a
    castle of its own, h1)."""
    return build(2, heights={"b3": 1, "c3": 2, "c4": 2, "d3": 2, "d4": 2, "g7": 1, "h1": 1},
                 knights={0: ["b3"], 1: ["g7"]}, king="h1", phase=0, round=3, current=0, start=1, stacks={0: [3], 1: []})


def turn_of(state: GameState, actions: list[str], index: int = 0) -> Turn:
    after = state.clone()
    ids = []
    for text in actions:
        after.push(text)
        ids.append(after.history[-1])
    return Turn(index, state.current, state.phase, state.round, 0, len(ids), tuple(ids))


def finished_record(players: int = 2, seed: int = 3, bots: str = "beginner") -> dict[str, Any]:
    state = GameState(players, seed)
    seats = [make_bot(bots, seed * 10 + s) for s in range(players)]
    while not state.is_over():
        state.push(seats[state.current].choose(state.view(state.current)))
    return record_of(state, meta={"bots": [bots] * players})


def test_a_turn_that_skips_the_climb_before_the_scoring_loses_points() -> None:
    state = climb_before_scoring()
    scoring_only = turn_of(state, ["score"] * 5 + ["end"])
    climb = turn_of(state, ["b3-c3"] + ["score"] * 4 + ["end"])
    lazy, good = judge_turn(state, scoring_only, "expert"), judge_turn(state, climb, "expert")
    # the climb doubles the castle's pay at this scoring (area 5 × level 2, not × 1) for one action point
    after_lazy, after_good = state.clone(), state.clone()
    for a in scoring_only.played:
        after_lazy.push(a)
    for a in climb.played:
        after_good.push(a)
    assert after_lazy.phase == after_good.phase == 1  # both ended the phase and it was scored
    assert after_good.scores[0] - after_lazy.scores[0] == 5 - 1
    assert good.value_after - lazy.value_after >= 4
    assert lazy.loss > 4 and "b3-c3" in lazy.best and lazy.best != lazy.played
    assert lazy.loss == pytest.approx(lazy.value_before - lazy.value_after)
    assert good.loss < lazy.loss
    weights = EVALUATIONS["tuned"]
    assert lazy.value_after == pytest.approx(turn_value(after_lazy, 0, weights))


def test_the_bots_own_turn_loses_nothing_and_is_the_best() -> None:
    state = climb_before_scoring()
    bot = make_bot("expert", turn_seed(7, 0))
    after = bot_turn(state, bot)
    own = Turn(0, 0, 0, 3, 0, len(after.history), tuple(after.history))
    judged = judge_turn(state, own, "expert", seed=7)
    assert judged.loss == 0 and judged.best == judged.played
    assert judged.value_before == judged.value_after


def test_the_bot_sees_only_the_seats_view() -> None:
    """Two games that differ only in the cards seat 0 cannot see (the rival's hand, the decks) give seat 0 the same
    better turn and the same values."""
    from torres.records import new_game, replay

    record = finished_record(seed=5)
    final = replay(record)
    turns = game_turns(new_game(record), final.history)
    turn = next(t for t in turns if t.seat == 0 and t.phase == 1)
    position = new_game(record)
    for a in final.history[:turn.start]:
        position.apply(a)
    assert sum(position.hands[1]) > 0
    other = next(o for o in (position.view(0).determinize(random.Random(k)) for k in range(50))
                 if o.hands[1] != position.hands[1] or o.decks != position.decks)
    a, b = judge_turn(position, turn, "expert", 1), judge_turn(other, turn, "expert", 1)
    assert a.best == b.best and a.value_before == pytest.approx(b.value_before)
    assert a.value_after == pytest.approx(b.value_after)


def test_a_draw_never_changes_a_turns_value() -> None:
    """The evaluation counts hands by size: a bought card is worth the same whichever card came."""
    state = climb_before_scoring()
    state.push("buy")
    assert state.stage is Stage.KEEP
    values = set()
    for keep in state.legal_action_ids():
        after = state.clone()
        after.push(keep)
        after.push("end")
        values.add(round(turn_value(after, 0, EVALUATIONS["master"]), 9))
    assert len(values) == 1


def test_turns_cover_every_turn_of_the_game_once() -> None:
    record = finished_record(players=3, seed=4)
    from torres.records import new_game, replay

    final = replay(record)
    turns = game_turns(new_game(record), final.history)
    rounds = sum(len(s) for s in final.phase_stacks)
    assert len(turns) == rounds * 3
    assert [t.index for t in turns] == list(range(len(turns)))
    assert all(a.end <= b.start for a, b in zip(turns, turns[1:]))
    state = new_game(record)
    for i, a in enumerate(final.history):
        inside = [t for t in turns if t.start <= i < t.end]
        if state.stage in (Stage.TURN, Stage.KEEP):
            assert len(inside) == 1 and inside[0].seat == state.current
        else:
            assert not inside
        state.apply(a)


def test_the_analysis_json_has_the_documented_shape() -> None:
    record = finished_record(seed=6)
    data = analyse_record(record, "expert", seed=2).to_json()
    assert set(data) == {"level", "seed", "evaluation", "scores", "turns", "players"}
    assert data["level"] == "expert" and data["seed"] == 2 and data["evaluation"] == "tuned"
    assert data["scores"] == record["result"]["scores"]
    for turn in data["turns"]:
        assert set(turn) == {"turn", "seat", "phase", "round", "start", "end", "played", "best", "loss",
                             "value_before", "value_after", "win_chance"}
        assert turn["loss"] >= 0
        assert turn["loss"] == pytest.approx(turn["value_before"] - turn["value_after"], abs=0.011)
        assert all(isinstance(a, str) for a in turn["played"] + turn["best"])
        assert turn["played"][-1] == "end" and turn["best"][-1] == "end"
        assert record["actions"][turn["start"]:turn["end"]] == turn["played"]
        assert math.isclose(sum(turn["win_chance"]), 1.0, abs_tol=0.001)
        assert (turn["loss"] == 0) == (turn["best"] == turn["played"])
    assert [p["seat"] for p in data["players"]] == [0, 1]
    for p in data["players"]:
        own = [t for t in data["turns"] if t["seat"] == p["seat"]]
        assert p["turns"] == len(own)
        assert p["mean_loss"] == pytest.approx(sum(t["loss"] for t in own) / len(own), abs=0.011)
        losses = [data["turns"][i]["loss"] for i in p["worst"]]
        assert losses == sorted(losses, reverse=True) and all(x > 0 for x in losses)
        assert all(data["turns"][i]["seat"] == p["seat"] for i in p["worst"])
    # beginners against each other: the expert finds better turns than some of theirs
    assert any(t["loss"] > 0 for t in data["turns"])


def test_the_same_seed_gives_the_same_analysis() -> None:
    record = finished_record(seed=8)
    first = analyse_record(record, "greedy:width=2", seed=5).to_json()
    second = analyse_record(record, "greedy:width=2", seed=5).to_json()
    assert first == second


def test_any_bot_can_judge() -> None:
    record = finished_record(seed=9)
    data = analyse_record(record, "random", seed=1).to_json()
    assert data["evaluation"] == "tuned" and len(data["turns"]) == 24
    assert weights_of(make_bot("master")) == EVALUATIONS["master"]


def test_an_unfinished_game_is_refused() -> None:
    state = GameState(2, 3)
    bots = [make_bot("beginner", s) for s in range(2)]
    while len(state.history) < 40:
        state.push(bots[state.current].choose(state.view(state.current)))
    from torres.ai.analysis import AnalysisError

    with pytest.raises(AnalysisError, match="only a finished game"):
        analyse_record(record_of(state), "expert")


def test_win_chances_add_up_and_follow_the_result() -> None:
    model = load_win_chance()
    record = finished_record(players=4, seed=2)
    from torres.records import replay

    final = replay(record)
    assert model.chances(final) == [1.0 / len(final.winners()) if s in final.winners() else 0.0 for s in range(4)]
    start = GameState(4, 2)
    assert progress(start) == 0.0 and progress(final) == 1.0
    even = model.of_values([10.0, 10.0, 10.0], 0.5)
    assert even == pytest.approx([1 / 3] * 3)
    ahead = model.of_values([30.0, 10.0], 0.5)
    assert ahead[0] > 0.5 and sum(ahead) == pytest.approx(1.0)
    assert ahead[0] == pytest.approx(1 / (1 + math.exp(-model.sharpness(2, 0.5) * 20)))  # a logistic of the margin
    a, b, tempo = model.params[2]
    assert tempo > 0  # the seat still to move in a round has a turn in hand
    assert model.of_values([10.0, 10.0], 0.5, [3, 4])[1] > 0.5


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "torres.cli.main", "analyse", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


def test_the_command_line_gives_the_same_judgement(tmp_path: Path) -> None:
    record = finished_record(seed=11)
    path = tmp_path / "game.json"
    write_record(path, record)
    answer = cli(str(path), "--json", "--level", "expert", "--seed", "4")
    assert answer.returncode == 0, answer.stderr
    assert json.loads(answer.stdout) == analyse_record(record, "expert", seed=4).to_json()
    table = cli(str(path), "--level", "expert", "--seed", "4")
    assert table.returncode == 0 and "per player" in table.stdout and "loss" in table.stdout


def test_the_command_line_refuses_an_unfinished_game(tmp_path: Path) -> None:
    state = GameState(2, 3)
    state.play(["start d8", "start c6", "king f6"])
    path = tmp_path / "unfinished.json"
    write_record(path, record_of(state))
    answer = cli(str(path), "--level", "expert")
    assert answer.returncode == 2
    assert "only a finished game can be analysed" in answer.stderr and "hidden" in answer.stderr
    assert answer.stdout == ""
