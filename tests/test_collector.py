"""The processes that search run with the garbage collector's search thresholds (torres.ai.collector); importing
torres changes nothing."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys

import pytest
from conftest import run_command
from typer.testing import CliRunner

import torres.cli.hint  # noqa: F401  (registers the command)
import torres.cli.tournament  # noqa: F401
from torres.ai.collector import SEARCH_THRESHOLDS
from torres.cli.app import app
from torres.engine import GameState, Rules
from torres.engine.view import SeatView
from torres.server.bots import BotPool


def test_importing_torres_leaves_the_collector_alone() -> None:
    code = ("import gc; before = gc.get_threshold(); import torres.ai, torres.ai.collector, torres.server.bots, "
            "torres.env; assert gc.get_threshold() == before, gc.get_threshold()")
    run_command([sys.executable, "-c", code], check=True, timeout=120)


def test_the_tournament_command_searches_with_the_search_thresholds() -> None:
    gc.set_threshold(700, 10, 10)
    result = CliRunner().invoke(app, ["tournament", "--bots", "random,onestep", "--games", "1"])
    assert result.exit_code == 0, result.output
    assert gc.get_threshold() == SEARCH_THRESHOLDS


def _play_if_tuned(game_id: str, seat: int, level: str, seed: int, view: SeatView) -> int:
    """A bot worker's stand-in: the first legal action, in a worker whose collector is set for search."""
    if gc.get_threshold() != SEARCH_THRESHOLDS:
        raise RuntimeError(f"the bot worker runs with the collector thresholds {gc.get_threshold()}")
    return view.legal[0]


def test_the_servers_bot_workers_search_with_the_search_thresholds(caplog: pytest.LogCaptureFixture) -> None:
    state = GameState(2, 1, Rules.from_text("riogrande"))
    view = state.view(state.current)
    pool = BotPool(worker=_play_if_tuned)
    try:
        with caplog.at_level(logging.ERROR, logger="torres.server.bots"):
            action = asyncio.run(pool.choose("g", view.seat, "random", 1, view))
    finally:
        pool.close()
    assert not caplog.records, [r.getMessage() for r in caplog.records]  # (a failing worker is logged, not raised)
    assert action == view.legal[0]


def test_after_a_decision_a_searching_process_freezes_what_survived_it() -> None:
    """What outlives a decision (the evaluation's caches) leaves the young generation, which a collection walks;
    a process not set for search keeps its collector as it was."""
    from torres.ai.collector import settle, tune_for_search
    from torres.cli.tournament import play_game
    from torres.server.bots import choose_in_worker

    state = GameState(2, 1, Rules.from_text("riogrande"))
    try:
        gc.set_threshold(700, 10, 10)
        settle()
        assert gc.get_freeze_count() == 0  # not a searching process: nothing changes
        tune_for_search()
        settle()
        assert gc.get_freeze_count() > 0 and gc.get_count()[0] < 100  # (the young generation emptied)
        for decide in (lambda: play_game(["onestep", "random"], 0, 2, "riogrande", 1),
                       lambda: choose_in_worker("g", state.current, "onestep", 1, state.view(state.current))):
            gc.unfreeze()
            decide()  # the tournament and the server's bot workers settle after every decision
            assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
