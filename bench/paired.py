"""Two tournament runs on the same seed, compared deal by deal.

Game ``g`` of ``torres tournament --seed S`` is the same deal (the same shuffles, the same seats) in every run with
that seed, so a variant and the bot it would replace, each played against the same opponent, can be compared game
by game: the paired difference of their results has a smaller error than the difference of two independent win
rates when the deal's luck carries over from one run to the other. Both files come from ``--json``; the bot under
comparison is entry ``--entry`` (0: the first of ``--bots``) in both. More pairs of runs, each pair on its own
seed, are pooled into one comparison over all their deals.

    .venv/bin/python bench/paired.py /tmp/variant.json /tmp/master.json
    .venv/bin/python bench/paired.py /tmp/variant-7.json /tmp/master-7.json /tmp/variant-8.json /tmp/master-8.json
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from dataclasses import dataclass
from typing import Any


@dataclass
class Paired:
    games: int
    win_rate: tuple[float, float]  # the entry's in each run, over the games both runs played
    difference: float  # first minus second
    half_width: float  # of the difference's 95% interval, from the per-game differences
    independent_half_width: float  # ... as if the two runs were on different deals
    # the games the entry won in one run and lost in the other, by number (more than one pair of runs:
    # "seed:game"), in order
    first_only_games: list[str]
    second_only_games: list[str]
    margin: tuple[float, float]  # the entry's mean score minus the best rival's, in each run
    margin_half_width: float
    phase_margins: tuple[list[float], list[float]]  # the mean margin after each phase's scoring, in each run

    @property
    def only_first(self) -> int:
        return len(self.first_only_games)

    @property
    def only_second(self) -> int:
        return len(self.second_only_games)


def _margin(scores: list[int], seat: int) -> float:
    return float(scores[seat] - max(sc for s, sc in enumerate(scores) if s != seat))


def outcomes(data: dict[str, Any], entry: int) -> dict[int, tuple[float, float, list[float]]]:
    """Game number → (the entry's result: 1 a win, a share of a tie, 0 a loss; its margin over the best rival;
    that margin after each phase's scoring)."""
    out: dict[int, tuple[float, float, list[float]]] = {}
    for game in data["results"]:
        seat = game["entries"].index(entry)
        scores = game["scores"]
        best = max(scores)
        won = 1.0 / scores.count(best) if scores[seat] == best else 0.0
        out[game["game"]] = (won, _margin(scores, seat), [_margin(after, seat) for after in game.get("phases", [])])
    return out


def _phase_means(runs: dict[Any, tuple[float, float, list[float]]], games: list[Any]) -> list[float]:
    phases = min(len(runs[g][2]) for g in games)
    return [statistics.fmean(runs[g][2][k] for g in games) for k in range(phases)]


def compare(first: dict[str, Any], second: dict[str, Any], entry: int = 0) -> Paired:
    return compare_pooled([(first, second)], entry)


def compare_pooled(pairs: list[tuple[dict[str, Any], dict[str, Any]]], entry: int = 0) -> Paired:
    """The paired comparison over every deal of several pairs of runs, each pair on the same deals."""
    a: dict[tuple[tuple[object, ...], int], tuple[float, float, list[float]]] = {}
    b: dict[tuple[tuple[object, ...], int], tuple[float, float, list[float]]] = {}
    for first, second in pairs:
        for key in ("seed", "players", "edition", "random_setup"):
            if first.get(key) != second.get(key):
                raise ValueError(f"the runs differ in {key} ({first.get(key)!r} vs {second.get(key)!r}): "
                                 "not the same deals")
        deals = (first.get("seed"), first.get("players"), first.get("edition"), first.get("random_setup"))
        if any(deal == deals for deal, _ in a):
            raise ValueError(f"two pairs of runs on the same deals (seed {first.get('seed')!r})")
        a.update(((deals, g), o) for g, o in outcomes(first, entry).items())
        b.update(((deals, g), o) for g, o in outcomes(second, entry).items())
    games = [g for g in a if g in b]
    if len(games) < 2:
        raise ValueError("fewer than two games in common")
    n = len(games)
    wins_a, wins_b = [a[g][0] for g in games], [b[g][0] for g in games]
    pooled = len(pairs) > 1

    def label(key: tuple[tuple[object, ...], int]) -> str:
        (seed, *_), game = key
        return f"{seed}:{game}" if pooled else str(game)

    first_only = [label(g) for g, x, y in zip(games, wins_a, wins_b) if x == 1 and y == 0]
    second_only = [label(g) for g, x, y in zip(games, wins_a, wins_b) if x == 0 and y == 1]
    diffs = [x - y for x, y in zip(wins_a, wins_b)]
    margin_diffs = [a[g][1] - b[g][1] for g in games]
    p, q = statistics.fmean(wins_a), statistics.fmean(wins_b)
    return Paired(
        games=n, win_rate=(p, q), difference=p - q,
        half_width=1.96 * statistics.stdev(diffs) / math.sqrt(n),
        independent_half_width=1.96 * math.sqrt((p * (1 - p) + q * (1 - q)) / n),
        first_only_games=first_only, second_only_games=second_only,
        margin=(statistics.fmean(a[g][1] for g in games), statistics.fmean(b[g][1] for g in games)),
        margin_half_width=1.96 * statistics.stdev(margin_diffs) / math.sqrt(n),
        phase_margins=(_phase_means(a, games), _phase_means(b, games)),
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", metavar="run",
                        help="tournament --json files in pairs: the variant's, then the run of the bot it is "
                             "compared with on the same seed; more pairs are pooled")
    parser.add_argument("--entry", type=int, default=0, help="the compared bot's place in --bots (default 0)")
    parser.add_argument("--games", action="store_true",
                        help="also list the games each run alone won (by number; pooled: seed:game)")
    args = parser.parse_args(argv)
    if len(args.runs) % 2:
        parser.error("the runs come in pairs: the variant's, then the other bot's on the same seed")
    loaded = []
    for path in args.runs:
        with open(path) as fh:
            loaded.append(json.load(fh))
    r = compare_pooled(list(zip(loaded[::2], loaded[1::2])), args.entry)
    print(f"{r.games} games on the same deals")
    print(f"win rate: {r.win_rate[0]:.1%} vs {r.win_rate[1]:.1%}, difference {r.difference:+.1%} "
          f"± {r.half_width:.1%} paired (± {r.independent_half_width:.1%} if the deals were independent)")
    print(f"games won only in the first run: {r.only_first}, only in the second: {r.only_second}")
    if args.games:
        print(f"  only in the first: {', '.join(r.first_only_games) or '-'}")
        print(f"  only in the second: {', '.join(r.second_only_games) or '-'}")
    print(f"margin over the best rival: {r.margin[0]:+.1f} vs {r.margin[1]:+.1f}, difference "
          f"{r.margin[0] - r.margin[1]:+.1f} ± {r.margin_half_width:.1f}")
    for k, (x, y) in enumerate(zip(*r.phase_margins)):
        print(f"  after phase {k + 1}'s scoring: {x:+.1f} vs {y:+.1f}")


if __name__ == "__main__":
    main()
