"""Property tests over random legal play: invariants of the rules, undo, clones, position strings, notation and
the per-seat views, for 2/3/4 players, every edition, with and without the master version, and the other deck
variants (common deck ↔ own decks, full hand).

Hypothesis draws the game seed and every choice of the playout (``st.randoms`` with ``use_true_random=False``),
so a failure shrinks to a short game and prints the action list that reproduces it.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

import torres
from torres import GameState
from torres.engine.actions import DECODE, NUM_ACTIONS, O_END, Action, Kind, is_valid_id, parse_action_id
from torres.engine.cards import N_CARD_TYPES
from torres.engine.rules import CardMode
from torres.engine.state import KING, Stage

from playouts import choose, new_game, rule_configs

# --- configurations -----------------------------------------------------------------------------------------

CONFIGS = rule_configs()
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
CHOICES = st.randoms(use_true_random=False)
# Shrinking a whole game takes minutes, so it is off unless TORRES_SHRINK=1; a failure still prints its game.
SETTINGS = settings(max_examples=int(os.environ.get("TORRES_EXAMPLES", "2")), deadline=None,
                    phases=[Phase.explicit, Phase.reuse, Phase.generate]
                    + ([Phase.shrink] if os.environ.get("TORRES_SHRINK") else []),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])


def note_game(state: GameState) -> None:
    note(f"players={state.n} seed={state.seed} rules={state.rules.to_text()!r}")
    note(f"actions={state.actions_text()!r}")


# --- independent checks of the board ------------------------------------------------------------------------

ORTHO = [[(f + df) + (r + dr) * 8 for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
          if 0 <= f + df < 8 and 0 <= r + dr < 8] for r in range(8) for f in range(8)]
assert all(len(ORTHO[sq]) in (2, 3, 4) for sq in range(64))


def castles_of(heights: bytes | bytearray) -> list[list[int]]:
    """Castles by our own flood fill: orthogonally connected squares with at least one block."""
    seen = [False] * 64
    out = []
    for start in range(64):
        if not heights[start] or seen[start]:
            continue
        seen[start] = True
        todo, members = [start], []
        while todo:
            sq = todo.pop()
            members.append(sq)
            for n in ORTHO[sq]:
                if heights[n] and not seen[n]:
                    seen[n] = True
                    todo.append(n)
        out.append(members)
    return out


def card_counts_ok(state: GameState) -> None:
    """Cards are conserved: own decks hold each of the 10 cards once per seat; the common deck 4 of each."""
    r = state.rules
    n = state.n
    for s in range(n):
        assert all(c >= 0 for c in state.hands[s]), state.hands
        assert all(c >= 0 for c in state.discards[s]), state.discards
        assert len(state.decks[s]) == len(state.known[s])
    assert all(0 <= state.fresh[c] <= state.hands[state.current][c] for c in range(N_CARD_TYPES)) or (
        state.stage not in (Stage.TURN, Stage.KEEP))
    if r.master or r.full_hand:
        for s in range(n):
            assert [state.hands[s][c] + state.discards[s][c] for c in range(N_CARD_TYPES)] == [1] * N_CARD_TYPES
            assert not state.decks[s] and not state.common
    elif r.card_mode is CardMode.OWN:
        for s in range(n):
            total = [state.hands[s][c] + state.discards[s][c] for c in range(N_CARD_TYPES)]
            for c in state.decks[s]:
                total[c] += 1
            if state.stage is Stage.KEEP and s == state.current:
                for c in state.drawn:
                    total[c] += 1
            assert total == [1] * N_CARD_TYPES, (s, total)
    else:
        total = [0] * N_CARD_TYPES
        for s in range(n):
            for c in range(N_CARD_TYPES):
                total[c] += state.hands[s][c] + state.discards[s][c]
        for c in state.common:
            total[c] += 1
        assert total == [4] * N_CARD_TYPES, total


def check_invariants(state: GameState) -> None:
    r = state.rules
    h = state.heights
    # 92 blocks: board + stacks + this turn's stack + kept (IDW) + supply.
    assert r.blocks_total == 92
    on_board = sum(h)
    in_stacks = sum(sum(s) for s in state.stacks)
    assert on_board + in_stacks + max(state.turn_stack, 0) + sum(state.carry) + state.supply == 92, (
        on_board, in_stacks, state.turn_stack, state.carry, state.supply)
    assert state.supply >= 0 and state.turn_stack >= -1 and all(c >= 0 for c in state.carry)
    for stacks in state.stacks:
        assert all(1 <= height <= 15 for height in stacks), stacks
        assert stacks == sorted(stacks, reverse=True), stacks
        if state.stack_cap:
            assert all(height <= state.stack_cap for height in stacks), stacks
    # No castle taller than its area.
    for castle in castles_of(h):
        assert max(h[sq] for sq in castle) <= len(castle), (castle, [h[sq] for sq in castle])
    # Pieces: the occupancy map is exactly the knight lists plus the king, one piece per square.
    expected = bytearray(64)
    for seat, squares in enumerate(state.knights):
        assert len(squares) <= 6 and len(squares) <= r.knights_per_player, squares
        assert len(set(squares)) == len(squares), squares
        for sq in squares:
            assert 0 <= sq < 64 and expected[sq] == 0, ("two pieces on", sq)
            expected[sq] = seat + 1
    if state.king >= 0:
        assert expected[state.king] == 0, ("king shares a square with a knight", state.king)
        expected[state.king] = KING
        assert h[state.king] > 0, "the king stands on a castle"
    assert bytes(state.occ) == bytes(expected)
    # The engine's castle labelling is the same partition as our flood fill.
    info = state.info
    assert info.castle_count == len(castles_of(h))
    for castle in castles_of(h):
        assert len({info.cid[sq] for sq in castle}) == 1 and info.area[info.cid[castle[0]]] == len(castle)
    assert all(info.cid[sq] < 0 for sq in range(64) if not h[sq])
    # Action points and the scoring track.
    assert state.ap >= 0
    assert state.buys <= r.max_buys
    nonzero = [s for s in state.scores if s]
    assert len(nonzero) == len(set(nonzero)), ("two markers on one space", state.scores)
    assert all(s >= 0 for s in state.scores)
    card_counts_ok(state)


_NOTATION_OK: set[int] = set()  # the text of an id does not depend on the state: each id is checked once


def check_notation(state: GameState) -> None:
    for action_id in state.legal_action_ids():
        if action_id in _NOTATION_OK:
            continue
        action = Action(action_id)
        assert is_valid_id(action_id)
        text = str(action)
        assert parse_action_id(text) == action_id, text
        assert Action.parse(text) == action, text
        _NOTATION_OK.add(action_id)


# --- 1. invariants, undo and notation over whole games ------------------------------------------------------


@pytest.mark.parametrize("players,edition,overrides", CONFIGS)
@SETTINGS
@given(seed=SEEDS, rng=CHOICES)
def test_invariants_undo_and_notation(players: int, edition: str, overrides: dict[str, Any], seed: int,
                                      rng: random.Random) -> None:
    state = new_game(players, edition, overrides, seed)
    check_invariants(state)
    positions = [state.position()]
    castles = len(castles_of(state.heights))
    try:
        while not state.is_over():
            check_notation(state)
            ids = list(state.legal_action_ids())
            assert ids and ids == sorted(set(ids)) and all(0 <= a < NUM_ACTIONS for a in ids)
            history, actors = list(state.history), list(state.actors)
            scores = list(state.scores)
            action = choose(state, rng)
            # Undo restores the exact state after every action.
            state.push(action)
            after = state.position()
            state.pop()
            assert state.position() == positions[-1]
            assert state.legal_action_ids() == ids
            assert state.history == history and state.actors == actors
            state.push(action)  # pushed again: the next step's undo check compares with ``after``
            positions.append(after)
            check_invariants(state)
            assert all(new >= old for new, old in zip(state.scores, scores)), (scores, state.scores)
            now = len(castles_of(state.heights))
            if DECODE[action][0] is Kind.SHIFT:
                assert now >= castles or now >= state.rules.min_castles, (castles, now)
            else:
                assert now >= castles, ("castles joined", castles, now)
            castles = now
        assert state.legal_action_ids() == []
        assert len(state.scorings) == 3
        assert abs(sum(state.returns())) < 1e-9
        # Undo all the way back, checking every intermediate position.
        for expected in reversed(positions[:-1]):
            state.pop()
            assert state.position() == expected
        assert state.history == [] and state.actors == []
        with pytest.raises(IndexError):
            state.pop()
    except AssertionError:
        note_game(state)
        raise


# --- 2. clones and position strings --------------------------------------------------------------------------


def _scribble(g: GameState) -> None:
    """Change every mutable container of ``g`` in place."""
    g.heights[0] += 1
    g.occ[0] ^= 1
    for seat in range(g.n):
        g.knights[seat].append(63)
        g.stacks[seat].append(1)
        g.hands[seat][0] += 1
        g.decks[seat].append(0)
        g.known[seat].append(True)
        g.discards[seat][0] += 1
    g.scores[0] += 100
    g.carry[0] += 1
    g.fresh[0] += 1
    g.drawn.append(0)
    g.common.append(0)
    g.history.append(O_END)
    g.actors.append(0)
    if g.scorings:
        g.scorings.pop()


@pytest.mark.parametrize("players,edition,overrides", CONFIGS)
@SETTINGS
@given(seed=SEEDS, rng=CHOICES, every=st.integers(min_value=2, max_value=6))
def test_clone_and_position_roundtrip(players: int, edition: str, overrides: dict[str, Any], seed: int,
                                      rng: random.Random, every: int) -> None:
    state = new_game(players, edition, overrides, seed)
    try:
        while True:
            if not state.is_over() and len(state.history) % every:
                state.push(choose(state, rng))
                continue
            text = state.position()
            ids = list(state.legal_action_ids())
            # from_position(position()) gives the same string, the same legal actions, and the same future.
            loaded = GameState.from_position(text)
            assert loaded.position() == text
            assert loaded.legal_action_ids() == ids
            if state.is_over():
                break
            action = choose(state, rng)
            # Scribbling over every mutable part of a clone leaves the original alone.
            history = list(state.history)
            _scribble(state.clone())
            assert state.position() == text and state.legal_action_ids() == ids and state.history == history
            # The clone is independent of the original, both ways.
            twin = state.clone()
            assert twin.position() == text and twin.legal_action_ids() == ids and twin.history == state.history
            other = rng.choice(ids)
            twin.push(other)
            assert state.position() == text and state.legal_action_ids() == ids
            twin_text = twin.position()
            state.push(action)
            loaded.push(action)
            assert loaded.position() == state.position()
            assert twin.position() == twin_text
            twin.pop()  # a clone keeps the undo stack
            assert twin.position() == text
    except AssertionError:
        note_game(state)
        raise


# --- 3. what each seat sees -----------------------------------------------------------------------------------

_HIDDEN_FIELDS = ("seed", "hands", "fresh", "drawn", "decks", "common")


def _fields(position: str) -> dict[str, str]:
    tokens = position.split()
    out = {"format": tokens[0]}
    for token in tokens[1:]:
        key, _, value = token.partition("=")
        out[key] = value
    return out


def _letters(counts: list[int]) -> str:
    from torres.engine.position import CARD_LETTERS

    return "".join(CARD_LETTERS[c] * counts[c] for c in range(N_CARD_TYPES)) or "-"


def check_redacted_position(state: GameState, seat: int) -> None:
    """'?' exactly where the seat cannot see; every other field as in the full position."""
    from torres.engine.position import CARD_LETTERS

    full, seen = _fields(state.position()), _fields(state.position(seat))
    assert full.keys() == seen.keys()
    for key in full:
        if key not in _HIDDEN_FIELDS:
            assert seen[key] == full[key], key
            assert "?" not in seen[key], key
    assert seen["seed"] == "?"
    mine = seat == state.current
    hands = seen["hands"].split("|")
    decks = seen["decks"].split("|")
    for s in range(state.n):
        if s == seat:
            assert hands[s] == _letters(state.hands[s])
            expected = "".join(CARD_LETTERS[c] if k else "?" for c, k in zip(state.decks[s], state.known[s]))
            assert decks[s] == (expected or "-")
        else:
            assert hands[s] == ("?" * sum(state.hands[s]) or "-")
            assert decks[s] == ("?" * len(state.decks[s]) or "-")
    if mine:
        assert seen["fresh"] == full["fresh"] and seen["drawn"] == full["drawn"]
    else:
        assert seen["fresh"] == ("?" * sum(state.fresh) or "-")
        assert seen["drawn"] == ("?" * len(state.drawn) or "-")
    assert seen["common"] == ("?" * len(state.common) or "-")


def _swap_in_list(cards: list[int], rng: random.Random, allowed: Callable[[int], bool] = lambda i: True) -> bool:
    pairs = [(i, j) for i in range(len(cards)) for j in range(i + 1, len(cards))
             if cards[i] != cards[j] and allowed(i) and allowed(j)]
    if not pairs:
        return False
    i, j = rng.choice(pairs)
    cards[i], cards[j] = cards[j], cards[i]
    return True


def _swap_hand_with(state: GameState, seat: int, pile: list[int], rng: random.Random) -> bool:
    """Exchange one (not freshly bought) card of ``seat``'s hand with a different card of ``pile``."""
    hand = state.hands[seat]
    fresh = state.fresh if seat == state.current else [0] * N_CARD_TYPES
    options = [(c, i) for c in range(N_CARD_TYPES) if hand[c] > fresh[c] for i in range(len(pile)) if pile[i] != c]
    if not options:
        return False
    c, i = rng.choice(options)
    hand[c] -= 1
    hand[pile[i]] += 1
    pile[i] = c
    return True


