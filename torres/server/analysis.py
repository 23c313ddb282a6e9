"""Analyses of finished games on the server (docs/analysis.md): started by a page, judged turn by turn in worker
processes (never in the event loop), stored once per game and level, and taken up again after a restart.

A job writes the turns judged so far with every turn, so a job whose process died goes on from its last turn: a
process takes over a running job nobody has touched for :data:`STALE_SECONDS` (each process touches its own jobs
every :data:`HEARTBEAT_SECONDS`). Only a finished game is analysed: the analysis of a game in progress would tell
a seat what its bot saw of the cards still hidden from it.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from datetime import timedelta
from typing import Any, Callable, TypeVar

from fastapi import FastAPI, HTTPException, Query, Response
from sqlalchemy import or_, select, update
from sqlalchemy.exc import IntegrityError

from ..ai.analysis import judge_record_turn, record_analysis, record_turns
from ..ai.collector import settle
from ..engine.state import GameState
from ..records import record_of
from .bots import start_worker
from .inputs import GameId, answers
from .protocol import LEVELS
from .services import Loop, Services
from .store import AnalysisRow, Store, now

log = logging.getLogger("torres.server.analysis")

#: The level a page's "Analyse" asks for, and the judging bot's seed (the same as ``torres analyse``'s default, so
#: the command line gives the same judgement of a downloaded record).
DEFAULT_LEVEL = "master"
SEED = 0
#: How often a process marks its jobs as alive and looks for jobs whose process died.
HEARTBEAT_SECONDS = 5.0
#: A running job untouched for this long has lost its process and is taken over.
STALE_SECONDS = 20.0
#: Why an unfinished game is not analysed (the 403's reason).
UNFINISHED = "only a finished game can be analysed: the analysis of a game in progress would reveal cards that are "\
             "still hidden"

T = TypeVar("T")


def judge_in_worker(record: dict[str, Any], index: int, level: str, seed: int) -> dict[str, Any]:
    judged = judge_record_turn(record, index, level, seed).to_json()
    settle()  # (a game's analysis is dozens of searches in one long-lived worker)
    return judged


class Analyses:
    """The analysis jobs of one server process."""

    def __init__(self, services: Services) -> None:
        self.store: Store = services.store
        self.rooms = services.rooms
        self.workers = services.pool.workers
        self.slots = asyncio.Semaphore(self.workers)  # jobs judged at once (more wait, marked alive all the same)
        self._executor: ProcessPoolExecutor | None = None
        self._jobs: dict[tuple[str, str], asyncio.Task[None]] = {}

    # --- the database -----------------------------------------------------------------------------------------
    def read(self, game_id: str, level: str) -> dict[str, Any]:
        with self.store.sessions() as session:
            row = session.get(AnalysisRow, (game_id, level))
            if row is None:
                return {"game": game_id, "level": level, "status": "none", "done": 0, "total": 0, "analysis": None,
                        "error": None}
            done = row.status == "done"
            return {"game": game_id, "level": level, "status": row.status, "done": row.done, "total": row.total,
                    "analysis": row.result if done else None, "error": row.error}

    def claim(self, game_id: str, level: str) -> bool:
        """Whether this process now runs the job: a new one, a failed one asked again, or one whose process died."""
        stamp = now()
        try:
            with self.store.sessions.begin() as session:
                session.add(AnalysisRow(game_id=game_id, level=level, status="running", done=0, total=0,
                                        result=None, error=None, created=stamp, updated=stamp))
            return True
        except IntegrityError:
            pass
        stale = stamp - timedelta(seconds=STALE_SECONDS)
        with self.store.sessions.begin() as session:
            taken = session.execute(
                update(AnalysisRow)
                .where(AnalysisRow.game_id == game_id, AnalysisRow.level == level,
                       or_(AnalysisRow.status == "failed",
                           (AnalysisRow.status == "running") & (AnalysisRow.updated < stale)))
                .values(status="running", error=None, updated=stamp))
            return bool(taken.rowcount == 1)  # type: ignore[attr-defined]

    def stale_jobs(self) -> list[tuple[str, str]]:
        stale = now() - timedelta(seconds=STALE_SECONDS)
        with self.store.sessions() as session:
            return [(g, lv) for g, lv in session.execute(
                select(AnalysisRow.game_id, AnalysisRow.level)
                .where(AnalysisRow.status == "running", AnalysisRow.updated < stale)).all()]

    def judged_so_far(self, game_id: str, level: str) -> list[dict[str, Any]]:
        with self.store.sessions() as session:
            result = session.scalar(select(AnalysisRow.result).where(AnalysisRow.game_id == game_id,
                                                                       AnalysisRow.level == level))
            turns = (result or {}).get("turns") if isinstance(result, dict) else None
            return list(turns) if isinstance(turns, list) else []

    def save(self, game_id: str, level: str, **values: Any) -> None:
        with self.store.sessions.begin() as session:
            session.execute(update(AnalysisRow)
                            .where(AnalysisRow.game_id == game_id, AnalysisRow.level == level)
                            .values(updated=now(), **values))

    def touch(self, keys: list[tuple[str, str]]) -> None:
        with self.store.sessions.begin() as session:
            for game_id, level in keys:
                session.execute(update(AnalysisRow)
                                .where(AnalysisRow.game_id == game_id, AnalysisRow.level == level,
                                       AnalysisRow.status == "running")
                                .values(updated=now()))

    # --- jobs -------------------------------------------------------------------------------------------------
    def _worker(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=start_worker)
        return self._executor

    async def _in_worker(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._worker(), fn, *args)

    def start(self, game_id: str, level: str, record: dict[str, Any]) -> None:
        key = (game_id, level)
        if key in self._jobs and not self._jobs[key].done():
            return
        task = asyncio.create_task(self._run(game_id, level, record), name=f"analysis-{game_id}-{level}")
        self._jobs[key] = task
        task.add_done_callback(lambda _: self._jobs.pop(key, None) if self._jobs.get(key) is task else None)

    async def _run(self, game_id: str, level: str, record: dict[str, Any]) -> None:
        call = self.store.call
        try:
            async with self.slots:
                total = await self._in_worker(record_turns, record)
                turns = await call(self.judged_so_far, game_id, level)
                turns = turns[:total]
                await call(self.save, game_id, level, total=total, done=len(turns))
                for index in range(len(turns), total):
                    turns.append(await self._in_worker(judge_in_worker, record, index, level, SEED))
                    await call(self.save, game_id, level, done=len(turns), result={"turns": turns})
                result = await self._in_worker(record_analysis, record, level, SEED, turns)
                await call(self.save, game_id, level, status="done", done=total, result=result)
        except asyncio.CancelledError:
            raise  # the server stops: the job stays "running" and is taken up again after the restart
        except Exception as exc:
            log.exception("the analysis of game %s by %s failed", game_id, level)
            await call(self.save, game_id, level, status="failed", error=f"the analysis failed: {exc}"[:500])

    async def resume(self) -> None:
        """Take up the jobs whose process died (a restart of this one included) and mark this process's own as
        alive."""
        mine = [key for key, task in self._jobs.items() if not task.done()]
        if mine:
            await self.store.call(self.touch, mine)
        for game_id, level in await self.store.call(self.stale_jobs):
            if (game_id, level) in self._jobs or not await self.store.call(self.claim, game_id, level):
                continue
            record = await self.finished_record(game_id)
            if record is None:  # (the game is gone or, impossibly, not finished)
                await self.store.call(self.save, game_id, level, status="failed", error=UNFINISHED)
                continue
            log.info("taking up the analysis of game %s by %s", game_id, level)
            self.start(game_id, level, record)

    async def finished_record(self, game_id: str) -> dict[str, Any] | None:
        async with self.rooms.hold(game_id) as room:
            if room is None or not room.state.is_over():
                return None
            return await asyncio.to_thread(record_of, room.state)

    async def close(self) -> None:
        tasks = list(self._jobs.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


class _Heartbeat(Loop):
    """The jobs' heartbeat and take-over, which also ends this process's jobs and workers when the server stops
    (the server cancels its loops then)."""

    def __init__(self, analyses: Analyses) -> None:
        super().__init__("analysis", HEARTBEAT_SECONDS, analyses.resume)
        self.analyses = analyses

    async def forever(self) -> None:
        try:
            await super().forever()
        finally:
            await self.analyses.close()


def _level(level: str) -> str:
    if level not in LEVELS:
        raise HTTPException(400, f"unknown level {level[:20]!r} (levels: {', '.join(LEVELS)})")
    return level


def install(app: FastAPI, services: Services) -> None:
    analyses = Analyses(services)
    app.state.analyses = analyses
    services.loops.append(_Heartbeat(analyses))

    async def resume_at_start() -> None:
        await analyses.resume()

    services.at_start.append(resume_at_start)

    async def finished(game_id: str) -> GameState:
        async with services.rooms.hold(game_id) as room:
            if room is None:
                raise HTTPException(404, f"no game {game_id!r}")
            if not room.state.is_over():
                raise HTTPException(403, UNFINISHED)
            return room.state  # (a finished game's state never changes again)

    level_query = Query(DEFAULT_LEVEL, max_length=16, description=f"the judging level: {', '.join(LEVELS)}")

    @app.post("/api/games/{game_id}/analysis", status_code=202, responses=answers(400, 403, 404))
    async def start_analysis(game_id: GameId, response: Response, level: str = level_query) -> dict[str, Any]:
        """Start the analysis of a finished game by ``level`` (or give the one stored): 202 while it runs, 200
        with the analysis once done."""
        level = _level(level)
        game = await finished(game_id)
        state = await services.store.call(analyses.read, game_id, level)
        if state["status"] != "done" and await services.store.call(analyses.claim, game_id, level):
            analyses.start(game_id, level, await asyncio.to_thread(record_of, game))
            state = await services.store.call(analyses.read, game_id, level)
        if state["status"] == "done":
            response.status_code = 200
        return state

    @app.get("/api/games/{game_id}/analysis", responses=answers(400, 403, 404))
    async def get_analysis(game_id: GameId, level: str = level_query) -> dict[str, Any]:
        """The analysis by ``level``: ``status`` none, running (``done`` of ``total`` turns), done (with
        ``analysis``) or failed (with ``error``)."""
        level = _level(level)
        await finished(game_id)
        return await services.store.call(analyses.read, game_id, level)
