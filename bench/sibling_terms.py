"""Whether a term the evaluation does not count would let the master's look-ahead rank its sibling turns better.

    .venv/bin/python bench/sibling_turns.py --seed 905 --games 155 --jobs 2 --data /tmp/siblings.jsonl
    .venv/bin/python bench/sibling_terms.py /tmp/siblings.jsonl

The turn starts of ``bench/sibling_turns.py`` (its ``--data`` file) hold, for every turn the look-ahead judged, the
position its simulation reached (the leaf), the look-ahead's score and the margin the turn led to. This bench
computes terms on each leaf for the seat and its rival (their own values, and the seat's less the rival's):
``scripts/learn_eval.py``'s features (castle points, climbing potential, knights in reserve, blocks, knight levels,
castles held, headroom, knights on the ground, the level on the king's castle, and products with the turns left
before the scoring) and six more (:data:`NEW`): the best single climb, the best climbs the turns before the scoring
can cash, climbs two knights count on one castle, castle points on castles whose top the seat holds and on those it
does not, and the distance to the king's castle; the six also split by whether the leaf is in the last phase.

For each term the look-ahead's score becomes ``tanh((leaf + c · term) / scale) + prior · p`` (its leaf, scale,
prior and the planner's value ``p``, as the master scores a turn), with ``c`` the weight that orders the most pairs
of sibling turns on the fitted games (a grid around the fit of margin ≈ a · leaf + b · term within turn starts,
``c = b / a``). The games and pairs are those of ``bench/sibling_turns.py``: fitted on the games before the last
``--held-out`` share, measured on the held-out ones. It prints, best first on the fitted games, each term's gain in
pairs ordered there and on the held-out games, and then all terms at once (a ridge fit within turn starts). A term is
chosen by its fitted games' gain only: the held-out figure of the first row is the one that says whether it helps.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

from learn_eval import FEATURES, seat_features, turns_before_scoring  # noqa: E402
from sibling_turns import concordance, split  # noqa: E402

from torres.ai.base import make_bot  # noqa: E402
from torres.ai.evaluate import _DISTANCES, MASTER_WEIGHTS, _board_position  # noqa: E402
from torres.engine import GameState  # noqa: E402
from torres.engine.scoring import castle_points  # noqa: E402

#: learn_eval's features that a game without cards and without the master version can tell apart
BASE = tuple(f for f in FEATURES if f not in ("master", "cards", "cards_turns"))
NEW = ("max_gain", "topk_reach", "shared", "tops", "exposed", "king_dist")
Start = dict[str, Any]


def new_terms(state: GameState) -> list[list[float]]:
    """A row of :data:`NEW` per seat (2 players)."""
    info = state.info
    h, cid, area, top = info.heights, info.cid, info.area, info.top
    _, boards, _, _ = _board_position(state, MASTER_WEIGHTS)
    king_castle = cid[state.king] if state.king >= 0 else -1
    rows = []
    for seat in range(2):
        squares = state.knights[seat]
        gains, targets = boards[seat][3], boards[seat][4]
        ranked = sorted(gains, reverse=True)
        cashable = max(1, turns_before_scoring(state, seat))
        by_castle: dict[int, list[float]] = {}
        for gain, target in zip(gains, targets):
            if target >= 0 and gain > 0:
                by_castle.setdefault(cid[target], []).append(gain)
        shared = sum(sum(g) - max(g) for g in by_castle.values())
        _, highest = castle_points(info, squares)
        tops = sum(area[c] * level for c, level in highest.items() if level >= h[top[c]])
        exposed = sum(area[c] * level for c, level in highest.items() if level < h[top[c]])
        king_distance = 8
        if king_castle >= 0:
            king_distance = min((_DISTANCES[sq][t] for sq in squares for t in info.squares[king_castle]), default=8)
        rows.append([ranked[0] if ranked else 0.0, sum(ranked[:cashable]), shared, float(tops), float(exposed),
                     float(king_distance)])
    return rows


def leaf_columns(state: GameState, seat: int) -> dict[str, float]:
    """Every term of the leaf ``state`` for ``seat`` by name (none at the game's end, where the evaluation is the
    final score alone)."""
    if state.is_over():
        return {}
    base, new = seat_features(state), new_terms(state)
    last_phase = 1.0 if state.phase >= 2 else 0.0
    columns: dict[str, float] = {}
    for name in BASE + NEW:
        rows, i = (base, FEATURES.index(name)) if name in BASE else (new, NEW.index(name))
        own, rival = rows[seat][i], rows[1 - seat][i]
        columns[f"own {name}"], columns[f"rival {name}"], columns[f"diff {name}"] = own, rival, own - rival
        if name in NEW:
            for side, value in (("own", own), ("rival", rival)):
                columns[f"{side} {name} last phase"] = value * last_phase
                columns[f"{side} {name} before"] = value * (1 - last_phase)
    return columns


Scorer = Callable[[list[dict[str, Any]], Any], Sequence[float]]


def scorer(scale: float, prior: float, weights: dict[str, float]) -> Scorer:
    """The look-ahead's score with ``weights`` × terms added to its leaf."""
    def score(turns: list[dict[str, Any]], _: Any = None) -> list[float]:
        return [math.tanh((t["leaf"] + sum(c * t["columns"].get(n, 0.0) for n, c in weights.items())) / scale)
                + prior * t["prior"] for t in turns]
    return score


