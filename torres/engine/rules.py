"""Rule settings. An *edition* is a named set of settings on the one engine, never a fork.

Every setting names the rulebook passage it comes from in ``docs/rules.md`` / ``docs/editions.md``.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .actions import MAX_STACK
from .master import MasterCard
from .squares import parse_square, square_name


class CardMode(str, Enum):
    OWN = "own"  # each player's own deck of 10: buying draws 3, keeps 1
    COMMON = "common"  # one shuffled deck of 40: buying draws the top card


class StackChoice(str, Enum):
    PLAYER = "player"  # the player picks the turn's stack
    LARGEST = "largest"  # yucata.de: the largest stack is used automatically


class PhaseEndBlocks(str, Enum):
    RETURN = "return"  # Rio Grande / Ravensburger: leftovers go back to the supply
    KEEP = "keep"  # IDW: kept and spread over the next Year's towers (cap applies)


class NextStarter(str, Enum):
    KING_MOVER = "king_mover"  # Rio Grande, yucata: play continues with the lowest scorer
    UNCHANGED = "unchanged"  # Ravensburger: play simply continues clockwise
    CHOSEN_BY_LOWEST = "chosen_by_lowest"  # IDW: the lowest scorer picks who starts


class ScoringOrder(str, Enum):
    TURN_ORDER = "turn_order"  # clockwise from the start player
    TRACK = "track"  # IDW: from the second Year, leader on the track scores first


class StartPlayer(str, Enum):
    FIRST_SEAT = "first_seat"  # "the youngest player starts": seat 0
    RANDOM = "random"  # yucata.de: chosen by the game's seeded RNG


class Spacing(str, Enum):
    ORTHOGONAL_GAP2 = "orthogonal_gap2"  # RG/Ravensburger: ≥2 empty squares between, counted orthogonally
    GAP1_NO_DIAGONAL = "gap1_no_diagonal"  # IDW: ≥2 squares away in line, not diagonally adjacent


class VaultOver(str, Enum):
    ANY_KNIGHT = "any_knight"  # RG, IDW, yucata: "past one other knight"
    OPPONENT_KNIGHT = "opponent_knight"  # Ravensburger: "einen fremden Ritter überspringen"


class ClimbCard(str, Enum):
    EXACTLY_TWO = "exactly_two"  # "Jump one of your knights two levels up ... e.g. from level 1 to level 3"
    UP_TO_TWO = "up_to_two"  # house reading: up to two levels (or down), a free step otherwise


STANDARD_CASTLES = ("d8", "c6", "f6", "h5", "a4", "c3", "f3", "e1")

#: Phase cards: stacks per phase (each stack is one round). 4 players from the rulebooks; 2 and 3 players
#: inferred from other implementations (see docs/rules.md) and configurable.
DEFAULT_PHASE_STACKS: dict[int, tuple[tuple[int, ...], ...]] = {
    2: ((3, 3, 3, 3), (3, 3, 3, 3), (3, 3, 3, 3)),
    3: ((3, 3, 2, 2), (3, 3, 2), (3, 3, 2)),
    4: ((2, 2, 2, 2), (2, 2, 2), (2, 2, 2)),
}


class RulesError(ValueError):
    """Rules the engine refuses; the message names the setting and the values it may take (docs/notation.md §4).

    Every way into the engine checks rules alike: :meth:`Rules.from_text` (records, uploads, the command line, the
    environments, the server) and every ``Rules`` built in code (its ``__post_init__``)."""


#: The editions' names (``EDITIONS`` below holds their settings).
EDITION_NAMES = ("riogrande", "ravensburger", "hebrew", "idw", "yucata")

#: The longest rules text :meth:`Rules.from_text` reads (every setting changed at once takes about 550).
MAX_RULES_TEXT = 1000

#: The largest stack an action can name (``stack 15``, ``play lift c3 from:15``): no stack may grow past it.
MAX_STACK_HEIGHT = MAX_STACK - 1

#: Whole-number settings: the smallest and the largest value. They keep every game finite, cheap and within what
#: the engine can write down: with at most 8 action points, 3 buys and 5 rounds a phase, a 4-player game has at
#: most 977 actions (:meth:`Rules.longest_game`); every edition has 6 knights, 5 action points, 2 buys, 92 blocks.
INT_LIMITS: dict[str, tuple[int, int]] = {
    "master_card": (-1, len(MasterCard) - 1),
    "knights_per_player": (1, 8),
    "action_points": (1, 8),
    "max_buys": (0, 3),
    "stack_cap": (0, MAX_STACK_HEIGHT),
    "blocks_total": (5, 92),
    "min_castles": (0, 8),
}
_INT_NOTES = {
    "master_card": " (-1: drawn at setup; 0..7: that master card)",
    "stack_cap": " (0: no cap)",
    "blocks_total": " (the box holds 92; at least one block per starting castle)",
}
#: Starting castles: how many (at least one per seat of 4 plus the king's).
CASTLE_COUNT = (5, 8)
#: Phases, the stacks (rounds) of each phase, and a king's bonus per phase.
PHASES = 3
ROUNDS = (1, 5)
KING_BONUS = (0, 50)


@dataclass(frozen=True)
class Rules:
    """All settings of one game. ``Rules.for_edition("riogrande")`` gives an edition's defaults.

    Every ``Rules`` is checked when it is made: settings of the wrong type or out of their range
    (:data:`INT_LIMITS`, docs/notation.md §4) raise :class:`RulesError`."""

    edition: str = "riogrande"
    card_mode: CardMode = CardMode.OWN
    full_hand: bool = False  # yucata option: every player starts with all 10 own cards, no buying
    stack_choice: StackChoice = StackChoice.PLAYER
    # Unused blocks of the turn's stack go onto the other stacks, tallest first, up to the cap (000_…: "distribute
    # the unused blocks on any other stacks ... no stack may ever be taller than three"); with no cap (0, yucata.de
    # 3–4 players) they all roll onto the next turn's stack, the tallest.
    stack_cap: int = 3
    phase_end_blocks: PhaseEndBlocks = PhaseEndBlocks.RETURN
    next_starter: NextStarter = NextStarter.KING_MOVER
    scoring_order: ScoringOrder = ScoringOrder.TURN_ORDER
    start_player: StartPlayer = StartPlayer.FIRST_SEAT
    king_move_other_castle: bool = False  # IDW/Ravensburger: "auf eine andere Burg"
    vault_over: VaultOver = VaultOver.ANY_KNIGHT
    shift_level_one: bool = False  # yucata: shift takes a level-1 block and leaves it at level 1
    climb_card: ClimbCard = ClimbCard.EXACTLY_TWO
    # The lift card's block ("may come from any of the stacks in your supply", 000_…) is one of the turn's at most
    # three ("A player may never add more than three tower blocks in a turn"): no lift once three blocks were placed
    # from the turn's stack. Off (every edition): the card's block comes on top, as a card exception.
    lift_counts_toward_three: bool = False
    shift_six_every_moment: bool = False  # Ravensburger: "zu jedem Zeitpunkt mindestens 6 Burgen"
    spacing: Spacing = Spacing.ORTHOGONAL_GAP2
    master: bool = False
    master_card: int = -1  # -1: drawn from the seeded RNG at setup; 0..7 chooses one
    knights_per_player: int = 6
    action_points: int = 5
    max_buys: int = 2
    blocks_total: int = 92
    min_castles: int = 6
    castles: tuple[str, ...] = STANDARD_CASTLES
    phase_stacks: tuple[tuple[int, ...], ...] = ()  # () = DEFAULT_PHASE_STACKS for the player count
    king_bonus: tuple[int, ...] = (5, 10, 15)

    def __post_init__(self) -> None:
        # Values in their canonical types (enums from their values, lists as tuples, squares in lower case), so
        # equal rules compare equal; then the one check of every setting.
        for f in dataclasses.fields(self):
            object.__setattr__(self, f.name, _coerce(f.name, getattr(self, f.name)))
        _validate(self)

    @staticmethod
    def edition_names() -> tuple[str, ...]:
        return tuple(EDITIONS)

    @classmethod
    def for_edition(cls, name: str, **overrides: Any) -> "Rules":
        try:
            base = EDITIONS[name]
        except (KeyError, TypeError):
            raise RulesError(f"unknown edition {_short(name)} (editions: {', '.join(EDITIONS)})") from None
        return base.replace(**overrides) if overrides else base

    def replace(self, **changes: Any) -> "Rules":
        for key in changes:
            if key not in _FIELDS:
                raise RulesError(_unknown_setting(key))
        return dataclasses.replace(self, **changes)

    def stacks_for(self, players: int) -> tuple[tuple[int, ...], ...]:
        return self.phase_stacks or DEFAULT_PHASE_STACKS[players]

    def longest_game(self, players: int) -> int:
        """An upper bound on the actions of a whole game of ``players`` under these rules: the setup (master
        castles, first knights, the king), a king move and a choice of start player between phases, and in each
        turn one action per action point (a six or seven card adds 2 at most), the stack, a keep per buy, one card
        played and the end. A record with more actions cannot be a game."""
        stacks = self.stacks_for(players)
        turns = sum(len(phase) for phase in stacks) * players
        per_turn = self.action_points + 2 + 1 + self.max_buys + 1 + 1
        return len(self.castles) + players + 1 + 2 * (len(stacks) - 1) + turns * per_turn

    def overrides(self) -> dict[str, Any]:
        """Settings that differ from this edition's defaults (what a record must store)."""
        base = EDITIONS.get(self.edition) or Rules()
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name == "edition":
                continue
            value, default = getattr(self, f.name), getattr(base, f.name)
            if value != default:
                out[f.name] = _plain(value)
        return out

    def to_text(self) -> str:
        """``riogrande`` or ``riogrande:card_mode=common,master=1`` — parsed by :meth:`from_text`."""
        return self._text

    @functools.cached_property
    def _text(self) -> str:
        # Worked out once per rules object (they are frozen): every position string and view names the rules.
        parts = [f"{k}={_format(v)}" for k, v in self.overrides().items()]
        return self.edition + (":" + ",".join(parts) if parts else "")

    @classmethod
    def from_text(cls, text: str) -> "Rules":
        """Rules from their text, ``edition[:key=value,...]`` (docs/notation.md §4); :class:`RulesError` names the
        first thing wrong: an unknown edition or setting, a setting given twice, a value of the wrong form or out of
        its range, a text longer than :data:`MAX_RULES_TEXT`."""
        if isinstance(text, str) and len(text) <= MAX_RULES_TEXT:
            return _rules_of_text(text)  # (a server reads the rules of every game it lists or loads)
        return cls._parse(text)

    @classmethod
    def _parse(cls, text: str) -> "Rules":
        if not isinstance(text, str):
            raise RulesError(f"rules are a text like 'riogrande' or 'idw:master=1', not {type(text).__name__}")
        if len(text) > MAX_RULES_TEXT:
            raise RulesError(f"a rules text has at most {MAX_RULES_TEXT} characters, not {len(text)}")
        name, _, rest = text.partition(":")
        if name not in EDITIONS:
            raise RulesError(f"unknown edition {_short(name)} (editions: {', '.join(EDITIONS)})")
        overrides: dict[str, Any] = {}
        if rest:
            for item in rest.split(","):
                key, eq, value = item.partition("=")
                if not eq:
                    raise RulesError(f"bad rules setting {_short(item)} (expected key=value)")
                if key == "edition":
                    raise RulesError("the edition is named before the ':', not as a setting")
                if key not in _FIELDS:
                    raise RulesError(_unknown_setting(key))
                if key in overrides:
                    raise RulesError(f"{key} is set twice")
                overrides[key] = _parse_value(key, value)
        return cls.for_edition(name, **overrides)


