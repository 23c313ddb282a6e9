"""Actions: one integer id per action (a fixed action space), a frozen :class:`Action` value with a text form.

``Action.parse(str(a)) == a`` for every action. The text forms (docs/notation.md):

==============================  =====================================================
``start c6``                    setup: a player's first knight on an empty castle
``king c6`` / ``king stay``     setup king, or the lowest scorer's king move / not moving it
``castle c6``                   master version: place a starting castle
``first 2``                     IDW: the lowest scorer names the start player (seat 0..3)
``knight c6``                   add a knight (2 AP)
``c5-c6``                       move a knight: one step or through a castle's doors (1 AP)
``stack 3``                     take a stack of 3 blocks as this turn's stack (0 AP)
``block c6``                    place a block from this turn's stack (1 AP)
``buy``                         buy an action card (1 AP)
``keep climb top:vault bottom:shift``  own deck: which drawn card to keep and where the others go
``score``                       one step on the scoring track (1 AP)
``end``                         end the turn
``play <card> ...``             play a card (0 AP): ``play climb c3-c4``, ``play lift c3 from:2``,
                                ``play lift c3 from:turn``, ``play build c4``, ``play gate c3-f5``,
                                ``play diagonal c3-d4``, ``play six``, ``play seven``,
                                ``play shift c3-f5``, ``play redeploy c3-f5``, ``play vault c3-c5``
==============================  =====================================================
"""

from __future__ import annotations

from enum import IntEnum
from itertools import permutations
from typing import Iterable

from .cards import Card
from .squares import DIAG_STEP, DIAGONAL_DELTAS, ORTHO_STEP, ORTHO_STEP2, ORTHOGONAL_DELTAS, parse_square, square_name


class Kind(IntEnum):
    START = 0
    KING = 1
    KING_STAY = 2
    CASTLE = 3
    FIRST = 4
    KNIGHT = 5
    MOVE = 6
    STACK = 7
    BLOCK = 8
    BUY = 9
    KEEP = 10
    SCORE = 11
    END = 12
    CLIMB = 13
    LIFT = 14
    BUILD = 15
    GATE = 16
    DIAGONAL = 17
    SIX = 18
    SEVEN = 19
    SHIFT = 20
    REDEPLOY = 21
    VAULT = 22


#: What each kind of action costs in action points (000_…: adding a knight 2, moving, placing a block, buying a
#: card and a step on the scoring track 1 each); every other action (cards, stacks, keep, end, setup) costs none.
ACTION_POINTS = {Kind.KNIGHT: 2, Kind.MOVE: 1, Kind.BLOCK: 1, Kind.BUY: 1, Kind.SCORE: 1}


PLAY_KINDS = {
    Kind.CLIMB: Card.CLIMB,
    Kind.LIFT: Card.LIFT,
    Kind.BUILD: Card.BUILD,
    Kind.GATE: Card.GATE,
    Kind.DIAGONAL: Card.DIAGONAL,
    Kind.SIX: Card.SIX,
    Kind.SEVEN: Card.SEVEN,
    Kind.SHIFT: Card.SHIFT,
    Kind.REDEPLOY: Card.REDEPLOY,
    Kind.VAULT: Card.VAULT,
}
KIND_OF_CARD = {card: kind for kind, card in PLAY_KINDS.items()}

MAX_STACK = 16  # stack heights 1..15 are addressable (yucata stacks can grow past 3)
MAX_SEATS = 4


def _keep_table() -> tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]:
    rows: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    cards = range(len(Card))
    for keep in cards:
        others = [c for c in cards if c != keep]
        rows.append((keep, (), ()))
        for c in others:
            rows.append((keep, (c,), ()))
            rows.append((keep, (), (c,)))
        for a, b in permutations(others, 2):
            rows.append((keep, (a, b), ()))
            rows.append((keep, (), (a, b)))
            rows.append((keep, (a,), (b,)))
    return tuple(rows)


#: (kept card, cards put back on top listed top-down, cards put at the bottom listed top-down)
KEEP_TABLE = _keep_table()
KEEP_INDEX = {row: i for i, row in enumerate(KEEP_TABLE)}

