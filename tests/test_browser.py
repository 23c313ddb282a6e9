"""The browser front-end (torres/web/static) driven by Playwright on Debian's chromium against a real `torres serve`.

Every action here is a click on what the page lights up (or a button it shows); the page takes its choices from the
view's legal actions only. Screenshots of the board at each phase scoring go to tests/artifacts/ (git-ignored).
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api

from board_clicks import click_from_any_side

CHROMIUM = "/usr/bin/chromium"
# scripts/test installs Debian's chromium; only a developer without root may lack it. CI never skips.
if not Path(CHROMIUM).exists() and not os.environ.get("CI"):  # pragma: no cover
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
CARDS = ("climb", "lift", "build", "gate", "diagonal", "six", "seven", "shift", "redeploy", "vault")




class Page:
    """A page with every websocket frame it received and sent recorded."""

    def __init__(self, browser: Any, viewport: dict[str, int] = DESKTOP, context: Any = None) -> None:
        self.context = context or browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.received: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.page.on("websocket", self._socket)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.set_default_timeout(8000)

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.received.append(json.loads(payload)))
        ws.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

    # --- what the page shows ---
    def attr(self, name: str) -> str:
        return self.page.get_attribute("#game-page", f"data-{name}") or ""

    @property
    def version(self) -> int:
        v = self.attr("version")
        return int(v) if v else -1

    def wait_ready(self) -> None:
        self.page.wait_for_selector("#game-page[data-version]:not([data-version=''])")

    def wait_version_above(self, version: int, timeout: float = 15000) -> None:
        self.page.wait_for_function(
            "v => { const g = document.querySelector('#game-page'); return g && g.dataset.version !== '' && Number(g.dataset.version) > v; }",
            arg=version, timeout=timeout)

    def acts_sent(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if m.get("type") in ("act", "undo")]


def create_game(page: Page, base: str, seats: list[tuple[str, str, str]], hotseat: bool = False,
                speed: str = "instant", master: bool = False) -> str:
    """Fill in the New game form: seats as (kind, level, name)."""
    p = page.page
    p.goto(base + "/")
    p.select_option("#players", str(len(seats)))
    p.select_option("#bot-speed", speed)
    for s, (kind, level, name) in enumerate(seats):
        p.select_option(f"#seat-{s}-kind", kind)
        if kind == "bot":
            p.select_option(f"#seat-{s}-level", level)
        p.fill(f"#seat-{s}-name", name)
    if hotseat:
        p.check("#hotseat")
    if master:
        p.check("#master")
    p.click("#create-game")
    p.wait_for_url(re.compile(r".*/game/[\w-]+$"))
    page.wait_ready()
    return p.url.rsplit("/", 1)[1]


def step(page: Page, counters: dict[str, int], rng: random.Random) -> bool:
    """One click (or two: a knight, then its target) that sends an action. False when nothing could be done."""
    p = page.page
    if p.locator("#btn-keep").count():
        p.click("#btn-keep")
        return True
    stacks = p.locator("#action-buttons [data-action^='stack ']")
    if stacks.count():
        stacks.first.click()
        return True
    if page.attr("stage") == "turn" and not counters["moved"] and p.locator("#board .knight.selectable").count():
        knights = p.locator("#board .knight.selectable")
        click_square(p, "#board .knight.selectable", knights.nth(rng.randrange(knights.count())))
        targets = p.locator("#board .target")
        targets.first.wait_for()
        counters["moved"] = 1
        choose(p, targets.nth(rng.randrange(targets.count())))
        return True
    # the squares to build on (or to add a knight on) light up once that action is chosen under the board
    modes = p.locator("#board-tools [id^='mode-'][aria-pressed='false']")
    if page.attr("stage") == "turn" and counters["built"] < 2 and not p.locator("#board .target").count() \
            and modes.count():
        modes.nth(rng.randrange(modes.count())).click()
        p.locator("#board .target").first.wait_for()
    targets = p.locator("#board .target")
    if targets.count() and (page.attr("stage") != "turn" or counters["built"] < 2):
        counters["built"] += 1
        choose(p, targets.nth(rng.randrange(targets.count())))
        return True
    if p.locator("#btn-end").count():
        p.click("#btn-end")
        counters["moved"] = counters["built"] = 0
        return True
    other = p.locator("#action-buttons [data-action]")
    if other.count():
        other.first.click()
        return True
    return False


def click_square(p: Any, kind: str, square: Any) -> None:
    """Click a square of the board (`kind`: a selector of such squares, `square` one of them), from a side of the
    3D view where no taller square covers it."""
    name = square.get_attribute("data-square")
    click_from_any_side(lambda: p.locator(f"{kind}[data-square='{name}']"), lambda: p.click("#board-rotate"), name)


def choose(p: Any, target: Any) -> None:
    """Click a lit square; where it offers several actions, take the first the chooser lists."""
    multi = target.get_attribute("data-count") not in (None, "1")
    click_square(p, "#board .target", target)
    if multi:
        p.locator("#chooser [data-action]").first.click()


def play_until_over(page: Page, rng: random.Random, shots: str | None = None, limit: float = 150) -> list[int]:
    """Play this page's seat to the end by clicking; returns the phases whose scoring dialog was seen."""
    p = page.page
    counters = {"moved": 0, "built": 0}
    seen: list[int] = []
    deadline = time.monotonic() + limit

    def record_dialog() -> None:
        tables = p.locator("#dialog .scoring-table")
        phase = int(tables.first.get_attribute("data-phase") or 0) if tables.count() else 0
        if phase and phase not in seen:
            seen.append(phase)
            if shots:
                ARTIFACTS.mkdir(exist_ok=True)
                p.locator("#board").screenshot(path=str(ARTIFACTS / f"{shots}-board-phase{phase}.png"))
                p.screenshot(path=str(ARTIFACTS / f"{shots}-scoring-phase{phase}.png"))

    while time.monotonic() < deadline:
        dialog = p.locator("#dialog")
        if dialog.count():
            record_dialog()
            if page.attr("stage") == "over":
                break
            p.click("#dialog-close")
            continue
        if p.locator("#handover-ready").count():
            p.click("#handover-ready")
            continue
        if page.attr("stage") == "over":
            break
        if page.attr("my-turn") != "1":
            p.wait_for_function(
                "() => { const g = document.querySelector('#game-page');"
                " return document.querySelector('#dialog') || document.querySelector('#handover')"
                " || (g && (g.dataset.myTurn === '1' || g.dataset.stage === 'over')); }", timeout=30000)
            continue
        before = page.version
        try:
            if not step(page, counters, rng):
                raise AssertionError("my turn, but nothing to click")
            page.wait_version_above(before)
        except sync_api.TimeoutError:
            # a scoring dialog (from the actions just before my turn) came up over the board: close it and go on
            if not p.locator("#dialog").count():
                raise
    assert page.attr("stage") == "over", "the game did not end in time"
    p.wait_for_selector("#dialog[data-kind='over']")   # the last scoring and the ranking come up by themselves
    record_dialog()
    return seen


