"""Whether a fit of the *order* of sibling turns, not of their margins, ranks them better than the master's look-ahead.

    .venv/bin/python bench/sibling_turns.py --seed 905 --games 155 --jobs 2 --data /tmp/siblings.jsonl
    .venv/bin/python bench/sibling_ranking.py /tmp/siblings.jsonl

``bench/sibling_terms.py`` fitted the leaf's terms to the margins sibling turns lead to (least squares within turn
starts), and a least-squares fit of the margins is not a fit of their order: the widest swings steer it. This bench
fits the order itself. Each judged turn becomes a row: the look-ahead's two parts (``tanh(leaf / scale)`` and the
planner's value, as the master adds them), the leaf on the points' scale, whether the leaf is the game's end, and
the 84 terms of ``bench/sibling_terms.py`` (standardized). A score is fitted so that for every pair of sibling turns
whose margins differ, the one that leads to the wider margin scores higher (a pairwise logistic loss, RankNet's,
each pair counted once; the master's score is where the fit starts):

* ``linear``: a weight per column, the ridge pulling every weight but the look-ahead's two towards 0;
* ``net``: the linear score beside one hidden layer of tanh units on the same columns.

The ridge (and the hidden layer's size) is chosen on the fitted games alone: fitted on their first three quarters,
judged on the last quarter by the pairs ordered, then fitted again on all of them. Printed: for the master's score
and each fit, the pairs ordered and the regret (the margin its first choice gives up against the best sibling, in
points) on the fitted games and on the held-out ones, the split ``bench/sibling_turns.py`` uses.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from sibling_terms import load  # noqa: E402
from sibling_turns import concordance, split  # noqa: E402

from torres.ai.base import make_bot  # noqa: E402

Start = dict[str, Any]
RIDGES = (0.001, 0.01, 0.1, 1.0)
HIDDEN = (8, 16)


def rows(starts: Sequence[Start], names: Sequence[str], scale: float) -> np.ndarray:
    """Every judged turn's columns, turn start after turn start."""
    out = []
    for start in starts:
        for t in start["turns"]:
            columns = t["columns"]
            out.append([math.tanh(t["leaf"] / scale), t["prior"], t["leaf"] / scale, 0.0 if columns else 1.0]
                       + [columns.get(n, 0.0) for n in names])
    return np.array(out, float)


def pairs(starts: Sequence[Start]) -> tuple[np.ndarray, np.ndarray]:
    """Row indices (better, worse) of every pair of sibling turns whose margins differ."""
    better, worse = [], []
    first = 0
    for start in starts:
        margins = [t["margin"] for t in start["turns"]]
        for i, mi in enumerate(margins):
            for j, mj in enumerate(margins):
                if mi > mj:
                    better.append(first + i)
                    worse.append(first + j)
        first += len(margins)
    return np.array(better, int), np.array(worse, int)


@dataclass
class Ranker:
    """A fitted score on standardized columns: ``x · w + v · tanh(x · W + b)`` (no hidden layer when ``v`` is
    empty)."""

    mean: np.ndarray
    spread: np.ndarray
    w: np.ndarray
    W: np.ndarray
    b: np.ndarray
    v: np.ndarray

    def score(self, x: np.ndarray) -> np.ndarray:
        z = (x - self.mean) / self.spread
        out = z @ self.w
        if self.v.size:
            out = out + np.tanh(z @ self.W + self.b) @ self.v
        return np.asarray(out, float)


