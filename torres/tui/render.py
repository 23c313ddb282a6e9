"""Drawing a game of Torres with rich: the board, the side panel, phase scoring and the final ranking.

Everything here draws from a :class:`~torres.engine.view.SeatView` (public facts plus one seat's own cards), so
what is on screen is never more than that seat may know. ``hand_seat`` says whose cards may be shown: the human
at the keyboard, or nobody (a spectator, or while a screen is being handed over in hot-seat play).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine.board import board_info
from ..engine.cards import CARD_TEXT, Card
from ..engine.master import MASTER_TEXT, MasterCard
from ..engine.rules import CardMode
from ..engine.scoring import PhaseScoring
from ..engine.squares import parse_square, square_name
from ..engine.state import KING, Stage
from ..engine.view import SeatView

#: Knight colours of seats 0..3 (bright, readable on every castle colour).
PLAYER_STYLES = ("bold #ff6e6e", "bold #6ec8ff", "bold #ffe066", "bold #9dff8a")
PLAYER_COLOUR_NAMES = ("red", "blue", "yellow", "green")
#: Background of each of the 8 castles (muted, so knights and levels stand out).
CASTLE_BACKGROUNDS = ("#7a4426", "#24695a", "#5a4690", "#8a2f5c", "#2f5a92", "#6a6a1e", "#9a5a10", "#3f6a2a",
                      "#6a3030", "#305a6a")
GROUND = ("#262626", "#303030")
KING_STYLE = "bold #ffd700"
EDITION_NAMES = {"riogrande": "Rio Grande", "ravensburger": "Ravensburger", "hebrew": "Hebrew", "idw": "IDW",
                 "yucata": "yucata.de"}
FILES = "abcdefgh"
CELL = 4  # characters per square (two lines high)


@dataclass(frozen=True)
class Seat:
    """How a seat is shown: its name and whether a person or a bot plays it."""

    name: str
    human: bool
    level: str = ""  # the bot's level, for bots


@dataclass(frozen=True)
class LogEntry:
    seat: int
    text: str


def knight_mark(seat: int) -> str:
    """How a seat's knights look on the board: ``♞0`` for seat 0. The number is the engine's seat number, the one
    ``first N`` takes, so the board, the player list and the start-player choice all count the same way."""
    return f"♞{seat}"


def player_text(seats: Sequence[Seat], seat: int, marker: bool = True) -> Text:
    """A seat's name in its colour, e.g. ``♞0 Ann``."""
    text = Text()
    if marker:
        text.append(knight_mark(seat) + " ", style=PLAYER_STYLES[seat])
    text.append(seats[seat].name, style=PLAYER_STYLES[seat])
    return text


def castle_colours(view: SeatView) -> dict[int, int]:
    """Square → index into :data:`CASTLE_BACKGROUNDS` for every castle square.

    A castle keeps its colour all game: it is named by the first starting castle square it contains (the
    edition's starting castles, or the ``castle`` placements of the master version, in order)."""
    info = board_info(view.heights)
    if view.rules.master:
        seeds = [parse_square(t.split()[1]) for t in view.history if t.startswith("castle ")]
    else:
        seeds = [parse_square(name) for name in view.rules.castles]
    colour_of_castle: dict[int, int] = {}
    for index, sq in enumerate(seeds):
        c = info.cid[sq]
        if c >= 0 and c not in colour_of_castle:
            colour_of_castle[c] = index % len(CASTLE_BACKGROUNDS)
    spare = [i for i in range(len(CASTLE_BACKGROUNDS)) if i not in colour_of_castle.values()] or [0]
    for c in sorted(range(info.castle_count), key=lambda c: min(info.squares[c])):
        if c not in colour_of_castle:
            colour_of_castle[c] = spare[len(colour_of_castle) % len(spare)]
    return {sq: colour_of_castle[info.cid[sq]] for sq in range(64) if info.cid[sq] >= 0}


