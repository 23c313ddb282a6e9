#!/usr/bin/env python3
"""Tune evaluation weights by play: SPSA over paired 2-player games (issue #14, docs/strength-log.md).

    .venv/bin/python scripts/tune_spsa.py --iterations 240 --jobs 2 --seed 1 --out spsa.jsonl

Every iteration draws a random sign for each weight, builds two bots whose weights differ by ±c in every weight at
once, and lets them play ``jobs`` pairs of games; a pair is one deal played twice with the seats swapped, so the
deal's luck cancels. The result ``r`` is the mean over the games of tanh(score difference / ``--scale``), 20 by
default: a smooth win, with the score margin breaking the many near-ties; a smaller scale is closer to a plain
win. Each weight moves by a·r / (2c·sign), in units of its own c.
Gains a and c shrink as in Spall (1998) (exponents 0.602 and 0.101). One line of JSON per iteration goes to
``--out``; the line holds the weights after it and their running mean over the second half of the run (Polyak
averaging: the mean is the estimate to test, the last point is noisier). Seeds fix the deals, the bots and the
signs, so a run replays exactly (bots use evaluation budgets, not clocks).

With ``--field SPEC`` the two bots do not meet: each plays the same deal from the same seat against ``players - 1``
copies of SPEC (the seat moves from pair to pair), and ``r`` is half the difference of tanh(margin / scale), the
margin being the bot's score minus the best other score (a way to tune 3–4-player weights). ``--field A,B``
names several fields: the pairs of an iteration take them in turn (``--jobs 2``: one pair against each), so that
weights tuned against one bot do not learn that bot's weaknesses alone.

``--rules`` given more than once names several boards or editions (for instance starting castles drawn by
``bench/castle_sets.py``): the pairs take them in turn across the run (pair ``j`` of iteration ``k`` the
``(k·jobs + j)``-th), so that weights tuned without cards do not learn the hundred-odd games of one board
(docs/strength-log.md: a new seed replays them).

``--resume`` goes on with the run in ``--out`` (given the same arguments): the logged iterations are kept and
checked against the command's seeded sign draws, boards and fields, and the run continues from the last logged
weights, so a run that was stopped (or killed mid-iteration) ends as the whole run would have. The log keeps the
weights at full precision for that; a log of 4 decimals (before the option) resumes within 0.00005 of each weight.

The weights found are a candidate only: keep them if a seeded match at the level's width says they win.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
from multiprocessing import get_context
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from torres.ai.base import make_bot  # noqa: E402
from torres.ai.collector import settle, tune_for_search  # noqa: E402
from torres.cli.tournament import draw_setup  # noqa: E402
from torres.engine import GameState, Rules  # noqa: E402

#: name:start:c:lowest allowed value, where c is the size of a perturbation; the start is the first master's
#: 2-player weights (later=0.6, the rest tuned), where docs/strength-log.md's first run began.
DEFAULT_PARAMS = "later:0.6:0.1:0,reach:0.6:0.1:0,card:3:0.5:0,reserve:4:0.6:0,king:1:0.25:0,decay:0.5:0.07:0.05"


def parse_params(text: str) -> dict[str, tuple[float, float, float]]:
    out = {}
    for item in text.split(","):
        name, start, c, low = item.split(":")
        out[name] = (float(start), float(c), float(low))
    return out


def spec(base: str, weights: dict[str, float]) -> str:
    return base + "".join(f":{k}={v:.4f}" for k, v in weights.items())


def play(specs: list[str], seed: int, rules: Rules, random_setup: bool = False) -> list[int]:
    """One game, seat by seat; the final scores. With ``random_setup`` the decisions before the first turn are
    drawn at random from ``seed`` (without cards nothing is left to chance after them: every deal would be the same
    game)."""
    state = GameState(len(specs), seed, rules)
    if random_setup:
        draw_setup(state, random.Random(seed))
    bots = [make_bot(spec, seed * 16 + s) for s, spec in enumerate(specs)]
    while not state.is_over():
        state.push(bots[state.current].choose(state.view(state.current)))
        settle()
    return list(state.scores)


def margin(scores: list[int], seat: int) -> int:
    """A seat's score minus the best other score."""
    return scores[seat] - max(v for s, v in enumerate(scores) if s != seat)


def play_pair(task: tuple[str, str, int, str, str, int, bool]) -> list[int]:
    """One deal played twice. Without a field: the seats swapped, the first bot's margin in each game. With one:
    each bot in seat ``seed % players`` against the field, each one's margin."""
    first, second, seed, rules_text, field, players, random_setup = task
    rules = Rules.from_text(rules_text)
    if not field:
        return [margin(play([first, second], seed, rules, random_setup), 0),
                margin(play([second, first], seed, rules, random_setup), 1)]
    seat = seed % players
    out = []
    for bot in (first, second):
        specs = [field] * players
        specs[seat] = bot
        out.append(margin(play(specs, seed, rules, random_setup), seat))
    return out


