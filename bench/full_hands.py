"""Turns a full hand cuts short: the master's planner under several soft budgets and hard stops (issue #34).

    .venv/bin/python bench/full_hands.py --bot master:budget=18000:limit=18000 --games 10 --seed 7

A planner whose hard stop is its soft budget (the master's was, at 18,000, until issue #34) stops where the budget
runs out. With a hand of 5-9 cards the first step offers 500-800 plays, the beam's second step alone passes the
budget, and the turns found are one or two actions and the rest of the action points on the scoring track. A soft
budget below the hard stop lets the planner finish them one node a step past the budget (the master's now: 18,000
stopped at 27,000).

Positions: every turn start of ``--bot``'s (a master) in ``--games`` games against the expert (seats alternating,
as ``bench/turn_times.py`` plays them), each planned once per budget/stop pair at the master's width with its
evaluation. The table gives the mean value of the best turn found over all the turn starts and over those where the
first pair's planner reached its stop, how many actions other than points on the scoring track those turns have,
and the evaluations and CPU seconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from torres.ai.base import make_bot  # noqa: E402
from torres.ai.collector import settle, tune_for_search  # noqa: E402
from torres.ai.evaluate import MASTER_WEIGHTS, clear_caches  # noqa: E402
from torres.ai.levels import MASTER_WIDTH  # noqa: E402
from torres.ai.planner import plan_turn  # noqa: E402
from torres.engine import GameState, Rules  # noqa: E402
from torres.engine.actions import DECODE, Kind  # noqa: E402
from torres.engine.state import Stage  # noqa: E402


def master_turn_starts(games: int, seed: int, bot: str = "master") -> list[GameState]:
    """``bot``'s turn starts in ``games`` games against the expert."""
    out = []
    for g in range(games):
        state = GameState(2, seed + g, Rules())
        me = g % 2
        bots = [make_bot(bot if s == me else "expert", seed * 1000 + g * 10 + s) for s in range(2)]
        turn = None
        while not state.is_over():
            if state.current == me and state.stage is Stage.TURN and (state.phase, state.round, state.turn) != turn:
                turn = (state.phase, state.round, state.turn)
                out.append(state.clone())
            state.push(bots[state.current].choose(state.view(state.current)))
            settle()
    return out


def plan_under(state: GameState, stops: list[tuple[int, int]]) -> list[tuple[float, int, int, float]]:
    """The best turn from ``state`` under each (soft budget, hard stop) pair at the master's width and evaluation:
    its value, its actions other than points on the scoring track, the evaluations and the CPU seconds taken."""
    row = []
    for budget, limit in stops:
        clear_caches()
        start = time.process_time()
        best = plan_turn(state.clone(), MASTER_WIDTH, MASTER_WEIGHTS, budget=budget, limit=limit)[0]
        seconds = time.process_time() - start
        actions = sum(1 for a in best.actions if DECODE[a][0] not in (Kind.SCORE, Kind.END))
        row.append((best.value, actions, best.evaluations, seconds))
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="master", help="whose turn starts (default %(default)s)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--stops", default="18000/18000,12000/18000,14000/18000,9000/18000",
                        help="soft budget/hard stop pairs; the first is the reference (default %(default)s)")
    args = parser.parse_args()
    tune_for_search()
    stops = [(int(budget), int(limit)) for budget, limit in (pair.split("/") for pair in args.stops.split(","))]
    rows = [plan_under(state, stops) for state in master_turn_starts(args.games, args.seed, args.bot)]
    stopped = [row for row in rows if row[0][2] >= stops[0][1]]
    print(f"{len(rows)} turn starts of {args.bot} in {args.games} games against the expert (--seed {args.seed}); "
          f"{len(stopped)} where the first pair's planner reached its stop\n")
    print("| soft budget / hard stop | mean value, all | mean value, stopped | actions, stopped (mean) | "
          "evaluations, stopped (mean) | CPU s, all |")
    print("|---|---:|---:|---:|---:|---:|")

    def mean(values: list[float]) -> float:
        return statistics.fmean(values) if values else float("nan")

    for k, (budget, limit) in enumerate(stops):
        print(f"| {budget:,} / {limit:,} | {mean([r[k][0] for r in rows]):.3f} | {mean([r[k][0] for r in stopped]):.3f} "
              f"| {mean([r[k][1] for r in stopped]):.1f} | {mean([r[k][2] for r in stopped]):,.0f} "
              f"| {sum(r[k][3] for r in rows):.1f} |")


if __name__ == "__main__":
    main()
