"""torres — a digital edition of Kramer & Kiesling's *Torres*.

>>> import torres
>>> game = torres.GameState(players=2, seed=1)
>>> game.push("start d8"); game.push("start c6"); game.push("king f6")
>>> game.stage.name, game.current, game.ap
('TURN', 0, 5)
"""

from .native import activate_from_environment

activate_from_environment()  # (before any engine module is imported: TORRES_NATIVE, torres/native.py)

from .engine import *  # noqa: E402,F401,F403
from .engine import __all__ as _engine_all  # noqa: E402

__all__ = list(_engine_all)
__version__ = "0.1.0"
