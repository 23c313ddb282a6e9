"""How well the master's evaluation at a turn start predicts the game's final margin, against a line fitted to its
raw terms.

    .venv/bin/python bench/leaf_fit.py --bots expert,expert --rules riogrande --seed 51 --games 1500 --jobs 2

The look-ahead scores each turn it judges by the evaluation two simulated turns later, at a turn start. This plays
``--games`` games with random setups (``torres tournament --random-setup``: the tournament's own start), records
every turn start, and for each kind of turn start (phase, round, and whether the seat judged is the one to move)
compares, on the last ``--held-out`` share of the games:

* ``evaluation``: the master's evaluation with a slope and an intercept fitted per kind (so neither its scale nor
  the advantage of moving first counts against it), and
* ``line``: a least-squares line (ridge 1) from the raw terms the evaluation is built from: track-score, castle-point,
  king's-bonus, card and reserve-knight differences, each seat's climbing potential and its best and second-best
  single climb.

It prints the root-mean-square error of the final margin of each, per kind (both seats' views of a turn start are
mirror images, so only the seat to move's is shown), the evaluation's fitted slope and intercept, and the line's
weight on the track-score difference. ``--save FILE`` writes the lines of the kinds from ``--save-from`` on (phase
and round) as JSON, the form the experiment in docs/experiments/turns-before-the-scoring.diff reads. A line that
predicts the margin better is not a better leaf for the look-ahead by itself: docs/strength-log.md has the matches
with it inside.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from torres.ai.collector import tune_for_search  # noqa: E402
from torres.ai.evaluate import MASTER_WEIGHTS, _board_position, evaluate, raw_terms  # noqa: E402
from torres.cli.tournament import start_game, turn_of  # noqa: E402
from torres.engine import GameState  # noqa: E402
from torres.engine.stage import Stage  # noqa: E402

#: (phase, round, whether the seat judged is the one to move)
Kind = tuple[int, int, int]
Row = tuple[list[float], float, float]  # the line's inputs, the evaluation, the final margin
FEATURES = ("1", "score", "castles", "king", "potential", "rival potential", "best climb", "rival best climb",
            "second climb", "rival second climb", "cards", "reserve")


def inputs(state: GameState, seat: int) -> list[float]:
    """The line's inputs for ``seat`` in a 2-player ``state``: differences to the rival, or each side's own."""
    terms = raw_terms(state, MASTER_WEIGHTS)  # castle points, king's bonus, potential, cards, reserve, master
    own, rival = terms[seat], terms[1 - seat]
    climbs = [sorted(gains, reverse=True) + [0.0, 0.0] for gains in climb_gains(state)]
    return [1.0, float(state.scores[seat] - state.scores[1 - seat]), own[0] - rival[0], own[1] - rival[1], own[2],
            rival[2], climbs[seat][0], climbs[1 - seat][0], climbs[seat][1], climbs[1 - seat][1],
            own[3] - rival[3], own[4] - rival[4]]


def climb_gains(state: GameState) -> list[list[float]]:
    """Each seat's knights' best climbing gains, as the evaluation finds them (not among its public terms)."""
    _, boards, _, _ = _board_position(state, MASTER_WEIGHTS)
    return [board[3] for board in boards]


def play(args: tuple[list[str], int, str, int]) -> list[tuple[Kind, Row]]:
    """Every turn start of game ``g``, from both seats' views, with the game's final margin."""
    bots, game, rules_text, seed = args
    tune_for_search()
    start = start_game(bots, game, 2, rules_text, seed, random_setup=True)
    state, seats = start.state, start.seats
    seen: list[tuple[Kind, list[float], float, int]] = []
    turn: tuple[int, ...] = ()
    while not state.is_over():
        if turn_of(state) != turn:
            turn = turn_of(state)
            if state.stage is Stage.TURN:
                for seat in range(2):
                    kind = (state.phase, state.round, int(state.current == seat))
                    seen.append((kind, inputs(state, seat), evaluate(state, seat, MASTER_WEIGHTS), seat))
        state.push(seats[state.current].choose(state.view(state.current)))
    final = state.scores
    return [(kind, (x, value, float(final[seat] - final[1 - seat]))) for kind, x, value, seat in seen]


def fit_line(rows: list[Row], ridge: float = 1.0) -> np.ndarray:
    x = np.array([r[0] for r in rows])
    y = np.array([r[2] for r in rows])
    penalty = ridge * np.eye(x.shape[1])
    penalty[0, 0] = 0.0  # (the intercept is not shrunk)
    return np.linalg.solve(x.T @ x + penalty, x.T @ y)


def rmse(predicted: np.ndarray, actual: np.ndarray) -> float:
    return float(np.sqrt(np.mean((predicted - actual) ** 2)))


@dataclass
class Comparison:
    held_out: int  # turn starts of the held-out games
    evaluation: float  # the RMSE of the final margin predicted by the evaluation, slope and intercept fitted
    line: float  # ... by the line
    slope: float  # the evaluation's fitted slope and intercept
    intercept: float
    coefficients: list[float]  # the line's, one per FEATURES

    @property
    def score(self) -> float:
        """The line's weight on the track-score difference."""
        return self.coefficients[FEATURES.index("score")]


