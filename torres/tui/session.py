"""A game at the terminal: people at the keyboard (one or several, hot-seat) and bots, until the final ranking.

The engine decides everything: which actions are legal (``state.parse`` gives the reason for an illegal one),
what each seat may know (``state.view(seat)``), the scoring. This layer only adds what a table of players
agrees on: taking back an action of your own turn (never a card draw, never into another player's turn) and
handing the screen over without showing the next player's cards to the previous one.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Sequence

from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.text import Text

from .. import ai
from ..ai.base import Bot, make_bot
from ..ai.greedy import GreedyBot
from ..engine.actions import DECODE, PLAY_KINDS, Action, Kind, format_action
from ..engine.state import GameState, IllegalActionError, Stage
from ..engine.view import SeatView
from .prompt import Completer, ansi_prompt, legal_table, read_line
from .render import (
    PLAYER_COLOUR_NAMES, PLAYER_STYLES, LogEntry, Seat, beside, card_help, render_board, render_ranking,
    render_scoring, render_screen,
)

#: Bot levels from strongest to weakest, as the AI package names them (only those it has are used).
LEVEL_ORDER = ("expert", "strong", "casual", "beginner", "greedy", "onestep", "random")
#: The strength ladder offered in the menu (any other bot name works with --seats).
LADDER = ("beginner", "casual", "strong", "expert")
#: Levels fast enough to watch turn by turn, best first (``torres demo`` and the default opponent).
QUICK_LEVELS = ("casual", "greedy", "beginner", "random")
#: The ANSI 256-colour number of each seat's prompt (the same hues as the board's knights).
PROMPT_COLOURS = (203, 81, 221, 120)
#: Actions a player may take back within their own turn; everything else (a card draw, the end of a turn, a
#: setup placement, the king's move) closes the turn so far.
UNDOABLE = frozenset({Kind.MOVE, Kind.STACK, Kind.BLOCK, Kind.KNIGHT, Kind.SCORE} | set(PLAY_KINDS))


def available_levels() -> list[str]:
    """Bot names ``make_bot`` accepts now, strongest first (new levels show up without changes here)."""
    names: list[str] = []
    try:
        levels_module: Any = importlib.import_module("torres.ai.levels")
    except ImportError:
        levels_module = None
    listing = getattr(levels_module, "bot_names", None)
    if callable(listing):
        names.extend(str(n) for n in listing())
    names.extend(str(k) for k in getattr(ai, "LEVELS", {}))
    names.extend(str(k) for k in getattr(ai.base, "BOTS", {}))
    out: list[str] = []
    for name in names:
        if name in out:
            continue
        try:
            make_bot(name, 0)
        except (ValueError, TypeError):
            continue
        out.append(name)
    rank = {name: i for i, name in enumerate(LEVEL_ORDER)}
    return sorted(out, key=lambda n: rank.get(n, len(LEVEL_ORDER)))


def strongest_level() -> str:
    return available_levels()[0]


def quick_level() -> str:
    levels = available_levels()
    for name in QUICK_LEVELS:
        if name in levels:
            return name
    return levels[-1]


def hint(view: SeatView) -> tuple[list[int], str]:
    """What the strongest available bot would play here: the action to take now (and the rest of the turn it
    plans, with its evaluation, when ``torres.ai.hint`` is there to say so)."""
    fn = getattr(ai, "hint", None)
    if callable(fn):
        result: Any = fn(view)
        ids = getattr(result, "action_ids", None)
        if isinstance(ids, (tuple, list)) and ids and all(i in view.legal for i in ids[:1]):
            value = getattr(result, "value", None)
            detail = f"evaluation {value:+.1f} points ahead of the rivals" if isinstance(value, float) else ""
            return [int(i) for i in ids], detail
    level = strongest_level()
    return [make_bot(level, seed=len(view.history)).choose(view)], f"{level} bot"


@dataclass
class Player:
    """A seat at the table: a person, or a bot with its level."""

    name: str
    spec: str  # "human" or a bot spec such as "greedy"
    bot: Bot | None = None

    @property
    def human(self) -> bool:
        return self.bot is None

    def seat_info(self) -> Seat:
        return Seat(self.name, self.human, "" if self.human else self.spec)


def parse_seats(text: str, players: int) -> list[Player]:
    """``human,bot:greedy,random,human:Ann`` → one Player per seat (``bot`` alone: a quick default level)."""
    items = [t.strip() for t in text.split(",") if t.strip()]
    if len(items) != players:
        raise ValueError(f"--seats lists {len(items)} seat(s) but the game has {players} players")
    out: list[Player] = []
    for seat, item in enumerate(items):
        head, _, rest = item.partition(":")
        head = head.lower()
        if head in ("human", "h", "me", "person"):
            out.append(Player(rest or f"Player {seat + 1}", "human"))
            continue
        spec = (rest or quick_level()) if head == "bot" else item
        out.append(Player(PLAYER_COLOUR_NAMES[seat].capitalize(), spec))
    return out


#: Live play caps a planning bot's turn at this many seconds, so that a turn takes at most about a second (the
#: node being expanded when time runs out is finished first). Tournaments and records leave the clock off: it
#: makes a bot's turns depend on the machine, and the levels' evaluation budgets keep nearly every turn under.
LIVE_TURN_SECONDS = 0.8


def attach_bots(players: Sequence[Player], seed: int) -> None:
    for seat, player in enumerate(players):
        if player.spec != "human" and player.bot is None:
            player.bot = make_bot(player.spec, seed=seed * 10 + seat)
            if isinstance(player.bot, GreedyBot) and not player.bot.seconds:
                player.bot.seconds = LIVE_TURN_SECONDS


def turn_log(view: SeatView, kinds: Sequence[Kind], actors: Sequence[int], hand_seat: int | None) -> list[LogEntry]:
    """The actions so far, one entry per player's turn (``keep`` details only for the seat whose cards show)."""
    entries: list[LogEntry] = []
    current: list[str] = []
    last = -1
    for text, kind, seat in zip(view.history, kinds, actors):
        if kind is Kind.KEEP and seat != hand_seat:
            continue  # which card was kept is that player's secret; the log shows the buy
        if current and seat != last:
            entries.append(LogEntry(last, ", ".join(current)))
            current = []
        current.append(text)
        last = seat
        if kind is Kind.END or kind not in _TURN_KINDS:
            entries.append(LogEntry(seat, ", ".join(current)))
            current = []
    if current:
        entries.append(LogEntry(last, ", ".join(current)))
    return [LogEntry(e.seat, _squeeze(e.text)) for e in entries]


