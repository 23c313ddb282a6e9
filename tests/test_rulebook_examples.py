"""Every worked example of the rulebooks (/work/shared/rulebooks/), rebuilt as a position the engine evaluates.

000 = Rio Grande English, 001 = yucata.de, 002 = IDW second edition, 003 = Ravensburger German original.
Nothing here knows the answer path: the tests build the board the text describes, let the engine move,
place and score, and compare with the numbers printed in the rulebook.
"""

from __future__ import annotations

import ast
import contextlib
import io
import random
import re
from pathlib import Path
from typing import Any

import pytest

from torres import GameState, IllegalActionError, Rules, Stage
from torres.engine.builder import build
from torres.engine.scoring import PhaseScoring
from torres.engine.squares import parse_square
from torres.engine.state import KING

RIOGRANDE = Rules.for_edition("riogrande")
YUCATA = Rules.for_edition("yucata")
IDW = Rules.for_edition("idw")
RAVENSBURGER = Rules.for_edition("ravensburger")
HEBREW = Rules.for_edition("hebrew")


# --- helpers -------------------------------------------------------------------------------------------------
def scored(players: int, *, phase: int, rules: Rules = RIOGRANDE, start: int = 0, **kw: Any) -> GameState:
    """Build the position at the last turn of ``phase`` and end that turn: the engine scores the phase."""
    rounds = len(rules.stacks_for(players)[phase])
    g = build(players, phase=phase, round=rounds - 1, current=(start + players - 1) % players, start=start,
              rules=rules, **kw)
    before = len(g.scorings)
    g.push("end")
    assert len(g.scorings) == before + 1, "ending the last turn of the phase must score it"
    return g


def last(g: GameState) -> PhaseScoring:
    return g.scorings[-1]


def castle_points(s: PhaseScoring, seat: int, square: str) -> int:
    """Points ``seat`` got for the castle containing ``square`` (0 if none)."""
    return sum(c.points for c in s.castles if c.seat == seat and square in c.castle)


def gained(s: PhaseScoring, seat: int) -> int:
    return s.after[seat] - s.before[seat]


def targets(g: GameState, src: str) -> set[str]:
    """Squares a plain 1-AP move (step or door travel) takes the knight on ``src`` to."""
    out = set()
    for a in g.legal_actions:
        text = str(a)
        if "-" in text and " " not in text and text.startswith(src + "-"):
            out.add(text.split("-")[1])
    return out


# A castle of area 5 with a level-3 square (Rio Grande / IDW "Anna"; German "Beispiel").
AREA5 = {"c3": 3, "c4": 2, "d3": 1, "d4": 1, "c2": 1}
# A king's castle of area 4 with squares on levels 4, 2, 1 and an empty block for the king.
AREA4 = {"c3": 4, "d3": 2, "c4": 1, "d4": 1}


# --- 000 / 002 / 003: the castle-position example -------------------------------------------------------------
@pytest.mark.parametrize("rules", [RIOGRANDE, IDW, RAVENSBURGER, HEBREW], ids=lambda r: r.edition)
def test_anna_level3_on_area5_scores_15(rules: Rules) -> None:
    g = scored(2, phase=0, rules=rules, heights=AREA5, knights={0: ["c3"]})
    s = last(g)
    assert castle_points(s, 0, "c3") == 15
    assert g.scores[0] == 15


def test_riogrande_anna_second_knight_on_level2_adds_nothing() -> None:
    """000: "She would earn no additional points if she had a knight on level 2." """
    g = scored(2, phase=0, heights=AREA5, knights={0: ["c3", "c4"]})
    assert castle_points(last(g), 0, "c3") == 15
    assert g.scores[0] == 15


def test_idw_roger_level2_scores_10_independently_of_anna() -> None:
    """002: "If Roger had a Knight on Level 2 of this Castle, he would score 10 points." """
    g = scored(2, phase=0, rules=IDW, heights=AREA5, knights={0: ["c3"], 1: ["c4"]})
    s = last(g)
    assert castle_points(s, 0, "c3") == 15
    assert castle_points(s, 1, "c4") == 10
    assert g.scores == [15, 10]


def test_castle_without_knight_scores_nothing_and_ground_knight_scores_nothing() -> None:
    g = scored(2, phase=0, heights=AREA5, knights={0: ["e5"]})
    assert g.scores == [0, 0]


