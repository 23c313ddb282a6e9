"""Batched play: ``N`` single-agent games stepped together, observations and masks as one numpy batch.

>>> from torres.env import vector_env
>>> envs = vector_env(4, opponent="random")
>>> obs, infos = envs.reset(seed=1)
>>> obs.shape, envs.action_masks().shape
((4, 873), (4, 20936))

A ``gymnasium.vector.SyncVectorEnv`` over :class:`~torres.env.single_agent.SingleAgentEnv`, reset in the same
step (``AutoresetMode.SAME_STEP``): when a game ends its row already holds the next game's first observation (the
last one is in ``infos["final_obs"]``), so ``action_masks()`` is always the mask of the observation returned.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from .single_agent import SingleAgentEnv


class TorresVectorEnv(SyncVectorEnv):
    """``SyncVectorEnv`` of single-agent Torres games with a batched :meth:`action_masks`."""

    def action_masks(self) -> np.ndarray:
        """``bool[num_envs, n_actions]``: the legal actions of each game now."""
        return np.stack(self.call("action_masks"))


def vector_env(num_envs: int, **kwargs: Any) -> TorresVectorEnv:
    """``num_envs`` games of ``SingleAgentEnv(**kwargs)`` (``opponent``, ``players``, ``actions``, ...)."""
    if num_envs < 1:
        raise ValueError("num_envs must be at least 1")
    return TorresVectorEnv([partial(SingleAgentEnv, **kwargs) for _ in range(num_envs)],
                           autoreset_mode=AutoresetMode.SAME_STEP)
