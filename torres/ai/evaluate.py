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
* potential: a step up onto a neighbouring higher block, and a free knight next to a tall tower; and, for the
  seat whose turn is in progress (``king_reach``), the king's bonus one of its knights could still climb to;
* cards in hand and knights in reserve, worth less as the game runs out.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from mypy_extensions import mypyc_attr

from ..engine.board import BoardInfo
from ..engine.master import MasterCard, master_bonus
from ..engine.rules import Rules
from ..engine.state import GameState, Stage


@mypyc_attr(native_class=False)  # (a value type: pickled and replaced as dataclasses are)
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
    # A seat with no turn left before the coming scoring counts its climbing potential for that scoring
    # × (1 - ripe): it can only climb for the later ones.
    ripe: float = 0.0
    # The rivals' climbing potential counts × rival_reach against the evaluating seat (its own × 1).
    rival_reach: float = 1.0
    # While a seat's turn is in progress, the king's bonus it could still climb to (its best knight's chance,
    # discounted by distance as climbing potential is) counts for it × king_reach × king: a planner's beam keeps
    # the turns that climb there through lower squares. A finished turn is judged without it.
    king_reach: float = 0.0
    # In the last phase a seat with k turns left counts the climbing potential of its best ceil(last_climbs × k)
    # knights only (0: of every knight): one turn of a few action points cashes a climb or two, not every knight's.
    last_climbs: float = 0.0
    many: Weights | None = None  # the weights in games of 3–4 players (None: these)
    # The weights in games of 3–4 players with exactly these rules, before ``many``: weights tuned by play with one
    # edition's rules need not carry over to another's (docs/strength-log.md, SPSA run 16).
    many_by_rules: tuple[tuple[Rules, Weights], ...] = ()
    # The weights in 2-player games with exactly these rules, before these ones (issue #34: weights tuned by play
    # with cards won more of the expert's deals with the default rules than weights tuned without them).
    two_by_rules: tuple[tuple[Rules, Weights], ...] = ()

    def for_players(self, players: int) -> Weights:
        """The weights a game of ``players`` is evaluated with, whatever its rules (``many_by_rules`` and
        ``two_by_rules`` aside)."""
        return self.many if players > 2 and self.many is not None else self

    def for_game(self, players: int, rules: Rules) -> Weights:
        """The weights a game of ``players`` with ``rules`` is evaluated with."""
        many = players > 2
        by_rules = self.many_by_rules if many else self.two_by_rules
        if not by_rules:
            return self.for_players(players)
        key = (id(self), id(rules), many)
        entry = _WEIGHTS_BY_RULES.get(key)
        if entry is None or entry[0] is not self or entry[1] is not rules:
            chosen = self.for_players(players)
            for tuned_for, weights in by_rules:
                if tuned_for == rules:
                    chosen = weights
                    break
            if len(_WEIGHTS_BY_RULES) > 1000:
                _WEIGHTS_BY_RULES.clear()
            entry = _WEIGHTS_BY_RULES[key] = (self, rules, chosen)
        return entry[2]


#: (id(weights), id(rules), 3–4 players?) → (those weights, those rules, the weights chosen for them): comparing
#: rules field by field at every evaluation would cost more than a dictionary look-up; the entry keeps both objects
#: alive, so their ids cannot pass to others while it is here.
_WEIGHTS_BY_RULES: dict[tuple[int, int, bool], tuple[Weights, Rules, Weights]] = {}