_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}

#: Rules are frozen, so the rules of a text may be shared; a failed parse is not kept (it raises).
_rules_of_text = functools.lru_cache(maxsize=1024)(Rules._parse)


def _short(value: Any, limit: int = 40) -> str:
    """``repr(value)``, cut short: messages name what was given without echoing a page of it."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _unknown_setting(key: Any) -> str:
    names = ", ".join(name for name in _FIELDS if name != "edition")
    return f"unknown rules setting {_short(key)} (settings: {names})"


def _sequence(key: Any, value: Any, what: str) -> tuple[Any, ...]:
    if not isinstance(value, (tuple, list)):
        raise RulesError(f"{key} is a list of {what}, not {_short(value)}")
    return tuple(value)


def _whole(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{key} is a whole number, not {_short(value)}")
    return value


def _coerce(key: str, value: Any) -> Any:
    """``value`` of setting ``key`` in its canonical type; :class:`RulesError` for a value of the wrong type."""
    default = _FIELDS[key].default
    if key == "edition":
        if not isinstance(value, str):
            raise RulesError(f"the edition is a name ({', '.join(EDITION_NAMES)}), not {_short(value)}")
        return value
    if isinstance(default, Enum):
        enum = type(default)
        if isinstance(value, enum):
            return value
        try:
            return enum(value)
        except (ValueError, TypeError):
            options = ", ".join(m.value for m in enum)
            raise RulesError(f"bad value {_short(value)} for {key} (options: {options})") from None
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        raise RulesError(f"{key} is 1 (on) or 0 (off), not {_short(value)}")
    if isinstance(default, int):
        return _whole(key, value)
    if key == "phase_stacks":
        return tuple(tuple(_whole(key, h) for h in _sequence(key, phase, "stack heights"))
                     for phase in _sequence(key, value, "phases"))
    if key == "castles":
        names = []
        for name in _sequence(key, value, "squares"):
            try:
                names.append(square_name(parse_square(name)))
            except (ValueError, TypeError, AttributeError):
                raise RulesError(f"castles: {_short(name)} is not a square (squares are a1..h8)") from None
        return tuple(names)
    if key == "king_bonus":
        return tuple(_whole(key, v) for v in _sequence(key, value, "numbers"))
    return value  # (every field is handled above)


def _castles_apart(a: int, b: int, spacing: Spacing) -> bool:
    """The master version's spacing of starting castles (as ``movegen.castle_sites`` places them)."""
    dx, dy = abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3))
    return dx + dy >= 3 if spacing is Spacing.ORTHOGONAL_GAP2 else max(dx, dy) >= 2


