"""Reading the player's input: a readline prompt that tab-completes the legal actions, and the ``?`` listing."""

from __future__ import annotations

from typing import Iterable, Sequence

from rich.table import Table
from rich.text import Text

from ..engine.actions import DECODE, PLAY_KINDS, Kind, format_action

try:  # GNU readline where Python has it; plain input() otherwise
    import readline as _readline
except ImportError:  # pragma: no cover - e.g. Windows without pyreadline
    _readline = None  # type: ignore[assignment]

#: Words the prompt understands besides actions.
COMMANDS = ("help", "undo", "hint", "save ", "board", "cards", "legend", "rules", "quit")

_GROUPS: tuple[tuple[str, frozenset[Kind]], ...] = (
    ("starting castle", frozenset({Kind.CASTLE})),
    ("first knight", frozenset({Kind.START})),
    ("king", frozenset({Kind.KING, Kind.KING_STAY})),
    ("start player (seat 0–3)", frozenset({Kind.FIRST})),
    ("take this turn's stack · 0 AP", frozenset({Kind.STACK})),
    ("place a block · 1 AP", frozenset({Kind.BLOCK})),
    ("move a knight · 1 AP", frozenset({Kind.MOVE})),
    ("add a knight · 2 AP", frozenset({Kind.KNIGHT})),
    ("buy a card · 1 AP", frozenset({Kind.BUY})),
    ("score a point · 1 AP", frozenset({Kind.SCORE})),
    ("keep a drawn card (the others go back: top:… listed top-down, bottom:…)", frozenset({Kind.KEEP})),
    ("play a card · 0 AP", frozenset(PLAY_KINDS)),
    ("end the turn", frozenset({Kind.END})),
)


def grouped(legal: Iterable[int]) -> list[tuple[str, list[str]]]:
    """Legal action ids as notation, grouped by kind of action, in the order a turn usually goes."""
    by_kind: dict[Kind, list[str]] = {}
    for action_id in legal:
        by_kind.setdefault(DECODE[action_id][0], []).append(format_action(action_id))
    out = []
    for title, kinds in _GROUPS:
        texts = [t for k in sorted(kinds) for t in by_kind.get(k, [])]
        if texts:
            out.append((title, texts))
    return out


def legal_table(legal: Iterable[int]) -> Table:
    """The ``?`` listing: every legal action, grouped by kind, followed by the commands."""
    table = Table(box=None, show_header=False, padding=(0, 1))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for title, texts in grouped(legal):
        table.add_row(title, Text("  ".join(texts)))
    table.add_row("", "")
    table.add_row(Text("commands", style="dim"),
                  Text("undo · hint · save FILE · board · cards (what each card does) · legend (the screen's "
                       "symbols) · rules (how to play; rules de: auf Deutsch) · help/? · quit · Tab completes",
                       style="dim"))
    return table


class Completer:
    """Readline completion over whole lines: the legal actions (``c3-c4``, ``play climb c3-c4``) and commands."""

    def __init__(self) -> None:
        self.words: list[str] = []
        self._matches: list[str] = []

    def set_actions(self, legal: Sequence[int]) -> None:
        self.words = [format_action(a) for a in legal] + list(COMMANDS)

    def complete(self, text: str, index: int) -> str | None:
        if index == 0:
            line = _readline.get_line_buffer() if _readline is not None else text
            head = line[: len(line) - len(text)]
            self._matches = [w[len(head):] for w in self.words if w.startswith(line) and w[len(head):]]
        return self._matches[index] if index < len(self._matches) else None

    def install(self) -> None:
        if _readline is None:
            return
        _readline.set_completer(self.complete)
        _readline.set_completer_delims(" ")
        if "libedit" in (_readline.__doc__ or ""):
            _readline.parse_and_bind("bind ^I rl_complete")
        else:
            _readline.parse_and_bind("tab: complete")


def ansi_prompt(text: str, colour: int) -> str:
    """A bold coloured prompt that readline measures correctly (escape codes wrapped in \\001…\\002)."""
    return f"\001\033[1;38;5;{colour}m\002{text}\001\033[0m\002 "


def forget_typed_lines() -> None:
    """Empty readline's history: in hot-seat, Up must not bring back what the previous player typed (a ``keep``
    names the card they kept)."""
    if _readline is not None:
        _readline.clear_history()


def read_line(prompt: str) -> str | None:
    """A line of input, or None at end of input (Ctrl-D)."""
    try:
        return input(prompt)
    except EOFError:
        return None
