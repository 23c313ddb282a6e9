"""The exhaustive yardstick (torres.ai.exhaustive, issue #34): its turn is the best of every legal sequence on tiny
positions, it is deterministic, its node limit holds, it plays whole legal games, and its spec is checked."""

from __future__ import annotations

import copy
import pickle
import random
from itertools import islice

import pytest

from torres.ai import make_bot, samples
from torres.ai.evaluate import DEFAULT_WEIGHTS, MASTER_WEIGHTS
from torres.ai.exhaustive import (ExhaustiveBot, score_evaluation, scored_now, search_turn, weights_evaluator)
from torres.ai.planner import Evaluator, keep_choice, plan_turn
from torres.engine import GameState, Rules
from torres.engine.actions import DECODE, Kind, format_action
from torres.engine.scoring import advance
from torres.engine.state import Stage


def turn_starts(rules: str, players: int, count: int, seed: int) -> list[GameState]:
    """States at the start of turns of games between cheap planners, spread over the games."""
    return list(islice(samples.turn_starts(rules, players, seed, "greedy:width=1", every=4, at=3), count))


def brute_force(state: GameState, evaluator: Evaluator) -> tuple[float, int]:
    """The best value after ``end`` over every legal sequence of the turn, each taken on its own (no merging, the
    track and ``end`` allowed at every step), a draw kept as the planner keeps it; and how many sequences."""
    seat = state.current
    best = float("-inf")
    count = 0

    def walk() -> None:
        nonlocal best, count
        if state.stage is Stage.KEEP:
            legal = [keep_choice(state.legal_action_ids())]
        else:
            legal = list(state.legal_action_ids())
        for a in legal:
            state.push(a)
            if DECODE[a][0] is Kind.END:
                count += 1
                best = max(best, evaluator(state, seat))
            else:
                walk()
            state.pop()

    walk()
    return best, count


def replay_value(state: GameState, actions: list[int], evaluator: Evaluator) -> float:
    seat = state.current
    for a in actions:
        assert a in state.legal_action_ids(), format_action(a)
        state.push(a)
    value = evaluator(state, seat)
    for _ in actions:
        state.pop()
    return value


# Tiny turns: one or two action points, so that every sequence can be taken on its own (a card play adds points:
# two action points and a card to buy and play already make hundreds of thousands of sequences).
TINY = [("riogrande:action_points=1", 2, 3), ("riogrande:action_points=2,max_buys=0", 2, 3),
        ("riogrande:action_points=1", 3, 2), ("riogrande:action_points=1,full_hand=1", 2, 2),
        ("idw:action_points=1", 2, 2)]


@pytest.mark.parametrize("rules,players,count", TINY, ids=[f"{r}-{p}" for r, p, _ in TINY])
@pytest.mark.parametrize("which", ["tuned", "score"])
def test_the_exhaustive_turn_is_the_best_of_every_legal_sequence(rules: str, players: int, count: int,
                                                                  which: str) -> None:
    evaluator = score_evaluation if which == "score" else weights_evaluator(DEFAULT_WEIGHTS)
    for state in turn_starts(rules, players, count, seed=len(rules) + players):
        before = state.position()
        found = search_turn(state, evaluator)
        assert state.position() == before  # restored
        assert found.complete and DECODE[found.actions[-1]][0] is Kind.END
        best, sequences = brute_force(state, evaluator)
        assert sequences > 1
        assert found.value >= best - 1e-9, (rules, before)
        # and it is a turn the engine plays, worth what the search says
        assert replay_value(state, found.actions, evaluator) == pytest.approx(found.value)
        if which == "tuned":  # the planner's turn, under the same evaluation, is never better than the full-width one
            assert plan_turn(state, 2)[0].value <= found.value + 1e-9


def test_the_tree_without_merging_is_counted_through_the_merged_one() -> None:
    state = turn_starts("riogrande:action_points=2,max_buys=0", 2, 1, seed=5)[0]
    found = search_turn(state, weights_evaluator(DEFAULT_WEIGHTS))
    # every sequence of steps (the track and ``end`` are not steps), counted one by one
    def count() -> int:
        total = 1
        for a in list(state.legal_action_ids()):
            if DECODE[a][0] in (Kind.END, Kind.SCORE):
                continue
            state.push(a)
            total += count()
            state.pop()
        return total

    assert found.sequences == count()
    assert found.nodes < found.sequences  # transpositions were merged


@pytest.mark.parametrize("rules", ["riogrande", "idw", "riogrande:master=1", "yucata"])
def test_the_score_now_is_the_engines_scoring(rules: str) -> None:
    for state in turn_starts(rules, 3, 6, seed=3):
        record = state.scoring_now()
        assert scored_now(state) == list(record.after)
        # ... which is the record's own points moved along the track in its order (the record and the fast track
        # are computed apart: this catches one drifting from the other)
        track = list(record.before)
        for points in ([record.castle_points(s) for s in range(3)], record.king_bonus, record.master_bonus):
            for seat in record.order:
                advance(track, seat, points[seat])
        assert track == list(record.after)
        points = record.after
        for seat in range(3):
            assert score_evaluation(state, seat) == points[seat] - max(p for s, p in enumerate(points) if s != seat)


