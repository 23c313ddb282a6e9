"""Perft counts, as in chess engines: the number of legal action sequences of length 1, 2 and 3 from fixed
positions. A change in any count means the move generator (or the effect of an action) changed.

The positions and counts live in ``tests/data/perft.json``. Regenerate them deliberately — only after checking
that a rules change is intended — with::

    .venv/bin/python tests/test_perft.py

One small position's depth-1 list is checked by hand against the rules in ``test_hand_verified_door_travel``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Callable

import pytest

from torres import GameState, Rules, Stage
from torres.engine.builder import build
from torres.engine.cards import Card

DATA = Path(__file__).resolve().parent / "data" / "perft.json"
DEPTHS = (1, 2, 3)


def perft(state: GameState, depth: int) -> int:
    """Number of legal action sequences of length ``depth`` (leaves counted at depth 1 without pushing)."""
    ids = list(state.legal_action_ids())
    if depth <= 1:
        return len(ids) if depth == 1 else 1
    total = 0
    for action in ids:
        state.push(action)
        total += perft(state, depth - 1)
        state.pop()
    return total


def divide(state: GameState, depth: int) -> dict[str, int]:
    """Perft per first action (to find which branch differs)."""
    out = {}
    for action in state.legal_actions:
        state.push(action)
        out[str(action)] = perft(state, depth - 1)
        state.pop()
    return out


# --- the positions (used only when regenerating the data) -------------------------------------------------


def _play_until(game: GameState, rng: random.Random, done: Callable[[GameState], bool],
                avoid_end: bool = True) -> GameState:
    while not done(game):
        ids = game.legal_action_ids()
        others = [a for a in ids if str_action(a) != "end"]
        game.push(rng.choice(others) if avoid_end and others and rng.random() < 0.8 else rng.choice(ids))
    return game


def str_action(action_id: int) -> str:
    from torres.engine.actions import format_action

    return format_action(action_id)


def door_travel() -> GameState:
    """Seat 0's knight on b3 (level 0) next to the castle c3–d3 (level 2): too high to climb, but its doors lead
    out to c2, c4, d2, d4 and e3."""
    return build(2, heights={"c3": 2, "d3": 2, "f6": 1}, knights={0: ["b3"], 1: ["h1"]}, king="f6", seed=5)


def cards_in_hand() -> GameState:
    """A built mid-phase position: seat 0 holds climb, gate, vault, diagonal and lift, has taken a stack, placed a
    block and has 1 action point left."""
    game = build(2, heights={"c3": 2, "d3": 2, "c4": 1, "f6": 3, "f5": 2, "g6": 1, "a8": 1},
                 knights={0: ["b3", "c4", "f5"], 1: ["e5", "d3"]}, king="f6", seed=11,
                 hands={0: [Card.CLIMB, Card.GATE, Card.VAULT, Card.DIAGONAL, Card.LIFT]}, stacks={0: [3, 3, 2]})
    game.push("stack 3")
    game.push("block c2")
    game.play(["score", "score", "score"])
    return game


def keep_stage() -> GameState:
    """Own deck: seat 0 bought a card and chooses which of the three drawn cards to keep."""
    game = GameState(2, 3)
    game.play(["start d8", "start c6", "king f6", "buy"])
    return game


def king_move() -> GameState:
    """After the first scoring of a seeded 4-player game: the lowest scorer may move the king."""
    return _play_until(GameState(4, 8), random.Random(8), lambda g: g.stage is Stage.KING_MOVE)


def idw_choose_first() -> GameState:
    """IDW: after the king move, the lowest scorer names the start player; then the new phase's first turn."""
    return _play_until(GameState(4, 21, Rules.for_edition("idw")), random.Random(21),
                       lambda g: g.stage is Stage.CHOOSE_FIRST)


def master_castles() -> GameState:
    """Master version: two starting castles are placed; the next ones must keep their distance."""
    game = GameState(2, 4, Rules.for_edition("riogrande", master=True))
    game.play(["castle c3", "castle f6"])
    return game


def master_castles_idw() -> GameState:
    """The same with IDW's spacing rule (not diagonally next to a castle)."""
    game = GameState(2, 4, Rules.for_edition("idw", master=True))
    game.play(["castle c3", "castle f6"])
    return game


def mid_turn(players: int, edition: str, seed: int, actions: int, **overrides: object) -> Callable[[], GameState]:
    def make() -> GameState:
        game = GameState(players, seed, Rules.for_edition(edition, **overrides))
        rng = random.Random(seed)
        return _play_until(game, rng, lambda g: len(g.history) >= actions or g.is_over())
    make.__doc__ = f"A seeded {players}-player {edition} game {overrides or ''} after {actions} random actions."
    return make


def start_riogrande_2p() -> GameState:
    """A new 2-player Rio Grande game: the first knight goes on one of the 8 castles."""
    return GameState(2, 1)


def start_yucata_4p() -> GameState:
    """A new 4-player yucata.de game (the start player drawn from the seed)."""
    return GameState(4, 2, Rules.for_edition("yucata"))


POSITIONS: dict[str, Callable[[], GameState]] = {
    "start-riogrande-2p": start_riogrande_2p,
    "start-yucata-4p": start_yucata_4p,
    "door-travel": door_travel,
    "cards-in-hand": cards_in_hand,
    "keep-stage": keep_stage,
    "king-move": king_move,
    "idw-choose-first": idw_choose_first,
    "master-castles": master_castles,
    "master-castles-idw": master_castles_idw,
    "riogrande-2p-midgame": mid_turn(2, "riogrande", 31, 40),
    "ravensburger-4p-midgame": mid_turn(4, "ravensburger", 32, 90),
    "yucata-3p-midgame": mid_turn(3, "yucata", 33, 120),
    "idw-master-2p-midgame": mid_turn(2, "idw", 34, 60, master=True),
    "riogrande-fullhand-3p": mid_turn(3, "riogrande", 35, 50, full_hand=True),
}


