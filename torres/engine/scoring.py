"""Phase scoring: castle positions, the king's bonus, master-card bonuses, and the one-marker-per-space track."""

from __future__ import annotations

from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from .board import BoardInfo
from .master import MasterCard, master_bonus
from .rules import Rules, ScoringOrder
from .squares import square_name


@mypyc_attr(native_class=False)  # (a value type: pickled and replaced as dataclasses are)
@dataclass(frozen=True)
class CastleScore:
    seat: int
    castle: tuple[str, ...]  # the castle's squares, by name
    area: int
    level: int  # the seat's highest knight on this castle
    points: int


@mypyc_attr(native_class=False)  # (a value type: pickled and replaced as dataclasses are)
@dataclass(frozen=True)
class PhaseScoring:
    """What one phase's scoring gave each seat; ``gained`` includes track bumps (steps past occupied spaces)."""

    phase: int
    order: tuple[int, ...]
    castles: tuple[CastleScore, ...]
    king_castle: tuple[str, ...]
    king_bonus: tuple[int, ...]
    master_bonus: tuple[int, ...]
    before: tuple[int, ...]
    after: tuple[int, ...]

    def castle_points(self, seat: int) -> int:
        return sum(c.points for c in self.castles if c.seat == seat)


def highest_levels(info: BoardInfo, squares: list[int]) -> dict[int, int]:
    """Castle index → level of the highest of these knights on that castle (knights on the ground count nowhere)."""
    cid, h = info.cid, info.heights
    best: dict[int, int] = {}
    for sq in squares:
        c = cid[sq]
        if c >= 0 and h[sq] > best.get(c, 0):
            best[c] = h[sq]
    return best


def castle_points(info: BoardInfo, squares: list[int]) -> tuple[int, dict[int, int]]:
    """What one seat's knights would score for their castles now (the sum of area × highest level), and the
    highest level on each castle."""
    best = highest_levels(info, squares)
    area = info.area
    return sum(area[c] * level for c, level in best.items()), best


def earns_king_bonus(info: BoardInfo, squares: list[int], king: int, phase: int) -> bool:
    """Whether these knights earn the king's bonus after ``phase`` (0-based): one of them on level ``phase + 1``
    of the king's castle (000_…: "5 bonus points if the player has a knight on level 1 of the king's castle")."""
    if king < 0 or info.cid[king] < 0:
        return False
    castle, level = info.cid[king], phase + 1
    return any(info.cid[sq] == castle and info.heights[sq] == level for sq in squares)


def castle_scores(info: BoardInfo, knights: list[list[int]]) -> list[CastleScore]:
    """Each seat scores every castle it stands on: area × level of its highest knight there (000_…: "the
    product of the number of spaces in the surface area of the castle and the level of their highest knight")."""
    # Castle numbers and the order of a castle's squares depend on how the engine reached a height map; the
    # record lists castles by their first square and squares in board order, whatever the path.
    order = sorted(range(info.castle_count), key=lambda c: min(info.squares[c]))
    out = []
    for seat, squares in enumerate(knights):
        best = highest_levels(info, squares)
        for c in order:
            if c in best:
                names = tuple(square_name(s) for s in sorted(info.squares[c]))
                out.append(CastleScore(seat, names, info.area[c], best[c], info.area[c] * best[c]))
    return out


def king_bonus(info: BoardInfo, knights: list[list[int]], king: int, phase: int, bonus: tuple[int, ...]) -> list[int]:
    """5/10/15 to each seat with a knight on level 1/2/3 of the king's castle after phase 1/2/3, once per seat."""
    return [bonus[phase] if earns_king_bonus(info, squares, king, phase) else 0 for squares in knights]


def advance(scores: list[int], seat: int, points: int) -> None:
    """Move a marker ``points`` spaces; a marker never stops on an occupied space (except the start space):
    "If a marker would stop on a space that is already occupied, it is placed on the next empty space" (000_…)."""
    if points <= 0:
        return
    target = scores[seat] + points
    others = {s for i, s in enumerate(scores) if i != seat}
    while target in others:
        target += 1
    scores[seat] = target


def scoring_order(rules: Rules, scores: list[int] | tuple[int, ...], start: int, phase: int) -> list[int]:
    """The seats in the order their markers move at a phase scoring: from the start player, or (the rules'
    ``scoring_order`` TRACK) after the first phase the leader on the track first, ties from the start player."""
    n = len(scores)
    if rules.scoring_order is ScoringOrder.TRACK and phase > 0:
        return sorted(range(n), key=lambda s: (-scores[s], (s - start) % n))
    return [(start + i) % n for i in range(n)]


def track_after_scoring(rules: Rules, info: BoardInfo, knights: list[list[int]], king: int, phase: int,
                        scores: list[int] | tuple[int, ...], start: int, master_card: int) -> list[int]:
    """Every seat's place on the track after the scoring of ``phase``: :func:`score_phase`'s ``after`` without
    its record, which a search asks for at every position it reaches (the yardstick's "score now" evaluation)."""
    track = list(scores)
    order = scoring_order(rules, scores, start, phase)
    for seat in order:
        advance(track, seat, castle_points(info, knights[seat])[0])
    bonus = rules.king_bonus[phase]
    for seat in order:
        if earns_king_bonus(info, knights[seat], king, phase):
            advance(track, seat, bonus)
    if master_card >= 0:
        extra = master_bonus(MasterCard(master_card), phase, info, knights)
        for seat in order:
            advance(track, seat, extra[seat])
    return track


def score_phase(rules: Rules, info: BoardInfo, knights: list[list[int]], king: int, phase: int,
                scores: list[int] | tuple[int, ...], start: int, master_card: int) -> PhaseScoring:
    """The scoring of ``phase`` on this board, without changing anything: castles, then the king's bonus, then
    the master card's bonus, each moved along the track seat by seat in the scoring order."""
    n = len(knights)
    before = tuple(scores)
    order = scoring_order(rules, scores, start, phase)
    castles = castle_scores(info, knights)
    bonus = king_bonus(info, knights, king, phase, rules.king_bonus)
    extra = master_bonus(MasterCard(master_card), phase, info, knights) if master_card >= 0 else [0] * n
    track = track_after_scoring(rules, info, knights, king, phase, scores, start, master_card)
    king_castle: tuple[str, ...] = ()
    if king >= 0 and info.cid[king] >= 0:
        king_castle = tuple(square_name(s) for s in info.squares[info.cid[king]])
    return PhaseScoring(phase, tuple(order), tuple(castles), king_castle, tuple(bonus), tuple(extra), before,
                        tuple(track))
