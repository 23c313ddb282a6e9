"""Determinism: the seed plus the action list is the whole game.

The same seed and actions give identical positions; different seeds shuffle the decks differently; yucata.de's
random start player (and the master version's drawn master card) come from the seed.
"""

from __future__ import annotations

import random

import pytest

from torres import EDITIONS, GameState, Rules, Stage
from torres.engine.rules import CardMode


def _random_game(players: int, rules: Rules, seed: int, choice_seed: int,
                 positions: list[str] | None = None) -> GameState:
    game = GameState(players, seed, rules)
    rng = random.Random(choice_seed)
    while not game.is_over():
        game.push(rng.choice(game.legal_action_ids()))
        if positions is not None:
            positions.append(game.position())
    return game


@pytest.mark.parametrize("edition", list(EDITIONS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_seed_and_actions_give_identical_positions(edition: str, players: int) -> None:
    rules = Rules.for_edition(edition)
    positions: list[str] = []
    first = _random_game(players, rules, seed=1234, choice_seed=99, positions=positions)
    assert first.is_over() and len(positions) == len(first.history)
    # Replaying the recorded actions (as text) on a fresh game with the same seed: the same position after
    # every action, the same final scores.
    replay = GameState(players, 1234, rules)
    for text, expected in zip(first.actions_text(), positions):
        replay.push(text)
        assert replay.position() == expected
    assert replay.position() == first.position()
    assert replay.scores == first.scores and replay.scorings == first.scorings
    assert replay.history == first.history
    # Playing the same choices again picks the same actions.
    again = _random_game(players, rules, seed=1234, choice_seed=99)
    assert again.history == first.history and again.position() == first.position()


def test_a_fresh_game_does_not_depend_on_anything_but_its_arguments() -> None:
    random.seed(1)
    a = GameState(3, 77).position()
    random.seed(2)
    b = GameState(3, 77).position()
    assert a == b
    assert GameState(3, 77).position() == GameState(3, 77).position()


def _decks(game: GameState) -> list[list[int]]:
    return [list(d) for d in game.decks]


def test_different_seeds_shuffle_own_decks_differently() -> None:
    rules = Rules.for_edition("riogrande")
    seen = set()
    for seed in range(50):
        game = GameState(4, seed, rules)
        decks = _decks(game)
        assert all(sorted(d) == list(range(10)) for d in decks)
        assert len({tuple(d) for d in decks}) == 4  # the four seats' decks are shuffled independently
        seen.add(tuple(tuple(d) for d in decks))
        assert game.common == []
    assert len(seen) == 50
    # Same seed, same decks.
    assert _decks(GameState(4, 7, rules)) == _decks(GameState(4, 7, rules))


def test_different_seeds_shuffle_the_common_deck_differently() -> None:
    rules = Rules.for_edition("ravensburger")
    assert rules.card_mode is CardMode.COMMON
    decks = set()
    for seed in range(50):
        game = GameState(3, seed, rules)
        assert sorted(game.common) == sorted(list(range(10)) * 4)
        assert all(d == [] for d in game.decks)
        decks.add(tuple(game.common))
    assert len(decks) == 50
    assert GameState(3, 5, rules).common == GameState(3, 5, rules).common


def test_different_seeds_lead_to_different_draws() -> None:
    """What a seat draws when it buys depends on the seed (the visible consequence of the shuffle)."""
    drawn = set()
    for seed in range(30):
        game = GameState(2, seed)
        game.play(["start d8", "start c6", "king f6", "buy"])
        assert game.stage is Stage.KEEP and len(game.drawn) == 3
        drawn.add(tuple(game.drawn))
    assert len(drawn) > 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_yucata_random_start_player_comes_from_the_seed(players: int) -> None:
    rules = Rules.for_edition("yucata")
    starts = {}
    for seed in range(60):
        game = GameState(players, seed, rules)
        starts[seed] = game.start
        assert game.current == game.start  # the start player places the first knight
        again = GameState(players, seed, rules)
        assert again.start == game.start
        assert again.position() == game.position()
        # The position string records the start player, and loading it keeps it.
        assert GameState.from_position(game.position()).start == game.start
    assert set(starts.values()) == set(range(players))  # every seat starts for some seed


def test_other_editions_start_with_seat_zero() -> None:
    for edition in EDITIONS:
        if edition == "yucata":
            continue
        for seed in range(10):
            game = GameState(4, seed, Rules.for_edition(edition))
            assert game.start == 0 and game.current == 0


def test_yucata_start_player_plays_first_and_places_the_king_last() -> None:
    rules = Rules.for_edition("yucata")
    seed = next(s for s in range(100) if GameState(3, s, rules).start == 2)
    game = GameState(3, seed, rules)
    order = []
    while game.stage is Stage.KNIGHTS:
        order.append(game.current)
        game.push(game.legal_action_ids()[0])
    assert order == [2, 0, 1]
    assert game.stage is Stage.KING_SETUP and game.current == 1  # the last to place a knight
    game.push(game.legal_action_ids()[0])
    assert game.stage is Stage.TURN and game.current == 2


def test_master_card_is_drawn_from_the_seed() -> None:
    cards = set()
    for seed in range(60):
        rules = Rules.for_edition("riogrande", master=True)
        game = GameState(2, seed, rules)
        assert 0 <= game.master_card < 8
        assert GameState(2, seed, rules).master_card == game.master_card
        cards.add(game.master_card)
    assert len(cards) == 8
    # A chosen master card overrides the draw.
    assert GameState(2, 3, Rules.for_edition("riogrande", master=True, master_card=5)).master_card == 5


def test_seed_is_part_of_the_position_but_not_of_a_view() -> None:
    game = GameState(2, 4242)
    assert " seed=4242 " in game.position()
    assert " seed=? " in game.position(0) and "4242" not in game.view(1).position
