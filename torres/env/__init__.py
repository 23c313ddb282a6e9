"""Torres for learning research: PettingZoo and Gymnasium environments over the real engine (``torres[env]``).

>>> from torres.env import torres_v0
>>> env = torres_v0.env(players=2, rules="riogrande")
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> env.unwrapped.action_to_string(int(obs["action_mask"].nonzero()[0][0]))
'start e1'

Spaces, the observation layout, action ids and determinism: docs/research.md. One learner against bots (a Gymnasium
env): :mod:`torres.env.single_agent`; batched play: :mod:`torres.env.vector`; the legal actions as features:
:mod:`torres.env.features`. Bots as agents and policies as bots: :mod:`torres.env.agents` (importing it registers the
``policy:`` seat with torres.ai). Throughput: ``python -m torres.env.bench``.
"""

from . import torres_v0
from .aec import env, raw_env, render_text
from .agents import BotAgent, MaskedRandom, Policy, PolicyBot, load_policy, policy_bot
from .features import COLUMNS as FEATURE_COLUMNS, action_features
from .observation import LAYOUT, OBS_SIZE, SECTIONS, PublicFields, action_mask, encode, unflatten
from .single_agent import SingleAgentEnv, feature_observation, single_agent_env
from .vector import TorresVectorEnv, vector_env

TorresEnv = raw_env

__all__ = [
    "BotAgent", "FEATURE_COLUMNS", "LAYOUT", "MaskedRandom", "OBS_SIZE", "Policy", "PolicyBot", "PublicFields",
    "SECTIONS", "SingleAgentEnv", "TorresEnv", "TorresVectorEnv", "action_features", "action_mask", "encode", "env",
    "feature_observation", "load_policy", "policy_bot", "raw_env", "render_text", "single_agent_env", "torres_v0",
    "unflatten", "vector_env",
]
