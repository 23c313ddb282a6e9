"""Before and after: the engine's and the bots' speed on two source trees, measured alike, alternating.

    git worktree add /tmp/before a5673ca
    .venv/bin/python bench/speed_ab.py /tmp/before . --reps 3

Each repetition runs one child process per tree (``PYTHONPATH=<tree>``) that measures, on the process's CPU
clock (other load on the machine inflates wall time, much less CPU time):

* 4- and 2-player random playouts with undo information (``legal_action_ids`` + ``push``), actions per second;
* python-chess random playouts in the same process, to the end of the game and capped at 200 plies;
* the evaluation of every position one action away from 8 sampled positions (``evaluate`` only);
* the expert's planner (``greedy:width=12:budget=4000``) on the same 8 positions, evaluations per second.

Every cache either version keeps (the engine's board analyses, the evaluation's tables) is emptied before each
sampled position, so neither tree profits from what was searched before. Medians over the repetitions, and the
ratio of the second tree to the first.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r'''
import json, random, statistics, time
import chess
from torres.engine import GameState, Rules
import torres.engine.board as board
import torres.ai.evaluate as evaluation
from torres.ai.base import make_bot
from torres.ai.evaluate import evaluate
from torres.cli.bench_ai import sample_views

def clear():
    board._CACHE.clear()
    getattr(board, "_REMOVED", {}).clear()
    for name in ("_TARGETS", "_SEAT_TERMS", "_NEAR", "_CASTLE_MASKS", "_POTENTIALS", "_TURNS"):
        getattr(evaluation, name, {}).clear()

def playouts(players, games=25):
    n, t = 0, time.process_time()
    for seed in range(games):
        state, rng = GameState(players, seed, Rules()), random.Random(seed)
        while not state.is_over():
            state.push(rng.choice(state.legal_action_ids()), check=False)
            n += 1
    return n / (time.process_time() - t)

def chess_playouts(cap, games=25):
    n, t = 0, time.process_time()
    for seed in range(games):
        b, rng, plies = chess.Board(), random.Random(seed), 0
        while not b.is_game_over() and (cap is None or plies < cap):
            b.push(rng.choice(list(b.legal_moves)))
            plies += 1
        n += plies
    return n / (time.process_time() - t)

views = sample_views(8, 2, "riogrande", 0)
evaluations, planner = [], []
for i, view in enumerate(views):
    clear()
    state, spent, n = view.determinize(random.Random(0)), 0.0, 0
    for action in list(state.legal_action_ids()):
        state.push(action, check=False)
        t = time.process_time()
        evaluate(state, view.seat)
        spent += time.process_time() - t
        n += 1
        state.pop()
    evaluations.append(n / spent)
    clear()
    bot = make_bot("greedy:width=12:budget=4000", i)
    t = time.process_time()
    bot.plan(view)
    planner.append(bot.evaluations / (time.process_time() - t))
print(json.dumps({"playouts_4p": playouts(4), "playouts_2p": playouts(2), "chess_to_end": chess_playouts(None),
                  "chess_200_plies": chess_playouts(200), "evaluations": statistics.median(evaluations),
                  "expert_planner": statistics.median(planner)}))
'''


def measure(tree: Path) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(tree.resolve()))
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, cwd=tree, check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for _ in range(args.reps):
        runs["before"].append(measure(args.before))
        runs["after"].append(measure(args.after))
    keys = list(runs["before"][0])
    print(f"{'':>18} {'before':>10} {'after':>10} {'after/before':>13}   (medians of {args.reps}, per CPU second)")
    medians = {side: {k: statistics.median(r[k] for r in rows) for k in keys} for side, rows in runs.items()}
    for k in keys:
        b, a = medians["before"][k], medians["after"][k]
        print(f"{k:>18} {b:>10,.0f} {a:>10,.0f} {a / b:>12.2f}×")
    for side in ("before", "after"):
        m = medians[side]
        print(f"{side}: 4-player playouts with undo = {m['playouts_4p'] / m['chess_to_end']:.2f}× python-chess "
              f"played to the end ({m['playouts_4p'] / m['chess_200_plies']:.2f}× with the 200-ply cap)")


if __name__ == "__main__":
    main()
