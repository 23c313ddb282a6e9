"""A tournament without cards with each distinct setup played once, counted as often as it comes up.

    .venv/bin/python bench/distinct_setups.py --bots master,exhaustive:nodes=30000:eval=tuned \\
        --rules riogrande:max_buys=0 --games 400 --seed 904 --jobs 2 --check 4

Without cards a game has no chance after its setup, and two deterministic bots play the same game from the same
setup and seating. ``torres tournament --random-setup`` draws the setup of game ``g`` from its own seed, and the
400 games of ``--seed 904`` have 294 setups and seatings of their own (they played only 115 distinct games between
the master and the yardstick, as the king's first square seldom changes one, but which setups play alike is known
only once they are played, and another bot may play them apart). This plays game ``g`` of the
tournament (``torres.cli.tournament.play_game``, the same call) for the first ``g`` of each setup and weights its
result by how many of the games share that setup: the win rate of the first bot is the tournament's exactly,
when the bots are deterministic. ``--check K`` plays ``K`` games that share a setup with one already played and
stops with an error if any went otherwise (a bot that draws on its seed, or cards in play, break the premise).

``--rows FILE`` keeps each distinct game's result (one JSON line, appended as soon as it is played) and resumes from
it, so that a run can be stopped and continued, and two runs compared game by game. ``--json FILE`` writes every
game of the tournament as ``torres tournament --json`` would (each game's result its setup's), so that
``bench/paired.py`` pairs it with a tournament's run, or another's, on the same seed.

``--screen ROWS --won N`` is a quick look at a variant of the first bot, before the whole run: it plays the games the
first bot of ROWS (another bot's run on the same seed) lost, and N of those it won (drawn with a fixed seed), one
game per game ROWS played (setups whose games ended with the same seating and scores are one game), and says how
many went the other way, and how many ended with the same scores (a change that alters few games cannot move the
count much, however it is judged); with ``--rows FILE`` the variant's games are kept there as a whole run keeps
them, so that its whole run (the same ``--rows``) resumes from the screen. A variant that wins lost games but loses
as large a share of won ones gains nothing, and a small sample of won games says little of that share: the screen
prints the range of the net that its sample allows (1 of 20 won games lost, scaled to 96, allows anything from 1 to
23 of them: such a net is a pointer; every won game played, below, or a whole run decides).
``bench/shared_games.py`` says how many of a run's games another run (another seed) played too: a new seed's deals
are mostly games played before. With ``--won`` at least the number of won games, every game is played and the
screen also counts the variant's wins as the ``--games`` games of the run screened against play them (exact when
the variant plays alike the setups that run's first bot played alike):

    .venv/bin/python bench/distinct_setups.py --bots master:known_candidates=16:known_limit=40000,exhaustive:nodes=30000:eval=tuned \
        --seed 904 --jobs 2 --screen /tmp/master-rows.jsonl --won 19
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from torres.ai.collector import tune_for_search  # noqa: E402
from torres.cli.tournament import play_game, set_up, wilson  # noqa: E402
from torres.engine import Rules  # noqa: E402


def setup_key(game: int, players: int, rules_text: str, seed: int) -> str:
    """The setup and seating of game ``game`` of ``torres tournament --random-setup``, drawn as it draws them."""
    played = hashlib.blake2b(digest_size=8)
    for action in set_up(game, players, rules_text, seed, random_setup=True)[1]:
        played.update(action.to_bytes(2, "little"))
    return f"{[(s + game) % players for s in range(players)]}:{played.hexdigest()}"


def _play(args: tuple[list[str], int, int, str, int]) -> dict[str, Any]:
    bots, game, players, rules_text, seed = args
    result = play_game(bots, game, players, rules_text, seed, True)
    scores = [result.scores[result.entries.index(e)] for e in range(players)]   # by entry: the first bot's first
    top = [e for e in range(players) if scores[e] == max(scores)]
    return {"game": game, "scores": scores, "win": 1 / len(top) if 0 in top else 0.0,
            "margin": scores[0] - max(scores[1:]), "digest": result.digest, "phases": result.phases}


@dataclass
class Weighted:
    games: int
    distinct: int
    wins: float  # the first bot's, each distinct game counted as often as its setup comes up
    margin: float  # the first bot's mean margin over the best rival, weighted alike
    checked: int  # games sharing a setup with a played one, played again and found alike
    results: list[dict[str, Any]]  # every game, as ``torres tournament --json`` lists it (its setup's game)


def weighted_tournament(bots: list[str], rules_text: str, games: int, seed: int, jobs: int = 1, check: int = 0,
                        rows: Path | None = None) -> Weighted:
    """The first bot's result in ``torres tournament --random-setup`` with these settings, from its distinct games."""
    players = len(bots)
    if Rules.from_text(rules_text).max_buys != 0:
        raise ValueError("the rules must forbid buying cards (max_buys=0): with cards a setup does not decide a game")
    share: dict[str, list[int]] = {}
    for g in range(games):
        share.setdefault(setup_key(g, players, rules_text, seed), []).append(g)
    firsts = sorted(same[0] for same in share.values())
    again = [same[1] for same in share.values() if len(same) > 1][:check]
    done, checked = _play_kept(bots, rules_text, seed, firsts, jobs, rows, again)
    first_of = {g: same[0] for same in share.values() for g in same}
    for g, row in checked.items():
        if row["digest"] != done[first_of[g]]["digest"]:
            raise RuntimeError(f"game {g} went otherwise than game {first_of[g]}, which has the same setup: the "
                               "bots are not deterministic here, and the weighted result is not the tournament's")
    wins = sum(len(same) * done[same[0]]["win"] for same in share.values())
    margin = sum(len(same) * done[same[0]]["margin"] for same in share.values()) / games
    results = [_as_played(g, done[first_of[g]]) for g in range(games)]
    return Weighted(games, len(firsts), wins, margin, len(checked), results)


