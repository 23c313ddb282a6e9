"""The analysis board and the position editor in the browser (Playwright, Debian's chromium, a real `torres serve`):
"Continue from here" on a finished game's replay, an action tried and taken back, the master asked; the editor
refusing an impossible position with the engine's reason, then playing a possible one out against a bot; a shared
URL restoring the board; German. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx

from test_browser_analysis import finished_bot_game

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
DESKTOP = {"width": 1366, "height": 900}
#: Generous: the bots think in a worker on a machine shared with other work.
BOT_MS = 60_000


def board_squares(page: Any) -> list[tuple[str, str | None, str | None]]:
    """Every square's level and knight, in square order (the 3D board draws them back to front)."""
    cells = page.locator("#board .sq")
    return sorted((cells.nth(i).get_attribute("data-square") or "", cells.nth(i).get_attribute("data-level"),
                   cells.nth(i).get_attribute("data-seat")) for i in range(cells.count()))


def actions_on_board(page: Any) -> int:
    return int(page.get_attribute("#sandbox-page", "data-actions") or 0)


def replay_at(browser: Any, base: str, game_id: str, frame: int) -> tuple[Any, Any, list[str]]:
    """A new page on the game's replay, stepped with the keyboard to ``frame``; its context, the page and the list
    its script errors are collected in."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/replay/{game_id}")
    expect(page.get_by_role("button", name="Continue from here")).to_be_visible(timeout=15_000)
    for _ in range(frame):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-frame")).to_have_attribute("data-frame", str(frame))
    return context, page, errors


def test_continue_a_finished_game_try_undo_and_ask_the_master(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    game_id = finished_bot_game(live_server)
    frames = httpx.get(f"{live_server}/api/games/{game_id}/replay", timeout=30).json()["frames"]
    frame = next(k for k in range(20, len(frames)) if frames[k]["stage"] == "turn" and frames[k]["ap"] == 5)
    context, page, errors = replay_at(browser, live_server, game_id, frame)
    replay_board = board_squares(page)
    page.get_by_role("button", name="Continue from here").click()
    expect(page.get_by_role("heading", name="Analysis board")).to_be_visible(timeout=15_000)
    expect(page.locator("#sandbox-page")).to_have_attribute("data-busy", "0", timeout=15_000)
    assert board_squares(page) == replay_board  # the same moment
    assert "position=" in page.url
    expect(page.get_by_text("shows every seat's cards")).to_be_visible()

    # an action tried, and taken back
    end = page.get_by_role("button", name="End turn")
    expect(end).to_be_enabled()
    before = page.get_attribute("#sandbox-page", "data-current")
    end.click()
    expect(page.locator("#sandbox-page")).to_have_attribute("data-actions", "1", timeout=15_000)
    expect(page.locator("#log")).to_contain_text("ended")
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#sandbox-page")).to_have_attribute("data-actions", "0", timeout=15_000)
    assert page.get_attribute("#sandbox-page", "data-current") == before
    assert board_squares(page) == replay_board

    # an illegal action typed is refused with the engine's reason
    page.get_by_role("combobox", name="type an action").fill("a1-h8")
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#sandbox-error")).to_contain_text("is not legal here", timeout=15_000)

    # the master's turn, in words and on the board
    page.get_by_role("button", name="Ask the master").click()
    hint = page.get_by_role("region", name="The master suggests")
    expect(hint.locator("#hint-words")).to_be_visible(timeout=BOT_MS)
    assert hint.locator("code").count() >= 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "sandbox-master.png"), full_page=True)
    from test_accessibility import axe_serious, needs_axe

    needs_axe()
    assert axe_serious(page) == []
    assert errors == []
    context.close()


def test_a_card_drawn_on_the_analysis_board_is_kept_with_a_button(browser: Any, live_server: str) -> None:
    """Continued from a moment where a bot has just bought a card, the board offers a button per drawn card (the
    others go under the deck, as the note says); pressing one plays the keep."""
    from playwright.sync_api import expect

    game_id = finished_bot_game(live_server)
    frames = httpx.get(f"{live_server}/api/games/{game_id}/replay", timeout=30).json()["frames"]
    frame = next(k for k, f in enumerate(frames) if f["stage"] == "keep")  # (beginners buy every game)
    context, page, errors = replay_at(browser, live_server, game_id, frame)
    page.get_by_role("button", name="Continue from here").click()
    expect(page.locator("#sandbox-page")).to_have_attribute("data-busy", "0", timeout=15_000)
    panel = page.get_by_role("region", name="You drew these cards: keep one")
    expect(panel).to_be_visible(timeout=15_000)
    expect(panel.get_by_text("The other cards go under the deck")).to_be_visible()
    keeps = panel.get_by_role("button", name=re.compile(r"^Keep "))
    assert keeps.count() >= 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "sandbox-keep.png"), full_page=True)
    keeps.first.click()
    expect(page.locator("#sandbox-page")).to_have_attribute("data-actions", "1", timeout=15_000)
    expect(panel).to_have_count(0)
    assert errors == []
    context.close()


def test_editor_refuses_an_impossible_position_and_plays_a_possible_one(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server}/board/edit")
    expect(page.get_by_role("heading", name="Position editor")).to_be_visible(timeout=15_000)
    play = page.get_by_role("button", name="Play from here")
    expect(play).to_be_enabled(timeout=15_000)

    # a block added with the keyboard: the builder's board shows it
    page.get_by_role("radio", name="Add a block").check()
    square = page.locator('#board .sq[data-square="e4"]')
    assert square.get_attribute("data-level") == "0"
    square.focus()
    page.keyboard.press("Enter")
    expect(page.locator('#board .sq[data-square="e4"]')).to_have_attribute("data-level", "1", timeout=15_000)

    # impossible: the engine's reason beside the form, and nothing to play
    rounds = page.get_by_role("spinbutton", name="Round")
    rounds.fill("9")
    rounds.press("Tab")
    alert = page.get_by_role("alert").filter(has_text="Impossible position")
    expect(alert).to_contain_text("round out of range for the phase card", timeout=15_000)
    expect(play).to_be_disabled()
    page.get_by_role("radio", name="King").check()
    page.locator('#board .sq[data-square="c3"]').click()  # the knight on c3 makes way for the king
    expect(alert).to_contain_text("round out of range", timeout=15_000)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "editor-impossible.png"), full_page=True)
    rounds.fill("2")
    rounds.press("Tab")
    expect(play).to_be_enabled(timeout=15_000)
    expect(page.get_by_role("alert").filter(has_text="Impossible position")).to_have_count(0)
    page.get_by_role("combobox", name="against a bot of level").select_option("casual")
    play.click()

    # played out against the bot: the person ends the turn, the bot answers, the person is to act again
    expect(page.get_by_role("heading", name="Analysis board")).to_be_visible(timeout=15_000)
    expect(page.locator("#sandbox-page")).to_have_attribute("data-busy", "0", timeout=15_000)
    assert page.get_by_role("combobox", name="Player 2").input_value() == "casual"
    assert "the king" in (page.locator('#board .sq[data-square="c3"]').get_attribute("aria-label") or "")
    page.get_by_role("button", name="End turn").click()
    expect(page.locator("#sandbox-page")).to_have_attribute("data-current", "0", timeout=BOT_MS)
    expect(page.locator("#sandbox-page")).to_have_attribute("data-busy", "0", timeout=BOT_MS)
    assert actions_on_board(page) > 1
    expect(page.get_by_text("Your turn, Player 1")).to_be_visible()
    expect(page.locator("#log")).to_contain_text("Bot 2")
    page.screenshot(path=str(ARTIFACTS / "sandbox-play.png"), full_page=True)

    # undo takes back the bot's answer with the person's action
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#sandbox-page")).to_have_attribute("data-actions", "0", timeout=15_000)

    # the shared link restores the board in a fresh page
    page.get_by_role("button", name="End turn").click()
    expect(page.locator("#sandbox-page")).to_have_attribute("data-current", "0", timeout=BOT_MS)
    expect(page.locator("#sandbox-page")).to_have_attribute("data-busy", "0", timeout=BOT_MS)
    shared = page.get_by_role("textbox", name="Link to this position").input_value()
    assert parse_qs(urlparse(shared).query)["position"][0].startswith("torres/1 ")
    seen = board_squares(page)
    other = context.new_page()
    other.goto(shared)
    expect(other.get_by_role("heading", name="Analysis board")).to_be_visible(timeout=15_000)
    expect(other.locator("#sandbox-page")).to_have_attribute("data-busy", "0", timeout=15_000)
    assert board_squares(other) == seen
    from test_accessibility import axe_serious, needs_axe

    needs_axe()
    page.goto(f"{live_server}/board/edit")
    expect(page.get_by_role("button", name="Play from here")).to_be_enabled(timeout=15_000)
    assert axe_serious(page) == []
    assert errors == []
    context.close()


def test_the_editor_and_the_board_in_german(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(f"{live_server}/")
    page.evaluate("localStorage.setItem('torres.lang', 'de')")
    page.goto(f"{live_server}/board/edit")
    expect(page.get_by_role("heading", name="Stellungseditor")).to_be_visible(timeout=15_000)
    expect(page.get_by_role("radio", name="Baustein hinzufügen")).to_be_visible()
    rounds = page.get_by_role("spinbutton", name="Runde")
    rounds.fill("9")
    rounds.press("Tab")
    expect(page.get_by_role("alert").filter(has_text="Unmögliche Stellung")).to_be_visible(timeout=15_000)
    rounds.fill("1")
    rounds.press("Tab")
    page.get_by_role("button", name="Auf dem Analysebrett öffnen").click()
    expect(page.get_by_role("heading", name="Analysebrett")).to_be_visible(timeout=15_000)
    expect(page.get_by_role("button", name="Den Meister fragen")).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "sandbox-de.png"), full_page=True)
    context.close()
