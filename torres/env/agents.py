"""Bots as environment agents, and environment policies as bots.

* :class:`BotAgent` — any bot (``"expert"``, ``"greedy:width=8"``, ...) acting in the environment: it reads the
  seat's :class:`~torres.engine.view.SeatView` through ``env.view(agent)``.
* :class:`PolicyBot` — a policy (a callable from the observation dict to an action id) as a ``torres.ai.Bot``,
  so it can sit in ``torres tournament`` through the bot spec ``policy:module=M[:name=N]``
  (:func:`policy_from_spec`): ``M.N(seed)`` makes the policy (``N`` defaults to ``make_policy``; a class taking
  the seed works as it is).
* :class:`MaskedRandom` — the baseline policy: uniform over the mask.
"""

from __future__ import annotations

import importlib
import os
import random
import sys
from typing import Any, Callable, Mapping

import numpy as np

from ..ai.base import Bot, make_bot
from ..ai.levels import register_factory
from ..engine.view import SeatView
from .observation import action_mask, encode
from .single_agent import MAX_ACTIONS, feature_observation

#: A policy: the observation dict (``observation``, ``action_mask``) → an action id whose mask entry is 1.
Policy = Callable[[Mapping[str, np.ndarray]], int]


def _unwrapped(env: Any) -> Any:
    return getattr(env, "unwrapped", env)


class BotAgent:
    """A bot acting for one seat of an environment: ``BotAgent("expert", seed).act(env)`` → an action id.

    Use one agent per seat (a bot may plan its whole turn and hand it out action by action) and :meth:`reset`
    between games."""

    def __init__(self, spec: str = "expert", seed: int = 0) -> None:
        self.spec = spec
        self.seed = seed
        self.bot = make_bot(spec, seed)

    def reset(self) -> None:
        """A fresh bot with the same spec and seed, for a new game."""
        self.bot = make_bot(self.spec, self.seed)

    def act(self, env: Any, agent: str | None = None) -> int:
        """The bot's action for ``agent`` (default: the agent to act) in ``env`` (wrapped or not)."""
        raw = _unwrapped(env)
        return self.bot.choose(raw.view(agent if agent is not None else raw.agent_selection))

    def act_view(self, view: SeatView) -> int:
        return self.bot.choose(view)

    __call__ = act


class MaskedRandom:
    """Uniformly random among the actions the mask allows; seeded."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, observation: Mapping[str, np.ndarray]) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        return int(legal[self.rng.randrange(len(legal))])


class PolicyBot(Bot):
    """A policy seated as a bot: each ``choose`` builds the observation the environment would give the seat (the
    same encoder, from the seat's view) and asks the policy; an action outside the mask is an error. A policy
    with the attribute ``observation = "features"`` gets the observation of ``single_agent_env(actions=
    "features")`` instead (its ``max_actions`` rows, default 1024) and answers with a row."""

    name = "policy"

    def __init__(self, policy: Policy, seed: int = 0) -> None:
        super().__init__(seed)
        self.policy = policy

    def choose(self, view: SeatView) -> int:
        if getattr(self.policy, "observation", "flat") == "features":
            # a pointer-style policy: the observation of SingleAgentEnv(actions="features"), and its answer is a
            # row of it; the features read only public facts, so any determinization of the view gives them
            legal = list(view.legal)
            max_actions = getattr(self.policy, "max_actions", MAX_ACTIONS)
            obs = feature_observation(view.determinize(self.rng), view.seat, legal, max_actions)
            row = int(self.policy(obs))
            if not 0 <= row < len(legal):
                raise ValueError(f"the policy chose row {row} of {len(legal)} legal actions")
            return legal[row]
        obs = {"observation": encode(view), "action_mask": action_mask(view.legal)}
        action = int(self.policy(obs))
        if action not in view.legal:
            raise ValueError(f"the policy chose action {action}, which is not legal here")
        return action


def load_policy(module: str, name: str = "make_policy", seed: int = 0) -> Policy:
    """``module.name(seed)``: the module is imported from ``sys.path``, else from the current directory."""
    if not module:
        raise ValueError("a policy needs module=... (e.g. policy:module=examples.masked_random)")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError:
        if os.getcwd() in sys.path:
            raise ValueError(f"no module {module!r} for the policy") from None
        sys.path.insert(0, os.getcwd())
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError:
            raise ValueError(f"no module {module!r} for the policy") from None
    factory = getattr(mod, name, None)
    if not callable(factory):
        raise ValueError(f"module {module!r} has no callable {name!r} (a policy factory taking the seed)")
    policy = factory(seed)
    if not callable(policy):
        raise ValueError(f"{module}.{name}(seed) did not return a callable policy")
    return policy  # type: ignore[no-any-return]


def policy_bot(module: str, name: str = "make_policy", seed: int = 0) -> PolicyBot:
    """The bot for ``policy:module=M:name=N``."""
    return PolicyBot(load_policy(module, name, seed), seed)


def policy_factory(seed: int, opts: dict[str, str]) -> Bot:
    """The factory of ``policy:module=M[:name=N]`` seats, which this module registers with torres.ai.levels:
    ``M.N(seed)`` (``N`` defaults to ``make_policy``)."""
    module, name = opts.pop("module", ""), opts.pop("name", "make_policy")
    if not module:
        raise ValueError("policy needs module=... (e.g. policy:module=examples.masked_random)")
    return policy_bot(module, name, seed)


register_factory("policy", policy_factory)
