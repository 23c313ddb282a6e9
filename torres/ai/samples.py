"""Positions to measure bots on: the starts of turns of games between bots (benches and tests)."""

from __future__ import annotations

from typing import Iterator

from ..engine.rules import Rules
from ..engine.stage import Stage
from ..engine.state import GameState
from .base import make_bot


def turn_starts(rules_text: str, players: int, seed: int, bot: str, every: int, at: int) -> Iterator[GameState]:
    """Copies of the state at the start of every ``every``-th turn (counting from 1, the ones where
    ``turns % every == at``) of games between ``bot``s, game after game without end: game ``g`` is dealt with seed
    ``seed + g`` and its seat ``s`` plays with seed ``seed + 10 g + s``, so a sample is the same from run to run."""
    rules = Rules.from_text(rules_text)
    game = 0
    while True:
        state = GameState(players, seed + game, rules)
        bots = [make_bot(bot, seed + game * 10 + s) for s in range(players)]
        actor, turns = -1, 0
        while not state.is_over():
            seat = state.current
            if state.stage is Stage.TURN and seat != actor:
                actor = seat
                turns += 1
                if turns % every == at:
                    yield state.clone()
            state.push(bots[seat].choose(state.view(seat)))
        game += 1
