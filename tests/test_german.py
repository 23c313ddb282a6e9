"""The German pages are German (issue #32): every page walked in German — home, the new-game form, a game in progress
with its hint, chosen card, square chooser, keep choice and hand-over dialog, the rules, the tutorial, a replay —
shows none of the English strings of the page's own table (js/i18n.js: the interface, the cards, the master cards),
neither as text nor as an accessible name, title or placeholder. Notation (in <code>) and proper names are not
English. The German address is "Sie" throughout, as in the rules, on the cards and in the tutorial.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from test_accessibility import (ARTIFACTS, Player, hand_over_if_asked, lift_square, new_game, play_setup,
                                record_file, route_exists)

#: English strings that are German (or names) as well: what they mean is the same in both tables.
SAME_IN_BOTH = {"Start", "Torres", "Rio Grande", "Ravensburger", "IDW", "yucata.de", "Bot", "Name", "Phase", "online",
                "offline", "normal", "Pause", "Diagonal", "AP", "Link",
                "fast"}   # German "almost" (the rules: "wenn der Stapel fast leer ist")

#: What a German page shows: its text (no <code>: notation), and the names, titles and placeholders of its elements.
SHOWN = """() => {
  const out = [document.title];
  const skip = (el) => !el || el.closest('code, pre, kbd, samp, script, style, noscript, [hidden]')
    || (el.checkVisibility && !el.checkVisibility() && !el.closest('select'));
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.textContent.trim() && !skip(n.parentElement)) out.push(n.textContent.replace(/\\u00ad/g, ''));
  }
  for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt], [aria-description]')) {
    if (skip(el)) continue;
    for (const a of ['aria-label', 'title', 'placeholder', 'alt', 'aria-description']) {
      if (el.getAttribute(a)) out.push(el.getAttribute(a));
    }
  }
  return out;
}"""

#: The English and German tables, from the page's own module.
TABLES = """async () => {
  const m = await import('/static/js/i18n.js');
  const flat = (lang) => {
    const s = m.strings(lang);
    for (const [card, [name, text]] of Object.entries(m.CARDS[lang])) {
      s['card.' + card] = name;
      s['card_text.' + card] = text;
    }
    m.MASTERS[lang].forEach(([name, text], i) => { s['master.' + i] = name; s['master_text.' + i] = text; });
    return s;
  };
  return [flat('en'), flat('de')];
}"""




def english_fragments(page: Any) -> dict[str, str]:
    """Each piece of English text (between placeholders) of a string that differs from its German: piece -> key."""
    en, de = page.evaluate(TABLES)
    pieces: dict[str, str] = {}
    for key, value in en.items():
        values = value if isinstance(value, list) else [value]
        german = de.get(key)
        germans = german if isinstance(german, list) else [german]
        for i, v in enumerate(values):
            if not isinstance(v, str) or (i < len(germans) and germans[i] == v):
                continue
            for piece in re.split(r"\{\w+\}", v):
                piece = piece.strip(" .,:;·—–-()+×/…?!\"'")
                if len(re.findall(r"[A-Za-z]", piece)) >= 2 and piece not in SAME_IN_BOTH:
                    pieces.setdefault(piece, key)
    return pieces


def english_on(page: Any, pieces: dict[str, str]) -> list[str]:
    text = "\n".join(page.evaluate(SHOWN))
    found = []
    for piece, key in pieces.items():
        if re.search(r"(?<![\w])" + re.escape(piece) + r"(?![\w])", text):
            found.append(f"{piece!r} ({key})")
    return found


def test_every_page_in_german_shows_no_english(browser: Any, live_server: str, tmp_path: Path) -> None:
    player = Player(browser, "de")
    p = player.page
    p.goto(live_server + "/")
    pieces = english_fragments(p)
    assert len(pieces) > 200 and "Your turn" in pieces and "Climb" in pieces
    # the check sees English where there is English
    p.get_by_role("button", name="EN", exact=True).click()
    expect(p.get_by_role("heading", name="New game")).to_be_visible()
    assert len(english_on(p, pieces)) > 20
    p.get_by_role("button", name="DE", exact=True).click()
    expect(p.get_by_role("button", name="DE", exact=True)).to_have_attribute("aria-pressed", "true")
    seen: dict[str, list[str]] = {}

    def check(name: str) -> None:
        p.wait_for_timeout(150)
        seen[name] = english_on(p, pieces)

    # home and the new-game form with every kind of seat row
    expect(p.get_by_role("heading", name="Neues Spiel")).to_be_visible()
    check("Startseite")
    p.get_by_label("Spieler", exact=True).select_option("4")
    p.get_by_label("Platz 2: Mensch oder Bot").select_option("human")
    p.get_by_label(re.compile("Am selben Bildschirm")).check()
    check("Formular mit vier Plätzen")

    # a game against a bot: setup, a turn, the hint, the keep choice
    new_game(player, live_server, [("human", "", ""), ("bot", "beginner", "")])
    expect(player.status()).to_contain_text("Setzen Sie Ihren ersten Ritter")
    expect(p.get_by_role("region", name="Ihre Karten")).to_be_visible()
    check("Partie: Aufbau")
    play_setup(player)
    check("Partie: ein Zug")
    p.get_by_role("button", name=re.compile("Tipp$")).click()
    expect(p.get_by_role("region", name="Tipp")).to_contain_text("in Notation:")
    check("Partie: Tipp")
    if any(a.startswith("stack ") for a in player.legal()):
        player.type_action(next(a for a in player.legal() if a.startswith("stack ")))
    p.get_by_role("button", name="Karte kaufen (1 AP)").click()
    keep = p.get_by_role("region", name=re.compile("Sie haben diese Karten gezogen"))
    expect(keep).to_be_visible()
    check("Partie: Karte behalten")
    ARTIFACTS.mkdir(exist_ok=True)
    p.screenshot(path=str(ARTIFACTS / "german-keep.png"))
    keep.get_by_role("button", name=re.compile("behalten$")).click()
    expect(p.get_by_role("region", name="Spielverlauf")).to_contain_text("Spieler 1 behält")

    # the master version (every card in hand): a chosen card, the square chooser
    master = Player(browser, "de")
    new_game(master, live_server, [("human", "", ""), ("bot", "beginner", "")], master=True)
    expect(master.status()).to_contain_text("Gründen Sie eine Startburg")
    play_setup(master)
    square, options, cell = lift_square(master)
    expect(master.status()).to_contain_text("Unterbauen:")
    seen["Meister-Version: gewählte Karte"] = english_on(master.page, pieces)
    cell.focus()
    master.page.keyboard.press("Enter")
    expect(master.page.get_by_role("dialog", name=re.compile(f"Feld {square}"))).to_be_visible()
    seen["Meister-Version: Auswahl auf einem Feld"] = english_on(master.page, pieces)

    # hot-seat: the hand-over dialog
    hot = Player(browser, "de")
    new_game(hot, live_server, [("human", "", ""), ("human", "", "")], hotseat=True)
    hot.type_action(hot.legal()[0])
    expect(hot.page.get_by_role("dialog", name="Weitergeben an Spieler 2")).to_be_visible()
    seen["Übergabe am selben Bildschirm"] = english_on(hot.page, pieces)
    hand_over_if_asked(hot)

    # the rules, the replay upload and a replay (a scoring, the end with the ranking)
    p.goto(live_server + "/rules")
    expect(p.get_by_role("heading", level=1)).to_be_visible()
    check("Regeln")
    if route_exists(live_server, "/tutorial"):                   # the tutorial, where it is there: its list, a lesson
        p.goto(live_server + "/tutorial")
        p.wait_for_load_state("networkidle")
        check("Einführung")
        p.goto(live_server + "/tutorial/move")
        expect(p.get_by_role("heading", level=1)).to_be_visible()
        check("Einführung: eine Lektion")
    p.goto(live_server + "/replay")
    p.get_by_label("Datei mit der Spielaufzeichnung (JSON)").set_input_files(str(record_file(tmp_path)))
    check("Aufzeichnung hochladen")
    p.get_by_role("button", name="Ansehen", exact=True).click()
    expect(p.get_by_role("slider")).to_be_visible()
    p.get_by_role("button", name="Wertung 1").click()
    check("Wiederholung: Wertung")
    p.get_by_role("button", name="Ende").click()
    check("Wiederholung: Ende")

    assert not player.errors and not master.errors and not hot.errors, player.errors + master.errors + hot.errors
    assert {k: v for k, v in seen.items() if v} == {}, seen
