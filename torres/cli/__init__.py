"""Command line: ``torres <command>``. Each command lives in its own module and registers on ``app``."""

from __future__ import annotations

from ..ai.base import Bot
from ..ai.levels import register_factory


def _policy_seat(seed: int, opts: dict[str, str]) -> Bot:
    """``policy:module=M[:name=N]`` seats (torres tournament, torres play): torres.env builds them, imported only
    when such a seat is asked for, since it needs the env extra (numpy, gymnasium, pettingzoo)."""
    try:
        from ..env.agents import policy_factory
    except ImportError as exc:
        raise ValueError(f'a "policy:" seat needs the research environment (missing: {exc.name}): '
                         'pip install "torres[env]"') from None
    return policy_factory(seed, opts)


register_factory("policy", _policy_seat)
