"""How long a bot thinks per turn: every turn of seeded games, timed from its first action to its last.

    .venv/bin/python bench/turn_times.py --bot master --against expert --games 20 --seed 7
    .venv/bin/python bench/turn_times.py --bot master --against expert --games 4 --rules riogrande:full_hand=1

A turn's time is the thinking time of all the bot's ``choose`` calls in that turn (the whole-turn planners plan
at the first call and re-plan after a card draw), measured with the CPU-time clock of this process
(``time.process_time``), so that other load on the machine does not inflate it, and with the wall clock beside
it. One process, one core; the seats alternate between games. Prints the median, the 90th and 99th percentiles and
the slowest turns, with the position of the slowest one so that it can be looked at (``torres hint
--position``), and, for a bot that counts its evaluations, how many a turn took and what each cost: a turn is slow
because it evaluates more positions, or because each costs more.

The process runs with the collector thresholds every searching process of torres uses
(:mod:`torres.ai.collector`), and freezes what outlives each decision as they do (``settle``); ``--default-gc``
keeps Python's defaults, ``--gc-thresholds`` sets others and ``--no-settle`` leaves the survivors to the collector,
to measure what each costs. It prints the collections during the games and the longest one's CPU time.
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from torres import native  # noqa: E402
from torres.ai.base import make_bot  # noqa: E402
from torres.ai.collector import settle, tune_for_search  # noqa: E402
from torres.engine import GameState, Rules  # noqa: E402
from torres.engine.state import Stage  # noqa: E402


def turn_times(bot_spec: str, rival_spec: str, games: int, seed: int, players: int = 2,
               edition: str = "riogrande", settling: bool = True) -> list[tuple[float, float, str, int]]:
    """(CPU seconds, wall seconds, position at the turn's start, evaluations) of every turn of ``bot_spec`` (the
    evaluations its ``evaluations`` counter adds in the turn; 0 for a bot without one)."""
    out: list[tuple[float, float, str, int]] = []
    for g in range(games):
        state = GameState(players, seed + g, Rules.from_text(edition))
        me = g % players
        bots = [make_bot(bot_spec if s == me else rival_spec, seed * 1000 + g * 10 + s) for s in range(players)]
        turn_key = None
        cpu = wall = 0.0
        start = ""
        counted = 0
        while not state.is_over():
            seat = state.current
            view = state.view(seat)
            if seat == me and state.stage in (Stage.TURN, Stage.KEEP):
                key = (state.phase, state.round, state.turn)
                if key != turn_key:
                    if turn_key is not None:
                        out.append((cpu, wall, start, getattr(bots[me], "evaluations", 0) - counted))
                    turn_key, cpu, wall, start = key, 0.0, 0.0, state.position()
                    counted = getattr(bots[me], "evaluations", 0)
                c0, w0 = time.process_time(), time.perf_counter()
                action = bots[seat].choose(view)
                cpu += time.process_time() - c0
                wall += time.perf_counter() - w0
            else:
                action = bots[seat].choose(view)
            if settling:  # as the tournament and the server's bot workers do after each decision
                settle()
            state.push(action)
        if turn_key is not None:
            out.append((cpu, wall, start, getattr(bots[me], "evaluations", 0) - counted))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="master")
    parser.add_argument("--against", default="expert")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rules", default="riogrande", help="the edition and settings, e.g. riogrande:full_hand=1")
    parser.add_argument("--default-gc", action="store_true", help="keep Python's garbage-collector thresholds")
    parser.add_argument("--gc-thresholds", help="the collector's thresholds to measure instead, e.g. 100000,50,100")
    parser.add_argument("--no-settle", action="store_true",
                        help="leave what outlives each decision in the collector's sight (no collector.settle)")
    args = parser.parse_args()
    if args.gc_thresholds:
        gc.set_threshold(*(int(t) for t in args.gc_thresholds.split(",")))
    elif not args.default_gc:
        tune_for_search()
    before = [generation["collections"] for generation in gc.get_stats()]
    longest, started = [0.0], [0.0]

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.process_time()
        else:
            longest[0] = max(longest[0], time.process_time() - started[0])
    gc.callbacks.append(timed)
    times = turn_times(args.bot, args.against, args.games, args.seed, args.players, args.rules,
                       settling=not args.no_settle)
    gc.callbacks.remove(timed)
    collections = [after["collections"] - b for after, b in zip(gc.get_stats(), before)]
    cpu = sorted(t[0] for t in times)
    wall = sorted(t[1] for t in times)

    def pct(values: list[float], p: float) -> float:
        return values[min(len(values) - 1, int(p * len(values)))]

    print(f"{args.bot} against {args.against}: {len(times)} turns in {args.games} games ({args.players} players, "
          f"{args.rules}{', compiled with mypyc' if native.in_use() else ''}), collector thresholds "
          f"{gc.get_threshold()}")
    for name, values in (("CPU", cpu), ("wall", wall)):
        print(f"  {name:>4} s/turn: median {statistics.median(values):.3f}, p90 {pct(values, 0.9):.3f}, "
              f"p99 {pct(values, 0.99):.3f}, slowest {values[-1]:.3f} (next {', '.join(f'{v:.2f}' for v in values[-4:-1])})")
    slowest = max(times)
    if slowest[3]:  # (why a turn is slow: more evaluations, or dearer ones)
        costs = sorted(t[0] / t[3] * 1e6 for t in times if t[3])
        print(f"  evaluations a turn: median {statistics.median_low(t[3] for t in times)}; CPU µs an evaluation: "
              f"median {statistics.median(costs):.1f}, p90 {pct(costs, 0.9):.1f}; the slowest turn "
              f"{slowest[3]} evaluations, {slowest[0] / slowest[3] * 1e6:.1f} µs each")
    print(f"  slowest turn starts at: {slowest[2]}")
    print(f"  peak memory of the process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB, "
          f"collections during the games by generation: {collections}, the longest {longest[0]:.3f} s of CPU")


if __name__ == "__main__":
    main()