def within(starts: list[Start], names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """The leaf and the named terms, and the margins, each turn start's means taken out."""
    xs, ys = [], []
    for start in starts:
        turns = start["turns"]
        x = np.array([[t["leaf"]] + [t["columns"].get(n, 0.0) for n in names] for t in turns], float)
        y = np.array([t["margin"] for t in turns], float)
        xs.append(x - x.mean(0))
        ys.append(y - y.mean())
    return np.vstack(xs), np.concatenate(ys)


def best_weight(train: list[Start], name: str, scale: float, prior: float) -> tuple[float, float, float]:
    """The term's weight that orders the most pairs of the fitted games (0: none does better than the master's
    score), the pairs it orders there, and the within-turn-start fit's weight b / a."""
    x, y = within(train, [name])
    (a, b), *_ = np.linalg.lstsq(x, y, rcond=None)
    fitted = float(b / a) if a > 0 else 0.0
    spread = float(x[:, 1].std()) or 1.0
    # weights that move a leaf by 1.25 to 10 points per standard deviation of the term, either way, and the fit's
    grid = sorted({fitted} | {sign * k * 1.25 / spread for k in range(1, 9) for sign in (-1, 1)})
    best, best_agree = 0.0, concordance(train, scorer(scale, prior, {}))[0]
    for c in grid:
        agree = concordance(train, scorer(scale, prior, {name: c}))[0]
        if agree > best_agree:
            best, best_agree = c, agree
    return best, best_agree, fitted


def all_terms(train: list[Start], names: Sequence[str], ridge: float) -> dict[str, float]:
    """Every term at once beside the leaf, standardized and ridge-fitted within turn starts, as weights on the
    leaf's scale (b / a)."""
    x, y = within(train, names)
    spread = x.std(0)
    spread[spread == 0] = 1.0
    z = x / spread
    penalty = ridge * np.eye(z.shape[1])
    penalty[0, 0] = 0.0  # (the leaf itself is not shrunk)
    coef = np.linalg.solve(z.T @ z + penalty, z.T @ y) / spread
    return {n: float(b / coef[0]) for n, b in zip(names, coef[1:])}


def load(path: Path) -> list[Start]:
    starts = [json.loads(line) for line in path.read_text().splitlines() if line]
    for start in starts:
        for turn in start["turns"]:
            if "position" not in turn:
                raise SystemExit(f"{path}: no leaf positions (written by an older bench/sibling_turns.py)")
            turn["columns"] = leaf_columns(GameState.from_position(turn["position"]), start["seat"])
    return starts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the --data file of bench/sibling_turns.py")
    parser.add_argument("--held-out", type=float, default=0.25)
    parser.add_argument("--top", type=int, default=20, help="terms printed")
    args = parser.parse_args(argv)
    search = make_bot("master").search  # type: ignore[attr-defined]
    scale, prior = search.scale, search.prior
    train, test, _ = split(load(args.data), args.held_out)
    for start in train + test:
        for t in start["turns"]:  # the data's score is the master's: leaf, scale and prior as read here
            if not math.isclose(t["score"], math.tanh(t["leaf"] / scale) + prior * t["prior"], abs_tol=1e-9):
                raise SystemExit("the data's scores are not this master's (another scale or prior)")
    master = scorer(scale, prior, {})
    base_train, base_test = concordance(train, master), concordance(test, master)
    print(f"{len(train)} fitted turn starts, {len(test)} held out; the master's score orders {base_train[0]:.3f} "
          f"of pairs there, {base_test[0]:.3f} held out (regret {base_test[2]:.2f} points)")
    names = sorted({n for start in train for t in start["turns"] for n in t["columns"]})
    rows = []
    for name in names:
        c, agree, fitted = best_weight(train, name, scale, prior)
        rows.append((agree - base_train[0], name, c, fitted))
    rows.sort(key=lambda row: -row[0])
    print("term | weight (fit) | pairs ordered, fitted games: gain | held out: pairs, gain | regret")
    for gain, name, c, fitted in rows[:args.top]:
        held, _, regret = concordance(test, scorer(scale, prior, {name: c}))
        print(f"{name} | {c:+.4f} ({fitted:+.4f}) | {gain * 100:+.2f} | {held:.3f}, {(held - base_test[0]) * 100:+.2f}"
              f" | {regret:.2f}")
    for ridge in (10.0, 100.0, 1000.0):
        weights = all_terms(train, names, ridge)
        fitted_agree = concordance(train, scorer(scale, prior, weights))[0]
        held, _, regret = concordance(test, scorer(scale, prior, weights))
        print(f"all {len(names)} terms, ridge {ridge:g} | fitted games {fitted_agree:.3f}, "
              f"{(fitted_agree - base_train[0]) * 100:+.2f} | held out {held:.3f}, "
              f"{(held - base_test[0]) * 100:+.2f} | {regret:.2f}")


if __name__ == "__main__":
    main()
