"""Action notation: every valid action id round-trips through its text; malformed texts and illegal actions are
rejected with a message that says what is wrong (and, for illegal actions, which rule forbids them)."""

from __future__ import annotations

import pytest

import torres
from torres import Action, GameState, IllegalActionError, Kind, Rules
from torres.engine.actions import DECODE, NUM_ACTIONS, OFFSET, format_action, is_valid_id, parse_action_id
from torres.engine.builder import build
from torres.engine.cards import Card

VALID_IDS = [i for i in range(NUM_ACTIONS) if is_valid_id(i)]


def test_action_space_shape() -> None:
    # Every kind has at least one valid id, and only a few ids of the fixed space name nothing.
    kinds = {DECODE[i][0] for i in VALID_IDS}
    assert kinds == set(Kind)
    invalid = [i for i in range(NUM_ACTIONS) if not is_valid_id(i)]
    assert 0 < len(invalid) < NUM_ACTIONS // 50
    # The invalid ones: 'stack 0' and directional card moves off the board.
    for i in invalid:
        kind, a, b = DECODE[i]
        assert (kind is Kind.STACK and a == 0) or (kind in (Kind.CLIMB, Kind.VAULT, Kind.DIAGONAL) and b < 0)
        with pytest.raises(ValueError):
            Action(i)
    assert not is_valid_id(-1) and not is_valid_id(NUM_ACTIONS)
    with pytest.raises(ValueError):
        Action(NUM_ACTIONS)


def test_every_valid_id_round_trips() -> None:
    texts = set()
    for i in VALID_IDS:
        action = Action(i)
        text = str(action)
        assert text == format_action(i)
        assert parse_action_id(text) == i, text
        assert Action.parse(text) == action and Action.parse(text).id == i
        # Case and surrounding whitespace do not matter.
        assert parse_action_id("  " + text.upper() + " ") == i, text
        texts.add(text)
    assert len(texts) == len(VALID_IDS)  # no two actions share a text


@pytest.mark.parametrize("text,kind", [
    ("start c6", Kind.START), ("king c6", Kind.KING), ("king stay", Kind.KING_STAY), ("castle c6", Kind.CASTLE),
    ("first 2", Kind.FIRST), ("knight c6", Kind.KNIGHT), ("c5-c6", Kind.MOVE), ("stack 3", Kind.STACK),
    ("block c6", Kind.BLOCK), ("buy", Kind.BUY), ("keep climb top:vault bottom:shift", Kind.KEEP),
    ("score", Kind.SCORE), ("end", Kind.END), ("play climb c3-c4", Kind.CLIMB),
    ("play lift c3 from:2", Kind.LIFT), ("play lift c3 from:turn", Kind.LIFT), ("play build c4", Kind.BUILD),
    ("play gate c3-f5", Kind.GATE), ("play diagonal c3-d4", Kind.DIAGONAL), ("play six", Kind.SIX),
    ("play seven", Kind.SEVEN), ("play shift c3-f5", Kind.SHIFT), ("play redeploy c3-f5", Kind.REDEPLOY),
    ("play vault c3-c5", Kind.VAULT),
])
def test_documented_examples_parse(text: str, kind: Kind) -> None:
    action = Action.parse(text)
    assert action.kind is kind
    assert str(action) == text
    assert OFFSET[kind] <= action.id < NUM_ACTIONS


def test_action_properties() -> None:
    a = Action.parse("c5-c6")
    assert (a.source, a.square) == (torres.parse_square("c5"), torres.parse_square("c6"))
    assert Action.parse("play lift c3 from:2").card is Card.LIFT
    assert Action.parse("keep vault top:climb").card is Card.VAULT
    assert Action.parse("end").square == -1 and Action.parse("end").card is None
    with pytest.raises(AttributeError):
        a.id = 3  # type: ignore[misc]
    assert {Action.parse("end"), Action.parse("END")} == {Action.parse("end")}