DEFAULT_WEIGHTS = Weights()
#: The first hand weights, before tuning by self-play (docs/strength-log.md): the casual level's evaluation.
BASIC_WEIGHTS = Weights(later=0.75, reach=0.5, card=1.5, reserve=0.0)
#: The master level's weights in 3–4-player games with the Rio Grande rules (the default) and with Ravensburger's,
#: tuned by play at its width with the default rules against three experts (scripts/tune_spsa.py, SPSA run 16 in
#: docs/strength-log.md; the run started from the tuned weights): castle points standing now count a little less at
#: later scorings, the king's bonus a little less, cards, knights in reserve and climbing potential more (and farther
#: climbs discounted less), and the best rival less against the mean of the rivals. With the master version they
#: lost to the tuned weights, which the master keeps with every rules but those two editions' own.
MASTER_MANY_WEIGHTS = Weights(later=0.7842, reach=0.7694, card=3.4972, reserve=4.766, king=0.9057, decay=0.5587,
                              rivals_max=0.4372)
#: The master level's 2-player weights, tuned by play inside the master's look-ahead against the expert and
#: ``greedy`` in turn (scripts/tune_spsa.py, SPSA run 11 in docs/strength-log.md; ``king`` and ``decay`` are run 7's,
#: which run 11 left alone; weights tuned against the expert alone lost to ``greedy``): castle points standing now
#: count far less at later scorings than at the coming one, climbing potential more (the rival's about half), cards
#: more and reserve knights less than in the tuned weights, the king's bonus less. In the last phase a seat counts one
#: knight's climb per turn it has left (``last_climbs``, issue #34: more games won against the expert and against the
#: full-width search without cards).
_MASTER_TWO = Weights(later=0.151, reach=0.8345, card=3.7243, reserve=2.6733, king=0.65, decay=0.48, ripe=0.231,
                      rival_reach=0.5587, last_climbs=1.0)
#: The master level's 2-player weights with the default rules (Rio Grande's, with cards): tuned by play with cards
#: inside its look-ahead against the expert, from random openings (SPSA run 25, the mean of its second half), they won
#: 88.6% of the expert goal's 1,000 deals where the weights above won 85.3%, and 98.0% of the full-width yardstick's
#: 400 games with cards where those won 96.0% (docs/strength-log.md, issue #34). Without cards they won 74.8% of
#: that yardstick's 400 where the weights above win 85.0%: the weights are chosen by the rules.
#: Castle points standing now count less at later scorings, climbing potential more (the rival's less) and is
#: discounted more by distance, cards and knights in reserve count less and the king's bonus more.
MASTER_CARDS_WEIGHTS = replace(_MASTER_TWO, later=0.1076, reach=1.2542, card=2.6835, reserve=2.2968, king=0.8837,
                               decay=0.4184, ripe=0.1451, rival_reach=0.3850)
#: The master level's weights: in 2-player games the ones above, chosen by the game's rules; in 3–4-player games
#: run 16's under the Rio Grande and Ravensburger rules and the tuned weights under any other (the first master's
#: later-scoring weight lost there).
MASTER_WEIGHTS = replace(_MASTER_TWO, many=DEFAULT_WEIGHTS,
                         many_by_rules=((Rules(), MASTER_MANY_WEIGHTS),
                                        (Rules.for_edition("ravensburger"), MASTER_MANY_WEIGHTS)),
                         two_by_rules=((Rules(), MASTER_CARDS_WEIGHTS),))


#: Evaluations by name, for bot specs (``greedy:eval=basic``).
EVALUATIONS: dict[str, Weights] = {"tuned": DEFAULT_WEIGHTS, "basic": BASIC_WEIGHTS, "master": MASTER_WEIGHTS}


_POWERS: dict[float, list[float]] = {}


def _powers(decay: float) -> list[float]:
    table = _POWERS.get(decay)
    if table is None:
        table = _POWERS[decay] = [decay ** k for k in range(64)]
    return table