# --- 000 Ex. E / F; 002 Examples 1 / 2 ; 003 Abb. E / F: the king's bonus ------------------------------------
def test_riogrande_ex_e_phase1_no_level1_knight_scores_16_only() -> None:
    g = scored(2, phase=0, heights=AREA4, knights={0: ["c3", "d3"]}, king="c4")
    s = last(g)
    assert castle_points(s, 0, "c3") == 16
    assert s.king_bonus[0] == 0
    assert gained(s, 0) == 16


def test_riogrande_ex_e_had_it_been_phase2_scores_26() -> None:
    g = scored(2, phase=1, heights=AREA4, knights={0: ["c3", "d3"]}, king="c4")
    s = last(g)
    assert castle_points(s, 0, "c3") == 16
    assert s.king_bonus[0] == 10
    assert gained(s, 0) == 26


def test_riogrande_ex_f_phase1_level1_bonus_and_level2_position_13() -> None:
    g = scored(2, phase=0, heights=AREA4, knights={0: ["c4", "d3"]}, king="d4")
    s = last(g)
    assert castle_points(s, 0, "c4") == 8  # 4 x 2, the level-2 knight
    assert s.king_bonus[0] == 5  # the level-1 knight
    assert gained(s, 0) == 13


def test_idw_example1_lorenzo_16_in_year1_plus_10_in_year2() -> None:
    year1 = scored(2, phase=0, rules=IDW, heights=AREA4, knights={0: ["c3", "d3"]}, king="c4")
    assert gained(last(year1), 0) == 16
    year2 = scored(2, phase=1, rules=IDW, heights=AREA4, knights={0: ["c3", "d3"]}, king="c4")
    assert last(year2).king_bonus[0] == 10
    assert gained(last(year2), 0) == 26


def test_idw_example2_elizabeth_year2_8_plus_10() -> None:
    g = scored(2, phase=1, rules=IDW, heights=AREA4, knights={0: ["d3", "c4"]}, king="d4")
    s = last(g)
    assert castle_points(s, 0, "d3") == 8  # only the highest knight (level 2) scores: 2 x 4
    assert s.king_bonus[0] == 10
    assert gained(s, 0) == 18


def test_ravensburger_abb_e_phase2_10_plus_16_is_26() -> None:
    g = scored(2, phase=1, rules=RAVENSBURGER, heights=AREA4, knights={0: ["c3", "d3"]}, king="c4")
    s = last(g)
    assert s.king_bonus[0] == 10 and castle_points(s, 0, "c3") == 16
    assert gained(s, 0) == 26


def test_ravensburger_abb_f_phase2_10_plus_8_is_18() -> None:
    """003 Abb. F: bonus for the level-2 knight; it also scores 2 x 4 "da sein anderer Ritter niedriger steht"."""
    g = scored(2, phase=1, rules=RAVENSBURGER, heights=AREA4, knights={0: ["d3", "c4"]}, king="d4")
    s = last(g)
    assert s.king_bonus[0] == 10 and castle_points(s, 0, "d3") == 8
    assert gained(s, 0) == 18


def test_king_bonus_once_per_player_even_with_two_knights_on_the_level() -> None:
    heights = {"c3": 2, "d3": 2, "c4": 1, "d4": 1}
    g = scored(2, phase=1, heights=heights, knights={0: ["c3", "d3"]}, king="c4")
    s = last(g)
    assert s.king_bonus[0] == 10
    assert gained(s, 0) == 8 + 10


def test_king_bonus_level_per_phase_and_several_players() -> None:
    heights = {"c3": 3, "d3": 2, "c4": 1, "d4": 1}
    knights = {0: ["c4"], 1: ["d3"], 2: ["c3"]}
    for phase, winner, amount in ((0, 0, 5), (1, 1, 10), (2, 2, 15)):
        s = last(scored(3, phase=phase, heights=heights, knights=knights, king="d4"))
        assert s.king_bonus == tuple(amount if seat == winner else 0 for seat in range(3)), phase
    # several players on the right level both get it
    heights = {"c3": 2, "d3": 2, "c4": 1, "d4": 1}
    s = last(scored(2, phase=1, heights=heights, knights={0: ["c3"], 1: ["d3"]}, king="c4"))
    assert s.king_bonus == (10, 10)


