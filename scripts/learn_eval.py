#!/usr/bin/env python3
"""The learning experiments of issue #14 (docs/strength-log.md, "A learned evaluation"), reproducible and seeded.

    .venv/bin/python scripts/learn_eval.py generate --games 160 --seed 7 --jobs 2 --policies greedy --out pos.npz
    .venv/bin/python scripts/learn_eval.py residuals pos.npz
    .venv/bin/python scripts/learn_eval.py fit pos.npz --out weights.json

``generate`` plays self-play games and takes a position whenever a turn has just ended (the positions a
whole-turn planner compares). Each position gives, for the seat that just moved against each rival, the
difference of their features (below), the points the seat went on to gain on that rival by the end of the game,
and what the hand-tuned evaluation expected it to gain.

``residuals`` fits, per phase, the points to come on the hand-tuned evaluation's own terms (castle points, climbing
potential, cards and reserve knights scaled by the share of the game left, the king's bonus) and prints the fitted
multipliers beside the evaluation's. This is how ``later`` (the weight of a later scoring) was found to be too
high; the fit itself is confounded (a seat's features go with how well it plays from there), so each suggestion
was tested by play before it was kept, and most were not.

``fit`` fits a linear model per phase over all the features (ridge, no intercept). Used as the planner's
evaluation (commit 602a610, ``greedy:value=<file>``) it lost every one of 40 games against ``greedy``, and was
removed.
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
from torres.ai.evaluate import DEFAULT_WEIGHTS, evaluate, seat_terms, turns_left_share  # noqa: E402
from torres.engine import GameState, Rules  # noqa: E402
from torres.engine.actions import O_END  # noqa: E402
from torres.engine.scoring import castle_points  # noqa: E402
from torres.engine.state import Stage  # noqa: E402

#: Names of the features, in order (``seat_features`` rows follow it).
FEATURES = (
    "castles",  # area × level of the seat's highest knight on each castle, summed: what it would score now
    "king",  # the king's bonus it would get at the coming scoring
    "master",  # master-card bonuses at the remaining scorings (discounted), 0 without the master version
    "reach",  # the best climbs its knights could make nearby (torres.ai.evaluate's potential)
    "reach_turns",  # reach × turns left before the coming scoring
    "reserve",  # knights not yet on the board
    "reserve_turns",  # reserve × turns left before the coming scoring
    "cards",  # cards in hand
    "cards_turns",  # cards × turns left before the coming scoring
    "blocks",  # blocks still in the seat's stacks this phase
    "turns",  # turns left before the coming scoring
    "castles_turns",  # castle points × turns left before the coming scoring
    "knight_levels",  # the levels of its knights, summed
    "castles_held",  # castles it stands on
    "headroom",  # on its castles: area × (the castle's top level − its highest knight there), summed
    "ground",  # knights on the board but on no castle
    "king_castle",  # the level of its highest knight on the king's castle
)


def turns_before_scoring(state: GameState, seat: int) -> int:
    """The turns ``seat`` still takes before the coming phase scoring (a whole phase after a scoring; the seat
    to act counts the turn it is in)."""
    rounds = len(state.phase_stacks[min(state.phase, 2)])
    if state.stage is Stage.OVER:
        return 0
    if state.stage is not Stage.TURN and state.stage is not Stage.KEEP:
        return rounds
    this_round = 1 if (seat - state.start) % state.n >= state.turn else 0
    return rounds - state.round - 1 + this_round


def seat_features(state: GameState) -> list[list[float]]:
    """A row of :data:`FEATURES` per seat."""
    info = state.info
    h, cid, area, top = info.heights, info.cid, info.area, info.top
    king_castle = cid[state.king] if state.king >= 0 else -1
    terms = seat_terms(state, DEFAULT_WEIGHTS)
    rows = []
    for seat in range(state.n):
        t = terms[seat]
        squares = state.knights[seat]
        points, best = castle_points(info, squares)
        turns = float(turns_before_scoring(state, seat))
        headroom = 0.0
        for c, level in best.items():
            headroom += area[c] * (h[top[c]] - level)
        ground = sum(1 for sq in squares if cid[sq] < 0)
        blocks = sum(state.stacks[seat])
        if state.current == seat and state.turn_stack > 0:
            blocks += state.turn_stack
        rows.append([
            t.castles, t.king, t.master, t.reach, t.reach * turns, t.reserve, t.reserve * turns, t.cards,
            t.cards * turns, float(blocks), turns, t.castles * turns, float(sum(h[sq] for sq in squares)),
            float(len(best)), headroom, float(ground), float(best.get(king_castle, 0)) if king_castle >= 0 else 0.0,
        ])
    return rows


#: The players of the self-play games, drawn per seat and game (``--policies`` for others): the ladder's
#: planners, so the positions are those such players reach.
POLICIES = ("greedy:width=1", "greedy", "greedy:width=2", "greedy:eval=basic")


def play_game(task: tuple[int, int, str, tuple[str, ...]]) -> tuple[list, list, list, list]:
    """One seeded game; returns its rows: phase, feature difference, outcome difference, and (what the hand-tuned
    evaluation expected, the share of the game left)."""
    seed, players, edition, policies = task
    rng = random.Random(seed)
    state = GameState(players, seed, Rules.from_text(edition))
    bots = [make_bot(rng.choice(policies), seed * 10 + s) for s in range(players)]
    # (phase, mover, features, scores, the tuned evaluation for the mover, the share of the game left)
    taken: list[tuple[int, int, list[list[float]], list[int], float, float]] = []
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
    with get_context("spawn").Pool(args.jobs) as pool:  # (seeded per game: the same file for any --jobs)
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


def residuals(args: argparse.Namespace) -> None:
    parts = [np.load(f) for f in args.data]
    phase = np.concatenate([p["phase"] for p in parts])
    x = np.concatenate([p["x"] for p in parts])
    y = np.concatenate([p["y"] for p in parts])
    tuned = np.concatenate([p["tuned"] for p in parts])
    share = tuned[:, 1]
    col = {name: i for i, name in enumerate(FEATURES)}
    names = ("castles", "reach", "cards × share", "reserve × share", "king")
    w = DEFAULT_WEIGHTS
    rng = np.random.default_rng(0)
    for ph in range(3):
        rows = phase == ph
        terms = np.stack([x[rows, col["castles"]], x[rows, col["reach"]], x[rows, col["cards"]] * share[rows],
                          x[rows, col["reserve"]] * share[rows], x[rows, col["king"]]], axis=1)
        fitted = np.linalg.lstsq(terms, y[rows], rcond=None)[0]
        # the spread of the multipliers over bootstrap resamples of the positions
        boot = [np.linalg.lstsq(terms[s], y[rows][s], rcond=None)[0]
                for s in (rng.integers(0, rows.sum(), rows.sum()) for _ in range(200))]
        spread = np.std(boot, axis=0)
        scorings = sum(w.later ** k for k in range(3 - ph))
        current = (scorings, w.reach * scorings, w.card, w.reserve, w.king)
        expected = tuned[rows, 0]
        r2 = 1 - ((y[rows] - expected) ** 2).mean() / y[rows].var()
        print(f"phase {ph + 1}: {rows.sum()} positions; the evaluation's R² on the points to come {r2:.2f}")
        for name, f, e, c in zip(names, fitted, spread, current):
            print(f"    {name:>16} fitted {f:+6.2f} ± {e:.2f}   the evaluation {c:+6.2f}")


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
    r = sub.add_parser("residuals", help="fit the points to come on the hand-tuned evaluation's terms")
    r.add_argument("data", nargs="+")
    f = sub.add_parser("fit", help="fit the per-phase linear evaluation")
    f.add_argument("data", nargs="+")
    f.add_argument("--alpha", type=float, default=1e-3)
    f.add_argument("--out", required=True)
    args = parser.parse_args()
    {"generate": generate, "residuals": residuals, "fit": fit}[args.command](args)


if __name__ == "__main__":
    main()
