"""The analysis board and the position editor's API (torres/server/sandbox.py, docs/analysis-board.md): positions
built and checked by the engine's builder, every action checked by the engine, a finished game's moments and never
an unfinished one's, the bots and the master in the workers, every bad input a 4xx."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from test_analysis_server import store_finished_game
from torres.engine.position import from_position, to_position
from torres.engine.rules import Rules
from torres.engine.state import GameState
from torres.server.app import create_app
from torres.server.protocol import Limits
from torres.server.sandbox import MAX_ACTIONS

FAST = Limits(burst=100_000, per_second=100_000)
EDITOR = {"players": 2, "heights": {"c3": 1, "c4": 1, "d5": 2, "e5": 1, "f6": 1}, "knights": [["c3"], ["d5"]],
          "king": "f6"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", client_limits=FAST)) as c:
        yield c


def built(client: TestClient, **changes: Any) -> dict[str, Any]:
    answer = client.post("/api/sandbox/position", json={**EDITOR, **changes})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def sandbox(client: TestClient, position: str, actions: list[str], **extra: Any) -> Any:
    return client.post("/api/sandbox", json={"position": position, "actions": actions, **extra})


def test_the_editor_builds_a_position_the_board_opens(client: TestClient) -> None:
    data = built(client, scores=[4, 9], hands=[["six"], ["build", "build"]], phase=2, round=2, current=1, start=1)
    state = from_position(data["position"])
    assert (state.phase, state.round, state.current, state.scores) == (1, 1, 1, [4, 9])
    assert data["view"]["hands"] == [{"six": 1}, {"build": 2}]  # every seat's cards: the position is public
    assert data["view"]["knights"] == [["c3"], ["d5"]] and data["view"]["king"] == "f6"
    assert {a["action"] for a in data["legal"]} == {str(a) for a in state.legal_actions}
    # the board opened from the position shows the same
    opened = sandbox(client, data["position"], [])
    assert opened.status_code == 200
    assert opened.json()["position"] == data["position"] and opened.json()["legal"] == data["legal"]


@pytest.mark.parametrize("changes, reason", [
    ({"knights": [["c3"], ["c3"]]}, "two pieces on c3"),
    ({"king": "c3"}, "two pieces on c3"),
    ({"heights": {f"{f}{r}": 9 for f in "abcd" for r in "1234"}}, "supply cannot be negative"),
    ({"round": 9}, "round out of range for the phase card"),
    ({"knights": [["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1"], []]}, "knights per seat"),
    ({"hands": [["joker"], []]}, "unknown card 'joker'"),
    ({"edition": "chess"}, "unknown edition"),
    ({"heights": {"z9": 1}}, "z9"),
    ({"current": 3}, "seats 0..1"),
    ({"scores": [1, 2, 3]}, "exactly"),
])
def test_an_impossible_position_is_refused_with_the_engines_reason(client: TestClient, changes: dict[str, Any],
                                                                   reason: str) -> None:
    answer = client.post("/api/sandbox/position", json={**EDITOR, **changes})
    assert answer.status_code == 400, answer.text
    assert reason in answer.json()["detail"]


def test_actions_are_checked_by_the_engine_and_undo_is_a_shorter_list(client: TestClient) -> None:
    position = built(client)["position"]
    tried = sandbox(client, position, ["STACK 3", "block c2", "c3-c4"])
    assert tried.status_code == 200, tried.text
    data = tried.json()
    assert data["actions"] == ["stack 3", "block c2", "c3-c4"]  # canonical notation
    assert data["actors"] == [0, 0, 0] and data["view"]["ap"] == 3
    assert data["view"]["knights"][0] == ["c4"]
    undone = sandbox(client, position, data["actions"][:-1]).json()
    assert undone["view"]["knights"][0] == ["c3"] and undone["view"]["ap"] == 4
    refused = sandbox(client, position, ["stack 3", "c3-h8"])
    assert refused.status_code == 400
    assert refused.json()["detail"].startswith("action 2 ('c3-h8') is not legal here")
    for nonsense in (["fly away"], ["stack 3", "stack 3"], ["keep six"]):
        assert sandbox(client, position, nonsense).status_code == 400


def test_bounds_and_bad_input_are_4xx_never_500(client: TestClient) -> None:
    position = built(client)["position"]
    assert sandbox(client, position, ["end"] * (MAX_ACTIONS + 1)).status_code == 422
    assert sandbox(client, position + " " + "x" * 3000, []).status_code == 422
    assert sandbox(client, position, ["stack " + "3" * 200]).status_code == 422
    assert sandbox(client, position, [], bots=[{"seat": 1, "level": "godlike"}]).status_code == 422
    assert client.post("/api/sandbox", json={"position": position, "actions": [], "extra": 1}).status_code == 422
    redacted = GameState(2, 5, Rules())
    redacted.push("start d8")
    answer = sandbox(client, redacted.position(0), [])
    assert answer.status_code == 400 and "redacted" in answer.json()["detail"]
    # a position string mangled at random: always the engine's clear 400, never a 500
    rng = random.Random(7)
    tokens = position.split()
    for _ in range(300):
        mangled = list(tokens)
        i = rng.randrange(len(mangled))
        key, _, value = mangled[i].partition("=")
        choice = rng.randrange(5)
        if choice == 0:
            del mangled[i]
        elif choice == 1:
            mangled[i] = f"{key}={rng.choice(['-1', '99', '', '?', 'zz', '3.3|', '|', '9' * 30])}"
        elif choice == 2:
            mangled[i] = key + "=" + value[::-1]
        elif choice == 3 and value:
            j = rng.randrange(len(value))
            mangled[i] = key + "=" + value[:j] + rng.choice("0z.|/-ka?") + value[j + 1:]
        else:
            mangled.insert(i, mangled[i])
        answer = sandbox(client, " ".join(mangled), ["stack 3", "end"])
        assert answer.status_code in (200, 400), (mangled[i], answer.text)


def test_continue_from_a_finished_games_moment(client: TestClient) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    game_id, record = store_finished_game(store)
    at = 40
    answer = client.get(f"/api/games/{game_id}/position", params={"at": at})
    assert answer.status_code == 200, answer.text
    expected = GameState(2, record["seed"], Rules.from_text(record["rules"]))
    for action in record["actions"][:at]:
        expected.push(action)
    assert answer.json()["position"] == to_position(expected)
    # the rest of the game, tried on the board, ends as the game did
    rest = sandbox(client, answer.json()["position"], record["actions"][at:])
    assert rest.status_code == 200, rest.text
    assert rest.json()["over"] and rest.json()["view"]["scores"] == record["result"]["scores"]
    too_far = client.get(f"/api/games/{game_id}/position", params={"at": len(record["actions"]) + 1})
    assert too_far.status_code == 400
    assert client.get("/api/games/nope/position", params={"at": 0}).status_code == 404


def test_an_unfinished_game_gives_no_position(client: TestClient) -> None:
    created = client.post("/api/games", json={"players": 2, "bot_speed": "slow"})
    game_id = created.json()["id"]
    answer = client.get(f"/api/games/{game_id}/position", params={"at": 0})
    assert answer.status_code == 403 and "hidden cards" in answer.json()["detail"]


def test_bots_play_their_seats_out_from_their_own_view(client: TestClient) -> None:
    position = built(client)["position"]
    answer = sandbox(client, position, ["stack 3", "end"], bots=[{"seat": 1, "level": "casual"}])
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["actions"][:2] == ["stack 3", "end"]
    assert len(data["actions"]) > 2 and data["actors"][2:] == [1] * (len(data["actions"]) - 2)
    assert data["actions"][-1] == "end" and data["current"] == 0  # the person's turn again
    # what the bots played is a legal continuation: the board replays it without bots
    again = sandbox(client, position, data["actions"]).json()
    assert again["position"] == data["position"]


def test_the_master_suggests_a_legal_turn_for_the_seat_to_act(client: TestClient) -> None:
    position = built(client)["position"]
    answer = client.post("/api/sandbox/hint", json={"position": position, "actions": ["stack 3", "end"]})
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    assert hint["seat"] == 1 and hint["actions"]
    state = from_position(position)
    for action in ["stack 3", "end"]:
        state.push(action)
    assert state.is_legal(hint["actions"][0])
    assert client.post("/api/sandbox/hint", json={"position": position, "actions": ["c3-h8"]}).status_code == 400


def test_a_shared_url_opens_the_page(client: TestClient) -> None:
    position = built(client)["position"]
    for path in (f"/board?position={quote(position)}", f"/board/edit?position={quote(position)}"):
        page = client.get(path)
        assert page.status_code == 200 and "app.js" in page.text