def as_tournament_json(bots: list[str], rules_text: str, seed: int, r: Weighted) -> dict[str, Any]:
    """The run as ``torres tournament --json`` writes it, for ``bench/paired.py``."""
    return {"bots": [{"bot": b} for b in bots], "players": len(bots), "edition": rules_text, "seed": seed, "first": 0,
            "random_setup": True, "games": r.games, "distinct_setups": r.distinct, "results": r.results}


def _play_kept(bots: list[str], rules_text: str, seed: int, games: list[int], jobs: int, rows: Path | None,
               again: Sequence[int] = ()) -> tuple[dict[int, dict[str, Any]], dict[int, dict[str, Any]]]:
    """Games ``games`` played, those already in ``rows`` (with these settings) taken from it and the others
    appended to it as each ends; and games ``again`` played without being kept (a check)."""
    settings = {"bots": ",".join(bots), "rules": rules_text, "seed": seed}
    done: dict[int, dict[str, Any]] = {}
    if rows is not None and rows.exists():
        for line in rows.read_text().splitlines():
            row = json.loads(line)
            if all(row.get(k) == v for k, v in settings.items()):
                done[row["game"]] = row
    todo = [g for g in games if g not in done]
    checked: dict[int, dict[str, Any]] = {}
    with ProcessPoolExecutor(jobs, initializer=tune_for_search) as pool:
        for row in pool.map(_play, [(bots, g, len(bots), rules_text, seed) for g in todo + list(again)]):
            if row["game"] in again:
                checked[row["game"]] = row
                continue
            done[row["game"]] = row = {**row, **settings}
            if rows is not None:
                with rows.open("a") as out:
                    out.write(json.dumps(row) + "\n")
    return {g: done[g] for g in games}, checked


def _as_played(game: int, row: dict[str, Any]) -> dict[str, Any]:
    """Game ``game`` as the tournament lists it, from the row of the game its setup played (scores by seat)."""
    entries = json.loads(row["digest"].split(":")[0])   # (the digest starts with the entry in each seat)
    played = {"game": game, "entries": entries, "scores": [row["scores"][e] for e in entries], "digest": row["digest"]}
    if "phases" in row:   # (rows written before they were kept have none)
        played["phases"] = row["phases"]
    return played


@dataclass
class Screen:
    lost: list[int]  # the games (one per game ROWS played) the first bot of ROWS lost ...
    lost_now_won: float  # ... and of them, what the variant won
    won: list[int]  # the sample of those it won ...
    won_now_lost: float  # ... and of them, what the variant lost
    won_there: int  # how many games the first bot of ROWS won, the sample's population
    #: of the games played, those that ended with the same scores as there: how far the variant plays apart
    unchanged: int
    #: with every one of its games played: the variant's wins and those of the first bot of ROWS, each game counted as
    #: often as the tournament plays it (the variant assumed to play alike the setups that bot played alike)
    counted: tuple[float, float] | None = None

    @property
    def net(self) -> float:
        """Games won more than the first bot of ROWS, of its distinct games: the won games lost scaled from the
        sample to all the won ones."""
        return self.lost_now_won - (self.won_now_lost * self.won_there / len(self.won) if self.won else 0.0)

    @property
    def net_range(self) -> tuple[float, float]:
        """The net's 95% range as far as the sample of won games allows: the Wilson interval of the share of them
        the variant loses, scaled to all the won ones (a sample drawn without replacement is known a little
        better, so the range errs wide); the net itself when every won game was played. The lost games are all
        played: they add no doubt."""
        if len(self.won) >= self.won_there:
            return self.net, self.net
        low, high = wilson(self.won_now_lost, len(self.won))
        return self.lost_now_won - high * self.won_there, self.lost_now_won - low * self.won_there