def assert_no_foreign_cards(page: Page, seat: int, foreign_keeps: set[str]) -> None:
    """Nothing this page received names another seat's cards: its views are its own seat's, other seats' keeps
    are hidden, and the exact keep actions of the other seat never appear in any frame."""
    assert page.received, "no websocket frames were recorded"
    for msg in page.received:
        view = msg.get("view")
        if view is not None:
            assert view["seat"] == seat, msg["type"]
            assert "hands" not in view
            if view["current"] != seat or view["stage"] != "keep":
                assert view["drawn"] == []
            assert view.get("position", "").count("seed=?") == 1
        if view is not None and view["current"] == seat:
            # its own choices at its own keep may read exactly like the other seat's keep (same cards drawn)
            msg = {**msg, "view": {k: v for k, v in view.items() if k != "legal"}}
        text = json.dumps(msg)
        for keep in foreign_keeps:
            assert keep not in text, f"{keep!r} leaked to seat {seat}"
    # the DOM: every card shown belongs to the own hand, the keep choice or the chosen card
    cards = page.page.eval_on_selector_all(
        "[data-card]", "els => els.map(e => [e.dataset.card, !!e.closest('#hand, #keep-panel, #card-pop')])")
    assert all(inside for _, inside in cards), cards


# ----------------------------------------------------------------------------------------------------------------