def fit(x: np.ndarray, better: np.ndarray, worse: np.ndarray, ridge: float, hidden: int, prior: float,
        steps: int = 1500, seed: int = 0) -> Ranker:
    """The pairwise logistic fit (full batch, Adam), started from the master's score."""
    mean, spread = x.mean(0), x.std(0)
    mean[:2], spread[:2] = 0.0, 1.0  # the look-ahead's own two parts stay as the master adds them
    spread[spread == 0] = 1.0
    z = (x - mean) / spread
    rng = np.random.default_rng(seed)
    w = np.zeros(z.shape[1])
    w[0], w[1] = 1.0, prior
    W = rng.normal(0.0, 0.1, (z.shape[1], hidden))
    b = np.zeros(hidden)
    v = np.zeros(hidden)
    params = [w, W, b, v]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    shrunk = np.ones_like(w)
    shrunk[:2] = 0.0
    n = max(1, len(better))
    for step in range(1, steps + 1):
        h = np.tanh(z @ W + b) if hidden else np.zeros((len(z), 0))
        s = z @ w + (h @ v if hidden else 0.0)
        d = s[better] - s[worse]
        g_pair = -1.0 / (1.0 + np.exp(np.clip(d, -50, 50))) / n  # d(mean softplus(-d)) / d(d)
        g_s = np.zeros(len(z))
        np.add.at(g_s, better, g_pair)
        np.add.at(g_s, worse, -g_pair)
        grads = [z.T @ g_s + 2 * ridge * shrunk * w, np.zeros_like(W), np.zeros_like(b), np.zeros_like(v)]
        if hidden:
            grads[3] = h.T @ g_s + 2 * ridge * v
            g_h = np.outer(g_s, v) * (1 - h * h)
            grads[1] = z.T @ g_h + 2 * ridge * W
            grads[2] = g_h.sum(0)
        for p, g, m, q in zip(params, grads, moments, squares):
            m *= 0.9
            m += 0.1 * g
            q *= 0.999
            q += 0.001 * g * g
            p -= 0.01 * (m / (1 - 0.9 ** step)) / (np.sqrt(q / (1 - 0.999 ** step)) + 1e-8)
    return Ranker(mean, spread, w, W if hidden else np.zeros((z.shape[1], 0)), b if hidden else np.zeros(0),
                  v if hidden else np.zeros(0))


def measure(starts: Sequence[Start], ranker: Ranker | None, names: Sequence[str], scale: float,
            prior: float) -> tuple[float, float]:
    """Pairs ordered and regret of the ranker (None: the master's score) on ``starts``."""
    def score(turns: list[dict[str, Any]], _: Any = None) -> Sequence[float]:
        x = rows([{"turns": turns}], names, scale)
        values = x[:, 0] + prior * x[:, 1] if ranker is None else ranker.score(x)
        return [float(v) for v in values]
    agree, _, regret = concordance(list(starts), score)
    return agree, regret


def choose(train: list[Start], names: Sequence[str], scale: float, prior: float,
           hidden_sizes: Sequence[int]) -> tuple[float, int]:
    """The ridge and hidden size that order the most pairs of the fitted games' last quarter, fitted on the rest."""
    inner, check, _ = split(train, 0.25)
    x = rows(inner, names, scale)
    better, worse = pairs(inner)
    best = (-1.0, RIDGES[0], hidden_sizes[0])
    for hidden in hidden_sizes:
        for ridge in RIDGES:
            agree, _ = measure(check, fit(x, better, worse, ridge, hidden, prior), names, scale, prior)
            print(f"  inner check: hidden {hidden}, ridge {ridge:g}: {agree:.3f}")
            if agree > best[0]:
                best = (agree, ridge, hidden)
    return best[1], best[2]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the --data file of bench/sibling_turns.py")
    parser.add_argument("--held-out", type=float, default=0.25)
    parser.add_argument("--save", type=Path, help="write the net's fit here (JSON: its terms and weights)")
    args = parser.parse_args(argv)
    search = make_bot("master").search  # type: ignore[attr-defined]
    scale, prior = search.scale, search.prior
    train, test, _ = split(load(args.data), args.held_out)
    names = sorted({n for start in train for t in start["turns"] for n in t["columns"]})
    print(f"{len(train)} fitted turn starts, {len(test)} held out, {len(names)} terms")
    print("ranking | fitted games: pairs, regret | held out: pairs, regret")
    base_train, base_test = measure(train, None, names, scale, prior), measure(test, None, names, scale, prior)
    print(f"the master's score | {base_train[0]:.3f}, {base_train[1]:.2f} | {base_test[0]:.3f}, {base_test[1]:.2f}")
    x = rows(train, names, scale)
    better, worse = pairs(train)
    for label, sizes in (("linear", (0,)), ("net", HIDDEN)):
        ridge, hidden = choose(train, names, scale, prior, sizes)
        ranker = fit(x, better, worse, ridge, hidden, prior)
        fitted, held = measure(train, ranker, names, scale, prior), measure(test, ranker, names, scale, prior)
        print(f"{label} (ridge {ridge:g}, hidden {hidden}) | {fitted[0]:.3f}, {fitted[1]:.2f} | {held[0]:.3f} "
              f"({(held[0] - base_test[0]) * 100:+.2f}), {held[1]:.2f}")
        if args.save and label == "net":
            args.save.write_text(json.dumps({"names": list(names), "scale": scale, **{
                key: getattr(ranker, key).tolist() for key in ("mean", "spread", "w", "W", "b", "v")}}))


if __name__ == "__main__":
    main()
