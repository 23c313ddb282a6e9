#!/usr/bin/env python3
"""Reproduce the learned evaluation (torres/data/learned_eval.json): self-play games, then a ridge fit.

    .venv/bin/python scripts/learn_eval.py generate --games 600 --seed 1 --jobs 2 --out /tmp/positions-1.npz
    .venv/bin/python scripts/learn_eval.py fit /tmp/positions-1.npz [more.npz ...] --out torres/data/learned_eval.json

Positions are taken whenever a turn has just ended (the positions a whole-turn planner compares). Each position
gives, for the seat that just moved against each rival, the difference of their features and the points the
seat went on to gain on that rival by the end of the game. The model is linear per phase: a seat's value is its
score plus the weighted features, so the difference of two seats' values predicts the final difference. Every
step is seeded: the same command gives the same file.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from multiprocessing import get_context
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from torres.ai.base import make_bot  # noqa: E402
from torres.ai.evaluate import evaluate, turns_left_share  # noqa: E402
from torres.ai.features import FEATURES, seat_features  # noqa: E402
from torres.engine import GameState, Rules  # noqa: E402
from torres.engine.actions import O_END  # noqa: E402
from torres.engine.state import Stage  # noqa: E402

#: The players of the self-play games, drawn per seat and game: the ladder's planners, so the positions are
#: those such players reach (and the learned bot itself, once a first fit exists, with --also).
POLICIES = ("greedy:width=1", "greedy", "greedy:width=2", "greedy:eval=basic")


def play_game(task: tuple[int, int, str, tuple[str, ...]]) -> tuple[list, list, list, list]:
    """One seeded game; returns (phase, feature difference, outcome difference) rows."""
    seed, players, edition, policies = task
    rng = random.Random(seed)
    state = GameState(players, seed, Rules.from_text(edition))
    bots = [make_bot(rng.choice(policies), seed * 10 + s) for s in range(players)]
    taken: list[tuple[int, int, list[list[float]], list[int]]] = []  # (phase, mover, features, scores)
    while not state.is_over():
        seat = state.current
        action = bots[seat].choose(state.view(seat))
        state.push(action, check=False)
        if action == O_END and state.stage is not Stage.OVER:
            taken.append((min(state.phase, 2), seat, seat_features(state), list(state.scores),
                          evaluate(state, seat), turns_left_share(state)))
    final = state.scores
    phases, diffs, outcomes, tuned = [], [], [], []
    for phase, mover, rows, scores, value, share in taken:
        for rival in range(players):
            if rival == mover:
                continue
            phases.append(phase)
            diffs.append([a - b for a, b in zip(rows[mover], rows[rival])])
            outcomes.append((final[mover] - final[rival]) - (scores[mover] - scores[rival]))
            tuned.append((value - (scores[mover] - scores[rival]), share))
    return phases, diffs, outcomes, tuned


def generate(args: argparse.Namespace) -> None:
    policies = tuple(args.policies.split(",")) if args.policies else POLICIES
    tasks = [(args.seed * 100_000 + g, args.players, args.edition, policies) for g in range(args.games)]
    phases, diffs, outcomes, games, tuned = [], [], [], [], []
    with get_context("spawn").Pool(args.jobs) as pool:
        for g, (p, d, o, t) in enumerate(pool.imap(play_game, tasks, chunksize=1)):
            phases += p
            diffs += d
            outcomes += o
            tuned += t
            games += [g] * len(p)
            if (g + 1) % 20 == 0:
                print(f"{g + 1}/{args.games} games, {len(phases)} positions", flush=True)
    np.savez_compressed(args.out, phase=np.array(phases, np.int8), x=np.array(diffs, np.float64),
                        y=np.array(outcomes, np.float64), game=np.array(games, np.int32),
                        tuned=np.array(tuned, np.float64).reshape(-1, 2),
                        features=np.array(FEATURES))
    print(f"wrote {args.out}: {len(phases)} positions from {args.games} games")


def ridge(x: np.ndarray, y: np.ndarray, alpha: float) -> np.ndarray:
    """Least squares with an L2 penalty on standardized columns; no intercept (a difference of equals is 0)."""
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    xs = x / scale
    w = np.linalg.solve(xs.T @ xs + alpha * len(y) * np.eye(x.shape[1]), xs.T @ y)
    return w / scale


def fit(args: argparse.Namespace) -> None:
    parts = [np.load(f) for f in args.data]
    phase = np.concatenate([p["phase"] for p in parts])
    x = np.concatenate([p["x"] for p in parts])
    y = np.concatenate([p["y"] for p in parts])
    # hold out every fifth game of each file to report the fit on unseen games
    game = np.concatenate([p["game"] + 1_000_000 * i for i, p in enumerate(parts)])
    held = game % 5 == 0
    weights = []
    for ph in range(3):
        rows = phase == ph
        train, test = rows & ~held, rows & held
        w = ridge(x[train], y[train], args.alpha)
        pred = x[test] @ w
        r2 = 1 - ((y[test] - pred) ** 2).mean() / ((y[test] - y[test].mean()) ** 2).mean()
        print(f"phase {ph + 1}: {rows.sum()} positions, held-out R² {r2:.3f}")
        for name, value in zip(FEATURES, w):
            print(f"    {name:>15} {value:+.3f}")
        weights.append([round(float(v), 5) for v in ridge(x[rows], y[rows], args.alpha)])
    out = {"features": list(FEATURES), "phases": weights, "alpha": args.alpha,
           "data": [str(Path(f).name) for f in args.data], "positions": int(len(y))}
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {args.out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="play self-play games and store their positions")
    g.add_argument("--games", type=int, default=600)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--players", type=int, default=2)
    g.add_argument("--edition", default="riogrande")
    g.add_argument("--jobs", type=int, default=2)
    g.add_argument("--policies", default="", help="comma-separated bot specs (default: the ladder's planners)")
    g.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fit the per-phase linear evaluation")
    f.add_argument("data", nargs="+")
    f.add_argument("--alpha", type=float, default=1e-3)
    f.add_argument("--out", required=True)
    args = parser.parse_args()
    generate(args) if args.command == "generate" else fit(args)


if __name__ == "__main__":
    main()