def test_play_a_whole_game_against_a_bot_by_clicking(browser: Any, live_server: str, tmp_path: Path) -> None:
    page = Page(browser)
    game = create_game(page, live_server, [("human", "", "Ann"), ("bot", "beginner", "Bob")])
    p = page.page
    assert page.attr("seat") == "0"
    assert p.locator("#board [data-square]").count() >= 64
    assert p.locator("#board [data-square='a1']").count() and p.locator("#board [data-square='h8']").count()

    # setup: the first knight goes on a lit castle square
    p.wait_for_selector("#game-page[data-my-turn='1']")
    targets = p.eval_on_selector_all("#board .target", "els => els.map(e => e.dataset.action)")
    assert targets and all(a.startswith("start ") for a in targets)

    # an illegal click (a square that is not lit) changes nothing and sends nothing
    lit = set(p.eval_on_selector_all("#board .target", "els => els.map(e => e.dataset.square)"))
    dark = next(sq for sq in (f + r for r in "12345678" for f in "abcdefgh") if sq not in lit)
    before_html = p.inner_html("#board")
    before_version, before_sent = page.version, len(page.acts_sent())
    p.click(f"#board .sq[data-square='{dark}']")
    p.wait_for_timeout(400)
    assert page.version == before_version and len(page.acts_sent()) == before_sent
    assert p.inner_html("#board") == before_html

    seen = play_until_over(page, random.Random(1), shots="game", limit=170)
    assert seen == [1, 2, 3], seen
    assert p.locator("#ranking").count()
    # once the game is over there is nothing to undo or ask for: those buttons go, the replay's link is there
    sync_api.expect(p.get_by_role("link", name="Replay", exact=True).first).to_be_visible()
    for gone in ("Undo", "Hint", "End turn"):
        sync_api.expect(p.get_by_role("button", name=gone)).to_have_count(0)
    assert not page.errors, page.errors
    # the bot's cards never reached this page
    assert_no_foreign_cards(page, 0, set())
    for msg in page.received:
        if msg.get("type") == "update" and msg.get("event") and msg["event"]["seat"] == 1:
            assert not msg["event"]["action"].startswith("keep "), msg["event"]

    # the replay viewer steps through the finished game
    p.goto(f"{live_server}/replay/{game}")
    p.wait_for_selector("#replay-slider")
    assert p.get_attribute("#replay-frame", "data-frame") == "0"
    p.click("#replay-next")
    assert p.get_attribute("#replay-frame", "data-frame") == "1"
    assert p.locator("#log li[data-action]").count() == 1
    p.click("#replay-next")
    p.click("#replay-prev")
    assert p.get_attribute("#replay-frame", "data-frame") == "1"
    # it plays on by itself, frame after frame; "Pause" stays the same button meanwhile, and a click on it stops there
    p.get_by_role("button", name="Play", exact=True).click()
    pause = p.get_by_role("button", name="Pause", exact=True)
    held = pause.element_handle()
    frame = p.locator("#replay-frame")
    sync_api.expect(frame).not_to_have_attribute("data-frame", "1")
    at = frame.get_attribute("data-frame")
    sync_api.expect(frame).not_to_have_attribute("data-frame", at)       # another frame came
    assert held.evaluate("el => el.isConnected"), "a new frame replaced the Pause button"
    pause.click()
    stopped = frame.get_attribute("data-frame")
    p.wait_for_timeout(1500)                                             # two frames' time: none comes
    assert frame.get_attribute("data-frame") == stopped
    sync_api.expect(p.get_by_role("button", name="Play", exact=True)).to_be_visible()
    p.click("#replay-first")
    p.click("#replay-next")
    jumps = p.locator(".replay-scoring")
    assert jumps.count() == 3
    jumps.nth(1).click()
    assert p.locator("#side .scoring-table[data-phase='2']").count() == 1
    p.click("#replay-last")
    assert p.locator("#side #ranking").count() == 1
    href = p.get_attribute("#replay-download", "href")
    assert href.endswith(f"/api/games/{game}/record")
    ARTIFACTS.mkdir(exist_ok=True)
    p.screenshot(path=str(ARTIFACTS / "replay-end.png"))

    # the downloaded record, uploaded again, replays the same game
    record = p.request.get(live_server + href).text()
    path = tmp_path / "game.json"
    path.write_text(record)
    p.goto(f"{live_server}/replay")
    p.set_input_files("#record-file", str(path))
    p.click("#upload-submit")
    p.wait_for_selector("#replay-slider")
    assert p.get_attribute("#replay-slider", "max") == str(len(json.loads(record)["actions"]))


