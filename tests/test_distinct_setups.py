"""A tournament without cards from its distinct setups (bench/distinct_setups.py): the result of playing all."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from torres.cli.tournament import play_game

_spec = importlib.util.spec_from_file_location("distinct_setups",
                                               Path(__file__).parent.parent / "bench" / "distinct_setups.py")
assert _spec is not None and _spec.loader is not None
distinct = sys.modules["distinct_setups"] = importlib.util.module_from_spec(_spec)  # (its dataclass looks it up)
_spec.loader.exec_module(distinct)

BOTS = ["onestep", "greedy:width=1"]
RULES = "riogrande:max_buys=0"


def test_the_weighted_distinct_games_give_the_tournaments_result(tmp_path: Path) -> None:
    games, seed = 40, 904
    every = [play_game(BOTS, g, 2, RULES, seed, True) for g in range(games)]
    wins = sum(1.0 if r.scores[r.entries.index(0)] > r.scores[r.entries.index(1)] else
               0.5 if r.scores[0] == r.scores[1] else 0.0 for r in every)
    rows = tmp_path / "rows.jsonl"
    weighted = distinct.weighted_tournament(BOTS, RULES, games, seed, check=2, rows=rows)
    assert weighted.distinct < games and weighted.checked == 2     # setups do repeat: that is the point
    assert weighted.wins == wins
    # resumed from its rows, it plays nothing again and says the same
    again = distinct.weighted_tournament(BOTS, RULES, games, seed, rows=rows)
    assert again.wins == wins and len(rows.read_text().splitlines()) == weighted.distinct


def test_with_cards_to_buy_it_refuses() -> None:
    with pytest.raises(ValueError, match="max_buys=0"):
        distinct.weighted_tournament(BOTS, "riogrande", 4, 0)
