"""``torres rules [--lang de]``: how to play, printed (the same text the ``rules`` command shows at the prompt)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markdown import Markdown

from ..tui.guide import LANGUAGES, how_to_play
from .app import app


@app.command()
def rules(
    lang: Annotated[str, typer.Option("--lang", "-l", help=f"Language: {', '.join(LANGUAGES)}.")] = "en",
    raw: Annotated[bool, typer.Option("--raw", help="Print the Markdown source as it is.")] = False,
) -> None:
    """How to play Torres: the goal, a turn, the actions, castles, scoring, the king, the cards."""
    try:
        text = how_to_play(lang)
    except (LookupError, OSError) as exc:
        Console(stderr=True).print(f"[bold red]error:[/] {exc}")
        raise typer.Exit(2) from None
    if raw:
        print(text, end="" if text.endswith("\n") else "\n")
    else:
        Console().print(Markdown(text))
