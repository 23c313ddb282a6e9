"""The game state: every fact of a game of Torres, mutated by :meth:`GameState.push` and restored by ``pop``.

Pure and deterministic: no I/O, no clock. All chance (deck shuffles, a random start player, the drawn master
card) is drawn from ``random.Random(seed)`` when the game is created, so the seed plus the action history is the
whole game.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Iterable, Iterator, NamedTuple, cast

from . import movegen
from .actions import (
    DECODE, KEEP_TABLE, NUM_ACTIONS, Action, Kind, PLAY_KINDS, format_action, parse_action_id,
)
from .board import BoardInfo, board_info, board_info_after_block, board_info_after_shift
from .cards import N_CARD_TYPES, Card
from .master import MasterCard, master_bonus
from .rules import (
    CardMode, NextStarter, PhaseEndBlocks, Rules, ScoringOrder, StackChoice, StartPlayer,
)
from .scoring import PhaseScoring, advance, score_phase
from .squares import parse_square, square_name
from .stage import Stage as Stage  # re-exported: Stage lived here before it needed a module of its own

if TYPE_CHECKING:
    from .view import SeatView

EMPTY = 0
KING = 9  # occupancy code of the king; seat s's knights are s + 1


class _Snapshot(NamedTuple):
    """Everything ``pop`` restores (the history is truncated to ``history_len``)."""

    heights: bytes
    occ: bytes
    occupied: int
    knights: list[list[int]]
    king: int
    scores: list[int]
    supply: int
    stacks: list[list[int]]
    carry: list[int]
    turn_stack: int
    stack_taken: int
    ap: int
    buys: int
    played: bool
    fresh: list[int]
    drawn: list[int]
    hands: list[list[int]]
    decks: list[list[int]]
    known: list[list[bool]]
    common: list[int]
    discards: list[list[int]]
    phase: int
    round: int
    turn: int
    stage: Stage
    start: int
    scorings: list[PhaseScoring]
    history_len: int
    info: BoardInfo
    legal: list[int] | None  # the legal actions, if they were generated: pop need not generate them again


#: Actions that change none of the copy-on-write fields, and that ``pop`` reverses in place (``_HotRecord``).
_HOT_KINDS = frozenset({Kind.MOVE, Kind.BLOCK, Kind.KNIGHT, Kind.SCORE})

#: Undo record of a hot action: ap, turn_stack, occupied, the actor's score, info and legal before it.
_HotRecord = tuple[int, int, int, int, BoardInfo, list[int] | None]
#: Undo record of a ``stack``: stacks, turn_stack, stack_taken and legal before it.
_StackRecord = tuple[list[list[int]], int, int, list[int] | None]
#: Undo record of an ``end`` that does not end the round: stacks, carry, supply, turn_stack, stack_taken, ap,
#: buys, played, fresh and legal before it (the turn is one less).
_EndRecord = tuple[list[list[int]], list[int], int, int, int, int, int, bool, list[int], list[int] | None]
#: Card plays whose effect ``pop`` reverses in place: a block shifted or built, a knight moved, action points.
_PLAY_RECORD_KINDS = frozenset(PLAY_KINDS) - {Kind.LIFT}
#: Undo record of such a play: ap, supply, played, hands, discards (copy-on-write: the lists before it), occupied,
#: info and legal before it.
_PlayRecord = tuple[int, int, bool, list[list[int]], list[list[int]], int, BoardInfo, list[int] | None]
_UndoRecord = _Snapshot | _HotRecord | _StackRecord | _EndRecord | _PlayRecord

#: The ``Action`` that ``pop`` returns, by id: actions are immutable, and making one checks the id again (a search
#: pops as often as it pushes).
_ACTIONS: list[Action | None] = [None] * NUM_ACTIONS


class IllegalActionError(ValueError):
    """An action that the rules do not allow here; the message says which rule.

    The message is written for the seat to act and may name its own cards ("you drew ...", "you hold no vault
    card"): a front end rejects actions from any other seat before asking the engine, so no other seat sees it."""


# Every field of a state, named once: ``clone`` and pickle copy these, and a state has no ``__dict__`` to hide another
# in, pure or compiled (torres/native.py compiles this module to a class that has none).
_FIELDS = ("rules", "n", "seed", "stack_cap", "phase_stacks", "start", "master_card", "hands", "decks", "known",
           "common", "discards", "heights", "occ", "occupied", "knights", "king", "scores", "supply", "stacks", "carry",
           "turn_stack", "stack_taken", "ap", "buys", "played", "fresh", "drawn", "phase", "round", "turn", "scorings",
           "history", "actors", "_undo", "_legal", "stage", "_info")


class GameState:
    """A game of Torres between 2–4 seats (0-based, clockwise)."""

    __slots__ = _FIELDS

    # --- construction -------------------------------------------------------------------------------------
    def __init__(self, players: int = 4, seed: int = 0, rules: Rules | None = None) -> None:
        if not 2 <= players <= 4:
            raise ValueError("Torres is for 2 to 4 players")
        self.rules = rules or Rules()
        self.n = players
        self.seed = seed
        r = self.rules
        # yucata.de: "In a 2-player game, size of a player's stack may not exceed 3 and any unused blocks ...
        # are automatically placed into the next stacks that can fit them."
        self.stack_cap = r.stack_cap
        if r.edition == "yucata" and players == 2 and r.stack_cap == 0:
            self.stack_cap = 3
        self.phase_stacks = r.stacks_for(players)
        rng = random.Random(seed)
        self.start = rng.randrange(players) if r.start_player is StartPlayer.RANDOM else 0
        self.master_card = -1
        if r.master:
            self.master_card = r.master_card if r.master_card >= 0 else rng.randrange(len(MasterCard))
        full_hand = r.master or r.full_hand
        self.hands = [[1 if full_hand else 0] * N_CARD_TYPES for _ in range(players)]
        self.decks: list[list[int]] = [[] for _ in range(players)]
        self.known: list[list[bool]] = [[] for _ in range(players)]  # owner knows that deck position's card
        self.common: list[int] = []
        self.discards = [[0] * N_CARD_TYPES for _ in range(players)]  # cards each seat has played (public)
        if not full_hand:
            if r.card_mode is CardMode.OWN:
                for seat in range(players):
                    deck = list(range(N_CARD_TYPES))
                    rng.shuffle(deck)
                    self.decks[seat] = deck
                    self.known[seat] = [False] * len(deck)
            else:
                deck = [c for c in range(N_CARD_TYPES) for _ in range(4)]
                rng.shuffle(deck)
                self.common = deck
        self.heights = bytearray(64)
        self.occ = bytearray(64)
        self.occupied = 0  # bitmask of the squares holding a knight or the king
        self.knights: list[list[int]] = [[] for _ in range(players)]
        self.king = -1
        self.scores = [0] * players
        self.supply = r.blocks_total
        self.stacks: list[list[int]] = [[] for _ in range(players)]
        self.carry = [0] * players
        self.turn_stack = -1
        # The blocks the turn's stack held when it was taken (-1 before): ``stack_taken - turn_stack`` is the
        # number of blocks placed from it this turn. Set only by cold actions (``stack``, ``end``, a phase's
        # start), so the hot ``block`` action keeps counting down ``turn_stack`` alone.
        self.stack_taken = -1
        self.ap = r.action_points
        self.buys = 0
        self.played = False
        self.fresh = [0] * N_CARD_TYPES
        self.drawn: list[int] = []
        self.phase = 0
        self.round = 0
        self.turn = 0  # turns taken in this round, or placements made in a setup stage
        self.scorings: list[PhaseScoring] = []
        self.history: list[int] = []
        self.actors: list[int] = []  # the seat that took each action of the history
        self._undo: list[_UndoRecord] = []
        self._legal: list[int] | None = None
        if r.master:
            self.stage = Stage.CASTLES
        else:
            for name in r.castles:
                self.heights[parse_square(name)] = 1
            self.supply -= len(r.castles)
            self.stage = Stage.KNIGHTS
        self._info: BoardInfo = board_info(bytes(self.heights))

    # --- reading the state ----------------------------------------------------------------------------------
    @property
    def info(self) -> BoardInfo:
        return self._info

    @property
    def current(self) -> int:
        """The seat to act (in a setup stage: the seat placing; after a scoring: the lowest scorer)."""
        if self.stage in (Stage.KING_MOVE, Stage.CHOOSE_FIRST):
            return self._lowest_scorer()
        if self.stage is Stage.KING_SETUP:
            return (self.start + self.n - 1) % self.n
        return (self.start + self.turn) % self.n

    @property
    def rounds_in_phase(self) -> int:
        return len(self.phase_stacks[self.phase])

    def turns_before_scoring(self) -> list[int]:
        """Each seat's turns still to come before the coming phase scoring, a turn in progress included: the
        rounds left in the phase, less this round's turn once the seat has taken it (docs/rules.md §2: "The stacks
        of tower blocks before a player indicate how many turns he has left in this year/phase")."""
        rounds_left = self.rounds_in_phase - self.round
        taken = self.turn if self.stage is Stage.TURN or self.stage is Stage.KEEP else 0
        return [rounds_left - ((seat - self.start) % self.n < taken) for seat in range(self.n)]

    def is_over(self) -> bool:
        return self.stage is Stage.OVER

    def reserve(self, seat: int) -> int:
        return self.rules.knights_per_player - len(self.knights[seat])

    def level(self, sq: int) -> int:
        return self.heights[sq]

    def playable(self, seat: int) -> list[int]:
        """Card counts ``seat`` may play now (not those bought this turn)."""
        hand = self.hands[seat]
        if seat == self.current and self.stage is Stage.TURN:
            return [hand[c] - self.fresh[c] for c in range(N_CARD_TYPES)]
        return hand[:]

    def deck_size(self, seat: int) -> int:
        return len(self.common) if self.rules.card_mode is CardMode.COMMON else len(self.decks[seat])

    def returns(self) -> list[float]:
        """Utility per seat at the end: +1 for first place to -1 for last, ties sharing the average."""
        out = [0.0] * self.n
        for seat in range(self.n):
            above = sum(1 for s in self.scores if s > self.scores[seat])
            tied = sum(1 for s in self.scores if s == self.scores[seat])
            avg_rank = above + (tied - 1) / 2
            out[seat] = 1.0 - 2.0 * avg_rank / (self.n - 1)
        return out

    def ranking(self) -> list[int]:
        """Seats from best to worst score."""
        return sorted(range(self.n), key=lambda s: -self.scores[s])

    def winners(self) -> list[int]:
        best = max(self.scores)
        return [s for s in range(self.n) if self.scores[s] == best]

    # --- legal actions ------------------------------------------------------------------------------------
    def legal_action_ids(self) -> list[int]:
        """Legal actions as integer ids, sorted (the order does not depend on how the state was reached).

        The list is cached and shared with undo snapshots: read it, never change it in place."""
        if self._legal is None:
            self._legal = movegen.legal_ids(self)
        return self._legal

    @property
    def legal_actions(self) -> list[Action]:
        return [Action(i) for i in self.legal_action_ids()]

    def is_legal(self, action: Action | int | str) -> bool:
        return self._to_id(action) in set(self.legal_action_ids())

    def parse(self, text: str) -> Action:
        """Parse ``text`` as an action that is legal here; ``IllegalActionError`` says why not.

        After a ``buy``, ``keep <card>`` alone is short for keeping that card and putting the other drawn cards
        under the deck in the order they were drawn (docs/notation.md); the action is stored in full."""
        text = self._with_default_return(text)
        try:
            action_id = parse_action_id(text)
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from None
        self._check(action_id)
        return Action(action_id)

    def _with_default_return(self, text: str) -> str:
        """``keep <card>`` → ``keep <card> bottom:<the others, top first>`` while cards are drawn (players rarely
        care where the others go, and spelling them all out is the notation's hardest form); any other text as
        it is."""
        words = text.lower().split()
        if self.stage is not Stage.KEEP or len(words) != 2 or words[0] != "keep" or len(self.drawn) < 2:
            return text
        try:
            kept = int(Card.parse(words[1]))
        except ValueError:
            return text
        if kept not in self.drawn:
            return text  # the full check says which cards were drawn
        others = [Card(c).text for c in self.drawn if c != kept]
        return f"keep {Card(kept).text} bottom:{','.join(others)}"

    # --- making and taking back actions -------------------------------------------------------------------
    def push(self, action: Action | int | str, check: bool = True) -> None:
        """Apply an action; keeps what ``pop`` needs to restore this exact state."""
        action_id = action if type(action) is int else self._to_id(action)
        if check:
            self._check(action_id)
        kind = DECODE[action_id][0]
        record: _UndoRecord
        if self.stage is not Stage.TURN:
            record = self._snapshot()
        elif kind in _HOT_KINDS:
            seat = (self.start + self.turn) % self.n
            record = (self.ap, self.turn_stack, self.occupied, self.scores[seat], self._info, self._legal)
        elif kind is Kind.STACK:
            record = (self.stacks, self.turn_stack, self.stack_taken, self._legal)
        elif kind is Kind.END and self.turn + 1 < self.n:
            record = (self.stacks, self.carry, self.supply, self.turn_stack, self.stack_taken, self.ap, self.buys,
                      self.played, self.fresh, self._legal)
        elif kind in _PLAY_RECORD_KINDS:
            record = (self.ap, self.supply, self.played, self.hands, self.discards, self.occupied, self._info,
                      self._legal)
        else:
            record = self._snapshot()
        self._undo.append(record)
        self._apply(action_id)

    def pop(self) -> Action:
        """Take back the last action (exactly: decks, hands and scoring included)."""
        if not self._undo:
            raise IndexError("no action to take back")
        last = self.history[-1]
        record = self._undo.pop()
        action = _ACTIONS[last]
        if action is None:
            action = _ACTIONS[last] = Action(last)
        if isinstance(record, _Snapshot):
            self._restore(record)
            return action
        kind = DECODE[last][0]
        if kind is Kind.STACK:
            self.stacks, self.turn_stack, self.stack_taken, self._legal = cast(_StackRecord, record)
        elif kind is Kind.END:
            (self.stacks, self.carry, self.supply, self.turn_stack, self.stack_taken, self.ap, self.buys, self.played,
             self.fresh, self._legal) = cast(_EndRecord, record)
            self.turn -= 1
        elif kind in _PLAY_RECORD_KINDS:
            (self.ap, self.supply, self.played, self.hands, self.discards, self.occupied, self._info,
             self._legal) = cast(_PlayRecord, record)
            _, a, b = DECODE[last]
            if kind is Kind.SHIFT:
                self.heights[a] += 1
                self.heights[b] -= 1
            elif kind is Kind.BUILD:
                self.heights[a] -= 1
            elif kind is not Kind.SIX and kind is not Kind.SEVEN:  # a free knight move
                occ = self.occ
                code = occ[b]
                squares = self.knights[code - 1]
                squares[squares.index(b)] = a
                occ[b] = EMPTY
                occ[a] = code
        else:
            self._take_back_hot(last, cast(_HotRecord, record))
            return action
        # (stack and end change the copy-on-write lists only after copying them: the record's lists are intact)
        self.history.pop()
        self.actors.pop()
        return action

    # A full snapshot per action made undo cost more than the action itself (and its garbage kept the collector
    # busy), so the frequent actions keep a small record instead, a plain tuple whose shape the kind of the
    # action tells: the hot actions are reversed in place (``_HotRecord``: each changes those fields plus one or
    # two squares that the action id names), and so are the card plays but lift (``_PlayRecord``: a full hand
    # offers hundreds of them to a search); a ``stack`` and an ``end`` within a round keep the few fields they
    # change (``_StackRecord``, ``_EndRecord``). Every other action keeps a ``_Snapshot``.
    def _take_back_hot(self, action_id: int, record: _HotRecord) -> None:
        kind, a, b = DECODE[action_id]
        self.ap, self.turn_stack, self.occupied, score, self._info, self._legal = record
        self.history.pop()
        seat = self.actors.pop()
        if kind is Kind.MOVE:
            occ = self.occ
            code = occ[b]
            squares = self.knights[code - 1]
            squares[squares.index(b)] = a  # the knight keeps its place in the list, as ``_move_knight`` did
            occ[b] = EMPTY
            occ[a] = code
        elif kind is Kind.BLOCK:
            self.heights[a] -= 1
        elif kind is Kind.KNIGHT:
            self.knights[seat].pop()  # ``_place_knight`` appended it
            self.occ[a] = EMPTY
        else:  # SCORE
            self.scores[seat] = score

    def can_take_back(self) -> bool:
        """Whether a player may take back the last action (boardgame.io / BGA style): only an action of the
        current player in the current turn, never ``end``, and never across a reveal — a ``buy`` shows cards, so
        it, the ``keep`` that follows and everything before them stay."""
        if not self.history or not self._undo or self.stage not in (Stage.TURN, Stage.KEEP):
            return False
        if self.actors[-1] != self.current:
            return False
        kind = DECODE[self.history[-1]][0]
        return kind not in (Kind.BUY, Kind.KEEP, Kind.END) and self._same_turn()

    def _same_turn(self) -> bool:
        snap = self._undo[-1]
        if not isinstance(snap, _Snapshot):
            # hot actions, card plays and ``stack`` change neither stage, turn, round nor phase; an ``end`` changes
            # the turn
            return DECODE[self.history[-1]][0] is not Kind.END
        return snap.stage in (Stage.TURN, Stage.KEEP) and snap.turn == self.turn and snap.round == self.round \
            and snap.phase == self.phase

    def apply(self, action_id: int) -> None:
        """Apply a legal action id without validation or undo information (fast path for playouts)."""
        self._apply(action_id)

    def clone(self) -> "GameState":
        """An independent copy of this state; shares nothing mutable, keeps the undo stack."""
        other = GameState.__new__(GameState)
        for name in _FIELDS:
            setattr(other, name, getattr(self, name))
        other._restore(self._snapshot(), keep_history=False)
        other._copy_cold()
        other.history = self.history[:]
        other.actors = self.actors[:]
        other._undo = self._undo[:]
        return other

    # ``copy.copy`` and ``copy.deepcopy`` are ``clone`` (as python-chess's boards do): a shallow copy would share
    # the board and the lists with the original and change it, and a field-by-field deep copy costs hundreds of
    # times a clone (the undo records) to copy what no one changes in place (the board analyses, immutable; the
    # undo records and the lists they keep, copy-on-write). Pickle stores every field; a loaded state has board
    # analyses of its own with empty caches (``BoardInfo.__reduce__``).
    def __reduce__(self) -> tuple[object, ...]:
        # (one way for every protocol, pure or compiled: protocols 0 and 1 cannot pickle a compiled class by default)
        return _unpickle, (tuple(getattr(self, name) for name in _FIELDS),)

    def __copy__(self) -> "GameState":
        return self.__deepcopy__({})

    def __deepcopy__(self, memo: dict[int, object]) -> "GameState":
        other = self.clone()
        if other._legal is not None:
            other._legal = other._legal[:]  # (the one list a caller is handed, by ``legal_action_ids``)
        return other

    def _to_id(self, action: Action | int | str) -> int:
        if isinstance(action, Action):
            return action.id
        if isinstance(action, str):
            try:
                return parse_action_id(action)
            except ValueError as exc:
                raise IllegalActionError(str(exc)) from None
        return int(action)

    def _check(self, action_id: int) -> None:
        if action_id not in set(self.legal_action_ids()):
            raise IllegalActionError(movegen.explain_illegal(self, action_id))

    # The cold actions keep a snapshot. Fields that the frequent actions (move, block, knight, score) never touch
    # are shared with the snapshot and copied only when an action is about to change them (copy-on-write): every
    # change of one of these lists in place must come after ``_copy_changed_by`` copied it.
    def _snapshot(self) -> "_Snapshot":
        # (``tuple.__new__`` skips the named tuple's Python-level ``__new__``, a third of the snapshot's cost)
        return tuple.__new__(_Snapshot, (
            bytes(self.heights), bytes(self.occ), self.occupied, [k[:] for k in self.knights], self.king,
            self.scores[:], self.supply, self.stacks, self.carry, self.turn_stack, self.stack_taken, self.ap,
            self.buys, self.played, self.fresh, self.drawn, self.hands, self.decks, self.known, self.common,
            self.discards, self.phase, self.round, self.turn, self.stage, self.start, self.scorings,
            len(self.history), self._info, self._legal,
        ))

    def _restore(self, snap: "_Snapshot", keep_history: bool = True) -> None:
        self.heights = bytearray(snap.heights)
        self.occ = bytearray(snap.occ)
        self.occupied = snap.occupied
        self.knights = [k[:] for k in snap.knights]
        self.king = snap.king
        self.scores = snap.scores[:]
        self.supply = snap.supply
        self.stacks, self.carry, self.fresh, self.drawn = snap.stacks, snap.carry, snap.fresh, snap.drawn
        self.hands, self.decks, self.known, self.common = snap.hands, snap.decks, snap.known, snap.common
        self.discards, self.scorings = snap.discards, snap.scorings
        self.turn_stack, self.ap, self.buys, self.played = snap.turn_stack, snap.ap, snap.buys, snap.played
        self.stack_taken = snap.stack_taken
        self.phase, self.round, self.turn, self.stage, self.start = (
            snap.phase, snap.round, snap.turn, snap.stage, snap.start)
        if keep_history:
            del self.history[snap.history_len:]
            del self.actors[snap.history_len:]
        self._info = snap.info
        self._legal = snap.legal

    def _copy_cold(self) -> None:
        """Give this state its own copies of the copy-on-write fields (see ``_snapshot``)."""
        self.stacks = [s[:] for s in self.stacks]
        self.carry = self.carry[:]
        self.fresh = self.fresh[:]
        self.drawn = self.drawn[:]
        self.hands = [h[:] for h in self.hands]
        self.decks = [d[:] for d in self.decks]
        self.known = [k[:] for k in self.known]
        self.common = self.common[:]
        self.discards = [d[:] for d in self.discards]
        self.scorings = self.scorings[:]

    def _copy_changed_by(self, kind: Kind, seat: int) -> None:
        """Copy the copy-on-write fields that a cold action of ``kind`` by ``seat`` changes in place (copying all
        of them for every turn's ``end`` and ``stack`` cost more than the rest of those actions)."""
        if kind is Kind.STACK:
            self.stacks = self.stacks[:]
            self.stacks[seat] = self.stacks[seat][:]
        elif kind is Kind.END:
            # the next seat may take its largest stack, and the end of a phase empties every seat's stacks and
            # fills ``carry``
            self.stacks = [s[:] for s in self.stacks]
            self.carry = self.carry[:]
        elif kind is Kind.BUY or kind is Kind.KEEP:
            self.hands = self.hands[:]
            self.hands[seat] = self.hands[seat][:]
            self.fresh = self.fresh[:]
            self.decks = self.decks[:]
            self.decks[seat] = self.decks[seat][:]
            self.known = self.known[:]
            self.known[seat] = self.known[seat][:]
            self.common = self.common[:]
        elif kind in PLAY_KINDS:
            self.hands = self.hands[:]
            self.hands[seat] = self.hands[seat][:]
            self.discards = self.discards[:]
            self.discards[seat] = self.discards[seat][:]
            if kind is Kind.LIFT:
                self.stacks = self.stacks[:]
                self.stacks[seat] = self.stacks[seat][:]
        else:  # setup and phase changes: rare
            self._copy_cold()

    # --- the effect of each action ----------------------------------------------------------------------------
    def _apply(self, action_id: int) -> None:
        kind, a, b = DECODE[action_id]
        seat = (self.start + self.turn) % self.n if self.stage is Stage.TURN else self.current
        self.history.append(action_id)
        self.actors.append(seat)
        self._legal = None
        if kind not in _HOT_KINDS:
            self._copy_changed_by(kind, seat)
        if kind is Kind.MOVE:
            self.ap -= 1
            self._move_knight(a, b)
        elif kind is Kind.BLOCK:
            self.ap -= 1
            self.turn_stack -= 1
            self._add_block(a)
        elif kind is Kind.KNIGHT:
            self.ap -= 2
            self._place_knight(seat, a)
        elif kind is Kind.SCORE:
            self.ap -= 1
            advance(self.scores, seat, 1)
        elif kind is Kind.END:
            self._end_turn(seat)
        elif kind is Kind.STACK:
            self.stacks[seat].remove(a)
            self.turn_stack = self.stack_taken = a
        elif kind is Kind.BUY:
            self._buy(seat)
        elif kind is Kind.KEEP:
            self._keep(seat, a)
        elif kind in PLAY_KINDS:
            self._play(seat, kind, a, b)
        elif kind is Kind.START:
            self._place_knight(seat, a)
            self.turn += 1
            if self.turn == self.n:
                self.stage = Stage.KING_SETUP
        elif kind is Kind.KING or kind is Kind.KING_STAY:
            if kind is Kind.KING:
                if self.king >= 0:
                    self.occ[self.king] = EMPTY
                    self.occupied &= ~(1 << self.king)
                self.king = a
                self.occ[a] = KING
                self.occupied |= 1 << a
            if self.stage is Stage.KING_SETUP:
                self._begin_phase()
            else:
                self._after_king_move()
        elif kind is Kind.CASTLE:
            self._add_block(a)
            self.supply -= 1
            self.turn += 1
            if self.turn == len(self.rules.castles):
                self.stage = Stage.KNIGHTS
                self.turn = 0
        elif kind is Kind.FIRST:
            self.start = a
            self._begin_phase()

    def _move_knight(self, src: int, dst: int) -> None:
        code = self.occ[src]
        squares = self.knights[code - 1]
        squares[squares.index(src)] = dst
        self.occ[src] = EMPTY
        self.occ[dst] = code
        self.occupied ^= (1 << src) | (1 << dst)

    def _place_knight(self, seat: int, sq: int) -> None:
        self.knights[seat].append(sq)
        self.occ[sq] = seat + 1
        self.occupied |= 1 << sq

    def _add_block(self, sq: int) -> None:
        self.heights[sq] += 1
        self._info = board_info_after_block(self._info, bytes(self.heights), sq)

    def _buy(self, seat: int) -> None:
        self.ap -= 1
        self.buys += 1
        if self.rules.card_mode is CardMode.COMMON:
            card = self.common.pop()
            self.hands[seat][card] += 1
            self.fresh[card] += 1
            return
        deck, known = self.decks[seat], self.known[seat]
        take = min(3, len(deck))
        self.drawn = deck[-take:][::-1]  # top card first
        del deck[-take:]
        del known[-take:]
        self.stage = Stage.KEEP

    def _keep(self, seat: int, row: int) -> None:
        keep, top, bottom = KEEP_TABLE[row]
        self.hands[seat][keep] += 1
        self.fresh[keep] += 1
        deck, known = self.decks[seat], self.known[seat]
        # Deck lists run bottom → top; ``top``/``bottom`` list cards top-down.
        deck[:0] = bottom[::-1]
        known[:0] = [True] * len(bottom)
        deck.extend(top[::-1])
        known.extend([True] * len(top))
        self.drawn = []
        self.stage = Stage.TURN

    def _play(self, seat: int, kind: Kind, a: int, b: int) -> None:
        card = PLAY_KINDS[kind]
        self.hands[seat][card] -= 1
        self.discards[seat][card] += 1
        self.played = True
        if kind is Kind.SIX:
            self.ap += 1
        elif kind is Kind.SEVEN:
            self.ap += 2
        elif kind is Kind.BUILD:
            self.supply -= 1
            self._add_block(a)
        elif kind is Kind.LIFT:
            if b == 0:
                self.turn_stack -= 1
            else:
                stacks = self.stacks[seat]
                i = stacks.index(b)
                if b == 1:
                    del stacks[i]
                else:
                    stacks[i] = b - 1
                    stacks.sort(reverse=True)
            self._add_block(a)
        elif kind is Kind.SHIFT:
            self.heights[a] -= 1
            self.heights[b] += 1
            self._info = board_info_after_shift(self._info, bytes(self.heights), a, b)
        else:  # CLIMB, GATE, DIAGONAL, REDEPLOY, VAULT: a free knight move
            self._move_knight(a, b)

    # --- turn, round and phase flow -------------------------------------------------------------------------
    def _end_turn(self, seat: int) -> None:
        stacks = self.stacks[seat]
        if self.turn_stack >= 0:
            leftover = self.turn_stack
        elif stacks:
            leftover = stacks.pop()  # no stack taken: the turn uses up the smallest one
        else:
            leftover = 0
        self.turn_stack = self.stack_taken = -1
        if leftover and stacks:
            cap = self.stack_cap
            if cap == 0:  # yucata.de: "automatically put into the next turn's stack"
                stacks[0] += leftover
                leftover = 0
            else:
                for i in range(len(stacks)):  # tallest non-full stacks first: "the next stacks that can fit"
                    room = cap - stacks[i]
                    if room > 0:
                        put = min(room, leftover)
                        stacks[i] += put
                        leftover -= put
                        if not leftover:
                            break
            stacks.sort(reverse=True)
        if leftover:
            if not stacks and self.rules.phase_end_blocks is PhaseEndBlocks.KEEP:
                self.carry[seat] += leftover
            else:
                self.supply += leftover
        self.ap = self.rules.action_points
        self.buys = 0
        self.played = False
        self.fresh = [0] * N_CARD_TYPES
        self.turn += 1
        if self.turn == self.n:
            self.turn = 0
            self.round += 1
            if self.round == self.rounds_in_phase:
                self._score_phase()
                return
            self._master_turn_order()
        self._begin_turn()

    def _begin_turn(self) -> None:
        if self.rules.stack_choice is StackChoice.LARGEST:
            stacks = self.stacks[self.current]
            if stacks:
                self.turn_stack = self.stack_taken = stacks.pop(0)

    def _master_turn_order(self) -> None:
        """Master version: "After the first round, the starting player is the player with the most points. If
        the players are still tied at the starting space, turn order is unchanged." (000_…)"""
        if self.rules.master and any(self.scores):
            self.start = max(range(self.n), key=lambda s: self.scores[s])

    def _begin_phase(self) -> None:
        """Hand out the phase card's stacks (plus IDW's kept blocks), then the first turn."""
        for offset in range(self.n):
            seat = (self.start + offset) % self.n
            stacks = []
            for height in self.phase_stacks[self.phase]:
                take = min(height, self.supply)
                if take:
                    stacks.append(take)
                    self.supply -= take
            stacks.sort(reverse=True)
            kept = self.carry[seat]
            self.carry[seat] = 0
            cap = self.stack_cap or 1 << 30
            for i in range(len(stacks)):
                put = min(kept, cap - stacks[i])
                if put > 0:
                    stacks[i] += put
                    kept -= put
            self.supply += kept
            stacks.sort(reverse=True)
            self.stacks[seat] = stacks
        self.stage = Stage.TURN
        self.turn = 0
        self.round = 0
        self.turn_stack = self.stack_taken = -1
        self.ap = self.rules.action_points
        self._begin_turn()

    def scoring_now(self) -> PhaseScoring:
        """The scoring this phase would give if it ended now (public: it needs no hidden fact)."""
        return score_phase(self.rules, self._info, self.knights, self.king, self.phase, self.scores, self.start,
                           self.master_card)

    def _score_phase(self) -> None:
        r = self.rules
        scoring = self.scoring_now()
        self.scores = list(scoring.after)
        self.scorings = self.scorings + [scoring]  # a new list: snapshots share the old one (copy-on-write)
        # Blocks left at the end of a phase: returned (000_…) or kept for the next Year (002_…).
        for seat in range(self.n):
            left = sum(self.stacks[seat])
            self.stacks[seat] = []
            if r.phase_end_blocks is PhaseEndBlocks.KEEP:
                self.carry[seat] += left
            else:
                self.supply += left
        if self.phase == 2:
            self.stage = Stage.OVER
            self.round = self.rounds_in_phase - 1  # the position shows the last round played
            return
        self.phase += 1
        self.round = 0
        self.turn = 0
        self.stage = Stage.KING_MOVE

    def _lowest_scorer(self) -> int:
        """The seat with the fewest points; at a tie (only possible on the start space) the first of them in
        turn order."""
        order = [(self.start + i) % self.n for i in range(self.n)]
        return min(order, key=lambda s: self.scores[s])

    def _after_king_move(self) -> None:
        r = self.rules
        lowest = self._lowest_scorer()
        if r.master:
            self._master_turn_order()
        elif r.next_starter is NextStarter.KING_MOVER:
            self.start = lowest
        elif r.next_starter is NextStarter.CHOSEN_BY_LOWEST:
            self.stage = Stage.CHOOSE_FIRST
            return
        self._begin_phase()

    # --- convenience ---------------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Recompute what is derived from the fields, after they were set directly (positions, builders)."""
        self._info = board_info(bytes(self.heights))
        self.occupied = sum(1 << sq for sq in range(64) if self.occ[sq])
        self._legal = None

    def position(self, seat: int | None = None) -> str:
        """The one-line position string; with ``seat``, that seat's redacted view of it."""
        from .position import to_position

        return to_position(self, seat)

    @classmethod
    def from_position(cls, text: str) -> "GameState":
        from .position import from_position

        return from_position(text)

    def view(self, seat: int) -> "SeatView":
        """Everything ``seat`` knows, and nothing else."""
        from .view import SeatView

        return SeatView.of(self, seat)

    def play(self, actions: Iterable[str | int | Action]) -> "GameState":
        for action in actions:
            self.push(action)
        return self

    def actions_text(self) -> list[str]:
        return [format_action(a) for a in self.history]

    def __iter__(self) -> Iterator[Action]:
        return iter(self.legal_actions)

    def __repr__(self) -> str:
        return (f"<GameState {self.n}p {self.rules.edition} phase {self.phase + 1} round {self.round + 1} "
                f"stage {self.stage.name.lower()} seat {self.current} scores {self.scores}>")


def _unpickle(values: tuple[object, ...]) -> GameState:
    state = GameState.__new__(GameState)
    for name, value in zip(_FIELDS, values, strict=True):
        setattr(state, name, value)
    return state