def test_king_bonus_only_in_the_kings_castle() -> None:
    heights = dict(AREA4, f6=2, f7=1)  # a second castle with a level-2 square, no king
    s = last(scored(2, phase=1, heights=heights, knights={0: ["f6"]}, king="c4"))
    assert s.king_bonus[0] == 0


# --- 001 yucata: the scoring example (black 25 / green 19; 35 with the king's bonus at phase 2) ---------------
# Castles never orthogonally adjacent, no square above its castle's area:
#   {a2 1, a3 2, a4 1} area 3 (the king on a2) · {c4 3, d4 4, c5 1, d5 1} area 4 · {e3, f3, g3} area 3 ·
#   {c1 1, d1 2} area 2.
YUCATA_SCORING = {"a2": 1, "a3": 2, "a4": 1, "c4": 3, "d4": 4, "c5": 1, "d5": 1, "e3": 1, "f3": 1, "g3": 1,
                  "c1": 1, "d1": 2}
BLACK, GREEN = 0, 1
YUCATA_KNIGHTS = {BLACK: ["a3", "d4", "e3"], GREEN: ["a4", "c4", "d1"]}


def test_yucata_scoring_example_board_is_consistent() -> None:
    g = build(2, heights=YUCATA_SCORING, knights=YUCATA_KNIGHTS, king="a2", rules=YUCATA)
    info = g.info
    assert info.castle_count == 4
    for c in range(info.castle_count):
        assert info.top[c] <= info.area[c]
    assert info.area[info.cid[parse_square("a3")]] == 3
    assert info.area[info.cid[parse_square("d4")]] == 4
    assert info.area[info.cid[parse_square("e3")]] == 3
    assert info.area[info.cid[parse_square("d1")]] == 2


def test_yucata_scoring_example_black_25_green_19() -> None:
    g = scored(2, phase=0, rules=YUCATA, heights=YUCATA_SCORING, knights=YUCATA_KNIGHTS, king="a2")
    s = last(g)
    assert [castle_points(s, BLACK, sq) for sq in ("a3", "d4", "e3")] == [6, 16, 3]
    assert [castle_points(s, GREEN, sq) for sq in ("a4", "c4", "d1")] == [3, 12, 4]
    assert s.castle_points(BLACK) == 25 and s.castle_points(GREEN) == 19
    # Phase 1 needs level 1 in the king's castle: green's a4 knight is there, black's is on level 2.
    assert s.king_bonus == (0, 5)


def test_yucata_scoring_example_at_phase2_black_35_green_19() -> None:
    g = scored(2, phase=1, rules=YUCATA, heights=YUCATA_SCORING, knights=YUCATA_KNIGHTS, king="a2")
    s = last(g)
    assert s.king_bonus == (10, 0)
    assert g.scores == [35, 19]


# --- 001 yucata: door travel (the knight at F6) ----------------------------------------------------------------
# The passage (001): "the knight at F6 is trying to move: - C7, F7, and H5 are blocked by knights and the king.
# - E5 can be reached for 2 AP by stepping onto E6 first. - Since E6 is on a higher level than F6, there is a door
# between E6 and F6, so D7 is reachable using 1 AP (and similarly, the door between D7 and D8 allows a knight to get
# from D7 all the way to A5 for a single action point). - Finally even though G6 is adjacent to F6, the knight cannot
# move there because it is 2 levels higher than its current level". The picture is not in the text; two boards on
# which every statement holds, each checked below:
#
# "tests": castles (none orthogonally adjacent to another)
#   A = c6 1, d6 1, e6 1, e5 2   (the door between e6 and f6; exits c7, d7, ...)
#   B = g6 2, h6 1               (g6 two levels above f6; its doors lead to h5)
#   C = d8, c8, b8, a8, a7, a6   (the door between d7 and d8; exits a5, c7, ...)
#   D = f7 1, f8 1               (the king on f7)
#   Black's knight on f6 (level 0); green knights on c7 and h5; the king on f7.
# "docs": the board of docs/api.md and docs/rules.md §5.2 -- f6 (a starting castle) on level 1 in the castle
#   {f6 1, e6 2, e7 2, e5 2, g6 3}; C = d8 2, c8 2, b8 1, a8 1, a7 1, a6 1; the king's castle h5 1.
#   Black's knight on f6; green knights on c7 and f7; the king on h5.
DOORS = {"c6": 1, "d6": 1, "e6": 1, "e5": 2, "g6": 2, "h6": 1,
         "d8": 1, "c8": 1, "b8": 1, "a8": 1, "a7": 1, "a6": 1, "f7": 1, "f8": 1}