def hidden_changes(state: GameState, seat: int, rng: random.Random) -> list[tuple[str, GameState]]:
    """Clones of ``state`` differing only in what ``seat`` cannot see."""
    out = []

    def make(name: str, change: Callable[[GameState], bool]) -> None:
        twin = state.clone()
        if change(twin):
            twin.refresh()
            out.append((name, twin))

    def reseed(g: GameState) -> bool:
        g.seed = state.seed + 1
        return True

    make("seed", reseed)
    for s in range(state.n):
        if s == seat:
            # Only the cards of its own deck the seat has not seen.
            make("own unknown deck order", lambda g, s=s: _swap_in_list(g.decks[s], rng, lambda i: not g.known[s][i]))
            continue
        make(f"deck order of seat {s}", lambda g, s=s: _swap_in_list(g.decks[s], rng))
        make(f"hand of seat {s} vs its deck", lambda g, s=s: _swap_hand_with(g, s, g.decks[s], rng))
        make(f"hand of seat {s} vs common deck", lambda g, s=s: _swap_hand_with(g, s, g.common, rng))
    make("common deck order", lambda g: _swap_in_list(g.common, rng))
    cur = state.current
    if cur != seat and state.stage is Stage.KEEP:
        def redraw(g: GameState) -> bool:
            deck = g.decks[cur]
            options = [(i, j) for i in range(len(g.drawn)) for j in range(len(deck)) if g.drawn[i] != deck[j]]
            if not options:
                return False
            i, j = rng.choice(options)
            g.drawn[i], deck[j] = deck[j], g.drawn[i]
            return True
        make("cards drawn by the seat to act", redraw)
    if cur != seat and state.stage is Stage.TURN and any(state.fresh):
        def refresh_which(g: GameState) -> bool:
            hand, fresh = g.hands[cur], g.fresh
            options = [(c, d) for c in range(N_CARD_TYPES) if fresh[c] for d in range(N_CARD_TYPES)
                       if d != c and hand[d] > fresh[d]]
            if not options:
                return False
            c, d = rng.choice(options)
            fresh[c] -= 1
            fresh[d] += 1
            return True
        make("which cards were bought this turn", refresh_which)
    return out


