"""What a wider beam buys: the master's planner at several widths on the same turn starts (issue #34).

    .venv/bin/python bench/beam_widths.py --rules riogrande:max_buys=0 --positions 36 --widths 48,96,192,400
    .venv/bin/python bench/beam_widths.py --rules riogrande --positions 60 --widths 48 --king-reach 0,0.5,1

Positions: every third turn start of 2-player expert games (as ``bench/beam_regret.py`` samples them), each dealt
once from the seat's view. At each, the planner plans the turn with the master's evaluation, its soft budget
(18,000) and its root's hard stop (27,000) at every width; the table
gives the mean value of the best turn found (evaluation points), how often a width found more or less than the
first width and by how much on average, and the evaluations and CPU seconds it took (median and most). A wider
beam that finds no more is the sign that the master's losses are not the beam's misses.

``--king-reach`` plans at each width once for each value of the evaluation's ``king_reach`` (the king's bonus the
seat could still climb to, counted while its turn is in progress: a guide for the beam), the master's value first;
the turns found are valued as the master values a finished turn, which ``king_reach`` does not change.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from itertools import islice
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from torres.ai.base import make_bot  # noqa: E402
from torres.ai.collector import tune_for_search  # noqa: E402
from torres.ai.evaluate import MASTER_WEIGHTS  # noqa: E402
from torres.ai.levels import MASTER_BUDGET  # noqa: E402
from torres.ai.lookahead import LookaheadBot  # noqa: E402
from torres.ai.planner import plan_turn  # noqa: E402
from torres.ai.samples import turn_starts  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="riogrande:max_buys=0")
    parser.add_argument("--positions", type=int, default=36)
    parser.add_argument("--widths", default="48,96,192,400", help="beam widths, the first is the reference")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--king-reach", default="", help="values of the evaluation's king_reach to plan with "
                        "(default: the master's alone)")
    args = parser.parse_args()
    tune_for_search()
    widths = [int(w) for w in args.widths.split(",")]
    starts = islice(turn_starts(args.rules, 2, args.seed * 1000, "expert", every=3, at=2), args.positions)
    positions = [state.view(state.current).determinize(random.Random(args.seed + i)) for i, state in enumerate(starts)]
    master = make_bot("master")
    assert isinstance(master, LookaheadBot)
    limit = master.search.limit  # the master's root stop
    print(f"{len(positions)} positions, {args.rules}, seed {args.seed}\n")
    reaches = [float(r) for r in args.king_reach.split(",")] if args.king_reach else [MASTER_WEIGHTS.king_reach]
    print("| width | king_reach | mean value | more than the first | less | mean gain | evaluations p50 (max) | "
          "CPU s p50 (max) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    reference: list[float] = []
    for width, reach in ((width, reach) for width in widths for reach in reaches):
        weights = replace(MASTER_WEIGHTS, king_reach=reach)
        values, evaluations, seconds = [], [], []
        for state in positions:
            start = time.process_time()
            plan = plan_turn(state, width, weights, budget=MASTER_BUDGET, limit=limit)[0]
            seconds.append(time.process_time() - start)
            values.append(plan.value)
            evaluations.append(plan.evaluations)
        reference = reference or values
        gains = [v - r for v, r in zip(values, reference)]
        print(f"| {width} | {reach:g} | {statistics.mean(values):.3f} | {sum(g > 1e-9 for g in gains)} | "
              f"{sum(g < -1e-9 for g in gains)} | {statistics.mean(gains):+.3f} | "
              f"{statistics.median(evaluations):,.0f} ({max(evaluations):,}) | "
              f"{statistics.median(seconds):.3f} ({max(seconds):.3f}) |", flush=True)


if __name__ == "__main__":
    main()
