"""Strangers meet (issue #33), in Debian's chromium: two people, each in a browser of their own, sign up through the
pages, find each other's open game in the lobby (live, without reloading), play a rated game with a live clock, run
out of time one after the other while bots play their seats to the end, and both see the result and their new
ratings, on the game page and on their profiles.

Also: a username and a seek note with ``<script>`` render as text (no dialog fires); the log-in page says why a
log-in is refused (401, and 429 when guessing); the seats a guest's browser holds join the account at sign-up.

The tests find things as a person does: by role, label and visible text. No timing assertions: every wait is
generous (the machine is shared).
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path
from typing import Any, Iterator

import pytest

from playwright.sync_api import Page, expect

from test_accessibility import AXE, axe_serious

SHOTS = Path("/tmp/shots")
DESKTOP = {"width": 1366, "height": 768}
PASSWORD = "correct horse battery"
LONG = 60_000           # a page's answer on a busy machine
GAME = 600_000          # a whole game played by bots
expect.set_options(timeout=30_000)


class Person:
    """One person: a browser context of their own (own cookies, own localStorage), a page, the dialogs and errors
    it saw."""

    def __init__(self, browser: Any, base: str) -> None:
        self.context = browser.new_context(viewport=DESKTOP, locale="en-US")
        self.page = self.context.new_page()
        self.page.set_default_timeout(LONG)
        self.base = base
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.page.on("dialog", self._dialog)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def sign_up(self, username: str) -> None:
        p = self.page
        p.goto(self.base + "/signup")
        p.get_by_label("Username").fill(username)
        p.get_by_label("Password").fill(PASSWORD)
        p.get_by_role("button", name="Create the account").click()
        expect(p).to_have_url(re.compile(r"/lobby$"))
        expect(p.get_by_role("banner").get_by_role("link", name=username)).to_be_visible()

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def people(browser: Any, live_server: str) -> Iterator[list[Person]]:
    made: list[Person] = []

    def person() -> Person:
        made.append(Person(browser, live_server))
        return made[-1]

    yield person  # type: ignore[misc]
    for p in made:
        p.close()


def name(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(3)}"


def open_seek(page: Page, *, rated: bool, minutes: str | None = None, note: str = "") -> None:
    """Fill in the lobby's form by its labels and open the game."""
    form = page.get_by_role("form", name="Open a game")
    form.get_by_label("rated" if rated else "casual", exact=True).check()
    if minutes is not None:
        form.get_by_label("live", exact=True).check()
        form.get_by_label("Minutes per player").fill(minutes)
        form.get_by_label("Seconds added per turn").fill("0")
    if note:
        form.get_by_label("Note (optional)").fill(note)
    form.get_by_role("button", name="Open the game").click()


def seek_of(page: Page, creator: str) -> Any:
    """The open game of `creator` in the lobby's list."""
    return page.get_by_role("region", name="Open games").get_by_role("listitem").filter(has_text=creator)


