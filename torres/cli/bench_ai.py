"""``torres bench-ai``: how fast the bots think — evaluations/s of the greedy planner, simulations/s of each
search bot, and positions/s of the exhaustive yardstick, as medians over positions from seeded games."""

from __future__ import annotations

import random
import statistics
import time
from itertools import islice
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from ..ai.base import make_bot
from .. import native
from ..ai.collector import tune_for_search
from ..ai.evaluate import clear_caches as clear_evaluation_caches, evaluate
from ..ai.exhaustive import ExhaustiveBot
from ..ai.greedy import GreedyBot
from ..ai.lookahead import LookaheadBot
from ..ai.levels import LEVELS
from ..ai.mcts import ISMCTSBot
from ..ai.samples import turn_starts
from ..engine.board import clear_board_cache
from ..engine.rules import Rules
from ..engine.view import SeatView
from .app import app


#: The search bots measured (the levels are beam planners; docs/strength.md says why).
SEARCH_SPECS = ("ismcts:iterations=8:candidates=4:width=6", "ismcts:iterations=8:candidates=4:width=6:horizon=2")
#: The full-width yardstick of issue #34, as its matches play it (docs/strength.md): where a game against it spends
#: nine tenths of its time.
YARDSTICK_SPEC = "exhaustive:nodes=30000:eval=tuned"


def sample_views(count: int, players: int, rules_text: str, seed: int = 0) -> list[SeatView]:
    """Views at the start of turns of greedy games, spread over the game."""
    starts = turn_starts(rules_text, players, seed, "greedy:width=2", every=5, at=2)
    return [state.view(state.current) for state in islice(starts, count)]


def clear_caches() -> None:
    """The evaluation's and the engine's caches emptied: what one bot searched does not speed up the next."""
    clear_evaluation_caches()
    clear_board_cache()


def bench(positions: int = 6, players: int = 2, rules_text: str = "riogrande", seconds: float = 0.5,
          seed: int = 0) -> list[dict[str, Any]]:
    views = sample_views(positions, players, rules_text, seed)
    rows: list[dict[str, Any]] = []
    # the evaluation alone, of every position one action away (as a search meets them: a new position each
    # time, the caches starting empty at each sampled position; evaluating one position again would only measure
    # the cache)
    states = [v.determinize(random.Random(seed)) for v in views]
    rates = []
    for st in states:
        clear_caches()
        seat, spent, n = st.current, 0.0, 0
        for action in list(st.legal_action_ids()):
            st.push(action, check=False)
            t0 = time.perf_counter()
            evaluate(st, seat)
            spent += time.perf_counter() - t0
            n += 1
            st.pop()
        rates.append(n / spent)
    rows.append({"bot": "evaluate() of each next position", "unit": "evaluations/s",
                 "median": statistics.median(rates), "per_turn": 0.0})
    # the whole-turn planners of the levels (beam searches), then the information-set search
    for level, spec in LEVELS.items():
        if isinstance(make_bot(spec), GreedyBot):
            rows.append(_think_rate(f"{level} ({spec})", spec, views, seed))
    for spec in SEARCH_SPECS:
        rows.append(_think_rate(spec, spec, views, seed))
    rows.append(_think_rate(f"yardstick ({YARDSTICK_SPEC})", YARDSTICK_SPEC, views, seed))
    return rows


def _think_rate(label: str, spec: str, views: list[SeatView], seed: int) -> dict[str, Any]:
    """Median work rate of one bot over the views: evaluations/s for a planner, simulations/s for a search,
    positions expanded a second for the full-width search."""
    rates, turn_times = [], []
    unit = "evaluations/s"
    for i, v in enumerate(views):
        clear_caches()  # each bot meets each position fresh, not after the previous bot searched it
        bot = make_bot(spec, seed + i)
        assert isinstance(bot, (GreedyBot, ISMCTSBot, ExhaustiveBot))
        t0 = time.perf_counter()
        bot.plan(v)
        dt = time.perf_counter() - t0
        if isinstance(bot, ExhaustiveBot):
            assert bot.last is not None
            unit, work = "positions/s", bot.last.nodes
        elif isinstance(bot, (ISMCTSBot, LookaheadBot)):
            search = bot.search if isinstance(bot, LookaheadBot) else bot
            unit, work = "simulations/s", search.stats.iterations
        else:
            work = bot.evaluations
        rates.append(work / dt)
        turn_times.append(dt)
    return {"bot": label, "unit": unit, "median": statistics.median(rates), "per_turn": statistics.median(turn_times)}


@app.command("bench-ai")
def bench_ai(
    positions: int = typer.Option(6, min=1, max=1000, help="Positions to measure on"),
    players: int = typer.Option(2, min=2, max=4, help="Players"),
    edition: str = typer.Option("riogrande", help="Edition, with settings"),
    seed: int = typer.Option(0, help="Seed of the sample games"),
) -> None:
    """Median speed of the bots: evaluations/s (whole-turn planners), simulations/s (search bots) and positions/s
    (the full-width yardstick)."""
    try:
        Rules.from_text(edition)  # the engine's check of rules text: a clean message, not a traceback
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--edition'") from None
    tune_for_search()
    console = Console(width=max(110, Console().width))
    rows = bench(positions, players, edition, seed=seed)
    compiled = ", compiled with mypyc" if native.in_use() else ""
    table = Table(title=f"bot speed, medians over {positions} positions ({players} players, {edition}{compiled})")
    # a bot's label is its whole spec, longer than a terminal line for the master: it folds, the figures never do
    table.add_column("bot", overflow="fold")
    for col in ("median rate", "unit", "median s/turn"):
        table.add_column(col, justify="left" if col == "unit" else "right", no_wrap=True, min_width=len(col))
    for r in rows:
        table.add_row(r["bot"], f"{r['median']:.0f}", r["unit"], f"{r['per_turn']:.3f}")
    console.print(table)
