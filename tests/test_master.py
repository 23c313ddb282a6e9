"""The master version (000 "MASTER VERSION", 002 "MASTER VERSION", 003 "MEISTER-VERSION"): starting castles
placed by the players under each edition's spacing rule, full hands without buying, the 8 master cards, and
turn order by score."""

from __future__ import annotations

from typing import Any

import pytest

from torres import GameState, IllegalActionError, Rules, Stage
from torres.engine.builder import build
from torres.engine.master import MasterCard
from torres.engine.rules import Spacing

RG = Rules.for_edition("riogrande")
GAP2 = RG.replace(master=True, spacing=Spacing.ORTHOGONAL_GAP2)
GAP1 = RG.replace(master=True, spacing=Spacing.GAP1_NO_DIAGONAL)


def placed(rules: Rules, *castles: str, players: int = 2) -> GameState:
    g = GameState(players, 0, rules)
    assert g.stage is Stage.CASTLES
    for c in castles:
        g.push(f"castle {c}")
    return g


# --- starting castles -------------------------------------------------------------------------------------------
def test_first_castle_anywhere_and_players_take_turns() -> None:
    g = GameState(3, 0, GAP2)
    assert len(g.legal_actions) == 64
    seats = []
    for c in ("a1", "a8", "h1", "h8", "d4", "a5", "e8", "h5"):
        seats.append(g.current)
        g.push(f"castle {c}")
    assert seats == [0, 1, 2, 0, 1, 2, 0, 1]
    assert g.stage is Stage.KNIGHTS and g.info.castle_count == 8
    assert g.supply == 92 - 8


@pytest.mark.parametrize("allowed,forbidden", [
    ("d7", "d6"),  # in a line: two empty squares between / only one
    ("g4", "f4"),
    ("d1", "d2"),
    ("a4", "b4"),
    ("e6", "e5"),  # counted orthogonally: e6 is 1 + 2 = 3 steps away; e5 only 2
    ("f6", "e5"),  # diagonal: (2, 2) is 4 steps away
    ("f5", "e4"),
])
def test_riogrande_spacing_two_empty_squares_counted_orthogonally(allowed: str, forbidden: str) -> None:
    """000: "at least 2 empty spaces between it and any other castle ... measured by moving orthogonally"."""
    g = placed(GAP2, "d4")
    assert g.is_legal(f"castle {allowed}")
    assert not g.is_legal(f"castle {forbidden}")
    with pytest.raises(IllegalActionError):
        g.push(f"castle {forbidden}")


@pytest.mark.parametrize("allowed,forbidden", [
    ("d6", "d5"),  # in a line: two squares away / adjacent
    ("f4", "e4"),
    ("b4", "c4"),
    ("d2", "d3"),
    ("f6", "e5"),  # diagonal: one square between / touching corners
    ("b2", "c3"),
    ("e6", "e5"),
])
def test_idw_spacing_two_away_and_not_diagonally_adjacent(allowed: str, forbidden: str) -> None:
    """002: "at least 2 squares away from all other Castles horizontally and vertically. There must also be at
    least 1 square between them diagonally." """
    g = placed(GAP1, "d4")
    assert g.is_legal(f"castle {allowed}")
    assert not g.is_legal(f"castle {forbidden}")


def test_spacing_applies_to_every_castle_already_placed() -> None:
    g = placed(GAP2, "a1", "h8")
    assert not g.is_legal("castle a3") and not g.is_legal("castle h6")
    assert g.is_legal("castle a4") and g.is_legal("castle h5")
    assert not g.is_legal("castle a1")  # occupied by a castle


def test_edition_spacing_defaults() -> None:
    assert Rules.for_edition("riogrande").spacing is Spacing.ORTHOGONAL_GAP2
    assert Rules.for_edition("ravensburger").spacing is Spacing.ORTHOGONAL_GAP2
    assert Rules.for_edition("idw").spacing is Spacing.GAP1_NO_DIAGONAL
    idw = placed(Rules.for_edition("idw", master=True), "d4")
    rav = placed(Rules.for_edition("ravensburger", master=True), "d4")
    assert idw.is_legal("castle d6") and not rav.is_legal("castle d6")