def clock_of(page: Page, who: str) -> Any:
    """The clock of the player named `who` in the game page's list of clocks."""
    return page.get_by_role("list", name="Clocks").get_by_role("listitem").filter(has_text=who)


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.slow
def test_two_strangers_meet_play_a_rated_game_with_a_clock_and_see_their_new_ratings(people: Any) -> None:
    ann, bob = people(), people()
    a, b = name("ann"), name("bob")
    ann.sign_up(a)
    bob.sign_up(b)

    # Ann opens a rated game with a 30-second clock; Bob's lobby shows it without a reload, and he joins
    bob_seek = seek_of(bob.page, a)
    expect(bob_seek).to_have_count(0)
    open_seek(ann.page, rated=True, minutes="0.5")
    expect(ann.page.get_by_role("region", name="Open games")).to_contain_text(a)
    expect(bob_seek).to_be_visible()
    expect(bob_seek).to_contain_text("rated")
    expect(bob_seek).to_contain_text("Clock: 30 s")
    expect(bob.page.get_by_role("region", name=re.compile(r"^Online"))).to_contain_text(a)
    shot(bob.page, "lobby")
    bob_seek.get_by_role("button", name=f"Join {a}'s game").click()

    # both land on the game page, where each sees the clocks: the seat to act counts down
    for person in (ann, bob):
        expect(person.page).to_have_url(re.compile(r"/game/[\w-]+$"))
        expect(person.page.get_by_role("list", name="Clocks")).to_be_visible()
        expect(clock_of(person.page, a)).to_be_visible()
        expect(clock_of(person.page, b)).to_be_visible()
    assert ann.page.url == bob.page.url
    for person in (ann, bob):
        running = person.page.get_by_role("list", name="Clocks").get_by_role("listitem").filter(has_text="running")
        expect(running).to_have_count(1)
        first = running.inner_text()
        expect(running).not_to_have_text(first)        # it ticks (or the turn passed on: the clock list changed)
    shot(ann.page, "game-clocks")
    if AXE.exists():
        assert axe_serious(ann.page) == []
    game_url = ann.page.url

    # each makes one move through the board when their turn comes (a player who never moves would abort the game,
    # unrated); after that nobody moves
    lit = re.compile(r"place your knight here|found a castle here|put the king here")
    log = ann.page.get_by_role("region", name="Game log")
    clocks = ann.page.get_by_role("list", name="Clocks").get_by_role("listitem")
    ann_first = clocks.filter(has_text="running").filter(has_text=a).count() == 1
    order = [(ann, a), (bob, b)] if ann_first else [(bob, b), (ann, a)]
    for person, who in order:
        person.page.get_by_role("button", name=lit).first.click()
        expect(log.get_by_role("listitem").filter(has_text=who)).not_to_have_count(0)

    # the seat to act runs out of time: a bot takes it, and both pages say so (whose it is depends on who began:
    # the start player is drawn, and a player whose seat went to a bot no longer sets the bots' speed)
    out = "ran out of time: a bot plays on"
    expect(clocks.filter(has_text=out)).to_have_count(1, timeout=120_000)
    ann_out = clock_of(ann.page, a).filter(has_text=out).count() == 1
    gone, (stays, stays_name) = (a, (bob, b)) if ann_out else (b, (ann, a))
    for person in (ann, bob):
        expect(clock_of(person.page, gone)).to_contain_text(out)
    # the other makes the bots quick, then runs out of time too; the bots finish the game
    stays.page.get_by_label("Bot speed").select_option("instant")
    for person in (ann, bob):
        expect(clock_of(person.page, stays_name)).to_contain_text(out, timeout=180_000)
    for person in (ann, bob):
        ranking = person.page.get_by_role("table", name="Final ranking").first
        expect(ranking).to_be_visible(timeout=GAME)
        ratings = person.page.get_by_role("region", name="New ratings").first
        expect(ratings).to_contain_text(a, timeout=LONG)
        expect(ratings).to_contain_text(b)
        expect(ratings).to_contain_text(re.compile(r"\d+ → \d+"))
        # both seats went to a bot: the ratings rank them by their last own move, whatever the scores say, and say so
        expect(ratings).to_contain_text("ranks below everyone who played on, the first to leave lowest")
    shot(ann.page, "game-over")
    if AXE.exists():
        assert axe_serious(bob.page) == []

    # the profiles show the new ratings (provisional after one game) and the finished game
    for person, who in ((ann, a), (bob, b)):
        person.page.goto(f"{person.base}/players/{who}")
        expect(person.page.get_by_role("heading", level=1)).to_contain_text(who)
        row = person.page.get_by_role("table", name="Ratings").get_by_role("row").filter(has_text="2 players")
        expect(row).to_contain_text(re.compile(r"\d+"))
        expect(row).to_contain_text("provisional")
        recent = person.page.get_by_role("region", name="Recent games")
        expect(recent.get_by_role("listitem")).to_have_count(1)
        expect(recent).to_contain_text(re.compile(r"\d+ → \d+"))
    shot(ann.page, "profile")
    if AXE.exists():
        assert axe_serious(ann.page) == []
    ann.page.goto(f"{ann.base}/leaderboard")
    expect(ann.page.get_by_role("table", name="Best players in 2-player games")).to_contain_text(a)
    if AXE.exists():
        assert axe_serious(ann.page) == []

    # a rematch: both ask for one, and both land in the same new game
    for person in (ann, bob):
        person.page.goto(game_url)
        person.page.get_by_role("button", name="Rematch").click()
        expect(person.page).not_to_have_url(game_url)
        expect(person.page).to_have_url(re.compile(r"/game/[\w-]+$"))
    assert ann.page.url == bob.page.url
    expect(clock_of(bob.page, a)).to_be_visible()
    for person in (ann, bob):
        assert not person.errors, person.errors
        assert not person.dialogs, person.dialogs