DOCS_DOORS = {"f6": 1, "e6": 2, "e7": 2, "e5": 2, "g6": 3, "h5": 1,
              "d8": 2, "c8": 2, "b8": 1, "a8": 1, "a7": 1, "a6": 1}
BOARDS = ["tests", "docs"]


def door_position(blockers: bool = True, board: str = "tests") -> GameState:
    if board == "docs":
        if blockers:
            return build(2, heights=DOCS_DOORS, knights={0: ["f6"], 1: ["c7", "f7"]}, king="h5", rules=YUCATA)
        return build(2, heights=DOCS_DOORS, knights={0: ["f6"], 1: ["b2", "h2"]}, king="a8", rules=YUCATA)
    if blockers:
        return build(2, heights=DOORS, knights={0: ["f6"], 1: ["c7", "h5"]}, king="f7", rules=YUCATA)
    return build(2, heights=DOORS, knights={0: ["f6"], 1: ["b2", "h2"]}, king="f8", rules=YUCATA)


def cheapest(g: GameState, src: str, max_ap: int = 5) -> dict[str, int]:
    """The fewest AP in which the knight on ``src`` reaches each square with plain moves (steps and doors)."""
    best: dict[str, int] = {src: 0}
    frontier = [(g, src)]
    for ap in range(1, max_ap + 1):
        nxt = []
        for state, sq in frontier:
            for dst in targets(state, sq):
                if dst not in best:
                    best[dst] = ap
                    after = state.clone()
                    after.push(f"{sq}-{dst}")
                    nxt.append((after, dst))
        frontier = nxt
    return best


@pytest.mark.parametrize("board", BOARDS)
def test_yucata_door_example_board_is_consistent(board: str) -> None:
    g = door_position(board=board)
    info = g.info
    assert info.castle_count == (4 if board == "tests" else 3)
    for c in range(info.castle_count):
        assert info.top[c] <= info.area[c]
    assert g.level(parse_square("e6")) > g.level(parse_square("f6"))
    assert g.level(parse_square("g6")) == g.level(parse_square("f6")) + 2
    assert g.level(parse_square("d8")) > g.level(parse_square("d7"))


@pytest.mark.parametrize("board", BOARDS)
def test_yucata_door_example_d7_for_one_ap_through_the_e6_door(board: str) -> None:
    g = door_position(board=board)
    assert "d7" in targets(g, "f6")
    g.push("f6-d7")
    assert g.ap == 4


@pytest.mark.parametrize("board", BOARDS)
def test_yucata_door_example_from_d7_a5_for_one_ap_through_the_d8_door(board: str) -> None:
    g = door_position(board=board)
    g.push("f6-d7")
    assert "a5" in targets(g, "d7")
    g.push("d7-a5")
    assert g.ap == 3
    assert g.knights[0] == [parse_square("a5")]


@pytest.mark.parametrize("board", BOARDS)
def test_yucata_door_example_e5_needs_two_ap_via_e6(board: str) -> None:
    g = door_position(board=board)
    assert "e5" not in targets(g, "f6")
    assert not g.is_legal("f6-e5")
    assert cheapest(g, "f6")["e5"] == 2
    g.push("f6-e6")
    assert g.ap == 4 and "e5" in targets(g, "e6")
    g.push("e6-e5")
    assert g.ap == 3


@pytest.mark.parametrize("board", BOARDS)
def test_yucata_door_example_g6_two_levels_up_is_unreachable(board: str) -> None:
    for blockers in (True, False):
        g = door_position(blockers, board)
        assert "g6" not in targets(g, "f6")
        with pytest.raises(IllegalActionError):
            g.push("f6-g6")


@pytest.mark.parametrize("board", BOARDS)
def test_yucata_door_example_c7_f7_h5_blocked_by_knights_and_king(board: str) -> None:
    blocked = door_position(blockers=True, board=board)
    free = door_position(blockers=False, board=board)
    occupants = sorted(blocked.occ[parse_square(sq)] for sq in ("c7", "f7", "h5"))
    assert occupants == [2, 2, KING]  # two (green) knights and the king
    blocked_reach, free_reach = cheapest(blocked, "f6"), cheapest(free, "f6")
    for sq in ("c7", "f7", "h5"):
        assert sq not in blocked_reach, sq
        assert sq in free_reach, f"{sq} must be reachable when nobody stands there"
        if board == "tests":
            assert free_reach[sq] == 1, f"{sq} must be reachable in one move when nobody stands there"


