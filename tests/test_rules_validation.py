"""Issue #31: one check of rules in the engine, wherever rules come from, and bounds on what an upload may cost.

- ``Rules.from_text`` and every ``Rules`` made in code refuse settings that cannot make a sound game with a
  :class:`RulesError` naming the setting and its range (docs/notation.md, "The rules text");
- every edition and every rules text of the docs and the tests is still accepted;
- the server answers 400, never 500, to a record or a new game with such rules, and to records too large to be a
  game; the command line and the environments say the engine's message instead of a traceback;
- random rules texts either are refused or make a game that plays to its end.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from torres import GameState
from torres.engine.actions import MAX_STACK, Action, Kind
from torres.engine.rules import EDITIONS, MAX_RULES_TEXT, Rules, RulesError
from torres.records import (
    FORMAT, MAX_ACTIONS, VERSION, RecordError, parse_record, read_record, record_of, replay, validate_record,
)
from torres.server.app import create_app
from torres.server.replays import replay_of_record

ROOT = Path(__file__).resolve().parent.parent

#: Rules texts the engine must refuse, and a part of the message each must give.
BAD_TEXTS = [
    # the issue's own
    ("riogrande:master=1,master_card=99", "master_card is -1..7"),
    ("riogrande:phase_stacks=0", "phase_stacks is 3 phases"),
    ("riogrande:phase_stacks=3.3|3", "phase_stacks is 3 phases"),
    ("riogrande:phase_stacks=15.15.15.15", "phase_stacks is 3 phases"),
    ("riogrande:action_points=100000", "action_points is 1..8, not 100000"),
    ("riogrande:castles=15.15.15.15", "castles: '15' is not a square"),
    ("riogrande:king_bonus=15.15.15.15", "king_bonus is 3 numbers"),
    # malformed numbers and values
    ("riogrande:action_points=3.3", "action_points: '3.3' is not a whole number"),
    ("riogrande:stack_cap=15.15.15.15", "stack_cap: '15.15.15.15' is not a whole number"),
    ("riogrande:action_points=", "is not a whole number"),
    ("riogrande:action_points=٣", "is not a whole number"),
    ("riogrande:action_points=1_0", "is not a whole number"),
    ("riogrande:action_points= 5", "is not a whole number"),
    ("riogrande:max_buys=999999999999999999999", "is not a whole number"),
    ("riogrande:master=2", "master is 1 (on) or 0 (off)"),
    ("riogrande:master=maybe", "master is 1 (on) or 0 (off)"),
    ("riogrande:card_mode=mine", "bad value 'mine' for card_mode (options: own, common)"),
    ("riogrande:phase_stacks=3.x|3|3", "phase_stacks: 'x' is not a whole number"),
    ("riogrande:king_bonus=", "king_bonus: '' is not a whole number"),
    ("riogrande:castles=", "castles: '' is not a square"),
    # unknown, repeated, misplaced
    ("monopoly", "unknown edition 'monopoly'"),
    ("riogrande:colour=pink", "unknown rules setting 'colour'"),
    ("riogrande:edition=idw", "the edition is named before the ':'"),
    ("riogrande:master", "bad rules setting 'master' (expected key=value)"),
    ("riogrande:stack_cap=3,stack_cap=0", "stack_cap is set twice"),
    ("riogrande:master=1,", "bad rules setting ''"),
    # out of range: negative, zero, huge
    ("riogrande:master_card=-2", "master_card is -1..7"),
    ("idw:knights_per_player=0", "knights_per_player is 1..8, not 0"),
    ("riogrande:knights_per_player=9", "knights_per_player is 1..8, not 9"),
    ("riogrande:action_points=0", "action_points is 1..8, not 0"),
    ("riogrande:action_points=-5", "action_points is 1..8, not -5"),
    ("riogrande:max_buys=-1", "max_buys is 0..3, not -1"),
    ("riogrande:max_buys=100", "max_buys is 0..3, not 100"),
    ("riogrande:stack_cap=16", "stack_cap is 0..15"),
    ("riogrande:stack_cap=-1", "stack_cap is 0..15"),
    ("ravensburger:blocks_total=0", "blocks_total is 5..92"),
    ("riogrande:blocks_total=1000000", "blocks_total is 5..92"),
    ("riogrande:min_castles=9", "min_castles is 0..8"),
    ("riogrande:min_castles=-1", "min_castles is 0..8"),
    ("riogrande:king_bonus=5.10", "king_bonus is 3 numbers"),
    ("riogrande:king_bonus=5.10.-15", "king_bonus is 3 numbers 0..50"),
    ("riogrande:king_bonus=5.10.1000", "king_bonus is 3 numbers 0..50"),
    ("hebrew:phase_stacks=3.3|3.3|3.3|3.3", "phase_stacks is 3 phases"),
    ("riogrande:phase_stacks=3.3.3.3.3.3|3|3", "phase 1 has 6 stacks; a phase has 1 to 5"),
    ("riogrande:phase_stacks=3.0|3|3", "a stack holds 1 to 15 blocks, not 0"),
    ("riogrande:phase_stacks=3.16|3|3", "a stack holds 1 to 15 blocks, not 16"),
    ("riogrande:phase_stacks=3.-3|3|3", "a stack holds 1 to 15 blocks, not -3"),
    ("riogrande:stack_cap=0,phase_stacks=9.9|3|3", "phase 1 deals 18 blocks"),
    ("idw:stack_cap=0", "with stack_cap=0 (no cap)"),
    ("yucata:phase_end_blocks=keep", "with stack_cap=0 (no cap)"),
    # castles: the board, the count, the distance
    ("riogrande:castles=z9", "castles: 'z9' is not a square"),
    ("riogrande:castles=d8", "castles lists 5 to 8 starting castles"),
    ("riogrande:castles=a4.a4.a4.a4.a4.a4", "castles: a4 is listed twice"),
    ("riogrande:castles=d8.d7.a1.h1.h4", "d8 and d7 are too close"),
    ("riogrande:castles=a1.b2.e5.h8.a8", "a1 and b2 are too close"),
    ("riogrande:castles=a1.a3.a5.a7.c1.c3.c5.c7.e1", "castles lists 5 to 8 starting castles"),
    ("riogrande:castles=d8.c6.f6.h5.a4.c3.f3.e1,blocks_total=7", "blocks_total is at least one block per starting"),
    # length
    ("riogrande:" + ",".join(["master=1"] * 200), f"at most {MAX_RULES_TEXT} characters"),
]

#: Rules texts of the docs and the tests that must stay welcome (more are read from the docs below).
GOOD_TEXTS = [
    "riogrande", "ravensburger", "hebrew", "idw", "yucata", "riogrande:", "idw:master=1",
    "riogrande:card_mode=common", "riogrande:card_mode=common,master=1", "ravensburger:next_starter=king_mover",
    "riogrande:full_hand=1", "riogrande:lift_counts_toward_three=1", "yucata:lift_counts_toward_three=0",
    "riogrande:stack_cap=0", "riogrande:phase_stacks=3.3.2.2|3.3.2|3.3.2", "riogrande:king_bonus=5.10.15",
    "riogrande:castles=d8.c6.f6.h5.a4.c3.f3.e1", "yucata:master=1,master_card=3", "yucata:card_mode=common",
    "riogrande:card_mode=common,spacing=gap1_no_diagonal", "riogrande:master=1,master_card=0",
    "riogrande:master=true,full_hand=no", "riogrande:castles=D8.C6.F6.H5.A4.C3.F3.E1",
    # the bounds themselves
    "riogrande:action_points=1,max_buys=0,knights_per_player=1,blocks_total=8,min_castles=0,stack_cap=1",
    "riogrande:action_points=8,max_buys=3,knights_per_player=8,blocks_total=92,min_castles=8,stack_cap=15",
    "riogrande:phase_stacks=15.15.15.15.15|1|1,king_bonus=0.0.50,master_card=7",
    "riogrande:stack_cap=0,phase_stacks=5.5.5|5.5.5|5.5.5",
    "idw:stack_cap=0,phase_stacks=5|5|5",
    "riogrande:castles=a1.d1.g1.b5.e5,spacing=orthogonal_gap2",
    "riogrande:castles=a1.a3.a5.a7.c1.c3.c5.c7,spacing=gap1_no_diagonal",
]


def _docs_rules_texts() -> set[str]:
    """Every rules text written in backquotes in the docs and the README (OpenSpiel's ``~``/``;`` spelling too)."""
    names = "|".join(EDITIONS)
    found: set[str] = set()
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for text in re.findall(rf"`((?:{names})(?::[^`\s]*)?)`", path.read_text(encoding="utf-8")):
            found.add(text.replace("~", "=").replace(";", ","))
    return found


# --- the engine ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, message", BAD_TEXTS)
def test_bad_rules_texts_are_refused_with_a_message(text: str, message: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_text(text)
    assert message in str(info.value)
    assert isinstance(info.value, ValueError)
    assert len(str(info.value)) < 600  # the message names what is wrong; it does not echo a page of input


@pytest.mark.parametrize("text", GOOD_TEXTS)
def test_good_rules_texts_are_welcome_and_read_back(text: str) -> None:
    rules = Rules.from_text(text)
    assert Rules.from_text(rules.to_text()) == rules
    for players in (2, 3, 4):
        GameState(players, 1, rules)


def test_every_rules_text_of_the_docs_is_welcome() -> None:
    texts = _docs_rules_texts()
    assert {"idw:master=1", "riogrande:card_mode=common", "ravensburger:next_starter=king_mover"} <= texts
    for text in texts:
        rules = Rules.from_text(text)
        assert Rules.from_text(rules.to_text()) == rules, text


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_every_edition_with_every_variant_is_welcome(edition: str) -> None:
    for master in (False, True):
        for card_mode in ("own", "common"):
            for full_hand in (False, True):
                rules = Rules.for_edition(edition, master=master, card_mode=card_mode, full_hand=full_hand)
                assert Rules.from_text(rules.to_text()) == rules
                for players in (2, 3, 4):
                    GameState(players, 3, rules)
    assert Rules.from_text(edition) is EDITIONS[edition]


def test_rules_made_in_code_are_checked_too() -> None:
    with pytest.raises(RulesError, match="action_points is 1..8"):
        Rules(action_points=100_000)
    with pytest.raises(RulesError, match="master_card is -1..7"):
        Rules.for_edition("riogrande", master=True, master_card=99)
    with pytest.raises(RulesError, match="phase_stacks is 3 phases"):
        Rules().replace(phase_stacks=((0,),))
    with pytest.raises(RulesError, match="a stack holds 1 to 15 blocks"):
        Rules().replace(phase_stacks=[[3, 3], [3, 0], [3]])
    with pytest.raises(RulesError, match="unknown rules setting 'colour'"):
        Rules().replace(colour="pink")
    with pytest.raises(RulesError, match="unknown edition 'monopoly'"):
        Rules(edition="monopoly")
    with pytest.raises(RulesError, match="is a whole number"):
        Rules(action_points=5.0)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="is a whole number"):
        Rules(knights_per_player=True)
    with pytest.raises(RulesError, match="castles is a list of squares"):
        Rules(castles="d8")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="bad value 'sometimes' for spacing"):
        Rules(spacing="sometimes")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="master is 1 .on. or 0 .off."):
        Rules(master=2)  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        Rules(castles=("d8", "c6", "f6", "h5", "a4", "c3", "f3", "e2"))  # e2 is next to e1... and f3
    # Values in their canonical types: equal rules are equal, and hashable.
    made = Rules(card_mode="common", castles=["D8", "c6", "f6", "h5", "a4", "c3", "f3", "e1"],  # type: ignore
                 phase_stacks=[[3, 3, 2, 2], [3, 3, 2], [3, 3, 2]], master=1)  # type: ignore[arg-type]
    assert made == Rules.from_text("riogrande:card_mode=common,master=1,phase_stacks=3.3.2.2|3.3.2|3.3.2")
    assert hash(made) == hash(Rules.from_text(made.to_text()))


