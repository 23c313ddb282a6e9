"""A static evaluation of a position: the points each seat can expect from here, from public facts only.

The evaluation never reads another seat's cards: it counts hands by size only. It asks the engine for every rule
(castle areas and levels come from :class:`~torres.engine.board.BoardInfo`, master bonuses from
:func:`~torres.engine.master.master_bonus`), and only adds them up.

Terms, in points (the units of the scoring track):

* the score on the track;
* castle points as they stand (area × level of the seat's highest knight on each castle), counted once for
  the coming scoring and, discounted by ``later``, for each scoring after it — a knight cannot be pushed down,
  so this is nearly a lower bound;
* the king's bonus at the coming scoring (the king only moves after a scoring);
* the face-up master card's bonus, as it would be paid at each remaining scoring (discounted like castles);
* potential: a step up onto a neighbouring higher block, and a free knight next to a tall tower;
* cards in hand and knights in reserve, worth less as the game runs out.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.board import BoardInfo
from ..engine.master import MasterCard, master_bonus
from ..engine.scoring import castle_points, earns_king_bonus
from ..engine.state import GameState, Stage


@dataclass(frozen=True)
class Weights:
    later: float = 0.85  # a later scoring relative to the coming one
    king: float = 1.0  # the coming king's bonus
    master: float = 1.0  # master-card bonuses
    reach: float = 0.6  # the best gain a knight could make by climbing nearby (per knight, discounted by distance)
    decay: float = 0.5  # discount of a gain per square of distance
    radius: int = 3  # how far a knight looks for castles to climb
    card: float = 3.0  # a card in hand, at the start of the game (scaled by the share of turns left)
    reserve: float = 4.0  # a knight not yet on the board (scaled by the share of turns left)
    rivals_max: float = 0.6  # how much the best rival counts against the mean of the rivals (≥3 players)


DEFAULT_WEIGHTS = Weights()
#: The first hand weights, before tuning by self-play (docs/strength.md): the casual level's evaluation.
BASIC_WEIGHTS = Weights(later=0.75, reach=0.5, card=1.5, reserve=0.0)
#: Evaluations by name, for bot specs (``greedy:eval=basic``).
EVALUATIONS: dict[str, Weights] = {"tuned": DEFAULT_WEIGHTS, "basic": BASIC_WEIGHTS}


def turns_left_share(state: GameState) -> float:
    """The share of the game's rounds still to come, 1.0 at the start and 0.0 at the end."""
    stacks = state.phase_stacks
    total = sum(len(p) for p in stacks)
    done = sum(len(stacks[p]) for p in range(min(state.phase, 3))) + state.round
    return max(0.0, 1.0 - done / total)


_RINGS: dict[tuple[int, float], list[list[tuple[int, int, float]]]] = {}


def _rings(radius: int, decay: float) -> list[list[tuple[int, int, float]]]:
    """For each square: the squares within ``radius`` (Manhattan), with the distance and its discount."""
    key = (radius, decay)
    table = _RINGS.get(key)
    if table is None:
        table = []
        for sq in range(64):
            f, r = sq & 7, sq >> 3
            row = []
            for t in range(64):
                d = abs((t & 7) - f) + abs((t >> 3) - r)
                if 1 <= d <= radius:
                    row.append((t, d, decay ** d))
            table.append(row)
        _RINGS[key] = table
    return table


Target = tuple[int, int, float, int, int, int, float]
_TARGETS: dict[tuple[int, int, float], tuple[BoardInfo, list[list[Target] | None]]] = {}
_POWERS: dict[float, list[float]] = {}


def _powers(decay: float) -> list[float]:
    table = _POWERS.get(decay)
    if table is None:
        table = _POWERS[decay] = [decay ** k for k in range(64)]
    return table


def _targets(info: BoardInfo, radius: int, decay: float) -> list[list[Target] | None]:
    """For each square: the castle squares near it (square, distance, discount, castle, area, height), cached
    per board analysis (moves and knight placements do not change it); a square's row is filled in when first
    asked for (:func:`_row`), since only the knights' squares are ever looked at.

    The cache is keyed by the analysis object, not by the height map: the engine may number the castles of the
    same heights differently depending on how it got there, and a row holds castle numbers. The entry keeps the
    object alive, so its ``id`` cannot be reused while cached."""
    key = (id(info), radius, decay)
    entry = _TARGETS.get(key)
    if entry is None or entry[0] is not info:
        if len(_TARGETS) > 20_000:
            _TARGETS.clear()
        entry = _TARGETS[key] = (info, [None] * 64)
    return entry[1]


