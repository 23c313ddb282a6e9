"""The observation: one fixed-shape ``float32`` vector built from a seat's own view, and the action mask.

:func:`encode` reads only the fields of :class:`~torres.engine.view.SeatView` listed in :class:`PublicView`, so it
can only see what the seat may know. The environment feeds it a :class:`PublicFields` — those same fields taken
from the state exactly as ``SeatView.of`` takes them, without the history and position strings a ``SeatView``
also formats (they cost ten times an engine step); ``tests/test_env.py`` checks that both give the same vector.

The layout (:data:`LAYOUT`, documented channel by channel in docs/research.md) is a list of named sections;
``unflatten(obs)`` returns them as named arrays. Per-seat sections are **relative to the observer**: slot 0 is the
observer, slot 1 the next seat clockwise, ...; slots past the number of players are zero. Board sections are
64 squares in the engine's square order (``a1`` = 0, ``b1`` = 1, ..., ``h8`` = 63).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Protocol, Sequence

import numpy as np

from ..engine.actions import MAX_SEATS, MAX_STACK, NUM_ACTIONS
from ..engine.board import board_info
from ..engine.cards import N_CARD_TYPES
from ..engine.master import MasterCard
from ..engine.rules import CardMode, NextStarter, PhaseEndBlocks, Rules, StackChoice
from ..engine.state import GameState, Stage

#: Stack heights 1..15 can be named by an action (``stack 15``); the stacks section counts stacks per height.
STACK_HEIGHTS = MAX_STACK - 1
#: Deck slots shown for the observer's own deck (a deck holds at most the ten card types).
DECK_SLOTS = N_CARD_TYPES


@dataclass(frozen=True)
class Section:
    """One named part of the observation vector: ``shape`` values from ``offset``, each in ``[0, high]``."""

    name: str
    shape: tuple[int, ...]
    high: float
    doc: str

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


_SECTIONS = (
    # board planes, 64 squares each
    Section("height", (64,), 92, "level of each square (blocks on it)"),
    Section("castle_area", (64,), 64, "area (squares) of the castle the square belongs to; 0 on the ground"),
    Section("castle_top", (64,), 92, "level of the tallest square of the square's castle; 0 on the ground"),
    Section("castle_id", (64,), 64, "1 + the castle's index (castles numbered by their first square, a1 first); "
            "0 on the ground: equal values = the same castle"),
    Section("knights", (MAX_SEATS, 64), 1, "1 where a knight of relative seat k stands (k = 0: the observer)"),
    Section("king", (64,), 1, "1 on the king's square"),
    # the game's progress
    Section("stage", (len(Stage),), 1, "one-hot Stage: castles, knights, king_setup, turn, keep, king_move, "
            "choose_first, over"),
    Section("to_act", (MAX_SEATS,), 1, "one-hot relative seat to act (all 0 when the game is over)"),
    Section("start", (MAX_SEATS,), 1, "one-hot relative seat of the start player"),
    Section("players", (3,), 1, "one-hot number of players: 2, 3, 4"),
    Section("phase", (3,), 1, "one-hot phase (year) 1-3"),
    Section("round", (1,), 16, "rounds finished in this phase"),
    Section("rounds", (1,), 16, "rounds in this phase"),
    Section("turn", (1,), 8, "turns taken in this round (setup: placements made)"),
    # this turn
    Section("ap", (1,), 16, "action points left in this turn"),
    Section("buys", (1,), 8, "cards bought this turn"),
    Section("played", (1,), 1, "1 if a card was played this turn"),
    Section("stack_taken", (1,), 1, "1 if this turn's stack was taken"),
    Section("turn_stack", (1,), 92, "blocks left in this turn's stack (0 if none taken)"),
    # per seat, relative
    Section("supply", (1,), 92, "blocks in the general supply"),
    Section("scores", (MAX_SEATS,), 1000, "score of each relative seat"),
    Section("stacks", (MAX_SEATS, STACK_HEIGHTS), 16, "per relative seat: how many stacks of height 1..15 it has "
            "left (column h-1)"),
    Section("carry", (MAX_SEATS,), 92, "blocks each relative seat keeps for the next phase (IDW)"),
    Section("reserve", (MAX_SEATS,), 16, "knights each relative seat has not placed yet"),
    Section("hand_sizes", (MAX_SEATS,), 40, "cards in each relative seat's hand"),
    Section("deck_sizes", (MAX_SEATS,), 40, "cards in each relative seat's own deck (own-deck rules)"),
    Section("discards", (MAX_SEATS, N_CARD_TYPES), 4, "cards each relative seat has played, by card type"),
    # the observer's own cards
    Section("hand", (N_CARD_TYPES,), 4, "the observer's cards, by card type"),
    Section("fresh", (N_CARD_TYPES,), 4, "of those, bought this turn (not playable yet)"),
    Section("drawn", (N_CARD_TYPES,), 3, "drawn cards awaiting a keep decision, by card type"),
    Section("deck_known", (DECK_SLOTS, N_CARD_TYPES), 1, "the observer's own deck from the top (row 0 = top "
            "card): one-hot card where the observer knows it, zeros where not"),
    # public card facts and the setting
    Section("drawn_count", (1,), 3, "cards drawn by the seat to act, awaiting its keep"),
    Section("common_size", (1,), 40, "cards left in the common deck (common-deck rules)"),
    Section("master_card", (len(MasterCard),), 1, "one-hot master card (master version)"),
    Section("rules", (6,), 1, "flags: common deck, full hand, master version, largest stack automatic, "
            "blocks kept between phases, lowest scorer names the start player"),
)


def _layout() -> tuple[dict[str, slice], int]:
    out: dict[str, slice] = {}
    offset = 0
    for s in _SECTIONS:
        out[s.name] = slice(offset, offset + s.size)
        offset += s.size
    return out, offset


#: Section name → the slice of the observation vector holding it.
LAYOUT, OBS_SIZE = _layout()
SECTIONS: dict[str, Section] = {s.name: s for s in _SECTIONS}


def observation_high() -> np.ndarray:
    """The upper bound of each entry (the lower bound is 0): the observation space's ``high``."""
    high = np.empty(OBS_SIZE, np.float32)
    for s in _SECTIONS:
        high[LAYOUT[s.name]] = s.high
    return high


