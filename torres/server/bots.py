"""Bots on the server: their thinking runs in worker processes, never in the event loop, and their actions go
through the same path as a person's (check, engine, commit, broadcast), paced so people can follow them.

Each worker process keeps the bot objects of the games hashed to it, so a bot that planned its whole turn hands
the plan out action by action instead of planning again. A bot that raises or runs too long is replaced for that
action by a simpler one in the server process, and the failure is logged; the game goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import logging
import multiprocessing
import signal
import sys
import zlib
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, AsyncIterator, Callable

from ..ai.base import Bot, make_bot
from ..ai.collector import settle, tune_for_search
from ..ai.greedy import GreedyBot
from ..engine.view import SeatView
from .bus import LocalBus

if TYPE_CHECKING:
    from .rooms import Room, Rooms

log = logging.getLogger("torres.server.bots")

#: Seconds between two bot actions a person watches, by the game's bot speed.
SPEEDS: dict[str, float] = {"slow": 1.5, "normal": 0.8, "fast": 0.3, "instant": 0.0}
#: A planning bot's turn is capped at this many seconds of thinking (the terminal's live cap too).
LIVE_TURN_SECONDS = 0.8
#: A bot that has not answered after this long is given up for this action.
BOT_TIMEOUT = 10.0
#: The simpler bot that plays an action when a bot fails.
FALLBACK_LEVEL = "random"
#: How long a process waits before asking again for a bot lock another process holds.
LOCK_RETRY_SECONDS = 0.5
#: Bots a worker keeps between actions (least recently used dropped first).
WORKER_CACHE = 512
#: Work a person asks for (hints, the analysis board's bots) waiting for a worker beyond those running, per worker;
#: more is refused as :class:`Busy` (docs/server.md).
ON_DEMAND_WAITING = 4

_worker_bots: OrderedDict[tuple[str, int, str, int], Bot] = OrderedDict()

#: Linux's prctl option that sends the process a signal when its parent dies.
_PR_SET_PDEATHSIG = 1


def start_worker(search: bool = True) -> None:
    """The first thing a server's worker process runs (bots, hints, uploads). It leaves Ctrl-C to the server,
    which stops it in order (no traceback from each worker), and it ends with the server even when the server is
    killed outright (on Linux), instead of lingering as an orphan."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        except (OSError, AttributeError):  # no prctl in this C library: the worker may outlive a killed server
            pass
    if search:
        tune_for_search()


def _worker_bot(game_id: str, seat: int, level: str, seed: int) -> Bot:
    key = (game_id, seat, level, seed)
    bot = _worker_bots.get(key)
    if bot is None:
        bot = make_bot(level, seed)
        if isinstance(bot, GreedyBot) and not bot.seconds:
            bot.seconds = LIVE_TURN_SECONDS
        _worker_bots[key] = bot
        if len(_worker_bots) > WORKER_CACHE:
            _worker_bots.popitem(last=False)
    else:
        _worker_bots.move_to_end(key)
    return bot


def choose_in_worker(game_id: str, seat: int, level: str, seed: int, view: SeatView) -> int:
    """Runs in a worker process: the bot of this seat chooses from its seat's view only."""
    action = _worker_bot(game_id, seat, level, seed).choose(view)
    settle()
    return action


def hint_in_worker(view: SeatView, seed: int) -> tuple[list[str], str]:
    from ..ai.hint import hint

    suggestion = hint(view, budget=1.0, seed=seed)
    settle()
    actions = list(suggestion.actions)
    # In words for a person; after a buy the draw decides the rest of the plan.
    steps = ["then keep the best card drawn" if a == "keep ?" else a for a in actions]
    text = "Suggested: " + ", ".join(steps) if steps else "Nothing to suggest"
    return actions, text


def fallback_action(seed: int, view: SeatView) -> int:
    """The :data:`FALLBACK_LEVEL` bot's action for a failed bot, seeded by the game's bot seed and the position:
    one seed for every action would repeat one draw, and the draw that picks the last legal action (often the
    turn's end) would then end every turn at once."""
    return make_bot(FALLBACK_LEVEL, seed + len(view.history)).choose(view)


class Busy(Exception):
    """The workers are taken by work people asked for: asked again in a moment, it can be done."""


