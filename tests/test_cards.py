"""The ten action cards: the legal and the illegal cases each card's text implies (000 "THE ACTION CARDS",
001, 003 "DIE AKTIONSKARTEN"), and buying / playing cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from torres import GameState, IllegalActionError, Rules, Stage
from torres.engine.builder import build
from torres.engine.cards import Card
from torres.engine.rules import StackChoice
from torres.engine.squares import parse_square

RG = Rules.for_edition("riogrande")
RAV = Rules.for_edition("ravensburger")
YUC = Rules.for_edition("yucata")

# Six distant single-block castles, to keep the "at least six castles" rule out of the way.
SIX = {"a8": 1, "c8": 1, "e8": 1, "g8": 1, "h6": 1, "h4": 1}
PLAIN = {"c3": 1, "f6": 1}


def sq(name: str) -> int:
    return parse_square(name)


def pos(hand: list[Card], heights: dict[str, int], mine: list[str], theirs: list[str] = (),  # type: ignore[assignment]
        king: str | None = None, rules: Rules = RG, **kw: Any) -> GameState:
    return build(2, heights=heights, knights={0: list(mine), 1: list(theirs)}, king=king, hands={0: hand},
                 rules=rules, **kw)


def plays(g: GameState, card: Card) -> set[str]:
    return {str(a) for a in g.legal_actions if str(a).startswith(f"play {card.text}")}


def assert_free(g: GameState, action: str) -> None:
    """The card is legal, costs no action point and leaves the card played."""
    ap, card_count = g.ap, sum(g.hands[g.current])
    g.push(action)
    assert sum(g.hands[g.current]) == card_count - 1
    assert g.ap >= ap


# --- climb -------------------------------------------------------------------------------------------------------
CLIMB_BOARD = {"c3": 1, "c4": 3, "d3": 2, "c2": 4, "b3": 1}  # one castle of area 5


def test_climb_two_levels_up_onto_an_orthogonal_neighbour() -> None:
    g = pos([Card.CLIMB], CLIMB_BOARD, ["c3"])
    assert not g.is_legal("c3-c4")  # without the card: only one level up
    assert_free(g, "play climb c3-c4")
    assert g.knights[0] == [sq("c4")] and g.level(sq("c4")) == 3


def test_climb_illegal_cases() -> None:
    g = pos([Card.CLIMB], CLIMB_BOARD, ["c3"], ["d3"])
    assert not g.is_legal("play climb c3-c2")  # three levels up
    assert not g.is_legal("play climb c3-d3")  # occupied
    with pytest.raises(IllegalActionError):
        g.push("play climb c3-d4")  # diagonal
    with pytest.raises(IllegalActionError):
        g.push("play climb c3-c5")  # not adjacent
    no_card = pos([], CLIMB_BOARD, ["c3"])
    assert not plays(no_card, Card.CLIMB)


# --- lift --------------------------------------------------------------------------------------------------------
def test_lift_raises_the_knight_with_a_block_from_own_stacks() -> None:
    heights = dict(SIX, c3=1, c4=1)  # area 2
    g = pos([Card.LIFT], heights, ["c3"], stacks={0: [2, 2]})
    supply = g.supply
    assert_free(g, "play lift c3 from:2")
    assert g.level(sq("c3")) == 2 and g.knights[0] == [sq("c3")]
    assert sorted(g.stacks[0]) == [1, 2] and g.supply == supply


def test_lift_from_this_turns_stack() -> None:
    heights = dict(SIX, c3=1, c4=1)
    g = pos([Card.LIFT], heights, ["c3"], stacks={0: [2, 2]})
    g.push("stack 2")
    g.push("play lift c3 from:turn")
    assert g.turn_stack == 1 and g.stacks[0] == [2]


def test_lift_not_above_the_area() -> None:
    heights = dict(SIX, c3=2, c4=1)  # area 2, c3 already 2 high
    g = pos([Card.LIFT], heights, ["c3", "c4"], stacks={0: [2, 2]})
    assert not g.is_legal("play lift c3 from:2")
    assert g.is_legal("play lift c4 from:2")


def test_lift_on_level0_creates_a_castle_only_away_from_castles() -> None:
    heights = dict(SIX, c3=1, e3=1)
    g = pos([Card.LIFT], heights, ["d5", "d4", "d3"], stacks={0: [2, 2]})
    # d5: diagonal to nothing, orthogonal to nothing -> new castle
    assert g.is_legal("play lift d5 from:2")
    # d3: orthogonally between c3 and e3 -> would join two castles
    assert not g.is_legal("play lift d3 from:2")
    count = g.info.castle_count
    g.push("play lift d5 from:2")
    assert g.info.castle_count == count + 1 and g.level(sq("d5")) == 1
    # diagonally adjacent is allowed
    g2 = pos([Card.LIFT], heights, ["d4"], stacks={0: [2, 2]})
    assert g2.is_legal("play lift d4 from:2")
    g2.push("play lift d4 from:2")
    assert g2.info.castle_count == count + 1


def test_lift_on_level0_next_to_one_castle_grows_it() -> None:
    heights = dict(SIX, c3=1)
    g = pos([Card.LIFT], heights, ["c4"], stacks={0: [2, 2]})
    g.push("play lift c4 from:2")
    assert g.info.area[g.info.cid[sq("c3")]] == 2


def test_lift_needs_a_block_in_the_own_supply() -> None:
    g = pos([Card.LIFT], dict(SIX, c3=1, c4=1), ["c3"], stacks={0: [], 1: [2]})
    assert not plays(g, Card.LIFT)


# --- lift and "never more than three tower blocks in a turn" (the setting lift_counts_toward_three) -------------
# 000: "A player may never add more than three tower blocks in a turn." -- the lift card: "The tower block may come
# from any of the stacks in your supply." Default: the card's block comes on top of the three; the setting counts it.
THREE = dict(SIX, c3=1, c4=1)  # the knight on c3 (area 2, level 1) can be lifted; blocks go on a7, a6, a5 (a8's castle)
STRICT = RG.replace(lift_counts_toward_three=True)


def after_blocks(rules: Rules, stack: int, blocks: int, stacks: list[int]) -> GameState:
    g = pos([Card.LIFT], THREE, ["c3"], rules=rules, stacks={0: stacks})
    if rules.stack_choice is StackChoice.PLAYER:
        g.push(f"stack {stack}")
    for square in ("a7", "a6", "a5")[:blocks]:
        g.push(f"block {square}")
    return g


def test_lift_after_three_blocks_from_the_stack_is_legal_by_default() -> None:
    g = after_blocks(RG, 3, 3, [3, 2])
    assert g.turn_stack == 0 and g.ap == 2
    assert_free(g, "play lift c3 from:2")  # a fourth block this turn
    assert g.level(sq("c3")) == 2 and g.stacks[0] == [1]


def test_lift_after_three_blocks_is_illegal_when_it_counts_toward_three() -> None:
    g = after_blocks(STRICT, 3, 3, [3, 2])
    assert not plays(g, Card.LIFT)
    with pytest.raises(IllegalActionError, match="never add more than three tower blocks in a turn"):
        g.push("play lift c3 from:2")
    assert g.level(sq("c3")) == 1 and g.hands[0][Card.LIFT] == 1


def test_lift_counting_toward_three_still_allows_a_third_block() -> None:
    # two placed from a stack of 3: the lift is the third block, from another stack or from the turn's own
    g = after_blocks(STRICT, 3, 2, [3, 2])
    assert plays(g, Card.LIFT) >= {"play lift c3 from:2", "play lift c3 from:turn"}
    # a stack of 2 used up: the turn placed two, so the lift (the third) is legal -- it is the count that matters,
    # not whether the turn's stack is empty
    g = after_blocks(STRICT, 2, 2, [3, 2])
    assert g.turn_stack == 0 and "play lift c3 from:3" in plays(g, Card.LIFT)
    g.push("play lift c3 from:3")
    assert g.stacks[0] == [2]


def test_lift_count_survives_undo_position_strings_and_views() -> None:
    g = after_blocks(STRICT, 3, 3, [3, 2])
    text = g.position()
    assert " stack=0 taken=3 " in text
    loaded = GameState.from_position(text)
    assert not plays(loaded, Card.LIFT) and loaded.position() == text
    # a bot's determinization (full hands: the built hand is then consistent with the decks)
    det = after_blocks(STRICT.replace(full_hand=True), 3, 3, [3, 2]).view(0).determinize(random.Random(1))
    assert det.stack_taken == 3 and det.hands[0][Card.LIFT] == 1 and not plays(det, Card.LIFT)
    g.pop()  # back to two blocks placed: the lift is legal again
    assert "play lift c3 from:2" in plays(g, Card.LIFT)
    # default rules: the position string has no taken field (the count changes nothing there)
    assert " taken=" not in after_blocks(RG, 3, 3, [3, 2]).position()


def test_lift_counts_toward_three_with_the_largest_stack_taken_automatically() -> None:
    # yucata 2 players (stack cap 3): the turn's stack of 3 is taken at the start of the turn, not by an action
    g = after_blocks(YUC.replace(lift_counts_toward_three=True), 3, 3, [3, 2])
    assert g.stack_taken == 3 and g.turn_stack == 0 and not plays(g, Card.LIFT)
    assert "play lift c3 from:2" in plays(after_blocks(YUC, 3, 3, [3, 2]), Card.LIFT)


# --- build ------------------------------------------------------------------------------------------------------
def test_build_places_an_extra_block_from_the_general_supply() -> None:
    heights = dict(SIX, c3=1, c4=1, e3=1)
    g = pos([Card.BUILD], heights, ["h1"], stacks={0: [2, 2]})
    supply, stacks = g.supply, list(g.stacks[0])
    assert g.turn_stack < 0  # no stack chosen: the card does not need one
    assert_free(g, "play build c3")
    assert g.level(sq("c3")) == 2 and g.supply == supply - 1 and g.stacks[0] == stacks


def test_build_follows_the_normal_placement_rules() -> None:
    heights = dict(SIX, c3=2, c4=1, e3=1)  # {c3, c4} area 2, {e3} area 1
    g = pos([Card.BUILD], heights, ["c4"], ["b3"])
    assert not g.is_legal("play build c3")  # taller than the area
    assert not g.is_legal("play build d3")  # joins {c3,c4} and {e3}
    assert not g.is_legal("play build c4")  # a knight stands there
    assert not g.is_legal("play build b3")  # a knight stands there
    assert not g.is_legal("play build a1")  # not next to a castle
    assert g.is_legal("play build c2") and g.is_legal("play build e2")


# --- gate -------------------------------------------------------------------------------------------------------
GATE_BOARD = dict(SIX, c3=3, c4=2, d3=1)  # area 3


def test_gate_exits_any_door_climbing_any_number_of_levels() -> None:
    g = pos([Card.GATE], GATE_BOARD, ["e3"])
    assert not g.is_legal("e3-c4")  # plain door travel never ends higher
    assert g.is_legal("play gate e3-c4")  # c4 (level 2) lies at a door of c3
    assert g.is_legal("play gate e3-b3")  # ground outside another door
    assert_free(g, "play gate e3-c4")
    assert g.knights[0] == [sq("c4")] and g.level(sq("c4")) == 2


def test_gate_only_onto_a_square_next_to_a_door() -> None:
    g = pos([Card.GATE], GATE_BOARD, ["e3"], ["c2"])
    assert not g.is_legal("play gate e3-c3")  # the top block: no higher block, so no door opens onto it
    assert not g.is_legal("play gate e3-c2")  # occupied
    assert not g.is_legal("play gate e3-a1")  # not next to the castle
    far = pos([Card.GATE], GATE_BOARD, ["g3"])
    assert not plays(far, Card.GATE)  # no adjacent door


# --- diagonal -----------------------------------------------------------------------------------------------------
def test_diagonal_one_square_up_at_most_one_level() -> None:
    # castles {c3}, {b4}, {d4 2, d5}, {b2 3, a2, b1}
    heights = {"c3": 1, "d4": 2, "d5": 1, "b2": 3, "a2": 1, "b1": 1, "b4": 1}
    g = pos([Card.DIAGONAL], heights, ["c3"], ["d2"])
    assert not g.is_legal("c3-b4")  # no diagonal steps without the card
    assert g.is_legal("play diagonal c3-d4")  # +1: from one castle to another
    assert g.is_legal("play diagonal c3-b4")  # same level
    assert not g.is_legal("play diagonal c3-b2")  # +2
    assert not g.is_legal("play diagonal c3-d2")  # occupied
    with pytest.raises(IllegalActionError):
        g.push("play diagonal c3-c4")  # orthogonal
    assert_free(g, "play diagonal c3-d4")
    assert g.knights[0] == [sq("d4")]


def test_diagonal_down_any_number_of_levels() -> None:
    g = pos([Card.DIAGONAL], {"c3": 3, "c2": 1, "c1": 1}, ["c3"])
    assert g.is_legal("play diagonal c3-d4")  # 3 -> 0


# --- six / seven -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("card,ap", [(Card.SIX, 6), (Card.SEVEN, 7)])
def test_six_and_seven_action_points(card: Card, ap: int) -> None:
    g = pos([card], PLAIN, ["h1"])
    g.push(f"play {card.text}")
    assert g.ap == ap
    for _ in range(ap):
        g.push("score")
    assert not g.is_legal("score")
    assert g.scores[0] == ap


def test_six_after_spending_points_still_adds_one() -> None:
    g = pos([Card.SIX], PLAIN, ["h1"])
    g.push("score")
    g.push("score")
    g.push("play six")
    assert g.ap == 4


# --- shift -------------------------------------------------------------------------------------------------------
# Castles: L = {b2, c2, d2} in a line, T = {f2 2, g2 1} (area 2, 2 high), and single blocks a5, c6, e6, g5:
# 6 castles.
SHIFT_BOARD = {"b2": 1, "c2": 1, "d2": 1, "f2": 2, "g2": 1, "a5": 1, "c6": 1, "e6": 1, "g5": 1}


def shift_pos(extra: dict[str, int] = {}, mine: list[str] = ["h8"], theirs: list[str] = ["a1"],
              rules: Rules = RG) -> GameState:
    return pos([Card.SHIFT], dict(SHIFT_BOARD, **extra), mine, theirs, rules=rules)


def test_shift_board_has_six_castles() -> None:
    assert shift_pos().info.castle_count == 6


def test_shift_moves_an_empty_block() -> None:
    g = shift_pos()
    assert g.is_legal("play shift d2-d4")  # the end of L to a square away from every castle: a new castle
    assert_free(g, "play shift d2-d4")
    assert g.level(sq("d2")) == 0 and g.level(sq("d4")) == 1 and g.info.castle_count == 7


def test_shift_may_not_divide_a_castle() -> None:
    g = shift_pos()
    assert not g.is_legal("play shift c2-d4")  # the middle of b2-c2-d2
    assert g.is_legal("play shift b2-d4")


def test_shift_not_below_six_castles() -> None:
    g = shift_pos()
    # a5 is a single block: moving it onto another castle would leave 5 castles
    assert not g.is_legal("play shift a5-c2")
    assert not g.is_legal("play shift a5-c7")  # next to c6: it joins c6, 5 castles remain
    assert g.is_legal("play shift a5-a3")  # a new castle elsewhere: still 6
    g7 = shift_pos({"e4": 1})
    assert g7.is_legal("play shift a5-c2")  # 7 -> 6 is fine


def test_shift_not_taller_than_the_area() -> None:
    g = shift_pos()
    # taking g2 leaves f2 (2 high) on an area of 1
    assert not g.is_legal("play shift g2-d4")
    # the top of f2 may go (f2 becomes 1 high)
    assert g.is_legal("play shift f2-d4")
    # onto a castle only if it stays no taller than its area: L is area 3
    assert g.is_legal("play shift f2-c2")
    g2 = shift_pos({"c2": 3})
    assert not g2.is_legal("play shift f2-c2")


def test_shift_never_joins_two_castles() -> None:
    g = shift_pos()
    assert not g.is_legal("play shift a5-e2")  # between d2 (L) and f2 (T)
    assert not g.is_legal("play shift a5-d6")  # between c6 and e6


def test_shift_only_an_empty_block_onto_an_empty_space() -> None:
    g = shift_pos(mine=["h8", "d2"], theirs=["a1", "d4"])
    assert not g.is_legal("play shift d2-d5")  # a knight stands on d2
    assert not g.is_legal("play shift b2-d4")  # a knight stands on d4
    assert g.is_legal("play shift b2-d5")


# --- redeploy --------------------------------------------------------------------------------------------------
def test_redeploy_next_to_another_own_knight_at_its_level_or_lower() -> None:
    heights = {"c3": 2, "c4": 3, "d3": 1, "b3": 2}  # castle of area 4
    g = pos([Card.REDEPLOY], heights, ["c3", "h8"], ["a1"])
    # h8 goes next to c3 (level 2): d3 (1), b3 (2), c2 (0) yes; c4 (3) no
    assert g.is_legal("play redeploy h8-d3")
    assert g.is_legal("play redeploy h8-b3")
    assert g.is_legal("play redeploy h8-c2")
    assert not g.is_legal("play redeploy h8-c4")
    # next to its own old square only, or next to an opponent's knight only: no
    assert not g.is_legal("play redeploy h8-h7")
    assert not g.is_legal("play redeploy h8-a2")
    assert_free(g, "play redeploy h8-b3")
    assert sorted(g.knights[0]) == sorted([sq("c3"), sq("b3")])


def test_redeploy_needs_another_knight() -> None:
    g = pos([Card.REDEPLOY], PLAIN, ["d4"])
    assert not plays(g, Card.REDEPLOY)


# --- vault ------------------------------------------------------------------------------------------------------
def test_vault_over_a_knight_in_a_straight_line() -> None:
    heights = {"c4": 4, "c3": 1, "c2": 1, "c5": 1}  # area 4
    g = pos([Card.VAULT], heights, ["b4"], ["c4"])
    assert g.is_legal("play vault b4-d4")  # over a knight on level 4, landing on the ground
    assert_free(g, "play vault b4-d4")
    assert g.knights[0] == [sq("d4")]


def test_vault_landing_up_one_level_at_most_down_any() -> None:
    heights = {"b4": 1, "d4": 2, "b6": 3, "b5": 1, "b7": 1, "d5": 1}
    g = pos([Card.VAULT], heights, ["b4", "d6"], ["c4", "b5"])
    assert g.is_legal("play vault b4-d4")  # 1 -> 2
    assert not g.is_legal("play vault b4-b6")  # 1 -> 3
    g2 = pos([Card.VAULT], {"b4": 2, "b5": 1, "b3": 1}, ["b4"], ["c4"])
    assert g2.is_legal("play vault b4-d4")  # 2 -> 0


def test_vault_never_over_the_king_nor_an_empty_square() -> None:
    heights = dict(PLAIN, c4=1, e4=1)
    g = pos([Card.VAULT], heights, ["b4", "d3"], ["d5"], king="c4")
    assert not g.is_legal("play vault b4-d4")  # the king is on c4
    assert not g.is_legal("play vault d3-d1")  # d2 is empty: nothing to jump
    with pytest.raises(IllegalActionError):
        g.push("play vault b4-d4")


def test_vault_landing_must_be_empty() -> None:
    g = pos([Card.VAULT], PLAIN, ["b4"], ["c4", "d4"])
    assert not g.is_legal("play vault b4-d4")


# --- playing cards ------------------------------------------------------------------------------------------------
def test_at_most_one_card_per_turn() -> None:
    g = pos([Card.SIX, Card.SEVEN, Card.CLIMB], PLAIN, ["h1"])
    g.push("play six")
    assert not plays(g, Card.SEVEN) and not g.is_legal("play seven")
    with pytest.raises(IllegalActionError, match="one action card"):
        g.push("play seven")
    # next turn it is allowed again
    g.push("end")
    g.push("end")
    assert g.current == 0 and g.is_legal("play seven")


def test_a_played_card_leaves_the_game() -> None:
    g = pos([Card.SIX], PLAIN, ["h1"])
    g.push("play six")
    g.push("end")
    g.push("end")
    assert not g.is_legal("play six") and g.hands[0][Card.SIX] == 0 and g.discards[0][Card.SIX] == 1


def _opened(seed: int, rules: Rules = RG) -> GameState:
    g = GameState(2, seed, rules)
    g.play(["start c3", "start f6", "king a4"])
    assert g.stage is Stage.TURN and g.current == 0
    return g


def test_a_card_cannot_be_played_the_turn_it_was_bought() -> None:
    g = _opened(5)
    g.push("buy")
    kept = g.drawn[0]
    keep = next(a for a in g.legal_actions if a.card == kept)
    g.push(keep)
    assert g.hands[0][kept] == 1
    assert not any(a.card == kept and str(a).startswith("play") for a in g.legal_actions)
    # after the opponent's turn the card counts as playable ("The cards may be held until played")
    g.push("end")
    g.push("end")
    assert g.playable(0)[kept] == 1


def test_a_bought_six_is_playable_next_turn_only() -> None:
    g = GameState(2, 0, RG.replace(card_mode="common"))
    g.common = g.common[:-1] + [int(Card.SIX)]  # the top card of the common deck
    g.play(["start c3", "start f6", "king a4"])
    g.push("buy")
    assert g.hands[0][Card.SIX] == 1 and not g.is_legal("play six")
    with pytest.raises(IllegalActionError, match="bought"):
        g.push("play six")
    g.push("end")
    g.push("end")
    assert g.is_legal("play six")


def test_buying_own_deck_draw_three_keep_one_return_top_and_bottom() -> None:
    g = _opened(11)
    deck = list(g.decks[0])  # bottom -> top
    assert len(deck) == 10
    g.push("buy")
    assert g.stage is Stage.KEEP
    top3 = deck[-1:-4:-1]
    assert g.drawn == top3
    assert g.ap == 4
    keep, a, b = (Card(c) for c in top3)
    # every keep action keeps one of the three and returns both others
    for action in g.legal_actions:
        assert action.card in (keep, a, b)
    g.push(f"keep {keep.text} top:{a.text} bottom:{b.text}")
    assert g.stage is Stage.TURN and g.hands[0][keep] == 1
    assert g.decks[0][-1] == a and g.decks[0][0] == b and len(g.decks[0]) == 9
    # the second buy draws the card returned on top first
    g.push("buy")
    assert g.drawn[0] == a
    assert not g.is_legal(f"keep {keep.text}")  # not drawn this time
    g.push(f"keep {a.text} bottom:{Card(g.drawn[1]).text},{Card(g.drawn[2]).text}")
    # at most two buys per turn
    assert not g.is_legal("buy")
    with pytest.raises(IllegalActionError, match="at most 2"):
        g.push("buy")
    assert g.ap == 3


def test_keep_must_return_both_other_cards() -> None:
    g = _opened(2)
    g.push("buy")
    keep, a, _ = (Card(c) for c in g.drawn)
    assert not g.is_legal(f"keep {keep.text} top:{a.text}")  # the third card must go back too
    assert not g.is_legal(f"keep {keep.text}")


def test_buying_with_fewer_than_three_cards_left_and_an_empty_deck() -> None:
    g = _opened(3)
    # (whole new lists: the engine shares unchanged lists with its undo snapshots)
    g.decks = [g.decks[0][-2:]] + [d[:] for d in g.decks[1:]]
    g.known = [g.known[0][-2:]] + [k[:] for k in g.known[1:]]
    g.refresh()
    g.push("buy")
    assert len(g.drawn) == 2
    keep, other = (Card(c) for c in g.drawn)
    g.push(f"keep {keep.text} top:{other.text}")
    g.push("end")
    g.push("end")
    g.decks = [[]] + [d[:] for d in g.decks[1:]]
    g.known = [[]] + [k[:] for k in g.known[1:]]
    g.refresh()
    assert not g.is_legal("buy")


def test_common_deck_buy_draws_the_top_card() -> None:
    g = _opened(4, RAV)
    top, second = g.common[-1], g.common[-2]
    g.push("buy")
    assert g.hands[0][top] >= 1 and len(g.common) == 39
    g.push("buy")
    assert g.hands[0][second] >= 1 and sum(g.hands[0]) == 2
    assert not g.is_legal("buy")


def test_buying_costs_one_ap_each() -> None:
    g = _opened(4, RAV)
    for _ in range(3):
        g.push("score")
    g.push("buy")
    g.push("buy")
    assert g.ap == 0
    g2 = _opened(4, RAV)
    for _ in range(5):
        g2.push("score")
    assert not g2.is_legal("buy")



def test_a_card_may_be_played_with_no_action_points_left() -> None:
    g = pos([Card.SIX], PLAIN, ["h1"])
    for _ in range(5):
        g.push("score")
    assert g.ap == 0 and g.is_legal("play six")
    g.push("play six")
    assert g.ap == 1 and g.is_legal("score")