def king_castle_squares(view: SeatView) -> set[int]:
    if view.king < 0:
        return set()
    info = board_info(view.heights)
    c = info.cid[view.king]
    return set(info.squares[c]) if c >= 0 else set()


def render_board(view: SeatView, highlight: Sequence[int] = ()) -> Text:
    """The 8×8 board, rank 8 at the top: each castle in its own colour with the level on every square,
    knights as :func:`knight_mark` (``♞`` + seat number) in their player's colour, the king ``♚`` and a ``♛`` on the king's castle.
    ``highlight`` squares (the last action's) are marked with ``›``."""
    colours = castle_colours(view)
    kings = king_castle_squares(view)
    out = Text()
    files = "  " + "".join(f.center(CELL) for f in FILES) + "\n"
    out.append(files, style="dim")
    for rank in range(7, -1, -1):
        for line in (0, 1):
            out.append(f"{rank + 1} " if line == 1 else "  ", style="dim")
            for file in range(8):
                sq = rank * 8 + file
                level = view.heights[sq]
                if sq in colours:
                    bg = CASTLE_BACKGROUNDS[colours[sq]]
                else:
                    bg = GROUND[(rank + file) % 2]
                if line == 0:
                    mark = "›" if sq in highlight else " "
                    out.append(mark, style=f"bold #ffffff on {bg}")
                    out.append(str(level) if level else " ", style=f"bold #f0f0f0 on {bg}")
                    out.append(" ", style=f"on {bg}")
                    out.append("♛" if sq in kings else " ", style=f"#ffd700 on {bg}")
                else:
                    occ = view.occupancy[sq]
                    if occ == KING:
                        out.append(" ♚  ", style=f"{KING_STYLE} on {bg}")
                    elif occ:
                        out.append(" ", style=f"on {bg}")
                        out.append(knight_mark(occ - 1), style=f"{PLAYER_STYLES[occ - 1]} on {bg}")
                        out.append(" ", style=f"on {bg}")
                    else:
                        out.append("    ", style=f"on {bg}")
            out.append(f" {rank + 1}" if line == 1 else "", style="dim")
            out.append("\n")
    out.append(files.rstrip("\n"), style="dim")
    return out


def stage_text(view: SeatView) -> str:
    stage = view.stage
    if stage is Stage.CASTLES:
        return "setup: place a starting castle  (castle c6)"
    if stage is Stage.KNIGHTS:
        return "setup: a first knight on a castle  (start c6)"
    if stage is Stage.KING_SETUP:
        return "setup: place the king on a castle  (king f6)"
    if stage is Stage.KEEP:
        return "keep one of the drawn cards  (keep …)"
    if stage is Stage.KING_MOVE:
        return "lowest score: move the king  (king c6 / king stay)"
    if stage is Stage.CHOOSE_FIRST:
        return "lowest score: pick the next start player  (first N)"
    if stage is Stage.OVER:
        return "game over"
    return f"{view.ap} action point{'s' if view.ap != 1 else ''} left"


def phase_text(view: SeatView) -> str:
    edition = EDITION_NAMES.get(view.rules.edition, view.rules.edition)
    extra = []
    if view.rules.master:
        extra.append("master")
    if view.rules.card_mode is CardMode.COMMON and not view.rules.master:
        extra.append("common deck")
    head = f"{edition}" + (f" ({', '.join(extra)})" if extra else "")
    if view.stage in (Stage.CASTLES, Stage.KNIGHTS, Stage.KING_SETUP):
        return f"{head} · setup"
    if view.stage is Stage.OVER:
        return f"{head} · final"
    rounds = len(view.rules.stacks_for(view.players)[view.phase])
    rnd = min(view.round + 1, rounds)
    return f"{head} · phase {view.phase + 1}/3 · round {rnd}/{rounds}"


