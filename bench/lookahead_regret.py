"""How well the master's look-ahead spends its simulations: the regret of its choice against a long reference run.

    .venv/bin/python bench/lookahead_regret.py --positions 40 --reference 24 --seed 100

At turn starts of seeded games (``torres.cli.bench_ai.sample_views``), the master's planner proposes its best
``--candidates`` turns (8); each is played on ``--reference`` shared deals of the unseen cards (the rival's reply and
the bot's own next turn, as in the look-ahead), and the mean outcome of each (in the look-ahead's units,
``tanh(points / 25)``) is taken as its true value. Each way of spending simulations then chooses among the
planner's best few turns, on deals of its own (``--repeats`` times, other seeds), and is scored by its regret: the
reference value of the best of all the turns minus that of the turn it chose. "planner" is the planner's own first
choice (no simulation). Noise in the reference itself is reported as the mean standard error of the candidates'
reference values.

This measures only how the simulations are allocated (how close a cheap run comes to a long one), not whether the
simulated continuation is a good model of the game: only matches answer that (docs/strength-log.md).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from torres.ai.base import make_bot  # noqa: E402
from torres.ai.collector import tune_for_search  # noqa: E402
from torres.ai.lookahead import LookaheadBot  # noqa: E402
from torres.ai.mcts import ISMCTSBot  # noqa: E402
from torres.ai.planner import Plan, plan_turn  # noqa: E402
from torres.cli.bench_ai import sample_views  # noqa: E402
from torres.engine.view import SeatView  # noqa: E402

Chooser = Callable[[ISMCTSBot, SeatView, list[Plan]], tuple[int, int]]  # → (chosen candidate, simulations)


def halving(simulations: int) -> Chooser:
    """The look-ahead's own allocation: successive halving on shared deals."""
    def choose(search: ISMCTSBot, view: SeatView, plans: list[Plan]) -> tuple[int, int]:
        search.iterations = simulations
        n = len(plans)
        done, best = search._paired(view, plans, [0] * n, [0.0] * n, time.perf_counter())
        return best, done
    return choose


def equal(deals: int) -> Chooser:
    """Every candidate on every one of ``deals`` shared deals, no candidate dropped."""
    def choose(search: ISMCTSBot, view: SeatView, plans: list[Plan]) -> tuple[int, int]:
        totals = [0.0] * len(plans)
        for _ in range(deals):
            deal = view.determinize(search.rng)
            for i, plan in enumerate(plans):
                totals[i] += search.simulate(deal.clone(), plan, view.seat)
        return max(range(len(plans)), key=lambda i: totals[i]), deals * len(plans)
    return choose


#: (name, how many of the planner's best turns it chooses among, how)
CHOOSERS: list[tuple[str, int, Chooser]] = [
    ("planner", 1, lambda search, view, plans: (0, 0)),
    ("4, halving 8 (the master)", 4, halving(8)),
    ("4, halving 16", 4, halving(16)),
    ("4, equal ×1", 4, equal(1)),
    ("4, equal ×3", 4, equal(3)),
    ("6, halving 8", 6, halving(8)),
    ("6, halving 12", 6, halving(12)),
    ("8, halving 12", 8, halving(12)),
    ("8, equal ×1", 8, equal(1)),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--reference", type=int, default=24, help="deals per candidate in the reference run")
    parser.add_argument("--repeats", type=int, default=2, help="runs of each chooser per position")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--candidates", type=int, default=8, help="the planner's best turns in the reference")
    args = parser.parse_args()
    master = make_bot("master", args.seed)
    assert isinstance(master, LookaheadBot)
    search = master.search
    regrets: dict[str, list[float]] = {name: [] for name, _, _ in CHOOSERS}
    sims: dict[str, list[int]] = {name: [] for name, _, _ in CHOOSERS}
    errors: list[float] = []
    used = 0
    for p, view in enumerate(sample_views(args.positions, 2, "riogrande", args.seed)):
        root = view.determinize(random.Random(args.seed * 1000 + p))
        plans = plan_turn(root, search.width, search.weights, top=args.candidates, budget=search.budget,
                          limit=search.budget * 3 // 2)
        if len(plans) < 2:
            continue
        used += 1
        search.rng = random.Random(args.seed * 1000 + p + 500)
        outcomes: list[list[float]] = [[] for _ in plans]
        for _ in range(args.reference):
            deal = view.determinize(search.rng)
            for i, plan in enumerate(plans):
                outcomes[i].append(search.simulate(deal.clone(), plan, view.seat))
        reference = [statistics.fmean(o) for o in outcomes]
        errors.append(statistics.fmean(statistics.stdev(o) / len(o) ** 0.5 for o in outcomes))
        best = max(reference)
        for name, top, choose in CHOOSERS:
            for r in range(args.repeats):
                search.rng = random.Random(args.seed * 100_000 + p * 100 + r)
                chosen, spent = choose(search, view, plans[:top])
                regrets[name].append(best - reference[chosen])
                sims[name].append(spent)
    print(f"{used} positions with 2+ candidates, reference {args.reference} deals × {args.candidates} candidates, "
          f"{args.repeats} runs of each chooser; reference standard error {statistics.fmean(errors):.4f}")
    print(f"{'chooser':>26} {'simulations':>12} {'mean regret':>12} {'best chosen':>12}")
    for name, _, _ in CHOOSERS:
        hits = sum(r == 0 for r in regrets[name]) / len(regrets[name])
        print(f"{name:>26} {statistics.fmean(sims[name]):>12.1f} {statistics.fmean(regrets[name]):>12.4f} "
              f"{hits:>11.0%}")


if __name__ == "__main__":
    tune_for_search()
    main()
