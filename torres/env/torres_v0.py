"""``torres_v0``, as PettingZoo names its environments: ``from torres.env import torres_v0; env = torres_v0.env()``."""

from .aec import env, raw_env

__all__ = ["env", "raw_env"]
