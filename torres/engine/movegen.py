"""Legal action generation, and the reason an action is illegal.

Kept apart from the state so the hot loops read top to bottom. Every rule here is in docs/rules.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import (
    ACTION_POINTS, DECODE, KEEP_TABLE, Kind, MAX_STACK, O_BLOCK, O_BUILD, O_BUY, O_CASTLE, O_CLIMB, O_DIAGONAL, O_END, O_FIRST,
    O_GATE, O_KEEP, O_KING, O_KING_STAY, O_KNIGHT, O_LIFT, O_MOVE, O_REDEPLOY, O_SCORE, O_SEVEN, O_SHIFT, O_SIX,
    O_STACK, O_START, O_VAULT, PLAY_KINDS, format_action,
)
from .cards import Card
from .rules import CardMode, ClimbCard, Spacing, StackChoice, VaultOver
from .squares import DIAG_STEP, ORTHO_STEP, ORTHO_STEP2, ORTHOGONAL, square_name
from .stage import Stage

if TYPE_CHECKING:
    from .board import BoardInfo
    from .state import GameState

_KEEP_ROWS: dict[tuple[int, frozenset[int]], list[int]] = {}
for _row, (_keep, _top, _bottom) in enumerate(KEEP_TABLE):
    _KEEP_ROWS.setdefault((_keep, frozenset(_top + _bottom)), []).append(O_KEEP + _row)


def legal_ids(state: "GameState") -> list[int]:
    stage = state.stage
    if stage is Stage.TURN:
        out = _turn_actions(state)
    elif stage is Stage.KEEP:
        out = _keep_actions(state)
    elif stage is Stage.KNIGHTS:
        out = [O_START + sq for sq in _free_castle_squares(state)]
    elif stage is Stage.KING_SETUP:
        out = [O_KING + sq for sq in _free_castle_squares(state)]
    elif stage is Stage.KING_MOVE:
        out = [O_KING_STAY] + [O_KING + sq for sq in king_targets(state)]
    elif stage is Stage.CHOOSE_FIRST:
        out = [O_FIRST + seat for seat in range(state.n)]
    elif stage is Stage.CASTLES:
        out = [O_CASTLE + sq for sq in castle_sites(state)]
    else:
        out = []
    out.sort()
    return out


def _free_castle_squares(state: "GameState") -> list[int]:
    """Setup: squares of castles with no knight on them ("each player places one of their knights on an empty
    castle"; "the last player places the king on any empty castle")."""
    info, occ = state.info, state.occ
    taken = {info.cid[sq] for squares in state.knights for sq in squares}
    return [sq for sq in range(64) if info.cid[sq] >= 0 and info.cid[sq] not in taken and not occ[sq]]


def king_targets(state: "GameState") -> list[int]:
    """After a scoring: "any empty space of any castle on any level" (000_…); some editions: another castle."""
    info, occ = state.info, state.occ
    avoid = info.cid[state.king] if state.rules.king_move_other_castle and state.king >= 0 else -2
    return [sq for sq in range(64) if info.cid[sq] >= 0 and not occ[sq] and info.cid[sq] != avoid]


def castle_sites(state: "GameState") -> list[int]:
    """Master version: empty squares far enough from every castle under the edition's spacing rule."""
    h = state.heights
    castles = [sq for sq in range(64) if h[sq]]
    spacing = state.rules.spacing
    out = []
    for sq in range(64):
        if h[sq]:
            continue
        f, r = sq & 7, sq >> 3
        ok = True
        for c in castles:
            dx, dy = abs((c & 7) - f), abs((c >> 3) - r)
            if spacing is Spacing.ORTHOGONAL_GAP2:
                # "at least 2 empty spaces between it and any other castle ... measured by moving orthogonally"
                ok = dx + dy >= 3
            else:
                # "at least 2 squares away ... horizontally and vertically ... at least 1 square between them
                # diagonally": never in the 8-neighbourhood.
                ok = max(dx, dy) >= 2
            if not ok:
                break
        if ok:
            out.append(sq)
    return out


def _keep_actions(state: "GameState") -> list[int]:
    drawn = state.drawn
    out: list[int] = []
    for keep in drawn:
        others = frozenset(c for c in drawn if c != keep)
        out.extend(_KEEP_ROWS[(keep, others)])
    return out


def _emit(out: list[int], base: int, mask: int) -> None:
    """Append ``base + sq`` for every set bit ``sq`` of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        out.append(base + low.bit_length() - 1)
        mask ^= low


def _turn_actions(state: "GameState") -> list[int]:
    seat = (state.start + state.turn) % state.n
    info = state.info
    mine = state.knights[seat]
    ap = state.ap
    free = ~state.occupied
    out: list[int] = [O_END]
    append = out.append
    if ap >= 1:
        append(O_SCORE)
        move_masks = info.move_masks
        for src in mine:
            reach = move_masks[src]
            if reach < 0:
                reach = info.move_mask(src)
            reach &= free
            base = O_MOVE + src * 64 - 1
            while reach:
                low = reach & -reach
                append(base + low.bit_length())
                reach ^= low
        if state.turn_stack > 0:
            _emit(out, O_BLOCK, info.placeable_mask() & free)
        if state.buys < state.rules.max_buys and _can_buy(state, seat):
            append(O_BUY)
    if state.turn_stack < 0 and state.rules.stack_choice is StackChoice.PLAYER:
        for height in set(state.stacks[seat]):
            append(O_STACK + height)
    if ap >= 2 and len(mine) < state.rules.knights_per_player:
        _emit(out, O_KNIGHT, _knight_sites(info, mine, -1) & free)
    if not state.played:
        hand = state.hands[seat]
        fresh = state.fresh
        if hand != fresh:  # (cards bought this turn are in the hand too: equal lists leave no card to play)
            for card in range(10):
                if hand[card] > fresh[card]:
                    _card_actions(state, seat, card, out, free)
    return out


def _can_buy(state: "GameState", seat: int) -> bool:
    if state.rules.master or state.rules.full_hand:
        return False  # master version: "the purchase of an action card is no longer a possible action"
    if state.rules.card_mode is CardMode.COMMON:
        return bool(state.common)
    return bool(state.decks[seat])


def _knight_sites(info: BoardInfo, mine: list[int], skip: int) -> int:
    """Bitmask of squares orthogonally next to one of ``mine`` (other than ``skip``) and no higher than it
    (occupied squares included: the caller masks them out)."""
    sites = 0
    site_masks = info.site_masks
    for k in mine:
        if k != skip:
            mask = site_masks[k]
            sites |= mask if mask >= 0 else info.site_mask(k)
    return sites


def _card_actions(state: "GameState", seat: int, card: int, out: list[int], free: int) -> None:
    h, occ, info = state.heights, state.occ, state.info
    mine = state.knights[seat]
    if card == Card.SIX:
        out.append(O_SIX)
    elif card == Card.SEVEN:
        out.append(O_SEVEN)
    elif card == Card.CLIMB:
        exact = state.rules.climb_card is ClimbCard.EXACTLY_TWO
        for src in mine:
            level = h[src]
            for d, dst in enumerate(ORTHO_STEP[src]):
                if dst >= 0 and not occ[dst] and (h[dst] == level + 2 if exact else h[dst] <= level + 2):
                    out.append(O_CLIMB + src * 4 + d)
    elif card == Card.DIAGONAL:
        for src in mine:
            level = h[src]
            for d, dst in enumerate(DIAG_STEP[src]):
                if dst >= 0 and not occ[dst] and h[dst] <= level + 1:
                    out.append(O_DIAGONAL + src * 4 + d)
    elif card == Card.VAULT:
        opponents_only = state.rules.vault_over is VaultOver.OPPONENT_KNIGHT
        for src in mine:
            level = h[src]
            for d, over in enumerate(ORTHO_STEP[src]):
                if over < 0:
                    continue
                code = occ[over]
                # only a knight can be jumped, never the king (yucata says so; the others say "knight")
                if not 1 <= code <= 4 or (opponents_only and code == seat + 1):
                    continue
                dst = ORTHO_STEP2[src][d]
                if dst >= 0 and not occ[dst] and h[dst] <= level + 1:
                    out.append(O_VAULT + src * 4 + d)
    elif card == Card.GATE:
        cid = info.cid
        for src in mine:
            level = h[src]
            reach = 0
            for v in ORTHOGONAL[src]:
                if h[v] > level:
                    reach |= info.door_mask(cid[v], 63)  # the card lets the knight climb any number of levels
            _emit(out, O_GATE + src * 64, reach & free)
    elif card == Card.REDEPLOY:
        if len(mine) > 1:
            for src in mine:
                _emit(out, O_REDEPLOY + src * 64, _knight_sites(info, mine, src) & free)
    elif card == Card.BUILD:
        if state.supply > 0:
            _emit(out, O_BUILD, info.placeable_mask() & free)
    elif card == Card.LIFT:
        if state.rules.lift_counts_toward_three and placed_from_stack(state) >= 3:
            return
        sources = sorted(set(state.stacks[seat]))
        if state.turn_stack > 0:
            sources.insert(0, 0)
        if not sources:
            return
        near = info.near_counts()
        for sq in mine:
            c = info.cid[sq]
            if c >= 0:
                ok = h[sq] < info.area[c]
            else:
                ok = near[sq] <= 1  # a new castle, or growing the one next to it
            if ok:
                for s in sources:
                    out.append(O_LIFT + sq * MAX_STACK + s)
    elif card == Card.SHIFT:
        out.extend(O_SHIFT + src * 64 + dst for src, dst in shift_moves(state))


def placed_from_stack(state: "GameState") -> int:
    """Blocks placed this turn from the turn's stack (0 before one is taken); a lift ``from:turn`` counts too."""
    return state.stack_taken - state.turn_stack if state.turn_stack >= 0 else 0


def shift_moves(state: "GameState") -> list[tuple[int, int]]:
    """The shift card's (from, to) pairs: an empty block to an empty square (rules in ``BoardInfo.shift_mask``)."""
    info, free = state.info, ~state.occupied
    r = state.rules
    out = []
    for src in range(64):
        if state.heights[src] and not state.occ[src]:
            mask = info.shift_mask(src, r.shift_level_one, r.min_castles, r.shift_six_every_moment) & free
            while mask:
                low = mask & -mask
                out.append((src, low.bit_length() - 1))
                mask ^= low
    return out


#: Actions that name a square to leave and a square to reach, which must differ.
_TWO_SQUARE_KINDS = frozenset({Kind.MOVE, Kind.GATE, Kind.SHIFT, Kind.REDEPLOY})


def explain_illegal(state: "GameState", action_id: int) -> str:
    """Why ``action_id`` is not legal here, in one line naming the rule."""
    if not 0 <= action_id < len(DECODE):
        return f"no action has id {action_id}"
    text = format_action(action_id)
    kind, a, b = DECODE[action_id]
    stage = state.stage
    seat = state.current
    if stage is Stage.OVER:
        return f"{text}: the game is over"
    expected = {
        Stage.KNIGHTS: ({Kind.START}, "each player places a first knight ('start <square>')"),
        Stage.KING_SETUP: ({Kind.KING}, "the last player places the king ('king <square>')"),
        Stage.KING_MOVE: ({Kind.KING, Kind.KING_STAY}, "the lowest scorer may move the king ('king <square>' or "
                                                       "'king stay')"),
        Stage.CHOOSE_FIRST: ({Kind.FIRST}, "the lowest scorer names the start player ('first <seat>')"),
        Stage.CASTLES: ({Kind.CASTLE}, "players place the starting castles ('castle <square>')"),
        Stage.KEEP: ({Kind.KEEP}, "choose the card to keep and where the others go ('keep ...')"),
    }
    if stage in expected:
        kinds, why = expected[stage]
        if kind not in kinds:
            return f"{text}: not now — {why}"
        if kind is Kind.KEEP:
            return f"{text}: you drew {', '.join(Card(c).text for c in state.drawn)}; keep one and return all others"
        if kind is Kind.CASTLE:
            return f"{text}: a starting castle must keep its distance from every other castle ({state.rules.spacing.value})"
        if kind is Kind.KING and stage is Stage.KING_MOVE and state.rules.king_move_other_castle:
            return f"{text}: the king goes to an empty block of another castle"
        return f"{text}: the square must be an empty block of a castle" + (
            " with no knight on it" if stage is not Stage.KING_MOVE else "")
    if kind in (Kind.START, Kind.KING, Kind.KING_STAY, Kind.CASTLE, Kind.FIRST, Kind.KEEP):
        return f"{text}: not during a turn"
    # What the action says is wrong whatever the turn holds, so it is named before anything the player could
    # change (action points, cards): a move onto its own square is never legal, however many points are left.
    if kind in _TWO_SQUARE_KINDS and a == b:
        piece = "block" if kind is Kind.SHIFT else "knight"
        return f"{text}: a {piece} must move to another square"
    cost = ACTION_POINTS.get(kind, 0)
    if state.ap < cost:
        return f"{text}: costs {cost} action point{'s' if cost > 1 else ''}, {state.ap} left"
    h, occ = state.heights, state.occ
    mine = state.knights[seat]
    if kind in PLAY_KINDS:
        card = PLAY_KINDS[kind]
        if state.played:
            return f"{text}: at most one action card per turn"
        if state.hands[seat][card] == 0:
            return f"{text}: you hold no {card.text} card"
        if state.hands[seat][card] <= state.fresh[card]:
            return f"{text}: a card may not be played on the turn it was bought"
    if kind is Kind.STACK:
        if state.rules.stack_choice is not StackChoice.PLAYER:
            return f"{text}: this edition takes the largest stack automatically"
        if state.turn_stack >= 0:
            return f"{text}: this turn's stack is already chosen"
        return f"{text}: you have no stack of {a} blocks"
    if kind is Kind.BLOCK:
        if state.turn_stack < 0:
            return f"{text}: choose this turn's stack first ('stack <height>')"
        if state.turn_stack == 0:
            return f"{text}: this turn's stack is used up"
    if kind is Kind.BUY:
        if state.rules.master or state.rules.full_hand:
            return f"{text}: cards are not bought in this game (everyone holds all 10)"
        if state.buys >= state.rules.max_buys:
            return f"{text}: at most {state.rules.max_buys} cards per turn"
        return f"{text}: no cards left to draw"
    if kind is Kind.KNIGHT and state.reserve(seat) == 0:
        return f"{text}: all your knights are on the board"
    if kind in (Kind.MOVE, Kind.CLIMB, Kind.DIAGONAL, Kind.VAULT, Kind.GATE, Kind.REDEPLOY):
        if a not in mine:
            return f"{text}: you have no knight on {square_name(a)}"
    target = b if kind in (Kind.MOVE, Kind.CLIMB, Kind.DIAGONAL, Kind.VAULT, Kind.GATE, Kind.REDEPLOY) else a
    if kind in (Kind.MOVE, Kind.CLIMB, Kind.DIAGONAL, Kind.VAULT, Kind.GATE, Kind.REDEPLOY, Kind.KNIGHT,
                Kind.BLOCK, Kind.BUILD) and occ[target]:
        return f"{text}: {square_name(target)} is occupied"
    if kind is Kind.MOVE:
        return (f"{text}: a knight steps orthogonally up at most one level (down any), or passes through a "
                f"castle's doors without ending higher than it was ({square_name(a)} is level {h[a]}, "
                f"{square_name(b)} level {h[b]})")
    if kind is Kind.KNIGHT:
        return f"{text}: a new knight goes next to one of your knights, on its level or lower"
    if kind in (Kind.BLOCK, Kind.BUILD):
        return (f"{text}: a block goes on a castle (no taller than its area) or on the ground next to exactly "
                f"one castle")
    if kind is Kind.LIFT:
        if a not in mine:
            return f"{text}: you have no knight on {square_name(a)}"
        if state.rules.lift_counts_toward_three and placed_from_stack(state) >= 3:
            return (f"{text}: a player may never add more than three tower blocks in a turn, and this turn placed "
                    f"{placed_from_stack(state)} (lift_counts_toward_three)")
        if b and b not in state.stacks[seat]:
            return f"{text}: you have no stack of {b} blocks"
        if b == 0 and state.turn_stack <= 0:
            return f"{text}: this turn's stack has no blocks"
        return f"{text}: the castle would be taller than its area, or two castles would join"
    rule = {
        Kind.CLIMB: "up at most two levels onto an empty orthogonal neighbour",
        Kind.DIAGONAL: "one square diagonally, up at most one level",
        Kind.VAULT: "over an adjacent knight (not the king) onto the empty square behind, up at most one level",
        Kind.GATE: "into an adjacent door and out of any door of that castle onto an empty square",
        Kind.REDEPLOY: "to an empty square next to another of your knights, at its level or lower",
        Kind.SHIFT: "an empty block to an empty square: no divided castle, no castle taller than its area, no "
                    "joined castles, at least six castles",
    }
    if kind in rule:
        return f"{text}: the card moves {rule[kind]}"
    return f"{text}: not legal here"
