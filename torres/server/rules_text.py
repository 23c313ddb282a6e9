"""How to play, as HTML for the browser's rules page (the text is torres/data/how-to-play*.md)."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from markdown_it import MarkdownIt

#: Language → the how-to-play file in torres/data.
RULES_FILES = {"en": "how-to-play.md", "de": "how-to-play.de.md"}


@lru_cache(maxsize=None)
def rules_html(lang: str) -> str:
    """The how-to-play text in ``lang`` as HTML (``LookupError`` for a language it is not written in)."""
    name = RULES_FILES.get(lang)
    if name is None:
        raise LookupError(f"how to play is written in {', '.join(RULES_FILES)}, not {lang!r}")
    source = resources.files("torres") / "data" / name
    if not source.is_file():
        raise LookupError(f"torres/data/{name} is missing from this installation")
    # The text is ours, but raw HTML stays off so the page never renders markup it did not write itself.
    markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
    return str(markdown.render(source.read_text(encoding="utf-8")))
