"""Board geometry: squares ``a1``..``h8`` as integers 0..63 (``rank * 8 + file``).

Files a–h run left to right, ranks 1–8 bottom to top, as in chess.
"""

from __future__ import annotations

FILES = "abcdefgh"
SQUARES = range(64)


def square(file: int, rank: int) -> int:
    return rank * 8 + file


def square_name(sq: int) -> str:
    return FILES[sq & 7] + str((sq >> 3) + 1)


def parse_square(text: str) -> int:
    """``"c6"`` → 42. Raises ``ValueError`` naming the bad text."""
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in FILES or t[1] not in "12345678":
        raise ValueError(f"not a square: {text!r} (squares are a1..h8)")
    return square(FILES.index(t[0]), int(t[1]) - 1)


def _offsets(deltas: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    table = []
    for sq in SQUARES:
        f, r = sq & 7, sq >> 3
        table.append(tuple(square(f + df, r + dr) for df, dr in deltas if 0 <= f + df < 8 and 0 <= r + dr < 8))
    return tuple(table)


ORTHOGONAL_DELTAS = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL_DELTAS = ((1, 1), (-1, 1), (1, -1), (-1, -1))

#: ORTHOGONAL[sq]: the up-to-4 orthogonal neighbours of sq.
ORTHOGONAL = _offsets(ORTHOGONAL_DELTAS)
#: DIAGONAL[sq]: the up-to-4 diagonal neighbours of sq.
DIAGONAL = _offsets(DIAGONAL_DELTAS)


def _step_table(deltas: tuple[tuple[int, int], ...], distance: int) -> tuple[tuple[int, ...], ...]:
    """STEP[sq][d]: the square ``distance`` steps from sq in direction d, or -1 off the board."""
    table = []
    for sq in SQUARES:
        f, r = sq & 7, sq >> 3
        row = []
        for df, dr in deltas:
            nf, nr = f + df * distance, r + dr * distance
            row.append(square(nf, nr) if 0 <= nf < 8 and 0 <= nr < 8 else -1)
        table.append(tuple(row))
    return tuple(table)


ORTHO_STEP = _step_table(ORTHOGONAL_DELTAS, 1)
ORTHO_STEP2 = _step_table(ORTHOGONAL_DELTAS, 2)
DIAG_STEP = _step_table(DIAGONAL_DELTAS, 1)
DIRECTION_NAMES = ("e", "w", "n", "s")
