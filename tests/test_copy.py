"""Copies of a game state behave exactly like the original (issue #31): ``copy.deepcopy``, ``copy.copy``, a pickle
round trip (the default protocol and protocol 0) and ``GameState.clone``, then the same random continuation on the
original and on every copy (pushes; pops reaching back before the copy; now and then an undo-free ``apply``),
compared after every step.

Seeded loops over every edition × variant (plain, master version, the other deck, full hand) × 2/3/4 players, so a
failure names its configuration, seed and the way of copying. Also OpenSpiel's python ISMCTS, which clones states
with ``copy.deepcopy``, against a random player.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any, Callable

import numpy as np
import pytest

from torres import GameState
from torres.ai.evaluate import MASTER_WEIGHTS, seat_values
from torres.engine.actions import DECODE, Kind
from torres.engine.board import BoardInfo, board_info, clear_board_cache
from torres.engine.rules import EDITIONS

from playouts import choose, new_game, rule_configs

CONFIGS = rule_configs()
#: Actions after which the state stands on a board analysis that nothing has asked anything yet.
BOARD_KINDS = {Kind.BLOCK, Kind.CASTLE, Kind.BUILD, Kind.LIFT, Kind.SHIFT}
COPIES: dict[str, Callable[[GameState], GameState]] = {
    "deepcopy": copy.deepcopy,
    "copy.copy": copy.copy,
    "pickle": lambda state: pickle.loads(pickle.dumps(state)),
    "pickle protocol 0": lambda state: pickle.loads(pickle.dumps(state, protocol=0)),
    "clone": GameState.clone,
}


class Line:
    """A state and how each action of its history was made (``True``: ``push``, ``False``: ``apply``), so that a
    continuation pops only what was pushed (never past an ``apply``)."""

    def __init__(self, state: GameState, pushed: list[bool]) -> None:
        self.state = state
        self.pushed = pushed

    def step(self, op: str, action: int = -1) -> None:
        if op == "pop":
            self.state.pop()
            self.pushed.pop()
        elif op == "apply":
            self.state.apply(action)
            self.pushed.append(False)
        else:
            self.state.push(action)
            self.pushed.append(True)


def fields(state: GameState) -> tuple[object, ...]:
    """Every field that the position string writes (hidden ones too), and the board analysis, read directly:
    cheaper than the string (and its views), so it is compared after every step, the string now and then."""
    info = state.info
    return (state.rules, state.n, state.seed, bytes(state.heights), bytes(state.occ), state.occupied,
            state.knights, state.king, state.scores, state.supply, state.stacks, state.carry, state.turn_stack,
            state.stack_taken, state.ap, state.buys, state.played, state.fresh, state.drawn, state.hands,
            state.decks, state.known, state.common, state.discards, state.phase, state.round, state.turn,
            state.stage, state.start, state.scorings, state.master_card, state.current,
            info.heights, info.blocks, info.cid, info.area, info.top, info.squares)


def same(original: GameState, other: GameState, rng: random.Random, full: str = "") -> None:
    """What ``other`` shows equals what ``original`` shows: every field, the legal actions, the history. With
    ``full`` also the position string, the views of the seat to act and of a random seat (of every seat with
    ``"all views"``), the scoring if the phase ended now, the placeable squares, and the evaluation (or the
    returns, at the end)."""
    assert fields(other) == fields(original)
    assert other.legal_action_ids() == original.legal_action_ids()
    assert other.history == original.history and other.actors == original.actors
    assert other.is_over() == original.is_over()
    if not full:
        return
    assert other.position() == original.position()
    seats = range(original.n) if full == "all views" else {original.current, rng.randrange(original.n)}
    for seat in seats:
        view = other.view(seat)
        assert view == original.view(seat) and view.position == original.view(seat).position
    assert other.scoring_now() == original.scoring_now()
    assert other.info.placeable() == original.info.placeable()
    if original.is_over():
        assert other.returns() == original.returns() and other.ranking() == original.ranking()
    else:
        seat = original.current
        assert seat_values(other, MASTER_WEIGHTS, seat) == seat_values(original, MASTER_WEIGHTS, seat)


def continuation(original: Line, copies: dict[str, Line], rng: random.Random, steps: int,
                 failures: dict[str, str], where: str, full: bool = True) -> None:
    """The same random steps on the original and on each copy, compared after each step (fully at the end if
    ``full``). A copy that fails is recorded in ``failures`` (its first failure) and dropped."""
    for step in range(steps):
        state = original.state
        can_pop = bool(original.pushed) and original.pushed[-1]
        if state.is_over() and not can_pop:
            break
        r = rng.random()
        if can_pop and (state.is_over() or r < 0.25):
            op, action = "pop", -1
        else:
            op, action = ("apply" if r > 0.95 else "push"), choose(state, rng)
        original.step(op, action)
        check = "views" if full and step == steps - 1 else ""
        for how, line in list(copies.items()):
            try:
                line.step(op, action)
                same(state, line.state, rng, check)
            except Exception as exc:
                failures.setdefault(how, f"{where}, step {step + 1} after the copy ({op} {action}): "
                                         f"{type(exc).__name__}: {exc}")
                del copies[how]


def copy_every_way(original: Line, rng: random.Random, failures: dict[str, str], where: str, steps: int,
                   full: bool) -> int:
    """Copy the state every way (but pickle protocol 0, slow, unless ``full``) and check a continuation (fully at
    both ends if ``full``); returns the number of copies made."""
    state = original.state
    copies = {}
    for how, make in COPIES.items():
        if how == "pickle protocol 0" and not full:
            continue
        try:
            copies[how] = Line(make(state), original.pushed[:])
            same(state, copies[how].state, rng, "all views" if full else "")
        except Exception as exc:
            failures.setdefault(how, f"{where}, the copy itself: {type(exc).__name__}: {exc}")
            copies.pop(how, None)
    made = len(copies)
    continuation(original, copies, rng, steps, failures, where, full)
    return made


def play_with_copies(players: int, edition: str, overrides: dict[str, Any], seed: int, failures: dict[str, str],
                     where: str) -> int:
    """A random game, copied every way once early on and at random moments (a continuation of 14 steps, checked
    fully at both ends), and often just after a block was placed: on a board analysis that nothing has asked
    anything yet (a continuation of 3 steps). The game goes on from the continuation. Returns the number of
    copies made."""
    clear_board_cache()  # (a board analysed before, in another test, would have its caches filled already)
    rng = random.Random(seed)
    state = new_game(players, edition, overrides, seed)
    original = Line(state, [])
    made = 0
    first = rng.randrange(4, 30)
    while not state.is_over():
        at = f"{where} at action {len(state.history)}"
        if len(state.history) == first or rng.random() < 0.006:
            made += copy_every_way(original, rng, failures, at, 14, True)
        elif state.history and DECODE[state.history[-1]][0] in BOARD_KINDS and rng.random() < 0.5:
            made += copy_every_way(original, rng, failures, at, 3, False)
        if not state.is_over():
            original.step("push", choose(state, rng))
    return made


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_a_copy_plays_on_like_the_original(edition: str) -> None:
    """Every variant of the edition (plain, master version, the other deck, full hand) for 2, 3 and 4 players: one
    seeded game each, copied every way at random moments."""
    made = 0
    failures: dict[str, str] = {}
    for i, param in enumerate(CONFIGS):
        players, name, overrides = param.values
        if name == edition:
            made += play_with_copies(players, name, overrides, 1000 + i, failures, f"{param.id} seed {1000 + i}")
    assert not failures, "copies that did not behave like the original:\n" + "\n".join(
        f"{how}: {text}" for how, text in failures.items())
    assert made > 12 * 4 * len(COPIES)


def test_copies_of_copies_side_by_side() -> None:
    """Copies of copies (of copies), made different ways, and several at once, stay in step with the original
    over a long continuation."""
    failures: dict[str, str] = {}
    for seed in range(6):
        rng = random.Random(seed)
        state = GameState(2 + seed % 3, seed)
        for _ in range(rng.randrange(20, 120)):
            state.push(choose(state, rng))
        first = pickle.loads(pickle.dumps(copy.deepcopy(state)))
        second = copy.deepcopy(pickle.loads(pickle.dumps(first.clone())))
        original = Line(state, [True] * len(state.history))
        copies = {how: Line(s, [True] * len(s.history)) for how, s in (
            ("pickled deepcopy", first), ("deepcopy of a pickled clone of that", second),
            ("copy.copy of that", copy.copy(second)), ("deepcopy", copy.deepcopy(state)))}
        continuation(original, copies, rng, 150, failures, f"seed {seed}")
    assert not failures, failures


def test_board_analysis_copies() -> None:
    """A board analysis is immutable: a copy of it is itself, and a pickled one answers alike (caches rebuilt)."""
    # Two analyses never asked anything, copied together, keep caches of their own (before issue #31 was fixed,
    # a copy's caches were all one table: a door mask read another castle's exits, or the other way round).
    a = BoardInfo(bytes([1] + [0] * 63), [0] + [-1] * 63, [1], [1], [(0,)], 1)
    b = BoardInfo(bytes([0] * 63 + [1]), [-1] * 63 + [0], [1], [1], [(63,)], 1 << 63)
    b.derived_from = (a, 1 | 1 << 63)
    loaded_b = pickle.loads(pickle.dumps(b))
    assert loaded_b.derived_from is not None and loaded_b.derived_from[1] == 1 | 1 << 63
    for twin_a, twin_b in (copy.deepcopy((a, b)), pickle.loads(pickle.dumps((a, b))),
                           (loaded_b.derived_from[0], loaded_b)):
        assert twin_a.exits(0) == (1, 8)
        assert twin_b.door_mask(0, 0) == 1 << 55 | 1 << 62
        assert twin_b.exits(0) == (55, 62)
        assert twin_a.door_mask(0, 0) == 1 << 1 | 1 << 8
        assert twin_a.move_mask(9) == 1 << 1 | 1 << 8 | 1 << 10 | 1 << 17
        assert twin_b.move_mask(0) == 1 << 1 | 1 << 8
    assert a.exits(0) == (1, 8) and b.exits(0) == (55, 62)

    state = GameState(3, 5)
    rng = random.Random(5)
    for _ in range(80):
        state.push(choose(state, rng))
    info = state.info
    assert copy.copy(info) is info and copy.deepcopy(info) is info
    for sq in range(64):
        info.move_mask(sq)
    for other in (pickle.loads(pickle.dumps(info)), pickle.loads(pickle.dumps(board_info(bytes(state.heights))))):
        assert isinstance(other, BoardInfo) and other is not info and other.heights == info.heights
        assert other.placeable() == info.placeable() and other.near_counts() == info.near_counts()
        for sq in range(64):
            assert other.move_mask(sq) == info.move_mask(sq) and other.site_mask(sq) == info.site_mask(sq)
        for c in range(info.castle_count):
            assert other.exits(c) == info.exits(c)
            for level in range(8):
                assert other.door_mask(c, level) == info.door_mask(c, level)


def test_openspiel_ismcts_plays_against_random() -> None:
    """OpenSpiel's python ISMCTS (its evaluator's rollouts play on ``state.clone()``, which deep-copies the
    engine's state) as seat 0 against a random player, everything seeded: a whole 2-player game (before issue #31
    was fixed, the search crashed at the game's 8th action) and the start of a 3-player game in the master version."""
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install torres[openspiel])")
    import torres.env.openspiel  # noqa: F401  (registers python_torres)
    from open_spiel.python.algorithms import ismcts, mcts

    for params, seed, moves in (({"players": 2}, 0, 10_000), ({"players": 3, "rules": "idw:master=1"}, 1, 20)):
        clear_board_cache()  # (boards analysed by other tests would hide a fresh board's copy)
        game = pyspiel.load_game("python_torres", params)
        rng = np.random.RandomState(seed)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + 1)), uct_c=2.0,
                               max_simulations=3, random_state=np.random.RandomState(seed + 2))
        sampler = pyspiel.UniformProbabilitySampler(seed + 3, 0.0, 1.0)  # (the bot's own is seeded at random)
        bot.set_resampler(lambda sampled, player: sampled.resample_from_infostate(player, sampler))
        state = game.new_initial_state()
        played = 0
        while not state.is_terminal() and played < moves:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
                continue
            legal = state.legal_actions()
            if state.current_player() == 0:
                before = str(state)
                action = bot.step(state)
                assert str(state) == before  # the search played on copies
            else:
                action = int(rng.choice(legal))
            assert action in legal
            if played % 10 == 0:
                twin = state.clone()
                twin.apply_action(action)
                state.apply_action(action)
                assert str(twin) == str(state) and twin.legal_actions() == state.legal_actions()
            else:
                state.apply_action(action)
            played += 1
        if moves > 1000:
            assert state.is_terminal() and sum(state.returns()) == pytest.approx(0.0)
        else:
            assert played == moves


@pytest.mark.parametrize("asked", [False, True], ids=["position not asked yet", "position asked"])
def test_a_views_copies_are_the_view_whether_or_not_its_position_was_written(asked: bool) -> None:
    # a view writes its position string when first asked (SeatView.position): a copy made before must write the
    # same one, and one made after must keep it
    state = new_game(2, "riogrande", {}, 11)
    rng = random.Random(11)
    for _ in range(60):
        state.push(choose(state, rng))
    for seat in (0, 1, -1):
        view = state.view(seat)
        expected = state.position(seat)
        if asked:
            assert view.position == expected
        copies = {**{f"pickle protocol {p}": pickle.loads(pickle.dumps(view, p))
                     for p in range(pickle.HIGHEST_PROTOCOL + 1)},
                  "deepcopy": copy.deepcopy(view), "copy.copy": copy.copy(view)}
        for how, other in copies.items():
            assert other == view and other.position == expected and other.to_json() == view.to_json(), how
