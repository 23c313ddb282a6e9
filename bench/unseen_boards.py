"""A bot's result without cards on several boards, each on a seed of its own, and paired with another bot's.

    .venv/bin/python bench/unseen_boards.py --bots master,exhaustive:nodes=30000:eval=tuned --games 60 --seed 911 \\
        --jobs 2 --dir /tmp/master --rules riogrande:max_buys=0,castles=b2.e2.h3.c5.f5.a7.d7.g7 \\
        --rules riogrande:max_buys=0,castles=b2.b8.c5.e1.f3.f8.g6.h2
    .venv/bin/python bench/unseen_boards.py --bots master:decay=0.357,exhaustive:nodes=30000:eval=tuned ... \\
        --dir /tmp/k2 --against /tmp/master

The editions' one board has about a hundred distinct games between two deterministic bots, and the settings tuned
on it fit them (docs/strength-log.md): a setting's strength shows on boards it never saw, starting castles drawn by
``bench/castle_sets.py``. Board ``i`` (the ``i``-th ``--rules``) is played on seed ``--seed + i`` as
``bench/distinct_setups.py`` plays one run: each distinct setup once, counted as often as it comes up. Each board's
games are kept in ``DIR/<seed>.jsonl`` (a run resumes from them) and written to ``DIR/<seed>.json`` as ``torres
tournament --json`` writes them. It prints each board's rate and the pooled one; ``--against OTHER`` (another bot's
``--dir`` over the same boards and seeds) adds the paired difference on each board and over every board
(``bench/paired.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from torres.cli.tournament import wilson  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import distinct_setups  # noqa: E402
import paired  # noqa: E402

#: Boards one run plays at most (a bound on the command line: a board of 60 games takes about ten minutes of two
#: cores at the master's speed).
MAX_BOARDS = 100


@dataclass
class Board:
    seed: int
    wins: float
    games: int
    margin: float


def play_boards(bots: list[str], boards: list[str], games: int, seed: int, jobs: int, out: Path) -> list[Board]:
    """Every board played (or read back from ``out``) in order, its files written there."""
    out.mkdir(parents=True, exist_ok=True)
    played = []
    for i, rules in enumerate(boards):
        s = seed + i
        r = distinct_setups.weighted_tournament(bots, rules, games, s, jobs, rows=out / f"{s}.jsonl")
        (out / f"{s}.json").write_text(json.dumps(distinct_setups.as_tournament_json(bots, rules, s, r)))
        played.append(Board(s, r.wins, r.games, r.margin))
        print(f"{rules} --seed {s}: {r.wins / r.games:.1%} of {r.games} ({r.distinct} distinct; mean margin "
              f"{r.margin:+.1f})", flush=True)
    return played


def missing_runs(other: Path, seeds: range) -> list[str]:
    """The files of ``seeds`` that ``other`` lacks: checked before any game, as a board takes minutes."""
    return [f"{s}.json" for s in seeds if not (other / f"{s}.json").is_file()]


def paired_with(boards: list[Board], out: Path, other: Path) -> paired.Paired:
    """The paired difference over every board between the runs kept in ``out`` and in ``other``."""
    return paired.compare_pooled([(json.loads((out / f"{b.seed}.json").read_text()),
                                   json.loads((other / f"{b.seed}.json").read_text())) for b in boards])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", required=True, help="comma-separated bots, one per seat; the first is measured")
    ap.add_argument("--rules", action="append", required=True,
                    help="a board: a rules text without cards (max_buys=0); once per board, in order")
    ap.add_argument("--games", type=int, default=60, help="games a board")
    ap.add_argument("--seed", type=int, default=0, help="the first board's seed; the next board's is one more")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--dir", type=Path, required=True, help="where each board's games are kept")
    ap.add_argument("--against", type=Path, help="another bot's --dir over the same boards: pair with it")
    args = ap.parse_args(argv)
    if not 1 <= len(args.rules) <= MAX_BOARDS or not 1 <= args.games <= 10_000 or not 1 <= args.jobs <= 64:
        ap.error(f"1 to {MAX_BOARDS} boards, 1 to 10,000 games a board and 1 to 64 jobs")
    if args.against is not None and args.against.resolve() == args.dir.resolve():
        ap.error("--against names the run's own --dir")
    seeds = range(args.seed, args.seed + len(args.rules))
    if args.against is not None and (missing := missing_runs(args.against, seeds)):
        sys.exit(f"{args.against} has no run of these boards' seeds: {', '.join(missing)} missing")
    bots = args.bots.split(",")
    try:
        boards = play_boards(bots, args.rules, args.games, args.seed, args.jobs, args.dir)
        each = [paired_with([b], args.dir, args.against) for b in boards] if args.against else []
        comparison = paired_with(boards, args.dir, args.against) if args.against else None
    except (ValueError, RuntimeError) as e:
        sys.exit(str(e))
    wins, games = sum(b.wins for b in boards), sum(b.games for b in boards)
    low, high = wilson(wins, games)
    margin = sum(b.margin * b.games for b in boards) / games
    print(f"{bots[0]}: {wins / games:.1%} [{low:.1%}–{high:.1%}] of {games} games on {len(boards)} boards (mean "
          f"margin {margin:+.1f})")
    for b, c in zip(boards, each):
        print(f"  --seed {b.seed} paired: {difference(c)}")
    if comparison is not None:
        print(f"paired with {args.against} over {comparison.games} games: {difference(comparison)}")


def difference(c: paired.Paired) -> str:
    return (f"{c.win_rate[0]:.1%} vs {c.win_rate[1]:.1%}, difference {c.difference:+.1%} ± {c.half_width:.1%}; "
            f"won only here {c.only_first}, only there {c.only_second}; margin {c.margin[0] - c.margin[1]:+.1f} ± "
            f"{c.margin_half_width:.1f}")


if __name__ == "__main__":
    main()