def test_a_script_in_a_username_or_a_seek_note_renders_as_text(people: Any) -> None:
    ann, bob = people(), people()
    script = "<script>alert(1)</script>"
    # a username with markup is refused, and the refusal is shown as text
    p = ann.page
    p.goto(ann.base + "/signup")
    p.get_by_label("Username").fill(script)
    p.get_by_label("Password").fill(PASSWORD)
    p.evaluate("() => document.querySelector('form').noValidate = true")   # past the browser's own check: the server's
    p.get_by_role("button", name="Create the account").click()
    expect(p.get_by_role("alert")).to_contain_text("Something went wrong")
    expect(p).to_have_url(re.compile(r"/signup$"))

    a, b = name("ann"), name("bob")
    ann.sign_up(a)
    bob.sign_up(b)
    note = script + '<img src=x onerror="alert(2)">'
    open_seek(ann.page, rated=False, note=note)
    seek = seek_of(bob.page, a)
    expect(seek).to_contain_text(note)                                  # the very characters, visible
    expect(seek.get_by_text(note, exact=True)).to_be_visible()
    assert bob.page.locator("#app script, #app img").count() == 0
    expect(seek_of(ann.page, a)).to_contain_text(note)
    bob.page.wait_for_timeout(500)
    for person in (ann, bob):
        assert not person.dialogs, person.dialogs
        assert not person.errors, person.errors
    # the creator cancels it
    seek_of(ann.page, a).get_by_role("button", name="Cancel").click()
    expect(seek).to_have_count(0)


def test_log_in_says_why_it_is_refused_and_a_guests_seats_join_the_account(browser: Any, server_process: Any) -> None:
    base = server_process.start().url
    person = Person(browser, base)
    p = person.page
    try:
        # a guest starts a game against a bot; signing up takes its seat along
        p.goto(base + "/")
        p.get_by_role("button", name="Start the game").click()
        expect(p).to_have_url(re.compile(r"/game/[\w-]+$"))
        game = p.url.rsplit("/", 1)[1]
        who = name("cleo")
        person.sign_up(who)
        games = p.get_by_role("region", name="Your games")
        expect(games.get_by_role("link", name="Open")).to_have_attribute("href", f"/game/{game}")

        # log out from the header; a wrong password: the page says so
        p.get_by_role("banner").get_by_role("button", name="Log out").click()
        expect(p.get_by_role("banner").get_by_role("link", name="Log in")).to_be_visible()
        p.goto(base + "/login")
        p.get_by_label("Username").fill(who)
        p.get_by_label("Password").fill("not the password")
        p.get_by_role("button", name="Log in").click()
        expect(p.get_by_role("alert")).to_have_text("Wrong username or password.")
        # guessing on: 429, and the page says to wait
        for _ in range(6):
            p.get_by_role("button", name="Log in").click()
            p.wait_for_timeout(200)
        expect(p.get_by_role("alert")).to_have_text(re.compile("Too many attempts"))
        assert not person.errors, person.errors
    finally:
        person.close()


