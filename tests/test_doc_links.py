"""Every relative link in the project's Markdown leads somewhere: the file exists and, where the link names a heading
(``#anchor``), that heading exists in it. The strength pages alone hold a few hundred links into one another's
sections, and a heading reworded for a new finding silently breaks every link that led to it."""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "bench").glob("*.md")])

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
# [text](target) or [text](target "title"); an image's ![alt](src) is a link too
LINK = re.compile(r"\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^()\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
INLINE_CODE = re.compile(r"`[^`]*`")


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The page's lines outside fenced code blocks, where a bracket or a hash is code, not Markdown, each with its
    line number."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its visible text lower-cased, punctuation dropped, spaces made hyphens.

    >>> slug("The master's look-ahead: 8 candidates (`known_limit`)")
    'the-masters-look-ahead-8-candidates-known_limit'
    >>> slug("[A link](x.md) in **bold**")
    'a-link-in-bold'
    """
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"<[^>]+>", "", text)
    kept = []
    for ch in text.lower():
        category = unicodedata.category(ch)
        if ch in " -_" or category[0] in "LN" or category == "Mn":
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, a repeated one numbered as GitHub numbers it (-1, -2, ...)."""
    seen: dict[str, int] = {}
    found = set()
    for _, line in prose_lines(page.read_text(encoding="utf-8")):
        heading = HEADING.match(line)
        if not heading:
            continue
        base = slug(heading.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def relative_links(page: Path) -> list[tuple[int, str]]:
    """The page's links to other files or headings of the project, each with the line it starts on (a link's text
    may run on to the next line)."""
    lines = prose_lines(page.read_text(encoding="utf-8"))
    text = "\n".join(line for _, line in lines)
    starts = list(itertools.accumulate((len(line) + 1 for _, line in lines[:-1]), initial=0))
    blanked = INLINE_CODE.sub(lambda code: re.sub(r"[^\n]", " ", code.group()), text)  # offsets kept
    links = []
    for match in LINK.finditer(blanked):
        target = match.group(1)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):  # http:, https:, mailto:
            continue
        links.append((lines[bisect.bisect_right(starts, match.start()) - 1][0], target))
    return links


def test_the_pages_hold_links_to_check() -> None:
    assert sum(len(relative_links(page)) for page in PAGES) > 200


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(page: Path) -> None:
    broken = []
    for number, target in relative_links(page):
        path_part, _, fragment = target.partition("#")
        destination = (page.parent / unquote(path_part)).resolve() if path_part else page
        if not destination.exists():
            broken.append(f"line {number}: {target} (no such file)")
        elif fragment and destination.suffix == ".md" and unquote(fragment).lower() not in anchors(destination):
            broken.append(f"line {number}: {target} (no such heading)")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


CONTENTS_ENTRY = re.compile(r"^\s*- \[.*\]\(#([^)\s]+)\)\s*$")


def contents_and_headings(page: Path) -> tuple[list[str], list[str]] | None:
    """The anchors a page's "Contents" list links to, and those of the section headings after it (levels 2 and 3,
    the levels such a list names); None for a page without one."""
    listed: list[str] = []
    headings: list[str] = []
    state = "before"
    for _, line in prose_lines(page.read_text(encoding="utf-8")):
        heading = HEADING.match(line)
        if heading:
            if state == "before" and heading.group(2) == "Contents":
                state = "contents"
                continue
            if state != "before":
                state = "after"
                if len(heading.group(1)) in (2, 3):
                    headings.append(slug(heading.group(2)))
            continue
        entry = CONTENTS_ENTRY.match(line)
        if state == "contents" and entry:
            listed.append(unquote(entry.group(1)).lower())
    return None if state == "before" else (listed, headings)


PAGES_WITH_CONTENTS = [page for page in PAGES if contents_and_headings(page) is not None]


def test_some_page_has_a_contents_list() -> None:
    assert PAGES_WITH_CONTENTS


@pytest.mark.parametrize("page", PAGES_WITH_CONTENTS, ids=[str(p.relative_to(ROOT)) for p in PAGES_WITH_CONTENTS])
def test_a_contents_list_names_every_section_in_order(page: Path) -> None:
    # a section added at the end of a long log and left out of its list is found only by scrolling
    found = contents_and_headings(page)
    assert found is not None
    listed, headings = found
    assert listed == headings, (f"{page.relative_to(ROOT)}: not listed {[h for h in headings if h not in listed]}, "
                                f"listed but no such section {[a for a in listed if a not in headings]}")