_SIZES = {
    Kind.START: 64,
    Kind.KING: 64,
    Kind.KING_STAY: 1,
    Kind.CASTLE: 64,
    Kind.FIRST: MAX_SEATS,
    Kind.KNIGHT: 64,
    Kind.MOVE: 64 * 64,
    Kind.STACK: MAX_STACK,
    Kind.BLOCK: 64,
    Kind.BUY: 1,
    Kind.KEEP: len(KEEP_TABLE),
    Kind.SCORE: 1,
    Kind.END: 1,
    Kind.CLIMB: 64 * 4,
    Kind.LIFT: 64 * MAX_STACK,
    Kind.BUILD: 64,
    Kind.GATE: 64 * 64,
    Kind.DIAGONAL: 64 * 4,
    Kind.SIX: 1,
    Kind.SEVEN: 1,
    Kind.SHIFT: 64 * 64,
    Kind.REDEPLOY: 64 * 64,
    Kind.VAULT: 64 * 4,
}
OFFSET: dict[Kind, int] = {}
_total = 0
for _kind in Kind:
    OFFSET[_kind] = _total
    _total += _SIZES[_kind]
#: Size of the integer action space (ids are 0..NUM_ACTIONS-1).
NUM_ACTIONS = _total

# Offsets as plain ints, for the move generator's hot loops.
O_START, O_KING, O_KING_STAY, O_CASTLE, O_FIRST = (OFFSET[k] for k in (Kind.START, Kind.KING, Kind.KING_STAY, Kind.CASTLE, Kind.FIRST))
O_KNIGHT, O_MOVE, O_STACK, O_BLOCK, O_BUY = (OFFSET[k] for k in (Kind.KNIGHT, Kind.MOVE, Kind.STACK, Kind.BLOCK, Kind.BUY))
O_KEEP, O_SCORE, O_END = OFFSET[Kind.KEEP], OFFSET[Kind.SCORE], OFFSET[Kind.END]
O_CLIMB, O_LIFT, O_BUILD, O_GATE, O_DIAGONAL = (OFFSET[k] for k in (Kind.CLIMB, Kind.LIFT, Kind.BUILD, Kind.GATE, Kind.DIAGONAL))
O_SIX, O_SEVEN, O_SHIFT, O_REDEPLOY, O_VAULT = (OFFSET[k] for k in (Kind.SIX, Kind.SEVEN, Kind.SHIFT, Kind.REDEPLOY, Kind.VAULT))


