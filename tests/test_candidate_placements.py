"""Where the master's planner's best turns leave the pieces (bench/candidate_placements.py): counted at the master's
own turn starts of the games bench/last_turns.py kept, with the master's own planner settings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from torres.ai import make_bot
from torres.ai.lookahead import LookaheadBot
from torres.ai.planner import plan_turn
from torres.cli.tournament import start_game
from torres.engine.stage import Stage
from conftest import load_script

last = load_script("bench/last_turns.py")
placements = load_script("bench/candidate_placements.py")

MASTER = "lookahead:width=4:budget=300:reply_budget=100:simulations=4:known_candidates=4"
RULES = "riogrande:max_buys=0"


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rows") / "rows.jsonl"
    last.main(["--master", MASTER, "--rival", "onestep", "--games", "2", "--seed", "904", "--rows", str(path)])
    return path


def test_every_turn_start_of_the_master_is_counted_in_one_to_as_many_placements_as_turns_judged(
        rows: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept = [json.loads(line) for line in rows.read_text().splitlines()]
    counts = [c for row in kept for c in placements.game_counts(row, 1)]
    assert len(counts) == 12 * len(kept)  # the master's turns: half of 3 phases x 4 rounds x 2 seats
    assert all(1 <= c <= 4 for c in counts)
    placements.main(["--rows", str(rows), "--games", "2", "--every", "1"])
    assert f"{len(counts)} of the master's turn starts in {len(kept)} games" in capsys.readouterr().out


def test_a_count_is_the_placements_of_the_turns_the_look_ahead_judges(rows: Path) -> None:
    row = json.loads(rows.read_text().splitlines()[0])
    start = start_game([MASTER, "onestep"], row["game"], 2, RULES, 904, True)
    state = start.state
    for action in row["actions"]:  # to the master's first turn start
        if state.stage is Stage.TURN and start.entries[state.current] == 0:
            break
        state.push(action)
    master = make_bot(MASTER)
    assert isinstance(master, LookaheadBot)
    master.choose(state.view(state.current))
    judged = [actions for actions, _, _ in master.search.stats.candidates]
    assert judged == [p.actions for p in plan_turn(state, 4, master.search.weights, top=4, budget=300,
                                                     limit=master.search.limit)]
    left = set()
    for actions in judged:
        copy = state.clone()
        for action in actions:
            copy.apply(action)
        left.add(bytes(copy.occ))
    assert placements.placements(state, master) == len(left)


def test_it_needs_a_look_ahead_bot(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"bot": "expert", "master": "expert", "split": 0, "rival": "onestep", "game": 0,
                                "rules": RULES, "seed": 904, "actions": []}) + "\n")
    with pytest.raises(SystemExit, match="not a look-ahead bot"):
        placements.main(["--rows", str(rows)])
