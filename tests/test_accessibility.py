"""Knowing what to do, and every control outside the board within reach (issue #32), in Debian's chromium.

- axe-core (tests/axe: `npm ci --prefix tests/axe`, which scripts/test runs) finds no serious or critical violation
  on the home page, the new-game form, a game in progress (with the hint, the keep choice and a dialog open), the
  rules, the tutorial, a replay, and the pages of issue #33 (log in, sign up, lobby, account, profile, leaderboard);
- the instruction line says in words what can be done now; the hint and the keep choice speak words, not notation;
- dialogs are named and modal, take the focus, keep Tab inside and give the focus back; the square chooser too;
- every select and input has a label, the hand is a named region;
- hot-seat: at the hand-over the previous seat's own keeps leave the DOM.

The tests find things as a person does: by visible text, role and label (the game is driven by clicking buttons and
by typing notation into the labelled notation box; which actions are legal is read from the page's websocket frames).
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Any, Callable

import pytest

from playwright.sync_api import expect

CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists() and not os.environ.get("CI"):  # pragma: no cover
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
DESKTOP = {"width": 1366, "height": 768}
NOTATION_EN = "type an action, e.g. c5-c6"
NOTATION_DE = "Aktion eintippen, z. B. c5-c6"
expect.set_options(timeout=15000)   # the machine is shared: a bot's turn or a redraw may take a few seconds




class Player:
    """A browser page that records the views the server sent it (to know which actions are legal) and acts through
    the page's own controls: buttons by their names, everything else typed into the notation box."""

    def __init__(self, browser: Any, lang: str = "en") -> None:
        self.context = browser.new_context(viewport=DESKTOP, locale="de-DE" if lang == "de" else "en-US")
        self.page = self.context.new_page()
        self.page.set_default_timeout(10000)
        self.lang = lang
        self.views: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: Any) -> None:
        msg = json.loads(payload)
        if msg.get("view") is not None:
            self.views.append(msg["view"])

    @property
    def view(self) -> dict[str, Any]:
        return self.views[-1]

    def status(self) -> Any:
        """The instruction line (a status region that always says what to do now)."""
        return self.page.get_by_role("status").filter(has_not_text=re.compile("^$")).last

    def wait_my_turn(self, seat: int | None = None, timeout: float = 20000) -> None:
        self.page.wait_for_function(
            "() => { const g = document.getElementById('game-page'); return g && g.dataset.myTurn === '1'; }",
            timeout=timeout)
        if seat is not None:
            assert self.view["current"] == seat

    def type_action(self, action: str) -> None:
        """Type notation into the labelled box, as someone who knows it would."""
        before = len(self.views)
        box = self.page.get_by_label(NOTATION_DE if self.lang == "de" else NOTATION_EN)
        box.fill(action)
        box.press("Enter")
        self.wait_views_above(before, f"{action!r} got no answer")

    def wait_views_above(self, count: int, why: str = "no new view") -> None:
        for _ in range(150):
            if len(self.views) > count:
                return
            self.page.wait_for_timeout(100)
        raise AssertionError(why)

    def legal(self) -> list[str]:
        return [a["action"] for a in self.view["legal"]]


def new_game(player: Player, base: str, seats: list[tuple[str, str, str]], hotseat: bool = False,
             master: bool = False, edition: str | None = None) -> str:
    """Fill in the new-game form by its labels; seats as (kind, level, name)."""
    p = player.page
    de = player.lang == "de"
    p.goto(base + "/")
    p.get_by_label("Spieler" if de else "Players", exact=True).select_option(str(len(seats)))
    p.get_by_label("Tempo der Bots" if de else "Bot speed", exact=True).select_option("instant")
    if edition:
        p.get_by_label("Ausgabe" if de else "Edition", exact=True).select_option(edition)
    for s, (kind, level, name) in enumerate(seats):
        seat = f"Platz {s + 1}" if de else f"Seat {s + 1}"
        p.get_by_label(f"{seat}: {'Mensch oder Bot' if de else 'human or bot'}").select_option(kind)
        if kind == "bot":
            p.get_by_label(f"{seat}: {'Stärke des Bots' if de else 'bot level'}").select_option(level)
        p.get_by_label(f"{seat}: Name").fill(name)
    if hotseat:
        p.get_by_label(re.compile("Am selben Bildschirm" if de else "Hot-seat")).check()
    if master:
        p.get_by_label("Meister-Version" if de else "Master version", exact=True).check()
    p.get_by_role("button", name="Spiel beginnen" if de else "Start the game").click()
    p.wait_for_url(re.compile(r".*/game/[\w-]+$"))
    expect(p.get_by_role("heading", level=1)).to_have_text(re.compile("Partie|Game"))
    return p.url.rsplit("/", 1)[1]


