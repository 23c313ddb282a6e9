"""What one server process runs on, handed to each part of the app (accounts, lobby, ratings, clocks): the store,
the live rooms, the bots, the bus between processes, and the hooks and background loops the parts add."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Awaitable, Callable

from .bots import BotDriver, BotPool
from .bus import LocalBus
from .rooms import Room, Rooms
from .store import Store

log = logging.getLogger("torres.server")


@dataclass(eq=False)
class Loop:
    """A background job run every ``seconds`` while the server runs; a failure is logged and the loop goes on."""

    name: str
    seconds: float
    run: Callable[[], Awaitable[None]]

    async def forever(self) -> None:
        while True:
            await asyncio.sleep(self.seconds)
            try:
                await self.run()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s failed", self.name)


@dataclass(eq=False)
class Services:
    store: Store
    rooms: Rooms
    pool: BotPool
    driver: BotDriver
    bus: LocalBus
    #: Called after every change of a live game: (room, made in this process).
    after_change: list[Callable[[Room, bool], None]] = field(default_factory=list)
    #: Run once at start-up, after the schema is migrated and the bus is listening.
    at_start: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    loops: list[Loop] = field(default_factory=list)

    def every(self, seconds: float, name: str, run: Callable[[], Awaitable[None]]) -> None:
        self.loops.append(Loop(name, seconds, run))
