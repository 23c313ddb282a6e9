"""What the playout tests share: every rule configuration (edition × variant × players), a fresh game, and a
random legal action that keeps turns full."""

from __future__ import annotations

import random
from typing import Any

import pytest

from torres import GameState, Rules
from torres.engine.actions import O_END
from torres.engine.rules import EDITIONS, CardMode


def rule_configs() -> list[Any]:
    """``pytest.param(players, edition, overrides)`` for every edition, with and without the master version, the
    other deck variant and the full hand, for 2, 3 and 4 players."""
    out = []
    for edition, base in EDITIONS.items():
        flip = "own" if base.card_mode is CardMode.COMMON else "common"
        variants: list[tuple[str, dict[str, Any]]] = [
            ("plain", {}),
            ("master", {"master": True}),
            (f"{flip}deck", {"card_mode": flip}),
            ("fullhand", {"full_hand": True}),
        ]
        for name, overrides in variants:
            for players in (2, 3, 4):
                out.append(pytest.param(players, edition, overrides, id=f"{edition}-{name}-{players}p"))
    return out


def new_game(players: int, edition: str, overrides: dict[str, Any], seed: int) -> GameState:
    return GameState(players, seed, Rules.for_edition(edition, **overrides))


def choose(state: GameState, rng: random.Random) -> int:
    """A random legal action; 'end' is mostly avoided while anything else is possible, so turns are full."""
    ids = state.legal_action_ids()
    action = rng.choice(ids)
    if action == O_END and len(ids) > 1 and rng.random() < 0.85:
        action = rng.choice([a for a in ids if a != O_END])
    return action