def read_log(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The iterations a run logged, and the bytes their lines take: a last line cut short (the run killed while
    writing it) is left out, as its iteration is played again."""
    if not path.exists():
        return [], 0
    lines = path.read_bytes().splitlines(keepends=True)
    if lines and not lines[-1].endswith(b"\n"):
        lines.pop()
    try:
        rows = [json.loads(line) for line in lines]
    except ValueError as error:
        raise ValueError(f"{path} is not a tuning log: {error}") from None
    if not all(isinstance(row, dict) and isinstance(row.get("theta"), dict)
               and all(isinstance(v, (int, float)) for v in row["theta"].values()) for row in rows):
        raise ValueError(f"{path} is not a tuning log: a line holds no weights")
    return rows, sum(map(len, lines))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="greedy:width=12:budget=4000:eval=master")
    parser.add_argument("--params", default=DEFAULT_PARAMS, help="name:start:c:low,... (default %(default)s)")
    parser.add_argument("--iterations", type=int, default=240)
    parser.add_argument("--jobs", type=int, default=2, help="pairs per iteration, played in parallel")
    parser.add_argument("--a", type=float, default=0.6, help="the first step, in units of c, for r = 1")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", action="append",
                        help="the rules text (default riogrande); more than once: the pairs take them in turn")
    parser.add_argument("--random-setup", action="store_true",
                        help="draw each deal's first knights and king at random (needed without cards)")
    parser.add_argument("--field", default="",
                        help="tune against this bot in the other seats, or against each of A,B,... in turn "
                             "(default: ± meet)")
    parser.add_argument("--players", type=int, default=2, help="players per game (with --field)")
    parser.add_argument("--scale", type=float, default=20.0,
                        help="the margin that counts tanh(1) = 0.76 of a win (smaller: closer to a plain win)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--resume", action="store_true",
                        help="go on with the run in --out (the same arguments): its iterations are kept")
    args = parser.parse_args(argv)
    boards = args.rules or ["riogrande"]
    for text in boards:
        try:
            Rules.from_text(text)
        except ValueError as error:
            parser.error(f"--rules {text}: {error}")

    params = parse_params(args.params)
    names = list(params)
    theta = {k: params[k][0] for k in names}
    big_a = max(1, args.iterations // 10)
    a = args.a * (big_a + 1) ** 0.602  # so that the first step is args.a (in units of c) for r = 1
    rng = random.Random(args.seed)
    mean = dict(theta)
    averaged = 0
    fields = args.field.split(",") if args.field else [""]

    def draw_signs() -> dict[str, int]:
        return {n: rng.choice((-1, 1)) for n in names}

    def settings(k: int) -> tuple[list[str], list[str]]:
        """The boards and fields of iteration ``k``'s pairs."""
        return ([boards[(k * args.jobs + j) % len(boards)] for j in range(args.jobs)],
                [fields[j % len(fields)] for j in range(args.jobs)])

    try:
        kept, kept_bytes = read_log(args.out) if args.resume else ([], 0)
    except ValueError as error:
        parser.error(f"--resume: {error}")
    if len(kept) >= args.iterations:
        parser.error(f"--resume: {args.out} already holds {len(kept)} iterations of {args.iterations}")
    for k, row in enumerate(kept):  # the seeded draws are replayed, so the run goes on as it would have
        signs = draw_signs()
        if (row.get("iteration"), row.get("signs"), (row.get("rules"), row.get("fields"))) != (k, signs, settings(k)) \
                or set(row.get("theta", ())) != set(names):
            parser.error(f"--resume: line {k + 1} of {args.out} was not written by this command "
                         "(its seed, weights, boards or fields differ)")
        theta = {n: float(row["theta"][n]) for n in names}
        if k >= args.iterations // 2:
            averaged += 1
            mean = {n: mean[n] + (theta[n] - mean[n]) / averaged for n in names} if averaged > 1 else dict(theta)
    if kept:
        os.truncate(args.out, kept_bytes)  # (only a line cut short by a kill goes; the log is never rewritten)
    with get_context("fork").Pool(args.jobs) as pool, args.out.open("a" if kept else "w") as log:
        for k in range(len(kept), args.iterations):
            ck = 1 / (k + 1) ** 0.101  # perturbation, in units of each weight's c
            ak = a / (big_a + k + 1) ** 0.602
            signs = draw_signs()
            plus = {n: max(params[n][2], theta[n] + ck * params[n][1] * signs[n]) for n in names}
            minus = {n: max(params[n][2], theta[n] - ck * params[n][1] * signs[n]) for n in names}
            rules, versus = settings(k)
            tasks = [(spec(args.base, plus), spec(args.base, minus), args.seed * 1_000_003 + k * 64 + j,
                      rules[j], versus[j], args.players, args.random_setup) for j in range(args.jobs)]
            pairs = pool.map(play_pair, tasks)
            margins = [m for pair in pairs for m in pair]
            if args.field:
                r = sum(math.tanh(p / args.scale) - math.tanh(m / args.scale) for p, m in pairs) / (2 * len(pairs))
            else:
                r = sum(math.tanh(m / args.scale) for m in margins) / len(margins)
            for n in names:
                step = ak * r / (2 * ck * signs[n]) * params[n][1]
                theta[n] = max(params[n][2], theta[n] + step)
            if k >= args.iterations // 2:
                averaged += 1
                mean = {n: mean[n] + (theta[n] - mean[n]) / averaged for n in names} if averaged > 1 else dict(theta)
            log.write(json.dumps({"iteration": k, "r": round(r, 4), "margins": margins,
                                  "fields": [task[4] for task in tasks], "rules": [task[3] for task in tasks],
                                  "signs": signs,
                                  "theta": theta, "mean": mean}) + "\n")
            log.flush()
            print(k, f"r={r:+.2f}", " ".join(f"{n}={theta[n]:.3f}" for n in names), flush=True)


if __name__ == "__main__":
    tune_for_search()  # (the forked workers inherit it)
    main()
