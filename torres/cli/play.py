"""``torres play`` (people against bots or each other at one terminal) and ``torres demo`` (bots only)."""

from __future__ import annotations

import random
import sys
from typing import Any, NoReturn, Optional

import typer
from rich.console import Console
from rich.prompt import Confirm, IntPrompt, Prompt

from ..ai.collector import tune_for_search
from ..engine.rules import EDITIONS, Rules
from ..engine.state import GameState
from ..tui.render import EDITION_NAMES, PLAYER_COLOUR_NAMES, knight_mark
from ..tui.session import LADDER, Player, TerminalGame, attach_bots, available_levels, parse_seats, quick_level
from .app import app
from .options import (
    DEFAULT_EDITION, CardsOption, EditionOption, MasterOption, card_mode_of, rules_from_options,
)


def _fail(message: str) -> NoReturn:
    Console(stderr=True).print(f"[bold red]error:[/] {message}")
    raise typer.Exit(2)


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _ask_seats(console: Console, players: int) -> str:
    levels = available_levels()
    ladder = [name for name in LADDER if name in levels]
    if ladder:  # the strength ladder, and the random bot for a gentle start
        levels = ladder + [name for name in ("random",) if name in levels]
    choices = ["human"] + levels
    console.print(f"[dim]Seats: 'human' for a person at this keyboard, or a bot level ({', '.join(levels)}).[/]")
    specs = []
    for seat in range(players):
        default = "human" if seat == 0 else quick_level()
        # Seats are numbered as the board numbers their knights (♞0, ♞1, …) and as 'first N' names them.
        answer = Prompt.ask(f"Seat {knight_mark(seat)} ({PLAYER_COLOUR_NAMES[seat]})", choices=choices,
                            default=default, console=console)
        if answer == "human":
            name = Prompt.ask("  name", default=PLAYER_COLOUR_NAMES[seat].capitalize(), console=console)
            specs.append(f"human:{name}")
        else:
            specs.append(answer)
    return ",".join(specs)


def _load(path: str) -> tuple[GameState, dict[str, Any]]:
    from .. import records

    try:
        record = records.read_record(path)
        state = records.replay(record)
    except (OSError, records.RecordError) as exc:
        _fail(f"cannot load {path}: {exc}")
    meta = record.get("meta", {})
    return state, meta if isinstance(meta, dict) else {}


def _seat_count(seats: str) -> int:
    return len([item for item in seats.split(",") if item.strip()])


def _load_rules_flags_refused(edition: str | None, master: bool | None, cards: str | None) -> None:
    given = [flag for flag, value in (("--edition", edition), ("--master", master), ("--cards", cards))
             if value is not None]
    if given:
        _fail(f"--load continues the saved game with its own rules: drop {', '.join(given)}")


def _ask_rules(console: Console, edition: str | None, master: bool | None, cards: str | None) -> Rules:
    """The rules: what the flags say; only when no edition is given does the menu ask for one, and then for the
    settings left open (the master version; own or common cards)."""
    if edition is not None:
        return rules_from_options(edition, master, cards)
    names = ", ".join(f"{k}: {EDITION_NAMES.get(k, k)}" for k in EDITIONS)
    edition = Prompt.ask(f"Edition ({names})", choices=list(EDITIONS), default=DEFAULT_EDITION, console=console)
    if master is None:
        master = Confirm.ask("Master version", default=False, console=console)
    if cards is None and not master:
        cards = Prompt.ask("Cards: own deck each, or one common deck", choices=["own", "common"],
                           default=EDITIONS[edition].card_mode.value, console=console)
    return rules_from_options(edition, master, cards)