#: A seat's board terms: castle points, king's bonus, climbing potential, and each knight's best gain and the
#: square it climbs to for it, and the king's bonus it could climb to (see _board_terms).
SeatTerms = tuple[float, float, float, list[float], list[int], float]
#: A seat's board terms by (the board analysis, its knights, the occupancy near them, the number of the context:
#: king's castle, the level and bonus it pays for, radius, decay): a search changes one thing at a time, so most
#: seats' terms are those of the position before, or close to them (see _board_terms). The key
#: holds the analysis itself (compared by identity: the castle numbers in ``have`` belong to it) and so keeps it
#: alive; one table for all, so that CACHE_LIMIT bounds the memory (and the garbage collector's work).
_SEAT_TERMS: dict[tuple[object, ...], SeatTerms] = {}
#: The contexts of _SEAT_TERMS' keys, numbered (a small int hashes faster than the tuple).
_TERMS_CONTEXTS: dict[tuple[int, int, float, int, float, bool], int] = {}
#: By radius: the squares the terms of a set of knights read (theirs and those within the radius), as a bitmask.
_NEAR: dict[int, dict[tuple[int, ...], int]] = {}
#: Manhattan distances between squares, and the squares within a radius of each square as a bitmask.
_DISTANCES = [[abs((t & 7) - (sq & 7)) + abs((t >> 3) - (sq >> 3)) for t in range(64)] for sq in range(64)]
_RING_MASKS: dict[int, list[int]] = {}
CACHE_LIMIT = 50_000  # entries per cache (a key keeps its board analysis alive)


def clear_caches() -> None:
    """Forget every cached seat term (benchmarks start from here; values never depend on the caches)."""
    _SEAT_TERMS.clear()
    _TERMS_CONTEXTS.clear()
    _NEAR.clear()
    _TURNS.clear()


def _ring_masks(radius: int) -> list[int]:
    """For each square: the bitmask of the squares within ``radius`` (Manhattan)."""
    masks = _RING_MASKS.get(radius)
    if masks is None:
        masks = _RING_MASKS[radius] = [sum(1 << t for t in range(64) if 1 <= _DISTANCES[sq][t] <= radius)
                                       for sq in range(64)]
    return masks


@mypyc_attr(native_class=False)  # (a value type: pickled and replaced as dataclasses are)
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
    return [Terms(*raw) for raw in raw_terms(state, w)]


#: id(phase stacks) → (the stacks, total rounds, rounds before each phase); by identity, since hashing the
#: nested tuple on every evaluation costs more than the division it saves
_SHARES: dict[int, tuple[tuple[tuple[int, ...], ...], int, list[int]]] = {}


def turns_left_share(state: GameState) -> float:
    """The share of the game's rounds still to come, 1.0 at the start and 0.0 at the end."""
    stacks = state.phase_stacks
    entry = _SHARES.get(id(stacks))
    if entry is None or entry[0] is not stacks:
        if len(_SHARES) > 1000:
            _SHARES.clear()
        entry = _SHARES[id(stacks)] = (stacks, sum(len(p) for p in stacks),
                                       [sum(len(p) for p in stacks[:k]) for k in range(4)])
    _, total, before = entry
    return max(0.0, 1.0 - (before[min(state.phase, 3)] + state.round) / total)


#: id(weights) → (the weights, the tables their decay and radius need, the scorings' weight in each phase)
_CONTEXTS: dict[int, tuple[Weights, list[float], list[int], list[float]]] = {}


def _context(w: Weights) -> tuple[Weights, list[float], list[int], list[float]]:
    entry = _CONTEXTS.get(id(w))
    if entry is None or entry[0] is not w:
        if len(_CONTEXTS) > 1000:
            _CONTEXTS.clear()
        # the weight of the remaining scorings in each phase
        scorings = [sum(w.later ** k for k in range(3 - phase)) for phase in range(3)]
        entry = _CONTEXTS[id(w)] = (w, _powers(w.decay), _ring_masks(w.radius), scorings)
    return entry