def _validate(r: Rules) -> None:
    """:class:`RulesError` unless every setting of ``r`` is within its bounds (docs/notation.md §4)."""
    if r.edition not in EDITION_NAMES:
        raise RulesError(f"unknown edition {_short(r.edition)} (editions: {', '.join(EDITION_NAMES)})")
    for key, (low, high) in INT_LIMITS.items():
        value = getattr(r, key)
        if not low <= value <= high:
            raise RulesError(f"{key} is {low}..{high}{_INT_NOTES.get(key, '')}, not {value}")
    low, high = CASTLE_COUNT
    if not low <= len(r.castles) <= high:
        raise RulesError(f"castles lists {low} to {high} starting castles (squares joined by '.', e.g. "
                         f"{'.'.join(STANDARD_CASTLES)}), not {len(r.castles)}")
    squares = [parse_square(name) for name in r.castles]
    for i, a in enumerate(squares):
        for b in squares[:i]:
            if a == b:
                raise RulesError(f"castles: {square_name(a)} is listed twice")
            if not _castles_apart(a, b, r.spacing):
                raise RulesError(f"castles: {square_name(b)} and {square_name(a)} are too close for "
                                 f"spacing={r.spacing.value} (the master version's distance between castles)")
    if r.blocks_total < len(r.castles):
        raise RulesError(f"blocks_total is at least one block per starting castle ({len(r.castles)}), "
                         f"not {r.blocks_total}")
    low, high = KING_BONUS
    if len(r.king_bonus) != PHASES or not all(low <= v <= high for v in r.king_bonus):
        raise RulesError(f"king_bonus is {PHASES} numbers {low}..{high}, one per phase (e.g. 5.10.15), not "
                         f"{_short('.'.join(str(v) for v in r.king_bonus))}")
    if r.phase_stacks:
        if len(r.phase_stacks) != PHASES:
            given = _format(_plain(r.phase_stacks))
            raise RulesError(f"phase_stacks is {PHASES} phases joined by '|', each its stack heights joined by '.' "
                             f"(e.g. 3.3.2.2|3.3.2|3.3.2), not {_short(given)} ({len(r.phase_stacks)} phase"
                             f"{'s' if len(r.phase_stacks) != 1 else ''})")
        low, high = ROUNDS
        for number, phase in enumerate(r.phase_stacks, 1):
            if not low <= len(phase) <= high:
                raise RulesError(f"phase_stacks: phase {number} has {len(phase)} stacks; a phase has {low} to "
                                 f"{high} (one per round)")
            for height in phase:
                if not 1 <= height <= MAX_STACK_HEIGHT:
                    raise RulesError(f"phase_stacks: a stack holds 1 to {MAX_STACK_HEIGHT} blocks, not {height}")
    if r.stack_cap == 0:
        # No cap: a seat's unused blocks all roll onto its next stack (and with phase_end_blocks=keep its kept
        # blocks onto the first stack of the next phase), so one stack may come to hold all of them.
        keep = r.phase_end_blocks is PhaseEndBlocks.KEEP
        cases = [(r.phase_stacks, "")] if r.phase_stacks else [
            (DEFAULT_PHASE_STACKS[n], f" of the {n}-player default") for n in sorted(DEFAULT_PHASE_STACKS)]
        for stacks, which in cases:
            pile = 0
            for number, phase in enumerate(stacks, 1):
                pile = (pile if keep else 0) + sum(phase)
                if pile > MAX_STACK_HEIGHT:
                    kept = " with the blocks kept from the phases before (phase_end_blocks=keep)" if keep else ""
                    raise RulesError(
                        f"with stack_cap=0 (no cap) a seat's unused blocks pile onto one stack, which may hold at "
                        f"most {MAX_STACK_HEIGHT}: phase {number}{which} deals {pile} blocks a seat{kept}")


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _format(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, list):
        if value and isinstance(value[0], list):
            return "|".join(".".join(str(h) for h in phase) for phase in value)
        return ".".join(str(v) for v in value)
    return str(value)