def _row(table: list[list[Target] | None], info: BoardInfo, sq: int, radius: int, decay: float) -> list[Target]:
    """The targets of a knight on ``sq``, the most a target could give first: a knight there gains at most
    ``min(level + distance, area) × area × discount`` from it, so the scan can stop at the first target whose bound
    is no more than the best gain found."""
    row = table[sq]
    if row is None:
        cid, area, h = info.cid, info.area, info.heights
        level = h[sq]
        row = []
        for t, d, disc in _rings(radius, decay)[sq]:
            c = cid[t]
            if c >= 0:
                a = area[c]
                # (a discount above 1 would let building pay more than the bound: no early stop then)
                bound = max(min(h[t], level + d), min(level + d, a)) * a * disc if decay <= 1 else float("inf")
                row.append((t, d, disc, c, a, h[t], bound))
        row.sort(key=lambda target: -target[6])
        table[sq] = row
    return row


@dataclass(frozen=True)
class Terms:
    """The raw terms of one seat, in points or counts, before weighting."""

    castles: float  # castle points as they stand (area × level of the seat's highest knight, summed)
    king: float  # the king's bonus the seat would get at the coming scoring
    reach: float  # the best gains the seat's knights could make by climbing nearby (see the module text)
    cards: float  # cards in hand
    reserve: float  # knights not yet on the board
    master: float  # master-card bonuses at the remaining scorings, later ones discounted by ``later``


def seat_terms(state: GameState, w: Weights = DEFAULT_WEIGHTS) -> list[Terms]:
    """The terms of every seat, before weighting."""
    n = state.n
    info = state.info
    h, cid, area, occ = info.heights, info.cid, info.area, state.occ
    phase = min(state.phase, 2)
    remaining = [w.later ** k for k in range(3 - phase)]
    king_castle = cid[state.king] if state.king >= 0 else -1
    bonus = state.rules.king_bonus[phase] if phase < len(state.rules.king_bonus) else 0
    master: list[float] = [0.0] * n
    if state.master_card >= 0:
        card = MasterCard(state.master_card)
        for k, weight in enumerate(remaining):
            extra = master_bonus(card, phase + k, info, state.knights)
            for s in range(n):
                master[s] += weight * extra[s]
    per_knights = state.rules.knights_per_player
    targets = _targets(info, w.radius, w.decay)
    powers = _powers(w.decay)
    out = []
    for seat in range(n):
        squares = state.knights[seat]
        points, best = castle_points(info, squares)
        king = float(bonus) if king_castle >= 0 and earns_king_bonus(info, squares, state.king, phase) else 0.0
        # potential: the best gain each knight could make by climbing to an empty block nearby (at most one
        # level up per square of distance), discounted by the distance
        potential = 0.0
        best_of = [0] * len(area)
        for c, lv in best.items():
            best_of[c] = lv
        for sq in squares:
            level = h[sq]
            gain = 0.0
            for t, dist, discount, c, a, ht, bound in targets[sq] or _row(targets, info, sq, w.radius, w.decay):
                if bound <= gain:
                    break
                if occ[t]:
                    continue
                have = best_of[c]
                top = level + dist
                # climb onto what stands there (one level up per square of distance) ...
                g = ((ht if ht <= top else top) - have) * a * discount
                if g > gain:
                    gain = g
                # ... or build it up to where the knight could climb, a block per level
                want = top if top <= a else a
                if want > ht and want > have:
                    g = (want - have) * a * discount * powers[want - ht]
                    if g > gain:
                        gain = g
            potential += gain
        hand = state.hands[seat]
        cards = sum(hand) + (len(state.drawn) > 0 and state.current == seat and state.stage is Stage.KEEP)
        out.append(Terms(float(points), king, potential, float(cards), float(per_knights - len(squares)),
                         master[seat]))
    return out


def seat_values(state: GameState, w: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """Projected final points of every seat."""
    if state.stage is Stage.OVER:
        return [float(s) for s in state.scores]
    terms = seat_terms(state, w)
    phase = min(state.phase, 2)
    out = []
    scorings = sum(w.later ** k for k in range(3 - phase))
    share = turns_left_share(state)
    for seat, t in enumerate(terms):
        value = state.scores[seat] + t.castles * scorings + w.master * t.master + w.king * t.king
        value += w.reach * t.reach * scorings
        value += (w.card * t.cards + w.reserve * t.reserve) * share
        out.append(value)
    return out


def evaluate(state: GameState, seat: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """How good the position is for ``seat``: its projected points minus its rivals' (best and mean mixed)."""
    values = seat_values(state, w)
    return relative(values, seat, w)


def relative(values: list[float], seat: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    rivals = [v for s, v in enumerate(values) if s != seat]
    if len(rivals) == 1:
        return values[seat] - rivals[0]
    return values[seat] - (w.rivals_max * max(rivals) + (1 - w.rivals_max) * sum(rivals) / len(rivals))