def hand_over_if_asked(player: Player) -> bool:
    """Hot-seat: press the hand-over dialog's button from the keyboard (it has the focus)."""
    dialog = player.page.get_by_role("dialog")
    if not dialog.count():
        return False
    expect(dialog.get_by_role("button")).to_be_focused()
    player.page.keyboard.press("Enter")
    expect(dialog).to_have_count(0)
    return True


def play_setup(player: Player, hotseat: bool = False) -> None:
    """Place knights and the king (typed) until this page's seat has a turn of its own."""
    for _ in range(12):
        if hotseat:
            hand_over_if_asked(player)
        player.wait_my_turn()
        if player.view["stage"] == "turn":
            return
        player.type_action(player.legal()[0])
    raise AssertionError("the setup did not end")


def lift_square(player: Player) -> tuple[str, list[str], Any]:
    """Master version, this page's turn: a knight steps off its starting castle onto the ground, then Lift (chosen from
    the hand) lights its square with two choices: the block from this turn's stack or from another stack. Returns
    the square, the two actions and the square's control on the board."""
    p = player.page

    def lift_squares() -> dict[str, list[str]]:
        by_square: dict[str, list[str]] = {}
        for a in player.view["legal"]:
            if a["card"] == "lift":
                by_square.setdefault(a["action"].split()[2], []).append(a["action"])
        return {sq: acts for sq, acts in by_square.items() if len(acts) > 1}

    if any(a.startswith("stack ") for a in player.legal()):
        player.type_action(next(a for a in player.legal() if a.startswith("stack ")))
    for _ in range(4):
        if lift_squares():
            break
        heights = player.view["heights"]
        ground = [a["action"] for a in player.view["legal"] if a["kind"] == "move"
                  and heights[(int(a["to"][1]) - 1) * 8 + "abcdefgh".index(a["to"][0])] == 0]
        player.type_action(ground[0])
    square, options = next(iter(lift_squares().items()))
    hand = p.get_by_role("region", name="Ihre Karten" if player.lang == "de" else "Your cards")
    hand.get_by_role("button", name=re.compile(r"^Unterbauen\b" if player.lang == "de" else r"^Lift\b")).click()
    return square, options, p.get_by_role("button", name=re.compile(rf"^{square}, "))


