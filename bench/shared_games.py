"""How many of one run's distinct games another run had already played: are a new seed's deals new games?

    .venv/bin/python bench/shared_games.py /tmp/master-907.jsonl /tmp/master-904.jsonl

Each file is a ``--rows`` file of ``bench/distinct_setups.py`` (one line per distinct setup played). Without cards a
game has no chance after its setup, and many setups play one game (the king's first square seldom changes it), so
400 games of a new seed can be mostly games another seed already played: a lever picked by its games on one seed
and checked on another is then checked on much the same games. Two games are the same when their seating and final
scores are (as ``distinct_setups.py --screen`` counts them); rows of other bots or rules than the first file's
first row are left out of both.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from distinct_setups import game_played  # noqa: E402


@dataclass(frozen=True)
class Shared:
    games: int  # the distinct games of the first run
    lost: int  # ... of them, those its first bot lost (or tied)
    shared: int  # ... of the games, those the other run played too
    shared_lost: int  # ... of the lost ones, those the other run played too
    other: int  # the distinct games of the other run


def _games(path: Path, settings: dict[str, Any] | None) -> tuple[dict[tuple[str, tuple[int, ...]], float],
                                                                 dict[str, Any]]:
    games: dict[tuple[str, tuple[int, ...]], float] = {}
    for line in path.read_text().splitlines():
        try:
            row = json.loads(line)
            if settings is None:
                settings = {"bots": row.get("bots"), "rules": row.get("rules")}
            if all(row.get(k) == v for k, v in settings.items()):
                games.setdefault(game_played(row), row["win"])
        except (ValueError, KeyError, AttributeError, TypeError):
            raise ValueError(f"{path} is not a --rows file of bench/distinct_setups.py: {line[:80]}") from None
    if settings is None:
        raise ValueError(f"{path} has no rows")
    return games, settings


def shared_games(rows: Path, other: Path) -> Shared:
    """The distinct games of ``rows`` that ``other`` played too (with the bots and rules of ``rows``' first row)."""
    mine, settings = _games(rows, None)
    theirs, _ = _games(other, settings)
    lost = {game for game, win in mine.items() if win < 1}
    return Shared(len(mine), len(lost), len(mine.keys() & theirs.keys()), len(lost & theirs.keys()), len(theirs))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rows", type=Path, help="a run's --rows file")
    ap.add_argument("other", type=Path, help="another run's --rows file (another seed, say)")
    args = ap.parse_args(argv)
    try:
        s = shared_games(args.rows, args.other)
    except (ValueError, OSError) as e:
        sys.exit(str(e))
    print(f"{args.rows}: {s.games} distinct games, of which {s.shared} were played in {args.other} too "
          f"({s.other} distinct there); of its {s.lost} lost, {s.shared_lost}")


if __name__ == "__main__":
    main()
