"""Edition settings (torres/engine/rules.py): each test runs the same position under two settings and checks
that the behaviour differs exactly the way the rulebook says — so it fails if the setting were ignored.

Plus: every edition × 2/3/4 players × master on/off plays a complete seeded random game, with the 92 blocks
conserved after every action.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from torres import GameState, IllegalActionError, Rules, Stage
from torres.engine.builder import build
from torres.engine.cards import Card
from torres.engine.rules import (
    CardMode, ClimbCard, NextStarter, PhaseEndBlocks, ScoringOrder, Spacing, StackChoice, StartPlayer,
    VaultOver,
)

RG = Rules.for_edition("riogrande")
RAV = Rules.for_edition("ravensburger")
IDW = Rules.for_edition("idw")
YUC = Rules.for_edition("yucata")
HEB = Rules.for_edition("hebrew")
EDITIONS = Rules.edition_names()

# Two castles far apart, used where the board does not matter.
PLAIN = {"c3": 1, "f6": 1}


def blocks_accounted(g: GameState) -> int:
    return sum(g.heights) + sum(sum(s) for s in g.stacks) + max(g.turn_stack, 0) + sum(g.carry) + g.supply


def turn_of(seat: int, players: int, rules: Rules, **kw: Any) -> GameState:
    """A position where ``seat``'s turn has just begun the ordinary way (the previous seat pushed ``end``), so
    that automatic start-of-turn effects (yucata's largest stack) have happened."""
    g = build(players, current=(seat - 1) % players, rules=rules, **kw)
    g.push("end")
    assert g.current == seat and g.stage is Stage.TURN
    return g


def end_of_phase(players: int, rules: Rules, *, phase: int = 0, start: int = 0, **kw: Any) -> GameState:
    rounds = len(rules.stacks_for(players)[phase])
    g = build(players, phase=phase, round=rounds - 1, current=(start + players - 1) % players, start=start,
              rules=rules, **kw)
    g.push("end")
    return g


# --- card_mode -------------------------------------------------------------------------------------------------
def test_card_mode_own_deck_draws_three_common_deck_draws_one() -> None:
    own = GameState(2, 3, RG.replace(card_mode=CardMode.OWN))
    common = GameState(2, 3, RG.replace(card_mode=CardMode.COMMON))
    assert [own.deck_size(0), own.deck_size(1)] == [10, 10]
    assert common.deck_size(0) == 40 and not own.common
    for g in (own, common):
        g.play(["start c3", "start f6", "king a4", "stack 3"])
    own.push("buy")
    assert own.stage is Stage.KEEP and len(own.drawn) == 3
    top = common.common[-1]
    common.push("buy")
    assert common.stage is Stage.TURN
    assert common.hands[0][top] == 1 and sum(common.hands[0]) == 1 and common.deck_size(0) == 39


def test_default_card_mode_per_edition() -> None:
    """003: "Alle Aktionskarten werden zusammengemischt" is the basic game; the others deal own decks."""
    assert RAV.card_mode is CardMode.COMMON
    assert RG.card_mode is IDW.card_mode is YUC.card_mode is CardMode.OWN


# --- full_hand (yucata option) -------------------------------------------------------------------------------------
def test_full_hand_option_all_ten_cards_and_no_buying() -> None:
    full = GameState(2, 1, YUC.replace(full_hand=True))
    plain = GameState(2, 1, YUC)
    assert full.hands[0] == [1] * 10 and plain.hands[0] == [0] * 10
    for g in (full, plain):
        g.play(["start c3", "start f6", "king a4"])
    assert not full.is_legal("buy")
    assert plain.is_legal("buy")
    assert full.is_legal("play six") and not plain.is_legal("play six")


# --- stack_choice ------------------------------------------------------------------------------------------------
def test_stack_choice_player_picks_largest_is_automatic() -> None:
    kw: dict[str, Any] = dict(heights=PLAIN, knights={0: ["h8"], 1: ["h1"]}, stacks={0: [3, 2], 1: [3, 2]})
    player = turn_of(0, 2, RG.replace(stack_choice=StackChoice.PLAYER), **kw)
    largest = turn_of(0, 2, RG.replace(stack_choice=StackChoice.LARGEST), **kw)
    # the player chooses: both heights offered, no block before choosing
    assert player.is_legal("stack 2") and player.is_legal("stack 3")
    assert player.turn_stack < 0 and not player.is_legal("block c4")
    player.push("stack 2")
    assert player.turn_stack == 2 and player.stacks[0] == [3]
    # yucata: "The stack chosen is automatically the one with the most number of blocks."
    assert largest.turn_stack == 3 and largest.stacks[0] == [2]
    assert not largest.is_legal("stack 2") and largest.is_legal("block c4")


# --- stack_cap / leftover / yucata 2 players ----------------------------------------------------------------------
def _leftover_after_unused_turn(rules: Rules, players: int, stacks: list[int]) -> tuple[list[int], int]:
    g = turn_of(0, players, rules, heights=PLAIN, knights={0: ["h8"], 1: ["h1"]},
                stacks={s: stacks for s in range(players)})
    if rules.stack_choice is StackChoice.PLAYER:
        g.push(f"stack {max(stacks)}")
    supply = g.supply
    g.push("end")
    return sorted(g.stacks[0], reverse=True), g.supply - supply


def test_stack_cap_three_versus_uncapped() -> None:
    """000: "no stack may ever be taller than three blocks ... the extra blocks are returned"; 001 (3-4 players):
    "Such stacks may be of any height"."""
    capped = RG.replace(stack_cap=3)
    uncapped = RG.replace(stack_cap=0)
    assert _leftover_after_unused_turn(capped, 4, [2, 2, 2, 2]) == ([3, 3, 2], 0)
    # with no cap the unused blocks all roll onto the next turn's (tallest) stack
    assert _leftover_after_unused_turn(uncapped, 4, [2, 2, 2, 2]) == ([4, 2, 2], 0)
    # all other stacks full: capped returns the blocks to the supply, uncapped keeps them
    assert _leftover_after_unused_turn(capped, 4, [3, 3, 3]) == ([3, 3], 3)
    stacks, returned = _leftover_after_unused_turn(uncapped, 4, [3, 3, 3])
    assert returned == 0 and sum(stacks) == 9


def test_yucata_stacks_uncapped_with_3_or_4_players_and_rolled_into_the_next() -> None:
    assert _leftover_after_unused_turn(YUC, 4, [2, 2, 2, 2]) == ([4, 2, 2], 0)
    stacks, returned = _leftover_after_unused_turn(YUC, 3, [3, 3, 2, 2])
    assert stacks == [6, 2, 2] and returned == 0
    # the rolled stack is next turn's stack, and may build more than three blocks in one turn
    g = turn_of(0, 4, YUC, heights={"c3": 1, "c4": 1, "c5": 1, "c6": 1, "c7": 1}, knights={0: ["h8"], 1: ["h1"]},
                stacks={s: [2, 2, 2, 2] for s in range(4)})
    g.push("end")
    for _ in range(3):
        g.push("end")
    assert g.current == 0 and g.turn_stack == 4
    for sq in ("c3", "c4", "c5", "c6"):
        g.push(f"block {sq}")
    assert g.turn_stack == 0


def test_yucata_two_players_stack_cap_is_three() -> None:
    """001: "In a 2-player game, size of a player's stack may not exceed 3 and any unused blocks ... are
    automatically placed into the next stacks that can fit them." (3 players: no cap.)"""
    assert _leftover_after_unused_turn(YUC, 2, [3, 3, 3, 3]) == ([3, 3, 3], 3)
    assert _leftover_after_unused_turn(YUC, 2, [3, 2, 2, 2]) == ([3, 3, 3], 0)
    assert _leftover_after_unused_turn(YUC, 2, [3, 3, 2, 2]) == ([3, 3, 3], 1)
    assert _leftover_after_unused_turn(YUC, 3, [3, 3, 3, 3]) == ([6, 3, 3], 0)


# --- phase_end_blocks -------------------------------------------------------------------------------------------
def _blocks_after_phase(rules: Rules) -> tuple[list[int], GameState]:
    g = end_of_phase(4, rules, heights=PLAIN, knights={0: ["h8"]}, stacks={s: [2] for s in range(4)})
    assert g.stage is Stage.KING_MOVE
    g.push("king stay")
    if g.stage is Stage.CHOOSE_FIRST:
        g.push("first 0")
    assert g.stage is Stage.TURN and g.phase == 1
    assert blocks_accounted(g) == 92
    return sorted(g.stacks[3], reverse=True), g


def test_phase_end_blocks_returned_versus_kept_for_next_year() -> None:
    """000/003: left-over blocks go back to the supply; 002: "you may save them for the next Year, distributing
    them between your new Towers ... No Tower can ever be higher than 3"."""
    returned, g1 = _blocks_after_phase(RG.replace(phase_end_blocks=PhaseEndBlocks.RETURN))
    kept, g2 = _blocks_after_phase(RG.replace(phase_end_blocks=PhaseEndBlocks.KEEP))
    assert returned == [2, 2, 2]
    assert kept == [3, 3, 2]
    assert g1.supply == g2.supply + 4 * 2


def test_idw_keeps_blocks_but_never_above_three() -> None:
    g = end_of_phase(2, IDW, heights=PLAIN, knights={0: ["h8"]}, stacks={0: [3], 1: [3]})
    g.push("king stay")
    g.push("first 0")
    # 2 players: Year 2 towers are 3,3,3,3 already: the kept blocks go back to the supply
    assert g.stacks[0] == [3, 3, 3, 3] and sum(g.carry) == 0
    assert blocks_accounted(g) == 92


# --- next_starter -------------------------------------------------------------------------------------------------
def _after_scoring(rules: Rules) -> GameState:
    g = end_of_phase(3, rules, heights=PLAIN, knights={0: ["h8"]}, scores=[10, 3, 7])
    assert g.stage is Stage.KING_MOVE and g.current == 1  # the lowest scorer may move the king
    g.push("king stay")
    return g


def test_next_starter_king_mover_unchanged_or_chosen() -> None:
    mover = _after_scoring(RG.replace(next_starter=NextStarter.KING_MOVER))
    unchanged = _after_scoring(RG.replace(next_starter=NextStarter.UNCHANGED))
    chosen = _after_scoring(RG.replace(next_starter=NextStarter.CHOSEN_BY_LOWEST))
    # 000: "Play then continues with the player who was given the opportunity to move the king."
    assert mover.stage is Stage.TURN and mover.current == 1
    # 003: "das Spiel wird im Uhrzeigersinn fortgesetzt"
    assert unchanged.stage is Stage.TURN and unchanged.current == 0
    # 002: "The player who has the fewest points ... chooses which player will take the first turn"
    assert chosen.stage is Stage.CHOOSE_FIRST and chosen.current == 1
    assert {str(a) for a in chosen.legal_actions} == {"first 0", "first 1", "first 2"}
    chosen.push("first 2")
    assert chosen.stage is Stage.TURN and chosen.current == 2


# --- scoring_order ---------------------------------------------------------------------------------------------
def test_scoring_order_turn_order_versus_track() -> None:
    heights = {"c3": 4, "c4": 1, "c5": 1, "d4": 1, "d5": 1, "f7": 1, "g7": 1, "g8": 1, "h7": 1, "h8": 1}
    kw: dict[str, Any] = dict(heights=heights, knights={0: ["c3"], 1: ["f7"]}, scores=[5, 20], phase=1)
    turn = end_of_phase(2, RG.replace(scoring_order=ScoringOrder.TURN_ORDER), **kw)
    track = end_of_phase(2, RG.replace(scoring_order=ScoringOrder.TRACK), **kw)
    # both aim at 25; the first to score takes it
    assert turn.scorings[-1].order == (0, 1) and turn.scores == [25, 26]
    assert track.scorings[-1].order == (1, 0) and track.scores == [26, 25]


# --- start_player ------------------------------------------------------------------------------------------------
def test_start_player_first_seat_versus_random() -> None:
    """000/002/003: the youngest (seat 0) starts; 001: "The player to start is chosen randomly"."""
    firsts = {GameState(4, seed, RG.replace(start_player=StartPlayer.FIRST_SEAT)).current for seed in range(30)}
    randoms = {GameState(4, seed, RG.replace(start_player=StartPlayer.RANDOM)).current for seed in range(30)}
    assert firsts == {0}
    assert randoms == {0, 1, 2, 3}
    # the same seed gives the same start player
    assert GameState(4, 7, YUC).current == GameState(4, 7, YUC).current


# --- king_move_other_castle -----------------------------------------------------------------------------------
def test_king_move_same_castle_allowed_or_not() -> None:
    heights = {"c3": 1, "c4": 1, "f6": 1, "f7": 1}
    kw: dict[str, Any] = dict(heights=heights, knights={0: ["h8"], 1: ["f7"]}, king="c3")
    anywhere = end_of_phase(2, RG.replace(king_move_other_castle=False), **kw)
    other = end_of_phase(2, RG.replace(king_move_other_castle=True), **kw)
    for g in (anywhere, other):
        assert g.stage is Stage.KING_MOVE
        assert g.is_legal("king f6") and g.is_legal("king stay")
        assert not g.is_legal("king f7")  # occupied by a knight
        assert not g.is_legal("king e5")  # not a castle
    # 000: "any empty space of any castle"; 002/003: "to any other Castle" / "auf eine andere Burg"
    assert anywhere.is_legal("king c4")
    assert not other.is_legal("king c4")


# --- vault_over ---------------------------------------------------------------------------------------------------
def test_vault_over_own_knight_depends_on_edition() -> None:
    kw: dict[str, Any] = dict(heights=PLAIN, knights={0: ["d4", "d5", "c4"], 1: ["b4"]}, hands={0: [Card.VAULT]})
    anyk = build(2, rules=RG.replace(vault_over=VaultOver.ANY_KNIGHT), **kw)
    opp = build(2, rules=RG.replace(vault_over=VaultOver.OPPONENT_KNIGHT), **kw)
    # over the opponent's knight on b4 (from c4 to a4): both
    assert anyk.is_legal("play vault c4-a4") and opp.is_legal("play vault c4-a4")
    # over the own knight on d5 (from d4 to d6): 000 "past one other knight"; 003 "einen fremden Ritter"
    assert anyk.is_legal("play vault d4-d6")
    assert not opp.is_legal("play vault d4-d6")


# --- shift_level_one ----------------------------------------------------------------------------------------------
def test_shift_level_one_yucata_restriction() -> None:
    """001: "The tower block taken must be at level 1 and must be placed onto a space so that the level of the
    space is 1 after placing the block." """
    heights = {"a1": 1, "a3": 1, "a5": 1, "a7": 1, "c7": 1, "e7": 1, "h1": 1, "c3": 2, "c4": 1, "d3": 1}
    kw: dict[str, Any] = dict(heights=heights, knights={0: ["h8"], 1: ["h6"]}, hands={0: [Card.SHIFT]})
    free = build(2, rules=RG.replace(shift_level_one=False), **kw)
    level1 = build(2, rules=RG.replace(shift_level_one=True), **kw)
    # the top block of a 2-high square to the ground far from castles
    assert free.is_legal("play shift c3-f4") and not level1.is_legal("play shift c3-f4")
    # a level-1 block onto another castle's block (level 2 after)
    assert free.is_legal("play shift d3-c4") and not level1.is_legal("play shift d3-c4")
    # a level-1 block to the ground (level 1 after): both
    assert free.is_legal("play shift d3-f4") and level1.is_legal("play shift d3-f4")


# --- climb_card ----------------------------------------------------------------------------------------------------
def test_climb_card_up_to_two_versus_exactly_two() -> None:
    heights = {"c3": 1, "c4": 3, "d3": 2, "c2": 4, "b3": 1}
    kw: dict[str, Any] = dict(heights=heights, knights={0: ["c3"], 1: ["h8"]}, hands={0: [Card.CLIMB]})
    up_to = build(2, rules=RG.replace(climb_card=ClimbCard.UP_TO_TWO), **kw)
    exact = build(2, rules=RG.replace(climb_card=ClimbCard.EXACTLY_TWO), **kw)
    assert up_to.is_legal("play climb c3-c4") and exact.is_legal("play climb c3-c4")  # +2
    assert up_to.is_legal("play climb c3-d3") and not exact.is_legal("play climb c3-d3")  # +1
    assert not up_to.is_legal("play climb c3-c2") and not exact.is_legal("play climb c3-c2")  # +3


# --- spacing (master castle placement) -----------------------------------------------------------------------------
def test_spacing_settings_differ_on_the_same_board() -> None:
    gap2 = GameState(2, 1, RG.replace(master=True, spacing=Spacing.ORTHOGONAL_GAP2))
    gap1 = GameState(2, 1, RG.replace(master=True, spacing=Spacing.GAP1_NO_DIAGONAL))
    for g in (gap2, gap1):
        g.push("castle d4")
    # two squares in line (one empty square between): only the "not in the 8-neighbourhood" reading allows it
    assert gap1.is_legal("castle d6") and not gap2.is_legal("castle d6")
    assert gap1.is_legal("castle f4") and not gap2.is_legal("castle f4")
    # diagonal neighbour: neither
    assert not gap1.is_legal("castle e5") and not gap2.is_legal("castle e5")


# --- the edition presets name the rulebook differences ----------------------------------------------------------
def test_edition_presets() -> None:
    assert RG.phase_end_blocks is PhaseEndBlocks.RETURN and IDW.phase_end_blocks is PhaseEndBlocks.KEEP
    assert IDW.scoring_order is ScoringOrder.TRACK and RG.scoring_order is ScoringOrder.TURN_ORDER
    assert IDW.next_starter is NextStarter.CHOSEN_BY_LOWEST and RAV.next_starter is NextStarter.UNCHANGED
    assert RG.next_starter is NextStarter.KING_MOVER and YUC.next_starter is NextStarter.KING_MOVER
    assert YUC.start_player is StartPlayer.RANDOM and RG.start_player is StartPlayer.FIRST_SEAT
    assert YUC.stack_choice is StackChoice.LARGEST and RG.stack_choice is StackChoice.PLAYER
    assert RAV.vault_over is VaultOver.OPPONENT_KNIGHT and RG.vault_over is VaultOver.ANY_KNIGHT
    assert YUC.shift_level_one and not RG.shift_level_one
    assert IDW.spacing is Spacing.GAP1_NO_DIAGONAL and RG.spacing is Spacing.ORTHOGONAL_GAP2
    # 004 (Hebrew translation of 003): common deck and "einen fremden Ritter", but the king "in any empty castle"
    # and "the player who moved the king is the first player in the next phase"
    assert HEB.card_mode is CardMode.COMMON and HEB.vault_over is VaultOver.OPPONENT_KNIGHT
    assert HEB.next_starter is NextStarter.KING_MOVER and not HEB.king_move_other_castle
    assert RAV.shift_six_every_moment and HEB.shift_six_every_moment and not RG.shift_six_every_moment
    for r in (RG, RAV, IDW, YUC, HEB):
        assert r.climb_card is ClimbCard.EXACTLY_TWO  # "two levels up ... e.g. from level 1 to level 3"
        assert r.knights_per_player == 6  # IDW: 7 knights, one of them marks the score
        assert r.action_points == 5 and r.max_buys == 2 and r.blocks_total == 92


def test_rules_text_round_trip() -> None:
    r = IDW.replace(master=True, card_mode="common")
    assert Rules.from_text(r.to_text()) == r
    strict = RG.replace(lift_counts_toward_three=True)
    assert strict.to_text() == "riogrande:lift_counts_toward_three=1"
    assert Rules.from_text(strict.to_text()) == strict
    assert Rules.from_text("yucata:lift_counts_toward_three=0") == YUC


def test_lift_counts_toward_three_is_off_in_every_edition() -> None:
    # no rulebook settles whether the lift card's block is one of the "three tower blocks in a turn" (000): the
    # card exception is the default everywhere, the strict reading an option (docs/rules.md §6.3)
    for r in (RG, RAV, IDW, YUC, HEB):
        assert not r.lift_counts_toward_three


# --- shift_six_every_moment ---------------------------------------------------------------------------------
def test_shift_six_castles_at_every_moment() -> None:
    """003: "Es müssen aber zu jedem Zeitpunkt mindestens 6 Burgen auf dem Spielplan vorhanden sein." versus 000:
    "you may not reduce the total number of castles below six" (the count after the move)."""
    heights = {"a1": 1, "a3": 1, "a5": 1, "a7": 1, "c7": 1, "e7": 1}  # exactly six one-block castles
    kw: dict[str, Any] = dict(heights=heights, knights={0: ["h8"], 1: ["h6"]}, hands={0: [Card.SHIFT]})
    after = build(2, rules=RG.replace(shift_six_every_moment=False), **kw)
    moment = build(2, rules=RG.replace(shift_six_every_moment=True), **kw)
    # a lone block to a new castle elsewhere: six before and after, five in between
    assert after.is_legal("play shift a1-d4")
    assert not moment.is_legal("play shift a1-d4")
    assert not after.is_legal("play shift a1-a3")  # five after: never
    # with seven castles both allow it
    kw["heights"] = dict(heights, g7=1)
    assert build(2, rules=RG.replace(shift_six_every_moment=True), **kw).is_legal("play shift a1-d4")


# --- builder vs. turn start -----------------------------------------------------------------------------------
def test_built_yucata_position_has_its_largest_stack_taken() -> None:
    g = build(2, heights=PLAIN, knights={0: ["h8"], 1: ["h1"]}, rules=YUC)
    assert g.turn_stack == 3 and g.stacks[0] == [3, 3, 3]
    assert g.is_legal("block c4")
    assert blocks_accounted(g) == 92


# --- complete random games ------------------------------------------------------------------------------------
def _random_game(edition: str, players: int, master: bool, seed: int) -> tuple[GameState, list[str]]:
    """Play a seeded random game to the end; return it and the position before every action."""
    rules = Rules.for_edition(edition, master=master)
    g = GameState(players, seed, rules)
    rng = random.Random(seed * 1000 + players * 10 + master)
    positions: list[str] = []
    while not g.is_over():
        actions = g.legal_actions
        assert actions, f"no legal action in {g!r}"
        # prefer doing something over ending the turn, so that games build, buy and play cards
        choices = [a for a in actions if str(a) != "end"]
        pick = rng.choice(choices) if choices and rng.random() < 0.85 else rng.choice(actions)
        positions.append(g.position())
        g.push(pick)
        assert blocks_accounted(g) == 92, f"blocks not conserved after {pick} in {g!r}"
        assert all(len(k) <= rules.knights_per_player for k in g.knights)
        assert g.supply >= 0
        assert len(positions) < 5000
    return g, positions


@pytest.mark.parametrize("master", [False, True], ids=["basic", "master"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("edition", EDITIONS)
def test_random_game_to_the_end(edition: str, players: int, master: bool) -> None:
    g, positions = _random_game(edition, players, master, seed=players + 7 * master)
    assert g.stage is Stage.OVER
    assert len(g.scorings) == 3
    assert [s.phase for s in g.scorings] == [0, 1, 2]
    assert g.scorings[-1].after == tuple(g.scores)
    moved = [s for s in g.scores if s]
    assert len(set(moved)) == len(moved)  # never two markers on one space (but the start space)
    with pytest.raises(IllegalActionError):
        g.push("end")
    # taking back every action restores every earlier position exactly (decks, hands and scorings included)
    for before in reversed(positions):
        g.pop()
        assert g.position() == before