def compare(games: list[list[tuple[Kind, Row]]], held_out: float) -> dict[Kind, Comparison]:
    """Per kind of turn start: the evaluation and the line fitted on the first games, measured on the rest."""
    cut = int(len(games) * (1 - held_out))
    train: dict[Kind, list[Row]] = {}
    test: dict[Kind, list[Row]] = {}
    for g, rows in enumerate(games):
        for kind, row in rows:
            (train if g < cut else test).setdefault(kind, []).append(row)
    result = {}
    for kind in sorted(set(train) & set(test)):
        line = fit_line(train[kind])
        values = np.array([r[1] for r in train[kind]])
        slope, intercept = np.polyfit(values, [r[2] for r in train[kind]], 1)
        x = np.array([r[0] for r in test[kind]])
        actual = np.array([r[2] for r in test[kind]])
        fitted = slope * np.array([r[1] for r in test[kind]]) + intercept
        result[kind] = Comparison(len(actual), rmse(fitted, actual), rmse(x @ line, actual), float(slope),
                                  float(intercept), [float(c) for c in line])
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="expert,expert")
    parser.add_argument("--rules", default="riogrande")
    parser.add_argument("--seed", type=int, default=51)
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--held-out", type=float, default=0.2)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--save", help="write the lines of the kinds from --save-from on to this JSON file")
    parser.add_argument("--save-from", default="2,3", help="phase,round (from 1): the first kind saved")
    args = parser.parse_args(argv)
    tasks = [(args.bots.split(","), g, args.rules, args.seed) for g in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        games = list(pool.map(play, tasks, chunksize=4))
    print(f"{args.games} games ({args.bots}, {args.rules}, --seed {args.seed}), the last {args.held_out:.0%} held out")
    print("phase round | turn starts | RMSE: evaluation (fitted) | line | evaluation's slope, intercept | "
          "line's score coefficient")
    compared = compare(games, args.held_out)
    for (phase, rnd, to_move), c in compared.items():
        if to_move:
            print(f"{phase + 1} {rnd + 1} | {c.held_out} | {c.evaluation:.2f} | {c.line:.2f} | {c.slope:.2f}, "
                  f"{c.intercept:+.1f} | {c.score:.2f}")
    if args.save:
        first = tuple(int(n) - 1 for n in args.save_from.split(","))
        saved = {f"{p},{r},{m}": c.coefficients for (p, r, m), c in compared.items() if (p, r) >= first}
        Path(args.save).write_text(json.dumps(saved, indent=1) + "\n")


if __name__ == "__main__":
    main()
