"""Computer opponents. A bot sees only its seat's :class:`~torres.engine.view.SeatView`, never the game.

Levels (see :mod:`torres.ai.levels` and docs/strength.md): ``beginner``, ``casual``, ``strong``, ``expert``;
building blocks: ``random``, ``onestep``, ``greedy``, ``ismcts``. :func:`hint` suggests a turn.
"""

from .native import activate_from_environment

activate_from_environment()  # (before the search's modules are imported: TORRES_NATIVE, torres/ai/native.py)

from .base import Bot, RandomBot, make_bot  # noqa: E402
from .hint import Alternative, Hint, hint  # noqa: E402
from .levels import LEVELS, bot_names  # noqa: E402

__all__ = ["Alternative", "Bot", "Hint", "LEVELS", "RandomBot", "bot_names", "hint", "make_bot"]