def _cards_text(counts: Sequence[int], fresh: Sequence[int] = ()) -> Text:
    text = Text()
    for c, n in enumerate(counts):
        if not n:
            continue
        if text:
            text.append(", ")
        text.append(Card(c).text, style="bold")
        if n > 1:
            text.append(f"×{n}")
        if fresh and fresh[c]:
            text.append(" (new)" if fresh[c] == n else f" ({fresh[c]} new)", style="dim")
    return text if text else Text("none", style="dim")


#: Stages in which a phase is being played, so that "if the phase ended now" means something.
PLAYING_STAGES = frozenset({Stage.TURN, Stage.KEEP})


def render_players(view: SeatView, seats: Sequence[Seat], compact: bool = False) -> Table:
    """One row per seat: score (the scoring track), what the track would say if the phase were scored now,
    knights placed/left, stacks, cards in hand, deck size."""
    r = view.rules
    if_now = view.scoring_now().after if view.stage in PLAYING_STAGES else None
    own_decks = r.card_mode is CardMode.OWN and not (r.master or r.full_hand)
    table = Table(box=None, padding=(0, 1), show_edge=False, header_style="dim", pad_edge=False,
                  collapse_padding=True)
    table.add_column("player", no_wrap=True)
    table.add_column("pts" if compact else "score", justify="right", no_wrap=True)
    if if_now is not None:
        table.add_column("if now" if compact else "if scored now", justify="right", no_wrap=True)
    table.add_column("kn." if compact else "knights", justify="center", no_wrap=True)
    table.add_column("stacks", no_wrap=True)
    table.add_column("hand" if compact else "cards", justify="right", no_wrap=True)
    if own_decks:
        table.add_column("deck", justify="right", no_wrap=True)
    for s in range(view.players):
        to_act = s == view.current and view.stage is not Stage.OVER
        name = Text("▶ " if to_act else "  ", style=PLAYER_STYLES[s])
        name.append_text(player_text(seats, s))
        if not seats[s].human and not compact:
            name.append(f" ({seats[s].level})", style="dim")
        knights = f"{len(view.knights[s])}/{r.knights_per_player}"
        stacks = " ".join(str(h) for h in view.stacks[s]) or "–"
        if view.carry[s]:
            stacks += f" +{view.carry[s]}"
        row: list[RenderableType] = [name, Text(str(view.scores[s]), style="bold")]
        if if_now is not None:
            row.append(Text(str(if_now[s]), style="#ffd700"))
        row += [knights, stacks, str(view.hand_sizes[s])]
        if own_decks:
            row.append(str(view.deck_sizes[s]))
        table.add_row(*row)
    return table


def render_panel(view: SeatView, seats: Sequence[Seat], hand_seat: int | None,
                 log: Sequence[LogEntry], log_lines: int = 6, compact: bool = False) -> Group:
    """The side panel: phase, whose turn, the players, this turn's stack, the shown seat's cards, the supply,
    the decks, the master card and the last actions."""
    r = view.rules
    parts: list[RenderableType] = []
    title = Text("TORRES ", style=KING_STYLE)
    title.append(phase_text(view), style="bold")
    parts.append(title)
    if view.stage is not Stage.OVER:
        turn = Text("▶ ")
        turn.append_text(player_text(seats, view.current, marker=False))
        turn.append(f" — {stage_text(view)}")
        parts.append(turn)
        if view.stage is Stage.TURN:
            stack = Text("  this turn's stack: ")
            if view.turn_stack >= 0:
                stack.append(f"{view.turn_stack} block{'s' if view.turn_stack != 1 else ''}", style="bold")
            else:
                stack.append("none yet (stack N)" if compact else "none taken yet (stack N)", style="dim")
            parts.append(stack)
    if view.stage is Stage.CHOOSE_FIRST:
        choices = Text("  ")
        for s in range(view.players):
            if s:
                choices.append(" · ", style="dim")
            choices.append(f"first {s} = ", style="dim")
            choices.append_text(player_text(seats, s))
        parts.append(choices)
    parts.append(Text(""))
    parts.append(render_players(view, seats, compact))
    parts.append(Text(""))
    if hand_seat is not None and hand_seat == view.seat:
        hand = Text("Your cards: ", style=PLAYER_STYLES[view.seat])
        hand.append_text(_cards_text(view.hand, view.fresh))
        parts.append(hand)
        if view.drawn:
            drawn = Text("Drawn: ", style="bold")
            drawn.append(", ".join(Card(c).text for c in view.drawn), style="bold #ffd700")
            drawn.append("  (top first)", style="dim")
            parts.append(drawn)
            parts.append(Text("  keep one; the others go back on top:… or bottom:… of your deck "
                              "(Tab lists the ways)", style="dim"))
    supply = Text(f"Supply: {view.supply} blocks", style="dim")
    if r.card_mode is CardMode.COMMON and not (r.master or r.full_hand):
        supply.append(f" · card deck: {view.common_size}")
    parts.append(supply)
    if view.master_card >= 0:
        card = MasterCard(view.master_card)
        parts.append(Text(f"Master card {card.text}: {MASTER_TEXT[card]}", style="dim"))
    if log:
        parts.append(Text("Last turns:", style="dim"))
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column()
        for entry in log[-log_lines:]:
            grid.add_row(Text(f" {seats[entry.seat].name}", style=PLAYER_STYLES[entry.seat]), entry.text)
        parts.append(grid)
    return Group(*parts)


