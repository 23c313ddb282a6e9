"""The Torres rules engine: no I/O, no clock, no global randomness."""

from .actions import NUM_ACTIONS, Action, Kind
from .board import BoardInfo
from .cards import Card
from .master import MasterCard
from .rules import EDITIONS, CardMode, Rules, RulesError
from .scoring import CastleScore, PhaseScoring
from .squares import parse_square, square_name
from .state import GameState, IllegalActionError, Stage

__all__ = [
    "Action", "BoardInfo", "Card", "CardMode", "CastleScore", "EDITIONS", "GameState", "IllegalActionError",
    "Kind", "MasterCard", "NUM_ACTIONS", "PhaseScoring", "Rules", "RulesError", "Stage", "parse_square",
    "square_name",
]
