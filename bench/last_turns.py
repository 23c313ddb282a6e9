"""Variants of the master that differ only in a game's last turns, each played on from the master's own games.

    .venv/bin/python bench/last_turns.py --seed 904 --games 400 --jobs 2 --rows /tmp/last-904.jsonl
    git apply docs/experiments/last-turns-played-out.diff   # the variants' settings
    .venv/bin/python bench/last_turns.py --seed 904 --games 400 --jobs 2 --rows /tmp/last-904.jsonl \\
        --variant master:finish=2 --variant master:finish=4:finish_replies=2

Without cards a game has no chance after its setup (``bench/distinct_setups.py``). The first call plays each
distinct setup of the tournament (``torres tournament --random-setup``, ``--master`` against ``--rival``) once and
keeps, in ``--rows``, every action of its game: the master's result, each setup counted as often as the
tournament's games share it, is the tournament's. A variant that plays as the master until at most ``--split``
turns of the game are left (as the look-ahead's ``finish`` setting of docs/experiments/last-turns-played-out.diff
does) need not play those turns again: each of its games replays the master's actions up to the first turn start
with at most ``--split`` turns left and plays on from there, with both bots built afresh (without cards they carry
nothing from one turn to the next that changes a decision: ``--check K`` plays the master itself on from there in
K games, which must end as they did). So a variant costs its last turns only, and its figure is what its own
tournament would give.

Each variant's line says its win rate, the games won and lost where the master lost and won them (as the
tournament counts them, and as setups), the mean margin, and its slowest turn from the split on (CPU seconds;
the machine's other load shows in it). Rows are appended as each game ends and resumed from; a variant's results
are kept beside the master's, so that a run stopped for time goes on where it was.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from distinct_setups import setup_key  # noqa: E402

from torres.ai.collector import settle, tune_for_search  # noqa: E402
from torres.cli.tournament import start_game, turn_of, wilson  # noqa: E402
from torres.engine import GameState, Rules  # noqa: E402
from torres.engine.stage import Stage  # noqa: E402

#: The turn starts (turns of the game left) where a game's place in its actions is kept, for variants to start at.
SPLITS = (2, 4, 8, 12)
#: ``--split`` for a variant that plays otherwise from the first turn: every turn of a 2-player game, so its games
#: are whole games (compared setup by setup with the master's kept ones, at the cost of playing them all).
WHOLE = 24


def turns_to_end(state: GameState) -> int:
    """Every seat's turns still to come in the game, a turn in progress included."""
    later = sum(len(stacks) for stacks in state.phase_stacks[state.phase + 1:])
    return sum(state.turns_before_scoring()) + later * state.n