def test_refresh_keeps_the_seat(browser: Any, live_server: str) -> None:
    page = Page(browser)
    create_game(page, live_server, [("human", "", "Ann"), ("bot", "beginner", "Bob")])
    p = page.page
    p.wait_for_selector("#game-page[data-my-turn='1']")
    p.reload()
    page.wait_ready()
    assert page.attr("seat") == "0" and page.attr("my-turn") == "1"
    assert p.locator("#hand").count() == 1 and not p.locator("#spectator-note").count()
    # the seat's token is kept by game id: a new tab returns to the same seat
    other = page.context.new_page()
    other.goto(p.url)
    other.wait_for_selector("#game-page[data-seat='0']")
    other.close()


def test_a_dropped_connection_shows_a_banner_and_resumes(browser: Any, server_process: Any) -> None:
    base = server_process.start().url
    page = Page(browser)
    create_game(page, base, [("human", "", "Ann"), ("bot", "beginner", "Bob")])
    p = page.page
    p.wait_for_selector("#game-page[data-my-turn='1']")
    version = page.version
    server_process.kill()
    p.wait_for_selector("#conn-banner.lost:not([hidden])")
    assert "reconnecting" in p.inner_text("#conn-banner")
    server_process.start()
    p.wait_for_selector("#conn-banner", state="hidden", timeout=20000)
    assert page.attr("seat") == "0" and page.version == version and page.attr("my-turn") == "1"
    hellos = [m for m in page.sent if m["type"] == "hello"]
    assert len(hellos) >= 2 and hellos[-1]["version"] == version and hellos[-1]["token"]


def test_cards_are_played_by_clicking(browser: Any, live_server: str) -> None:
    """Master version: every card in hand from the start. A card's own targets light up once it is chosen."""
    page = Page(browser)
    create_game(page, live_server, [("human", "", "Ann"), ("bot", "beginner", "Bob")], master=True)
    p = page.page
    rng = random.Random(2)
    counters = {"moved": 1, "built": 0}
    while not (page.attr("stage") == "turn" and page.attr("my-turn") == "1"):
        if page.attr("my-turn") != "1":
            p.wait_for_selector("#game-page[data-my-turn='1']")
            continue
        v = page.version
        step(page, counters, rng)
        page.wait_version_above(v)
    stacks = p.locator("#action-buttons [data-action^='stack ']")
    if stacks.count():
        v = page.version
        stacks.first.click()
        page.wait_version_above(v)
    assert p.locator("#hand [data-card]").count() == 10
    played = None
    for card in ("diagonal", "build", "shift", "seven"):
        p.click(f"#hand [data-card='{card}']")
        p.wait_for_selector(f"#card-pop[data-card='{card}']")
        v = page.version
        play = p.get_by_role("button", name=f"Play {card.capitalize()}", exact=True)   # a card that names no square
        if play.count():
            play.click()
        elif p.locator("#board .target").count():
            pick = p.locator("#board .target.k-pick")
            if pick.count():
                click_square(p, "#board .target.k-pick", pick.first)
            real = p.locator("#board .target[data-action]")
            assert all(a.startswith(f"play {card}") for a in real.evaluate_all("els => els.map(e => e.dataset.action)"))
            choose(p, real.first)
        else:
            p.click("#btn-cancel-card")
            continue
        page.wait_version_above(v)
        played = card
        break
    assert played, "no card could be played"
    last = [m for m in page.acts_sent() if m["type"] == "act"][-1]["action"]
    assert last.startswith(f"play {played}")
    assert p.locator("#log li[data-action^='play ']").count() == 1