def _decode_table() -> tuple[tuple[Kind, int, int], ...]:
    """For every id: (kind, a, b). Squares for a/b; for STACK a = height; for LIFT b = stack height (0 = turn's
    stack); for FIRST a = seat; for KEEP a = KEEP_TABLE row; for CLIMB/DIAGONAL/VAULT b = destination square."""
    rows: list[tuple[Kind, int, int]] = []
    for kind in Kind:
        size = _SIZES[kind]
        for i in range(size):
            if kind in (Kind.MOVE, Kind.GATE, Kind.SHIFT, Kind.REDEPLOY):
                rows.append((kind, i >> 6, i & 63))
            elif kind in (Kind.CLIMB, Kind.VAULT, Kind.DIAGONAL):
                src, d = i >> 2, i & 3
                table = {Kind.CLIMB: ORTHO_STEP, Kind.VAULT: ORTHO_STEP2, Kind.DIAGONAL: DIAG_STEP}[kind]
                rows.append((kind, src, table[src][d]))
            elif kind is Kind.LIFT:
                rows.append((kind, i // MAX_STACK, i % MAX_STACK))
            else:
                rows.append((kind, i, -1))
    return tuple(rows)


DECODE = _decode_table()


class Action:
    """One action as a value: compares and hashes by its integer id.

    >>> a = Action.parse("c5-c6")
    >>> str(a), a.kind.name, a == Action(a.id)
    ('c5-c6', 'MOVE', True)
    >>> str(Action.parse("play lift c3 from:2"))
    'play lift c3 from:2'
    """

    __slots__ = ("id",)
    id: int

    def __init__(self, action_id: int) -> None:
        if not is_valid_id(action_id):
            raise ValueError(f"no action has id {action_id}")
        object.__setattr__(self, "id", action_id)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Action is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    def __lt__(self, other: "Action") -> bool:
        return self.id < other.id

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @property
    def kind(self) -> Kind:
        return DECODE[self.id][0]

    @property
    def card(self) -> Card | None:
        """The card this action plays (``play ...`` actions) or keeps (``keep ...``)."""
        kind, a, _ = DECODE[self.id]
        if kind is Kind.KEEP:
            return Card(KEEP_TABLE[a][0])
        return PLAY_KINDS.get(kind)

    @property
    def square(self) -> int:
        """The square acted on: the destination of moves, the target of placements; -1 if none."""
        kind, a, b = DECODE[self.id]
        if kind in _TWO_SQUARE:
            return b
        return a if kind in _ONE_SQUARE else -1

    @property
    def source(self) -> int:
        """The square a knight or block leaves, for two-square actions; -1 otherwise."""
        kind, a, _ = DECODE[self.id]
        return a if kind in _TWO_SQUARE else -1

    def __str__(self) -> str:
        return format_action(self.id)

    @classmethod
    def parse(cls, text: str) -> "Action":
        return cls(parse_action_id(text))


def is_valid_id(action_id: int) -> bool:
    """Whether ``action_id`` names an action (a few ids in the fixed space name nothing, e.g. ``stack 0``)."""
    if not 0 <= action_id < NUM_ACTIONS:
        return False
    kind, a, b = DECODE[action_id]
    if kind in _DIRECTIONAL:
        return b >= 0
    if kind is Kind.STACK:
        return a > 0
    return True


_DIRECTIONAL = {Kind.CLIMB, Kind.VAULT, Kind.DIAGONAL}
_TWO_SQUARE = {Kind.MOVE, Kind.GATE, Kind.SHIFT, Kind.REDEPLOY, Kind.CLIMB, Kind.VAULT, Kind.DIAGONAL}
_ONE_SQUARE = {Kind.START, Kind.KING, Kind.CASTLE, Kind.KNIGHT, Kind.BLOCK, Kind.LIFT, Kind.BUILD}
_SIMPLE_WORDS = {Kind.KING_STAY: "king stay", Kind.BUY: "buy", Kind.SCORE: "score", Kind.END: "end",
                 Kind.SIX: "play six", Kind.SEVEN: "play seven"}
_SQUARE_WORDS = {Kind.START: "start", Kind.KING: "king", Kind.CASTLE: "castle", Kind.KNIGHT: "knight",
                 Kind.BLOCK: "block"}


def _cards_text(cards: Iterable[int]) -> str:
    return ",".join(Card(c).text for c in cards)


def format_action(action_id: int) -> str:
    kind, a, b = DECODE[action_id]
    if kind in _SIMPLE_WORDS:
        return _SIMPLE_WORDS[kind]
    if kind in _SQUARE_WORDS:
        return f"{_SQUARE_WORDS[kind]} {square_name(a)}"
    if kind is Kind.MOVE:
        return f"{square_name(a)}-{square_name(b)}"
    if kind is Kind.FIRST:
        return f"first {a}"
    if kind is Kind.STACK:
        return f"stack {a}"
    if kind is Kind.KEEP:
        keep, top, bottom = KEEP_TABLE[a]
        text = f"keep {Card(keep).text}"
        if top:
            text += f" top:{_cards_text(top)}"
        if bottom:
            text += f" bottom:{_cards_text(bottom)}"
        return text
    if kind is Kind.BUILD:
        return f"play build {square_name(a)}"
    if kind is Kind.LIFT:
        return f"play lift {square_name(a)} from:{b if b else 'turn'}"
    return f"play {PLAY_KINDS[kind].text} {square_name(a)}-{square_name(b)}"


def _two_squares(text: str) -> tuple[int, int]:
    src, dash, dst = text.partition("-")
    if not dash:
        raise ValueError(f"expected two squares like c3-c4, got {text!r}")
    return parse_square(src), parse_square(dst)


def _directional(kind: Kind, src: int, dst: int) -> int:
    table = {Kind.CLIMB: ORTHO_STEP, Kind.VAULT: ORTHO_STEP2, Kind.DIAGONAL: DIAG_STEP}[kind]
    try:
        d = table[src].index(dst)
    except ValueError:
        shape = {Kind.CLIMB: "an orthogonal neighbour", Kind.VAULT: "two squares away in a straight line",
                 Kind.DIAGONAL: "a diagonal neighbour"}[kind]
        raise ValueError(f"{square_name(dst)} is not {shape} of {square_name(src)}") from None
    return OFFSET[kind] + src * 4 + d


def parse_action_id(text: str) -> int:
    """Text → action id. Raises ``ValueError`` saying what is wrong with the text."""
    words = text.strip().lower().split()
    if not words:
        raise ValueError("empty action")
    joined = " ".join(words)
    for kind, word in _SIMPLE_WORDS.items():
        if joined == word:
            return OFFSET[kind]
    head, args = words[0], words[1:]
    for kind, word in _SQUARE_WORDS.items():
        if head == word:
            if len(args) != 1:
                raise ValueError(f"'{word}' takes one square, e.g. '{word} c6'")
            return OFFSET[kind] + parse_square(args[0])
    if head == "first":
        if len(args) != 1 or not args[0].isdigit() or int(args[0]) >= MAX_SEATS:
            raise ValueError("'first' takes a seat number 0..3, e.g. 'first 2'")
        return O_FIRST + int(args[0])
    if head == "stack":
        if len(args) != 1 or not args[0].isdigit() or not 1 <= int(args[0]) < MAX_STACK:
            raise ValueError(f"'stack' takes a stack height 1..{MAX_STACK - 1}, e.g. 'stack 3'")
        return O_STACK + int(args[0])
    if head == "keep":
        return _parse_keep(args)
    if head == "play":
        return _parse_play(args)
    if len(words) == 1 and "-" in head:
        src, dst = _two_squares(head)
        return O_MOVE + src * 64 + dst
    raise ValueError(f"unknown action {text.strip()!r}")


def _parse_keep(args: list[str]) -> int:
    if not args:
        raise ValueError("'keep' needs the card to keep, e.g. 'keep climb top:vault bottom:shift'")
    keep = int(Card.parse(args[0]))
    top: tuple[int, ...] = ()
    bottom: tuple[int, ...] = ()
    for arg in args[1:]:
        where, colon, cards = arg.partition(":")
        if not colon or where not in ("top", "bottom"):
            raise ValueError(f"expected top:<cards> or bottom:<cards>, got {arg!r}")
        parsed = tuple(int(Card.parse(c)) for c in cards.split(","))
        if where == "top":
            top = parsed
        else:
            bottom = parsed
    row = (keep, top, bottom)
    if row not in KEEP_INDEX:
        raise ValueError("a kept card and at most two distinct other cards, each returned once")
    return O_KEEP + KEEP_INDEX[row]


def _parse_play(args: list[str]) -> int:
    if not args:
        raise ValueError("'play' needs a card, e.g. 'play six'")
    card = Card.parse(args[0])
    kind = KIND_OF_CARD[card]
    rest = args[1:]
    if kind in (Kind.SIX, Kind.SEVEN):
        if rest:
            raise ValueError(f"'play {card.text}' takes no arguments")
        return OFFSET[kind]
    if kind is Kind.BUILD:
        if len(rest) != 1:
            raise ValueError("'play build' takes one square, e.g. 'play build c4'")
        return O_BUILD + parse_square(rest[0])
    if kind is Kind.LIFT:
        if len(rest) != 2 or not rest[1].startswith("from:"):
            raise ValueError("'play lift' takes a square and a stack, e.g. 'play lift c3 from:2' or 'from:turn'")
        which = rest[1][5:]
        if which == "turn":
            height = 0
        elif which.isdigit() and 1 <= int(which) < MAX_STACK:
            height = int(which)
        else:
            raise ValueError(f"bad stack {which!r}: a height 1..{MAX_STACK - 1} or 'turn'")
        return O_LIFT + parse_square(rest[0]) * MAX_STACK + height
    if len(rest) != 1:
        raise ValueError(f"'play {card.text}' takes two squares, e.g. 'play {card.text} c3-c4'")
    src, dst = _two_squares(rest[0])
    if kind in _DIRECTIONAL:
        return _directional(kind, src, dst)
    return OFFSET[kind] + src * 64 + dst


def move_id(src: int, dst: int) -> int:
    return O_MOVE + src * 64 + dst


__all__ = ["Action", "Kind", "KEEP_TABLE", "NUM_ACTIONS", "OFFSET", "DECODE", "format_action", "parse_action_id",
           "ORTHOGONAL_DELTAS", "DIAGONAL_DELTAS"]