def _board_terms(squares: list[int], info: BoardInfo, occupied: int, king_castle: int, king_level: int,
                 bonus: float, ring_masks: list[int], powers: list[float], before: SeatTerms | None = None,
                 touched: int = 0, king_chances: bool = False) -> SeatTerms:
    """One seat's castle points, king's bonus and climbing potential, and each knight's best gain and the square
    it climbs to for it (-1: none). The first two are :func:`~torres.engine.scoring.castle_points` and
    :func:`~torres.engine.scoring.earns_king_bonus` written out (tests/test_evaluate_cache.py checks that they
    agree).

    ``before``: the same knights' terms (at the same levels) on the board ``info`` was derived from, ``touched``
    the squares whose height, castle number or castle area differ between the two. What a knight gains by
    climbing to an untouched square is the same on both boards, so if the square of its best gain before is
    untouched, nothing untouched beats that gain now, and only the touched squares are looked at again: a full
    hand offers hundreds of shifts and builds, each seen once."""
    h, cid, area = info.heights, info.cid, info.area
    have = [0] * len(area)  # the seat's highest knight on each castle
    king = 0.0
    points = 0
    for sq in squares:
        c = cid[sq]
        if c >= 0:
            level = h[sq]
            if level > have[c]:
                points += area[c] * (level - have[c])
                have[c] = level
            if c == king_castle and level == king_level:
                king = bonus
    # potential: the best gain each knight could make by climbing to an empty block nearby (at most one level
    # up per square of distance), discounted by the distance
    potential = 0.0
    free_castles = info.blocks & ~occupied
    gains = []
    best = []
    for i, sq in enumerate(squares):
        targets = ring_masks[sq] & free_castles
        gain = 0.0
        where = -1
        if before is not None:
            where = before[4][i]
            if where < 0 or not touched >> where & 1:
                # the best square before is untouched (or there was none): nothing untouched beats it now
                gain = before[3][i]
                targets &= touched
            else:
                where = -1
        level = h[sq]
        distance = _DISTANCES[sq]
        while targets:
            low = targets & -targets
            targets ^= low
            t = low.bit_length() - 1
            c = cid[t]
            a = area[c]
            ht = h[t]
            held = have[c]
            dist = distance[t]
            discount = powers[dist]
            top = level + dist
            # climb onto what stands there (one level up per square of distance) ...
            g = ((ht if ht <= top else top) - held) * a * discount
            if g > gain:
                gain = g
                where = t
            # ... or build it up to where the knight could climb, a block per level
            want = top if top <= a else a
            if want > ht and want > held:
                g = (want - held) * a * discount * powers[want - ht]
                if g > gain:
                    gain = g
                    where = t
        potential += gain
        gains.append(gain)
        best.append(where)
    chance = (_king_potential(squares, info, king_castle, king_level, bonus, free_castles, ring_masks, powers)
              if king_chances and not king else 0.0)
    return float(points), king, potential, gains, best, chance


def _king_potential(squares: list[int], info: BoardInfo, king_castle: int, king_level: int, bonus: float,
                    free_castles: int, ring_masks: list[int], powers: list[float]) -> float:
    """The king's bonus a seat without it could climb to: its best knight's chance to stand at the bonus's level in
    the king's castle, standing on what is there or building it up, discounted as a climb is (a beam planner
    drops the turns that climb there through lower squares, and the bonus is paid once, so only the best counts)."""
    if bonus <= 0.0 or king_castle < 0 or king_castle >= len(info.squares) or info.area[king_castle] < king_level:
        return 0.0  # (a castle is never taller than its area)
    h = info.heights
    best = 0.0
    for t in info.squares[king_castle]:
        ht = h[t]
        if ht > king_level or not free_castles >> t & 1:
            continue
        short = powers[king_level - ht]  # a block per level short
        for sq in squares:
            if ring_masks[sq] >> t & 1:
                dist = _DISTANCES[sq][t]
                if king_level <= h[sq] + dist and short * powers[dist] > best:  # (one level up per square)
                    best = short * powers[dist]
    return bonus * best


