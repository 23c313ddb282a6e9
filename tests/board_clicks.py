"""Clicking a square of the board from whichever side of the 3D view shows it.

In the 3D view a taller square in front of another can cover its middle, where a click lands; a quarter turn of the
view brings it out. Whether a square is covered is asked of the page (what is drawn at the square's middle), not
read from a click that times out: a short click timeout on a machine busy with other work fails a square nothing
covers, and then a whole test (a test must not depend on an idle machine).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: True when a click at the middle of the element's box reaches the element (or something inside it).
_REACHES_ITS_MIDDLE = """(el) => {
  const box = el.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return !!hit && (hit === el || el.contains(hit));
}"""


def click_from_any_side(square: Callable[[], Any], rotate: Callable[[], None], name: str) -> None:
    """Click the square ``square()`` finds (a locator, found again after each turn of the view), turning the view
    with ``rotate()`` while something else covers it, at most three times."""
    for _ in range(4):
        target = square()
        target.scroll_into_view_if_needed()
        if target.evaluate(_REACHES_ITS_MIDDLE):
            target.click()
            return
        rotate()
    raise AssertionError(f"{name} is covered from every side of the 3D view")
