"""``torres serve``: the game server for browsers (torres/server)."""

from __future__ import annotations

from typing import Annotated

import typer

from .app import app


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database: Annotated[str, typer.Option(help="SQLAlchemy database URL.")] = "sqlite:///torres.db",
) -> None:
    """Play in the browser: host games against bots and friends (open the address it prints)."""
    from ..server.run import run

    run(host=host, port=port, database=database)