class _Turn:
    """What every evaluation of one turn's positions shares (a search evaluates thousands of them): the weights'
    tables, the scorings still to come and the share of the game left, each seat's weight for its climbing
    potential as each seat sees it, the king's bonus and level, and the number of each king's-castle context."""

    __slots__ = ("stacks", "rules", "weights", "scorings", "share", "reach_scorings", "reach_weights",
                 "king_weights", "climbs", "bonus", "king_level", "king_chances", "per_knights", "numbers", "near",
                 "ring_masks", "powers")

    def __init__(self, state: GameState, w: Weights) -> None:
        self.stacks, self.rules, self.weights = state.phase_stacks, state.rules, w
        _, self.powers, self.ring_masks, scorings_by_phase = _context(w)
        phase = state.phase if state.phase < 2 else 2
        scorings = self.scorings = scorings_by_phase[phase]
        self.share = turns_left_share(state)
        n = state.n
        # with ripe: the seats with no turn left before the coming scoring
        done = [left == 0 for left in state.turns_before_scoring()] if w.ripe else [False] * n
        # in the last phase, with last_climbs: how many knights' potential each seat counts (None: every knight's)
        self.climbs = ([math.ceil(w.last_climbs * left) for left in state.turns_before_scoring()]
                       if phase == 2 and w.last_climbs else None)
        self.reach_scorings = [scorings - w.ripe if done[s] else scorings for s in range(n)]
        reach = w.reach
        rivals_reach = reach * w.rival_reach
        # by evaluating seat + 1 (0: nobody in particular)
        self.reach_weights = [[reach] * n] + [[reach if s == seat else rivals_reach for s in range(n)]
                                              for seat in range(n)]
        # by evaluating seat + 1: the seat's own, while its turn is in progress
        stage = state.stage
        playing = state.current if w.king_reach and (stage is Stage.TURN or stage is Stage.KEEP) else -1
        self.king_weights = [[0.0] * n] + [[w.king * w.king_reach if s == seat == playing else 0.0 for s in range(n)]
                                           for seat in range(n)]
        king_bonuses = state.rules.king_bonus
        self.bonus = float(king_bonuses[phase]) if phase < len(king_bonuses) else 0.0
        self.king_level = phase + 1
        # (the king's bonus a seat could climb to is looked for only by evaluations that count it: looked for
        # always, it cost 15% of the evaluations' speed)
        self.king_chances = playing >= 0
        self.per_knights = state.rules.knights_per_player
        self.numbers: dict[int, int] = {}  # king's castle → context number
        near = _NEAR.get(w.radius)
        if near is None:
            near = _NEAR[w.radius] = {}
        self.near = near

    def number(self, king_castle: int) -> int:
        """The number of the context (king's castle, the level and bonus it pays for, radius, decay) in
        _SEAT_TERMS' keys."""
        number = self.numbers.get(king_castle)
        if number is None:
            w = self.weights
            context = (king_castle, self.king_level, self.bonus, w.radius, w.decay, self.king_chances)
            number = _TERMS_CONTEXTS.get(context)
            if number is None:
                if len(_TERMS_CONTEXTS) > 1000:
                    _TERMS_CONTEXTS.clear()  # (the counter goes on: a number is never given to two contexts)
                number = _TERMS_CONTEXTS[context] = next(_CONTEXT_NUMBERS)
            self.numbers[king_castle] = number
        return number


#: (phase, round, the turn if in progress else -1, start player, players, id(phase stacks), id(rules),
#: id(weights)) → _Turn; the entry holds the objects behind the ids and is checked against them
_TURNS: dict[tuple[int, ...], _Turn] = {}
_CONTEXT_NUMBERS = itertools.count()


