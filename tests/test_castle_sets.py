"""Boards no bot was tuned on (bench/castle_sets.py)."""

from __future__ import annotations

from itertools import islice
from types import SimpleNamespace

import pytest

from torres.engine.rules import STANDARD_CASTLES, Rules
from conftest import load_script

castle_sets = load_script("bench/castle_sets.py")


def test_a_set_is_the_same_board_turned_or_mirrored() -> None:
    assert castle_sets.images(("h1", "a8")) == {frozenset(("h1", "a8")), frozenset(("a1", "h8"))}
    board = ("b2", "e2", "h3", "c5", "f5", "a7", "d7", "g7")
    turned = castle_sets.images(board)
    assert len(turned) == 8 and frozenset(board) in turned
    assert frozenset(("b7", "e7", "h6", "c4", "f4", "a2", "d2", "g2")) in turned  # mirrored across the ranks
    assert frozenset(("g2", "d2", "a3", "f5", "c5", "h7", "e7", "b7")) in turned  # mirrored across the files
    # the editions' board is its own quarter turn: turned, it is itself or its mirror
    assert castle_sets.images(STANDARD_CASTLES) == {frozenset(STANDARD_CASTLES),
                                                    frozenset(("e8", "f6", "c6", "a5", "h4", "f3", "c3", "d1"))}


def test_sets_are_valid_boards_none_a_turn_of_another_or_of_those_avoided() -> None:
    avoid = ("b2", "e2", "h3", "c5", "f5", "a7", "d7", "g7")
    texts = list(islice(castle_sets.castle_sets("riogrande:max_buys=0", 2511, [avoid]), 12))
    boards = [Rules.from_text(text).castles for text in texts]
    assert all(rules.max_buys == 0 for rules in map(Rules.from_text, texts))
    taken = castle_sets.images(STANDARD_CASTLES) | castle_sets.images(avoid)
    for castles in boards:
        assert len(castles) == 8 and frozenset(castles) not in taken
        taken |= castle_sets.images(castles)
    # the boards measured in the strength log are the seed's first ones
    assert texts[0] == "riogrande:max_buys=0,castles=b2.b8.c5.e1.f3.f8.g6.h2"
    assert texts[:5] == list(islice(castle_sets.castle_sets("riogrande:max_buys=0", 2511, [avoid]), 5))
    bare = next(castle_sets.castle_sets("riogrande", 2511, [avoid]))  # an edition alone takes the castles too
    assert Rules.from_text(bare).castles == boards[0] and bare.startswith("riogrande:castles=")
    # a set avoided turned is avoided: the same seed then starts with the next board
    mirrored = sorted(f"{'abcdefgh'[7 - 'abcdefgh'.index(name[0])]}{name[1]}" for name in boards[0])
    again = list(islice(castle_sets.castle_sets("riogrande:max_buys=0", 2511, [avoid, mirrored]), 1))
    assert again == texts[1:2]


def test_bad_input_is_refused_with_its_reason(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, reason in ((["--count", "0"], "--count is 1..1000"),
                         (["--avoid", "a1.b2"], "castles lists 5 to 8"),
                         (["--base", "riogrande:castles=d8.c6.f6.h5.a4.c3.f3.e1"], "rules without castles")):
        with pytest.raises(SystemExit) as stopped:
            castle_sets.main(argv)
        assert stopped.value.code == 2
        assert reason in capsys.readouterr().err


def test_a_board_drawn_again_turned_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    first = ["b2", "b8", "c5", "e1", "f3", "f8", "g6", "h2"]
    turned = sorted(min(castle_sets.images(first) - {frozenset(first)}))
    other = ["a7", "b2", "b5", "c8", "f1", "f6", "h4", "h7"]

    class Draws:
        """Draws the first set, a turn of it, then another."""

        def __init__(self, seed: int) -> None:
            self.draws = iter([first, turned, other])

        def sample(self, population: list[str], k: int) -> list[str]:
            return next(self.draws)

    monkeypatch.setattr(castle_sets, "random", SimpleNamespace(Random=Draws))  # (this module's draws only)
    texts = list(islice(castle_sets.castle_sets("riogrande:max_buys=0", 0), 2))
    assert texts == ["riogrande:max_buys=0,castles=" + ".".join(sorted(first)),
                     "riogrande:max_buys=0,castles=" + ".".join(other)]
