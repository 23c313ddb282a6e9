"""A game at the terminal: people at the keyboard (one or several, hot-seat) and bots, until the final ranking.

The engine decides everything: which actions are legal (``state.parse`` gives the reason for an illegal one),
what each seat may know (``state.view(seat)``), what may be taken back (``state.can_take_back()``), the scoring.
This layer only adds what a table of players needs: handing the screen over without leaving the previous
player's cards where the next one can scroll or page to them, leaving a game without losing it, and help.
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
from ..ai.collector import settle
from ..ai.greedy import GreedyBot
from ..engine.actions import DECODE, PLAY_KINDS, Action, Kind, format_action
from ..engine.rules import CardMode
from ..engine.state import GameState, IllegalActionError, Stage
from ..engine.view import SeatView
from .guide import how_to_play
from .prompt import Completer, ansi_prompt, forget_typed_lines, legal_table, read_line
from .render import (
    PLAYER_COLOUR_NAMES, PLAYER_STYLES, LogEntry, Seat, beside, card_help, knight_mark, legend_table, render_board,
    render_ranking, render_scoring, render_screen,
)

#: Bot levels from strongest to weakest, as the AI package names them (only those it has are used).
LEVEL_ORDER = ("master", "expert", "strong", "casual", "beginner", "greedy", "onestep", "random")
#: The strength ladder offered in the menu (any other bot name works with --seats).
LADDER = ("beginner", "casual", "strong", "expert", "master")
#: Levels fast enough to watch turn by turn, best first (``torres demo`` and the default opponent).
QUICK_LEVELS = ("casual", "greedy", "beginner", "random")
#: The ANSI 256-colour number of each seat's prompt (the same hues as the board's knights).
PROMPT_COLOURS = (203, 81, 221, 120)
#: Actions a player may take back within their own turn; everything else (a card draw, the end of a turn, a
#: setup placement, the king's move) closes the turn so far.
UNDOABLE = frozenset({Kind.MOVE, Kind.STACK, Kind.BLOCK, Kind.KNIGHT, Kind.SCORE} | set(PLAY_KINDS))
#: Erases the terminal's scrollback (xterm and its kin). Clearing the screen alone (ESC[2J) leaves everything
#: printed before in the scrollback, where the next player in hot-seat could scroll back to a hand.
ERASE_SCROLLBACK = "\x1b[3J"
#: An error message echoes at most this much of what was typed (the rest is cut, the length said).
ECHO_LIMIT = 60


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


@dataclass(frozen=True)
class Advice:
    """A hint as the terminal shows it: the action to take now, the known rest of the planned turn, and whether
    the plan goes on past a card draw (whose cards nobody knows yet)."""

    now: int
    then: tuple[str, ...] = ()
    past_a_draw: bool = False
    detail: str = ""

    def then_line(self) -> str:
        """``then: …`` — ending at the draw with ``keep the best card you draw``, never with a card the bot only
        imagined; empty when nothing follows."""
        then = list(self.then)
        if self.past_a_draw:
            then.append("keep the best card you draw (ask hint again then)")
        return f"then: {', '.join(then)}" if then else ""


def hint(view: SeatView) -> Advice:
    """What the strongest available bot would play here: the action to take now, and the rest of the turn it
    plans up to the next card draw (``torres.ai.hint`` plans the turn on one imagined deal: the cards it keeps
    there are invented, so they, and whatever the plan does after them, are not shown)."""
    fn = getattr(ai, "hint", None)
    if callable(fn):
        result: Any = fn(view)
        ids = getattr(result, "action_ids", None)
        texts = getattr(result, "actions", None)
        if isinstance(ids, (tuple, list)) and ids and ids[0] in view.legal and isinstance(texts, (tuple, list)):
            value = getattr(result, "value", None)
            detail = f"evaluation {value:+.1f} points ahead of the rivals" if isinstance(value, float) else ""
            then: list[str] = []
            past_a_draw = False
            for text in texts[1:]:
                if str(text).startswith("keep"):
                    past_a_draw = True
                    break
                then.append(str(text))
            if DECODE[ids[0]][0] is Kind.BUY and view.rules.card_mode is CardMode.OWN:
                past_a_draw = True  # the next decision is the keep, on cards not drawn yet
            return Advice(int(ids[0]), tuple(then), past_a_draw, detail)
    level = strongest_level()
    return Advice(make_bot(level, seed=len(view.history)).choose(view), detail=f"{level} bot")


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
            out.append(Player(rest or PLAYER_COLOUR_NAMES[seat].capitalize(), "human"))
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


def shortened(typed: str, message: str) -> str:
    """``message`` with the ``typed`` text it echoes cut to :data:`ECHO_LIMIT` characters (a pasted page of text
    is refused in one line, not echoed back whole)."""
    if len(typed) <= ECHO_LIMIT:
        return message
    cut = typed[:ECHO_LIMIT] + f"… ({len(typed):,} characters)"
    for echoed in (typed, typed.lower()):
        if echoed in message:
            return message.replace(echoed, cut)
    return message if len(message) <= 2 * ECHO_LIMIT else message[:2 * ECHO_LIMIT] + "…"


def default_save_path() -> Path:
    """Where a game is saved when its player leaves without naming a file."""
    return Path(f"torres-{datetime.now().strftime('%Y%m%d-%H%M%S')}.json")


@dataclass
class TerminalGame:
    """Runs one game at the terminal."""

    state: GameState
    players: list[Player]
    console: Console
    delay: float = 0.4  # seconds to show each bot action (play) or turn (demo)
    demo: bool = False
    clock: Callable[[float], None] = time.sleep
    screen_owner: int | None = None  # the human whose cards the screen may show
    note: Text | None = None
    scorings_shown: int = 0
    saved_as: tuple[tuple[int, ...], Path] | None = None  # the history last saved, and where

    def __post_init__(self) -> None:
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

    def saved_path(self) -> Path | None:
        """The file holding the game as it stands now, if it was saved since the last action."""
        if self.saved_as is not None and self.saved_as[0] == tuple(self.state.history):
            return self.saved_as[1]
        return None

    # --- drawing ------------------------------------------------------------------------------------------
    def clear(self) -> None:
        """Clear the screen and the terminal's scrollback, so nothing drawn before can be scrolled back to."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write(ERASE_SCROLLBACK)
            self.console.file.flush()

    def draw(self, clear: bool = True) -> None:
        state = self.state
        shown = self.hand_seat()
        seat = shown if shown is not None else state.current
        view = state.view(seat)
        highlight = last_turn_squares(state.history, state.actors)
        if clear:
            self.clear()
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
        """Play to the end (True) or until a player leaves (False). Ctrl-C asks before leaving, as ``quit`` does
        (in a demo it stops at once: there is nothing to lose)."""
        if self.demo:
            self.draw()
        while not self.state.is_over():
            try:
                if not self.step():
                    return False
            except KeyboardInterrupt:
                if self.demo or not self.humans:
                    raise
                self.console.print()
                if self.leave():
                    return False
                self.draw()
        self.finish()
        return True

    def step(self) -> bool:
        """One action by the seat to act (and the scoring it may bring). False: a player left."""
        seat = self.state.current
        player = self.players[seat]
        if player.bot is not None:
            self.bot_acts(seat, player.bot)
        elif not self.human_acts(seat):
            return False
        if len(self.state.scorings) > self.scorings_shown:
            self.show_scoring()
        return True

    def bot_acts(self, seat: int, bot: Bot) -> None:
        state = self.state
        view = state.view(seat)
        action_id = bot.choose(view)
        settle()  # (as every process that searches does after a decision: torres.ai.collector)
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
        """Hot-seat: wipe the screen, the scrollback and the typed lines (Up would recall a ``keep``), show only
        public things, and let the next player take the screen before showing their cards."""
        if len(self.humans) < 2 or self.screen_owner == seat:
            self.screen_owner = seat
            return True
        self.screen_owner = None
        forget_typed_lines()
        self.draw()
        self.console.print()
        name = self.players[seat].name
        while True:
            self.console.print(Text(f"Pass to {name} ({knight_mark(seat)}, {PLAYER_COLOUR_NAMES[seat]}) — "
                                    "press Enter", style=PLAYER_STYLES[seat]))
            if read_line("") is not None:
                break
            if self.leave():
                return False
        self.screen_owner = seat
        return True

    def human_acts(self, seat: int) -> bool:
        """Read and carry out commands until this human has taken one action. False: the player left."""
        if not self.hand_over(seat):
            return False
        state = self.state
        self.draw()
        while True:
            self.completer.set_actions(state.legal_action_ids())
            name = self.players[seat].name
            ap = f" [{state.ap} AP]" if state.stage is Stage.TURN else ""
            try:
                line = read_line(ansi_prompt(f"{name}{ap} ›", PROMPT_COLOURS[seat]))
            except KeyboardInterrupt:
                self.console.print()
                line = None
            text = " ".join(line.strip().split()) if line is not None else "quit"
            word = text.lower().split(" ")[0] if text else ""
            if not text:
                continue
            if word in ("?", "help", "h"):
                self.console.print(legal_table(state.legal_action_ids()))
            elif word == "cards":
                self.console.print(card_help())
            elif word in ("board", "redraw"):
                self.draw()
            elif word == "legend":
                self.console.print(legend_table(state.view(seat), self.seats))
            elif word == "rules":
                self.show_rules(text[5:].strip())
            elif word == "undo":
                if self.undo(seat):
                    self.draw()
            elif word == "hint":
                self.show_hint(seat)
            elif word == "save":
                self.save(text[4:].strip())
            elif word in ("quit", "exit", "q"):
                if self.leave():
                    return False
                self.draw()
            else:
                try:
                    action = state.parse(text)
                except IllegalActionError as exc:
                    self.say(f"✗ {shortened(text, str(exc))}  (? lists the legal actions)", "bold #ff8080")
                    continue
                state.push(action)
                if state.current == seat and not state.is_over():
                    self.draw()
                elif len(self.humans) > 1:
                    self.screen_owner = None  # hot-seat: the cards leave the screen with the turn
                return True

    def leave(self) -> bool:
        """``quit`` or Ctrl-C: ask first, then offer to save (a default file name; ``no`` leaves unsaved). True:
        leave the game. Input closed or a second Ctrl-C: save to the default file, so nothing is lost."""
        answer = self.ask("Leave this game? [y/N] ")
        if answer is not None and not answer.strip().lower().startswith("y"):
            return False
        path = self.saved_path()
        if path is not None:
            self.say(f"Bye — the game is saved in {path} (torres play --load {path}).")
            return True
        default = default_save_path()
        answer = self.ask(f"Save it first? File name [{default}], or 'no': ") if answer is not None else None
        if answer is not None and answer.strip().lower() in ("n", "no", "-"):
            self.say("Bye — the game was not saved.")
            return True
        if not self.save(answer.strip() if answer and answer.strip() else str(default)):
            return False  # the player sees why and may try another file
        self.say("Bye.")
        return True

    def ask(self, question: str) -> str | None:
        """A line of input; None when input is closed or Ctrl-C is pressed again."""
        try:
            return read_line(question)
        except KeyboardInterrupt:
            self.console.print()
            return None

    def undo(self, seat: int) -> bool:
        """Take back the last action if the engine's undo policy allows it (``can_take_back``: an action of this
        turn, never a card draw). A loaded game is no different: its saved turn can be taken back as far as it
        could have been before saving."""
        state = self.state
        if not state.can_take_back():
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
        advice = hint(self.state.view(seat))
        line = Text("hint: ")
        line.append(format_action(advice.now), style="bold #ffd700")
        self.console.print(line)
        then = advice.then_line()
        if then:
            self.say("  " + then, "#ffd700")
        if advice.detail:
            self.say(f"  ({advice.detail})", "dim")

    def show_rules(self, language: str) -> None:
        """How to play, through the pager when at a terminal (``rules de``: in German)."""
        from rich.markdown import Markdown

        try:
            text = how_to_play(language or "en")
        except (LookupError, OSError) as exc:
            self.say(f"✗ {exc}", "bold #ff8080")
            return
        if self.console.is_terminal:
            with self.console.pager(styles=False):
                self.console.print(Markdown(text))
        else:
            self.console.print(Markdown(text))
        self.say("(board: redraws the screen · legend: what the symbols mean)", "dim")

    def record_meta(self) -> dict[str, Any]:
        return {"seats": [p.spec for p in self.players], "names": [p.name for p in self.players],
                "date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "program": "torres play"}

    def save(self, path: str) -> bool:
        from .. import records

        if not path:
            self.say("✗ save needs a file name, e.g. save mygame.json", "bold #ff8080")
            return False
        target = Path(path).expanduser()
        try:
            records.write_record(target, records.record_of(self.state, self.record_meta()))
        except OSError as exc:
            self.say(f"✗ cannot save to {path}: {exc.strerror}", "bold #ff8080")
            return False
        self.saved_as = (tuple(self.state.history), target)
        self.say(f"saved to {path} — continue it with: torres play --load {path}", "bold #9dff8a")
        return True

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
        self.clear()
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
                line = self.ask(ansi_prompt("›", 250))
                if line is None or not line.strip():
                    return
                if line.strip().lower().startswith("save"):
                    self.save(line.strip()[4:].strip())
                else:
                    self.say("type save FILE, or press Enter to leave", "dim")
