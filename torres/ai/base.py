"""The bot interface: one action at a time from a seat's view, deterministic for a given seed and budget."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..engine.view import SeatView


class Bot(ABC):
    """A computer player. ``choose`` is called whenever its seat is to act and returns one legal action id.

    Bots may plan a whole turn at once and hand it out action by action, but must re-plan after anything they
    could not foresee (a card draw)."""

    name: str = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: SeatView) -> int:
        """A legal action id for ``view.seat`` (``view.legal`` lists them)."""


class RandomBot(Bot):
    """Uniformly random legal actions: the floor of the strength ladder."""

    name = "random"

    def choose(self, view: SeatView) -> int:
        return self.rng.choice(view.legal)


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its spec: a name, optionally with settings, e.g. ``random``, ``expert``, ``greedy:width=8``,
    ``ismcts:iterations=40:horizon=2``, ``expert:seconds=0.5`` (see :data:`BOTS` and :mod:`torres.ai.levels`)."""
    from .levels import build_bot

    return build_bot(spec, seed)


BOTS: dict[str, type[Bot]] = {"random": RandomBot}
"""Bot classes by name; the full list of names (levels included) is :func:`torres.ai.levels.bot_names`."""