def _turn(state: GameState, w: Weights) -> _Turn:
    stacks, rules = state.phase_stacks, state.rules
    stage = state.stage
    taken = state.turn if stage is Stage.TURN or stage is Stage.KEEP else -1
    key = (state.phase, state.round, taken, state.start, state.n, id(stacks), id(rules), id(w))
    turn = _TURNS.get(key)
    if turn is None or turn.stacks is not stacks or turn.rules is not rules or turn.weights is not w:
        if len(_TURNS) > 10_000:
            _TURNS.clear()
        turn = _TURNS[key] = _Turn(state, w)
    return turn


def _seat_board_terms(turn: _Turn, info: BoardInfo, occupied: int, king_castle: int, number: int,
                      squares: list[int]) -> SeatTerms:
    """A seat's castle points, king's bonus and climbing potential, from the cache when its knights, the
    occupancy near them and the board are those of a position seen before."""
    knights = tuple(squares)
    near_table = turn.near
    near = near_table.get(knights)
    if near is None:
        near = 0
        ring_masks = turn.ring_masks
        for sq in squares:
            near |= ring_masks[sq] | 1 << sq
        if len(near_table) > CACHE_LIMIT:
            near_table.clear()
        near_table[knights] = near
    key = (info, knights, occupied & near, number)
    cached = _SEAT_TERMS.get(key)
    if cached is None:
        derived = info.derived_from
        before = None
        touched = 0
        if derived is not None:
            # the terms on the board before the block added or shifted (castle numbers are kept across it)
            parent, touched = derived
            before = _SEAT_TERMS.get((parent, knights, occupied & near, number))
            if before is None and parent.in_hand:
                # (the board a shift took its block from: its terms serve every square the block could go to)
                before = _seat_board_terms(turn, parent, occupied, king_castle, number, squares)
            if before is not None:
                if not touched & near:
                    cached = before  # the change is out of these knights' sight
                else:
                    heights, old_heights = info.heights, parent.heights
                    for sq in squares:
                        if heights[sq] != old_heights[sq]:
                            before = None  # (a knight's level changed: all its gains do)
                            break
        if cached is None:
            cached = _board_terms(squares, info, occupied, king_castle, turn.king_level, turn.bonus,
                                  turn.ring_masks, turn.powers, before, touched, turn.king_chances)
        if len(_SEAT_TERMS) > CACHE_LIMIT:
            _SEAT_TERMS.clear()
        _SEAT_TERMS[key] = cached
    return cached


def _master_terms(state: GameState, w: Weights) -> list[float]:
    """Each seat's master-card bonuses at the remaining scorings, later ones discounted."""
    n = state.n
    master: list[float] = [0.0] * n
    if state.master_card >= 0:
        phase = state.phase if state.phase < 2 else 2
        card = MasterCard(state.master_card)
        for k in range(3 - phase):
            extra = master_bonus(card, phase + k, state.info, state.knights)
            weight = w.later ** k
            for s in range(n):
                master[s] += weight * extra[s]
    return master


_NO_MASTER = (0.0, 0.0, 0.0, 0.0)


def _board_position(state: GameState, w: Weights) -> tuple[_Turn, list[SeatTerms], Sequence[float],
                                                                  int]:
    """What both :func:`raw_terms` and :func:`seat_values` read first: the turn's shared context, every seat's
    board terms, the master bonuses, and the seat holding the cards it drew (-1: none)."""
    turn = _turn(state, w)
    info = state.info
    king_castle = info.cid[state.king] if state.king >= 0 else -1
    number = turn.number(king_castle)
    occupied = state.occupied
    boards = [_seat_board_terms(turn, info, occupied, king_castle, number, squares) for squares in state.knights]
    master = _master_terms(state, w) if state.master_card >= 0 else _NO_MASTER
    current = state.current if state.stage is Stage.KEEP and len(state.drawn) > 0 else -1
    return turn, boards, master, current