def axe_serious(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now (WCAG 2.x A/AA and best practice)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, { resultTypes: ['violations'] })")
    return [f"{v['impact']} {v['id']}: {[n['target'] for n in v['nodes']][:4]} {v['nodes'][0]['failureSummary'][:200]}"
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


def needs_axe() -> None:
    if not AXE.exists():
        if os.environ.get("CI"):
            pytest.fail("axe-core is missing: scripts/test runs `npm ci --prefix tests/axe`")
        pytest.skip("axe-core is not installed: npm ci --prefix tests/axe")


def record_file(tmp_path: Path, seed: int = 11) -> Path:
    """A finished game's record (random legal actions), to upload on the replay page."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from playouts import choose
    from torres import GameState, Rules
    from torres.records import dump_record, record_of
    rng = random.Random(seed)
    game = GameState(2, seed, Rules.for_edition("riogrande"))
    while not game.is_over():
        game.push(choose(game, rng))
    path = tmp_path / "game.json"
    path.write_text(dump_record(record_of(game, {"names": ["Ann", "Bob"]})))
    return path


def route_exists(base: str, path: str) -> bool:
    import urllib.request
    try:
        with urllib.request.urlopen(base + path) as res:
            return res.status == 200
    except Exception:
        return False


# ----------------------------------------------------------------------------------------------------------------


def test_axe_finds_nothing_serious_on_any_page(browser: Any, live_server: str, tmp_path: Path) -> None:
    needs_axe()
    player = Player(browser)
    p = player.page
    found: dict[str, list[str]] = {}

    def check(name: str, ready: Callable[[], None]) -> None:
        ready()
        found[name] = axe_serious(p)

    p.goto(live_server + "/")
    check("home", lambda: expect(p.get_by_role("button", name="Start the game")).to_be_visible())
    # the new-game form with every kind of seat row
    p.get_by_label("Players", exact=True).select_option("4")
    p.get_by_label("Seat 2: human or bot").select_option("human")
    p.get_by_label(re.compile("Hot-seat")).check()
    check("new-game form", lambda: expect(p.get_by_label("Seat 4: bot level")).to_be_visible())

    # a game in progress: after the setup, with the hint shown, then with the keep choice open (own decks)
    new_game(player, live_server, [("human", "", "Ann"), ("bot", "beginner", "Bob")])
    check("game: setup", lambda: expect(player.status()).to_contain_text("Place your first knight"))
    play_setup(player)
    p.get_by_role("button", name=re.compile("^. Hint$")).click()
    check("game: turn with a hint",
          lambda: expect(p.get_by_role("region", name="Hint")).to_contain_text(re.compile(r"[a-h][1-8]")))
    if "stack" in " ".join(player.legal()):
        player.type_action(next(a for a in player.legal() if a.startswith("stack ")))
    p.get_by_role("button", name="Buy a card (1 AP)").click()
    check("game: keep choice", lambda: expect(p.get_by_role("region", name=re.compile("You drew"))).to_be_visible())
    p.get_by_role("button", name=re.compile("^Keep ")).click()
    p.get_by_role("button", name="End turn").click()
    player.wait_my_turn()
    check("game: next turn",
          lambda: expect(player.status()).to_contain_text(re.compile("action points left|Take a stack")))

    # the rules; the tutorial (if it is there); a replay
    p.goto(live_server + "/rules")
    check("rules", lambda: expect(p.get_by_role("heading", level=1)).to_be_visible())
    if route_exists(live_server, "/tutorial"):
        p.goto(live_server + "/tutorial")
        check("tutorial", lambda: p.wait_for_load_state("networkidle"))
    p.goto(live_server + "/replay")
    check("replay upload", lambda: expect(p.get_by_label("Game record file (JSON)")).to_be_visible())
    p.get_by_label("Game record file (JSON)").set_input_files(str(record_file(tmp_path)))
    p.get_by_role("button", name="Show replay").click()
    check("replay", lambda: expect(p.get_by_role("slider", name="Replay")).to_be_visible())
    p.get_by_role("button", name="Scoring 2").click()
    check("replay at a scoring",
          lambda: expect(p.get_by_role("button", name="Scoring 2")).to_have_attribute("aria-pressed", "true"))

    # the pages of accounts, the lobby and ratings (issue #33)
    if route_exists(live_server, "/lobby"):
        p.goto(live_server + "/login")
        check("log in", lambda: expect(p.get_by_role("button", name="Log in")).to_be_visible())
        p.goto(live_server + "/signup")
        check("sign up", lambda: expect(p.get_by_role("button", name="Create the account")).to_be_visible())
        username = f"axe_{random.randrange(16 ** 6):06x}"
        p.get_by_label("Username").fill(username)
        p.get_by_label("Password").fill("correct horse battery")
        p.get_by_role("button", name="Create the account").click()
        p.get_by_label("live", exact=True).check()
        p.get_by_label("Note (optional)").fill("a game for axe")
        p.get_by_role("button", name="Open the game").click()
        check("lobby", lambda: expect(p.get_by_role("region", name="Open games")).to_contain_text("a game for axe"))
        p.goto(live_server + "/account")
        check("account", lambda: expect(p.get_by_role("button", name="Change the password")).to_be_visible())
        p.goto(f"{live_server}/players/{username}")
        check("profile", lambda: expect(p.get_by_role("heading", level=1)).to_contain_text(username))
        p.goto(live_server + "/leaderboard")
        check("leaderboard", lambda: expect(p.get_by_role("heading", level=1)).to_have_text("Leaderboard"))

    # on a phone the header's links are behind its menu button
    p.set_viewport_size({"width": 390, "height": 844})
    p.get_by_role("button", name="Menu").click()
    check("the header's menu, open on a phone",
          lambda: expect(p.get_by_role("navigation", name="Main").get_by_role("link", name="Puzzles")).to_be_visible())

    assert not player.errors, player.errors
    assert {k: v for k, v in found.items() if v} == {}, json.dumps(found, indent=1)


def test_the_instruction_line_hint_and_keep_choice_speak_words(browser: Any, live_server: str) -> None:
    player = Player(browser)
    p = player.page
    new_game(player, live_server, [("human", "", "Ann"), ("bot", "beginner", "Bob")])
    status = player.status()
    expect(status).to_have_text("Place your first knight: choose a lit castle square on the board.")
    play_setup(player)
    text = status.inner_text()
    kinds = {a["kind"] for a in player.view["legal"]}
    if "stack" in kinds:
        assert text.startswith("Take a stack to build: "), text
        heights = sorted({int(a["action"].split()[1]) for a in player.view["legal"] if a["kind"] == "stack"})
        assert re.search(r"\d( or \d)? blocks", text) and all(str(n) in text for n in heights), text
        player.type_action(next(a for a in player.legal() if a.startswith("stack ")))
        expect(status).not_to_contain_text("Take a stack")
    ap = player.view["ap"]
    expect(status).to_contain_text("Click a knight to move it (1 AP); or ")
    expect(status).to_contain_text("buy a card (1 AP)")
    expect(status).to_contain_text(f"{ap} action points left")

    # the hint: words, the notation small beside them, the squares of the whole plan marked on the board
    p.get_by_role("button", name=re.compile("^. Hint$")).click()
    hint = p.get_by_role("region", name="Hint")
    expect(hint).to_contain_text("in notation:")
    words = hint.inner_text().split("in notation:")[0]
    assert "keep ?" not in words and not re.search(r"\b[a-h][1-8]-[a-h][1-8]\b", words), words
    assert re.search(r"(Move|Build|Add|Buy|Play|Take|Score|End)", words), words
    plan = p.evaluate("() => [...document.querySelectorAll('#hint-box code')].map(c => c.textContent)")
    squares = {sq for a in plan for sq in re.findall(r"\b[a-h][1-8]\b", a)}
    for sq in squares:
        expect(p.get_by_role("button", name=re.compile(rf"^{sq}, .*\bhint\b"))).to_have_count(1)

    # the keep choice: the kept card pressed, where each other card goes as labelled radio buttons, a summary in words
    p.get_by_role("button", name="Buy a card (1 AP)").click()
    expect(status).to_have_text("Choose which drawn card to keep, and where the others go in your deck.")
    keep = p.get_by_role("region", name=re.compile("You drew these cards"))
    drawn = player.view["drawn"]
    expect(keep.get_by_role("button", pressed=True)).to_have_count(1)
    groups = keep.get_by_role("group", name=re.compile("^Where .* goes$"))
    expect(groups).to_have_count(len(drawn) - 1)
    summary = keep.get_by_text(re.compile("^Your choice: keep "))
    expect(summary).to_be_visible()
    if len(drawn) > 1:
        groups.first.get_by_label("on top").check()
        expect(summary).to_contain_text("on top of your deck")
        expect(keep.get_by_role("group").first.get_by_label("on top")).to_be_focused()   # the redraw kept the focus
    button = keep.get_by_role("button", name=re.compile("^Keep "))
    card = button.inner_text().split()[1]
    button.click()
    expect(p.get_by_role("region", name="Game log")).to_contain_text(f"Ann kept {card}")
    assert not player.errors, player.errors


def test_dialogs_are_named_modal_take_the_focus_and_the_handover_removes_private_lines(browser: Any,
                                                                                      live_server: str) -> None:
    player = Player(browser)
    p = player.page
    new_game(player, live_server, [("human", "", "Ann"), ("human", "", "Bob")], hotseat=True)
    # the invite box, the selects and inputs are labelled; the hand is a named region
    expect(p.get_by_role("region", name="Your cards")).to_be_visible()
    expect(p.get_by_label("Bot speed")).to_have_count(0)      # no bots: no speed
    player.type_action(player.legal()[0])                      # Ann's first knight
    dialog = p.get_by_role("dialog", name="Pass to Bob")
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("aria-modal", "true")
    ready = dialog.get_by_role("button", name="Bob: click when ready")
    expect(ready).to_be_focused()
    for _ in range(3):                                          # Tab stays in the dialog
        p.keyboard.press("Tab")
        expect(ready).to_be_focused()
    p.keyboard.press("Shift+Tab")
    expect(ready).to_be_focused()
    assert p.evaluate("() => document.getElementById('side').inert"), "the page behind the dialog is not inert"
    if AXE.exists():
        assert axe_serious(p) == []
    expect(p.get_by_role("region", name="Your cards")).to_have_count(0)
    p.keyboard.press("Enter")
    expect(dialog).to_have_count(0)
    player.wait_my_turn(1)
    assert p.evaluate("() => document.activeElement !== document.body"
                      " && !document.getElementById('overlay-root').contains(document.activeElement)")
    expect(player.status()).to_contain_text("Place your first knight")

    # play on until Ann has kept a card and ended her turn: at the hand-over her card leaves the DOM
    play_setup(player, hotseat=True)
    ann = player.view["current"]
    name = ["Ann", "Bob"][ann]
    other = ["Ann", "Bob"][1 - ann]
    if any(a.startswith("stack ") for a in player.legal()):
        player.type_action(next(a for a in player.legal() if a.startswith("stack ")))
    p.get_by_role("button", name="Buy a card (1 AP)").click()
    keep = p.get_by_role("button", name=re.compile("^Keep "))
    card = keep.inner_text().split()[1]
    keep.click()
    expect(p.get_by_role("region", name="Game log")).to_contain_text(f"{name} kept {card}")
    p.get_by_role("button", name="End turn").click()
    expect(p.get_by_role("dialog", name=f"Pass to {other}")).to_be_visible()
    html = p.content()
    assert f"kept {card}" not in html and not re.search(r"keep [a-z]+ (top|bottom):", html), \
        "a private line is still in the DOM"
    expect(p.get_by_role("region", name="Game log")).to_contain_text(f"{name} kept a card")
    hand_over_if_asked(player)
    player.wait_my_turn(1 - ann)
    assert f"kept {card}" not in p.content()
    assert not player.errors, player.errors


def test_the_square_chooser_is_a_named_dialog_that_takes_and_returns_the_focus(browser: Any, live_server: str) -> None:
    """Master version (every card in hand): Lift on a knight offers the block from this turn's stack or another one."""
    player = Player(browser)
    p = player.page
    new_game(player, live_server, [("human", "", "Ann"), ("bot", "beginner", "Bob")], master=True)
    play_setup(player)
    square, options, cell = lift_square(player)
    cell.focus()
    p.keyboard.press("Enter")
    chooser = p.get_by_role("dialog", name=re.compile(rf"Square {square}"))
    expect(chooser).to_be_visible()
    expect(chooser).to_have_attribute("aria-modal", "true")
    first = chooser.get_by_role("button").first
    expect(first).to_be_focused()
    expect(first).to_have_accessible_name(re.compile("^Take the block from "))   # words; the notation is for the eye
    if AXE.exists():
        assert axe_serious(p) == []
    ARTIFACTS.mkdir(exist_ok=True)
    p.screenshot(path=str(ARTIFACTS / "a11y-chooser.png"))
    for _ in range(len(options) + 1):
        p.keyboard.press("Tab")
    expect(first).to_be_focused()                                                  # Tab goes round inside
    p.keyboard.press("Escape")
    expect(chooser).to_have_count(0)
    expect(cell).to_be_focused()
    p.keyboard.press("Enter")
    expect(chooser).to_be_visible()
    before = len(player.views)
    chosen = chooser.get_by_role("button").first.get_attribute("data-action")
    p.keyboard.press("Enter")
    expect(chooser).to_have_count(0)
    player.wait_views_above(before)
    assert chosen in options and player.view["history"][-1] == chosen
    assert not player.errors, player.errors