def test_a_node_limit_bounds_the_search_and_still_plays_a_whole_turn() -> None:
    state = turn_starts("riogrande", 2, 2, seed=9)[1]
    evaluator = weights_evaluator(DEFAULT_WEIGHTS)
    for limit in (1, 50, 400):
        found = search_turn(state, evaluator, nodes=limit)
        assert found.nodes <= limit and not found.complete
        assert DECODE[found.actions[-1]][0] is Kind.END
        assert replay_value(state, found.actions, evaluator) == pytest.approx(found.value)
    # more nodes never find a worse turn (the search is the same, only longer)
    values = [search_turn(state, evaluator, nodes=n).value for n in (10, 100, 1000)]
    assert values == sorted(values)


def test_the_bot_shares_its_node_limit_over_a_turn() -> None:
    bot = make_bot("exhaustive:nodes=120", 4)
    assert isinstance(bot, ExhaustiveBot)
    state = GameState(2, 4, Rules.from_text("riogrande"))
    rival = random.Random(4)
    spent: dict[tuple[int, int, int], int] = {}
    while not state.is_over():
        seat = state.current
        if seat == 1:
            state.push(rival.choice(state.legal_action_ids()))
            continue
        last = bot.last
        turn = (state.phase, state.round, state.turn)
        state.push(bot.choose(state.view(0)))
        searched = bot.last
        if searched is not None and searched is not last:  # a search ran for this action
            spent[turn] = spent.get(turn, 0) + searched.nodes
    assert spent and max(spent.values()) <= 120 + 2  # (a re-plan after each of at most two draws expands its root)


def play(rules: str, players: int, specs: list[str], seed: int) -> list[int]:
    state = GameState(players, seed, Rules.from_text(rules))
    bots = [make_bot(spec, seed + s) for s, spec in enumerate(specs)]
    while not state.is_over():
        seat = state.current
        action = bots[seat].choose(state.view(seat))
        assert action in state.legal_action_ids(), (format_action(action), state.position())
        state.push(action)
    return state.history


@pytest.mark.parametrize("rules,spec", [("riogrande", "exhaustive:nodes=150"),
                                        ("riogrande:max_buys=0", "exhaustive:nodes=150:eval=score"),
                                        ("yucata:full_hand=1", "exhaustive:nodes=100:eval=master")])
def test_whole_games_against_random_with_legal_actions_only(rules: str, spec: str) -> None:
    play(rules, 2, [spec, "random"], seed=21)


def test_same_seed_same_game() -> None:
    specs = ["exhaustive:nodes=100", "exhaustive:nodes=100:eval=score"]
    assert play("riogrande", 2, specs, seed=8) == play("riogrande", 2, specs, seed=8)


@pytest.mark.parametrize("spec", ["exhaustive:nodes=300", "exhaustive:nodes=300:eval=score"])
def test_a_copied_or_pickled_yardstick_plays_on_as_the_original(spec: str) -> None:
    # (its evaluator is an object, no longer a lambda: bench/decisive_turns.py copies both bots at every turn)
    state = GameState(2, 5, Rules.from_text("riogrande"))
    bots = [make_bot(spec, 3 + seat) for seat in range(2)]
    while state.stage is not Stage.TURN or state.round < 2:
        state.push(bots[state.current].choose(state.view(state.current)))
    original = bots[state.current]
    copies = [copy.deepcopy(original), pickle.loads(pickle.dumps(original))]
    view = state.view(state.current)
    action = original.choose(view)
    assert isinstance(original, ExhaustiveBot) and original.last is not None
    for twin in copies:
        assert isinstance(twin, ExhaustiveBot) and twin.choose(view) == action and twin.last == original.last


def test_the_spec_is_parsed_and_bad_settings_are_refused() -> None:
    bot = make_bot("exhaustive:nodes=500:seconds=0.5:eval=score")
    assert isinstance(bot, ExhaustiveBot) and bot.nodes == 500 and bot.seconds == 0.5
    assert bot.evaluator is score_evaluation
    master = make_bot("exhaustive:eval=master")
    assert isinstance(master, ExhaustiveBot) and master.weights is MASTER_WEIGHTS and master.nodes == 0
    tweaked = make_bot("exhaustive:reach=0.5")
    assert isinstance(tweaked, ExhaustiveBot) and tweaked.weights.reach == 0.5
    for spec, words in [("exhaustive:nodes=many", "nodes must be a whole number"),
                        ("exhaustive:nodes=-3", "nodes must be ≥ 0"),
                        ("exhaustive:seconds=-1", "seconds must be ≥ 0"),
                        ("exhaustive:seconds=nan", "seconds must be ≥ 0"),
                        ("exhaustive:eval=nope", "unknown evaluation 'nope'"),
                        ("exhaustive:depth=3", "unknown setting(s) depth"),
                        ("exhaustive:nodes", "expected key=value")]:
        with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
            make_bot(spec)
