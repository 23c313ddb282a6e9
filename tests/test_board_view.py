"""The board (issue #32): towers in 3D and flat from above, every square a named control, one tab stop, the keys.

Driven by Playwright on Debian's chromium against a real `torres serve`. These tests find what they act on only the
way a person does: by role and accessible name, or by visible text (no test ids, no CSS classes or data attributes).
What the game is at (whose turn, which stage) they read from the websocket frames the page received. Screenshots of
both views at each phase scoring, at desktop and phone width, go to tests/artifacts/ (git-ignored).
"""

from __future__ import annotations

import json
import random
import re
import time
import urllib.request
from typing import Any, Callable

from playwright.sync_api import Error as PlaywrightError

from board_clicks import click_from_any_side
from test_browser import ARTIFACTS, Page

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SQUARE = re.compile(r"^([a-h][1-8]),")
TARGET = re.compile(r", (move here|build a block here|add a knight here|place your knight here|put the king here|"
                    r"found a castle here)")




ANN_AND_BOT = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "beginner", "name": "Bob"}]


def new_game(base: str, seats: list[dict[str, Any]] = ANN_AND_BOT, master: bool = False) -> tuple[str, str]:
    """A game made through the HTTP API (docs/server.md), bots at instant speed: its id and seat 0's token."""
    body = json.dumps({"players": len(seats), "edition": "riogrande", "seats": seats, "master": master,
                       "bot_speed": "instant"}).encode()
    req = urllib.request.Request(base + "/api/games", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as res:
        data = json.loads(res.read())
    return data["id"], data["tokens"]["0"]


def open_game(page: Page, base: str, game: str, token: str) -> None:
    """This browser holds seat 0 of `game` (as the page that created it would) and opens the game page."""
    p = page.page
    p.goto(base + "/")
    p.evaluate("([id, token]) => import('/static/js/store.js').then(m => m.saveGame(id, { tokens: { 0: token } }))",
               [game, token])
    p.goto(f"{base}/game/{game}")
    page_view(page, wait=True)


def page_view(page: Page, wait: bool = False) -> dict[str, Any]:
    """The newest view the page received (its welcome or an update)."""
    deadline = time.monotonic() + 15
    while True:
        views = [m for m in page.received if m.get("view") is not None]
        if views or not wait:
            return views[-1] if views else {}
        if time.monotonic() > deadline:
            raise AssertionError("no view arrived")
        page.page.wait_for_timeout(50)


def wait_newer(page: Page, version: int, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while page_view(page).get("version", -1) <= version:
        if time.monotonic() > deadline:
            raise AssertionError(f"no version after {version}")
        page.page.wait_for_timeout(30)
    page.page.wait_for_timeout(60)   # the page draws in the same task that handled the frame


def board(p: Any) -> Any:
    return p.get_by_role("group", name=re.compile(r"^(Board|Spielplan), "))


def square_names(p: Any, pattern: re.Pattern[str]) -> list[str]:
    """The squares whose accessible name matches `pattern`."""
    labels = p.get_by_role("button", name=pattern).evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    return [SQUARE.match(label).group(1) for label in labels if SQUARE.match(label)]


def square(p: Any, name: str) -> Any:
    return p.get_by_role("button", name=re.compile(rf"^{name},"))


class Hands:
    """How a person acts on the page: `press(button)` and `square(name)` by mouse or by keyboard."""

    def __init__(self, p: Any) -> None:
        self.p = p

    def press(self, button: Any) -> None:
        raise NotImplementedError

    def square(self, name: str) -> None:
        raise NotImplementedError


class Mouse(Hands):
    def press(self, button: Any) -> None:
        button.click()

    def square(self, name: str) -> None:
        click_from_any_side(lambda: square(self.p, name),
                            lambda: self.p.get_by_role("button", name=re.compile("Rotate")).click(), name)


class Keyboard(Hands):
    """Tab to a control and Enter; on the board (one tab stop) the arrow keys walk to a square."""

    def focused(self, target: Any) -> bool:
        return bool(target.evaluate("el => el === document.activeElement || el.contains(document.activeElement)"))

    def tab_to(self, target: Any, limit: int = 300) -> None:
        target.first.wait_for()
        for _ in range(limit):
            if self.focused(target.first):
                return
            self.p.keyboard.press("Tab")
        raise AssertionError(f"Tab never reached {target}")

    def press(self, button: Any) -> None:
        self.tab_to(button)
        self.p.keyboard.press("Enter")

    def square(self, name: str) -> None:
        if not self.focused(board(self.p)):
            for _ in range(3):   # the board stands just before the buttons under it
                self.p.keyboard.press("Shift+Tab")
                if self.focused(board(self.p)):
                    break
            else:
                self.tab_to(board(self.p))
        here = SQUARE.match(self.p.evaluate("document.activeElement.getAttribute('aria-label')")).group(1)
        df, dr = ord(name[0]) - ord(here[0]), int(name[1]) - int(here[1])
        for _ in range(abs(df)):
            self.p.keyboard.press("ArrowRight" if df > 0 else "ArrowLeft")
        for _ in range(abs(dr)):
            self.p.keyboard.press("ArrowUp" if dr > 0 else "ArrowDown")
        label = self.p.evaluate("document.activeElement.getAttribute('aria-label')")
        assert label.startswith(name + ","), (name, label)
        self.p.keyboard.press("Enter")


def button(p: Any, name: str | re.Pattern[str]) -> Any:
    return p.get_by_role("button", name=name, exact=isinstance(name, str))


def play_game(page: Page, hands: Hands, rng: random.Random, at_scoring: Callable[[int], None],
              limit: float = 240) -> list[int]:
    """Play seat 0 to the end with `hands`: each turn a knight's move, up to two blocks (or a new knight), then end.
    Returns the phases whose scoring was seen."""
    p = page.page
    seen: list[int] = []
    moved = built = 0
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        view = page_view(page)
        if view["view"]["stage"] == "over" and 3 not in seen:
            button(p, "Close").wait_for()        # the last scoring and the ranking come up by themselves
        if button(p, "Close").count():           # a phase scoring (or the game's end) came up
            captions = p.get_by_role("dialog").get_by_text(re.compile(r"Scoring after phase \d")).all_inner_texts()
            phase = max((int(re.search(r"phase (\d)", c).group(1)) for c in captions), default=0)
            if phase and phase not in seen:
                seen.append(phase)
            hands.press(button(p, "Close"))
            if phase and phase == seen[-1]:
                at_scoring(phase)
            continue
        v = view["view"]
        if v["stage"] == "over":
            break
        if v["current"] != 0 or not v["legal"]:
            wait_newer(page, view["version"])
            continue
        kinds = {a["kind"] for a in v["legal"]}
        version = view["version"]
        if "keep" in kinds:
            hands.press(button(p, re.compile(r"^Keep ")))
        elif "stack" in kinds:
            hands.press(button(p, re.compile(r"^Take stack of")).first)
        elif v["stage"] == "turn" and not moved and square_names(p, re.compile("can move")):
            hands.square(rng.choice(square_names(p, re.compile("can move"))))
            targets = square_names(p, re.compile(", move here"))
            assert targets and not square_names(p, re.compile("build a block here")), "a knight's moves only"
            hands.square(rng.choice(targets))
            moved = 1
        elif v["stage"] == "turn" and built < 2 and button(p, re.compile(r"^(Build a block|Add a knight)")).count():
            if not square_names(p, TARGET):          # (a chosen action stays chosen for the next block)
                modes = p.get_by_role("button", name=re.compile(r"^(Build a block|Add a knight)"), pressed=False)
                hands.press(modes.nth(rng.randrange(modes.count())))
            targets = square_names(p, TARGET)
            assert targets and all("AP" in label for label in p.get_by_role("button", name=TARGET).evaluate_all(
                "els => els.map(e => e.getAttribute('aria-label'))")), "each lit square says its cost"
            hands.square(rng.choice(targets))
            if button(p, re.compile("^Take the block from")).count():   # the chooser: more than one way
                hands.press(button(p, re.compile("^Take the block from")).first)
            built += 1
        elif square_names(p, TARGET) and v["stage"] != "turn":
            hands.square(rng.choice(square_names(p, TARGET)))
        elif "end" in kinds:
            hands.press(button(p, "End turn"))
            moved = built = 0
        elif "king_stay" in kinds:
            hands.press(button(p, "Leave the king"))
        else:
            hands.press(button(p, re.compile(r" starts$")).first)
        wait_newer(page, version)
    assert page_view(page)["view"]["stage"] == "over", "the game did not end in time"
    return seen


def shoot(p: Any, name: str) -> None:
    """Screenshots of the board in both views (and back to 3D)."""
    ARTIFACTS.mkdir(exist_ok=True)
    for label, view in (("3D", "3d"), ("Flat", "flat")):
        button(p, label).click()
        snap(board(p), ARTIFACTS / f"{name}-{view}.png")
    button(p, "3D").click()


def snap(locator: Any, path: Any, tries: int = 5) -> None:
    """A screenshot of ``locator``. The board is drawn again whenever a view arrives (the bots play on while the
    screenshots are taken), which can replace the element between finding it and taking the picture: Playwright
    then finds the old one detached, or without a box ("not visible"). A busy machine makes that likelier, so a
    replaced element is found again once the new one shows."""
    for attempt in range(tries):
        try:
            locator.screenshot(path=str(path))
            return
        except PlaywrightError as error:
            replaced = "not attached" in str(error) or "not visible" in str(error)
            if not replaced or attempt == tries - 1:
                raise
            locator.wait_for(state="visible")


# ----------------------------------------------------------------------------------------------------------------


def test_a_whole_game_by_clicking_in_3d_with_screenshots(browser: Any, live_server: str) -> None:
    page = Page(browser, viewport=DESKTOP)
    game, token = new_game(live_server)
    open_game(page, live_server, game, token)
    p = page.page
    assert button(p, "3D").get_attribute("aria-pressed") == "true"    # 3D is the default view
    # every square is a named control; the page offers the start squares only
    assert p.get_by_role("button", name=SQUARE).count() == 64
    assert set(square_names(p, TARGET)) == set(square_names(p, re.compile("place your knight here")))

    def at_scoring(phase: int) -> None:
        shoot(p, f"board-desktop-scoring{phase}")
        p.set_viewport_size(PHONE)
        shoot(p, f"board-phone-scoring{phase}")
        assert p.evaluate("document.documentElement.scrollWidth <= innerWidth")
        p.set_viewport_size(DESKTOP)

    seen = play_game(page, Mouse(p), random.Random(11), at_scoring)
    assert seen == [1, 2, 3], seen
    assert not page.errors, page.errors


def test_a_whole_game_with_the_keyboard_alone(browser: Any, live_server: str) -> None:
    page = Page(browser, viewport=DESKTOP)
    game, token = new_game(live_server)
    open_game(page, live_server, game, token)
    p = page.page
    p.evaluate("window.__pointer = 0; for (const t of ['pointerdown', 'click']) document.addEventListener(t, (ev) => {"
               " if (ev.detail || ev.pointerType) window.__pointer += 1; }, true)")
    keys = Keyboard(p)
    # one tab stop: Tab reaches the board and the next Tab leaves it
    keys.tab_to(board(p))
    p.keyboard.press("Tab")
    assert not keys.focused(board(p))

    def at_scoring(phase: int) -> None:
        if phase == 1:   # the keys are shown while a square has the focus
            keys.tab_to(board(p))
            assert p.get_by_text(re.compile("Arrow keys: move over the squares")).is_visible()

    seen = play_game(page, keys, random.Random(12), at_scoring)
    assert seen == [1, 2, 3], seen
    assert p.evaluate("window.__pointer") == 0, "the keyboard alone played the game"
    assert not page.errors, page.errors


def first_turn(page: Page) -> None:
    """Play the setup (a first knight on a lit square) by clicking, up to seat 0's first turn; take a stack."""
    p = page.page
    while True:
        view = page_view(page)
        v = view["view"]
        if v["current"] == 0 and v["stage"] == "turn" and v["legal"]:
            break
        if v["current"] == 0 and v["legal"]:
            Mouse(p).square(square_names(p, TARGET)[0])
        wait_newer(page, view["version"])
    version = page_view(page)["version"]
    button(p, re.compile(r"^Take stack of")).first.click()
    wait_newer(page, version)


def test_lit_squares_are_grouped_by_what_was_chosen_and_every_action_stays_reachable(browser: Any,
                                                                                      live_server: str) -> None:
    page = Page(browser, viewport=DESKTOP)
    game, token = new_game(live_server)
    open_game(page, live_server, game, token)
    p = page.page
    first_turn(page)
    legal = page_view(page)["view"]["legal"]
    # nothing chosen: no square is lit, the knights that can move say so, the grouped actions are buttons
    assert not square_names(p, TARGET)
    knights = square_names(p, re.compile("can move: select it"))
    assert sorted(knights) == sorted({a["from"] for a in legal if a["kind"] == "move"})
    reached: set[str] = set()
    for knight in knights:
        square(p, knight).click()
        assert "selected" in square(p, knight).get_attribute("aria-label")
        lit = square_names(p, TARGET)
        assert lit and set(lit) == set(square_names(p, re.compile(", move here: 1 AP")))
        reached |= {f"{knight}-{to}" for to in lit}
        square(p, knight).click()                      # once more: dropped
        assert not square_names(p, TARGET)
    for mode, kind, words in (("Build a block (1 AP)", "block", "build a block here: 1 AP"),
                              ("Add a knight (2 AP)", "knight", "add a knight here: 2 AP")):
        if not any(a["kind"] == kind for a in legal):
            continue
        button(p, mode).click()
        assert button(p, mode).get_attribute("aria-pressed") == "true"
        lit = square_names(p, TARGET)
        assert lit and set(lit) == set(square_names(p, re.compile(re.escape(words))))
        reached |= {f"{kind} {sq}" for sq in lit}
        p.keyboard.press("Escape")                       # Esc drops the choice
        assert not square_names(p, TARGET) and button(p, mode).get_attribute("aria-pressed") == "false"
    # every legal action on a square is lit in one group or another: nothing became unreachable
    assert reached == {a["action"] for a in legal if a["to"] and a["kind"] in ("move", "block", "knight")}


def test_the_view_switch_is_remembered_and_both_views_name_the_same_squares(browser: Any, live_server: str) -> None:
    page = Page(browser, viewport=DESKTOP)
    game, token = new_game(live_server)
    open_game(page, live_server, game, token)
    p = page.page

    def names() -> list[str]:
        squares = p.get_by_role("button", name=SQUARE)
        return sorted(squares.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"))

    in_3d = names()
    assert len(in_3d) == 64 and board(p).get_attribute("aria-label") == "Board, 3D"
    a1 = square(p, "a1").bounding_box()
    button(p, re.compile("Rotate")).click()                 # a quarter turn: the same squares, elsewhere
    assert names() == in_3d and square(p, "a1").bounding_box() != a1
    button(p, "Flat").click()
    assert board(p).get_attribute("aria-label") == "Board, seen from above"
    assert names() == in_3d                                  # the same data, the same names
    assert not p.get_by_role("button", name="Rotate").count()
    p.reload()
    page_view(page, wait=True)
    assert button(p, "Flat").get_attribute("aria-pressed") == "true"      # remembered by this browser
    assert board(p).get_attribute("aria-label") == "Board, seen from above"
    # the level of a square: written on it in the flat view, shown on hover (and focus) in 3D
    button(p, "3D").click()
    level = p.get_by_text(re.compile(r"^d4 · level 0$"))
    assert not level.is_visible()
    square(p, "d4").hover()
    assert level.is_visible()
    # and in German
    button(p, "DE").click()
    assert board(p).get_attribute("aria-label") == "Spielplan, 3D"
    assert button(p, "Flach").count() and button(p, re.compile("Drehen")).count()
    assert square(p, "d4").get_attribute("aria-label").startswith("d4, Boden (Ebene 0)")
    button(p, "EN").click()


def test_a_tap_leaves_no_hover_behind(browser: Any, live_server: str) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = Page(browser, context=context)
    game, token = new_game(live_server)
    open_game(page, live_server, game, token)
    p = page.page
    assert not p.evaluate("matchMedia('(hover: hover)').matches")
    lit = square_names(p, TARGET)
    dark = next(f + r for r in "12345678" for f in "abcdefgh" if f + r not in lit)
    square(p, dark).tap()
    assert not p.get_by_text(re.compile(rf"^{dark} · level \d$")).is_visible()    # no hover left on the square
    version = page_view(page)["version"]
    square(p, lit[0]).tap()                                                      # a tap on a lit square acts
    wait_newer(page, version)
    assert any(m.get("action") == f"start {lit[0]}" for m in page.acts_sent())
    assert not p.get_by_text(re.compile(rf"^{lit[0]} · level \d$")).is_visible()
    context.close()


def test_moves_animate_briefly_unless_reduced_motion_is_asked_for(browser: Any, live_server: str) -> None:
    record = """
    window.__motion = [];
    new MutationObserver(() => {
      for (const a of document.getAnimations()) {
        if (a instanceof CSSAnimation || a instanceof CSSTransition) continue;
        window.__motion.push(a.effect.getTiming().duration);
      }
    }).observe(document, { subtree: true, childList: true });
    """
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(viewport=DESKTOP, reduced_motion=motion)
        context.add_init_script(record)
        page = Page(browser, context=context)
        game, token = new_game(live_server)
        open_game(page, live_server, game, token)
        first_turn(page)     # the knights come, the king, a stack: each drawn as it happens
        durations = page.page.evaluate("window.__motion")
        if motion == "reduce":
            assert durations == []
        else:
            assert durations and all(200 <= d <= 300 for d in durations), durations
        context.close()


def test_a_card_is_played_with_the_keyboard(browser: Any, live_server: str) -> None:
    """The master version: every card in hand. Tab to a card, Enter; its squares light up; walk there, Enter."""
    page = Page(browser, viewport=DESKTOP)
    game, token = new_game(live_server, master=True)
    open_game(page, live_server, game, token)
    p = page.page
    keys = Keyboard(p)
    while True:   # the setup (castles, a first knight, the king) with the keyboard too
        view = page_view(page)
        v = view["view"]
        if v["current"] == 0 and v["stage"] == "turn" and v["legal"]:
            break
        if v["current"] == 0 and v["legal"]:
            keys.square(square_names(p, TARGET)[0])
        wait_newer(page, view["version"])
    played = None
    for card in ("Diagonal", "Build", "Shift", "Climb", "Vault", "Gate", "Redeploy"):
        keys.press(p.get_by_role("button", name=re.compile(rf"^{card}\b")))
        lit = square_names(p, re.compile(rf", (play {card} here|use {card} with this knight)"))
        if not lit:
            p.keyboard.press("Escape")
            continue
        version = page_view(page)["version"]
        picks = square_names(p, re.compile(f"use {card} with this knight"))
        if picks and not square_names(p, re.compile(f"play {card} here")):
            keys.square(picks[0])                          # which knight first
        keys.square(square_names(p, re.compile(f"play {card} here"))[0])
        wait_newer(page, version)
        played = card
        break
    assert played, "no card could be played"
    assert [m for m in page.acts_sent() if m["type"] == "act"][-1]["action"].startswith(f"play {played.lower()}")
    assert not page.errors, page.errors
