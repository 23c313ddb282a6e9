"""``torres serve``: the game server for browsers (torres/server)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .app import app


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database: Annotated[str, typer.Option(
        help="Database URL: sqlite:///FILE, or postgresql://USER:PASSWORD@HOST/DB.")] = "sqlite:///torres.db",
    redis: Annotated[Optional[str], typer.Option(
        help="Redis URL (redis://HOST:PORT/0): several server processes then serve the same games.")] = None,
    bot_workers: Annotated[int, typer.Option(min=1, max=64, help="Worker processes that run the bots.")] = 1,
) -> None:
    """Play in the browser: host games against bots and friends (open the address it prints)."""
    from ..server.run import run

    run(host=host, port=port, database=database, redis=redis, bot_workers=bot_workers)
