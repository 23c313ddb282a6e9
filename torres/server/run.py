"""Start the server (``torres serve``)."""

from __future__ import annotations

import gc
import logging

import uvicorn

from .app import create_app
from .protocol import CLIENT_LIMITS


def run(host: str = "127.0.0.1", port: int = 8000, database: str = "sqlite:///torres.db",
        redis: str | None = None, bot_workers: int = 1) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app(database, bot_workers=bot_workers, redis=redis)
    freeze_gc_survivors()
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"torres: open http://{shown}:{port}/ in your browser (games in {_safe(database)}); Ctrl-C stops the server",
          flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=CLIENT_LIMITS.max_bytes * 4,
                ws_ping_interval=20, ws_ping_timeout=20)


def freeze_gc_survivors() -> None:
    """Full garbage collections walked every open game's state and undo information, stopping the event loop
    for 240–320 ms with 500 games (docs/server.md, "Load"). What survives a full collection is frozen, so the next
    one looks only at what is new; finished games are freed by reference counting all the same."""

    def freeze(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 2:
            gc.freeze()

    gc.freeze()
    gc.callbacks.append(freeze)


def _safe(url: str) -> str:
    """A database URL without its password, for printing."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