def test_the_api_md_builder_example_is_the_docs_board_and_prints_what_its_comments_say() -> None:
    """docs/api.md's builder example (the door example of docs/rules.md §5.2): run it and compare every printed line
    with the comment on its ``print`` (the text before the comment's ':')."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if 'game.push("f6-d7")' in b]
    assert len(blocks) == 1
    code = blocks[0]
    heights = ast.literal_eval(re.search(r"heights=(\{.*?\})", code, re.S).group(1))  # type: ignore[union-attr]
    assert heights == DOCS_DOORS
    expected = [line.split("#", 1)[1].split(":")[0].strip() for line in code.splitlines()
                if line.startswith("print(")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/api.md", "exec"), {})
    assert out.getvalue().splitlines() == expected


# --- 001 yucata: placing a block ---------------------------------------------------------------------------------
# Castles: P = {c4 1, d4 4, c5 1, d5 1} (area 4), Q = {a4}, R = {e3, f3}, S = {e1}.
PLACING = {"c4": 1, "d4": 4, "c5": 1, "d5": 1, "a4": 1, "e3": 1, "f3": 1, "e1": 1}


def placing_position() -> GameState:
    # Built on the previous player's turn so that seat 0's turn begins the ordinary way (yucata takes the
    # largest stack automatically when the turn begins).
    g = build(2, heights=PLACING, knights={0: ["h8"], 1: ["h7"]}, rules=YUCATA, current=1)
    g.push("end")
    assert g.current == 0 and g.info.castle_count == 4
    assert g.turn_stack > 0  # yucata: the largest stack is taken automatically
    return g


@pytest.mark.parametrize("square", ["a1", "a2", "b1"])
def test_yucata_block_example_not_next_to_a_castle(square: str) -> None:
    assert not placing_position().is_legal(f"block {square}")


def test_yucata_block_example_d4_would_be_taller_than_area_4() -> None:
    g = placing_position()
    assert not g.is_legal("block d4")
    assert g.is_legal("block c4")  # the same castle may still grow elsewhere


@pytest.mark.parametrize("square", ["b4", "d3", "e2", "e4"])
def test_yucata_block_example_would_join_two_castles(square: str) -> None:
    g = placing_position()
    assert not g.is_legal(f"block {square}")


def test_yucata_block_example_controls_are_legal() -> None:
    g = placing_position()
    for square in ("e5", "a3", "g3", "d1", "f2", "c5"):
        assert g.is_legal(f"block {square}"), square
    for square in ("e1", "a4"):  # single-block castles: area 1, already 1 high
        assert not g.is_legal(f"block {square}"), square


# --- 001 yucata: adding a knight -----------------------------------------------------------------------------
def test_yucata_add_knight_b3_higher_than_b2_is_not_allowed() -> None:
    g = build(2, heights={"b2": 1, "b3": 2}, knights={0: ["b2"], 1: ["h8"]}, rules=YUCATA)
    assert not g.is_legal("knight b3")
    assert g.is_legal("knight a2")  # lower: allowed
    assert g.is_legal("knight c2")
    g2 = build(2, heights={"b2": 2, "b3": 2}, knights={0: ["b2"], 1: ["h8"]}, rules=YUCATA)
    assert g2.is_legal("knight b3")  # same level: allowed


# --- the scoring track: one marker per space ------------------------------------------------------------------
def test_track_score_step_skips_several_occupied_spaces() -> None:
    g = build(4, heights=AREA5, knights={0: ["c3"]}, scores=[9, 10, 11, 12])
    g.push("score")
    assert g.scores == [13, 10, 11, 12]
    g2 = build(4, heights=AREA5, knights={0: ["c3"]}, scores=[9, 11, 12, 13])
    g2.push("score")
    assert g2.scores[0] == 10  # a free space is taken as is


def test_track_markers_passed_over_do_not_matter() -> None:
    # seat 0 at 5 scores 15 with markers on 6, 7 (passed) and 21: it stops on 20
    g = scored(4, phase=0, heights=AREA5, knights={0: ["c3"]}, scores=[5, 6, 7, 21])
    assert g.scores[0] == 20


def test_track_bump_after_all_castles_not_per_castle() -> None:
    """000: "If a player's marker would be on one that is already occupied after scoring all his castles"."""
    heights = {"c3": 1, "f6": 1}
    g = scored(2, phase=0, heights=heights, knights={0: ["c3", "f6"]}, scores=[0, 1])
    # 1 + 1 = 2: the intermediate space 1 (occupied) does not matter
    assert g.scores == [2, 1]


def test_track_phase_scoring_lands_on_next_empty_space_past_several_markers() -> None:
    heights = {"c3": 2, "c4": 1}  # area 2, level 2: 4 points
    g = scored(4, phase=0, heights=heights, knights={0: ["c3"]}, scores=[0, 4, 5, 6])
    assert g.scores[0] == 7


@pytest.mark.parametrize("rules", [RIOGRANDE, RAVENSBURGER, YUCATA], ids=lambda r: r.edition)
def test_scoring_order_follows_the_start_player(rules: Rules) -> None:
    # Both seats score 10 from 0: whoever scores first gets 10, the other is pushed to 11.
    heights = {"c3": 2, "c4": 1, "c5": 1, "d4": 1, "d5": 1, "f7": 2, "g7": 1, "g8": 1, "h7": 1, "h8": 1}
    knights = {0: ["c3"], 1: ["f7"]}
    for phase in (0, 1, 2):
        for start, expected in ((0, [10, 11]), (1, [11, 10])):
            g = scored(2, phase=phase, rules=rules, start=start, heights=heights, knights=knights)
            assert last(g).order[0] == start
            assert g.scores == expected, (phase, start, g.scores)
    # three players, all scoring 10, start player 1: clockwise 1, 2, 0
    heights3 = dict(heights, a8=2, b8=1, a7=1, b7=1, a6=1)
    knights3 = {0: ["c3"], 1: ["f7"], 2: ["a8"]}
    g = scored(3, phase=0, rules=rules, start=1, heights=heights3, knights=knights3)
    assert last(g).order == (1, 2, 0)
    assert g.scores == [12, 10, 11]


def test_idw_scoring_order_follows_the_track_from_year2() -> None:
    """002: "After the first round, players score in order of their Knight on the Scoring Track"."""
    # seat 0 at 5 scores 20, seat 1 at 20 scores 5: both aim at 25; the first to score takes it.
    heights = {"c3": 4, "c4": 1, "c5": 1, "d4": 1, "d5": 1, "f7": 1, "g7": 1, "g8": 1, "h7": 1, "h8": 1}
    knights = {0: ["c3"], 1: ["f7"]}
    g = scored(2, phase=1, rules=IDW, start=0, heights=heights, knights=knights, scores=[5, 20])
    assert last(g).order == (1, 0)
    assert g.scores == [26, 25]
    # Rio Grande at the same position: clockwise from the start player
    g = scored(2, phase=1, rules=RIOGRANDE, start=0, heights=heights, knights=knights, scores=[5, 20])
    assert g.scores == [25, 26]
    # IDW Year 1: clockwise ("For the first Year ... in clockwise order")
    g = scored(2, phase=0, rules=IDW, start=0, heights=heights, knights=knights, scores=[5, 20])
    assert g.scores == [25, 26]


# --- phases: rounds per phase and the 4-player PHASES card example -------------------------------------------
def _turns_per_phase(players: int, rules: Rules) -> tuple[list[int], list[list[list[int]]]]:
    g = GameState(players, 0, rules)
    while g.stage is not Stage.TURN:
        g.push(g.legal_actions[0])
    turns = [0, 0, 0]
    stacks_at_start = [[list(s) for s in g.stacks]]
    while not g.is_over():
        if g.stage is Stage.TURN:
            turns[g.phase] += 1
            g.push("end")
        elif g.stage is Stage.KING_MOVE:
            g.push("king stay")
            if g.stage is Stage.CHOOSE_FIRST:
                g.push("first 0")
            stacks_at_start.append([list(s) for s in g.stacks])
        else:
            raise AssertionError(g.stage)
    return turns, stacks_at_start


@pytest.mark.parametrize("players,rounds", [(2, (4, 4, 4)), (3, (4, 3, 3)), (4, (4, 3, 3))])
@pytest.mark.parametrize("rules", [RIOGRANDE, IDW, RAVENSBURGER, YUCATA, HEBREW], ids=lambda r: r.edition)
def test_rounds_per_phase(players: int, rounds: tuple[int, int, int], rules: Rules) -> None:
    """000: "The first phase lasts for four rounds. Each of the second and third phases lasts for three rounds
    (except in a two player game when all three phases are four rounds)." """
    turns, _ = _turns_per_phase(players, rules)
    assert turns == [r * players for r in rounds]