def test_master_setup_then_knights_on_the_placed_castles() -> None:
    g = placed(GAP2, "a1", "a8", "h1", "h8", "d4", "a5", "e8", "h5")
    assert {str(a) for a in g.legal_actions} == {f"start {c}" for c in ("a1", "a8", "h1", "h8", "d4", "a5", "e8",
                                                                        "h5")}


# --- cards: a full hand, no buying -------------------------------------------------------------------------------
@pytest.mark.parametrize("edition", ["riogrande", "ravensburger", "idw", "yucata"])
def test_master_full_hands_and_no_buying(edition: str) -> None:
    g = GameState(2, 0, Rules.for_edition(edition, master=True))
    assert all(hand == [1] * 10 for hand in g.hands)
    assert g.deck_size(0) == 0
    for c in ("a1", "a8", "h1", "h8", "d4", "a5", "e8", "h5"):
        g.push(f"castle {c}")
    g.push("start a1")
    g.push("start a8")
    g.push("king h8")
    assert g.stage is Stage.TURN
    assert not g.is_legal("buy")
    with pytest.raises(IllegalActionError):
        g.push("buy")
    assert g.is_legal("play six") and g.is_legal("play seven")


# --- the master cards -----------------------------------------------------------------------------------------
def master_scored(card: MasterCard, phase: int, knights: dict[int, list[str]], heights: dict[str, int],
                  players: int = 2, **kw: Any) -> tuple[int, ...]:
    rules = RG.replace(master=True, master_card=int(card))
    rounds = len(rules.stacks_for(players)[phase])
    g = build(players, heights=heights, knights=knights, phase=phase, round=rounds - 1, current=players - 1,
              rules=rules, **kw)
    g.push("end")
    s = g.scorings[-1]
    assert s.phase == phase
    return s.master_bonus


BOARD = {"b2": 1, "b3": 2, "c2": 3, "c3": 4, "b4": 1,  # castle of area 5 with levels 1..4
         "f6": 1, "f7": 1, "g6": 1, "g7": 1}  # castle of area 4, all level 1


def test_different_levels_after_phase3() -> None:
    ok = {0: ["b2", "b3", "c2", "c3", "a1"], 1: ["f6", "f7"]}  # levels 1, 2, 3, 4, 0
    assert master_scored(MasterCard.DIFFERENT_LEVELS, 2, ok, BOARD) == (40, 0)
    assert master_scored(MasterCard.DIFFERENT_LEVELS, 1, ok, BOARD) == (0, 0)  # only after phase 3
    bad = {0: ["b2", "b3", "c2", "c3", "b4"], 1: ["f6", "a1"]}  # b2 and b4 both level 1
    assert master_scored(MasterCard.DIFFERENT_LEVELS, 2, bad, BOARD) == (0, 40)


def test_same_level_after_phase3() -> None:
    ok = {0: ["f6", "f7", "g6", "b2", "b4"], 1: ["c3", "a1"]}  # all level 1 / levels 4 and 0
    assert master_scored(MasterCard.SAME_LEVEL, 2, ok, BOARD) == (50, 0)
    assert master_scored(MasterCard.SAME_LEVEL, 0, ok, BOARD) == (0, 0)


def test_in_a_row_after_phase3_need_not_be_adjacent() -> None:
    ok = {0: ["a5", "c5", "f5", "h5"], 1: ["a1", "b2"]}  # one rank, gaps between
    assert master_scored(MasterCard.IN_A_ROW, 2, ok, BOARD) == (50, 0)
    file = {0: ["e1", "e3", "e8"], 1: ["a1", "b2"]}
    assert master_scored(MasterCard.IN_A_ROW, 2, file, BOARD) == (50, 0)
    bad = {0: ["a5", "c5", "f5", "h6"], 1: ["a1", "b2"]}
    assert master_scored(MasterCard.IN_A_ROW, 2, bad, BOARD) == (0, 0)