@app.command()
def play(
    players: Optional[int] = typer.Option(None, "--players", "-p", "-n", min=2, max=4,
                                          help="2, 3 or 4 players (default: as many as --seats lists)."),
    seats: Optional[str] = typer.Option(
        None, "--seats", help="One per seat: human, human:NAME, bot (quick level) or bot:LEVEL, e.g. human,bot:greedy."),
    edition: EditionOption = None,
    master: MasterOption = None,
    cards: CardsOption = None,
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the shuffles (default: random)."),
    load: Optional[str] = typer.Option(None, "--load", help="Continue a game saved with 'save FILE'."),
    delay: float = typer.Option(0.4, "--delay", min=0.0, help="Seconds to show each bot action."),
) -> None:
    """Play Torres at this terminal against bots or friends (hot-seat). Choices the flags leave open are asked
    for (with --edition, nothing about the rules is asked)."""
    tune_for_search()
    console = Console()
    ask = _interactive()
    try:  # every flag is checked before the first question
        if edition is not None:
            rules_from_options(edition, master, cards)
        card_mode_of(cards)
    except ValueError as exc:
        _fail(str(exc))
    if load is not None:
        _load_rules_flags_refused(edition, master, cards)
        state, meta = _load(load)
        if seats is None:
            stored = meta.get("seats")
            names = meta.get("names")
            if isinstance(stored, list) and len(stored) == state.n:
                seats = ",".join(f"human:{names[i]}" if s == "human" and isinstance(names, list) else str(s)
                                 for i, s in enumerate(stored))
            elif ask:
                seats = _ask_seats(console, state.n)
            else:
                seats = ",".join(["human"] + ["bot"] * (state.n - 1))
        game_seed = state.seed
        table = _table(seats, state.n, game_seed)
    else:
        if seats is not None:
            if players is not None and players != _seat_count(seats):
                _fail(f"--seats lists {_seat_count(seats)} seat(s) but --players says {players}")
            players = _seat_count(seats)
            if not 2 <= players <= 4:
                _fail(f"--seats lists {players} seat(s): a game has 2, 3 or 4 players")
        if players is None:
            players = IntPrompt.ask("Players", choices=["2", "3", "4"], default=2, console=console) if ask else 2
        if seats is None:
            seats = _ask_seats(console, players) if ask else ",".join(["human"] + ["bot"] * (players - 1))
        game_seed = seed if seed is not None else random.SystemRandom().randrange(1_000_000)
        table = _table(seats, players, game_seed)
        try:
            rules = _ask_rules(console, edition, master, cards) if ask else rules_from_options(edition, master,
                                                                                                 cards)
        except ValueError as exc:
            _fail(str(exc))
        state = GameState(players, game_seed, rules)
    finished = TerminalGame(state, table, console, delay=delay).run()
    if not finished:
        raise typer.Exit(0)


def _table(seats: str, players: int, seed: int) -> list[Player]:
    try:
        table = parse_seats(seats, players)
        attach_bots(table, seed)
    except ValueError as exc:
        _fail(str(exc))
    return table


@app.command()
def demo(
    players: int = typer.Option(4, "--players", "-p", "-n", min=2, max=4, help="2, 3 or 4 bots."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the game (default: random)."),
    delay: float = typer.Option(0.3, "--delay", min=0.0, help="Seconds between turns."),
    bots: Optional[str] = typer.Option(None, "--bots", help="Bot level per seat, e.g. greedy,random (default: "
                                                            "a quick level for every seat)."),
    edition: EditionOption = None,
    master: MasterOption = None,
    cards: CardsOption = None,
) -> None:
    """Watch bots play a whole game of Torres, the board redrawn after every turn."""
    tune_for_search()
    try:
        rules = rules_from_options(edition, master, cards)
    except ValueError as exc:
        _fail(str(exc))
    game_seed = seed if seed is not None else random.SystemRandom().randrange(1_000_000)
    state = GameState(players, game_seed, rules)
    specs = [s.strip() for s in bots.split(",")] if bots else [quick_level()] * players
    if len(specs) != players:
        _fail(f"--bots lists {len(specs)} bot(s) for {players} players")
    table = _table(",".join(f"bot:{s}" for s in specs), players, game_seed)
    console = Console()
    try:
        TerminalGame(state, table, console, delay=delay, demo=True).run()
    except KeyboardInterrupt:
        console.print("\n[dim]Demo stopped.[/]")
        raise typer.Exit(130) from None