def test_four_player_phases_card_example() -> None:
    """000: "Phase 1: Each player takes 4 stacks with 2 tower blocks each. Phase 2: ... 3 stacks with 2 tower
    blocks each. Phase 3: ... 3 stacks with 2 tower blocks each." """
    _, stacks = _turns_per_phase(4, RIOGRANDE)
    assert stacks == [[[2, 2, 2, 2]] * 4, [[2, 2, 2]] * 4, [[2, 2, 2]] * 4]


def test_idw_no_block_on_a_square_with_a_knight_or_the_king() -> None:
    """002: "You cannot add a Castle Building block to a square that is occupied by a Knight or the King"."""
    g = build(2, heights={"c3": 1, "c4": 1, "c5": 1}, knights={0: ["c4"], 1: ["h8"]}, king="c5", rules=IDW)
    g.push("stack 3")
    assert g.is_legal("block c3")
    assert not g.is_legal("block c4") and not g.is_legal("block c5")


def test_knight_moves_one_level_up_any_number_down_never_onto_a_piece() -> None:
    """000 Ex. A/B/C: up one level per move, down any number; never onto a knight or the king."""
    heights = {"c3": 1, "c4": 2, "d4": 3, "b4": 4, "b5": 1}  # one castle, area 5
    g = build(2, heights=heights, knights={0: ["c4", "a1"], 1: ["c5"]}, king="b5")
    assert g.is_legal("c4-d4")  # 2 -> 3
    assert not g.is_legal("c4-b4")  # 2 -> 4
    assert g.is_legal("c4-c3")  # 2 -> 1
    assert not g.is_legal("c4-c5")  # a knight
    with pytest.raises(IllegalActionError):
        g.push("a1-b2")  # diagonal (no door next to a1)
    g.push("c4-d4")
    assert g.is_legal("d4-d3")  # 3 -> 0
    g2 = build(2, heights=heights, knights={0: ["a5"], 1: ["h8"]}, king="b5")
    assert not g2.is_legal("a5-b5")  # the king


