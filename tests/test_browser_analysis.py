"""The analysis on a finished game's replay page, in the browser (Playwright, Debian's chromium, a real
`torres serve`): press Analyse, follow the progress bar, see the win-chance graph, pick a mistake and see the better
turn drawn on the board; the same page in German. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
DESKTOP = {"width": 1366, "height": 900}
#: Generous: a bot game and the master's analysis, on a machine shared with other work.
GAME_SECONDS = 180.0
ANALYSIS_MS = 240_000


def squares(actions: list[str]) -> list[str]:
    return [sq for a in actions for sq in re.findall(r"\b[a-h][1-8]\b", a)]


def finished_bot_game(base: str) -> str:
    """Two beginner bots play a game at instant speed; its id once it is over."""
    created = httpx.post(f"{base}/api/games", json={
        "players": 2, "bot_speed": "instant",
        "seats": [{"kind": "bot", "level": "beginner", "name": "Ann"},
                  {"kind": "bot", "level": "beginner", "name": "Bob"}]}, timeout=30)
    assert created.status_code == 201, created.text
    game_id = str(created.json()["id"])
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline:
        if httpx.get(f"{base}/api/games/{game_id}", timeout=30).json()["status"] == "finished":
            return game_id
        time.sleep(0.5)
    raise AssertionError(f"the bots did not finish within {GAME_SECONDS:g} s")


def test_analyse_a_finished_game_and_see_a_mistake_on_the_board(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    game_id = finished_bot_game(live_server)
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server}/replay/{game_id}")
    analyse = page.get_by_role("button", name="Analyse", exact=True)
    expect(analyse).to_be_visible(timeout=15_000)
    analyse.click()
    bar = page.get_by_role("progressbar", name="Analysis")
    expect(bar).to_be_visible(timeout=15_000)
    assert 0 <= int(bar.get_attribute("aria-valuenow") or "-1") <= 100
    graph = page.get_by_role("img", name="Chance to win after each turn")
    expect(graph).to_be_visible(timeout=ANALYSIS_MS)
    expect(bar).to_have_count(0)
    assert graph.locator("polyline").count() == 2
    # the table beside the graph holds the same numbers
    page.get_by_text("The chances as a table").click()
    table = page.get_by_role("table", name="Chance to win after each turn")
    expect(table).to_be_visible()
    assert table.locator("tbody tr").count() == 24
    expect(page.get_by_role("heading", name="Biggest mistakes")).to_be_visible()
    expect(page.get_by_role("heading", name="Per player")).to_be_visible()
    mistakes = page.get_by_role("button", name="points lost")
    assert mistakes.count() >= 1
    # a mistake whose played turn touched the board, if any (a turn of scoring points alone touches no square)
    analysis = httpx.get(f"{live_server}/api/games/{game_id}/analysis", params={"level": "master"}).json()["analysis"]
    by_turn = {t["turn"]: t for t in analysis["turns"]}
    labels = [mistakes.nth(i).inner_text() for i in range(mistakes.count())]
    turn_of = {label: int(label.split(":")[0].split()[-1]) - 1 for label in labels}
    label = next((x for x in labels if squares(by_turn[turn_of[x]]["played"])), labels[0])
    judged = by_turn[turn_of[label]]
    page.get_by_role("button", name=label).click()
    detail = page.get_by_role("region", name=label.split(":")[0])
    expect(detail).to_be_visible()
    expect(detail).to_contain_text("Better (lit on the board):")
    expect(detail).to_contain_text("Played (outlined on the board):")
    # the board shows the turn's first position: the better turn lit with what it would place, the played one outlined
    assert page.get_attribute("#replay-frame", "data-frame") == str(judged["start"])
    assert judged["loss"] > 0 and judged["best"] != judged["played"]
    board = page.locator("#board")
    lit = {board.locator(".sq.target").nth(i).get_attribute("data-square")
           for i in range(board.locator(".sq.target").count())}
    assert lit == {squares([a])[-1] for a in judged["best"] if squares([a])}
    assert (board.locator(".last").count() > 0) == bool(squares(judged["played"]))
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "analysis-mistake.png"), full_page=True)
    assert errors == []
    from test_accessibility import axe_serious, needs_axe

    needs_axe()
    assert axe_serious(page) == []

    # stored once: a German page opens the analysis at once, in German
    german = context.new_page()
    german.goto(f"{live_server}/")
    german.evaluate("localStorage.setItem('torres.lang', 'de')")
    german.goto(f"{live_server}/replay/{game_id}")
    expect(german.get_by_role("img", name="Gewinnchance nach jedem Zug")).to_be_visible(timeout=15_000)
    expect(german.get_by_role("heading", name="Größte Fehler")).to_be_visible()
    expect(german.get_by_role("heading", name="Je Spieler")).to_be_visible()
    assert german.get_by_role("button", name="Analysieren").count() == 0
    german.get_by_role("button", name="Punkte verloren").first.click()
    expect(german.get_by_text("Besser (auf dem Brett hervorgehoben):")).to_be_visible()
    german.screenshot(path=str(ARTIFACTS / "analysis-de.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("path", ["/api/games/{id}/analysis"])
def test_an_unfinished_games_replay_offers_no_analysis(browser: Any, live_server: str, path: str) -> None:
    created = httpx.post(f"{live_server}/api/games", json={"players": 2, "bot_speed": "slow"}, timeout=30)
    game_id = created.json()["id"]
    answer = httpx.post(live_server + path.format(id=game_id), timeout=30)
    assert answer.status_code == 403 and "hidden" in answer.json()["detail"]
    page = browser.new_page()
    page.goto(f"{live_server}/replay/{game_id}")
    page.wait_for_selector("h1.page-title")
    assert page.get_by_role("button", name="Analyse").count() == 0
    page.close()
