"""Rule settings. An *edition* is a named set of settings on the one engine, never a fork.

Every setting names the rulebook passage it comes from in ``docs/rules.md`` / ``docs/editions.md``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Any


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


@dataclass(frozen=True)
class Rules:
    """All settings of one game. ``Rules.edition("riogrande")`` gives an edition's defaults."""

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

    @staticmethod
    def edition_names() -> tuple[str, ...]:
        return tuple(EDITIONS)

    @classmethod
    def for_edition(cls, name: str, **overrides: Any) -> "Rules":
        try:
            base = EDITIONS[name]
        except KeyError:
            raise ValueError(f"unknown edition {name!r} (editions: {', '.join(EDITIONS)})") from None
        return base.replace(**overrides) if overrides else base

    def replace(self, **changes: Any) -> "Rules":
        return dataclasses.replace(self, **{k: _coerce(k, v) for k, v in changes.items()})

    def stacks_for(self, players: int) -> tuple[tuple[int, ...], ...]:
        return self.phase_stacks or DEFAULT_PHASE_STACKS[players]

    def overrides(self) -> dict[str, Any]:
        """Settings that differ from this edition's defaults (what a record must store)."""
        base = EDITIONS.get(self.edition, Rules())
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
        parts = [f"{k}={_format(v)}" for k, v in self.overrides().items()]
        return self.edition + (":" + ",".join(parts) if parts else "")

    @classmethod
    def from_text(cls, text: str) -> "Rules":
        name, _, rest = text.partition(":")
        overrides: dict[str, Any] = {}
        if rest:
            for item in rest.split(","):
                key, eq, value = item.partition("=")
                if not eq:
                    raise ValueError(f"bad rules setting {item!r} (expected key=value)")
                overrides[key] = _parse_value(key, value)
        return cls.for_edition(name, **overrides)


_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}


def _coerce(key: str, value: Any) -> Any:
    if key not in _FIELDS:
        raise ValueError(f"unknown rules setting {key!r}")
    default = getattr(Rules(), key)
    if isinstance(default, Enum) and not isinstance(value, Enum):
        try:
            return type(default)(value)
        except ValueError:
            options = ", ".join(m.value for m in type(default))
            raise ValueError(f"bad value {value!r} for {key} (options: {options})") from None
    if key == "phase_stacks":
        return tuple(tuple(int(h) for h in phase) for phase in value)
    if isinstance(default, tuple) and not isinstance(value, tuple):
        return tuple(value)
    if isinstance(default, bool):
        return bool(value)
    return value


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


def _parse_value(key: str, text: str) -> Any:
    if key not in _FIELDS:
        raise ValueError(f"unknown rules setting {key!r}")
    default = getattr(Rules(), key)
    if isinstance(default, bool):
        return text in ("1", "true", "yes")
    if isinstance(default, int) and not isinstance(default, Enum):
        return int(text)
    if key == "phase_stacks":
        return tuple(tuple(int(h) for h in phase.split(".")) for phase in text.split("|"))
    if key == "castles":
        return tuple(text.split("."))
    if key == "king_bonus":
        return tuple(int(v) for v in text.split("."))
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
    "NextStarter",
    "PhaseEndBlocks",
    "Rules",
    "ScoringOrder",
    "Spacing",
    "StackChoice",
    "StartPlayer",
    "VaultOver",
    "STANDARD_CASTLES",
    "DEFAULT_PHASE_STACKS",
]