def test_the_bounds_keep_every_game_short_and_its_stacks_nameable() -> None:
    """The most any rules allow: 977 actions for 4 players, within the records' bound; no stack past 15."""
    widest = Rules.from_text("riogrande:action_points=8,max_buys=3,phase_stacks=1.1.1.1.1|1.1.1.1.1|1.1.1.1.1")
    assert widest.longest_game(4) == 977 <= MAX_ACTIONS
    for rules in EDITIONS.values():
        assert [rules.longest_game(n) for n in (2, 3, 4)] == [303, 376, 497]
    assert MAX_STACK - 1 == 15


def test_a_long_game_stays_within_its_bound() -> None:
    """A player that takes every action it can (never ``end`` while anything else is legal): the longest games
    the rules allow, and still within ``longest_game``."""
    for text, players in (("idw", 4), ("riogrande:master=1", 4), ("ravensburger:action_points=8,max_buys=3", 3)):
        rules = Rules.from_text(text)
        state = GameState(players, 4, rules)
        rng = random.Random(4)
        while not state.is_over():
            legal = state.legal_action_ids()
            busy = [a for a in legal if Action(a).kind is not Kind.END]
            state.push(rng.choice(busy or legal))
        assert len(state.history) <= rules.longest_game(players)


# --- random rules texts: refused, or a game that plays to its end -----------------------------------------------
VALUES = {
    "master_card": ["-2", "-1", "0", "3", "7", "8", "99"],
    "knights_per_player": ["0", "1", "2", "6", "8", "9"],
    "action_points": ["0", "1", "3", "5", "8", "9", "100000", "3.3"],
    "max_buys": ["-1", "0", "2", "3", "4"],
    "stack_cap": ["0", "1", "2", "3", "3", "15", "16"],
    "blocks_total": ["0", "4", "8", "20", "60", "92", "93"],
    "min_castles": ["0", "5", "6", "8", "9"],
    "castles": ["d8.c6.f6.h5.a4.c3.f3.e1", "a1.d1.g1.b5.e5", "a1.h8.d4.a8.h1", "z9", "d8", "d8.d7.a1.h1.h4",
                "a1.a3.a5.a7.c1.c3.c5.c7"],
    "phase_stacks": ["0", "3.3|3", "15.15.15.15", "1|1|1", "5|5|5", "2.2|3|1.1.1.1.1", "15|15|15", "3.3.3.3.3|4|4",
                     "3.3.3.3.3.3|3|3"],
    "king_bonus": ["5.10.15", "0.0.0", "50.50.50", "5.10", "15.15.15.15", "1.2.51"],
    "master": ["0", "1", "2"], "full_hand": ["0", "1"], "card_mode": ["own", "common", "both"],
    "stack_choice": ["player", "largest"], "phase_end_blocks": ["return", "keep"],
    "next_starter": ["king_mover", "unchanged", "chosen_by_lowest"], "scoring_order": ["turn_order", "track"],
    "start_player": ["first_seat", "random"], "spacing": ["orthogonal_gap2", "gap1_no_diagonal"],
    "lift_counts_toward_three": ["0", "1"], "shift_level_one": ["0", "1"], "climb_card": ["exactly_two", "up_to_two"],
    "vault_over": ["any_knight", "opponent_knight"], "king_move_other_castle": ["0", "1"],
    "shift_six_every_moment": ["0", "1"], "colour": ["pink"], "edition": ["idw"],
}