def screen(bots: list[str], rules_text: str, seed: int, rows: Path, won: int, jobs: int = 1,
           keep: Path | None = None, games_there: int = 400) -> Screen:
    """The variant ``bots`` on the games the first bot of ``rows`` lost and on ``won`` of those it won; its games
    are kept in ``keep`` (and taken from it when there) as ``weighted_tournament`` keeps its rows, so that the
    variant's whole run resumes from its screen. With all the won games played, both bots' wins are also counted
    as the ``games_there`` games of the tournament ``rows`` came from play them."""
    if keep is not None and keep.resolve() == rows.resolve():
        raise ValueError("the screen's games would be kept among those it screens against: give --rows another file")
    games: dict[tuple[str, tuple[int, ...]], dict[str, Any]] = {}
    there: dict[int, dict[str, Any]] = {}
    for line in rows.read_text().splitlines():
        row = json.loads(line)
        if row.get("rules") == rules_text and row.get("seed") == seed:
            there[row["game"]] = row
            games.setdefault(game_played(row), row)
    firsts = sorted(games.values(), key=lambda row: row["game"])
    lost = [row["game"] for row in firsts if row["win"] < 1]
    sample = [row["game"] for row in firsts if row["win"] == 1]
    won_there = len(sample)
    random.Random(1).shuffle(sample)
    sample = sample[:won]
    # (each game of the run screened against, as the one game of the screen its setup played; known before playing)
    as_played: list[dict[str, Any]] = []
    if len(sample) == won_there:
        first_of: dict[str, int] = {}
        for g in range(games_there):
            first = first_of.setdefault(setup_key(g, len(bots), rules_text, seed), g)
            if first not in there:
                raise ValueError(f"{rows} has no row for game {first}: it is not a run of {games_there} games")
            as_played.append(games[game_played(there[first])])
    results, _ = _play_kept(bots, rules_text, seed, lost + sample, jobs, keep)
    counted = None
    if as_played:
        counted = (sum(results[row["game"]]["win"] for row in as_played), sum(row["win"] for row in as_played))
    unchanged = sum(results[g]["scores"] == there[g]["scores"] for g in lost + sample)
    return Screen(lost, sum(results[g]["win"] for g in lost), sample, sum(1 - results[g]["win"] for g in sample),
                  won_there, unchanged, counted)


def game_played(row: dict[str, Any]) -> tuple[str, tuple[int, ...]]:
    """The seating, then the scores: setups that played one game."""
    return row["digest"].split(":")[0], tuple(row["scores"])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", required=True, help="comma-separated bots, one per seat, as for torres tournament")
    ap.add_argument("--rules", default="riogrande:max_buys=0", help="rules text (default: no buying of cards)")
    ap.add_argument("--games", type=int, default=400, help="the tournament's games (with --screen: those of the run "
                                                           "screened against)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--check", type=int, default=0, help="games sharing a setup with a played one, played to compare")
    ap.add_argument("--rows", type=Path, help="a JSON-lines file of the distinct games' results (appended, resumed)")
    ap.add_argument("--json", type=Path, help="write every game's result as torres tournament --json does")
    ap.add_argument("--screen", type=Path, help="another run's --rows: play only the games its first bot lost, and "
                                                "--won of those it won")
    ap.add_argument("--won", type=int, default=0, help="with --screen: how many of the won games to play")
    args = ap.parse_args(argv)
    bots = args.bots.split(",")
    if args.screen:
        try:
            s = screen(bots, args.rules, args.seed, args.screen, args.won, args.jobs, args.rows, args.games)
        except ValueError as e:
            sys.exit(str(e))
        print(f"{bots[0]}: won {s.lost_now_won:g} of the {len(s.lost)} games lost in {args.screen}, lost "
              f"{s.won_now_lost:g} of {len(s.won)} of the {s.won_there} won there: {s.net:+.1f} distinct games net, "
              "the won ones lost scaled to all")
        low, high = s.net_range
        print(f"the net as the sample of won games allows it (95%): {low:+.1f} to {high:+.1f}")
        print(f"{s.unchanged} of the {len(s.lost) + len(s.won)} games played ended with the same scores as there")
        if s.counted is not None:
            now, there = s.counted
            print(f"counted as the {args.games} games play them: {now / args.games:.1%} ({now:g}), where the first "
                  f"bot of {args.screen} won {there / args.games:.1%} ({there:g})")
        return
    try:
        r = weighted_tournament(bots, args.rules, args.games, args.seed, args.jobs, args.check, args.rows)
    except (ValueError, RuntimeError) as e:
        sys.exit(str(e))
    if args.json:
        args.json.write_text(json.dumps(as_tournament_json(bots, args.rules, args.seed, r)))
    low, high = wilson(r.wins, r.games)
    print(f"{bots[0]}: {r.wins / r.games:.1%} [{low:.1%}–{high:.1%}] of {r.games} games ({r.distinct} distinct; mean "
          f"margin over the best rival {r.margin:+.1f}); {r.checked} games played again went alike")


if __name__ == "__main__":
    main()