def test_square_after_phase3_once_only() -> None:
    ok = {0: ["a1", "a4", "d1", "d4", "h8"], 1: ["b2", "b3"]}
    assert master_scored(MasterCard.SQUARE, 2, ok, BOARD) == (50, 0)
    # two squares (a1-b2 and b1-c2): "You cannot score 100 points for two squares"
    two = {0: ["a1", "a2", "b1", "b2", "c1", "c2"], 1: ["h7", "h5"]}
    assert master_scored(MasterCard.SQUARE, 2, two, BOARD) == (50, 0)
    bad = {0: ["a1", "a4", "d1", "e4"], 1: ["b2", "b3"]}  # not a square
    assert master_scored(MasterCard.SQUARE, 2, bad, BOARD) == (0, 0)
    rect = {0: ["a1", "a3", "d1", "d3"], 1: ["b2", "b3"]}  # a rectangle
    assert master_scored(MasterCard.SQUARE, 2, rect, BOARD) == (0, 0)


def test_border_points_per_knight_and_majority_without_ties() -> None:
    knights = {0: ["a1", "a5", "h3", "d4"], 1: ["e8", "e4"]}  # 3 vs 1 on the border
    assert master_scored(MasterCard.BORDER, 0, knights, BOARD) == (3 * 2 + 2, 1 * 2)
    assert master_scored(MasterCard.BORDER, 1, knights, BOARD) == (3 * 5 + 5, 1 * 5)
    assert master_scored(MasterCard.BORDER, 2, knights, BOARD) == (3 * 10 + 10, 1 * 10)
    tie = {0: ["a1", "a5", "d4"], 1: ["e8", "h4", "e4"]}  # 2 vs 2: no majority bonus
    assert master_scored(MasterCard.BORDER, 1, tie, BOARD) == (10, 10)


def test_castles_exactly_4_5_6_per_phase() -> None:
    heights = {"a1": 1, "a3": 1, "a5": 1, "a7": 1, "c8": 1, "e8": 1, "g8": 1, "h6": 1}
    four = {0: ["a1", "a3", "a5", "a7"], 1: ["c8", "e8", "g8", "h6", "h1"]}
    assert master_scored(MasterCard.CASTLES, 0, four, heights) == (5, 5)  # seat 1: 4 castles + the ground
    three = {0: ["a1", "a3", "a5", "h1"], 1: ["c8", "e8", "g8", "h6", "a7"]}
    assert master_scored(MasterCard.CASTLES, 0, three, heights) == (0, 0)  # 3 and 5 castles
    five = {0: ["a1", "a3", "a5", "a7", "c8"], 1: ["e8", "g8", "h6"]}
    assert master_scored(MasterCard.CASTLES, 0, five, heights) == (0, 0)  # phase 1 wants exactly 4
    assert master_scored(MasterCard.CASTLES, 1, five, heights) == (15, 0)
    six = {0: ["a1", "a3", "a5", "a7", "c8", "e8"], 1: ["g8", "h6"]}
    assert master_scored(MasterCard.CASTLES, 2, six, heights) == (30, 0)
    assert master_scored(MasterCard.CASTLES, 1, six, heights) == (0, 0)
    # two knights on one castle count once
    heights2 = dict(heights, b1=1)
    four_twice = {0: ["a1", "b1", "a3", "a5", "a7"], 1: ["h1"]}
    assert master_scored(MasterCard.CASTLES, 0, four_twice, heights2) == (5, 0)