def test_undo_takes_back_an_action_in_my_turn(browser: Any, live_server: str) -> None:
    page = Page(browser)
    create_game(page, live_server, [("human", "", "Ann"), ("human", "", "Cy")], hotseat=True)
    p = page.page
    # both seats are at this screen: Ann places, then Cy (after the hand-over), then the king ...
    rng = random.Random(3)
    counters = {"moved": 0, "built": 0}
    while page.attr("stage") != "turn":
        if p.locator("#handover-ready").count():
            p.click("#handover-ready")
            p.wait_for_selector("#game-page[data-my-turn='1']")
            continue
        v = page.version
        step(page, counters, rng)
        page.wait_version_above(v)
    if p.locator("#handover-ready").count():
        p.click("#handover-ready")
        p.wait_for_selector("#game-page[data-my-turn='1']")
    assert p.is_disabled("#btn-undo")
    v = page.version
    stacks = p.locator("#action-buttons [data-action^='stack ']")
    if stacks.count():
        stacks.first.click()
        page.wait_version_above(v)
        v = page.version
    if not p.locator("#board .target").count():
        p.locator("#board-tools [id^='mode-']").first.click()    # build a block: its squares light up
    choose(p, p.locator("#board .target").first)
    page.wait_version_above(v)
    history = int(page.attr("history"))
    log_lines = p.locator("#log li[data-action]").count()
    p.click("#btn-undo")
    page.wait_version_above(v + 1)
    assert int(page.attr("history")) == history - 1
    assert p.locator("#log li[data-action]").count() == log_lines - 1
    assert any(m["type"] == "undo" for m in page.sent)


def test_hotseat_hides_the_hand_at_handover(browser: Any, live_server: str) -> None:
    page = Page(browser)
    create_game(page, live_server, [("human", "", "Ann"), ("human", "", "Bob")], hotseat=True)
    p = page.page
    assert page.attr("seat") == "0"
    assert p.locator("#hand[data-seat='0']").count() == 1
    v = page.version
    p.locator("#board .target").first.click()     # Ann's first knight
    page.wait_version_above(v)
    p.wait_for_selector("#handover")
    assert "Bob" in p.inner_text("#handover")
    assert p.locator("#hand").count() == 0          # removed from the DOM, not just hidden
    assert p.locator("[data-card]").count() == 0
    p.click("#handover-ready")
    p.wait_for_selector("#game-page[data-seat='1'][data-my-turn='1']")
    assert p.locator("#hand[data-seat='1']").count() == 1
    assert p.title() == "(Your turn) Torres"
    hellos = [m for m in page.sent if m["type"] == "hello"]
    assert hellos[-1]["seat"] == 1


