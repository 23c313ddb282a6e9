"""``torres selfplay``, ``torres replay`` and ``torres legal``: game records on the command line.

Every rule question goes to the engine; these commands only read, write and print.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, Any, NoReturn, Optional

import typer
from rich.console import Console
from rich.table import Table

from ..ai import Bot, make_bot
from ..engine import Action, GameState
from ..records import MAX_SEED, RecordError, ReplayError, dump_record, read_record, record_of, replay, write_record
from .app import app
from .options import CardModeAlias, CardsOption, EditionOption, MasterOption, rules_from_options

#: Safety net against a bot that never ends the game (random games take a few hundred actions).
MAX_ACTIONS = 100_000


def _err(message: str, code: int = 1) -> NoReturn:
    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[bold red]error:[/] {message}", markup=True)
    raise typer.Exit(code)


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of a selfplay game with ``seed`` (stored in the record's meta)."""
    return seed * 1009 + 101 * (seat + 1)


def play_bots(state: GameState, bots: list[Bot], stop_after: int | None = None) -> GameState:
    """Let ``bots`` (one per seat) play ``state`` to the end (or until it holds ``stop_after`` actions).

    Every action goes through the engine's legality check, so a misbehaving bot fails loudly."""
    limit = MAX_ACTIONS if stop_after is None else stop_after
    while not state.is_over() and len(state.history) < limit:
        seat = state.current
        state.push(bots[seat].choose(state.view(seat)))
    if not state.is_over() and stop_after is None:
        raise RuntimeError(f"the game did not end within {MAX_ACTIONS} actions")
    return state


@app.command()
def selfplay(
    players: Annotated[int, typer.Option("--players", "-n", min=2, max=4, help="Number of seats (2-4).")] = 2,
    seed: Annotated[int, typer.Option("--seed", "-s", min=-MAX_SEED, max=MAX_SEED - 1,
                                      help="Game seed (deals and draws), of 64 bits.")] = 0,
    edition: EditionOption = None,
    master: MasterOption = None,
    cards: CardsOption = None,
    card_mode: CardModeAlias = None,
    bots: Annotated[str, typer.Option("--bots", help="Comma-separated bot per seat (one name: all seats).")]
    = "random",
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Write the record here (default: stdout).")]
    = None,
    stop_after: Annotated[Optional[int], typer.Option("--stop-after", min=0, help="Stop after this many "
                                                      "actions (an unfinished record).")] = None,
) -> None:
    """Play a game between bots and write its record (JSON)."""
    try:
        rules = rules_from_options(edition, master, cards, card_mode)
    except ValueError as exc:
        _err(str(exc), 2)
    specs = [b.strip() for b in bots.split(",")]
    if len(specs) == 1:
        specs *= players
    if len(specs) != players:
        _err(f"--bots names {len(specs)} bots for {players} players", 2)
    try:
        seats = [make_bot(spec, bot_seed(seed, seat)) for seat, spec in enumerate(specs)]
    except ValueError as exc:
        _err(str(exc), 2)
    state = play_bots(GameState(players, seed, rules), seats, stop_after)
    meta = {
        "bots": specs,
        "bot_seeds": [bot_seed(seed, seat) for seat in range(players)],
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "generator": "torres selfplay",
    }
    record = record_of(state, meta)
    if out is None:
        sys.stdout.write(dump_record(record))
    else:
        try:
            write_record(out, record)
        except OSError as exc:
            _err(f"cannot write {out}: {exc.strerror or exc}")
    summary = Console(stderr=True, highlight=False, soft_wrap=True)
    scores = ", ".join(f"seat {s} ({specs[s]}) {state.scores[s]}" for s in range(players))
    summary.print(f"{rules.to_text()}, {players} players, seed {seed}: {len(state.history)} actions")
    summary.print(f"scores: {scores}")
    if state.is_over():
        summary.print("winner: " + ", ".join(f"seat {s}" for s in state.winners()))
    else:
        summary.print("unfinished: no winner yet")
    if out is not None:
        summary.print(f"record written to {out}")


