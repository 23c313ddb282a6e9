"""Where a lost game was lost (bench/decisive_turns.py): the replay is the tournament's game, and each judged turn
is played out from copies that play the game as it was played."""

from __future__ import annotations

import pytest

from torres.cli.tournament import play_game
from conftest import load_script

decisive = load_script("bench/decisive_turns.py")

LOOKAHEAD = "lookahead:width=4:budget=300:reply_budget=100:simulations=4:known_candidates=4"
BOTS = [LOOKAHEAD, "onestep"]
RULES = "riogrande:max_buys=0"


def test_the_replay_is_the_tournaments_game_and_each_judged_turn_is_played_out() -> None:
    seed, game = 904, 3
    result = play_game(BOTS, game, 2, RULES, seed, True)
    seat = result.entries.index(0)
    outcome = decisive.analyse(BOTS, game, RULES, seed, random_setup=True, phase=2, every=True, all_games=True)
    assert outcome.seat == seat
    assert outcome.margin == result.scores[seat] - result.scores[1 - seat]
    assert len(outcome.turns) >= 3  # the last phase's turns of the first bot, the last first
    assert [(t.phase, t.round) for t in outcome.turns] == sorted(((t.phase, t.round) for t in outcome.turns),
                                                                 reverse=True)
    for turn in outcome.turns:
        assert turn.replayed == outcome.margin  # (analyse raises otherwise; said here too)
        assert len(turn.margins) == len(turn.means) >= 2
        # without cards the turn played is one the look-ahead judged, and playing it out ends as the game did
        assert turn.played >= 0 and turn.margins[turn.played] == outcome.margin


def test_the_search_back_stops_at_the_latest_turn_a_candidate_wins() -> None:
    seed = 904
    for game in range(12):
        every = decisive.analyse(BOTS, game, RULES, seed, random_setup=True, phase=2, every=True, all_games=True)
        winning = [i for i, t in enumerate(every.turns) if any(m > 0 for m in t.margins)]
        if winning and winning[0] + 1 < len(every.turns):  # (a search back that stops early)
            break
    else:
        pytest.fail("no game of the 12 had a turn, before its last judged one, where a candidate wins")
    back = decisive.analyse(BOTS, game, RULES, seed, random_setup=True, phase=2, all_games=True)
    assert back.turns == every.turns[:winning[0] + 1]


def test_games_and_bots_it_takes() -> None:
    assert decisive.parse_games("0-3,7") == [0, 1, 2, 3, 7]
    with pytest.raises(SystemExit, match="look-ahead"):
        decisive.analyse(["expert", "onestep"], 0, RULES, 1)
