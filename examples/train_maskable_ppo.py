"""Train a learned baseline for Torres: sb3-contrib's MaskablePPO with the pointer policy (examples/pointer_policy.py)
over ``single_agent_env(actions="features")``, 2 players, on the CPU.

    pip install torch --index-url https://download.pytorch.org/whl/cpu   # the CPU build of torch (docs/research.md)
    pip install -e ".[env,train]"                                       # torres, pettingzoo, sb3-contrib
    nice -n 10 python examples/train_maskable_ppo.py --subproc     # 55 minutes of training

The learner meets ``random`` and ``beginner`` bots (``--opponents``, one environment each, in turn); the reward
is ``margin`` (win +1 / loss −1, plus the score difference / 100, paid at the end). Every ``--eval-every`` steps
it plays ``--eval-games`` games (its best-rated action, seats alternating) against each of ``--eval-levels`` and
appends a row to ``<out>.csv`` — the learning curve in docs/research.md. The model that did best against the last
of those levels is kept as ``<out>.zip`` (the latest as ``<out>-last.zip``). Measure it afterwards with
``torres tournament`` (docs/research.md).
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # run from anywhere

import numpy as np  # noqa: E402
import torch as th  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.callbacks import BaseCallback  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv  # noqa: E402

from examples.pointer_policy import MODEL, PointerPolicy  # noqa: E402
from torres.env import single_agent_env  # noqa: E402


def evaluate(model: MaskablePPO, level: str, games: int, seed: int) -> tuple[float, float]:
    """Win rate (ties count half) and mean score margin of the model's best-rated actions against ``level``."""
    wins, margins = 0.0, []
    for g in range(games):
        env = single_agent_env(opponent=level, players=2, seat=g % 2, actions="features")
        obs, _ = env.reset(seed=seed + g)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, _reward, done, _trunc, info = env.step(int(action))
        scores = info["scores"]
        me, other = scores[env.seat], scores[1 - env.seat]
        wins += 1.0 if me > other else 0.5 if me == other else 0.0
        margins.append(me - other)
    return wins / games, float(np.mean(margins))


class Curve(BaseCallback):  # type: ignore[misc]
    """Evaluates every ``every`` steps and writes the learning curve; saves the model as ``<path>-last.zip``, and
    as ``<path>.zip`` when it did best so far against the last of ``levels`` (win rate, then margin: PPO's play
    swings between evaluations, see docs/research.md); stops after ``limit`` seconds of training (the evaluations'
    time not counted)."""

    def __init__(self, path: str, every: int, levels: list[str], games: int, limit: float) -> None:
        super().__init__()
        if not levels:
            raise ValueError("evaluate against at least one level")
        self.path, self.every, self.levels, self.games, self.limit = path, every, levels, games, limit
        self.next_eval = 0
        self.started = time.monotonic()
        self.train_seconds = 0.0  # time outside the evaluations
        self.mark = self.started
        self.best = (-1.0, float("-inf"))

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_eval:
            self.write_row()
            self.next_eval += self.every
        return self.train_seconds + (time.monotonic() - self.mark) < self.limit

    def write_row(self) -> None:
        now = time.monotonic()
        self.train_seconds += now - self.mark
        row: list[object] = [self.num_timesteps, round(self.train_seconds / 60, 1)]
        rate, margin = 0.0, 0.0
        for i, level in enumerate(self.levels):
            rate, margin = evaluate(self.model, level, self.games, seed=10_000 * (i + 1))
            row += [round(rate, 3), round(margin, 1)]
        kept = (rate, margin) > self.best
        row.append(int(kept))
        new = not os.path.exists(self.path + ".csv")
        with open(self.path + ".csv", "a", newline="") as f:
            out = csv.writer(f)
            if new:
                out.writerow(["steps", "train_minutes"] + [f"{k}_{level}" for level in self.levels
                                                           for k in ("win_rate", "margin")] + ["kept"])
            out.writerow(row)
        print(" ".join(map(str, row)), flush=True)
        self.model.save(self.path + "-last.zip")
        if kept:
            self.best = (rate, margin)
            self.model.save(self.path + ".zip")
        self.mark = time.monotonic()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=55, help="training time (evaluations not counted)")
    parser.add_argument("--timesteps", type=int, default=10_000_000, help="stop earlier after this many steps")
    parser.add_argument("--opponents", default="random,beginner,beginner,beginner",
                        help="one environment per entry, each against bots of that level")
    parser.add_argument("--eval-every", type=int, default=50_000)
    parser.add_argument("--eval-games", type=int, default=40)
    parser.add_argument("--eval-levels", default="random,beginner")
    parser.add_argument("--subproc", action="store_true",
                        help="step each environment in a process of its own (sb3's SubprocVecEnv)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=MODEL[:-len(".zip")], help="path without extension: .zip, .csv")
    args = parser.parse_args()
    th.set_num_threads(1)
    opponents = [x for x in args.opponents.split(",") if x]

    def make(level: str):  # type: ignore[no-untyped-def]
        return lambda: single_agent_env(opponent=level, players=2, actions="features", reward="margin")


    fns = [make(level) for level in opponents]
    vec = SubprocVecEnv(fns, start_method="fork") if args.subproc else DummyVecEnv(fns)
    vec.seed(args.seed)
    model = MaskablePPO(PointerPolicy, vec, n_steps=256, batch_size=256, n_epochs=4, learning_rate=3e-4,
                        gamma=1.0, gae_lambda=0.95, ent_coef=0.01, clip_range=0.2, seed=args.seed, device="cpu",
                        verbose=0)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    if os.path.exists(args.out + ".csv"):
        os.remove(args.out + ".csv")
    curve = Curve(args.out, args.eval_every, [x for x in args.eval_levels.split(",") if x], args.eval_games,
                  limit=args.minutes * 60)
    model.learn(total_timesteps=args.timesteps, callback=curve)
    curve.write_row()
    print(f"{model.num_timesteps} steps, {curve.train_seconds / 60:.1f} minutes of training; kept {args.out}.zip "
          f"({os.path.getsize(args.out + '.zip') / 1e6:.1f} MB): {curve.best[0]:.1%} against {curve.levels[-1]}, "
          f"mean margin {curve.best[1]:+.1f}")


if __name__ == "__main__":
    main()
