"""Computer opponents. A bot sees only its seat's :class:`~torres.engine.view.SeatView`, never the game.

Levels (see :mod:`torres.ai.levels` and docs/strength.md): ``beginner``, ``casual``, ``strong``, ``expert``;
building blocks: ``random``, ``onestep``, ``greedy``, ``ismcts``. :func:`hint` suggests a turn.
"""

from .base import Bot, RandomBot, make_bot
from .hint import Alternative, Hint, hint
from .levels import LEVELS, bot_names

__all__ = ["Alternative", "Bot", "Hint", "LEVELS", "RandomBot", "bot_names", "hint", "make_bot"]