def test_two_players_online_see_each_other_live(browser: Any, live_server: str) -> None:
    ann = Page(browser)
    game = create_game(ann, live_server, [("human", "", "Ann"), ("human", "", "Bob")])
    invite = ann.page.get_by_label(re.compile(r"^Link for Bob \(seat 2\)")).input_value()
    assert invite and "/join/" in invite
    spectator_link = ann.page.get_by_label("Spectator link", exact=True).input_value()
    bob = Page(browser)
    bob.page.goto(invite)
    bob.page.wait_for_url(re.compile(rf".*/game/{game}$"))
    bob.wait_ready()
    assert bob.attr("seat") == "1"
    rng = random.Random(5)
    counters = {0: {"moved": 0, "built": 0}, 1: {"moved": 0, "built": 0}}
    keeps: dict[int, set[str]] = {0: set(), 1: set()}
    # play until both have bought and kept cards or a few rounds went by; every action shows up on the other page
    for _ in range(40):
        actor = ann if ann.attr("my-turn") == "1" else bob if bob.attr("my-turn") == "1" else None
        if actor is None:
            ann.page.wait_for_timeout(100)
            continue
        other = bob if actor is ann else ann
        seat = 0 if actor is ann else 1
        if actor.page.locator("#dialog").count():
            actor.page.click("#dialog-close")
        v = actor.version
        if actor.attr("stage") == "turn" and counters[seat]["built"] == 0 and actor.page.locator("#btn-buy").count() \
                and not actor.page.locator("#action-buttons [data-action^='stack ']").count():
            actor.page.click("#btn-buy")
            counters[seat]["built"] = 1
        else:
            step(actor, counters[seat], rng)
        actor.wait_version_above(v)
        other.wait_version_above(v, timeout=5000)   # live on the other page
        assert other.version == actor.version
        for msg in actor.received:
            if msg.get("type") == "update" and msg.get("event") and msg["event"]["seat"] == seat:
                if msg["event"]["action"].startswith("keep "):
                    keeps[seat].add(msg["event"]["action"])
    assert int(ann.attr("history")) >= 10
    # both logs tell the same story (the other seat's keeps in words without the card)
    assert ann.page.locator("#log li[data-action]").count() == bob.page.locator("#log li[data-action]").count()
    # (a keep both seats made in the same words is the page's own too: it may see it)
    assert_no_foreign_cards(ann, 0, keeps[1] - keeps[0])
    assert_no_foreign_cards(bob, 1, keeps[0] - keeps[1])
    # a spectator sees the public view only
    watcher = Page(browser)
    watcher.page.goto(spectator_link)
    watcher.wait_ready()
    assert watcher.attr("seat") == "" and watcher.page.locator("#spectator-note").count() == 1
    assert watcher.page.locator("[data-card]").count() == 0
    assert_no_foreign_cards_spectator(watcher, keeps[0] | keeps[1])


def assert_no_foreign_cards_spectator(page: Page, keeps: set[str]) -> None:
    for msg in page.received:
        view = msg.get("view")
        if view is not None:
            assert view["seat"] is None and view["hand"] == {} and view["drawn"] == []
        text = json.dumps(msg)
        for keep in keeps:
            assert keep not in text


def test_german_page_shows_german(browser: Any, live_server: str) -> None:
    page = Page(browser)
    p = page.page
    p.goto(live_server + "/")
    p.click("#lang-de")
    assert p.inner_text("#new-game-box h2") == "Neues Spiel"
    assert "Regeln" in p.inner_text("#header")
    p.reload()                                     # remembered
    assert p.inner_text("#new-game-box h2") == "Neues Spiel"
    create_game(page, live_server, [("human", "", "Anna"), ("bot", "beginner", "Bert")])
    assert "Phase" in p.inner_text("#status") or "Aufbau" in p.inner_text("#status")
    assert "Ihre Karten" in p.text_content("#side")        # "Sie" throughout, as in the rules and on the cards
    assert "Zurücknehmen" in p.inner_text("#controls")
    assert "Spielverlauf" in p.text_content("#side")
    # the card texts come in German too (the page's own translation module)
    texts = p.evaluate("import('/static/js/i18n.js').then(m => [m.getLang(), m.cardName('climb'), m.cardText('vault')])")
    assert texts[0] == "de" and texts[1] == "Klettern" and "Ritter" in texts[2]
    p.click("#lang-en")
    assert "Your cards" in p.text_content("#side")
    p.click("#lang-de")
    p.goto(live_server + "/rules")
    p.wait_for_selector("#rules[lang='de']")


