"""``torres analyse RECORD``: every turn of a finished game judged against the turn a bot finds from the seat's own
view, with each seat's chance to win after every turn (docs/analysis.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..ai.analysis import DEFAULT_LEVEL, Analysis, AnalysisError, analyse_record
from ..ai.collector import tune_for_search
from ..records import RecordError, read_record
from .app import app


def _names(record: dict[str, Any]) -> list[str]:
    """Who sat where, from the record's meta where it says (bots of a selfplay, players of a server game)."""
    meta = record.get("meta") or {}
    listed = meta.get("players") or meta.get("bots") or []
    names = []
    for seat in range(record["players"]):
        item = listed[seat] if isinstance(listed, list) and seat < len(listed) else None
        name = item.get("name") if isinstance(item, dict) else item
        names.append(f"seat {seat}" + (f" ({name})" if isinstance(name, str) and name else ""))
    return names


def _turn_text(actions: list[str]) -> str:
    return ", ".join(actions)


def print_analysis(console: Console, analysis: dict[str, Any], names: list[str]) -> None:
    table = Table(title=f"turns judged by {analysis['level']} (seed {analysis['seed']}; loss and values in points "
                        f"of the {analysis['evaluation']} evaluation)")
    table.add_column("turn", justify="right")
    table.add_column("seat")
    table.add_column("played")
    table.add_column("better", overflow="fold")
    table.add_column("loss", justify="right")
    table.add_column("win chance after", justify="right")
    for turn in analysis["turns"]:
        better = "—" if turn["best"] == turn["played"] else _turn_text(turn["best"])
        chances = " ".join(f"{round(100 * p):d}%" for p in turn["win_chance"])
        loss = f"{turn['loss']:.1f}" if turn["loss"] else "0"
        table.add_row(str(turn["turn"]), str(turn["seat"]), _turn_text(turn["played"]), better, loss, chances)
    console.print(table)
    summary = Table(title="per player")
    for column in ("seat", "turns", "mean loss per turn", "total loss", "best turns", "worst turns"):
        summary.add_column(column, justify="left" if column in ("seat", "worst turns") else "right")
    for player in analysis["players"]:
        summary.add_row(names[player["seat"]], str(player["turns"]), f"{player['mean_loss']:.2f}",
                        f"{player['total_loss']:.1f}", str(player["best_turns"]),
                        ", ".join(str(i) for i in player["worst"]) or "—")
    console.print(summary)
    console.print(f"final scores: {', '.join(str(s) for s in analysis['scores'])}")


@app.command()
def analyse(
    record_file: Annotated[Path, typer.Argument(help="A finished game's record (JSON)", metavar="RECORD")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON")] = False,
    level: Annotated[str, typer.Option("--level", help="The bot that judges: a level or any bot spec")]
    = DEFAULT_LEVEL,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the judging bot (the same seed, the same analysis)")]
    = 0,
) -> None:
    """Judge every turn of a finished game against the turn a bot finds from the same seat's view."""
    tune_for_search()
    console = Console(highlight=False, soft_wrap=as_json)
    errors = Console(stderr=True, highlight=False)
    try:
        record = read_record(record_file)
        analysis: Analysis = analyse_record(record, level, seed)
    except (AnalysisError, RecordError, ValueError, OSError) as exc:
        errors.print(f"[bold red]error:[/] {exc}")
        raise typer.Exit(2) from None
    data = analysis.to_json()
    if as_json:
        typer.echo(json.dumps(data))
    else:
        print_analysis(console, data, _names(record))