_WHOLE = re.compile(r"-?[0-9]{1,9}")
_TRUE, _FALSE = ("1", "true", "yes"), ("0", "false", "no")


def _parse_int(key: str, text: str) -> int:
    if not _WHOLE.fullmatch(text):
        raise RulesError(f"{key}: {_short(text)} is not a whole number")
    return int(text)


def _parse_value(key: str, text: str) -> Any:
    """The value of setting ``key`` written as ``text`` (its range is checked when the rules are made)."""
    default = _FIELDS[key].default
    if isinstance(default, bool):
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise RulesError(f"{key} is 1 (on) or 0 (off), not {_short(text)}")
    if isinstance(default, int) and not isinstance(default, Enum):
        return _parse_int(key, text)
    if key == "phase_stacks":
        return tuple(tuple(_parse_int(key, h) for h in phase.split(".")) for phase in text.split("|"))
    if key == "castles":
        return tuple(text.split("."))
    if key == "king_bonus":
        return tuple(_parse_int(key, v) for v in text.split("."))
    return text


EDITIONS: dict[str, Rules] = {
    # 000_…: own decks, stacks ≤ 3, leftovers returned at phase end, king mover starts the next phase.
    "riogrande": Rules(edition="riogrande"),
    # 003_… (and 004_… Hebrew): the common deck is the basic game; vault over an opponent's knight;
    # play continues clockwise after scoring; the king goes to another castle.
    "ravensburger": Rules(
        edition="ravensburger",
        card_mode=CardMode.COMMON,
        next_starter=NextStarter.UNCHANGED,
        vault_over=VaultOver.OPPONENT_KNIGHT,
        king_move_other_castle=True,
        shift_six_every_moment=True,
    ),
    # 004_… (Hebrew translation of the original): common deck like the German, but the king may go to "any empty
    # castle" and "the player who moved the king is the first player in the next phase", as in the Rio Grande text.
    "hebrew": Rules(
        edition="hebrew",
        card_mode=CardMode.COMMON,
        vault_over=VaultOver.OPPONENT_KNIGHT,
        shift_six_every_moment=True,
    ),
    # 002_…: leftovers kept for the next Year, track-order scoring from Year 2, lowest scorer picks the starter,
    # king to "any other Castle", master spacing with a diagonal clause.
    "idw": Rules(
        edition="idw",
        phase_end_blocks=PhaseEndBlocks.KEEP,
        next_starter=NextStarter.CHOSEN_BY_LOWEST,
        scoring_order=ScoringOrder.TRACK,
        king_move_other_castle=True,
        spacing=Spacing.GAP1_NO_DIAGONAL,
    ),
    # 001_…: random start player, the largest stack automatically, leftovers roll on, stacks uncapped
    # (3–4 players; in 2-player games the state caps them at 3), shift takes and leaves level-1 blocks.
    "yucata": Rules(
        edition="yucata",
        stack_choice=StackChoice.LARGEST,
        stack_cap=0,
        start_player=StartPlayer.RANDOM,
        shift_level_one=True,
    ),
}


__all__ = [
    "CardMode",
    "ClimbCard",
    "EDITIONS",
    "EDITION_NAMES",
    "INT_LIMITS",
    "MAX_RULES_TEXT",
    "NextStarter",
    "PhaseEndBlocks",
    "Rules",
    "RulesError",
    "ScoringOrder",
    "Spacing",
    "StackChoice",
    "StartPlayer",
    "VaultOver",
    "STANDARD_CASTLES",
    "DEFAULT_PHASE_STACKS",
]
