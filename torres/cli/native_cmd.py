"""``torres native``: compiles the engine's and the search's hottest modules with mypyc (torres/native.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .. import native
from .app import app


@app.command(name="native")
def native_command(
    folder: Annotated[Optional[Path], typer.Argument(
        help="Where to build (made anew); by default where this process looks: the folder TORRES_NATIVE names, "
             "else a checkout's .native or, installed, a folder of the user's cache.")] = None,
    if_needed: Annotated[bool, typer.Option("--if-needed", help="Only if the folder holds no current build.")]
    = False,
) -> None:
    """Compile the bots' search and the engine's hot paths to C: the same games, faster (needs a C compiler and
    Python's headers; mypy is installed for the build alone where it is missing). Every torres process then uses
    the build while its sources are these; TORRES_NATIVE=off runs the pure Python."""
    code = native.compile_into(folder if folder is not None else native.target(), if_needed)
    if code:
        raise typer.Exit(code)
