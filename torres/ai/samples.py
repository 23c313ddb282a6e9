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


#: A turn start of the master's in the second phase of a game against the expert (``bench/full_hands.py --seed 7``),
#: nine cards in hand: 728 plays at the first step, where the beam's second step alone passes the master's budget.
FULL_HAND = ("torres/1 rules=riogrande n=2 seed=8 stage=turn phase=2 round=2 turn=0 start=1 ap=5 buys=0 played=0 "
             "stack=- king=a1 supply=43 scores=36.31 stacks=3.3.3|3.3.3 carry=0.0 board=0.0.0.1.0.0.0.0./0.0.0.0.0.0"
             ".0.0./0.0.1.0.0.1.0.0./0.0.0.0.0.0.0.1./1.0.0.0.0.0.0.0./0.0.1.0.1.1.1.0./1.1.0.1.0.2.3b1./1k1.1.3a2b0"
             ".3a2. hands=cbgdv|cbgdxysrv fresh=- drawn=- decks=sr|- common=- discards=lxy|l master=-")