def raw_terms(state: GameState, w: Weights = DEFAULT_WEIGHTS) -> list[tuple[float, float, float, float, float,
                                                                             float]]:
    """:class:`Terms` of every seat as plain tuples."""
    w = w.for_game(state.n, state.rules)
    turn, boards, master, current = _board_position(state, w)
    per_knights = turn.per_knights
    return [(points, king, potential, float(sum(hand) + (seat == current)), float(per_knights - len(squares)),
             master[seat])
            for seat, ((points, king, potential, _, _, _), squares, hand) in enumerate(zip(boards, state.knights,
                                                                                   state.hands))]


def seat_values(state: GameState, w: Weights = DEFAULT_WEIGHTS, seat: int = -1) -> list[float]:
    """Projected final points of every seat (:func:`raw_terms` weighted, without building them); with ``seat``,
    as that seat sees them (the others' climbing potential × ``rival_reach``)."""
    if state.stage is Stage.OVER:
        return [float(s) for s in state.scores]
    if state.n > 2 or w.two_by_rules:
        w = w.for_game(state.n, state.rules)
    turn, boards, master, current = _board_position(state, w)
    scorings, share, per_knights = turn.scorings, turn.share, turn.per_knights
    reach_weights, reach_scorings = turn.reach_weights[seat + 1 if seat >= 0 else 0], turn.reach_scorings
    king_weights = turn.king_weights[seat + 1 if seat >= 0 else 0]
    climbs = turn.climbs
    king_weight, master_weight, card, reserve = w.king, w.master, w.card, w.reserve
    values = []
    for s, ((castles, king_bonus, potential, gains, _, king_chance), score, squares, hand) in enumerate(
            zip(boards, state.scores, state.knights, state.hands)):
        if climbs is not None and climbs[s] < len(gains):
            potential = _best_gains(gains, climbs[s])
        cards = float(sum(hand) + (s == current))
        knights = float(per_knights - len(squares))
        # (the sum in the order it always had: tie-breaks between planned turns depend on the last bit)
        values.append(score + castles * scorings + master_weight * master[s] + king_weight * king_bonus
                      + reach_weights[s] * potential * reach_scorings[s]
                      + (card * cards + reserve * knights) * share + king_weights[s] * king_chance)
    return values


#: id(gains) → (those gains, the running sums of the best first): the gains of a seat's cached terms are met again
#: and again in a search, and ranking them each time cost a tenth of a last-phase evaluation. The entry holds the
#: list, so its id cannot be given to another while it is here.
_RANKED_GAINS: dict[int, tuple[list[float], list[float]]] = {}


def _best_gains(gains: list[float], count: int) -> float:
    """The sum of the ``count`` best of a seat's knights' ``gains`` (as ``sum(sorted(gains, reverse=True)[:count])``,
    to the last bit)."""
    if count <= 0:
        return 0.0
    entry = _RANKED_GAINS.get(id(gains))
    if entry is None or entry[0] is not gains:
        if len(_RANKED_GAINS) > CACHE_LIMIT:
            _RANKED_GAINS.clear()
        entry = _RANKED_GAINS[id(gains)] = (gains, list(itertools.accumulate(sorted(gains, reverse=True))))
    return entry[1][count - 1]


def evaluate(state: GameState, seat: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """How good the position is for ``seat``: its projected points minus its rivals' (best and mean mixed)."""
    values = seat_values(state, w, seat)
    if len(values) == 2:
        return values[seat] - values[1 - seat]
    return relative(values, seat, w.for_game(state.n, state.rules))


def relative(values: list[float], seat: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """A seat's value against its rivals' (``w`` for a game of as many players as ``values``; weights chosen by
    the game's rules must be chosen before: :meth:`Weights.for_game`)."""
    w = w.for_players(len(values))
    if len(values) == 2:
        return values[seat] - values[1 - seat]
    rivals = [v for s, v in enumerate(values) if s != seat]
    if len(rivals) == 1:
        return values[seat] - rivals[0]
    return values[seat] - (w.rivals_max * max(rivals) + (1 - w.rivals_max) * sum(rivals) / len(rivals))
