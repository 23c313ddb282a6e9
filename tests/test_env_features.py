"""torres.env.features: every legal action's features agree with the engine, in random positions of several rule
settings, and read nothing a seat cannot see."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numpy")

import torres  # noqa: E402
from torres.engine.actions import Kind  # noqa: E402
from torres.engine.state import Stage  # noqa: E402
from torres.env.features import COLUMN, HIGH, LOW, N_FEATURES, action_features, standing  # noqa: E402

SETTINGS = [(2, "riogrande"), (3, "idw:master=1"), (4, "ravensburger:card_mode=common"), (3, "yucata")]


def positions(players: int, rules: str, seed: int, every: int = 7):
    """Positions along a random game, every ``every`` actions."""
    rng = random.Random(seed)
    game = torres.GameState(players, seed, torres.Rules.from_text(rules))
    step = 0
    while not game.is_over():
        if step % every == 0:
            yield game
        legal = game.legal_action_ids()
        game.apply(legal[rng.randrange(len(legal))])
        step += 1


@pytest.mark.parametrize("players,rules", SETTINGS)
def test_features_agree_with_the_engine(players: int, rules: str) -> None:
    checked = 0
    kinds = set()
    for game in positions(players, rules, seed=players * 11):
        legal = game.legal_action_ids()
        before = game.position(), list(game.history)
        rows = action_features(game, legal)
        assert (game.position(), list(game.history)) == before  # pushed and popped: the game is as it was
        assert rows.shape == (len(legal), N_FEATURES) and rows.dtype == np.float32
        assert (rows >= LOW).all() and (rows <= HIGH).all()
        seat = game.current
        base = standing(game)
        for action, row in zip(legal, rows):
            c = {name: int(row[i]) for name, i in COLUMN.items()}
            text = str(torres.Action(action))
            kind = Kind(c["kind"])
            kinds.add(kind)
            assert torres.Action(action).kind is kind
            for name in ("from", "to"):  # the squares are the ones the notation names
                if c[name] >= 0:
                    assert torres.square_name(c[name]) in text, (text, name)
                    assert c[f"level_{name}"] == game.heights[c[name]]
                else:
                    assert c[f"level_{name}"] == -1
            if c["card"] >= 0:
                assert text.split()[1] == torres.Card(c["card"]).text  # "play <card> ..." / "keep <card> ..."
            after = game.clone()  # an independent path: a copy of the game, the action applied for good
            after.apply(action)
            passes = after.stage is Stage.OVER or after.current != seat
            assert c["passes"] == passes
            if not passes and kind in (Kind.MOVE, Kind.BLOCK, Kind.KNIGHT, Kind.BUY, Kind.SCORE):
                assert game.ap - after.ap == c["cost"] > 0
            now = standing(after)
            assert c["d_score"] == now[seat] - base[seat]
            assert c["d_rival"] == max(now[s] - base[s] for s in range(players) if s != seat)
            assert c["d_level"] == (after.heights[c["to"]] - game.heights[c["to"]] if c["to"] >= 0 else 0)
            checked += 1
    assert checked > 300
    assert {Kind.MOVE, Kind.BLOCK, Kind.END} <= kinds


def test_features_read_no_hidden_card() -> None:
    """States that differ only in what the seat to act cannot see give the same features (its own draw included:
    the features are of its legal actions, which it sees)."""
    checked = 0
    for game in positions(3, "riogrande", seed=5, every=11):
        if game.stage is Stage.OVER:
            continue
        view = game.view(game.current)
        expected = action_features(game)
        for k in range(2):
            other = view.determinize(random.Random(k))
            assert other.legal_action_ids() == game.legal_action_ids()
            assert np.array_equal(action_features(other), expected)
            checked += 1
    assert checked > 20
