"""The engine's shortcuts for speed change no result.

``push`` keeps a small record for the frequent actions (``pop`` reverses move, block, knight and score in place,
and puts back the few fields a ``stack`` or an ``end`` within a round changes); other actions copy only the lists
they change; the board analysis after a block is carried over from the board before it; the move
generator reads masks cached per board. Each test here checks one of those against the slow, obvious way:

* after any ``pop`` every field of the state, the legal actions (same ids, same order) and the position string
  are what they were before the ``push`` — also after several pushes, and on a clone that shares the undo stack;
* ``can_take_back`` answers what the full snapshot of the state before the action says;
* a game played with ``apply`` (no undo information) and one played with ``push`` see the same legal actions;
* the carried-over board analysis equals a fresh analysis of the same heights, after a block and after a shift
  of any block to any square, and differs from the analysis it came from only where it says it does.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from torres import GameState, Rules
from torres.engine import movegen
from torres.engine.actions import DECODE, Kind
from torres.engine.board import (BoardInfo, _analyse, board_info_after_removal, board_info_after_shift,
                                 clear_board_cache)
from torres.engine.stage import Stage

from playouts import choose, new_game, rule_configs

NESTED = ("knights", "stacks", "hands", "decks", "known", "discards")  # lists of lists
FLAT = ("heights", "occ", "scores", "carry", "fresh", "drawn", "common", "scorings", "history", "actors")
SCALARS = ("occupied", "king", "supply", "turn_stack", "stack_taken", "ap", "buys", "played", "phase", "round",
           "turn", "stage", "start", "master_card")

CONFIGS = rule_configs()
# 60 configurations: 240 games for the cheap test, 120 for each of the others
MANY_SEEDS = range(4)
SEEDS = range(2)


def fields(state: GameState) -> tuple[Any, ...]:
    """A copy of every field (lists as tuples) and the legal actions."""
    return (tuple(tuple(tuple(v) for v in getattr(state, name)) for name in NESTED),
            tuple(tuple(getattr(state, name)) for name in FLAT),
            tuple(getattr(state, name) for name in SCALARS),
            tuple(state.legal_action_ids()), state.info.heights)


def old_can_take_back(before: GameState, state: GameState) -> bool:
    """``can_take_back`` as a full snapshot of the state before the last action answers it."""
    if not state.history or state.stage not in (Stage.TURN, Stage.KEEP) or state.actors[-1] != state.current:
        return False
    if DECODE[state.history[-1]][0] in (Kind.BUY, Kind.KEEP, Kind.END):
        return False
    return before.stage in (Stage.TURN, Stage.KEEP) and before.turn == state.turn \
        and before.round == state.round and before.phase == state.phase


@pytest.mark.parametrize("players,edition,overrides", CONFIGS)
def test_pop_restores_everything(players: int, edition: str, overrides: dict[str, Any]) -> None:
    for seed in SEEDS:
        rng = random.Random(seed * 1009 + players)
        state = new_game(players, edition, overrides, seed)
        while not state.is_over():
            before = fields(state)
            position = state.position()
            # one action and back
            copy = state.clone()
            action = choose(state, rng)
            state.push(action)
            assert state.can_take_back() == old_can_take_back(copy, state), state.actions_text()[-1]
            assert state.pop().id == action
            assert fields(state) == before, state.actions_text()
            assert state.position() == position
            # several actions and back, on the state and on a clone sharing its undo stack
            depth = rng.randint(1, 6)
            pushed = 0
            for _ in range(depth):
                if state.is_over():
                    break
                state.push(choose(state, rng), check=False)
                pushed += 1
            twin = state.clone()
            for _ in range(pushed):
                twin.pop()
            assert fields(twin) == before, twin.actions_text()
            for _ in range(pushed):
                state.pop()
            assert fields(state) == before, state.actions_text()
            state.push(choose(state, rng))


@pytest.mark.parametrize("players,edition,overrides", CONFIGS)
def test_apply_and_push_agree(players: int, edition: str, overrides: dict[str, Any]) -> None:
    """The fast path without undo information reaches the same states as ``push``."""
    for seed in MANY_SEEDS:
        rng = random.Random(seed * 7 + players)
        pushed = new_game(players, edition, overrides, seed)
        applied = new_game(players, edition, overrides, seed)
        while not pushed.is_over():
            ids = pushed.legal_action_ids()
            assert applied.legal_action_ids() == ids
            action = choose(pushed, rng)
            pushed.push(action, check=False)
            applied.apply(action)
        assert applied.is_over() and applied.position() == pushed.position() and applied.scores == pushed.scores


@pytest.mark.parametrize("players,edition,overrides", CONFIGS)
def test_carried_board_analysis_is_fresh(players: int, edition: str, overrides: dict[str, Any]) -> None:
    """What ``board_info_after_block`` carries over and the masks the move generator caches equal a fresh
    analysis (castle numbers may differ; nothing here depends on them)."""
    for seed in SEEDS:
        rng = random.Random(seed * 13 + players)
        state = new_game(players, edition, overrides, seed)
        while not state.is_over():
            info = state.info
            fresh = _analyse(bytes(state.heights))
            assert info.heights == fresh.heights
            assert info.placeable_mask() == fresh.placeable_mask()
            assert info.placeable() == fresh.placeable()
            assert info.near_counts() == fresh.near_counts()
            assert sorted(map(sorted, info.squares)) == sorted(map(sorted, fresh.squares))
            for sq in range(64):
                assert info.move_mask(sq) == fresh.move_mask(sq), sq
                assert info.site_mask(sq) == fresh.site_mask(sq), sq
                c, f = info.cid[sq], fresh.cid[sq]
                assert (c >= 0) == (f >= 0)
                if c >= 0:
                    assert (info.area[c], info.top[c]) == (fresh.area[f], fresh.top[f])
            state.push(choose(state, rng))


def assert_same_castles(info: BoardInfo, fresh: BoardInfo) -> None:
    assert sorted(map(sorted, info.squares)) == sorted(map(sorted, fresh.squares))
    assert len(info.area) == len(info.top) == len(info.squares) == info.castle_count
    for c, members in enumerate(info.squares):
        assert all(info.cid[s] == c for s in members)
        assert info.area[c] == len(members) and info.top[c] == max(info.heights[s] for s in members)
    assert [c >= 0 for c in info.cid] == [c >= 0 for c in fresh.cid]
    assert info.placeable_mask() == fresh.placeable_mask() and info.near_counts() == fresh.near_counts()


def assert_derived_faithfully(info: BoardInfo) -> None:
    """Outside the squares ``info`` names as changed, heights, castle numbers and castle areas are those of the
    analysis it was derived from (what the evaluation's cache relies on)."""
    assert info.derived_from is not None
    base, touched = info.derived_from
    for sq in range(64):
        if not touched >> sq & 1:
            c = info.cid[sq]
            assert (info.heights[sq], c) == (base.heights[sq], base.cid[sq]), sq
            assert c < 0 or info.area[c] == base.area[c], sq


def test_board_after_a_shift_is_fresh() -> None:
    """Any block shifted to any other square, on boards of seeded games: the analysis carried over equals a fresh
    one, and so does the analysis of the board without the block it is derived from; each is faithful to the one
    it is derived from, and the one without the block to the board before."""
    rng = random.Random(3)
    carried = full = 0
    for seed in range(4):
        state = GameState(2 + seed % 3, seed, Rules())
        while not state.is_over():
            if state.stage is Stage.TURN and rng.random() < 0.08:
                old = state.info
                for src in (sq for sq in range(64) if old.heights[sq]):
                    removed = board_info_after_removal(old, src)
                    assert removed.heights[src] == old.heights[src] - 1
                    assert_same_castles(removed, _analyse(removed.heights))
                    if removed.derived_from is not None:
                        assert removed.derived_from[0] is old and removed.derived_from[1] >> src & 1
                        assert_derived_faithfully(removed)
                    for dst in range(64):
                        if dst == src:
                            continue
                        heights = bytearray(removed.heights)
                        heights[dst] += 1
                        clear_board_cache()
                        info = board_info_after_shift(old, bytes(heights), src, dst)
                        assert info.heights == bytes(heights)
                        assert_same_castles(info, _analyse(bytes(heights)))
                        if info.derived_from is None:
                            full += 1
                            continue
                        carried += 1
                        assert info.derived_from[1] >> dst & 1
                        assert_derived_faithfully(info)
            state.push(choose(state, rng))
    assert carried > full > 0  # (most full analyses: a block joining two castles, which no rule allows)


def test_legal_ids_are_sorted_and_unique() -> None:
    """The order bots break ties by: ascending ids, whatever order the generator found them in."""
    for players in (2, 3, 4):
        for seed in range(10):
            rng = random.Random(seed)
            state = GameState(players, seed, Rules())
            while not state.is_over():
                ids = movegen.legal_ids(state)
                assert ids == sorted(set(ids))
                state.push(choose(state, rng))