def generate() -> list[dict[str, object]]:
    out = []
    for name, make in POSITIONS.items():
        game = make()
        text = game.position()
        loaded = GameState.from_position(text)
        counts = [perft(loaded, d) for d in DEPTHS]
        out.append({"name": name, "about": (make.__doc__ or "").strip(), "position": text,
                    "depth": dict(zip((str(d) for d in DEPTHS), counts))})
        print(f"{name:28s} {game.stage.name:12s} {counts}")
    return out


# --- the tests ------------------------------------------------------------------------------------------------


def _cases() -> list[dict[str, object]]:
    return list(json.loads(DATA.read_text())["positions"]) if DATA.exists() else []


def test_data_covers_the_required_situations() -> None:
    names = {c["name"] for c in _cases()}
    assert {"door-travel", "cards-in-hand", "keep-stage", "king-move", "master-castles"} <= names
    stages = {str(c["position"]).split()[4] for c in _cases()}
    assert {"stage=knights", "stage=turn", "stage=keep", "stage=king_move", "stage=castles",
            "stage=choose_first"} <= stages


@pytest.mark.parametrize("case", _cases(), ids=lambda c: str(c["name"]))
def test_perft(case: dict[str, object]) -> None:
    text = str(case["position"])
    game = GameState.from_position(text)
    assert game.position() == text
    expected = dict(case["depth"])  # type: ignore[call-overload]
    got = {str(d): perft(game, d) for d in DEPTHS}
    assert got == expected, f"perft counts changed for {case['name']}: {got} != {expected}"
    assert game.position() == text  # perft leaves the position as it found it


def test_hand_verified_door_travel() -> None:
    """Depth 1 of ``door-travel``, derived from the rules (000_…) by hand:

    * moves (1 AP): orthogonal steps up at most one level — a3, b2, b4 (level 0), not c3 (level 2); through the
      doors of c3–d3 "enter a castle through any door and exit from any other door ... cannot go up levels":
      the doors open where the castle's wall is exposed, onto c2, c4 (beside c3), d2, d4, e3 (beside d3);
    * add a knight (2 AP) next to b3 on its level or lower: a3, b2, b4;
    * take the stack of 3 (the phase card gives 3·3·3·3; 0 AP), buy a card, score a point, end the turn;
    * no block (no stack taken yet), no card to play (empty hand).
    """
    game = door_travel()
    expected = {"b3-a3", "b3-b2", "b3-b4", "b3-c2", "b3-c4", "b3-d2", "b3-d4", "b3-e3",
                "knight a3", "knight b2", "knight b4", "stack 3", "buy", "score", "end"}
    assert {str(a) for a in game.legal_actions} == expected
    # ... and the stored counts start from this very position.
    case = next((c for c in _cases() if c["name"] == "door-travel"), None)
    assert case is not None and case["position"] == game.position()
    assert case["depth"]["1"] == len(expected)  # type: ignore[index]


def test_hand_verified_setup() -> None:
    """``start-riogrande-2p``: 8 empty castles for the first knight, 7 for the second, then the king on one of
    the 6 castles still empty: 8, 8·7 = 56, 8·7·6 = 336."""
    case = next(c for c in _cases() if c["name"] == "start-riogrande-2p")
    assert case["depth"] == {"1": 8, "2": 56, "3": 336}


def test_hand_verified_keep_stage() -> None:
    """``keep-stage``: keep one of 3 drawn cards (3 ways); the other two go back both on top (2 orders), both
    at the bottom (2 orders), or one on top and one at the bottom (2 ways): 3 · 6 = 18."""
    case = next(c for c in _cases() if c["name"] == "keep-stage")
    game = GameState.from_position(str(case["position"]))
    assert game.stage is Stage.KEEP and len(set(game.drawn)) == 3
    assert case["depth"]["1"] == 18  # type: ignore[index]


def test_hand_verified_master_castles() -> None:
    """``master-castles`` (Rio Grande spacing): "at least 2 empty spaces between it and any other castle ...
    measured by moving orthogonally", i.e. an orthogonal (Manhattan) distance of at least 3 from c3 and f6.
    ``master-castles-idw``: "at least 2 squares away ... and at least 1 square between them diagonally", i.e.
    not in the 8 squares around a castle."""
    castles = [(2, 2), (5, 5)]  # c3, f6 as (file, rank)
    squares = [(f, r) for f in range(8) for r in range(8)]
    rio = [s for s in squares if all(abs(s[0] - f) + abs(s[1] - r) >= 3 for f, r in castles)]
    idw = [s for s in squares if all(max(abs(s[0] - f), abs(s[1] - r)) >= 2 for f, r in castles)]
    cases = {str(c["name"]): c for c in _cases()}
    for name, sites in (("master-castles", rio), ("master-castles-idw", idw)):
        game = GameState.from_position(str(cases[name]["position"]))
        names = {"castle " + "abcdefgh"[f] + str(r + 1) for f, r in sites}
        assert {str(a) for a in game.legal_actions} == names
        assert cases[name]["depth"]["1"] == len(sites)  # type: ignore[index]


if __name__ == "__main__":
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(json.dumps({"depths": list(DEPTHS), "positions": generate()}, indent=1) + "\n")
    print(f"wrote {DATA}")
