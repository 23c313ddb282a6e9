"""How to play, as the package ships it: ``torres/data/how-to-play.md`` (English) and ``how-to-play.<lang>.md``
(translations), read with importlib.resources so it works from a wheel as from a checkout."""

from __future__ import annotations

from importlib import resources

#: Language code → the file under torres/data holding the text in that language.
LANGUAGES = {"en": "how-to-play.md", "de": "how-to-play.de.md"}


def how_to_play(language: str = "en") -> str:
    """The how-to-play text in ``language``. ``LookupError`` for a language there is no text for,
    ``FileNotFoundError`` if the package was installed without it."""
    code = language.strip().lower() or "en"
    if code not in LANGUAGES:
        raise LookupError(f"no how-to-play text in {language!r} (languages: {', '.join(LANGUAGES)})")
    source = resources.files("torres").joinpath("data", LANGUAGES[code])
    try:
        return source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(f"the how-to-play text torres/data/{LANGUAGES[code]} is missing from this "
                                "installation") from None