def unflatten(obs: np.ndarray) -> dict[str, np.ndarray]:
    """The observation's sections by name, each in its shape (views into ``obs``)."""
    return {s.name: obs[LAYOUT[s.name]].reshape(s.shape) for s in _SECTIONS}


class PublicView(Protocol):
    """The fields of :class:`~torres.engine.view.SeatView` the observation reads (a ``SeatView`` is one)."""

    @property
    def seat(self) -> int: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def players(self) -> int: ...
    @property
    def stage(self) -> Stage: ...
    @property
    def current(self) -> int: ...
    @property
    def phase(self) -> int: ...
    @property
    def round(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def start(self) -> int: ...
    @property
    def ap(self) -> int: ...
    @property
    def buys(self) -> int: ...
    @property
    def played(self) -> bool: ...
    @property
    def turn_stack(self) -> int: ...
    @property
    def heights(self) -> bytes | bytearray: ...
    @property
    def knights(self) -> Sequence[Sequence[int]]: ...
    @property
    def king(self) -> int: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def supply(self) -> int: ...
    @property
    def stacks(self) -> Sequence[Sequence[int]]: ...
    @property
    def carry(self) -> Sequence[int]: ...
    @property
    def hand(self) -> Sequence[int]: ...
    @property
    def fresh(self) -> Sequence[int]: ...
    @property
    def drawn(self) -> Sequence[int]: ...
    @property
    def deck_known(self) -> Sequence[int]: ...
    @property
    def hand_sizes(self) -> Sequence[int]: ...
    @property
    def deck_sizes(self) -> Sequence[int]: ...
    @property
    def drawn_count(self) -> int: ...
    @property
    def common_size(self) -> int: ...
    @property
    def discards(self) -> Sequence[Sequence[int]]: ...
    @property
    def master_card(self) -> int: ...
    @property
    def legal(self) -> Sequence[int]: ...


_ZEROS = (0,) * N_CARD_TYPES


class PublicFields:
    """The :class:`PublicView` fields of ``state`` for ``seat``, taken as ``SeatView.of`` takes them (no copies:
    read it at once, before the state changes). ``deck_known``, ``hand_sizes`` and ``deck_sizes`` are computed
    when first read."""

    __slots__ = ("seat", "rules", "players", "stage", "current", "phase", "round", "turn", "start", "ap", "buys",
                 "played", "turn_stack", "heights", "knights", "king", "scores", "supply", "stacks", "carry",
                 "hand", "fresh", "drawn", "drawn_count", "common_size", "discards", "master_card", "legal",
                 "_state")

    def __init__(self, state: GameState, seat: int) -> None:
        current = state.current
        mine = current == seat
        stage = state.stage
        self._state = state
        self.seat = seat
        self.rules = state.rules
        self.players = state.n
        self.stage = stage
        self.current = current
        self.phase = state.phase
        self.round = state.round
        self.turn = state.turn
        self.start = state.start
        self.ap = state.ap
        self.buys = state.buys
        self.played = state.played
        self.turn_stack = state.turn_stack
        self.heights = state.heights
        self.knights = state.knights
        self.king = state.king
        self.scores = state.scores
        self.supply = state.supply
        self.stacks = state.stacks
        self.carry = state.carry
        self.hand = state.hands[seat]
        self.fresh = state.fresh if mine else _ZEROS
        self.drawn = state.drawn if mine else ()
        self.drawn_count = len(state.drawn)
        self.common_size = len(state.common)
        self.discards = state.discards
        self.master_card = state.master_card
        self.legal = state.legal_action_ids() if mine and stage is not Stage.OVER else ()

    @property
    def deck_known(self) -> list[int]:
        state, seat = self._state, self.seat
        return [c if k else -1 for c, k in zip(state.decks[seat], state.known[seat])]

    @property
    def hand_sizes(self) -> list[int]:
        return [sum(h) for h in self._state.hands]

    @property
    def deck_sizes(self) -> list[int]:
        return [len(d) for d in self._state.decks]


# Offsets used by encode. Everything after the board planes (the "tail") holds small non-negative integers: encode
# writes it into an ``array('h')`` (cheap item writes from Python) and converts it to float32 in one go.
_O = {name: sl.start for name, sl in LAYOUT.items()}
_BOARD = slice(_O["height"], _O["knights"])  # height, castle_area, castle_top, castle_id
_T0 = _O["knights"]
_T = {name: start - _T0 for name, start in _O.items() if start >= _T0}
_STAGE, _TO_ACT, _START, _PLAYERS, _PHASE = _T["stage"], _T["to_act"], _T["start"], _T["players"], _T["phase"]
_ROUND, _ROUNDS, _TURN, _AP, _BUYS = _T["round"], _T["rounds"], _T["turn"], _T["ap"], _T["buys"]
_PLAYED, _TAKEN, _TSTACK, _SCORES = _T["played"], _T["stack_taken"], _T["turn_stack"], _T["scores"]
_STACKS, _CARRY, _RESERVE, _HSIZES = _T["stacks"], _T["carry"], _T["reserve"], _T["hand_sizes"]
_DSIZES, _DISCARDS, _HAND, _FRESH = _T["deck_sizes"], _T["discards"], _T["hand"], _T["fresh"]
_DRAWN, _DECK, _DCOUNT, _CSIZE = _T["drawn"], _T["deck_known"], _T["drawn_count"], _T["common_size"]
_MASTER, _RULES, _SUPPLY = _T["master_card"], _T["rules"], _T["supply"]
_KNIGHTS, _KING = _T["knights"], _T["king"]
_NC = N_CARD_TYPES
_TAIL_ZEROS = array("h", bytes(2 * (OBS_SIZE - _T0)))

_board_cache: dict[bytes, np.ndarray] = {}
_BOARD_CACHE_LIMIT = 20_000
_rules_cache: dict[tuple[int, int], tuple[Rules, list[int], list[int]]] = {}


def _board_planes(heights: bytes) -> np.ndarray:
    """height, castle_area, castle_top and castle_id planes of a height map (cached by the height map)."""
    planes = _board_cache.get(heights)
    if planes is None:
        info = board_info(heights)
        cid = info.cid
        planes = np.zeros((4, 64), np.float32)
        planes[0] = np.frombuffer(heights, np.uint8)
        planes[1] = [info.area[c] if c >= 0 else 0 for c in cid]
        planes[2] = [info.top[c] if c >= 0 else 0 for c in cid]
        # Castles labelled by their first square (the engine's own numbering depends on the path taken).
        label = {c: i + 1 for i, c in enumerate(sorted(range(len(info.area)), key=lambda c: min(info.squares[c])))}
        planes[3] = [label[c] if c >= 0 else 0 for c in cid]
        planes.flags.writeable = False
        if len(_board_cache) >= _BOARD_CACHE_LIMIT:
            _board_cache.clear()
        _board_cache[heights] = planes
    return planes


def _constant(rules: Rules, n: int) -> tuple[list[int], list[int]]:
    """Indices set to 1 for the whole game (players, rule flags) and the rounds of each phase."""
    key = (id(rules), n)
    got = _rules_cache.get(key)
    if got is None or got[0] is not rules:
        flags = (rules.card_mode is CardMode.COMMON, rules.full_hand, rules.master,
                 rules.stack_choice is StackChoice.LARGEST, rules.phase_end_blocks is PhaseEndBlocks.KEEP,
                 rules.next_starter is NextStarter.CHOSEN_BY_LOWEST)
        ones = [_PLAYERS + n - 2] + [_RULES + i for i, f in enumerate(flags) if f]
        got = (rules, ones, [len(s) for s in rules.stacks_for(n)])
        if len(_rules_cache) > 256:
            _rules_cache.clear()
        _rules_cache[key] = got  # keeps ``rules`` alive, so its id is not reused while cached
    return got[1], got[2]


def slow_part(view: PublicView) -> array[int]:
    """The observation tail (everything after the board planes) with only the sections that the frequent actions
    (moves, blocks, new knights, score steps) never change: stacks, carry, supply, every card section, the
    players and the rules. The environment keeps it per seat until another kind of action happens."""
    t = array("h", _TAIL_ZEROS)
    me, n = view.seat, view.players
    ones, _ = _constant(view.rules, n)
    for i in ones:
        t[i] = 1
    t[_SUPPLY] = view.supply
    stacks, carry, hand_sizes, deck_sizes, discards = (view.stacks, view.carry, view.hand_sizes, view.deck_sizes,
                                                       view.discards)
    for k in range(n):  # per-seat sections, rotated so that slot 0 is the observer
        s = (me + k) % n
        t[_CARRY + k] = carry[s]
        t[_HSIZES + k] = hand_sizes[s]
        t[_DSIZES + k] = deck_sizes[s]
        base = _STACKS + k * STACK_HEIGHTS - 1
        for h in stacks[s]:
            t[base + h] += 1
        d = discards[s]
        if any(d):
            base = _DISCARDS + k * _NC
            t[base:base + _NC] = array("h", d)
    hand = view.hand
    if any(hand):
        t[_HAND:_HAND + _NC] = array("h", hand)
        fresh = view.fresh
        if any(fresh):
            t[_FRESH:_FRESH + _NC] = array("h", fresh)
    for c in view.drawn:
        t[_DRAWN + c] += 1
    deck = view.deck_known
    top = len(deck) - 1
    for i, c in enumerate(deck):
        if c >= 0:
            t[_DECK + (top - i) * _NC + c] = 1
    t[_DCOUNT] = view.drawn_count
    t[_CSIZE] = view.common_size
    if view.master_card >= 0:
        t[_MASTER + view.master_card] = 1
    return t


def encode(view: PublicView, out: np.ndarray | None = None, slow: array[int] | None = None) -> np.ndarray:
    """The observation vector of ``view`` (a fresh array, or ``out`` overwritten). ``slow`` is
    :func:`slow_part` of this view if the caller kept it (the environment does)."""
    if out is None:
        out = np.empty(OBS_SIZE, np.float32)
    me, n = view.seat, view.players
    heights = view.heights
    out[_BOARD] = _board_planes(heights if type(heights) is bytes else bytes(heights)).reshape(-1)
    t = array("h", slow if slow is not None else slow_part(view))
    knights = view.knights
    for k in range(n):
        base = _KNIGHTS + 64 * k
        for sq in knights[(me + k) % n]:
            t[base + sq] = 1
    if view.king >= 0:
        t[_KING + view.king] = 1
    stage = view.stage
    t[_STAGE + stage] = 1
    if stage is not Stage.OVER:
        t[_TO_ACT + (view.current - me) % n] = 1
    t[_START + (view.start - me) % n] = 1
    phase = view.phase
    t[_PHASE + phase] = 1
    t[_ROUND] = view.round
    t[_ROUNDS] = _constant(view.rules, n)[1][phase]
    t[_TURN] = view.turn
    t[_AP] = view.ap
    t[_BUYS] = view.buys
    t[_PLAYED] = view.played
    ts = view.turn_stack
    if ts >= 0:
        t[_TAKEN] = 1
        t[_TSTACK] = ts
    scores = view.scores
    per_player = view.rules.knights_per_player
    for k in range(n):
        s = (me + k) % n
        t[_SCORES + k] = scores[s]
        t[_RESERVE + k] = per_player - len(knights[s])
    out[_T0:] = np.frombuffer(t, np.int16)
    return out


def action_mask(legal: Sequence[int], out: np.ndarray | None = None) -> np.ndarray:
    """``np.int8`` of length ``NUM_ACTIONS``: 1 at each id in ``legal``, else 0."""
    if out is None:
        out = np.zeros(NUM_ACTIONS, np.int8)
    else:
        out.fill(0)
    if legal:
        out[legal if type(legal) is list else list(legal)] = 1  # a tuple would index dimensions
    return out
