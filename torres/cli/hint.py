"""``torres hint (FILE | --position P)``: the turn the strongest level (master) suggests, with the evaluation it expects."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from ..ai.collector import tune_for_search
from ..ai.hint import hint as compute_hint
from ..engine.state import GameState
from .app import app


def load_state(file: Optional[Path], position: Optional[str], upto: Optional[int] = None) -> GameState:
    """A position string (``torres/1 ...``) or a game record (JSON), from a file or ``--position``."""
    if (file is None) == (position is None):
        raise ValueError("give a FILE or --position, not both")
    text = position if position is not None else Path(file).read_text()  # type: ignore[arg-type]
    text = text.strip()
    if text.startswith("torres/"):
        return GameState.from_position(text.splitlines()[0])
    from ..records import parse_record, replay

    return replay(parse_record(text), upto)


def turn_text(actions: tuple[str, ...]) -> str:
    """A planned turn for people: a keep planned on cards not drawn yet (``keep ?``) reads as what to do then."""
    return ", ".join("keep the best card drawn" if a == "keep ?" else a for a in actions)


@app.command()
def hint(
    file: Optional[Path] = typer.Argument(None, help="A position string or a game record (JSON) file"),
    position: Optional[str] = typer.Option(None, help="A position string, e.g. 'torres/1 rules=riogrande ...'"),
    seat: Optional[int] = typer.Option(None, help="The seat to advise (default: the seat to act)"),
    budget: float = typer.Option(1.0, min=0.01, max=3600.0, help="Thinking time in seconds"),
    iterations: int = typer.Option(0, min=0, help="A fixed number of simulations instead (deterministic)"),
    upto: Optional[int] = typer.Option(None, min=0, help="For a record: the position after this many actions"),
    seed: int = typer.Option(0, help="Seed of the search"),
) -> None:
    """Suggest the best turn for the seat to act, as the strongest bot sees it from that seat's view."""
    tune_for_search()
    console = Console()
    try:
        state = load_state(file, position, upto)
        result = compute_hint(state, seat, budget, iterations, seed)
    except (ValueError, OSError) as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    console.print(f"[bold]seat {result.seat}:[/bold] {turn_text(result.actions)}")
    console.print(f"evaluation after the turn: {result.value:+.1f} points against the rivals; "
                  f"expected after their replies: {result.expected:+.1f} "
                  f"({result.iterations} simulations, {result.seconds:.2f} s)")
    console.print("what the evaluation counts for each seat (points banked and in sight): " + ", ".join(f"seat {s}: {v:.0f}" for s, v in enumerate(result.projected)))
    if result.alternatives:
        table = Table(title="turns considered")
        table.add_column("turn")
        table.add_column("simulations", justify="right")
        table.add_column("expected", justify="right")
        for alt in result.alternatives:
            table.add_row(turn_text(alt.actions), str(alt.visits), f"{alt.expected:+.1f}" if alt.visits else "—")
        console.print(table)
