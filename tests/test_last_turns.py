"""Variants that differ only in a game's last turns (bench/last_turns.py): the master's games are the tournament's,
and a variant plays on from the master's own actions at the split."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from torres.ai import make_bot
from torres.cli.tournament import play_game, start_game
from torres.engine import GameState, Rules
from torres.engine.stage import Stage
from conftest import load_script

last = load_script("bench/last_turns.py")

MASTER = "lookahead:width=4:budget=300:reply_budget=100:simulations=4:known_candidates=4"
RIVAL = "onestep"
#: Not a variant of the kind the bench is for (it plays otherwise from the first turn), so that its games show what
#: the bench plays: the master's actions up to the split, then the variant's own.
OTHER = "lookahead:width=2:budget=150:reply_budget=50:simulations=4:known_candidates=4"
RULES = "riogrande:max_buys=0"


def test_the_turns_to_the_games_end_count_every_seats_turns_down_to_the_last() -> None:
    state = GameState(2, 3, Rules.from_text(RULES))
    bots = [make_bot("greedy:width=1", s) for s in range(2)]
    counted, actor = [], None
    while not state.is_over():
        if state.stage is Stage.TURN and (state.current, state.phase, state.round, state.turn) != actor:
            actor = (state.current, state.phase, state.round, state.turn)
            counted.append(last.turns_to_end(state))
        state.push(bots[state.current].choose(state.view(state.current)))
    assert counted == list(range(24, 0, -1))  # three phases of four rounds, two seats


def _played_on(bots: list[str], game: int, prefix: list[int]) -> list[int]:
    """Game ``game`` of seed 904 with ``prefix`` replayed, then played on by fresh ``bots``: its scores by entry."""
    start = start_game(bots, game, 2, RULES, 904, True)
    state = start.state
    for action in prefix:
        state.push(action)
    while not state.is_over():
        state.push(start.seats[state.current].choose(state.view(state.current)))
    return [state.scores[start.entries.index(e)] for e in range(2)]


def test_the_masters_games_are_the_tournaments_and_a_variant_plays_on_from_its_split(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = tmp_path / "rows.jsonl"
    argv = ["--master", MASTER, "--rival", RIVAL, "--games", "8", "--seed", "904", "--rows", str(rows),
            "--check", "2", "--variant", MASTER, "--variant", OTHER]
    last.main(argv)
    out = capsys.readouterr().out
    assert "2 games played on from the split by the master ended as they did" in out
    kept = [json.loads(line) for line in rows.read_text().splitlines()]
    master = {r["game"]: r for r in kept if r["bot"] == MASTER and r["split"] == 0}
    same = {r["game"]: r for r in kept if r["bot"] == MASTER and r["split"] == 4}
    other = {r["game"]: r for r in kept if r["bot"] == OTHER}
    assert master and set(same) == set(other) == set(master)
    for game, row in master.items():
        result = play_game([MASTER, RIVAL], game, 2, RULES, 904, True)
        assert row["scores"] == [result.scores[result.entries.index(e)] for e in range(2)]  # the tournament's game
        split = row["splits"]["4"]
        assert same[game]["actions"] == row["actions"]  # the master played on from its split: its own game
        assert other[game]["actions"][:split] == row["actions"][:split]
        assert other[game]["scores"] == _played_on([OTHER, RIVAL], game, row["actions"][:split])
    assert any(other[g]["actions"] != master[g]["actions"] for g in master)  # (the comparison is not idle)
    lines = out.splitlines()
    assert any(line.startswith(f"{MASTER}: ") and "0 setups ended otherwise" in line for line in lines)
    assert any(line.startswith(f"{OTHER}: ") and "won where the master lost" in line for line in lines)
    # resumed from its rows, it plays nothing again and says the same
    last.main(argv)
    assert len(rows.read_text().splitlines()) == len(kept)
    assert capsys.readouterr().out.splitlines()[1:] == lines[1:]


def test_a_variant_from_the_whole_game_plays_its_own_tournament_games(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    last.main(["--master", MASTER, "--rival", RIVAL, "--games", "6", "--seed", "904", "--rows", str(rows),
               "--split", str(last.WHOLE), "--variant", OTHER])
    kept = [json.loads(line) for line in rows.read_text().splitlines()]
    other = {r["game"]: r for r in kept if r["bot"] == OTHER and r["split"] == last.WHOLE}
    master = {r["game"]: r for r in kept if r["bot"] == MASTER and r["split"] == 0}
    assert other and set(other) == set(master)
    # (the master's actions replayed would give the master's games: some of the variant's are not)
    assert any(other[g]["actions"] != master[g]["actions"] for g in other)
    for game, row in other.items():   # nothing of the master's replayed: the variant's game from its setup
        result = play_game([OTHER, RIVAL], game, 2, RULES, 904, True)
        assert row["scores"] == [result.scores[result.entries.index(e)] for e in range(2)]


def test_it_takes_rules_without_cards_only(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="max_buys=0"):
        last.main(["--rules", "riogrande", "--rows", str(tmp_path / "rows.jsonl")])
