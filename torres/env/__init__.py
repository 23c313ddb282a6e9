"""Torres for learning research: a PettingZoo AEC environment over the real engine (``pip install torres[env]``).

>>> from torres.env import torres_v0
>>> env = torres_v0.env(players=2, rules="riogrande")
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> env.unwrapped.action_to_string(int(obs["action_mask"].nonzero()[0][0]))
'start e1'

Spaces, the observation layout, action ids and determinism: docs/research.md. Bots as agents and policies as
bots: :mod:`torres.env.agents`. Throughput: ``python -m torres.env.bench``.
"""

from . import torres_v0
from .aec import env, raw_env, render_text
from .agents import BotAgent, MaskedRandom, Policy, PolicyBot, load_policy, policy_bot
from .observation import LAYOUT, OBS_SIZE, SECTIONS, PublicFields, action_mask, encode, unflatten

TorresEnv = raw_env

__all__ = [
    "BotAgent", "LAYOUT", "MaskedRandom", "OBS_SIZE", "Policy", "PolicyBot", "PublicFields", "SECTIONS",
    "TorresEnv", "action_mask", "encode", "env", "load_policy", "policy_bot", "raw_env", "render_text",
    "torres_v0", "unflatten",
]