@pytest.mark.parametrize("text,message", [
    ("frobnicate c3", "unknown action"),
    ("knight z9", "not a square: 'z9'"),
    ("c3-z9", "not a square: 'z9'"),
    ("block i1", "a1..h8"),
    ("play lift c3", "from:"),
    ("play lift c3 c4", "from:"),
    ("play lift c3 from:99", "bad stack"),
    ("keep climb top:climb", "distinct other cards"),
    ("keep climb top:vault bottom:vault", "distinct other cards"),
    ("keep climb top:vault,shift,gate", "at most two"),
    ("keep", "needs the card to keep"),
    ("keep climb middle:vault", "top:<cards> or bottom:<cards>"),
    ("keep warp", "unknown card 'warp'"),
    ("first 7", "seat number 0..3"),
    ("first x", "seat number 0..3"),
    ("stack 0", "stack height 1..15"),
    ("stack", "stack height"),
    ("play", "needs a card"),
    ("play warp c3-c4", "unknown card 'warp'"),
    ("play six c3", "takes no arguments"),
    ("play build", "one square"),
    ("play climb c3", "expected two squares"),
    ("play climb c3-e5", "not an orthogonal neighbour"),
    ("play vault c3-c4", "two squares away in a straight line"),
    ("play diagonal c3-c4", "not a diagonal neighbour"),
    ("start", "one square"),
    ("start c3 c4", "one square"),
    ("", "empty action"),
    ("   ", "empty action"),
])
def test_malformed_text_is_rejected_with_a_helpful_message(text: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_action_id(text)
    assert message in str(info.value), str(info.value)
    with pytest.raises(ValueError):
        Action.parse(text)
    # A game rejects it the same way, as an illegal action, without changing.
    game = GameState(2, 1)
    before = game.position()
    with pytest.raises(IllegalActionError) as info2:
        game.parse(text)
    assert message in str(info2.value)
    with pytest.raises(IllegalActionError):
        game.push(text)
    assert game.position() == before and game.history == []


# --- illegal actions name the rule ---------------------------------------------------------------------------


def _turn(**kwargs: object) -> GameState:
    """Seat 0 to act in phase 1 of a Rio Grande game, pieces as given."""
    return build(2, **kwargs)  # type: ignore[arg-type]


def _reason(game: GameState, text: str) -> str:
    before = game.position()
    assert not game.is_legal(text)
    with pytest.raises(IllegalActionError) as info:
        game.parse(text)
    with pytest.raises(IllegalActionError) as info2:
        game.push(text)
    assert str(info.value) == str(info2.value)
    assert game.position() == before  # nothing changed
    return str(info.value)


def test_moving_onto_an_occupied_square() -> None:
    game = _turn(heights={"c3": 1, "f6": 1}, knights={0: ["c3"], 1: ["c4"]}, king="f6")
    assert game.is_legal("c3-d3")
    assert "c4 is occupied" in _reason(game, "c3-c4")
    assert "f6 is occupied" in _reason(game, "knight f6")  # the king's square
    game.push("c3-d3")
    assert "c4 is occupied" in _reason(game, "knight c4")


def test_moving_a_knight_that_is_not_there() -> None:
    game = _turn(heights={"c3": 1}, knights={0: ["c3"], 1: ["c5"]})
    assert "no knight on c5" in _reason(game, "c5-c6")


def test_moving_up_two_levels() -> None:
    game = _turn(heights={"c3": 2, "d3": 2}, knights={0: ["c2"]})
    assert "up at most one level" in _reason(game, "c2-c3")
    assert "c2 is level 0, c3 level 2" in _reason(game, "c2-c3")


def test_placing_a_block_with_no_stack_chosen() -> None:
    game = GameState(2, 1)
    game.play(["start d8", "start c6", "king f6"])
    assert game.stage is torres.Stage.TURN and game.turn_stack == -1
    assert "choose this turn's stack first" in _reason(game, "block d7")
    game.push("stack 3")
    game.push("block d7")
    assert game.turn_stack == 2


def test_block_rules() -> None:
    game = GameState(2, 1)
    game.play(["start d8", "start c6", "king f6", "stack 3"])
    assert "next to exactly one castle" in _reason(game, "block a8")  # touching no castle
    assert "occupied" in _reason(game, "block d8")
    assert "no taller than its area" in _reason(game, "block f3")  # castle of area 1 is already level 1
    game.play(["block e8", "block e8", "block e7"])
    assert "stack is used up" in _reason(game, "block d4")


def test_two_point_knight_with_one_point_left() -> None:
    game = GameState(2, 1)
    game.play(["start d8", "start c6", "king f6", "score", "score", "score", "score"])
    assert game.ap == 1
    assert "costs 2 action points, 1 left" in _reason(game, "knight d7")
    game.push("score")
    assert "costs 1 action point, 0 left" in _reason(game, "d8-d7")


def test_playing_a_card_twice_in_one_turn() -> None:
    game = _turn(heights={"c3": 1}, knights={0: ["c3"]}, hands={0: [Card.SIX, Card.SEVEN, Card.SIX]})
    game.push("play six")
    assert "at most one action card per turn" in _reason(game, "play seven")
    assert "at most one action card per turn" in _reason(game, "play six")
    game.push("end")
    game.push("end")  # seat 1
    game.push("play seven")  # a new turn: one more card
    assert game.ap == 7


def test_playing_a_card_not_held_or_just_bought() -> None:
    game = _turn(heights={"c3": 1}, knights={0: ["c3"]}, hands={0: [Card.SIX]})
    assert "you hold no seven card" in _reason(game, "play seven")
    # A seed whose first draw holds the six: keep it, and it may not be played this turn.
    for seed in range(100):
        game = GameState(2, seed)
        game.play(["start d8", "start c6", "king f6", "buy"])
        if Card.SIX in game.drawn:
            break
    else:
        raise AssertionError("no seed draws the six")
    game.push(next(a for a in game.legal_actions if a.card is Card.SIX))
    assert "not be played on the turn it was bought" in _reason(game, "play six")
    game.push("end")
    game.push("end")
    assert game.current == 0 and game.is_legal("play six")  # the next turn it may


def test_buying_a_third_card() -> None:
    game = GameState(2, 1)
    game.play(["start d8", "start c6", "king f6", "buy"])
    assert game.stage is torres.Stage.KEEP
    assert "not now" in _reason(game, "d8-d7")
    game.push(game.legal_actions[0])
    game.push("buy")
    game.push(game.legal_actions[0])
    assert game.buys == 2 and game.ap == 3
    assert "at most 2 cards per turn" in _reason(game, "buy")


def test_keep_must_match_the_drawn_cards() -> None:
    game = GameState(2, 1)
    game.play(["start d8", "start c6", "king f6", "buy"])
    drawn = {Card(c) for c in game.drawn}
    absent = next(c for c in Card if c not in drawn)
    assert "you drew" in _reason(game, f"keep {absent.text}")


def test_setup_and_turn_stages_reject_each_others_actions() -> None:
    game = GameState(2, 1)
    assert "not now" in _reason(game, "end")
    assert "empty block of a castle" in _reason(game, "start a1")
    game.play(["start d8", "start c6", "king f6"])
    assert "not during a turn" in _reason(game, "start c3")


def test_choosing_a_stack_where_the_largest_is_taken_automatically() -> None:
    game = GameState(3, 1, Rules.for_edition("yucata"))
    while game.stage is not torres.Stage.TURN:
        game.push(game.legal_action_ids()[0])
    assert game.turn_stack == 3
    assert "takes the largest stack automatically" in _reason(game, "stack 3")


def test_buying_in_the_master_version() -> None:
    game = GameState(2, 1, Rules.for_edition("riogrande", master=True))
    while game.stage is not torres.Stage.TURN:
        game.push(game.legal_action_ids()[0])
    assert "cards are not bought" in _reason(game, "buy")
