"""Mine the puzzles of torres/data/puzzles.json from self-play (docs/puzzles.md).

    nice -n 10 .venv/bin/python scripts/mine_puzzles.py            # the file shipped: --games 140

Game ``g`` has 2 + g mod 3 players (Rio Grande rules, own decks of cards) and seed ``SEED + g``; every seat plays
the expert's turn (the expert level's planner, torres.ai.puzzles.expert_turn: on the full position, which plans as on
the seat's view, since the evaluation counts hidden cards by number only); decisions outside turns are an expert
bot's. At every seat's turn start a cheap first look (worth_checking) picks the positions the master's planner
judges (check_position); those that pass are puzzles. A puzzle is "missed" when the seat's turn in the game scored
more than SOLVED_WITHIN below the solution. The file is written after every game, so the output of ``--games N``
does not depend on how long the run took; it is the same on every run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from torres.ai.levels import build_bot  # noqa: E402
from torres.ai.puzzles import (MARGIN, SOLVED_WITHIN, TOP, Puzzle, check_position, expert_turn,  # noqa: E402
                                load_puzzles, make_puzzle, master_weights, worth_checking)
from torres.ai.analysis import turn_value  # noqa: E402
from torres.engine.state import GameState, Stage  # noqa: E402

SEED = 35_000
OUT = ROOT / "torres" / "data" / "puzzles.json"


def mine_game(game: int) -> list[Puzzle]:
    players = 2 + game % 3
    state = GameState(players, SEED + game)
    expert = build_bot("expert", SEED * 10 + game)  # (the decisions outside turns: setup, keeps, the king)
    weights = master_weights()
    found: list[Puzzle] = []
    turn = 0
    key = None
    while not state.is_over():
        now = (state.phase, state.round, state.turn)
        if state.stage is not Stage.TURN or now == key:
            state.push(expert.choose(state.view(state.current)))
            continue
        key = now
        seat = state.current
        start = state.clone()
        natural = expert_turn(start)
        for action in natural:
            state.push(action)
        if worth_checking(start, natural):
            check = check_position(start, natural_turn=natural)
            if check.is_puzzle:
                missed = turn_value(state, seat, weights) < check.value - SOLVED_WITHIN
                found.append(make_puzzle(start, check, f"{players}p-{game:03d}-{turn:02d}", missed,
                                         f"{players}:{game}:{turn}"))
        turn += 1
    return found


def write(puzzles: list[Puzzle], games: int, out: Path) -> None:
    doc = {"format": "torres-puzzles", "version": 1, "seed": SEED, "games": games, "margin": MARGIN,
           "solved_within": SOLVED_WITHIN, "top": TOP, "puzzles": [p.to_json() for p in puzzles]}
    out.write_text(json.dumps(doc, indent=0, separators=(",", ":")) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=140, help="games to mine (140 make the file shipped)")
    parser.add_argument("--out", type=Path, default=OUT, help=f"where to write them (default {OUT.relative_to(ROOT)})")
    parser.add_argument("--resume", action="store_true",
                        help="keep the games --out already holds (mined by this code) and mine the rest (each game "
                             "is mined on its own, so the file is the one a run from the first game writes)")
    args = parser.parse_args()
    puzzles: list[Puzzle] = []
    first = 0
    if args.resume and args.out.exists():
        doc = json.loads(args.out.read_text(encoding="utf-8"))
        if (doc["seed"], doc["margin"], doc["solved_within"], doc["top"]) != (SEED, MARGIN, SOLVED_WITHIN, TOP):
            parser.error(f"{args.out} was mined with other settings: mine it again without --resume")
        puzzles, first = load_puzzles(str(args.out)), doc["games"]
    t0 = time.process_time()
    for game in range(first, args.games):
        puzzles += mine_game(game)
        seconds = time.process_time() - t0
        write(puzzles, game + 1, args.out)
        print(f"game {game + 1}/{args.games}: {len(puzzles)} puzzles, {seconds:.0f} s CPU", flush=True)


if __name__ == "__main__":
    main()