def _load(path: Path, upto: int | None = None) -> tuple[dict[str, Any], GameState]:
    try:
        record = read_record(path)
    except OSError as exc:
        _err(f"cannot read {path}: {exc.strerror or exc}")
    except ReplayError as exc:
        _err(f"{path}: action {exc.index} ({exc.action}) is malformed: {exc.reason}")
    except RecordError as exc:
        _err(f"{path}: {exc}")
    try:
        return record, replay(record, upto)
    except ReplayError as exc:
        _err(f"{path}: action {exc.index} ({exc.action!r}) is illegal: {exc.reason}")
    except RecordError as exc:
        _err(f"{path}: {exc}")


def summary_of(state: GameState) -> dict[str, Any]:
    """The machine-readable summary of a game state (``replay --json``). Phase and round count from 1."""
    return {
        "scores": list(state.scores),
        "winners": state.winners() if state.is_over() else [],
        "phase": state.phase + 1,
        "round": state.round + 1,
        "current": state.current,
        "stage": state.stage.name.lower(),
        "finished": state.is_over(),
        "position": state.position(),
        "rules": state.rules.to_text(),
        "actions": len(state.history),
    }


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print a machine-readable summary.")] = False,
) -> None:
    """Validate a game record by replaying every action; print the final position and scores."""
    record, state = _load(file)
    summary = summary_of(state)
    if as_json:
        print(json.dumps(summary))
        return
    console = Console(highlight=False, soft_wrap=True)
    console.print(f"[bold]{file}[/]: {summary['rules']}, {state.n} players, seed {record['seed']}, "
                  f"{summary['actions']} actions — replay OK")
    console.print(f"position: {summary['position']}")
    if state.is_over():
        console.print(f"game over after phase {summary['phase']}")
    else:
        console.print(f"phase {summary['phase']}, round {summary['round']}, stage {summary['stage']}, "
                      f"seat {state.current} to act")
    table = Table(title="Scores")
    table.add_column("seat", justify="right")
    table.add_column("player")
    table.add_column("score", justify="right")
    table.add_column("")
    names = record.get("meta", {}).get("bots")
    for seat in range(state.n):
        name = str(names[seat]) if isinstance(names, list) and len(names) == state.n else "-"
        mark = "winner" if seat in summary["winners"] else ("to act" if not state.is_over()
                                                           and seat == state.current else "")
        table.add_row(str(seat), name, str(state.scores[seat]), mark)
    console.print(table)


def legal_of(state: GameState) -> dict[str, Any]:
    """The legal actions of ``state`` for ``legal --json``."""
    actions = state.legal_actions if not state.is_over() else []
    return {
        "position": state.position(),
        "stage": state.stage.name.lower(),
        "current": state.current,
        "finished": state.is_over(),
        "count": len(actions),
        "actions": [{"id": a.id, "text": str(a), "kind": a.kind.name.lower()} for a in actions],
    }


@app.command()
def legal(
    file: Annotated[Optional[Path], typer.Argument(help="A game record: the actions legal at its end.")] = None,
    position: Annotated[Optional[str], typer.Option("--position", "-p", help="A position string instead.")]
    = None,
    at: Annotated[Optional[int], typer.Option("--at", min=0, help="With FILE: after its first AT actions.")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """List the legal actions at the end of a record (or after --at actions) or in a position string."""
    if (file is None) == (position is None):
        _err("give a record FILE or --position, not both or neither", 2)
    if position is not None:
        if at is not None:
            _err("--at applies to a record FILE", 2)
        try:
            state = GameState.from_position(position)
        except (ValueError, LookupError) as exc:  # LookupError: the loader misses some malformed fields
            _err(f"bad position: {exc}")
    else:
        assert file is not None
        _, state = _load(file, at)
    info = legal_of(state)
    if as_json:
        print(json.dumps(info))
        return
    console = Console(highlight=False, soft_wrap=True)
    if state.is_over():
        console.print("the game is over: no legal actions")
        return
    console.print(f"seat {state.current} to act ({info['stage']}, phase {state.phase + 1}, round "
                  f"{state.round + 1}, {state.ap} AP): {info['count']} legal actions")
    groups: dict[str, list[Action]] = {}
    for action in state.legal_actions:
        groups.setdefault(action.kind.name.lower(), []).append(action)
    table = Table(show_header=True)
    table.add_column("kind")
    table.add_column("n", justify="right")
    table.add_column("actions")
    for kind, actions in groups.items():
        table.add_row(kind, str(len(actions)), ", ".join(str(a) for a in actions))
    console.print(table)