def test_the_header_folds_its_links_into_a_menu_where_they_do_not_fit(browser: Any, live_server: str) -> None:
    """Cut off at the window's edge, the header's last links (the puzzles, the analysis board) could not be reached
    at all below about 1,000 pixels: there they fold into a menu behind a button."""
    page = Page(browser, viewport=PHONE)
    p = page.page
    p.goto(live_server + "/")
    nav = p.get_by_role("navigation", name="Main")
    menu = p.get_by_role("button", name="Menu")
    puzzles = nav.get_by_role("link", name="Puzzles")
    sync_api.expect(menu).to_have_attribute("aria-expanded", "false")
    sync_api.expect(puzzles).to_be_hidden()
    assert p.evaluate("document.getElementById('header').scrollWidth <= innerWidth")
    menu.click()
    sync_api.expect(menu).to_have_attribute("aria-expanded", "true")
    for name in ("Home", "Rules", "Lobby", "Leaderboard", "Replay a record", "Analysis board", "Puzzles", "Log in",
                 "Sign up"):
        sync_api.expect(nav.get_by_role("link", name=name)).to_be_visible()
    p.keyboard.press("Escape")                 # closes it, the focus back on its button
    sync_api.expect(puzzles).to_be_hidden()
    sync_api.expect(menu).to_be_focused()
    menu.click()
    p.mouse.click(3, PHONE["height"] - 40)      # a click elsewhere (the page's margin, below the menu) closes it
    sync_api.expect(menu).to_have_attribute("aria-expanded", "false")
    menu.click()
    puzzles.click()                            # following a link closes it
    p.wait_for_url(re.compile(r"/puzzles(/[\w-]+)?$"))   # the page goes on to its first puzzle
    sync_api.expect(menu).to_have_attribute("aria-expanded", "false")
    sync_api.expect(puzzles).to_be_hidden()
    menu.click()                               # the part of the site shown is said in the menu
    sync_api.expect(puzzles).to_have_attribute("aria-current", "page")
    sync_api.expect(nav.get_by_role("link", name="Home")).not_to_have_attribute("aria-current", "page")
    p.keyboard.press("Escape")
    # at any width, every link is either whole on the line or behind the button
    clipped = """() => { const nav = document.getElementById('site-nav'), right = nav.getBoundingClientRect().right;
        return [...nav.querySelectorAll('a, button')].filter((a) => a.offsetParent
            && a.getBoundingClientRect().right > right + 0.5).map((a) => a.textContent); }"""
    for width in (1366, 1024, 960, 900, 800, 600):
        p.set_viewport_size({"width": width, "height": 800})
        p.wait_for_function(f"() => ({clipped})().length === 0")   # refitted on the next frame
        assert menu.is_visible() != puzzles.is_visible(), width
    p.set_viewport_size(DESKTOP)
    sync_api.expect(menu).to_be_hidden()
    sync_api.expect(puzzles).to_be_visible()
    page.context.close()


def test_phone_viewport_has_no_horizontal_scroll(browser: Any, live_server: str) -> None:
    page = Page(browser, viewport=PHONE)
    p = page.page
    p.goto(live_server + "/")
    p.wait_for_selector("#create-game")
    assert p.evaluate("document.documentElement.scrollWidth <= innerWidth")
    create_game(page, live_server, [("human", "", "Ann"), ("bot", "beginner", "Bob"), ("bot", "beginner", "Cy"),
                                    ("bot", "beginner", "Di")])
    p.wait_for_timeout(300)
    assert p.evaluate("document.documentElement.scrollWidth <= innerWidth")
    box = p.locator("#board svg").bounding_box()
    assert box and box["width"] <= PHONE["width"] and box["width"] > 300
    ARTIFACTS.mkdir(exist_ok=True)
    p.screenshot(path=str(ARTIFACTS / "phone-game.png"), full_page=True)
    p.goto(live_server + "/rules")
    p.wait_for_selector("#rules h1, #rules h2, #rules p")
    assert p.evaluate("document.documentElement.scrollWidth <= innerWidth")
