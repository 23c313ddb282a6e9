"""The ten action cards. Every deck (own or common) holds only these types."""

from __future__ import annotations

from enum import IntEnum


class Card(IntEnum):
    CLIMB = 0  # jump a knight two levels up onto an orthogonal neighbour
    LIFT = 1  # put a block from your stacks under one of your knights
    BUILD = 2  # place an extra block from the general supply
    GATE = 3  # door travel that may climb any number of levels
    DIAGONAL = 4  # move a knight one square diagonally (up at most one level)
    SIX = 5  # 6 action points this turn instead of 5
    SEVEN = 6  # 7 action points this turn instead of 5
    SHIFT = 7  # move an empty block elsewhere on the board
    REDEPLOY = 8  # take a knight off and re-place it as if adding a knight
    VAULT = 9  # jump a knight over an adjacent knight

    @property
    def text(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> "Card":
        try:
            return cls[text.strip().upper()]
        except KeyError:
            names = ", ".join(c.text for c in cls)
            raise ValueError(f"unknown card {text!r} (cards: {names})") from None


CARD_TYPES = tuple(Card)
N_CARD_TYPES = len(CARD_TYPES)
#: What each card says, in the Rio Grande wording (000_…): shown to players.
CARD_TEXT = {
    Card.CLIMB: "Jump one of your knights two levels up to an empty orthogonally adjacent space.",
    Card.LIFT: "Place a tower block from your supply under one of your knights.",
    Card.BUILD: "Place an additional tower block from the general supply (normal rules).",
    Card.GATE: "Enter an adjacent door and exit from any door of that castle, climbing any number of levels.",
    Card.DIAGONAL: "Move one of your knights 1 space diagonally; it may also move upward 1 level.",
    Card.SIX: "You may use 6 action points instead of 5 on this turn.",
    Card.SEVEN: "You may use 7 action points instead of 5 on this turn.",
    Card.SHIFT: "Move any empty tower block on the board to another empty space on the board.",
    Card.REDEPLOY: "Move one of your knights to an empty space as though you were adding a knight.",
    Card.VAULT: "Move one of your knights past one other knight by jumping over it.",
}
