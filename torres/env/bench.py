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

``--batch N`` measures batched play instead, 2-player games of the learner against the ``random`` bot, the learner
picking uniformly among its mask, all in this one process (so per core):

* ``engine``: the engine's own random playouts, as above;
* ``single``: one ``single_agent_env``;
* ``separate×N``: N of them stepped one after another in a Python loop, observations stacked into one batch;
* ``vector×N``: ``vector_env(N)`` (gymnasium's ``SyncVectorEnv``), one ``step`` for the batch;
* ``features``: one ``single_agent_env(actions="features")``, which also computes every legal action's features.

Games per second compare them all (the engine's games are whole random games too); ``steps/s`` counts the learner's
steps (the bot's actions are inside them).
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


def _batched(make: Callable[[], Any], num_envs: int, vector: bool, seconds: float, seed: int) -> tuple[float, float]:
    """Learner steps/s and games/s of ``num_envs`` single-agent envs (stepped in a loop, or as one vector env)."""
    from .vector import vector_env

    rng = np.random.default_rng(seed)
    games = steps = 0
    clock = time.perf_counter
    if vector:
        envs = vector_env(num_envs, opponent="random")
        envs.reset(seed=seed)
        t0 = clock()
        while True:
            masks = envs.action_masks()
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            _obs, _r, terminated, _t, _i = envs.step(actions)
            steps += num_envs
            games += int(terminated.sum())
            elapsed = clock() - t0
            if elapsed >= seconds:
                envs.close()
                return steps / elapsed, games / elapsed
    singles = [make() for _ in range(num_envs)]
    for i, env in enumerate(singles):
        env.reset(seed=seed * 1000 + i)
    t0 = clock()
    while True:
        batch = []
        for env in singles:
            mask = env.action_masks()
            obs, _r, terminated, _t, _i = env.step(int(rng.choice(np.flatnonzero(mask))))
            if terminated:
                games += 1
                obs, _i = env.reset()
            batch.append(obs)
        if num_envs > 1:
            np.stack(batch)
        steps += num_envs
        elapsed = clock() - t0
        if elapsed >= seconds:
            return steps / elapsed, games / elapsed


def _engine_games(seconds: float, seed: int) -> float:
    """Games/s of the engine's own random 2-player playouts."""
    rng = random.Random(seed)
    games = 0
    t0 = time.perf_counter()
    while True:
        game = GameState(2, seed * 1000 + games)
        while not game.is_over():
            ids = game.legal_action_ids()
            game.apply(ids[rng.randrange(len(ids))])
        games += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return games / elapsed


def run_batched(num_envs: int = 16, seconds: float = 2.0, reps: int = 3, seed: int = 0) -> list[tuple[str, float, float]]:
    """(series, median learner steps/s, median games/s) for the ``--batch`` table (the engine's steps: none)."""
    from .single_agent import single_agent_env

    def flat() -> Any:
        return single_agent_env(opponent="random")

    def features() -> Any:
        return single_agent_env(opponent="random", actions="features")

    series: dict[str, list[tuple[float, float]]] = {}
    for rep in range(reps):
        series.setdefault("engine", []).append((0.0, _engine_games(seconds, seed + rep)))
        for name, make, n, vector in (("single", flat, 1, False), (f"separate×{num_envs}", flat, num_envs, False),
                                      (f"vector×{num_envs}", flat, num_envs, True), ("features", features, 1, False)):
            series.setdefault(name, []).append(_batched(make, n, vector, seconds, seed + rep))
    return [(name, statistics.median(s for s, _ in got), statistics.median(g for _, g in got))
            for name, got in series.items()]


def batched_table(rows: list[tuple[str, float, float]]) -> str:
    engine_games = rows[0][2]
    out = [f"{'series':<13} {'games/s':>8} {'× engine time':>14} {'steps/s':>9} {'µs/step':>8}"]
    for name, sps, gps in rows:
        steps = f"{sps:>9,.0f} {1e6 / sps:>8.0f}" if sps else f"{'-':>9} {'-':>8}"
        out.append(f"{name:<13} {gps:>8.1f} {engine_games / gps:>14.2f} {steps}")
    return "\n".join(out)


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


def legal_counts(players: int, rules: str, games: int, seed: int) -> list[int]:
    """How many actions are legal at each decision of ``games`` random games (not timed)."""
    from ..engine.rules import Rules

    r = Rules.from_text(rules)
    rng = random.Random(seed)
    counts = []
    for g in range(games):
        game = GameState(players, seed * 1000 + g, r)
        while not game.is_over():
            ids = game.legal_action_ids()
            counts.append(len(ids))
            game.apply(ids[rng.randrange(len(ids))])
    return counts


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
    parser.add_argument("--batch", type=int, default=0, metavar="N",
                        help="measure batched play of N single-agent games instead (2 players, vs random)")
    args = parser.parse_args(argv)
    if args.batch:
        rows = run_batched(args.batch, args.seconds, args.reps, args.seed)
        print(f"torres env bench --batch {args.batch}: learner vs random, 2 players, one process, "
              f"medians of {args.reps} × {args.seconds:g} s")
        print(batched_table(rows))
        return
    results = run(args.players, args.rules, args.seconds, args.reps, args.seed)
    print(f"torres env bench: {args.players} players, {args.rules}, medians of {args.reps} × {args.seconds:g} s")
    print(table(results))
    counts = sorted(legal_counts(args.players, args.rules, 200, args.seed))

    def pick(q: float) -> int:
        return counts[min(len(counts) - 1, int(q * len(counts)))]

    print(f"legal actions per decision, {len(counts):,} decisions of 200 random games: median {pick(0.5)}, "
          f"90% {pick(0.9)}, 99% {pick(0.99)}, max {counts[-1]}")


if __name__ == "__main__":
    main()