@st.composite
def rules_texts(draw: Any) -> str:
    edition = draw(st.sampled_from(list(EDITIONS)))
    keys = draw(st.lists(st.sampled_from(sorted(VALUES)), max_size=5, unique=True))
    # Mostly the values above (each setting's edges, inside and out), now and then any short text.
    items = [f"{key}={draw(st.text(max_size=4)) if draw(st.integers(0, 9)) == 0 else draw(st.sampled_from(VALUES[key]))}"
             for key in keys]
    return edition + (":" + ",".join(items) if items else "")


def test_random_rules_texts_are_refused_or_make_a_game_that_ends() -> None:
    outcomes: list[bool] = []

    @given(text=rules_texts(), players=st.integers(2, 4), seed=st.integers(0, 1000))
    @settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    def check(text: str, players: int, seed: int) -> None:
        try:
            rules = Rules.from_text(text)
        except RulesError as exc:
            assert str(exc)
            outcomes.append(False)
            return
        outcomes.append(True)
        assert Rules.from_text(rules.to_text()) == rules
        state = GameState(players, seed, rules)
        rng = random.Random(seed)
        while not state.is_over():
            legal = state.legal_action_ids()
            assert legal, (text, state.position())
            state.push(rng.choice(legal))
            assert len(state.history) <= rules.longest_game(players), text
        for stacks in state.stacks:
            assert all(1 <= h <= MAX_STACK - 1 for h in stacks)

    check()
    assert outcomes.count(True) >= 10 and False in outcomes, outcomes.count(True)


