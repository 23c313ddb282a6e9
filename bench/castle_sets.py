"""Starting-castle sets no bot was tuned on: boards to measure a setting on games its choice never saw.

    .venv/bin/python bench/castle_sets.py --count 5 --seed 2511 --avoid b2.e2.h3.c5.f5.a7.d7.g7

Without cards the editions' one board has about a hundred distinct games between two deterministic bots, and a new
seed replays them (``bench/shared_games.py``): settings picked on that board's games are measured on the same games.
Other starting castles (``castles=`` in the rules text) give games no setting saw. This draws sets at random from
``--seed`` (8 squares each), keeps those the engine accepts (its spacing of castles), and leaves out any set that is
a rotation or reflection of the standard set, of an ``--avoid`` set or of one drawn before (the same board turned
is the same game to bots whose judgement does not depend on direction). Each line is a rules text for
``bench/distinct_setups.py --rules`` or ``torres tournament -e``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterable, Iterator

from torres.engine.rules import STANDARD_CASTLES, Rules, RulesError
from torres.engine.squares import parse_square, square_name

_SQUARE_NAMES = [square_name(rank * 8 + file) for file in range(8) for rank in range(8)]
_MAX_MISSES = 100_000  # under the editions' spacing about one draw in 300 is a valid set


def _turns(x: int, y: int) -> tuple[tuple[int, int], ...]:
    """A square's place under each of the board's eight symmetries, in one order for every square."""
    return (x, y), (7 - x, y), (x, 7 - y), (7 - x, 7 - y), (y, x), (7 - y, x), (y, 7 - x), (7 - y, 7 - x)


def images(castles: Iterable[str]) -> set[frozenset[str]]:
    """The set and its rotations and reflections (the board's eight symmetries)."""
    turned = [_turns(sq & 7, sq >> 3) for sq in map(parse_square, castles)]
    return {frozenset(square_name(places[k][1] * 8 + places[k][0]) for places in turned) for k in range(8)}


def with_castles(base: str, castles: Iterable[str]) -> str:
    """``base`` (an edition, with settings or not) with these starting castles."""
    return f"{base}{',' if ':' in base else ':'}castles={'.'.join(castles)}"


def castle_sets(base: str, seed: int, avoid: Iterable[Iterable[str]] = ()) -> Iterator[str]:
    """Rules texts ``base`` with ``castles=...``, each a new board, endlessly (the first ``n`` are the same for a seed)."""
    seen = images(STANDARD_CASTLES)
    for castles in avoid:
        seen |= images(castles)
    rng = random.Random(seed)
    misses = 0
    while True:
        squares = rng.sample(_SQUARE_NAMES, 8)
        misses += 1
        if misses > _MAX_MISSES:
            raise RulesError(f"no new castle set for {base} in {_MAX_MISSES} draws")
        if frozenset(squares) in seen:
            continue
        text = with_castles(base, sorted(squares))
        try:
            Rules.from_text(text)
        except RulesError:
            continue
        seen |= images(squares)
        misses = 0
        yield text


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2511)
    parser.add_argument("--base", default="riogrande:max_buys=0", help="the rules text the castles are added to")
    parser.add_argument("--avoid", action="append", default=[],
                        help="a set to leave out with its turns, squares joined by '.' (repeatable)")
    args = parser.parse_args(argv)
    if not 1 <= args.count <= 1000:
        parser.error(f"--count is 1..1000, not {args.count}")
    if "castles=" in args.base:
        parser.error("--base is the rules without castles: this adds them")
    try:
        Rules.from_text(args.base)
        avoid = [Rules.from_text(with_castles(args.base, text.split("."))).castles for text in args.avoid]
    except RulesError as error:
        parser.error(str(error))
    sets = castle_sets(args.base, args.seed, avoid)
    try:
        for _ in range(args.count):
            print(next(sets))
    except RulesError as error:
        parser.exit(1, f"{error}\n")


if __name__ == "__main__":
    main()
