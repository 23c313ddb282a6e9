"""Browser play, measured: `torres serve` start → first page ready, the page's weight, the action round trip
(a click on one player's page → the other player's page showing the new version), median and p99 over a whole
two-player game played by clicking in two browser contexts (Debian's chromium, headless), and the first render of
a game page in each board view (3D and flat): from the moment the page's websocket delivers the welcome (the view)
to the board in the DOM, and to the first frame drawn after it — for a game at its start and for the finished game
(every tower built), the median of `--loads` fresh page loads each.

    .venv/bin/python bench/browser.py [--seed 1] [--loads 5] [--view iso|flat]

A benchmark, not a test: it prints numbers and asserts nothing about time. Both pages stamp their own events with
`performance.timeOrigin + performance.now()` (one machine, one clock): the sending page when its websocket sends
an action, the other page when its `data-version` changes (the board has been redrawn by then).
"""

from __future__ import annotations

import argparse
import gzip
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from conftest import ServerProcess  # noqa: E402
from test_browser import ARGS, CHROMIUM, Page, create_game, step  # noqa: E402

STAMPS = """
window.__sent = {}; window.__shown = {};
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  try { const m = JSON.parse(data); if (m.type === "act") window.__sent[m.version] = performance.timeOrigin + performance.now(); } catch (e) {}
  return send.call(this, data);
};
new MutationObserver(() => {
  const g = document.querySelector("#game-page");
  if (g && g.dataset.version) window.__shown[g.dataset.version] ??= performance.timeOrigin + performance.now();
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-version"], childList: true });
"""


# Stamps on a game page: the welcome's arrival (a listener registered before the page's own), the board in the DOM,
# and the next frame after it (two animation frames: the first runs before that frame is painted).
RENDER_STAMPS = """
window.__render = {};
const NativeSocket = window.WebSocket;
window.WebSocket = class extends NativeSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (ev) => {
      if (window.__render.welcome === undefined && String(ev.data).includes('"type":"welcome"')) {
        window.__render.welcome = performance.now();
      }
    });
  }
};
new MutationObserver(() => {
  const r = window.__render;
  if (r.welcome === undefined || r.dom !== undefined || !document.querySelector("#board svg")) return;
  r.dom = performance.now();
  requestAnimationFrame(() => requestAnimationFrame(() => { r.frame = performance.now(); }));
}).observe(document, { subtree: true, childList: true });
"""


def first_render(browser: Any, url: str, view: str, loads: int) -> tuple[float, float]:
    """Median ms from the welcome to the board in the DOM, and to the first frame after it, over `loads` fresh
    pages (a new browser context each: nothing cached in memory) with the board view `view` chosen beforehand."""
    dom: list[float] = []
    frame: list[float] = []
    for _ in range(loads):
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        context.add_init_script(RENDER_STAMPS + f"localStorage.setItem('torres.boardView', JSON.stringify('{view}'));")
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("() => window.__render && window.__render.frame !== undefined", timeout=20000)
        r = page.evaluate("window.__render")
        dom.append(r["dom"] - r["welcome"])
        frame.append(r["frame"] - r["welcome"])
        context.close()
    return statistics.median(dom), statistics.median(frame)


def page_weight() -> tuple[int, int]:
    files = [f for f in (ROOT / "torres" / "web" / "static").rglob("*") if f.suffix in (".js", ".css")]
    raw = sum(f.stat().st_size for f in files)
    packed = sum(len(gzip.compress(f.read_bytes())) for f in files)
    return raw, packed


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--loads", type=int, default=5, help="page loads per first-render figure (default 5)")
    parser.add_argument("--view", choices=("iso", "flat"), default="iso", help="the board view of the game played")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    raw, packed = page_weight()
    print(f"page weight: JS + CSS {raw:,} bytes ({packed:,} gzipped; the budget is 200,000 bytes uncompressed)")
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        server = ServerProcess(Path(tmp) / "games.db")
        started = time.perf_counter()
        server.start()
        ann = Page(browser)
        ann.page.goto(server.url + "/")
        ann.page.wait_for_selector("#create-game")
        print(f"torres serve → first page ready: {time.perf_counter() - started:.2f} s")
        view_pref = f"localStorage.setItem('torres.boardView', JSON.stringify('{args.view}'));"
        ann.context.add_init_script(STAMPS + view_pref)
        create_game(ann, server.url, [("human", "", "Ann"), ("human", "", "Bob")])
        invite = ann.page.locator("[data-testid='copy-invite-1-url']").input_value()
        bob = Page(browser)
        bob.context.add_init_script(STAMPS + view_pref)
        bob.page.goto(invite)
        bob.wait_ready()
        ann.page.reload()
        ann.wait_ready()
        game_url = ann.page.url
        renders = {("start", view): first_render(browser, game_url, view, args.loads) for view in ("iso", "flat")}
        rng = random.Random(args.seed)
        counters = {id(ann): {"moved": 0, "built": 0}, id(bob): {"moved": 0, "built": 0}}
        trips: list[float] = []
        while ann.attr("stage") != "over":
            actor = ann if ann.attr("my-turn") == "1" else bob if bob.attr("my-turn") == "1" else None
            if actor is None:
                ann.page.wait_for_timeout(20)
                continue
            other = bob if actor is ann else ann
            if actor.page.locator("#dialog").count():
                actor.page.click("#dialog-close")
                continue
            version = actor.version
            if not step(actor, counters[id(actor)], rng):
                continue
            other.wait_version_above(version)
            actor.wait_version_above(version)
            sent = actor.page.evaluate(f"window.__sent[{version}]")
            shown = other.page.evaluate(f"window.__shown['{version + 1}']")
            if sent and shown:
                trips.append(shown - sent)
        for view in ("iso", "flat"):
            renders[("end", view)] = first_render(browser, game_url, view, args.loads)
        browser.close()
        server.stop()
    for (when, view), (dom, frame) in renders.items():
        print(f"first render, {'3D' if view == 'iso' else 'flat'} board, game at its {when}: board in the DOM "
              f"{dom:.1f} ms, first frame {frame:.1f} ms after the view arrived (median of {args.loads})")
    board = "3D" if args.view == "iso" else "flat"
    print(f"action round trip (click → the other page redrawn, {board} board), {len(trips)} actions: "
          f"median {statistics.median(trips):.1f} ms, p99 {percentile(trips, 0.99):.1f} ms, "
          f"max {max(trips):.1f} ms")


if __name__ == "__main__":
    main()
