"""The 8 master cards (000_… "THE MASTER CARDS"): extra bonuses at phase scoring in the master version.

Decisions where the text is silent (docs/rules.md, "Master cards"): only knights on the board count; the
all-knights cards need at least two knights on the board; "in a row" is one rank or one file; a square may be
tilted; majorities are strict ("no ties"); "neighbouring" is one orthogonally connected group.
"""

from __future__ import annotations

from enum import IntEnum
from itertools import combinations

from .board import BoardInfo, connected


class MasterCard(IntEnum):
    DIFFERENT_LEVELS = 0
    SAME_LEVEL = 1
    IN_A_ROW = 2
    SQUARE = 3
    BORDER = 4
    CASTLES = 5
    DIAGONALS = 6
    NEIGHBOURS = 7

    @property
    def text(self) -> str:
        return self.name.lower()


MASTER_TEXT = {
    MasterCard.DIFFERENT_LEVELS: "All your knights on different levels after phase 3: 40 points.",
    MasterCard.SAME_LEVEL: "All your knights on the same level after phase 3: 50 points.",
    MasterCard.IN_A_ROW: "All your knights in a row (one rank or file) after phase 3: 50 points.",
    MasterCard.SQUARE: "4 of your knights on the corners of a square after phase 3: 50 points.",
    MasterCard.BORDER: "Each knight on a border square: 2/5/10 after phase 1/2/3; the most such knights: +2/5/10.",
    MasterCard.CASTLES: "Knights on exactly 4/5/6 castles after phase 1/2/3: 5/15/30 points.",
    MasterCard.DIAGONALS: "Each knight on a main diagonal: 2/5/10 after phase 1/2/3; the most such knights: +2/5/10.",
    MasterCard.NEIGHBOURS: "All your knights on neighbouring squares after phase 3: 40 points.",
}

_STEP = (2, 5, 10)
_EXACT_CASTLES = ((4, 5), (5, 15), (6, 30))


def _on_border(sq: int) -> bool:
    f, r = sq & 7, sq >> 3
    return f in (0, 7) or r in (0, 7)


def _on_main_diagonal(sq: int) -> bool:
    f, r = sq & 7, sq >> 3
    return f == r or f + r == 7


def _is_square(points: tuple[int, ...]) -> bool:
    coords = [(sq & 7, sq >> 3) for sq in points]
    dists = sorted((ax - bx) ** 2 + (ay - by) ** 2 for (ax, ay), (bx, by) in combinations(coords, 2))
    side, diag = dists[0], dists[4]
    return side > 0 and dists[:4] == [side] * 4 and dists[4:] == [diag, diag] and diag == 2 * side


def _majority_bonus(counts: list[int], amount: int) -> list[int]:
    best = max(counts)
    if best == 0 or counts.count(best) > 1:
        return [0] * len(counts)
    return [amount if c == best else 0 for c in counts]


def master_bonus(card: MasterCard, phase: int, info: BoardInfo, knights: list[list[int]]) -> list[int]:
    """Bonus points of each seat for ``card`` at the scoring after ``phase`` (0-based)."""
    h = info.heights
    n = len(knights)
    if card in (MasterCard.BORDER, MasterCard.DIAGONALS):
        test = _on_border if card is MasterCard.BORDER else _on_main_diagonal
        counts = [sum(1 for sq in squares if test(sq)) for squares in knights]
        extra = _majority_bonus(counts, _STEP[phase])
        return [c * _STEP[phase] + e for c, e in zip(counts, extra)]
    if card is MasterCard.CASTLES:
        wanted, points = _EXACT_CASTLES[phase]
        return [points if len({info.cid[sq] for sq in squares if info.cid[sq] >= 0}) == wanted else 0
                for squares in knights]
    if phase != 2:
        return [0] * n
    out = []
    for squares in knights:
        ok = False
        if len(squares) >= 2:
            levels = [h[sq] for sq in squares]
            if card is MasterCard.DIFFERENT_LEVELS:
                ok = len(set(levels)) == len(levels)
            elif card is MasterCard.SAME_LEVEL:
                ok = len(set(levels)) == 1
            elif card is MasterCard.IN_A_ROW:
                ok = len({sq & 7 for sq in squares}) == 1 or len({sq >> 3 for sq in squares}) == 1
            elif card is MasterCard.SQUARE:
                ok = any(_is_square(four) for four in combinations(squares, 4))
            elif card is MasterCard.NEIGHBOURS:
                ok = connected(squares)
        out.append(_master_points(card) if ok else 0)
    return out


def _master_points(card: MasterCard) -> int:
    return {MasterCard.DIFFERENT_LEVELS: 40, MasterCard.SAME_LEVEL: 50, MasterCard.IN_A_ROW: 50,
            MasterCard.SQUARE: 50, MasterCard.NEIGHBOURS: 40}[card]