def _public_json(view: Any) -> dict[str, Any]:
    data = dict(view.to_json())
    data.pop("history")  # a determinization has no history
    data.pop("position")  # compared on its own
    return data


def _determinize_fresh_in_keep_repro() -> tuple[str, str]:
    """Engine bug 1: seat 0 buys twice; during its second keep, seat 1's determinization forgets that seat 0
    holds a card bought this turn (the real view says ``fresh=?``, the determinized one ``fresh=-``)."""
    g = GameState(2, 0)
    for text in ("start d8", "start c6", "king f6", "buy"):
        g.push(text)
    g.push(g.legal_actions[0])  # keep whichever card
    g.push("buy")
    view = g.view(1)
    return view.position, view.determinize(random.Random(0)).position(1)


def check_views(state: GameState, rng: random.Random) -> None:
    full = state.position()
    for seat in range(state.n):
        view = state.view(seat)
        data = view.to_json()
        json.dumps(data)
        assert view.position == state.position(seat) == data["position"]
        # (a) '?' exactly where hidden.
        check_redacted_position(state, seat)
        if seat == state.current and not state.is_over():
            assert list(view.legal) == state.legal_action_ids()
        else:
            assert view.legal == ()
        # (b) what the seat cannot see does not change its view.
        for name, twin in hidden_changes(state, seat, rng):
            assert twin.position() != full, name  # the change is real ...
            assert twin.position(seat) == view.position, name  # ... and invisible to this seat
            assert twin.view(seat).to_json() == data, name
            assert state.position() == full
        # (c) a determinization agrees with everything public and with this seat's own knowledge.
        det = view.determinize(random.Random(rng.randrange(2**32)))
        card_counts_ok(det)
        assert det.position(seat) == view.position
        assert _public_json(det.view(seat)) == _public_json(view)
        assert bytes(det.heights) == bytes(state.heights) and bytes(det.occ) == bytes(state.occ)
        assert [sorted(k) for k in det.knights] == [sorted(k) for k in state.knights]
        assert (det.king, det.scores, det.supply, det.stacks, det.carry, det.turn_stack, det.stack_taken) == (
            state.king, state.scores, state.supply, state.stacks, state.carry, state.turn_stack, state.stack_taken)
        assert (det.stage, det.phase, det.round, det.turn, det.start, det.current, det.ap, det.buys,
                det.played) == (state.stage, state.phase, state.round, state.turn, state.start, state.current,
                                state.ap, state.buys, state.played)
        assert [sum(h) for h in det.hands] == [sum(h) for h in state.hands]
        assert [len(d) for d in det.decks] == [len(d) for d in state.decks]
        assert len(det.common) == len(state.common) and len(det.drawn) == len(state.drawn)
        assert det.discards == state.discards and det.master_card == state.master_card
        assert det.hands[seat] == state.hands[seat]
        if seat == state.current and not state.is_over():
            assert det.legal_action_ids() == state.legal_action_ids()
        # The determinization is a playable game: a few random actions keep every invariant.
        for _ in range(8):
            if det.is_over():
                break
            det.push(rng.choice(det.legal_action_ids()))
            check_invariants(det)


