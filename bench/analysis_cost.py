"""What ``torres analyse`` costs, and how much its losses move with the judging bot's seed (docs/analysis.md).

    nice -n 10 .venv/bin/python bench/analysis_cost.py                 # about 5 minutes of CPU
    nice -n 10 .venv/bin/python bench/analysis_cost.py --games 1 --noise-seeds 0

Games: expert against expert on fixed seeds (2 and 4 players, Rio Grande), each analysed by the master (seed 0) in
this one process: CPU seconds per game (``time.process_time``, one core), median and slowest. A reference measured
in the same run gives the machine's speed: the expert planning the first turn of seed 1's 2-player game ten times.
Noise: one 2-player game analysed with ``--noise-seeds`` seeds; per turn, the spread (largest minus smallest) of
its loss over the seeds, and how often a turn the seed-0 analysis names among a player's worst is named by the
others.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from torres.ai.analysis import analyse_record  # noqa: E402
from torres.ai.base import make_bot  # noqa: E402
from torres.ai.collector import tune_for_search  # noqa: E402
from torres.engine.state import GameState  # noqa: E402
from torres.records import record_of  # noqa: E402

SEED = 350


def game(players: int, seed: int) -> dict:
    state = GameState(players, seed)
    bots = [make_bot("expert", seed * 10 + s) for s in range(players)]
    while not state.is_over():
        state.push(bots[state.current].choose(state.view(state.current)))
    return record_of(state)


def reference() -> float:
    state = GameState(2, 1)
    while state.stage.name != "TURN":
        state.push(make_bot("expert", 0).choose(state.view(state.current)))
    start = time.process_time()
    for i in range(10):
        make_bot("expert", i).plan(state.view(state.current))  # type: ignore[attr-defined]
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games per player count")
    parser.add_argument("--level", default="master")
    parser.add_argument("--noise-seeds", type=int, default=5, help="seeds for the noise of one game's losses")
    args = parser.parse_args()
    tune_for_search()
    ref = reference()
    print(f"reference (expert plans a turn 10 times): {ref:.2f} s CPU")
    for players in (2, 4):
        costs, turns = [], []
        for g in range(args.games):
            record = game(players, SEED + g)
            start = time.process_time()
            analysis = analyse_record(record, args.level, 0)
            costs.append(time.process_time() - start)
            turns.append(len(analysis.judgements))
        print(f"{players} players: {args.level} analysis of {args.games} games of {statistics.median(turns):.0f} "
              f"turns: median {statistics.median(costs):.1f} s CPU, slowest {max(costs):.1f} s "
              f"({statistics.median(costs) / ref:.1f}x the reference)")
    if args.noise_seeds < 2:
        return
    record = game(2, SEED)
    runs = [analyse_record(record, args.level, seed).to_json() for seed in range(args.noise_seeds)]
    spreads = [max(r["turns"][i]["loss"] for r in runs) - min(r["turns"][i]["loss"] for r in runs)
               for i in range(len(runs[0]["turns"]))]
    same_best = sum(all(r["turns"][i]["best"] == runs[0]["turns"][i]["best"] for r in runs)
                    for i in range(len(spreads)))
    worst0 = [(p["seat"], t) for p in runs[0]["players"] for t in p["worst"]]
    kept = [sum((seat, t) in [(p["seat"], x) for p in r["players"] for x in p["worst"]] for r in runs[1:])
            for seat, t in worst0]
    means = [[p["mean_loss"] for p in r["players"]] for r in runs]
    print(f"noise over {args.noise_seeds} seeds, one 2-player game of {len(spreads)} turns: spread of a turn's loss "
          f"median {statistics.median(spreads):.2f}, largest {max(spreads):.2f} points; the same better turn in "
          f"{same_best} of {len(spreads)} turns; a seed-0 worst turn is among the worst in "
          f"{sum(kept)} of {len(kept) * (len(runs) - 1)} other analyses; mean loss per seat by seed: {means}")


if __name__ == "__main__":
    main()