def _squeeze(text: str) -> str:
    """``score, score, score, end`` → ``score ×3, end``."""
    out: list[tuple[str, int]] = []
    for item in text.split(", "):
        if out and out[-1][0] == item:
            out[-1] = (item, out[-1][1] + 1)
        else:
            out.append((item, 1))
    return ", ".join(item if n == 1 else f"{item} ×{n}" for item, n in out)


_TURN_KINDS = UNDOABLE | {Kind.BUY, Kind.KEEP}


def last_turn_squares(history: Sequence[int], actors: Sequence[int]) -> list[int]:
    """The squares the latest turn (or setup placement) touched, to mark on the board."""
    squares: list[int] = []
    i = len(history) - 1
    while i >= 0:
        kind = DECODE[history[i]][0]
        if i < len(history) - 1 and (actors[i] != actors[-1] or kind is Kind.END or kind not in _TURN_KINDS):
            break
        action = Action(history[i])
        squares.extend(s for s in (action.source, action.square) if s >= 0)
        if kind not in _TURN_KINDS and kind is not Kind.END:
            break
        i -= 1
    return squares


@dataclass
class TerminalGame:
    """Runs one game at the terminal."""

    state: GameState
    players: list[Player]
    console: Console
    delay: float = 0.4  # seconds to show each bot action (play) or turn (demo)
    demo: bool = False
    clock: Callable[[float], None] = time.sleep
    barrier: int = 0  # undo never goes behind a loaded game's save point (the engine rules the rest)
    screen_owner: int | None = None  # the human whose cards the screen may show
    note: Text | None = None
    scorings_shown: int = 0
    saved: bool = False

    def __post_init__(self) -> None:
        self.barrier = len(self.state.history)
        self.scorings_shown = len(self.state.scorings)
        humans = self.humans
        if len(humans) == 1:
            self.screen_owner = humans[0]
        self.completer = Completer()
        self.completer.install()

    # --- who is who ---------------------------------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        return [s for s, p in enumerate(self.players) if p.human]

    @property
    def seats(self) -> list[Seat]:
        return [p.seat_info() for p in self.players]

    def hand_seat(self) -> int | None:
        """Whose cards the screen shows: the one human, or in hot-seat the human who has taken the screen."""
        return self.screen_owner

    def public_view(self) -> SeatView:
        """A view to draw public things from (scoring, ranking): no cards of it are shown."""
        shown = self.screen_owner
        return self.state.view(shown if shown is not None else self.state.current)

    # --- drawing ------------------------------------------------------------------------------------------
    def draw(self, clear: bool = True) -> None:
        state = self.state
        shown = self.hand_seat()
        seat = shown if shown is not None else state.current
        view = state.view(seat)
        highlight = last_turn_squares(state.history, state.actors)
        if clear:
            self.console.clear()
        kinds = [DECODE[a][0] for a in state.history]
        log = turn_log(view, kinds, state.actors, shown)
        self.console.print(render_screen(view, self.seats, shown, log, highlight, width=self.console.width,
                                         height=self.console.height))
        if self.note is not None:
            self.console.print(self.note)
            self.note = None

    def say(self, text: str, style: str = "") -> None:
        self.console.print(Text(text, style=style))

    # --- the game loop ------------------------------------------------------------------------------------
    def run(self) -> bool:
        """Play to the end (True) or until a player quits (False)."""
        if self.demo:
            self.draw()
        while not self.state.is_over():
            seat = self.state.current
            player = self.players[seat]
            if player.bot is not None:
                self.bot_acts(seat, player.bot)
            elif not self.human_acts(seat):
                return False
            if len(self.state.scorings) > self.scorings_shown:
                self.show_scoring()
        self.finish()
        return True

    def bot_acts(self, seat: int, bot: Bot) -> None:
        state = self.state
        view = state.view(seat)
        action_id = bot.choose(view)
        if action_id not in view.legal:
            raise RuntimeError(f"bot {self.players[seat].spec} chose an illegal action {format_action(action_id)!r}")
        state.push(action_id)
        kind = DECODE[action_id][0]
        if self.demo:
            turn_over = kind not in UNDOABLE and kind not in (Kind.BUY, Kind.KEEP)
            if turn_over:
                self.draw()
                self.clock(self.delay)
        elif self.delay > 0:
            self.draw()
            self.clock(self.delay)

    def hand_over(self, seat: int) -> bool:
        """Hot-seat: clear the screen and let the next player take it before showing their cards."""
        if len(self.humans) < 2 or self.screen_owner == seat:
            self.screen_owner = seat
            return True
        self.screen_owner = None
        self.draw()
        self.console.print()
        self.console.print(Text(f"Pass to {self.players[seat].name} ({PLAYER_COLOUR_NAMES[seat]}) — press Enter",
                                style=PLAYER_STYLES[seat]))
        if read_line("") is None:
            return False
        self.screen_owner = seat
        return True

    def human_acts(self, seat: int) -> bool:
        """Read and carry out commands until this human has taken one action. False: the player quit."""
        if not self.hand_over(seat):
            return False
        state = self.state
        self.draw()
        while True:
            self.completer.set_actions(state.legal_action_ids())
            name = self.players[seat].name
            ap = f" [{state.ap} AP]" if state.stage is Stage.TURN else ""
            line = read_line(ansi_prompt(f"{name}{ap} ›", PROMPT_COLOURS[seat]))
            if line is None:
                self.say("Bye." if self.saved else "Bye — the game was not saved (save FILE keeps it).")
                return False
            text = " ".join(line.strip().split())
            word = text.lower().split(" ")[0] if text else ""
            if not text:
                continue
            if word in ("?", "help", "h"):
                self.console.print(legal_table(state.legal_action_ids()))
            elif word == "cards":
                self.console.print(card_help())
            elif word in ("board", "redraw"):
                self.draw()
            elif word == "undo":
                if self.undo(seat):
                    self.draw()
            elif word == "hint":
                self.show_hint(seat)
            elif word == "save":
                self.save(text[4:].strip())
            elif word in ("quit", "exit", "q"):
                self.say("Bye." if self.saved else "Bye — the game was not saved (save FILE keeps it).")
                return False
            else:
                try:
                    action = state.parse(text)
                except IllegalActionError as exc:
                    self.say(f"✗ {exc}  (? lists the legal actions)", "bold #ff8080")
                    continue
                state.push(action)
                self.saved = False
                if state.current == seat and not state.is_over():
                    self.draw()
                elif len(self.humans) > 1:
                    self.screen_owner = None  # hot-seat: the cards leave the screen with the turn
                return True

    def undo(self, seat: int) -> bool:
        state = self.state
        if len(state.history) <= self.barrier or not state.can_take_back():
            last = DECODE[state.history[-1]][0] if state.history else None
            if last in (Kind.BUY, Kind.KEEP) and state.actors[-1] == seat:
                self.say("✗ cannot undo: the card draw has been seen (a buy and what follows it stay)",
                         "bold #ff8080")
            else:
                self.say("✗ nothing of this turn to take back", "bold #ff8080")
            return False
        action = state.pop()
        self.note = Text(f"took back {action}", style="dim")
        return True

    def show_hint(self, seat: int) -> None:
        self.say("thinking…", "dim")
        actions, detail = hint(self.state.view(seat))
        line = Text("hint: ")
        line.append(format_action(actions[0]), style="bold #ffd700")
        self.console.print(line)
        if len(actions) > 1:
            self.say("  then: " + ", ".join(format_action(a) for a in actions[1:]), "#ffd700")
        if detail:
            self.say(f"  ({detail})", "dim")

    def record_meta(self) -> dict[str, Any]:
        return {"seats": [p.spec for p in self.players], "names": [p.name for p in self.players],
                "date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "program": "torres play"}

    def save(self, path: str) -> None:
        from .. import records

        if not path:
            self.say("✗ save needs a file name, e.g. save mygame.json", "bold #ff8080")
            return
        try:
            records.write_record(Path(path).expanduser(), records.record_of(self.state, self.record_meta()))
        except OSError as exc:
            self.say(f"✗ cannot save to {path}: {exc.strerror}", "bold #ff8080")
            return
        self.saved = True
        self.say(f"saved to {path} — continue it with: torres play --load {path}", "bold #9dff8a")

    # --- scoring and the end ------------------------------------------------------------------------------
    def scoring_screen(self, final: bool) -> None:
        """The board beside the last phase's scoring table (and the final ranking at the end)."""
        state = self.state
        view = self.public_view()
        parts: list[RenderableType] = []
        if state.scorings:
            parts.append(render_scoring(state.scorings[-1], view, self.seats))
        if final:
            parts.append(render_ranking(view, self.seats))
        right = Group(*parts)
        need = 40 + Measurement.get(self.console, self.console.options, right).maximum
        self.console.clear()
        if self.console.width < need and self.console.height < 44:
            self.console.print(right)  # no room for the board as well
        else:
            self.console.print(beside(render_board(view), right, self.console.width, need))

    def show_scoring(self) -> None:
        state = self.state
        self.scorings_shown = len(state.scorings)
        if state.is_over():
            return  # finish() shows it with the ranking
        self.scoring_screen(final=False)
        if self.humans and not self.demo:
            self.say("press Enter to continue", "dim")
            read_line("")
        else:
            self.clock(self.delay * 8)

    def finish(self) -> None:
        self.scoring_screen(final=True)
        if self.humans and not self.demo:
            self.say("Game over. Type save FILE to keep the record, or press Enter to leave.", "dim")
            while True:
                self.completer.words = ["save "]
                line = read_line(ansi_prompt("›", 250))
                if line is None or not line.strip():
                    return
                if line.strip().lower().startswith("save"):
                    self.save(line.strip()[4:].strip())
                else:
                    self.say("type save FILE, or press Enter to leave", "dim")
