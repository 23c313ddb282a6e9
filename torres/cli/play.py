"""``torres play`` (people against bots or each other at one terminal) and ``torres demo`` (bots only)."""

from __future__ import annotations

import random
import sys
from typing import Any, Optional

import typer
from rich.console import Console
from rich.prompt import Confirm, IntPrompt, Prompt

from ..engine.rules import EDITIONS, CardMode, Rules
from ..engine.state import GameState
from ..tui.render import EDITION_NAMES, PLAYER_COLOUR_NAMES
from ..tui.session import LADDER, Player, TerminalGame, attach_bots, available_levels, parse_seats, quick_level
from .app import app


def _fail(message: str) -> None:
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
        answer = Prompt.ask(f"Seat {seat + 1} ({PLAYER_COLOUR_NAMES[seat]})", choices=choices, default=default,
                            console=console)
        if answer == "human":
            name = Prompt.ask("  name", default=f"Player {seat + 1}", console=console)
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
        raise
    meta = record.get("meta", {})
    return state, meta if isinstance(meta, dict) else {}


@app.command()
def play(
    players: Optional[int] = typer.Option(None, "--players", "-p", min=2, max=4, help="2, 3 or 4 players."),
    seats: Optional[str] = typer.Option(
        None, "--seats", help="One per seat: human, human:NAME, bot (quick level) or bot:LEVEL, e.g. human,bot:greedy."),
    edition: Optional[str] = typer.Option(None, "--edition", "-e", help=f"Rules edition: {', '.join(EDITIONS)}."),
    master: Optional[bool] = typer.Option(None, "--master/--no-master", help="The master version."),
    cards: Optional[str] = typer.Option(None, "--cards", help="Card mode: own (a deck each) or common (one deck)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the shuffles (default: random)."),
    load: Optional[str] = typer.Option(None, "--load", help="Continue a game saved with 'save FILE'."),
    delay: float = typer.Option(0.4, "--delay", min=0.0, help="Seconds to show each bot action."),
) -> None:
    """Play Torres at this terminal against bots or friends (hot-seat). Missing choices are asked for."""
    console = Console()
    ask = _interactive()
    if edition is not None and edition not in EDITIONS:
        _fail(f"unknown edition {edition!r} (editions: {', '.join(EDITIONS)})")
    if cards is not None and cards not in ("own", "common"):
        _fail(f"--cards is own or common, not {cards!r}")
    if load is not None:
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
    else:
        if players is None:
            players = IntPrompt.ask("Players", choices=["2", "3", "4"], default=2, console=console) if ask else 2
        if seats is None:
            seats = _ask_seats(console, players) if ask else ",".join(["human"] + ["bot"] * (players - 1))
        if edition is None:
            if ask:
                names = ", ".join(f"{k}: {EDITION_NAMES.get(k, k)}" for k in EDITIONS)
                edition = Prompt.ask(f"Edition ({names})",
                                     choices=list(EDITIONS), default="riogrande", console=console)
            else:
                edition = "riogrande"
        if master is None:
            master = Confirm.ask("Master version", default=False, console=console) if ask else False
        base = EDITIONS[edition]
        if cards is None and not master and ask:
            cards = Prompt.ask("Cards: own deck each, or one common deck", choices=["own", "common"],
                               default=base.card_mode.value, console=console)
        overrides: dict[str, Any] = {}
        if master:
            overrides["master"] = True
        if cards is not None:
            overrides["card_mode"] = CardMode(cards)
        rules = Rules.for_edition(edition, **overrides)
        game_seed = seed if seed is not None else random.SystemRandom().randrange(1_000_000)
        state = GameState(players, game_seed, rules)
    try:
        table = parse_seats(seats, state.n)
        attach_bots(table, game_seed)
    except ValueError as exc:
        _fail(str(exc))
        raise
    try:
        finished = TerminalGame(state, table, console, delay=delay).run()
    except KeyboardInterrupt:
        console.print("\n[dim]Interrupted — the game was not saved.[/]")
        raise typer.Exit(130) from None
    if not finished:
        raise typer.Exit(0)


@app.command()
def demo(
    players: int = typer.Option(4, "--players", "-p", min=2, max=4, help="2, 3 or 4 bots."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the game (default: random)."),
    delay: float = typer.Option(0.3, "--delay", min=0.0, help="Seconds between turns."),
    bots: Optional[str] = typer.Option(None, "--bots", help="Bot level per seat, e.g. greedy,random (default: "
                                                            "a quick level for every seat)."),
    edition: str = typer.Option("riogrande", "--edition", "-e", help=f"Rules edition: {', '.join(EDITIONS)}."),
    master: bool = typer.Option(False, "--master/--no-master", help="The master version."),
) -> None:
    """Watch bots play a whole game of Torres, the board redrawn after every turn."""
    if edition not in EDITIONS:
        _fail(f"unknown edition {edition!r} (editions: {', '.join(EDITIONS)})")
    game_seed = seed if seed is not None else random.SystemRandom().randrange(1_000_000)
    rules = Rules.for_edition(edition, master=True) if master else EDITIONS[edition]
    state = GameState(players, game_seed, rules)
    specs = [s.strip() for s in bots.split(",")] if bots else [quick_level()] * players
    if len(specs) != players:
        _fail(f"--bots lists {len(specs)} bot(s) for {players} players")
    table: list[Player] = []
    try:
        table = parse_seats(",".join(f"bot:{s}" for s in specs), players)
        attach_bots(table, game_seed)
    except ValueError as exc:
        _fail(str(exc))
    console = Console()
    try:
        TerminalGame(state, table, console, delay=delay, demo=True).run()
    except KeyboardInterrupt:
        console.print("\n[dim]Demo stopped.[/]")
        raise typer.Exit(130) from None
