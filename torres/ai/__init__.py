"""Computer opponents. A bot sees only its seat's :class:`~torres.engine.view.SeatView`, never the game."""

from .base import Bot, RandomBot, make_bot

__all__ = ["Bot", "RandomBot", "make_bot"]