def render_screen(view: SeatView, seats: Sequence[Seat], hand_seat: int | None, log: Sequence[LogEntry],
                  highlight: Sequence[int] = (), width: int = 100, height: int = 40) -> RenderableType:
    """Board and panel side by side (one above the other on a narrow terminal)."""
    board = render_board(view, highlight)
    panel = render_panel(view, seats, hand_seat, log, log_lines=6 if height >= 34 else 3, compact=width < 100)
    return Group(beside(board, panel, width), legend_line(view, seats))


def legend_line(view: SeatView, seats: Sequence[Seat]) -> Text:
    """The one line under the board that names its symbols (``legend`` explains them at length)."""
    line = Text()
    line.append("♚", style=KING_STYLE)
    line.append(" king  ", style="dim")
    line.append("♛", style=KING_STYLE)
    line.append(" king's castle  ", style="dim")
    for s in range(view.players):
        line.append_text(player_text(seats, s))
        line.append("  ")
    line.append("›", style="bold")
    line.append(" changed last turn  ", style="dim")
    line.append("1–9 levels", style="dim")
    if view.stage in PLAYING_STAGES:
        line.append("  · if now: points if the phase ended now", style="dim")
    line.append("  · legend, rules", style="dim")
    return line


def legend_table(view: SeatView, seats: Sequence[Seat]) -> Table:
    """The ``legend`` command: every symbol of the screen and what it means."""
    table = Table(box=None, show_header=False, padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column()
    table.add_row(Text("♚", style=KING_STYLE), "the king (only the lowest scorer moves him, after a phase's scoring)")
    table.add_row(Text("♛", style=KING_STYLE), "a square of the king's castle: knights there earn the king's bonus")
    for s in range(view.players):
        who = "a person" if seats[s].human else f"a bot ({seats[s].level})"
        mark = player_text(seats, s, marker=False)
        table.add_row(Text(knight_mark(s), style=PLAYER_STYLES[s]),
                      Text.assemble("a knight of ", mark, f" — {PLAYER_COLOUR_NAMES[s]}, seat {s} "
                                    f"('first {s}' names this player), {who}"))
    table.add_row(Text("›", style="bold"), "a square the last turn changed (a block placed, a knight moved)")
    table.add_row(Text("1–9", style="bold"), "the level of a square: how many blocks high it is (castles in "
                                             "colour, the ground dark)")
    table.add_row(Text("▶", style="bold"), "the player to act")
    table.add_row(Text("score", style="bold"), "points on the scoring track")
    table.add_row(Text("if scored now", style="bold"), "the track if the phase were scored now: castle area × "
                                                       "your highest knight's level there, plus the king's bonus")
    table.add_row(Text("kn., knights", style="bold"), "knights on the board / knights a player has")
    table.add_row(Text("stacks", style="bold"), "block stacks left for the phase's turns (one per turn)")
    return table


def beside(left: RenderableType, right: RenderableType, width: int, need: int = 78) -> RenderableType:
    """``left`` and ``right`` side by side, or one above the other when the terminal is narrower than ``need``."""
    if width < need:
        return Group(left, Text(""), right)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column()
    grid.add_row(left, right)
    return grid


def render_scoring(scoring: PhaseScoring, view: SeatView, seats: Sequence[Seat]) -> Panel:
    """A phase's scoring as a table: a row per castle (area × level of each player's highest knight there),
    then the castle total, the king's bonus, the master bonus and the scoring track before and after."""
    colours = castle_colours(view)
    table = Table(show_edge=False, header_style="bold", padding=(0, 1), box=box.SIMPLE_HEAD)
    table.add_column("castle (squares)")
    for s in range(len(seats)):
        table.add_column(player_text(seats, s, marker=False), justify="right")
    castles: list[tuple[str, ...]] = []
    for c in scoring.castles:
        if c.castle not in castles:
            castles.append(c.castle)
    for castle in castles:
        bg = CASTLE_BACKGROUNDS[colours.get(parse_square(castle[0]), 0)]
        label = Text()
        label.append("  ", style=f"on {bg}")
        label.append(f" {castle[0]} ({len(castle)})")
        if scoring.king_castle == castle:
            label.append(" ♛", style=KING_STYLE)
        cells: list[RenderableType] = [label]
        for s in range(len(seats)):
            hit = [c for c in scoring.castles if c.castle == castle and c.seat == s]
            cells.append(f"{hit[0].area}×{hit[0].level} = {hit[0].points}" if hit else Text("–", style="dim"))
        table.add_row(*cells)
    if not castles:
        table.add_row(Text("no knight on a castle", style="dim"), *["" for _ in seats])
    table.add_section()
    table.add_row(Text("castles", style="bold"), *[str(scoring.castle_points(s)) for s in range(len(seats))])
    king = Text("king's bonus")
    if scoring.king_castle:
        king.append(f" (level {scoring.phase + 1} ♛)", style=KING_STYLE)
    table.add_row(king, *[str(b) if b else Text("–", style="dim") for b in scoring.king_bonus])
    if view.master_card >= 0:
        table.add_row(f"master: {MasterCard(view.master_card).text}",
                      *[str(b) if b else Text("–", style="dim") for b in scoring.master_bonus])
    table.add_section()
    table.add_row(Text("score", style="bold"),
                  *[Text(f"{b} → {a}", style="bold") for b, a in zip(scoring.before, scoring.after)])
    return Panel(table, title=f"Scoring after phase {scoring.phase + 1}", expand=False)


def render_ranking(view: SeatView, seats: Sequence[Seat]) -> Panel:
    """The final ranking, ties sharing a place."""
    table = Table(show_edge=False, header_style="bold", padding=(0, 2))
    table.add_column("place", justify="right")
    table.add_column("player")
    table.add_column("score", justify="right")
    order = sorted(range(view.players), key=lambda s: (-view.scores[s], s))
    best = max(view.scores)
    for s in order:
        place = 1 + sum(1 for t in range(view.players) if view.scores[t] > view.scores[s])
        crown = " ♛ winner" if view.scores[s] == best else ""
        name = player_text(seats, s)
        name.append(crown, style=KING_STYLE)
        table.add_row(f"{place}.", name, Text(str(view.scores[s]), style="bold"))
    return Panel(table, title="Final ranking", expand=False)


def card_help() -> Table:
    table = Table(box=None, show_header=False, padding=(0, 1))
    for card in Card:
        table.add_row(Text(card.text, style="bold"), CARD_TEXT[card])
    return table


def square_list(squares: Sequence[int]) -> str:
    return " ".join(square_name(s) for s in squares)