class BotPool:
    """Worker processes for bots and hints; a game always goes to the same worker.

    ``worker`` is the function a worker process runs to choose (a top-level function, so it can be pickled by
    name; :func:`choose_in_worker` unless a test puts a failing one in its place), ``hint_worker`` the one that
    finds a hint (:func:`hint_in_worker`), and ``timeout`` the seconds a bot may take before a simpler bot plays
    its action instead.

    The games' bots go straight to their worker. Work a person asks for (a hint, a bot of the analysis board) runs
    as many calls at a time as there are workers (one, by default: a game's bot waits for that one at most), and
    at most :data:`ON_DEMAND_WAITING` per worker wait for their turn beyond those; more is refused
    (:class:`Busy`). A hint is a second of the master's search, and anybody may ask for one: without the bound, a
    page that asked for many at once queued that many seconds ahead of every game's bots, which then ran out of
    their time and played at random."""

    def __init__(self, workers: int = 1, worker: Callable[[str, int, str, int, SeatView], int] = choose_in_worker,
                 timeout: float = BOT_TIMEOUT) -> None:
        self.workers = max(1, workers)
        self.worker = worker
        self.hint_worker: Callable[[SeatView, int], tuple[list[str], str]] = hint_in_worker
        self.timeout = timeout
        self._context = multiprocessing.get_context("spawn")
        self._executors: list[ProcessPoolExecutor | None] = [None] * self.workers
        self._on_demand: asyncio.Semaphore | None = None  # made in the event loop that uses it
        self._on_demand_waiting = 0

    def _slot(self, game_id: str) -> int:
        return zlib.crc32(game_id.encode()) % self.workers

    def _executor(self, game_id: str) -> ProcessPoolExecutor:
        slot = self._slot(game_id)
        executor = self._executors[slot]
        if executor is None:
            executor = ProcessPoolExecutor(max_workers=1, mp_context=self._context, initializer=start_worker)
            self._executors[slot] = executor
        return executor

    def _restart(self, game_id: str, executor: ProcessPoolExecutor) -> None:
        """A worker stuck on a runaway bot (or dead) is replaced; its other games re-plan on the fresh worker.
        Only ``executor`` is replaced: a game whose call failed because another game's restart ended it must not
        end the fresh worker too."""
        slot = self._slot(game_id)
        if self._executors[slot] is not executor:
            return
        self._executors[slot] = None
        for process in list((getattr(executor, "_processes", None) or {}).values()):
            process.terminate()
        executor.shutdown(wait=False, cancel_futures=True)

    @contextlib.asynccontextmanager
    async def _asked_for(self) -> AsyncIterator[None]:
        """A turn for work a person asked for (see the class), or :class:`Busy`."""
        if self._on_demand is None:
            self._on_demand = asyncio.Semaphore(self.workers)
        if self._on_demand.locked() and self._on_demand_waiting >= ON_DEMAND_WAITING * self.workers:
            raise Busy("the server's bots are busy: ask again in a moment")
        self._on_demand_waiting += 1
        try:
            await self._on_demand.acquire()
        finally:
            self._on_demand_waiting -= 1
        try:
            yield
        finally:
            self._on_demand.release()

    async def choose(self, game_id: str, seat: int, level: str, seed: int, view: SeatView,
                     asked_for: bool = False) -> int:
        """The bot's action, or a :data:`FALLBACK_LEVEL` bot's when the bot raises, answers with an illegal
        action or takes over ``timeout`` seconds (then its worker is replaced); the failure is logged.
        ``asked_for``: a person asked for it (the analysis board), not a game's turn: it waits for its turn or is
        refused (:class:`Busy`), as a hint is."""
        if asked_for:
            async with self._asked_for():
                return await self.choose(game_id, seat, level, seed, view)
        loop = asyncio.get_running_loop()
        executor = self._executor(game_id)
        try:
            future = loop.run_in_executor(executor, self.worker, game_id, seat, level, seed, view)
            action = await asyncio.wait_for(future, self.timeout)
            if action in view.legal:
                return action
            log.error("bot %s of game %s seat %d chose an illegal action %r; a %s bot plays instead", level,
                      game_id, seat, action, FALLBACK_LEVEL)
        except asyncio.TimeoutError:
            log.error("bot %s of game %s seat %d took over %g s; a %s bot plays instead", level, game_id, seat,
                      self.timeout, FALLBACK_LEVEL)
            self._restart(game_id, executor)
        except asyncio.CancelledError:
            if _cancelling():
                raise
            # Not this task: the call was cancelled when its worker was replaced for another game's runaway bot.
            log.warning("bot %s of game %s seat %d lost its worker; a %s bot plays instead", level, game_id, seat,
                        FALLBACK_LEVEL)
        except BrokenProcessPool:
            log.exception("the bot worker of game %s died; a %s bot plays instead", game_id, FALLBACK_LEVEL)
            self._restart(game_id, executor)
        except Exception:  # the bot's own error: its worker is fine and is kept
            log.exception("bot %s of game %s seat %d failed; a %s bot plays instead", level, game_id, seat,
                          FALLBACK_LEVEL)
        return fallback_action(seed, view)

    async def hint(self, game_id: str, view: SeatView, seed: int) -> tuple[list[str], str]:
        """The master's suggestion for the seat of ``view``; :class:`Busy` when too many wait already."""
        async with self._asked_for():
            loop = asyncio.get_running_loop()
            executor = self._executor(game_id)
            future = loop.run_in_executor(executor, self.hint_worker, view, seed)
            try:
                return await asyncio.wait_for(future, self.timeout)
            except asyncio.TimeoutError:
                # the search runs on in its worker, ahead of every game's bots there: the worker is replaced
                log.error("a hint for game %s took over %g s; its worker is replaced", game_id, self.timeout)
                self._restart(game_id, executor)
                raise
            except asyncio.CancelledError:
                if _cancelling():
                    raise
                raise RuntimeError("the hint's worker was replaced") from None

    def close(self) -> None:
        for executor in self._executors:
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
        self._executors = [None] * self.workers