def _play(args: tuple[list[str], int, str, int, list[int]]) -> dict[str, Any]:
    """Game ``game`` of the tournament, its first ``len(prefix)`` actions replayed; the rest played by ``bots``.
    The result by entry (the first bot first), every action, where each turn start of :data:`SPLITS` fell, and the
    time of each of the first bot's turns."""
    bots, game, rules_text, seed, prefix = args
    start = start_game(bots, game, 2, rules_text, seed, True)
    state, seats, entries = start.state, start.seats, start.entries
    actions = list(prefix)
    for action in prefix:
        state.push(action)
    splits: dict[str, int] = {}
    times: list[list[float]] = []  # the first bot's turns: [turns of the game left, CPU seconds]
    turn: tuple[int, ...] = ()
    left = 0
    while not state.is_over():
        seat = state.current
        if turn_of(state) != turn:
            turn = turn_of(state)
            if state.stage is Stage.TURN:
                left = turns_to_end(state)
                for split in SPLITS:
                    if left <= split:
                        splits.setdefault(str(split), len(actions))
            if entries[seat] == 0:
                times.append([left, 0.0])
        t0 = time.process_time()
        action = seats[seat].choose(state.view(seat))
        if entries[seat] == 0:
            times[-1][1] = round(times[-1][1] + time.process_time() - t0, 4)
        settle()
        state.push(action)
        actions.append(action)
    scores = [state.scores[entries.index(e)] for e in range(2)]
    return {"game": game, "scores": scores, "win": 1.0 if scores[0] > scores[1] else 0.5 if scores[0] == scores[1]
            else 0.0, "times": times, "actions": actions, "splits": splits}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--master", default="master", help="the first bot (default: master)")
    ap.add_argument("--rival", default="exhaustive:nodes=30000:eval=tuned")
    ap.add_argument("--variant", action="append", default=[], help="a bot that plays as --master until at most "
                                                                  "--split turns are left (repeatable)")
    ap.add_argument("--split", type=int, default=4, choices=(*SPLITS, WHOLE),
                    help=f"turns of the game left where the variants start (default 4; {WHOLE}: the whole game)")
    ap.add_argument("--rules", default="riogrande:max_buys=0")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=904)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--check", type=int, default=0, help="games the master plays on from the split, which must "
                                                         "end as they did")
    ap.add_argument("--only", help="comma-separated games: those setups alone (a look at a few games)")
    ap.add_argument("--rows", type=Path, required=True)
    args = ap.parse_args(argv)
    if Rules.from_text(args.rules).max_buys != 0:
        sys.exit("the rules must forbid buying cards (max_buys=0): with cards a setup does not decide a game")
    settings = {"master": args.master, "rival": args.rival, "rules": args.rules, "seed": args.seed}
    share: dict[str, list[int]] = {}
    for g in range(args.games):
        share.setdefault(setup_key(g, 2, args.rules, args.seed), []).append(g)
    firsts = sorted(same[0] for same in share.values())
    if args.only:
        wanted = {int(g) for g in args.only.split(",")}
        firsts = [g for g in firsts if g in wanted]
    counts = {g: len(same) for same in share.values() for g in same[:1]}
    # (bot, the split it started at (0: the game's start), game) → its row
    rows: dict[tuple[str, int, int], dict[str, Any]] = {}
    if args.rows.exists():
        for line in args.rows.read_text().splitlines():
            row = json.loads(line)
            if all(row.get(k) == v for k, v in settings.items()):
                rows[row["bot"], row["split"], row["game"]] = row

    def run(bot: str, split: int, games: list[int], prefix_of: dict[int, list[int]],
            keep: bool = True) -> list[dict[str, Any]]:
        out = []
        with ProcessPoolExecutor(args.jobs, initializer=tune_for_search) as pool:
            work = [([bot, args.rival], g, args.rules, args.seed, prefix_of.get(g, [])) for g in games]
            for row in pool.map(_play, work):
                row = {**row, "bot": bot, "split": split, **settings}
                out.append(row)
                if keep:
                    rows[bot, split, row["game"]] = row
                    with args.rows.open("a") as f:
                        f.write(json.dumps(row) + "\n")
        return out

    run(args.master, 0, [g for g in firsts if (args.master, 0, g) not in rows], {})
    base = {g: rows[args.master, 0, g] for g in firsts}
    prefix_of = {g: [] if args.split == WHOLE else row["actions"][:row["splits"][str(args.split)]]
                 for g, row in base.items()}
    if args.check:
        for row in run(args.master, args.split, firsts[:args.check], prefix_of, keep=False):
            if row["scores"] != base[row["game"]]["scores"]:
                sys.exit(f"game {row['game']} played on from the split ended {row['scores']}, where it ended "
                         f"{base[row['game']]['scores']}: the bots carry something across turns, and the variants' "
                         "figures would not be their tournaments'")
        print(f"{args.check} games played on from the split by the master ended as they did")
    games = sum(counts[g] for g in firsts)
    print(f"{len(firsts)} distinct setups ({games} of the {args.games} games), variants from {args.split} turns left")

    def report(name: str, got: dict[int, dict[str, Any]]) -> None:
        wins = sum(counts[g] * got[g]["win"] for g in firsts)
        margin = sum(counts[g] * (got[g]["scores"][0] - got[g]["scores"][1]) for g in firsts) / games
        low, high = wilson(wins, games)
        line = f"{name}: {wins / games:.1%} [{low:.1%}–{high:.1%}] ({wins:g} of {games}), margin {margin:+.1f}"
        if got is not base:
            up = [g for g in firsts if got[g]["win"] > base[g]["win"]]
            down = [g for g in firsts if got[g]["win"] < base[g]["win"]]
            line += (f"; won where the master lost {sum(counts[g] * (got[g]['win'] - base[g]['win']) for g in up):g}"
                     f" ({len(up)} setups: {up}), lost where it won "
                     f"{sum(counts[g] * (base[g]['win'] - got[g]['win']) for g in down):g} ({len(down)} setups: "
                     f"{down}); {sum(got[g]['scores'] != base[g]['scores'] for g in firsts)} setups ended otherwise")
        slowest = max((t for g in firsts for left, t in got[g]["times"] if left <= args.split), default=0.0)
        print(line + f"; slowest turn from the split on {slowest:.2f} s", flush=True)

    report(args.master, base)
    for bot in args.variant:
        run(bot, args.split, [g for g in firsts if (bot, args.split, g) not in rows], prefix_of)
        report(bot, {g: rows[bot, args.split, g] for g in firsts})


if __name__ == "__main__":
    main()
