"""A pointer-style policy for Torres: it scores each legal action from its features (torres.env.features) and
the seat's observation, instead of a 20,936-wide output layer. Needs torch and sb3-contrib (docs/research.md,
"A learned baseline"); torres itself never imports this module.

* :class:`PointerExtractor` and :class:`PointerPolicy` plug into sb3-contrib's ``MaskablePPO`` over
  ``single_agent_env(actions="features")`` (examples/train_maskable_ppo.py trains it);
* :func:`make_policy` loads a trained model as a policy for ``torres tournament``:

      torres tournament --bots policy:module=examples.pointer_policy,beginner --games 200

  (the model file: ``$TORRES_POLICY_MODEL``, else ``examples/models/pointer_ppo.zip``).
"""

from __future__ import annotations

import os
from typing import Any, Mapping

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from torres.engine.actions import Kind
from torres.engine.cards import N_CARD_TYPES
from torres.env.features import COLUMN
from torres.env.observation import observation_high

MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models", "pointer_ppo.zip")
_ARG_KINDS = (int(Kind.STACK), int(Kind.LIFT), int(Kind.FIRST))
_ACTION_INPUTS = len(Kind) + N_CARD_TYPES + 1 + 15


class PointerExtractor(BaseFeaturesExtractor):  # type: ignore[misc]
    """Outputs each row's logit (``max_actions`` of them; rows past the legal ones are masked later) followed by
    the state embedding the value head reads."""

    def __init__(self, observation_space: spaces.Dict, state_dim: int = 128, action_dim: int = 64) -> None:
        max_actions = observation_space["actions"].shape[0]
        super().__init__(observation_space, features_dim=max_actions + state_dim)
        self.max_actions = max_actions
        self.state_dim = state_dim
        self.register_buffer("obs_scale", th.as_tensor(1.0 / observation_high()))
        size = observation_space["observation"].shape[0]
        self.state = nn.Sequential(nn.Linear(size, 256), nn.ReLU(), nn.Linear(256, state_dim), nn.ReLU())
        # a row's hidden layer is W·[action; state] = W_a·action + W_s·state: the state part once per step
        self.row = nn.Linear(_ACTION_INPUTS, action_dim)
        self.context = nn.Linear(state_dim, action_dim, bias=False)
        self.score = nn.Sequential(nn.ReLU(), nn.Linear(action_dim, 1))

    @staticmethod
    def action_inputs(rows: th.Tensor) -> th.Tensor:
        """The network's inputs for feature rows ``(..., 12)``: one-hot kind and card, squares as file and rank,
        the rest scaled to about ±1."""
        c = COLUMN
        kind = rows[..., c["kind"]].long()
        card = rows[..., c["card"]].long() + 1  # -1 (none) → 0
        parts = [nn.functional.one_hot(kind, len(Kind)).float(), nn.functional.one_hot(card, N_CARD_TYPES + 1).float()]
        for name in ("from", "to"):
            sq = rows[..., c[name]]
            has = (sq >= 0).float()
            parts += [has[..., None], (has * (sq % 8) / 7)[..., None], (has * (sq // 8) / 7)[..., None]]
        is_arg = sum((kind == k).float() for k in _ARG_KINDS)
        parts += [
            (is_arg * rows[..., c["arg"]] / 16)[..., None],
            (rows[..., c["cost"]] / 2)[..., None],
            (rows[..., c["level_from"]] / 8)[..., None],
            (rows[..., c["level_to"]] / 8)[..., None],
            (rows[..., c["d_level"]] / 2)[..., None],
            (rows[..., c["d_score"]] / 10)[..., None],
            (rows[..., c["d_rival"]] / 10)[..., None],
            (rows[..., c["d_score"]] - rows[..., c["d_rival"]])[..., None].clamp(-30, 30) / 10,
            rows[..., c["passes"]][..., None],
        ]
        return th.cat(parts, dim=-1)

    def forward(self, obs: Mapping[str, th.Tensor]) -> th.Tensor:
        state = self.state(obs["observation"] * self.obs_scale)
        # score the legal rows only, packed (a median step has ~25 legal actions, the widest over 500)
        steps, rows = (obs["action_mask"] > 0.5).nonzero(as_tuple=True)
        hidden = self.row(self.action_inputs(obs["actions"][steps, rows])) + self.context(state)[steps]
        logits = state.new_zeros(state.shape[0], self.max_actions)
        logits[steps, rows] = self.score(hidden).squeeze(-1)
        return th.cat([logits, state], dim=1)


class _Logits(nn.Module):
    def __init__(self, max_actions: int) -> None:
        super().__init__()
        self.max_actions = max_actions

    def forward(self, latent: th.Tensor) -> th.Tensor:
        return latent[:, :self.max_actions]


class _Value(nn.Module):
    def __init__(self, max_actions: int, state_dim: int) -> None:
        super().__init__()
        self.max_actions = max_actions
        self.head = nn.Sequential(nn.Linear(state_dim, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, latent: th.Tensor) -> th.Tensor:
        return self.head(latent[:, self.max_actions:])  # type: ignore[no-any-return]


class PointerPolicy(MaskableActorCriticPolicy):  # type: ignore[misc]
    """MaskablePPO's actor-critic with the pointer head: logits come straight from :class:`PointerExtractor`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("features_extractor_class", PointerExtractor)
        kwargs.setdefault("net_arch", [])
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        extractor = self.features_extractor
        self.action_net = _Logits(extractor.max_actions)
        self.value_net = _Value(extractor.max_actions, extractor.state_dim)
        last = extractor.score[-1]
        nn.init.orthogonal_(last.weight, gain=0.01)  # near-uniform over the legal actions at the start
        nn.init.zeros_(last.bias)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)


class TrainedPolicy:
    """A trained model as a ``torres.env`` policy over the feature observation (PolicyBot reads ``observation``
    and ``max_actions``): the row it rates best (``deterministic``) or a draw from its distribution."""

    observation = "features"

    def __init__(self, path: str = MODEL, deterministic: bool = True, seed: int = 0) -> None:
        th.set_num_threads(1)
        self.model = MaskablePPO.load(path, device="cpu", custom_objects={"policy_class": PointerPolicy})
        self.max_actions = self.model.observation_space["actions"].shape[0]
        self.deterministic = deterministic
        th.manual_seed(seed)

    def __call__(self, obs: Mapping[str, np.ndarray]) -> int:
        action, _ = self.model.predict(dict(obs), action_masks=obs["action_mask"].astype(bool),
                                       deterministic=self.deterministic)
        return int(action)


def make_policy(seed: int) -> TrainedPolicy:
    """The trained model of ``$TORRES_POLICY_MODEL`` (default: the shipped examples/models/pointer_ppo.zip)."""
    return TrainedPolicy(os.environ.get("TORRES_POLICY_MODEL", MODEL), seed=seed)