def test_block_in_a_notch_touching_one_castle_twice_is_allowed() -> None:
    g = build(2, heights={"c3": 1, "c4": 1, "d4": 1}, knights={0: ["h8"], 1: ["h1"]})
    g.push("stack 3")
    assert g.is_legal("block d3")  # next to c3 and d4, both of the same castle
    g.push("block d3")
    assert g.info.castle_count == 1 and g.info.area[g.info.cid[parse_square("d3")]] == 4


def test_a_larger_area_allows_a_taller_castle() -> None:
    """000: "a castle may never be taller than its surface area" — the limit follows the area as it grows."""
    g = build(2, heights={"c3": 2, "c4": 1}, knights={0: ["h8"], 1: ["h1"]})
    g.push("stack 3")
    assert not g.is_legal("block c3")
    g.push("block d3")
    assert g.is_legal("block c3")
    g.push("block c3")
    assert not g.is_legal("block c3")
    g.pop()
    g.pop()
    assert not g.is_legal("block c3")  # taking back restores the smaller area


def test_turns_before_scoring_are_the_stacks_left() -> None:
    """"The stacks of tower blocks before a player indicate how many turns he has left in this year/phase"
    (000): at the start of every turn of a seeded game, each seat's turns before the coming scoring (the turn
    about to be played included) are its stacks."""
    rng = random.Random(5)
    state = GameState(2, 5, Rules())
    seen = set()
    while not state.is_over():
        turn = (state.phase, state.round, state.turn)
        if state.stage is Stage.TURN and turn not in seen:
            seen.add(turn)
            assert state.turns_before_scoring() == [len(state.stacks[s]) for s in range(state.n)]
        state.push(rng.choice(state.legal_action_ids()), check=False)
    assert len(seen) == 24  # 12 rounds, 2 seats
