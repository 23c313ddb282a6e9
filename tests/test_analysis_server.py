"""The analysis endpoints (torres/server/analysis.py): only finished games, off the event loop, stored once per game
and level, taken up again after a restart, and every bad input a 4xx."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from conftest import fast_limits
from torres.ai.analysis import analyse_record, judge_record_turn
from torres.ai.base import make_bot
from torres.engine.rules import Rules
from torres.engine.state import GameState
from torres.records import record_of
from torres.server.app import create_app
from torres.server.rooms import progress_of
from torres.server.store import AnalysisRow, GameRow, Store, now

FAST = fast_limits()
LEVEL = "expert"  # the cheapest level that finds better turns than beginners
DEADLINE = 180.0


def store_finished_game(store: Store, seed: int = 3) -> tuple[str, dict[str, Any]]:
    """A game between beginners, played to the end and written to the store as the server would have: (id, its
    record)."""
    state = GameState(2, seed, Rules())
    bots = [make_bot("beginner", seed * 10 + s) for s in range(2)]
    while not state.is_over():
        state.push(bots[state.current].choose(state.view(state.current)))
    game_id, _, _ = store.create_game(rules=state.rules.to_text(), players=2, seed=seed, hotseat=False,
                                      bot_speed="instant", seats=[("bot", "beginner", "Ann"), ("bot", "beginner", "Bob")],
                                      claim=[], progress=progress_of(GameState(2, seed, state.rules)))
    progress = progress_of(state)
    with store.sessions.begin() as session:
        session.execute(update(GameRow).where(GameRow.id == game_id).values(
            actions=state.actions_text(), version=len(state.history), finished=progress.finished,
            stage=progress.stage, current=progress.current, phase=progress.phase, round=progress.round,
            scores=progress.scores, winners=progress.winners))
    return game_id, record_of(state)


def wait_done(client: TestClient, game_id: str, level: str = LEVEL) -> dict[str, Any]:
    deadline = time.monotonic() + DEADLINE
    seen = []
    while time.monotonic() < deadline:
        answer = client.get(f"/api/games/{game_id}/analysis", params={"level": level})
        assert answer.status_code == 200, answer.text
        data = answer.json()
        seen.append((data["status"], data["done"], data["total"]))
        if data["status"] != "running":
            return data
        time.sleep(0.2)
    raise AssertionError(f"the analysis did not finish within {DEADLINE:g} s: {seen[-5:]}")


def test_an_unfinished_game_is_not_analysed(client: TestClient) -> None:
    created = client.post("/api/games", json={"players": 2, "bot_speed": "slow"})
    assert created.status_code == 201
    game_id = created.json()["id"]
    for method in ("post", "get"):
        answer = getattr(client, method)(f"/api/games/{game_id}/analysis", params={"level": LEVEL})
        assert answer.status_code == 403
        assert "only a finished game" in answer.json()["detail"] and "hidden" in answer.json()["detail"]
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.sessions() as session:
        assert session.scalar(select(func.count()).select_from(AnalysisRow)) == 0


def test_bad_inputs_are_4xx(client: TestClient) -> None:
    game_id, _ = store_finished_game(client.app.state.store)  # type: ignore[attr-defined]
    cases = [("post", f"/api/games/{game_id}/analysis", {"level": "grandmaster"}, 400),
             ("get", f"/api/games/{game_id}/analysis", {"level": "random"}, 400),
             ("post", f"/api/games/{game_id}/analysis", {"level": "x" * 5000}, None),
             ("post", "/api/games/nosuchgame/analysis", {"level": LEVEL}, 404),
             ("get", "/api/games/nosuchgame/analysis", {}, 404),
             ("post", f"/api/games/{'z' * 3000}/analysis", {}, 404)]
    for method, path, params, status in cases:
        answer = getattr(client, method)(path, params=params)
        assert 400 <= answer.status_code < 500, (path, params, answer.status_code, answer.text)
        if status is not None:
            assert answer.status_code == status, (path, params, answer.text)
        assert answer.json()["detail"]
    assert client.get(f"/api/games/{game_id}/analysis").json()["status"] == "none"


def test_an_analysis_runs_in_the_background_and_is_stored_once(client: TestClient) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    game_id, record = store_finished_game(store)
    started = client.post(f"/api/games/{game_id}/analysis", params={"level": LEVEL})
    assert started.status_code == 202, started.text
    assert started.json()["status"] == "running" and started.json()["analysis"] is None
    assert client.post(f"/api/games/{game_id}/analysis", params={"level": LEVEL}).status_code in (200, 202)
    data = wait_done(client, game_id)
    assert data["status"] == "done" and data["done"] == data["total"] == len(data["analysis"]["turns"])
    # the same judgement as `torres analyse RECORD --level expert` (seed 0) of the downloaded record
    downloaded = client.get(f"/api/games/{game_id}/record").json()
    assert data["analysis"] == analyse_record(downloaded, LEVEL, 0).to_json() == analyse_record(record, LEVEL).to_json()
    again = client.post(f"/api/games/{game_id}/analysis", params={"level": LEVEL})
    assert again.status_code == 200 and again.json() == data
    with store.sessions() as session:
        assert session.scalar(select(func.count()).select_from(AnalysisRow)) == 1
    # another level is another analysis
    assert client.get(f"/api/games/{game_id}/analysis", params={"level": "beginner"}).json()["status"] == "none"


def test_a_job_whose_process_died_is_taken_up_where_it_was(db: str) -> None:
    store = Store(db)
    store.create_schema()
    game_id, record = store_finished_game(store, seed=4)
    judged = [judge_record_turn(record, i, LEVEL, 0).to_json() for i in range(3)]
    long_ago = now() - timedelta(hours=1)
    with store.sessions.begin() as session:  # as a process that died after judging three turns left it
        session.add(AnalysisRow(game_id=game_id, level=LEVEL, status="running", done=3, total=24,
                                result={"turns": judged}, error=None, created=long_ago, updated=long_ago))
    store.close()
    with TestClient(create_app(db, client_limits=FAST)) as client:
        data = wait_done(client, game_id)
    assert data["status"] == "done"
    assert data["analysis"] == analyse_record(record, LEVEL, 0).to_json()


def test_a_running_job_of_a_live_process_is_not_taken_over(client: TestClient) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    game_id, _ = store_finished_game(store, seed=5)
    stamp = now()
    with store.sessions.begin() as session:  # another process runs it and has just said so
        session.add(AnalysisRow(game_id=game_id, level=LEVEL, status="running", done=1, total=24,
                                result={"turns": []}, error=None, created=stamp, updated=stamp))
    answer = client.post(f"/api/games/{game_id}/analysis", params={"level": LEVEL})
    assert answer.status_code == 202 and answer.json()["done"] == 1
    assert client.app.state.analyses._jobs == {}  # type: ignore[attr-defined]
