"""One seat's view of a game: every public fact, its own cards and deck knowledge, and nothing else.

A view never holds the seed, another seat's hand, drawn cards or deck order. Bots search over
:meth:`SeatView.determinize` — a full state that agrees with everything the seat has seen, with the unseen cards
dealt at random.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .actions import DECODE, Kind, format_action
from .board import board_info
from .cards import N_CARD_TYPES, Card
from .position import rules_text, view_position
from .rules import CardMode, Rules
from .scoring import PhaseScoring, score_phase
from .squares import square_name
from .state import GameState, Stage


#: The seat number of the public view: what a spectator (or a log everybody reads) may know.
SPECTATOR = -1

# Views are built for every seat after every action a server broadcasts, so what they spell out again and again is
# looked up, not worked out: these tables are pure functions of their keys (filled as keys are met, or bounded).
#: The notation of each action id met so far (``format_action``; a game's history repeats its texts).
_TEXTS: dict[int, str] = {}
#: The ids of ``keep`` actions: which card another seat kept is hidden from a seat.
_KEEPS = frozenset(i for i, (kind, _, _) in enumerate(DECODE) if kind is Kind.KEEP)
_SQUARE_NAMES = tuple(square_name(sq) for sq in range(64))
_CARD_TEXTS = tuple(Card(c).text for c in range(N_CARD_TYPES))
#: The scoring the phase would give now, by the public facts it depends on (the two seats' views of one position
#: ask for the same one); cleared when full.
_SCORINGS_NOW: dict[tuple[Any, ...], PhaseScoring] = {}
_SCORINGS_NOW_LIMIT = 4096


def _text(action_id: int) -> str:
    text = _TEXTS.get(action_id)
    if text is None:
        text = _TEXTS[action_id] = format_action(action_id)
    return text


def action_text_for(action_id: int, actor: int, seat: int) -> str | None:
    """The notation of an action as ``seat`` may learn it, or ``None`` when the action itself is hidden from that
    seat: which card another seat kept (the draw was public through ``buy``; what came of it is not)."""
    if action_id in _KEEPS and actor != seat:
        return None
    return _text(action_id)


@dataclass(frozen=True)
class SeatView:
    seat: int
    rules: Rules
    players: int
    stage: Stage
    current: int
    phase: int
    round: int
    turn: int
    start: int
    ap: int
    buys: int
    played: bool
    turn_stack: int
    stack_taken: int  # the blocks the turn's stack held when taken (-1 before): public, like every block placed
    heights: bytes
    occupancy: bytes
    knights: tuple[tuple[int, ...], ...]
    king: int
    scores: tuple[int, ...]
    supply: int
    stacks: tuple[tuple[int, ...], ...]
    carry: tuple[int, ...]
    hand: tuple[int, ...]  # this seat's card counts
    fresh: tuple[int, ...]  # this seat's cards bought this turn (zeros when it is not its turn)
    fresh_count: int  # how many cards the seat to act bought this turn: public, as every buy is
    drawn: tuple[int, ...]  # this seat's drawn cards awaiting a keep decision
    deck_known: tuple[int, ...]  # this seat's own deck, bottom → top: the card, or -1 where unknown
    hand_sizes: tuple[int, ...]
    deck_sizes: tuple[int, ...]
    drawn_count: int
    common_size: int
    discards: tuple[tuple[int, ...], ...]
    master_card: int
    scorings: tuple[PhaseScoring, ...]
    history: tuple[str, ...]  # every action in notation, other seats' kept cards hidden ("keep ?")
    legal: tuple[int, ...]  # legal action ids when this seat is to act, else ()

    @classmethod
    def of(cls, state: GameState, seat: int) -> "SeatView":
        """``seat``'s view; ``seat`` = :data:`SPECTATOR` gives the public view (no seat's cards at all)."""
        if not (seat == SPECTATOR or 0 <= seat < state.n):
            raise ValueError(f"no seat {seat} in a {state.n}-player game")
        mine = state.current == seat
        own = seat != SPECTATOR
        deck_known = tuple(c if k else -1 for c, k in zip(state.decks[seat], state.known[seat])) if own else ()
        keeps, texts = _KEEPS, _TEXTS  # (action_text_for, inlined: a history holds every action of the game)
        history = tuple("keep ?" if a in keeps and actor != seat else texts.get(a) or _text(a)
                        for a, actor in zip(state.history, state.actors))
        return cls(
            seat=seat, rules=state.rules, players=state.n, stage=state.stage, current=state.current,
            phase=state.phase, round=state.round, turn=state.turn, start=state.start, ap=state.ap,
            buys=state.buys, played=state.played, turn_stack=state.turn_stack, stack_taken=state.stack_taken,
            heights=bytes(state.heights),
            occupancy=bytes(state.occ), knights=tuple(tuple(k) for k in state.knights), king=state.king,
            scores=tuple(state.scores), supply=state.supply, stacks=tuple(tuple(s) for s in state.stacks),
            carry=tuple(state.carry), hand=tuple(state.hands[seat]) if own else (0,) * N_CARD_TYPES,
            fresh=tuple(state.fresh) if mine else (0,) * N_CARD_TYPES, fresh_count=sum(state.fresh),
            drawn=tuple(state.drawn) if mine else (), deck_known=deck_known,
            hand_sizes=tuple(sum(h) for h in state.hands), deck_sizes=tuple(len(d) for d in state.decks),
            drawn_count=len(state.drawn), common_size=len(state.common),
            discards=tuple(tuple(d) for d in state.discards), master_card=state.master_card,
            scorings=tuple(state.scorings), history=history,
            legal=tuple(state.legal_action_ids()) if mine and state.stage is not Stage.OVER else (),
        )

    @cached_property
    def position(self) -> str:
        """The redacted position string (docs/notation.md): what this seat knows, ``?`` for the rest. Written from
        the view's fields when first asked for (a bot seldom does; it was half the cost of a view), so it holds
        nothing the view does not."""
        return view_position(self)

    def scoring_now(self) -> PhaseScoring:
        """The scoring the current phase would give if it ended now (all of it is public)."""
        phase = min(self.phase, 2)
        key = (self.rules, self.heights, self.knights, self.king, phase, self.scores, self.start, self.master_card)
        scoring = _SCORINGS_NOW.get(key)
        if scoring is None:
            scoring = score_phase(self.rules, board_info(self.heights), [list(k) for k in self.knights], self.king,
                                  phase, self.scores, self.start, self.master_card)
            if len(_SCORINGS_NOW) >= _SCORINGS_NOW_LIMIT:
                _SCORINGS_NOW.clear()
            _SCORINGS_NOW[key] = scoring
        return scoring

    def unseen_cards(self) -> list[int]:
        """The cards this seat cannot see, as a list of card types (with repeats)."""
        r = self.rules
        if r.master or r.full_hand:
            return []
        if r.card_mode is CardMode.COMMON:
            pool = [4] * N_CARD_TYPES
            for d in self.discards:
                for c in range(N_CARD_TYPES):
                    pool[c] -= d[c]
            for c in range(N_CARD_TYPES):
                pool[c] -= self.hand[c]
            return [c for c in range(N_CARD_TYPES) for _ in range(pool[c])]
        out: list[int] = []
        for s in range(self.players):
            if s == self.seat:
                continue
            out.extend(c for c in range(N_CARD_TYPES) for _ in range(1 - self.discards[s][c]))
        return out

    def determinize(self, rng: random.Random) -> GameState:
        """A full state consistent with this view: the unseen cards dealt at random to hands, draws and decks.

        Built from the view's fields alone, so nothing hidden can leak into a bot's search."""
        state = GameState(self.players, 0, self.rules)
        state.stage, state.phase, state.round, state.turn = self.stage, self.phase, self.round, self.turn
        state.start, state.ap, state.buys, state.played = self.start, self.ap, self.buys, self.played
        state.turn_stack, state.king, state.supply = self.turn_stack, self.king, self.supply
        state.stack_taken = self.stack_taken
        state.heights, state.occ = bytearray(self.heights), bytearray(self.occupancy)
        state.knights = [list(k) for k in self.knights]
        state.scores = list(self.scores)
        state.stacks = [list(s) for s in self.stacks]
        state.carry = list(self.carry)
        state.discards = [list(d) for d in self.discards]
        state.master_card = self.master_card
        state.scorings = list(self.scorings)
        state.fresh = [0] * N_CARD_TYPES
        state.drawn = []
        me, r = self.seat, self.rules
        state.hands = [[0] * N_CARD_TYPES for _ in range(self.players)]
        state.decks = [[] for _ in range(self.players)]
        state.known = [[] for _ in range(self.players)]
        state.common = []
        state.hands[me] = list(self.hand)
        if r.master or r.full_hand:
            state.hands = [[1 - d[c] for c in range(N_CARD_TYPES)] for d in self.discards]
        elif r.card_mode is CardMode.OWN:
            own = [1 - self.discards[me][c] - self.hand[c] for c in range(N_CARD_TYPES)]
            for c in list(self.drawn) + [c for c in self.deck_known if c >= 0]:
                own[c] -= 1
            loose = [c for c in range(N_CARD_TYPES) for _ in range(own[c])]
            rng.shuffle(loose)
            state.decks[me] = [c if c >= 0 else loose.pop() for c in self.deck_known]
            state.known[me] = [c >= 0 for c in self.deck_known]
            for s in range(self.players):
                if s == me:
                    continue
                pool = [c for c in range(N_CARD_TYPES) if not self.discards[s][c]]
                rng.shuffle(pool)
                size = self.hand_sizes[s]
                state.hands[s] = [pool[:size].count(c) for c in range(N_CARD_TYPES)]
                rest = pool[size:]
                if s == self.current and self.stage is Stage.KEEP:
                    state.drawn, rest = rest[:self.drawn_count], rest[self.drawn_count:]
                state.decks[s] = rest
                state.known[s] = [False] * len(rest)
        else:
            pool = self.unseen_cards()
            rng.shuffle(pool)
            for s in range(self.players):
                if s != me:
                    size = self.hand_sizes[s]
                    state.hands[s] = [pool[:size].count(c) for c in range(N_CARD_TYPES)]
                    pool = pool[size:]
            state.common = pool
        if self.current == me:
            state.fresh = list(self.fresh)
            if self.stage is Stage.KEEP:
                state.drawn = list(self.drawn)
        elif self.stage in (Stage.TURN, Stage.KEEP) and self.buys:
            # The cards bought this turn are hidden; which of its cards are fresh is dealt at random too. During a
            # keep, the card being chosen is not in the hand yet.
            bought = self.buys - (1 if self.stage is Stage.KEEP else 0)
            cards = [c for c in range(N_CARD_TYPES) for _ in range(state.hands[self.current][c])]
            for c in rng.sample(cards, min(bought, len(cards))):
                state.fresh[c] += 1
        state.refresh()
        return state

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of the view (what a server sends to this seat)."""
        info = board_info(self.heights)
        names, cards = _SQUARE_NAMES, _CARD_TEXTS
        return {
            "seat": self.seat,
            "rules": rules_text(self.rules),
            "players": self.players,
            "stage": self.stage.name.lower(),
            "current": self.current,
            "phase": self.phase + 1,
            "round": self.round + 1,
            "rounds": len(self.rules.stacks_for(self.players)[min(self.phase, 2)]),
            "turn": self.turn,
            "start": self.start,
            "ap": self.ap,
            "buys": self.buys,
            "played": self.played,
            "turn_stack": self.turn_stack,
            "heights": list(self.heights),
            "castles": list(info.cid),
            "knights": [[names[sq] for sq in k] for k in self.knights],
            "king": names[self.king] if self.king >= 0 else None,
            "scores": list(self.scores),
            "supply": self.supply,
            "stacks": [list(s) for s in self.stacks],
            "carry": list(self.carry),
            "hand": {cards[c]: n for c, n in enumerate(self.hand) if n},
            "fresh": {cards[c]: n for c, n in enumerate(self.fresh) if n},
            "drawn": [cards[c] for c in self.drawn],
            "deck_known": [cards[c] if c >= 0 else None for c in self.deck_known],
            "hand_sizes": list(self.hand_sizes),
            "deck_sizes": list(self.deck_sizes),
            "common_size": self.common_size,
            "discards": [{cards[c]: n for c, n in enumerate(d) if n} for d in self.discards],
            "master_card": self.master_card,
            "scorings": [scoring_to_json(s) for s in self.scorings],
            "scoring_now": scoring_to_json(self.scoring_now()) if self.stage is not Stage.OVER else None,
            "history": list(self.history),
            "legal": [_text(a) for a in self.legal],
            "position": self.position,
        }


def scoring_to_json(scoring: PhaseScoring) -> dict[str, Any]:
    """A phase scoring as plain JSON (phase 1-based)."""
    return {
        "phase": scoring.phase + 1,
        "order": list(scoring.order),
        "castles": [{"seat": c.seat, "squares": list(c.castle), "area": c.area, "level": c.level,
                     "points": c.points} for c in scoring.castles],
        "king_castle": list(scoring.king_castle),
        "king_bonus": list(scoring.king_bonus),
        "master_bonus": list(scoring.master_bonus),
        "before": list(scoring.before),
        "after": list(scoring.after),
    }
