"""The typer application every command module registers on."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="torres",
    help="Torres — build castles, place knights, please the king.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