def test_diagonals_points_per_knight_and_majority_without_ties() -> None:
    knights = {0: ["a1", "h8", "b7", "c5"], 1: ["d4", "c4"]}  # a1, h8 (a1-h8), b7 (a8-h1): 3 vs 1
    assert master_scored(MasterCard.DIAGONALS, 0, knights, BOARD) == (3 * 2 + 2, 2)
    assert master_scored(MasterCard.DIAGONALS, 2, knights, BOARD) == (3 * 10 + 10, 10)
    tie = {0: ["a1", "c5"], 1: ["d4", "c4"]}
    assert master_scored(MasterCard.DIAGONALS, 1, tie, BOARD) == (5, 5)


def test_neighbours_after_phase3() -> None:
    ok = {0: ["a5", "a6", "b6", "c6", "c7"], 1: ["e1", "g1"]}  # one orthogonally connected group
    assert master_scored(MasterCard.NEIGHBOURS, 2, ok, BOARD) == (40, 0)
    assert master_scored(MasterCard.NEIGHBOURS, 1, ok, BOARD) == (0, 0)
    bad = {0: ["a5", "a6", "b6", "d6"], 1: ["e1", "g1"]}
    assert master_scored(MasterCard.NEIGHBOURS, 2, bad, BOARD) == (0, 0)


def test_master_bonus_is_scored_on_the_track() -> None:
    rules = RG.replace(master=True, master_card=int(MasterCard.BORDER))
    g = build(2, heights=BOARD, knights={0: ["a1"], 1: ["d4"]}, phase=0, round=3, current=1, rules=rules)
    g.push("end")
    assert g.scores == [4, 0]  # 2 for the knight, 2 for the majority


def test_basic_game_has_no_master_bonus() -> None:
    g = build(2, heights=BOARD, knights={0: ["a1"], 1: ["d4"]}, phase=0, round=3, current=1, rules=RG)
    g.push("end")
    assert g.scorings[-1].master_bonus == (0, 0) and g.scores == [0, 0]


def test_master_card_drawn_from_the_seed() -> None:
    cards = {GameState(2, seed, RG.replace(master=True)).master_card for seed in range(40)}
    assert cards <= set(range(8)) and len(cards) > 1


# --- turn order -------------------------------------------------------------------------------------------------
def test_master_turn_order_by_score_after_each_round() -> None:
    master = RG.replace(master=True)
    g = build(3, heights=BOARD, knights={0: ["a1"], 1: ["h1"], 2: ["h8"]}, rules=master)
    g.push("score")  # seat 0 -> 1
    g.push("end")
    g.push("score")  # seat 1 -> 2 (1 is taken)
    g.push("end")
    g.push("end")
    assert g.scores == [1, 2, 0]
    assert g.round == 1 and g.current == 1  # the leader starts, then clockwise
    g.push("end")
    assert g.current == 2
    g.push("end")
    assert g.current == 0


def test_master_turn_order_unchanged_while_all_on_the_start_space() -> None:
    g = build(3, heights=BOARD, knights={0: ["a1"], 1: ["h1"], 2: ["h8"]}, rules=RG.replace(master=True),
              start=1, current=1)
    for _ in range(3):
        g.push("end")
    assert g.round == 1 and g.current == 1


def test_basic_game_turn_order_does_not_follow_the_score() -> None:
    g = build(3, heights=BOARD, knights={0: ["a1"], 1: ["h1"], 2: ["h8"]}, rules=RG)
    g.push("end")
    g.push("score")
    g.push("end")
    g.push("end")
    assert g.round == 1 and g.current == 0


def test_master_next_phase_starts_with_the_leader_not_the_king_mover() -> None:
    kw: dict[str, Any] = dict(heights=BOARD, knights={0: ["a1"]}, scores=[10, 3, 7], phase=0, round=3,
                              current=2)
    master = build(3, rules=RG.replace(master=True), **kw)
    basic = build(3, rules=RG, **kw)
    for g in (master, basic):
        g.push("end")
        assert g.stage is Stage.KING_MOVE and g.current == 1
        g.push("king stay")
    assert master.current == 0
    assert basic.current == 1
