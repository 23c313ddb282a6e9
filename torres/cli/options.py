"""The one way every command names the rules: ``--edition`` (an edition, optionally with settings, in the form
records store: ``riogrande:card_mode=common,master=1``), and ``--master/--no-master`` and ``--cards`` on top of it.

``play``, ``demo``, ``selfplay`` and ``tournament`` declare these options with the types below, so a rules text
that works in one command works in all of them, and the flags mean the same everywhere.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from ..engine.rules import EDITIONS, CardMode, Rules

EDITION_HELP = (f"Rules: an edition ({', '.join(EDITIONS)}), optionally with settings, e.g. "
                "riogrande:card_mode=common or idw:master=1 (see docs/editions.md). Default: riogrande.")

EditionOption = Annotated[Optional[str], typer.Option("--edition", "-e", help=EDITION_HELP)]
MasterOption = Annotated[Optional[bool], typer.Option(
    "--master/--no-master", help="The master version (castle setup, master card); default: the edition's.")]
CardsOption = Annotated[Optional[str], typer.Option(
    "--cards", help="own: a deck per player; common: one shared deck. Default: the edition's.")]
#: ``selfplay`` called ``--cards`` ``--card-mode`` before the options were shared; old command lines keep working.
CardModeAlias = Annotated[Optional[str], typer.Option("--card-mode", hidden=True)]

DEFAULT_EDITION = "riogrande"


def card_mode_of(cards: str | None, alias: str | None = None) -> CardMode | None:
    """``--cards`` (or its old name) as a :class:`CardMode`; ``ValueError`` for anything but own/common."""
    if cards is not None and alias is not None and cards != alias:
        raise ValueError(f"--cards {cards} and --card-mode {alias} disagree")
    value = cards if cards is not None else alias
    if value is None:
        return None
    try:
        return CardMode(value)
    except ValueError:
        raise ValueError(f"--cards is own or common, not {value!r}") from None


def rules_from_options(edition: str | None, master: bool | None = None, cards: str | None = None,
                       card_mode_alias: str | None = None) -> Rules:
    """The rules the options name: the edition text (``Rules.from_text``), then ``--master`` and ``--cards``
    where given. ``ValueError`` (with the engine's wording: unknown edition, unknown setting) otherwise."""
    rules = Rules.from_text(edition or DEFAULT_EDITION)
    changes: dict[str, object] = {}
    if master is not None:
        changes["master"] = master
    mode = card_mode_of(cards, card_mode_alias)
    if mode is not None:
        changes["card_mode"] = mode
    return rules.replace(**changes) if changes else rules