def _cancelling() -> bool:
    """Whether the running task itself is being cancelled (not only a future it awaited)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


class BotDriver:
    """Plays the bot seats of every game whose turn is a bot's, one task per game."""

    def __init__(self, rooms: "Rooms", pool: BotPool, bus: LocalBus | None = None) -> None:
        self.rooms = rooms
        self.pool = pool
        self.bus = bus or LocalBus()
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def wake(self, room: "Room") -> None:
        """Start the game's bot task if a bot is to act and none runs yet."""
        if room.bot_to_act() is None:
            return
        task = self._tasks.get(room.id)
        if task is None or task.done():
            task = asyncio.create_task(self._play(room), name=f"bots-{room.id}")
            self._tasks[room.id] = task
            room.holders += 1  # the task keeps this copy of the game in memory while it plays
            task.add_done_callback(functools.partial(self._forget, room))

    def _forget(self, room: "Room", task: "asyncio.Task[None]") -> None:
        """A finished task lets go of its room and leaves the table (a server plays through many games)."""
        room.holders -= 1
        if self._tasks.get(room.id) is task:
            del self._tasks[room.id]

    async def _play(self, room: "Room") -> None:
        from .rooms import Rejected

        loop = asyncio.get_running_loop()
        last = loop.time()
        while True:
            seat = room.bot_to_act()
            if seat is None:
                return
            # Exactly one process plays a bot's action; the others see it arrive through the bus.
            if not await self.bus.lock_bot(room.id):
                await asyncio.sleep(LOCK_RETRY_SECONDS)
                continue
            try:
                version = room.version
                info = room.seats[seat]
                action = await self.pool.choose(room.id, seat, info.level or FALLBACK_LEVEL, info.bot_seed,
                                                room.state.view(seat))
                delay = SPEEDS.get(room.bot_speed, SPEEDS["normal"]) - (loop.time() - last)
                if delay > 0:
                    await asyncio.sleep(delay)
                if room.version != version:  # someone undid or another process acted meanwhile: think again
                    continue
                try:
                    await room.act(self.rooms.store, seat, None, version, str(_action(action)), by_bot=True)
                except Rejected as exc:
                    if exc.code != "stale":
                        log.error("bot action refused in game %s: %s", room.id, exc.message)
                        return
                last = loop.time()
            finally:
                await self.bus.unlock_bot(room.id)

    async def close(self) -> None:
        tasks = list(self._tasks.values())  # (a finished task leaves the table, see _forget)
        for task in tasks:
            task.cancel()
        for task in tasks:
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        self._tasks.clear()


def _action(action_id: int) -> str:
    from ..engine.actions import format_action

    return format_action(action_id)
