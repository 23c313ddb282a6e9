"""``python -m torres.env.bench``: environment steps per second with masked-random agents, against the engine's
own random playouts measured in the same run.

Series (whole games from a seeded start, ``--reps`` repetitions of ``--seconds`` each, interleaved so that machine
load drifts alike; medians reported):

* ``engine``: ``ids = game.legal_action_ids(); game.apply(ids[rng.randrange(len(ids))])`` — the bare engine;
* ``raw_env``: ``torres_v0.raw_env`` driven the PettingZoo way — ``obs, ... = env.last()``, a masked-random pick,
  ``env.step(a)``; the steps of the agents leaving at the end are included, only actions are counted;
* ``env``: the same through ``torres_v0.env()`` (PettingZoo's order, bounds and illegal-move wrappers).

``env µs/step`` is the time spent inside ``last`` and ``step`` per action (the agent's pick excluded), compared
with the engine's µs per action: the goal is at most 2×. ``loop µs/step`` includes the pick (a scan of the
20,936-entry mask).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from ..engine.state import GameState
from .aec import env as make_env, raw_env


@dataclass
class Series:
    name: str
    steps_per_second: list[float] = field(default_factory=list)  # whole loop, per repetition
    env_us: list[float] = field(default_factory=list)  # µs per action inside the environment (last + step)

    @property
    def median_sps(self) -> float:
        return statistics.median(self.steps_per_second)

    @property
    def median_env_us(self) -> float:
        return statistics.median(self.env_us) if self.env_us else 1e6 / self.median_sps


def _engine(players: int, rules: str, seconds: float, seed: int) -> tuple[float, float]:
    from ..engine.rules import Rules

    r = Rules.from_text(rules)
    rng = random.Random(seed)
    steps, game_no = 0, 0
    t0 = time.perf_counter()
    while True:
        game = GameState(players, seed * 1000 + game_no, r)
        game_no += 1
        while not game.is_over():
            ids = game.legal_action_ids()
            game.apply(ids[rng.randrange(len(ids))])
            steps += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return steps / elapsed, 1e6 * elapsed / steps


def _env(factory: Callable[[], Any], seconds: float, seed: int) -> tuple[float, float]:
    env = factory()
    rng = random.Random(seed)
    clock = time.perf_counter
    steps, game_no, inside = 0, 0, 0.0
    t0 = clock()
    while True:
        env.reset(seed=seed * 1000 + game_no)
        game_no += 1
        while env.agents:
            t1 = clock()
            obs, _reward, terminated, truncated, _info = env.last()
            t2 = clock()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
                steps += 1
            t3 = clock()
            env.step(action)
            inside += (t2 - t1) + (clock() - t3)
        elapsed = clock() - t0
        if elapsed >= seconds:
            return steps / elapsed, 1e6 * inside / steps


def run(players: int = 2, rules: str = "riogrande", seconds: float = 1.0, reps: int = 5,
        seed: int = 0) -> list[Series]:
    engine, raw, wrapped = Series("engine"), Series("raw_env"), Series("env")
    for rep in range(reps):
        sps, us = _engine(players, rules, seconds, seed + rep)
        engine.steps_per_second.append(sps)
        engine.env_us.append(us)
        for series, factory in ((raw, lambda: raw_env(players=players, rules=rules)),
                                (wrapped, lambda: make_env(players=players, rules=rules))):
            sps, us = _env(factory, seconds, seed + rep)
            series.steps_per_second.append(sps)
            series.env_us.append(us)
    return [engine, raw, wrapped]


def table(results: list[Series]) -> str:
    base = results[0].median_env_us
    rows = [f"{'series':<9} {'steps/s':>10} {'loop µs/step':>13} {'env µs/step':>12} {'× engine':>9}"]
    for s in results:
        rows.append(f"{s.name:<9} {s.median_sps:>10,.0f} {1e6 / s.median_sps:>13.1f} {s.median_env_us:>12.1f} "
                    f"{s.median_env_us / base:>9.2f}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m torres.env.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rules", default="riogrande")
    parser.add_argument("--seconds", type=float, default=1.0, help="per series and repetition")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    results = run(args.players, args.rules, args.seconds, args.reps, args.seed)
    print(f"torres env bench: {args.players} players, {args.rules}, medians of {args.reps} × {args.seconds:g} s")
    print(table(results))


if __name__ == "__main__":
    main()
