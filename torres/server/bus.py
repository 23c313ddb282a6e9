"""Between server processes: "game G is now at version V" over Redis pub/sub, "the lobby changed" (its own
channel, read by torres/server/lobby.py), and a lock so that exactly one process plays a bot's turn.

Only game ids and version numbers travel over Redis — never a view, a card or a seed: each process reads the
committed events from the database and filters per seat itself. With one process (no ``--redis``) the
:class:`LocalBus` stands in: nothing to tell anyone, and every lock is granted.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any, Awaitable, Callable

log = logging.getLogger("torres.server.bus")

#: The pub/sub channel of version announcements: the sending process's id, then a line "<game id> <version>" (or
#: "<game id> seats") per change.
CHANNEL = "torres:versions"
#: The pub/sub channel of lobby announcements: "<sending process> <JSON of ids>" (seek, game and account ids only).
LOBBY_CHANNEL = "torres:lobby"
#: A bot lock expires after this many milliseconds if its holder dies (longer than any bot turn may take).
BOT_LOCK_MS = 30_000

#: Redis connections a process uses at most (besides its subscription).
REDIS_CONNECTIONS = 32

#: Called with (game id, version) for a new version, or (game id, None) when the game's seats or settings changed
#: (a seat claimed, the bot speed): changes that are not actions and have no version of their own.
OnVersion = Callable[[str, int | None], Awaitable[None]]
#: The announcement of a change to a game's seats or settings.
SEATS = "seats"
#: Called with a lobby announcement another process made.
OnLobby = Callable[[str], Awaitable[None]]


class LocalBus:
    """One process: no announcements, every lock granted."""

    #: Set by the lobby before the bus starts: hears the lobby announcements of the other processes.
    on_lobby: OnLobby | None = None

    async def start(self, on_version: OnVersion) -> None:
        return None

    def announce(self, game_id: str, version: int) -> None:
        return None

    def announce_seats(self, game_id: str) -> None:
        return None

    def announce_lobby(self, message: str) -> None:
        return None

    async def lock_bot(self, game_id: str) -> bool:
        return True

    async def unlock_bot(self, game_id: str) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisBus(LocalBus):
    """Several processes sharing games through one database and one Redis."""

    # Release the lock only if this process still holds it (it may have expired and been taken over).
    _UNLOCK = ("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) "
               "else return 0 end")

    def __init__(self, url: str) -> None:
        from redis import asyncio as aioredis

        self.url = url
        # A bounded pool that makes a caller wait for a free connection instead of failing (bot locks of many
        # games at once); the subscription holds one connection of its own.
        pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=REDIS_CONNECTIONS, timeout=10)
        self.redis: Any = aioredis.Redis(connection_pool=pool)
        # The one sender publishes on a connection of its own: taking a pooled connection for every publish cost a
        # quarter of the publish (0.095 against 0.070 ms of CPU, /proc-measured with redis-py's asyncio client).
        self._publisher: Any = aioredis.Redis.from_url(url, single_connection_client=True)
        self.owner = secrets.token_hex(8)  # this process, in lock values
        self._listener: asyncio.Task[None] | None = None
        self._sender: asyncio.Task[None] | None = None
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()  # (channel, message)

    async def start(self, on_version: OnVersion) -> None:
        await self.redis.ping()
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(CHANNEL, LOBBY_CHANNEL)
        self._listener = asyncio.create_task(self._listen(pubsub, on_version), name="redis-listener")
        self._sender = asyncio.create_task(self._send(), name="redis-sender")

    async def _listen(self, pubsub: Any, on_version: OnVersion) -> None:
        while True:
            try:
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    if message.get("channel") in (LOBBY_CHANNEL, LOBBY_CHANNEL.encode()):
                        await self._heard_lobby(message["data"].decode())
                        continue
                    sender, *lines = message["data"].decode().split("\n")
                    if sender == self.owner:  # pub/sub echoes this process's own announcements: it made them
                        continue
                    for line in lines:
                        game_id, _, version = line.partition(" ")
                        try:
                            await on_version(game_id, None if version == SEATS else int(version))
                        except Exception:
                            log.exception("catching up with game %s failed", game_id)
            except asyncio.CancelledError:
                await pubsub.aclose()
                raise
            except Exception:
                log.exception("lost the Redis subscription; subscribing again")
                await asyncio.sleep(1.0)
                try:
                    pubsub = self.redis.pubsub()
                    await pubsub.subscribe(CHANNEL, LOBBY_CHANNEL)
                except Exception:
                    log.exception("Redis is unreachable")

    def announce(self, game_id: str, version: int) -> None:
        """Queue the announcement; one sender publishes them in order, many at a time (one connection, not one
        per change: a burst of changes once exhausted the connection pool)."""
        self._outbox.put_nowait((CHANNEL, f"{game_id} {version}"))

    def announce_seats(self, game_id: str) -> None:
        """Queue the announcement that the game's seats or settings changed (they carry no version)."""
        self._outbox.put_nowait((CHANNEL, f"{game_id} {SEATS}"))

    def announce_lobby(self, message: str) -> None:
        """Queue a lobby announcement for the other processes (this one has acted on it already)."""
        self._outbox.put_nowait((LOBBY_CHANNEL, f"{self.owner} {message}"))

    async def _heard_lobby(self, data: str) -> None:
        sender, _, message = data.partition(" ")
        if sender == self.owner or self.on_lobby is None:  # pub/sub echoes a process's own announcements
            return
        try:
            await self.on_lobby(message)
        except Exception:
            log.exception("a lobby announcement failed")

    async def _send(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 1000:
                batch.append(self._outbox.get_nowait())
            # The version announcements waiting are sent as one message (the sender's id, then a line per change):
            # each message costs every process a receive, whatever it holds (docs/deploy.md, "Capacity").
            versions = [message for channel, message in batch if channel == CHANNEL]
            outgoing = [(channel, message) for channel, message in batch if channel != CHANNEL]
            if versions:
                outgoing.append((CHANNEL, "\n".join([self.owner, *versions])))
            try:
                if len(outgoing) == 1:
                    await self._publisher.publish(*outgoing[0])
                else:
                    async with self._publisher.pipeline(transaction=False) as pipe:
                        for channel, message in outgoing:
                            pipe.publish(channel, message)
                        await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception:
                # The changes are committed; other processes notice them at their next action (a version
                # conflict) or reconnect. A broken Redis must not fail a player's move.
                log.exception("could not announce %d changes", len(batch))
                await asyncio.sleep(0.5)

    async def lock_bot(self, game_id: str) -> bool:
        return bool(await self.redis.set(f"torres:bot:{game_id}", self.owner, nx=True, px=BOT_LOCK_MS))

    async def unlock_bot(self, game_id: str) -> None:
        await self.redis.eval(self._UNLOCK, 1, f"torres:bot:{game_id}", self.owner)

    async def close(self) -> None:
        for task in (self._sender, self._listener):
            if task is not None:
                task.cancel()
                try:
                    await task
                except (asyncio.CancelledError, Exception):
                    pass
        await self._publisher.aclose()
        await self.redis.aclose()


def make_bus(url: str | None) -> LocalBus:
    return RedisBus(url) if url else LocalBus()
