"""``torres serve``: the game server for browsers (torres/server)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .app import app

#: (torres.server.run.LOG_LEVELS, without importing the server for every command)
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")


def _log_level(value: str) -> str:
    if value.lower() not in LOG_LEVELS:
        raise typer.BadParameter(f"one of {', '.join(LOG_LEVELS)}")
    return value.lower()


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on (0: any free port).")] = 8000,
    database: Annotated[str, typer.Option(
        help="Database URL: sqlite:///FILE, or postgresql://USER:PASSWORD@HOST/DB.")] = "sqlite:///torres.db",
    redis: Annotated[Optional[str], typer.Option(
        help="Redis URL (redis://HOST:PORT/0): several server processes then serve the same games.")] = None,
    bot_workers: Annotated[int, typer.Option(min=1, max=64, help="Worker processes that run the bots.")] = 1,
    log_level: Annotated[str, typer.Option(
        callback=_log_level, metavar="LEVEL",
        help="What is logged: debug, info (also the libraries' start-up lines and each request), warning "
             "(torres's warnings and errors), error or critical.")] = "warning",
) -> None:
    """Play in the browser: host games against bots and friends (open the address it prints once it is ready)."""
    try:
        from ..server.run import run
    except ModuleNotFoundError as exc:
        if (exc.name or "").startswith("torres"):
            raise
        # the core install is the engine, bots and offline commands; the web stack is the "server" extra
        typer.echo(f'torres serve needs the web server (missing: {exc.name}): pip install "torres[server]"',
                   err=True)
        raise typer.Exit(1) from None
    run(host=host, port=port, database=database, redis=redis, bot_workers=bot_workers, log_level=log_level)