def test_the_right_password_logs_in_and_the_account_page_logs_out(people: Any) -> None:
    person = people()
    who = name("dora")
    person.sign_up(who)
    p = person.page
    p.get_by_role("banner").get_by_role("button", name="Log out").click()
    expect(p.get_by_role("banner").get_by_role("link", name="Sign up")).to_be_visible()
    p.goto(person.base + "/login")
    p.get_by_label("Username").fill(who.upper())                       # names ignore case
    p.get_by_label("Password").fill(PASSWORD)
    p.get_by_role("button", name="Log in").click()
    expect(p).to_have_url(re.compile(r"/lobby$"))
    p.get_by_role("banner").get_by_role("link", name=who).click()
    expect(p.get_by_role("heading", level=1)).to_have_text(f"Account: {who}")
    # a wrong current password: refused with words; the right one: changed
    form = p.get_by_role("form", name="Change the password")
    form.get_by_label("Current password").fill("wrong password")
    form.get_by_label("New password").fill(PASSWORD + "!")
    form.get_by_role("button", name="Change the password").click()
    expect(form.get_by_role("status")).to_have_text("The password is not right.")
    form.get_by_label("Current password").fill(PASSWORD)
    form.get_by_label("New password").fill(PASSWORD + "!")
    form.get_by_role("button", name="Change the password").click()
    expect(form.get_by_role("status")).to_contain_text("Password changed")
    p.get_by_role("main").get_by_role("button", name="Log out").click()
    expect(p.get_by_role("banner").get_by_role("link", name="Log in")).to_be_visible()
    assert not person.errors, person.errors


def test_a_game_with_bots_from_the_lobby_and_resigning_it(people: Any) -> None:
    """A casual seek filled with bots, started at once by its creator; the clock's owner resigns after confirming."""
    person = people()
    who = name("eve")
    person.sign_up(who)
    p = person.page
    form = p.get_by_role("form", name="Open a game")
    form.get_by_label("casual", exact=True).check()
    form.get_by_label("live", exact=True).check()
    form.get_by_label("Minutes per player").fill("10")
    form.get_by_label("Fill empty seats with bots").check()
    form.get_by_label("Bot level").select_option("beginner")
    form.get_by_role("button", name="Open the game").click()
    seek = seek_of(p, who)
    expect(seek).to_contain_text("bots (beginner) fill empty seats")
    seek.get_by_role("button", name="Start now with bots").click()
    expect(p).to_have_url(re.compile(r"/game/[\w-]+$"))
    expect(clock_of(p, who)).to_contain_text(re.compile(r"\d+:\d\d"))

    # resigning asks first; "Cancel" leaves everything as it was
    p.get_by_role("button", name="Resign").click()
    dialog = p.get_by_role("alertdialog", name="Resign this game?")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
    if AXE.exists():
        assert axe_serious(p) == []
    p.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    p.get_by_role("button", name="Resign").click()
    dialog.get_by_role("button", name="Yes, resign").click()
    expect(clock_of(p, who)).to_contain_text("resigned: a bot plays on")
    expect(p.get_by_role("button", name="Resign")).to_have_count(0)
    assert not person.errors, person.errors


def test_a_new_device_shows_the_accounts_games_on_the_home_page(people: Any) -> None:
    """A player starts a game with bots in one browser; in another (a new device: no seat tokens, no games remembered)
    they log in, find the game under "My games" on the home page, their turn marked, and open it with their seat."""
    first = people()
    who = name("gina")
    first.sign_up(who)
    p = first.page
    form = p.get_by_role("form", name="Open a game")
    form.get_by_label("casual", exact=True).check()
    form.get_by_label("no clock", exact=True).check()
    form.get_by_label("Fill empty seats with bots").check()
    form.get_by_label("Bot level").select_option("beginner")
    form.get_by_role("button", name="Open the game").click()
    seek_of(p, who).get_by_role("button", name="Start now with bots").click()
    expect(p).to_have_url(re.compile(r"/game/[\w-]+$"))
    game = p.url.rsplit("/", 1)[1]
    expect(p.get_by_text(f"Your turn, {who}")).to_be_visible(timeout=GAME)    # the bots before her have moved
    # her own browser lists the game once, though it knows it both by itself and through the account
    p.get_by_role("banner").get_by_role("link", name="Home").click()
    mine = p.get_by_role("region", name="My games").get_by_role("listitem")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("Your turn")

    # the new device: logged out, "My games" is empty; logged in, it holds the account's game
    device = people()
    q = device.page
    q.goto(device.base + "/")
    expect(q.get_by_role("region", name="My games")).to_contain_text("No games on this browser yet.")
    q.goto(device.base + "/login")
    q.get_by_label("Username").fill(who)
    q.get_by_label("Password").fill(PASSWORD)
    q.get_by_role("button", name="Log in").click()
    expect(q).to_have_url(re.compile(r"/lobby$"))
    q.get_by_role("banner").get_by_role("link", name="Home").click()
    games = q.get_by_role("region", name="My games")
    item = games.get_by_role("listitem")
    expect(item).to_have_count(1)
    expect(item).to_contain_text(who)
    expect(item.locator(".your-turn")).to_have_text("Your turn")
    expect(item.get_by_role("button", name=re.compile("Forget"))).to_have_count(0)   # it comes back with the account
    shot(q, "home-account")
    if AXE.exists():
        assert axe_serious(q) == []
    assert q.evaluate("() => localStorage.getItem('torres.games')") in (None, "{}")   # no seat token on this device
    item.get_by_role("link", name="Open").click()
    expect(q).to_have_url(re.compile(rf"/game/{game}$"))
    expect(q.get_by_text(f"Your turn, {who}")).to_be_visible()                 # her seat, by the account's cookie
    lit = re.compile(r"place your knight here|found a castle here|put the king here|add a knight here|move here|build a block here")
    expect(q.get_by_role("button", name=lit).first).to_be_visible()
    for person in (first, device):
        assert not person.errors, person.errors
        assert not person.dialogs, person.dialogs


