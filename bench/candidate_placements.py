"""How alike the turns are that the master's look-ahead judges: where its planner's best turns leave the pieces.

    .venv/bin/python bench/last_turns.py --seed 904 --games 400 --jobs 2 --rows /tmp/last-904.jsonl   # the games
    .venv/bin/python bench/candidate_placements.py --rows /tmp/last-904.jsonl --games 12 --every 3

Without cards the master's look-ahead judges its planner's best turns by value (up to ``known_candidates`` of them).
This replays the master's games that ``bench/last_turns.py`` kept, and at every ``--every``-th turn start (counting
both seats' turns) that is the master's, plans that turn with the master's own planner settings, as its look-ahead
does, and counts in how many distinct placements of the knights and the king its best turns leave the board: one
means they are all one plan with the blocks placed otherwise (docs/strength-log.md, "Candidates that leave the
pieces otherwise").
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from torres.ai import make_bot  # noqa: E402
from torres.ai.lookahead import LookaheadBot  # noqa: E402
from torres.ai.planner import plan_turn  # noqa: E402
from torres.cli.tournament import start_game  # noqa: E402
from torres.engine import GameState  # noqa: E402
from torres.engine.stage import Stage  # noqa: E402


def placements(state: GameState, bot: LookaheadBot) -> int:
    """In how many placements of the knights and the king the best turns ``bot``'s look-ahead would judge here
    leave the board (``state``: a turn start, restored)."""
    search = bot.search
    plans = plan_turn(state, search.width, search.weights, top=max(search.known_candidates, search.candidates),
                      budget=search.budget, limit=search.limit)
    seen: set[bytes] = set()
    for plan in plans:
        for action in plan.actions:
            state.push(action, check=False)
        seen.add(bytes(state.occ))
        for _ in plan.actions:
            state.pop()
    return len(seen)


def game_counts(row: dict[str, Any], every: int) -> list[int]:
    """The counts at the master's sampled turn starts of one kept game (the master is the row's first bot)."""
    spec = row["master"]
    start = start_game([spec, row["rival"]], row["game"], 2, row["rules"], row["seed"], True)
    state, entries = start.state, start.entries
    bot = make_bot(spec)
    if not isinstance(bot, LookaheadBot):
        raise SystemExit(f"{spec!r} is not a look-ahead bot: it judges no candidate turns")
    counts, turn, starts = [], None, 0
    for action in row["actions"]:
        key = (state.phase, state.round, state.turn, state.current)
        if state.stage is Stage.TURN and key != turn:
            turn = key
            starts += 1
            if entries[state.current] == 0 and starts % every == 0:
                counts.append(placements(state, bot))
        state.push(action)
    return counts


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=Path, required=True, help="bench/last_turns.py's rows")
    ap.add_argument("--games", type=int, default=12, help="the first this many of the master's kept games")
    ap.add_argument("--every", type=int, default=3, help="every this many turn starts (both seats' counted)")
    args = ap.parse_args(argv)
    rows = [json.loads(line) for line in args.rows.read_text().splitlines()]
    games = [r for r in rows if r["bot"] == r["master"] and r["split"] == 0][:args.games]
    if not games:
        raise SystemExit(f"{args.rows} holds no game of the master's")
    counts = [c for row in games for c in game_counts(row, args.every)]
    spread = Counter(counts)
    print(f"{len(counts)} of the master's turn starts in {len(games)} games: its best turns leave the knights and "
          f"the king in a median of {statistics.median(counts):g} placements (mean {statistics.mean(counts):.2f}); "
          + ", ".join(f"{k}: {spread[k]}" for k in sorted(spread)))


if __name__ == "__main__":
    main()
