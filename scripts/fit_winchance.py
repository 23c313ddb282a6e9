#!/usr/bin/env python3
"""Fit the win-chance model (torres/ai/winchance.py) on self-play games and check its calibration.

    nice -n 10 .venv/bin/python scripts/fit_winchance.py            # writes torres/data/winchance.json

Games: for 2, 3 and 4 players, expert against expert and the master against experts (the master in a seat that
moves round the table), on fixed seeds, so the fit is the same from run to run. After every turn's ``end`` each
seat's projected points (the master evaluation's ``seat_values``), its turns left and the share of the game played
are taken, with the game's result. For each player count:

* ``tempo``: the mean gain of the seat that moves, over its turn, in projected points relative to the mean of the
  others' (what a turn adds that the evaluation does not count before it is played); with ``tempo`` points per
  turn left, a seat's value does not rise on average over its own turn;
* ``k``: the sharpness of maximum likelihood of the winners under ``softmax(k · (points + tempo · turns left))`` in
  each tenth of the game, then ``log k = a + b · progress`` by least squares over the tenths, weighted by their
  samples.

Games 0, 1, 4, 5, 8, ... fit the model and games 2, 3, 6, 7, ... check it (both line-ups in each half): the
calibration table (predicted chance against the share of wins, in bins) comes from games the fit did not see.
``--samples FILE`` keeps the games' samples in a file and reads them from there when it exists (to refit without
playing again).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from torres.ai.base import make_bot  # noqa: E402
from torres.ai.collector import tune_for_search  # noqa: E402
from torres.ai.evaluate import EVALUATIONS, seat_values  # noqa: E402
from torres.ai.winchance import WinChance, progress, softmax, turns_left  # noqa: E402
from torres.engine.state import GameState, Stage  # noqa: E402

EVALUATION = "master"
BINS = 10
#: Game seeds start here (far from the seeds the tests and benches use).
SEED = 35_000

Sample = tuple[int, float, list[float], list[float]]  # game, progress, projected points (+ tempo · turns left), shares


def play(players: int, game: int, lineup: list[str]) -> list[Sample]:
    """One game between ``lineup`` (a bot per seat): a sample after every turn's end, labelled with the result."""
    state = GameState(players, SEED + 1000 * players + game)
    bots = [make_bot(spec, SEED + 10 * game + seat) for seat, spec in enumerate(lineup)]
    weights = EVALUATIONS[EVALUATION]
    taken: list[tuple[float, list[float], list[int]]] = []
    while not state.is_over():
        in_turn = state.stage is Stage.TURN or state.stage is Stage.KEEP
        key = (state.phase, state.round, state.turn, state.current) if in_turn else None
        seat = state.current
        state.push(bots[seat].choose(state.view(seat)))
        now_in_turn = state.stage is Stage.TURN or state.stage is Stage.KEEP
        now = (state.phase, state.round, state.turn, state.current) if now_in_turn else None
        if key is not None and now != key and not state.is_over():
            taken.append((progress(state), seat_values(state, weights), turns_left(state)))
    winners = state.winners()
    shares = [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
    return [(game, share, values, left, shares) for share, values, left in taken]  # type: ignore[misc]


def lineups(players: int, games: int) -> list[list[str]]:
    """Expert against expert in half the games, the master against experts in the other half (seat rotating)."""
    out = []
    for game in range(games):
        seats = ["expert"] * players
        if game % 2:
            seats[(game // 2) % players] = "master"
        out.append(seats)
    return out


def with_tempo(samples: list[Any], tempo: float) -> list[Sample]:
    return [(game, share, [v + tempo * n for v, n in zip(values, left)], shares)
            for game, share, values, left, shares in samples]


def log_likelihood(samples: list[Sample], k: float) -> float:
    total = 0.0
    for _, _, values, shares in samples:
        chances = softmax(values, k)
        total += sum(y * math.log(max(p, 1e-12)) for p, y in zip(chances, shares) if y)
    return total


def best_k(samples: list[Sample]) -> float:
    """The sharpness of maximum likelihood (concave in k: a golden-section search on log k)."""
    lo, hi = math.log(1e-4), math.log(50.0)
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if log_likelihood(samples, math.exp(a)) < log_likelihood(samples, math.exp(b)):
            lo = a
        else:
            hi = b
    return math.exp((lo + hi) / 2)


def tenths_of(samples: list[Sample]) -> list[dict[str, Any]]:
    """The sharpness of maximum likelihood in each tenth of the game, with that tenth's likelihood."""
    tenths = []
    for i in range(BINS):
        part = [s for s in samples if i / BINS <= s[1] < (i + 1) / BINS or (i == BINS - 1 and s[1] >= 1.0)]
        if len(part) >= 5:
            k = best_k(part)
            tenths.append({"progress": round((i + 0.5) / BINS, 2), "samples": len(part), "k": k,
                           "log_likelihood": log_likelihood(part, k)})
    return tenths


def tempo_of(samples: list[Any]) -> float:
    """The mean gain of the mover over its turn, relative to the mean of the other seats, from one sample to the
    next within a game (the mover: the one seat whose turns left went down by one)."""
    gains = []
    for before, after in zip(samples, samples[1:]):
        if before[0] != after[0]:
            continue
        movers = [s for s, (a, b) in enumerate(zip(before[3], after[3])) if b == a - 1]
        if len(movers) != 1 or any(b != a for s, (a, b) in enumerate(zip(before[3], after[3])) if s != movers[0]):
            continue  # (a phase's end: every seat's count moves)
        mover = movers[0]
        deltas = [b - a for a, b in zip(before[2], after[2])]
        others = [d for s, d in enumerate(deltas) if s != mover]
        gains.append(deltas[mover] - sum(others) / len(others))
    return sum(gains) / len(gains)


def fit(raw: list[Any]) -> tuple[tuple[float, float, float], list[dict[str, Any]]]:
    """(a, b, tempo): ``tempo`` by :func:`tempo_of`, then ``log k = a + b · progress`` over the tenths."""
    tempo = round(tempo_of(raw), 3)
    tenths = tenths_of(with_tempo(raw, tempo))
    w = [t["samples"] for t in tenths]
    x = [t["progress"] for t in tenths]
    y = [math.log(t["k"]) for t in tenths]
    sw = sum(w)
    mx, my = sum(wi * xi for wi, xi in zip(w, x)) / sw, sum(wi * yi for wi, yi in zip(w, y)) / sw
    sxx = sum(wi * (xi - mx) ** 2 for wi, xi in zip(w, x))
    b = sum(wi * (xi - mx) * (yi - my) for wi, xi, yi in zip(w, x, y)) / sxx
    for t in tenths:
        t["k"] = round(t["k"], 5)
        t["log_likelihood"] = round(t["log_likelihood"], 2)
    return (round(my - b * mx, 4), round(b, 4), tempo), tenths


def calibration(model: WinChance, samples: list[Any]) -> dict[str, Any]:
    """Predicted chance against the share of wins, in bins of the prediction, every seat of every sample; with the
    Brier score and log loss of the model and of a guess of 1/players."""
    bins = [[0, 0.0, 0.0] for _ in range(BINS)]
    brier = brier_base = log_loss = 0.0
    count = 0
    for _, share, values, left, shares in samples:
        chances = model.of_values(values, share, left)
        for p, y in zip(chances, shares):
            b = min(BINS - 1, int(p * BINS))
            bins[b][0] += 1
            bins[b][1] += p
            bins[b][2] += y
            brier += (p - y) ** 2
            brier_base += (1 / len(values) - y) ** 2
            count += 1
        log_loss -= sum(y * math.log(max(p, 1e-12)) for p, y in zip(chances, shares) if y)
    return {
        "bins": [{"from": i / BINS, "to": (i + 1) / BINS, "seats": n, "predicted": round(p / n, 3),
                  "observed": round(y / n, 3)} for i, (n, p, y) in enumerate(bins) if n],
        "brier": round(brier / count, 4), "brier_uniform": round(brier_base / count, 4),
        "log_loss": round(log_loss / len(samples), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs=3, default=[80, 60, 48], metavar=("TWO", "THREE", "FOUR"),
                        help="games per player count (2, 3, 4 players)")
    parser.add_argument("--out", type=Path, default=ROOT / "torres" / "data" / "winchance.json")
    parser.add_argument("--samples", type=Path, default=None, help="keep the games' samples here (and reuse them)")
    args = parser.parse_args()
    tune_for_search()
    params: dict[int, tuple[float, float, float]] = {}
    report: dict[str, Any] = {}
    held_out: dict[int, list[Any]] = {}
    started = time.process_time()
    kept = json.loads(args.samples.read_text()) if args.samples and args.samples.exists() else {}
    for players, games in zip((2, 3, 4), args.games):
        samples: list[Any] = kept.get(str(players), [])
        if not samples:
            for game, lineup in enumerate(lineups(players, games)):
                samples += play(players, game, lineup)
                print(f"{players} players: game {game + 1}/{games}, {time.process_time() - started:.0f} s CPU",
                      file=sys.stderr, flush=True)
            kept[str(players)] = samples
        train = [s for s in samples if s[0] % 4 < 2]
        held_out[players] = [s for s in samples if s[0] % 4 >= 2]
        params[players], tenths = fit(train)
        report[str(players)] = {"games": games, "samples": len(samples), "tenths": tenths}
    if args.samples:
        args.samples.write_text(json.dumps(kept), encoding="utf-8")
    model = WinChance(EVALUATION, params)
    for players in (2, 3, 4):
        report[str(players)]["held_out"] = calibration(model, held_out[players])
    data = {**model.to_json(),
            "fit": {"command": "nice -n 10 .venv/bin/python scripts/fit_winchance.py", "seed": SEED,
                    "lineups": "expert vs expert and master vs experts, alternating", "cpu_seconds":
                    round(time.process_time() - started), "by_players": report}}
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({n: report[n]["held_out"] for n in report}, indent=1))


if __name__ == "__main__":
    main()
