"""A pointer-style policy with no learning: it scores every legal action from its features (torres.env.features)
and plays the best row, as a learned pointer policy would with a network in place of :func:`score`.

    torres tournament --bots policy:module=examples.feature_greedy,beginner --games 200

It plays the action that most raises its standing against the best rival's (its score plus what the phase would
score now), and ends its turn only when nothing else gains; against ``beginner`` it won 39.5% of 200 games
(docs/research.md, "How to evaluate a policy").
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from torres.env.features import COLUMN


def score(rows: np.ndarray) -> np.ndarray:
    """One number per feature row: standing gained over the best rival's, and half a point against passing the
    turn (so a turn's action points are used up before ``end``)."""
    return rows[:, COLUMN["d_score"]] - rows[:, COLUMN["d_rival"]] - 0.5 * rows[:, COLUMN["passes"]]


class FeatureGreedy:
    """``policy(obs) -> row``: ``observation = "features"`` asks for the feature observation (PolicyBot,
    ``single_agent_env(actions="features")``)."""

    observation = "features"

    def __call__(self, obs: Mapping[str, np.ndarray]) -> int:
        n = int(obs["action_mask"].sum())
        return int(np.argmax(score(obs["actions"][:n])))


def make_policy(seed: int) -> FeatureGreedy:
    return FeatureGreedy()