# --- records, uploads, the server -------------------------------------------------------------------------------
def _record(rules: str, actions: list[Any], players: int = 2, **fields: Any) -> dict[str, Any]:
    record = {"format": FORMAT, "version": VERSION, "rules": rules, "edition": rules.partition(":")[0],
              "players": players, "seed": 1, "actions": actions,
              "result": {"scores": [0] * players, "winners": [], "finished": False}}
    record.update(fields)
    return record


def _shuttle(moves: int) -> list[str]:
    """Seat 0's first turn, a knight stepping off its castle and back again ``moves`` times: legal only with
    enough action points (the issue's ``action_points=100000`` upload)."""
    return ["start d8", "start c6", "king f6"] + ["d8-e8", "e8-d8"] * (moves // 2)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One server for the module (it starts a process for uploads: once is enough)."""
    path = tmp_path_factory.mktemp("rules")
    with TestClient(create_app(f"sqlite:///{path}/t.db"), raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("text, message", [(t, m) for t, m in BAD_TEXTS if len(t) < 200])
def test_an_upload_with_bad_rules_is_a_400_with_the_engines_message(client: TestClient, text: str,
                                                                   message: str) -> None:
    record = _record(text, ["start d8", "start c6", "king f6", "stack 3", "block d7", "end"])
    answer = client.post("/api/replay", json=record)
    assert answer.status_code == 400, answer.text
    assert message in answer.json()["detail"]
    with pytest.raises(RecordError, match=re.escape(message)):
        validate_record(record)


_SETUP = ["start d8", "start c6", "king f6"]


@pytest.mark.parametrize("text, actions, message", [
    # the issue's uploads, each a 500 before: a master card that does not exist, phases that run out (IndexError)
    ("riogrande:master=1,master_card=99", [], "master_card is -1..7"),
    ("riogrande:phase_stacks=0", _SETUP + ["end", "end", "king stay"], "phase_stacks is 3 phases"),
    ("riogrande:phase_stacks=3.3|3", _SETUP + ["end"] * 4 + ["king stay", "end", "end", "king stay"],
     "phase_stacks is 3 phases"),
    ("riogrande:phase_stacks=15.15.15.15", _SETUP + ["end"] * 8 + ["king stay"], "phase_stacks is 3 phases"),
])
def test_the_issues_uploads_are_400s_not_500s(client: TestClient, text: str, actions: list[str],
                                               message: str) -> None:
    answer = client.post("/api/replay", json=_record(text, actions))
    assert answer.status_code == 400, answer.text[:300]
    assert message in answer.json()["detail"]


@pytest.mark.parametrize("text", ["riogrande:master=1,master_card=99", "riogrande:phase_stacks=0",
                                  "riogrande:phase_stacks=3.3|3", "riogrande:phase_stacks=15.15.15.15",
                                  "riogrande:action_points=100000", "riogrande:castles=z9"])
def test_a_new_game_with_bad_rules_is_a_400(client: TestClient, text: str) -> None:
    answer = client.post("/api/games", json={"players": 2, "edition": text, "hotseat": True,
                                             "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert answer.status_code == 400, answer.text
    with pytest.raises(RulesError) as info:
        Rules.from_text(text)
    assert answer.json()["detail"] == str(info.value)


@pytest.mark.parametrize("text", ["riogrande:stack_cap=0", "riogrande:phase_stacks=3.3.2.2|3.3.2|3.3.2",
                                  "riogrande:action_points=8,max_buys=3", "yucata:master=1,master_card=3"])
def test_a_new_game_with_rules_within_the_bounds_is_welcome(client: TestClient, text: str) -> None:
    answer = client.post("/api/games", json={"players": 3, "edition": text, "hotseat": True,
                                             "seats": [{"kind": "human"}] * 3})
    assert answer.status_code == 201, answer.text
    assert Rules.from_text(answer.json()["game"]["rules"]) == Rules.from_text(text)


def test_the_issues_costly_upload_is_refused_at_once(client: TestClient) -> None:
    """A legal record of 2,000 actions under ``action_points=100000`` took tens of seconds and megabytes; now its
    rules are refused before anything is replayed."""
    record = _record("riogrande:action_points=100000", _shuttle(2000))
    started = time.perf_counter()
    answer = client.post("/api/replay", json=record)
    assert answer.status_code == 400, answer.text[:200]
    assert "action_points is 1..8" in answer.json()["detail"]
    assert time.perf_counter() - started < 5


@pytest.mark.parametrize("change, message", [
    (lambda r: r.update(actions=["start d8"] * (MAX_ACTIONS + 1)), "has at most 303 actions"),
    (lambda r: r.update(actions=["end"] * 304), "has at most 303 actions; this record lists 304"),
    (lambda r: r.update(players=4, actions=["end"] * 498,
                        result={"scores": [0] * 4, "winners": [], "finished": False}), "has at most 497 actions"),
    (lambda r: r.update(actions=["start " + "d8" * 100]), "an action has at most 64 characters"),
    (lambda r: r.update(actions=["start d8", None]), "an action is a string"),
    (lambda r: r.update(actions=["start d8", ["start c6"]]), "an action is a string"),
    (lambda r: r.update(actions=["start d8", "castle z9"]), "action 1"),
    (lambda r: r.update(actions=["start d8", "start d8"]), "action 1 ('start d8') cannot be replayed"),
    (lambda r: r.update(meta={"names": ["x" * 5000]}), "'meta' holds at most 4096 characters"),
    (lambda r: r.update(meta={"players": [{"name": "Ann" * 100}]}), "at most 200 characters"),
    (lambda r: r.update(meta={"n" * 300: 1}), "at most 200 characters"),
    (lambda r: r.update(meta="Ann"), "'meta' must be an object"),
    (lambda r: r.update(seed=2**70), "'seed' must be an integer"),
    (lambda r: r.update(seed=1.5), "'seed' must be an integer"),
    (lambda r: r.update(players="2"), "'players' must be 2, 3 or 4"),
    (lambda r: r.update(rules=["riogrande"]), "'rules' must be a rules string"),
    (lambda r: r.update(rules="x" * 5000, edition="x"), "at most 1000 characters"),
    (lambda r: r.update(edition=None), "'edition' is None"),
    (lambda r: r.update(format="x" * 10_000), "not a Torres record"),
    (lambda r: r.update(version="1"), "unsupported record version"),
    (lambda r: r.update(result={"scores": [0, 0], "winners": [0, 0], "finished": False}), "each once"),
    (lambda r: r.update(result={"scores": [0, 10**9], "winners": [], "finished": False}), "integer scores"),
    (lambda r: r.update(result={"scores": [0, 0], "winners": [], "finished": False, "x": 1}), "unknown field"),
    (lambda r: r.update(result={"scores": "0", "winners": [], "finished": False}), "integer scores"),
    (lambda r: r.update(result=None), "'result' must be an object"),
])
def test_every_bad_upload_is_a_400(client: TestClient, change: Any, message: str) -> None:
    record = _record("riogrande", ["start d8", "start c6", "king f6"])
    change(record)
    started = time.perf_counter()
    answer = client.post("/api/replay", json=record)
    assert answer.status_code == 400, answer.text[:300]
    assert message in answer.json()["detail"], answer.json()["detail"]
    assert len(answer.json()["detail"]) < 800
    assert time.perf_counter() - started < 5
    with pytest.raises(RecordError):
        replay_of_record(record)


@pytest.mark.parametrize("body", [[], "record", 7, None, {"format": FORMAT}, {}])
def test_an_upload_that_is_no_record_is_a_400(client: TestClient, body: Any) -> None:
    with pytest.raises(RecordError):
        replay_of_record(body)
    answer = client.post("/api/replay", json=body)
    assert answer.status_code in (400, 422), answer.text


def test_a_real_game_still_uploads_and_its_replay_is_cheap(client: TestClient) -> None:
    rules = Rules.for_edition("idw", master=True)
    state = GameState(4, 5, rules)
    rng = random.Random(5)
    while not state.is_over():
        state.push(rng.choice(state.legal_action_ids()))
    record = record_of(state, {"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}, {"name": "Di"}]})
    answer = client.post("/api/replay", json=record)
    assert answer.status_code == 200, answer.text[:300]
    assert len(answer.json()["frames"]) == len(record["actions"]) + 1


def test_record_files_are_bounded(tmp_path: Path) -> None:
    state = GameState(2, 1).play(["start d8", "start c6", "king f6"])
    record = record_of(state)
    text = json.dumps(record)
    assert parse_record(text) == record
    padded = text[:-1] + ", " + " " * (200 * 1024) + "}"
    with pytest.raises(RecordError, match="at most 131072 characters"):
        parse_record(padded)
    path = tmp_path / "big.json"
    path.write_text(padded, encoding="utf-8")
    with pytest.raises(RecordError, match="at most 131072 characters"):
        read_record(path)
    with pytest.raises(RecordError, match="not valid JSON"):
        parse_record("[" * 50_000 + "]" * 50_000)
    with pytest.raises(RecordError, match="cannot stop after"):
        replay(record, upto="2")  # type: ignore[arg-type]


# --- the command line and the environments -----------------------------------------------------------------------
@pytest.mark.parametrize("command", [
    ["play", "--seats", "bot,bot"], ["demo", "--players", "2", "--delay", "0"], ["selfplay"],
    ["tournament", "--bots", "random,random", "--games", "1"], ["bench-ai", "--positions", "1"],
])
@pytest.mark.parametrize("text, message", [("riogrande:phase_stacks=0", "phase_stacks is 3 phases"),
                                           ("riogrande:action_points=100000", "action_points is 1..8")])
def test_every_command_says_the_engines_message(command: list[str], text: str, message: str) -> None:
    import importlib

    from torres.cli.app import app
    from torres.cli.main import COMMAND_MODULES

    for name in COMMAND_MODULES:
        if name != "serve":
            importlib.import_module(f"torres.cli.{name}")
    result = CliRunner().invoke(app, [*command, "--edition", text])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert message in " ".join((result.output + (result.stderr or "")).split())


def test_the_environment_says_the_engines_message() -> None:
    pytest.importorskip("pettingzoo")
    from torres.env import aec

    with pytest.raises(ValueError, match="phase_stacks is 3 phases"):
        aec.raw_env(players=2, rules="riogrande:phase_stacks=0")
    with pytest.raises(ValueError, match="master_card is -1..7"):
        aec.raw_env(players=2, rules="riogrande:master=1,master_card=99")
    env = aec.raw_env(players=3, rules="riogrande:action_points=8,phase_stacks=2|2|2")
    env.reset(seed=1)
    assert env.rules.action_points == 8


def test_the_fields_are_all_bounded() -> None:
    """Every setting is a boolean, an enum, or bounded by the check (a new field needs a bound)."""
    from enum import Enum

    from torres.engine.rules import INT_LIMITS

    for f in dataclasses.fields(Rules):
        default = f.default
        if f.name == "edition" or isinstance(default, (bool, Enum)):
            continue
        assert f.name in INT_LIMITS or f.name in ("castles", "phase_stacks", "king_bonus"), f.name