def test_the_new_pages_in_german_show_no_english(browser: Any, live_server: str) -> None:
    from test_german import english_fragments, english_on
    context = browser.new_context(viewport=DESKTOP, locale="de-DE")
    p = context.new_page()
    try:
        p.goto(live_server + "/signup")
        pieces = english_fragments(p)
        seen: dict[str, list[str]] = {}
        expect(p.get_by_role("heading", level=1)).to_have_text("Registrieren")
        seen["Registrieren"] = english_on(p, pieces)
        who = name("fritz")
        p.get_by_label("Benutzername").fill(who)
        p.get_by_label("Passwort").fill(PASSWORD)
        p.get_by_role("button", name="Konto anlegen").click()
        expect(p).to_have_url(re.compile(r"/lobby$"))
        p.get_by_label("gewertet", exact=True).check()
        p.get_by_label("Fernpartie").check()
        p.get_by_role("button", name="Partie eröffnen").click()
        expect(p.get_by_role("region", name="Offene Partien")).to_contain_text("3 Tage pro Zug")
        seen["Lobby"] = english_on(p, pieces)
        for path, heading in ((f"/players/{who}", who), ("/leaderboard", "Bestenliste"), ("/account", f"Konto: {who}"),
                              ("/login", "Anmelden")):
            p.goto(live_server + path)
            expect(p.get_by_role("heading", level=1)).to_contain_text(heading)
            seen[path] = english_on(p, pieces)
        assert {k: v for k, v in seen.items() if v} == {}
    finally:
        context.close()


def test_the_lobby_keeps_a_seeks_buttons_while_others_come_online(people: Any) -> None:
    """A lobby message that changes who is online, or brings another open game, leaves the open games already
    listed as they are: a button under the pointer or holding the keyboard's focus is not replaced (a click on "Start
    now with bots" was lost that way when other players came and went)."""
    first = people()
    who = name("hana")
    first.sign_up(who)
    p = first.page
    open_seek(p, rated=False)
    cancel = seek_of(p, who).get_by_role("button", name="Cancel")
    expect(cancel).to_be_visible()
    cancel.focus()
    button = cancel.element_handle()
    other = people()
    newcomer = name("ivo")
    other.sign_up(newcomer)
    expect(p.get_by_role("region", name=re.compile(r"^Online"))).to_contain_text(newcomer)
    assert button.evaluate("el => el.isConnected && document.activeElement === el")
    open_seek(other.page, rated=False)       # a second open game joins the list above or below Hana's
    expect(seek_of(p, newcomer)).to_be_visible()
    assert button.evaluate("el => el.isConnected && document.activeElement === el"), \
        "another seek's arrival replaced the buttons of the seeks already listed"
    cancel.click()
    expect(seek_of(p, who)).to_have_count(0)
    assert not first.errors, first.errors


