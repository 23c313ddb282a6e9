"""The stages of a game (its own module so that the move generator can import it without a cycle)."""

from __future__ import annotations

from enum import IntEnum


class Stage(IntEnum):
    CASTLES = 0  # master version: players place the 8 starting castles
    KNIGHTS = 1  # each player places a first knight on an empty castle
    KING_SETUP = 2  # the last of them places the king
    TURN = 3  # a player's turn
    KEEP = 4  # own deck: the player drew up to 3 cards and chooses one to keep
    KING_MOVE = 5  # after a scoring: the lowest scorer may move the king
    CHOOSE_FIRST = 6  # IDW: the lowest scorer picks the next start player
    OVER = 7
