"""Start the server (``torres serve``)."""

from __future__ import annotations

import gc
import logging
import socket
import sys
from typing import Callable

import uvicorn

from .. import native
from .app import create_app
from .protocol import CLIENT_LIMITS

#: ``--log-level`` choices, quietest last but one: ``warning`` (the default) shows torres's own warnings and errors
#: and nothing of the libraries' start-up chatter (alembic's migration lines, uvicorn's banner and access log).
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
#: The line ``torres serve`` prints once its socket accepts connections (the tests wait for it).
READY = "torres: ready"


def run(host: str = "127.0.0.1", port: int = 8000, database: str = "sqlite:///torres.db",
        redis: str | None = None, bot_workers: int = 1, log_level: str = "warning") -> None:
    if log_level not in LOG_LEVELS:
        raise ValueError(f"log level {log_level!r}: one of {', '.join(LOG_LEVELS)}")
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app(database, bot_workers=bot_workers, redis=redis)
    freeze_gc_survivors()

    def ready(bound: int) -> None:
        shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        shown = f"[{shown}]" if ":" in shown else shown
        print(f"{READY}, open http://{shown}:{bound}/ in your browser (games in {_safe(database)}; {_bots()}); "
              "Ctrl-C stops the server", flush=True)

    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, ws_max_size=CLIENT_LIMITS.max_bytes * 4,
                            ws_ping_interval=20, ws_ping_timeout=20)
    server = _Server(config, ready)
    try:
        server.run()
    except KeyboardInterrupt:  # uvicorn raises the Ctrl-C again once it has shut down cleanly
        pass
    if not server.started:
        sys.exit(1)  # the app failed to start (uvicorn has logged why) or the port is taken


def _bots() -> str:
    # (the bot workers import the same build: they start with this process's environment, from the same checkout)
    return "the bots compiled with mypyc" if native.in_use() else "the bots in pure Python"


class _Server(uvicorn.Server):
    """uvicorn's server that calls ``on_ready`` with the bound port once the app has started (its lifespan: the
    schema migrated, Redis subscribed) and the socket listens, so a person or a script can connect at once."""

    def __init__(self, config: uvicorn.Config, on_ready: Callable[[int], None]) -> None:
        super().__init__(config)
        self.on_ready = on_ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and not self.should_exit:
            listening = [s for server in self.servers for s in (server.sockets or ())]
            self.on_ready(int(listening[0].getsockname()[1]) if listening else self.config.port)


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