@pytest.mark.parametrize("players,edition,overrides", CONFIGS)
@SETTINGS
@given(seed=SEEDS, rng=CHOICES, every=st.integers(min_value=20, max_value=45))
def test_views_hide_what_a_seat_cannot_see(players: int, edition: str, overrides: dict[str, Any], seed: int,
                                           rng: random.Random, every: int) -> None:
    state = new_game(players, edition, overrides, seed)
    try:
        while True:
            if len(state.history) % every == every - 1 or state.is_over():
                check_views(state, rng)
            if state.is_over():
                break
            state.push(choose(state, rng))
    except AssertionError:
        note_game(state)
        raise


def test_determinize_keeps_fresh_count_during_keep() -> None:
    """Regression: during a second buy's keep, the first bought card is in the hand and still marked fresh."""
    real, determinized = _determinize_fresh_in_keep_repro()
    assert determinized == real


def test_every_edition_and_player_count_is_covered() -> None:
    ids = {p.id for p in CONFIGS}
    for edition in torres.EDITIONS:
        for players in (2, 3, 4):
            assert f"{edition}-plain-{players}p" in ids and f"{edition}-master-{players}p" in ids
            assert f"{edition}-fullhand-{players}p" in ids
    assert any("commondeck" in i for i in ids) and any("owndeck" in i for i in ids)
