"""A tournament without cards from its distinct setups (bench/distinct_setups.py): the result of playing all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from torres.cli.tournament import GameResult, play_game, wilson
from conftest import load_script

distinct = load_script("bench/distinct_setups.py")
paired = load_script("bench/paired.py")

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
    # every game as the tournament lists it, so that bench/paired.py pairs it with a tournament's run
    assert [(r["game"], r["entries"], r["scores"], r["phases"], r["digest"]) for r in weighted.results] == [
        (r.game, r.entries, r.scores, r.phases, r.digest) for r in every]
    out = tmp_path / "all.json"
    distinct.main(["--bots", ",".join(BOTS), "--rules", RULES, "--games", str(games), "--seed", str(seed),
                   "--rows", str(rows), "--json", str(out)])
    tournament = {"players": 2, "edition": RULES, "seed": seed, "random_setup": True,
                  "results": [{"game": r.game, "entries": r.entries, "scores": r.scores, "phases": r.phases}
                              for r in every]}
    same = paired.compare(json.loads(out.read_text()), tournament)
    assert same.games == games and same.win_rate == (wins / games, wins / games) and same.half_width == 0


def test_with_cards_to_buy_it_refuses() -> None:
    with pytest.raises(ValueError, match="max_buys=0"):
        distinct.weighted_tournament(BOTS, "riogrande", 4, 0)


def test_a_screen_plays_the_lost_games_and_a_sample_of_the_won(tmp_path: Path) -> None:
    games, seed = 40, 904
    rows = tmp_path / "rows.jsonl"
    bots = ["greedy:width=1:reach=0", "greedy:width=1"]   # (games lost and won, and few alike)
    tournament = distinct.weighted_tournament(bots, RULES, games, seed, rows=rows)
    played = [json.loads(line) for line in rows.read_text().splitlines()]
    # the same bots again: nothing goes the other way
    same = distinct.screen(bots, RULES, seed, rows, won=3)
    before = {row["game"]: row["win"] for row in played}
    before_scores = {row["game"]: row["scores"] for row in played}
    assert same.lost and len(same.won) == 3 and same.won_now_lost == 0
    assert same.unchanged == len(same.lost) + len(same.won)
    assert same.lost_now_won == sum(before[g] for g in same.lost)    # (a tie is half a game won)
    assert set(same.lost) <= {row["game"] for row in played if row["win"] < 1}
    assert set(same.won) <= {row["game"] for row in played if row["win"] == 1}
    # a variant of the first bot: its results on the very games picked, as the tournament plays them
    variant = ["greedy:width=1:reach=0.3", bots[1]]
    screened = distinct.screen(variant, RULES, seed, rows, won=3)
    assert screened.lost == same.lost and screened.won == same.won
    now = {g: play_game(variant, g, 2, RULES, seed, True) for g in same.lost + same.won}
    wins = {g: _first_wins(result) for g, result in now.items()}
    assert screened.lost_now_won == sum(wins[g] for g in same.lost)
    assert screened.won_now_lost == sum(1 - wins[g] for g in same.won)
    scores = {g: [result.scores[result.entries.index(e)] for e in range(2)] for g, result in now.items()}
    assert screened.unchanged == sum(scores[g] == before_scores[g] for g in scores) < len(scores)
    games_there = {(row["digest"].split(":")[0], tuple(row["scores"])): row["win"] for row in played}
    won_there = sum(win == 1 for win in games_there.values())    # (one per game played: seating and scores)
    assert screened.won_there == won_there and screened.net == pytest.approx(
        screened.lost_now_won - screened.won_now_lost * won_there / 3)
    # the net's range: the won ones lost, as the 3 sampled allow them, scaled to all won
    low, high = wilson(screened.won_now_lost, 3)
    assert screened.net_range == pytest.approx((screened.lost_now_won - high * won_there,
                                                screened.lost_now_won - low * won_there))
    assert screened.net_range[0] <= screened.net <= screened.net_range[1]
    # kept, the screen's games are where the variant's whole run resumes: it plays only the others, to the same result
    kept = tmp_path / "variant.jsonl"
    assert distinct.screen(variant, RULES, seed, rows, won=3, keep=kept) == screened
    assert sorted(json.loads(line)["game"] for line in kept.read_text().splitlines()) == sorted(same.lost + same.won)
    whole = distinct.weighted_tournament(variant, RULES, games, seed, rows=kept)
    assert len(kept.read_text().splitlines()) == whole.distinct
    assert whole == distinct.weighted_tournament(variant, RULES, games, seed)
    with pytest.raises(ValueError, match="another file"):
        distinct.screen(variant, RULES, seed, rows, won=3, keep=rows)
    # every game played: counted as the tournament plays them, the same bots' screen is their tournament's result
    assert same.counted is None
    everything = distinct.screen(bots, RULES, seed, rows, won=games, games_there=games)
    assert everything.counted == (tournament.wins, tournament.wins)
    assert everything.net_range == (everything.net, everything.net) == (0, 0)   # (every won game played: no doubt)
    assert len(everything.lost) + len(everything.won) < tournament.distinct   # (fewer games than setups: weights)
    with pytest.raises(ValueError, match="not a run of 80 games"):
        distinct.screen(bots, RULES, seed, rows, won=games, games_there=2 * games)


def _first_wins(result: GameResult) -> float:
    scores = [result.scores[result.entries.index(e)] for e in range(2)]
    return 1.0 if scores[0] > scores[1] else 0.5 if scores[0] == scores[1] else 0.0
