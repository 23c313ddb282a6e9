"""Puzzles in the browser (Playwright, Debian's chromium, a real `torres serve`): a puzzle solved by playing its
solution on the board as a person would (lit squares, mode buttons, the hand's cards), "Solved!"; another missed, the
points short and the solution shown; undo within the turn; the page in German. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from torres.ai.puzzles import Puzzle, load_puzzles

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
DESKTOP = {"width": 1366, "height": 900}
WAIT = 30_000  # generous: the server shares the machine with other work
SIMPLE = ("stack", "block", "knight", "score", "end")
#: Cards whose play names its knight and square (or nothing): one click on the card, then on the squares.
SQUARE_CARDS = ("climb", "diagonal", "vault", "gate", "redeploy", "shift", "build", "six", "seven")


def playable_by_clicks(puzzle: Puzzle) -> bool:
    for action in puzzle.solution:
        words = action.split()
        if words[0] in SIMPLE or re.fullmatch(r"[a-h][1-8]-[a-h][1-8]", words[0]):
            continue
        if words[0] == "play" and words[1] in SQUARE_CARDS:
            continue
        return False
    return True


def open_page(browser: Any, live_server: str, path: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_server + path)
    return context, page, errors


def done_actions(page: Any, n: int) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#puzzle-page")).to_have_attribute("data-actions", str(n), timeout=WAIT)
    expect(page.locator("#puzzle-page")).to_have_attribute("data-busy", "0", timeout=WAIT)


def square(page: Any, name: str) -> Any:
    """A square of the board, by its accessible name ("c3, level 2, ...")."""
    return page.get_by_role("button", name=re.compile(rf"^{name},"))


def mode(page: Any, label: str) -> None:
    button = page.get_by_role("button", name=re.compile(rf"^{label}"))
    if button.get_attribute("aria-pressed") != "true":
        button.click()


def click_target(page: Any, target: str, action: str) -> None:
    """Click a lit square; where it offers several actions, take ``action`` from the chooser."""
    square(page, target).click()
    chooser = page.get_by_role("region", name=re.compile(f"^Square {target}"))
    if chooser.count():
        chooser.locator(f"[data-action='{action}']").click()


def play(page: Any, action: str) -> None:
    """One action of a turn, played as a person plays it: buttons, modes, the board's squares, the hand's cards."""
    words = action.split()
    if words[0] == "stack":
        page.get_by_role("button", name=f"Take stack of {words[1]}").click()
    elif words[0] == "end":
        page.get_by_role("button", name="End turn").click()
    elif words[0] == "score":
        page.get_by_role("button", name="Score 1 point (1 AP)").click()
    elif words[0] == "block":
        mode(page, "Build a block")
        click_target(page, words[1], action)
    elif words[0] == "knight":
        mode(page, "Add a knight")
        click_target(page, words[1], action)
    elif words[0] == "play":
        card = words[1]
        name = page.evaluate(f"import('/static/js/i18n.js').then(m => m.cardName('{card}'))")
        page.get_by_role("region", name="Your cards").get_by_role("button", name=re.compile(f"^{name}")).click()
        if len(words) == 2:
            page.get_by_role("button", name=f"Play {name}", exact=True).click()
            return
        squares = re.findall(r"[a-h][1-8]", " ".join(words[2:]))
        if len(squares) == 2:
            source = square(page, squares[0])
            if "with this knight" in (source.get_attribute("aria-label") or ""):  # several knights could play it
                source.click()
        click_target(page, squares[-1], action)
    else:  # a move: the knight, then where it goes
        source, target = words[0].split("-")
        square(page, source).click()
        click_target(page, target, action)


def test_solve_a_puzzle_on_the_board_and_miss_another(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    puzzles = load_puzzles()
    plain = [p for p in puzzles if playable_by_clicks(p)]
    puzzle = next((p for p in plain if not any(a.startswith("play") for a in p.solution)), plain[0])
    context, page, errors = open_page(browser, live_server, f"/puzzles/{puzzle.id}")
    expect(page.get_by_role("heading", name=f"Puzzle {puzzle.id}")).to_be_visible(timeout=WAIT)
    done_actions(page, 0)
    expect(page.get_by_text("Find the best turn.")).to_be_visible()
    page.get_by_role("button", name="Flat").click()  # (from above, no square hides another)

    # a first action taken back: undo within the turn
    play(page, puzzle.solution[0])
    done_actions(page, 1)
    expect(page.get_by_text("Your turn so far:")).to_be_visible()
    page.get_by_role("button", name="Undo").click()
    done_actions(page, 0)

    for n, action in enumerate(puzzle.solution):
        play(page, action)
        done_actions(page, n + 1)
    verdict = page.get_by_role("status").filter(has_text="Solved!")
    expect(verdict).to_be_visible(timeout=WAIT)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "puzzle-solved.png"), full_page=True)
    expect(page.get_by_role("combobox", name="Puzzle")).to_contain_text("✓")

    # the next puzzle, missed: the turn ended at once
    page.get_by_role("button", name="Next puzzle").click()
    expect(page.locator("#puzzle-page")).not_to_have_attribute("data-puzzle", puzzle.id, timeout=WAIT)
    done_actions(page, 0)
    stack = page.get_by_role("button", name=re.compile("^Take stack of"))
    taken = 0
    if stack.count():
        stack.first.click()
        taken = 1
        done_actions(page, 1)
    page.get_by_role("button", name="End turn").click()
    done_actions(page, taken + 1)
    expect(page.get_by_text(re.compile(r"[\d.]+ points short\."))).to_be_visible(timeout=WAIT)
    solution = page.get_by_role("region", name="The solution")
    expect(solution).to_be_visible()
    assert solution.locator("code").count() >= 2
    assert page.get_by_role("button", name=re.compile(", hint")).count() >= 1  # its squares marked on the board
    page.screenshot(path=str(ARTIFACTS / "puzzle-missed.png"), full_page=True)

    # start again, and ask for the solution without playing
    page.get_by_role("button", name="Start again").click()
    done_actions(page, 0)
    expect(page.get_by_role("region", name="The solution")).to_have_count(0)
    page.get_by_role("button", name="Show the solution").click()
    expect(page.get_by_role("region", name="The solution")).to_be_visible(timeout=WAIT)
    assert not errors, errors
    context.close()


def test_the_page_in_german_and_a_bad_puzzle_id(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    context, page, errors = open_page(browser, live_server, "/")
    page.click("#lang-de")
    page.get_by_role("link", name="Rätsel", exact=True).click()
    expect(page.get_by_role("heading", name=re.compile("^Rätsel "))).to_be_visible(timeout=WAIT)
    expect(page.get_by_text("Finden Sie den besten Zug.")).to_be_visible()
    expect(page.get_by_role("button", name="Lösung zeigen")).to_be_visible()
    expect(page.get_by_role("button", name="Nächstes Rätsel")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "puzzle-de.png"), full_page=True)
    page.goto(live_server + "/puzzles/no-such-puzzle")
    expect(page.get_by_text("Ein Rätsel no-such-puzzle gibt es nicht")).to_be_visible(timeout=WAIT)
    expect(page.get_by_role("heading", name=re.compile("^Rätsel "))).to_be_visible()
    page.click("#lang-en")
    assert not errors, errors
    context.close()


def test_the_puzzle_page_has_no_serious_accessibility_problems(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    from test_accessibility import axe_serious, needs_axe

    needs_axe()
    context, page, errors = open_page(browser, live_server, "/puzzles")
    expect(page.get_by_role("button", name="Show the solution")).to_be_enabled(timeout=WAIT)
    assert axe_serious(page) == []
    page.get_by_role("button", name="Show the solution").click()
    expect(page.get_by_role("region", name="The solution")).to_be_visible(timeout=WAIT)
    assert axe_serious(page) == []
    assert not errors, errors
    context.close()