def test_a_page_still_loading_does_not_cover_the_page_the_person_went_on_to(people: Any) -> None:
    """The lobby waits for the server's settings before it draws itself. A person who goes Home meanwhile stays Home
    when that answer comes: the late lobby draws into a box that has left the page (on a busy server it once covered
    the home page, and "My games" was nowhere)."""
    person = people()
    person.sign_up(name("jana"))
    p = person.page
    p.get_by_role("banner").get_by_role("link", name="Rules").click()
    expect(p.get_by_role("heading", level=1).first).to_be_visible()
    held: list[Any] = []
    p.route("**/api/meta", lambda route: held.append(route))         # answered when the test says so
    p.get_by_role("banner").get_by_role("link", name="Lobby").click()
    expect(p.get_by_text("Loading")).to_be_visible()
    p.get_by_role("banner").get_by_role("link", name="Home").click()
    expect(p).to_have_url(re.compile(r"/$"))
    for _ in range(1200):                                            # the lobby's question, then the home page's
        if len(held) == 2:
            break
        p.wait_for_timeout(50)
    assert len(held) == 2, held
    lobby_meta, home_meta = held
    home_meta.continue_()
    expect(p.get_by_role("region", name="My games")).to_be_visible()
    with p.expect_request("**/api/lobby"):                           # the lobby has drawn itself by then
        lobby_meta.continue_()
    expect(p.get_by_role("region", name="My games")).to_be_visible()
    expect(p.get_by_role("heading", name="Lobby", level=1)).to_have_count(0)
    assert not person.errors, person.errors


def test_the_board_keeps_its_squares_while_the_other_player_leaves(people: Any) -> None:
    """A summary that changes only who is online draws the same board again, so it leaves the board as it is: the
    square under the pointer is not replaced (a click pressed on a square and released on its replacement is lost;
    the summary asked for after every move redrew the board unchanged, and a move in a clocked game was lost so).
    The buttons under the board and beside it stay too, and the one holding the keyboard's focus keeps it."""
    ann, bob = people(), people()
    a, b = name("ann"), name("bob")
    ann.sign_up(a)
    bob.sign_up(b)
    open_seek(ann.page, rated=False)
    seek_of(bob.page, a).get_by_role("button", name=f"Join {a}'s game").click()
    for person in (ann, bob):
        expect(person.page).to_have_url(re.compile(r"/game/[\w-]+$"))
    lit = re.compile(r"place your knight here|found a castle here|put the king here")
    for _ in range(600):                     # whoever plays first sees lit squares
        if ann.page.get_by_role("button", name=lit).count() or bob.page.get_by_role("button", name=lit).count():
            break
        ann.page.wait_for_timeout(100)
    actor, other, actor_name, other_name = (ann, bob, a, b) if ann.page.get_by_role("button", name=lit).count() \
        else (bob, ann, b, a)
    p = actor.page
    expect(p.get_by_role("listitem").filter(has_text=other_name).filter(has_text="offline")).to_have_count(0)
    square = p.get_by_role("button", name=lit).first
    held = square.element_handle()
    hint, send = p.get_by_role("button", name="Hint"), p.get_by_role("button", name="Send")
    held_hint, held_send = hint.element_handle(), send.element_handle()
    p.get_by_role("combobox", name=re.compile("type an action")).fill("c5")
    send.focus()
    other.close()
    expect(p.get_by_role("listitem").filter(has_text=other_name).filter(has_text="offline")).to_be_visible()
    assert held.evaluate("el => el.isConnected"), "the summary's redraw replaced the board's squares"
    assert held_hint.evaluate("el => el.isConnected"), "the redraw replaced the buttons under the board"
    assert held_send.evaluate("el => el.isConnected && document.activeElement === el"), \
        "the redraw replaced the notation's button beside the board, or took its focus"
    expect(p.get_by_role("combobox", name=re.compile("type an action"))).to_have_value("c5")
    p.get_by_role("combobox", name=re.compile("type an action")).fill("")
    shot(p, "game-other-left")
    square.click()
    log = p.get_by_role("region", name="Game log")
    expect(log.get_by_role("listitem").filter(has_text=actor_name)).not_to_have_count(0)
    assert not actor.errors, actor.errors
