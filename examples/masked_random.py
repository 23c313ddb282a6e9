"""The baseline policy: uniformly random among the legal actions (the observation's ``action_mask``).

A policy module for ``torres tournament``: the bot spec ``policy:module=examples.masked_random`` seats
``make_policy(seed)``; any module with such a factory works the same way (``name=`` picks another attribute).
"""

from __future__ import annotations

from torres.env import MaskedRandom


def make_policy(seed: int) -> MaskedRandom:
    """A seeded masked-random policy: ``policy(observation) -> action id``."""
    return MaskedRandom(seed)
