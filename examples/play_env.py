"""Play Torres through the PettingZoo environment, then measure a policy against the bot ladder.

    .venv/bin/python examples/play_env.py                       # one game, then 20 games against each level
    .venv/bin/python examples/play_env.py --games 100 --levels beginner,casual,strong,expert --jobs 2

1. One game in the PettingZoo loop: seat 0 is the masked-random policy, seat 1 the ``casual`` bot
   (``torres.env.BotAgent``, which reads the seat's view through ``env.view(agent)``).
2. The policy against each level with the tournament runner (``torres tournament``, seats rotated): the policy
   sits as the bot spec ``policy:module=examples.masked_random``. Replace the module with your own
   ``make_policy(seed)`` to evaluate a trained policy.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # run from anywhere

from torres.cli.tournament import run_tournament  # noqa: E402
from torres.env import BotAgent, MaskedRandom, torres_v0  # noqa: E402

POLICY = "policy:module=examples.masked_random"


def play_one(seed: int) -> None:
    env = torres_v0.env(players=2, rules="riogrande", render_mode="ansi")
    env.reset(seed=seed)
    agents = {"player_0": MaskedRandom(seed), "player_1": BotAgent("casual", seed)}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            print(f"{agent}: final reward {reward:+.2f}")
            env.step(None)
            continue
        actor = agents[agent]
        action = actor.act(env) if isinstance(actor, BotAgent) else actor(obs)
        env.step(action)
        steps += 1
    print(env.unwrapped.render())
    print(f"{steps} actions; scores {env.unwrapped.game.scores}")
    env.close()


def evaluate(levels: list[str], games: int, players: int, rules: str, jobs: int) -> None:
    for level in levels:
        bots = [POLICY] + [level] * (players - 1)
        summary = run_tournament(bots, games, players, rules, seed=1, jobs=jobs)
        row = summary.to_json()["bots"][0]
        low, high = row["ci95"]
        print(f"policy vs {level:<9} win rate {row['win_rate']:6.1%}  (95% CI {low:.1%}-{high:.1%}), "
              f"mean score {row['mean_score']:.1f} over {games} games")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=20, help="games against each level")
    parser.add_argument("--levels", default="beginner,casual", help="comma-separated bot levels or specs")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rules", default="riogrande")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    play_one(args.seed)
    evaluate([x for x in args.levels.split(",") if x], args.games, args.players, args.rules, args.jobs)


if __name__ == "__main__":
    main()
