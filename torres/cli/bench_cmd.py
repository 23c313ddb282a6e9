"""``torres bench``: random-playout throughput, compared with python-chess in the same process."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ..bench import run_bench
from ..engine import Rules
from .app import app


@app.command()
def bench(
    seconds: Annotated[float, typer.Option("--seconds", "-t", min=0.001, help="Total time budget.")] = 10.0,
    reps: Annotated[int, typer.Option("--reps", min=1, help="Repetitions per series (medians are reported).")]
    = 5,
    edition: Annotated[str, typer.Option("--edition", "-e", help="Rules edition: "
                                         + ", ".join(Rules.edition_names()) + ".")] = "riogrande",
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Random playouts per second for 2, 3 and 4 players, and python-chess random playouts for reference."""
    try:
        result = run_bench(seconds, reps, edition)
    except ValueError as exc:
        Console(stderr=True).print(f"error: {exc}", markup=False)
        raise typer.Exit(2) from None
    if as_json:
        print(json.dumps(result.to_json()))
        return
    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = max(console.width, 100)  # whole rows when piped
    table = Table(title=f"Random playouts, {result.edition} — medians of {result.reps} repetitions "
                        f"(~{result.seconds:g}s total, Python {result.python})")
    for name in ("engine", "players", "mode", "actions/s", "games/s", "actions/game", "games", "× chess"):
        table.add_column(name, justify="left" if name in ("engine", "mode") else "right", no_wrap=True)
    for s in result.torres:
        ratio = result.ratio(s)
        table.add_row("torres", str(s.players), s.mode, f"{s.actions_per_second:,.0f}", f"{s.games_per_second:,.1f}",
                      f"{s.actions_per_game:.0f}", str(s.games), "-" if ratio is None else f"{ratio:.2f}")
    if result.chess is not None:
        c = result.chess
        table.add_row("chess", "2", "push", f"{c.actions_per_second:,.0f}", f"{c.games_per_second:,.1f}",
                      f"{c.actions_per_game:.0f}", str(c.games), "1.00")
    console.print(table)
    if result.chess is None:
        console.print("python-chess is not installed (pip install chess): no reference run")
    console.print("push: legal_action_ids + push(check=False), keeping undo information; "
                  "apply: the fast path without undo; chess: random.choice(list(legal_moves)) + push, "
                  "≤200 plies")
