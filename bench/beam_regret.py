"""How often the beam planners miss the best turn: their turns against the exhaustive turn search (issue #34).

    .venv/bin/python bench/beam_regret.py --positions 36 --nodes 20000 --jobs 2 --seed 1     # minutes
    .venv/bin/python bench/beam_regret.py --positions 360 --nodes 300000 --jobs 2 --seed 1   # hours
    .venv/bin/python bench/beam_regret.py --positions 252 --nodes 300000 --rows /tmp/regret.jsonl   # resumable
    .venv/bin/python bench/beam_regret.py --position 'torres/1 rules=...' --nodes 0          # one turn's tree

Positions: turn starts of seeded games between experts (every third turn of a seat, spread over the game), in
nine kinds of game: 2, 3 and 4 players, each with the Rio Grande rules (cards bought), with no cards at all
(``riogrande:max_buys=0``) and with a full hand (``riogrande:full_hand=1``: every card from the start, no buying);
``--positions`` are shared evenly among them. At each, the seat's view is dealt once (``view.determinize``) and on
that deal:

* the exhaustive search (:mod:`torres.ai.exhaustive`) finds the best turn under the tuned evaluation and under
  the master's, each stopped after ``--nodes`` positions (0: never; a full 2-player turn is typically a few
  hundred thousand positions and 20–30 s); a search that stops is a lower bound, and its count is reported;
* the expert's planner (width 12, budget 4,000) plans its turn, judged by the tuned evaluation;
* the master's planner (width 48, with its budget for the number of seats, stopped at half as much again) plans its
  turn, and the master (``master``, its look-ahead over that planner's best four turns in 2-player games) chooses
  its turn; both are judged by the master's evaluation.

A turn's loss is the exhaustive value minus its own, in evaluation points (the units of the scoring track), and
never below 0 (where the planner found more than a search that stopped, the planner's turn counts as the best:
its "beat the search" count says how often). The master's chosen turn may lose to the planner's best on purpose
(its look-ahead judges a turn by what follows it), so its loss is not only a miss. Tree sizes are those of the
turn's search: positions merged by the planner's key (what the search expands) and without merging (every
sequence of steps: ``sequences``), both exact only where the search finished.

With ``--rows FILE`` every position's row is appended to FILE (JSON lines) as soon as it is measured, and positions
already in FILE (same kind, index, node limit, seed and settings of the levels) are not measured again: a run of
hours can be stopped and resumed, and the table is printed from every row in FILE. Positions are taken in rounds,
one of each kind per round, so a run stopped early still covers the kinds evenly.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time
import zlib
from dataclasses import asdict, dataclass
from itertools import islice
from typing import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from torres.ai.base import make_bot  # noqa: E402
from torres.ai.collector import tune_for_search  # noqa: E402
from torres.ai.evaluate import DEFAULT_WEIGHTS, MASTER_WEIGHTS, Weights, evaluate  # noqa: E402
from torres.ai.exhaustive import search_turn, weights_evaluator  # noqa: E402
from torres.ai.levels import EXPERT_BUDGET, EXPERT_WIDTH, MASTER_SPEC, MASTER_WIDTH  # noqa: E402
from torres.ai.lookahead import LookaheadBot  # noqa: E402
from torres.ai.planner import keep_choice, plan_turn  # noqa: E402
from torres.ai.samples import turn_starts  # noqa: E402
from torres.engine import GameState  # noqa: E402
from torres.engine.actions import DECODE, Kind  # noqa: E402
from torres.engine.state import Stage  # noqa: E402

#: (label, rules text, players)
KINDS = [(f"{players}p {label}", rules, players) for players in (2, 3, 4)
         for label, rules in (("cards", "riogrande"), ("no cards", "riogrande:max_buys=0"),
                              ("full hand", "riogrande:full_hand=1"))]


def sample_positions(rules: str, players: int, count: int, seed: int) -> list[str]:
    """Positions at turn starts of games between experts: every third turn of each game, from the second on."""
    starts = turn_starts(rules, players, seed * 1000, "expert", every=3, at=2)
    return [state.position() for state in islice(starts, count)]


#: The settings of the levels measured: a row measured with others is not resumed from.
LEVELS = f"{zlib.crc32(f'{EXPERT_WIDTH}:{EXPERT_BUDGET}|{MASTER_SPEC}'.encode()):08x}"


@dataclass
class Row:
    kind: str
    key: str  # which position of the sample: kind, index, node limit, seed and the levels' settings
    nodes: int  # positions the (tuned) search expanded
    sequences: int
    complete: bool
    seconds: float  # CPU seconds of the tuned search
    expert_loss: float
    expert_beat: bool  # the expert's turn was worth more than a search that stopped
    planner_loss: float  # the master's planner
    planner_beat: bool
    master_loss: float  # the master's chosen turn
    master_complete: bool  # the search under the master's evaluation finished


def turn_value(state: GameState, actions: list[int], weights: Weights) -> float:
    """The value for the seat to move of playing ``actions`` (a planned turn; a draw's keep chosen here, as the
    planner would, since the turn was planned on another deal) to its ``end``."""
    seat = state.current
    pushed = 0
    for a in actions:
        if state.stage is Stage.KEEP:
            a = keep_choice(state.legal_action_ids())
        state.push(a)
        pushed += 1
        if DECODE[a][0] is Kind.END:
            break
    value = evaluate(state, seat, weights)
    for _ in range(pushed):
        state.pop()
    return value


Task = tuple[str, str, str, int, int, str]


def measure(task: Task) -> Row:
    kind, rules, position, nodes, seed, key = task
    start = GameState.from_position(position)
    view = start.view(start.current)
    state = view.determinize(random.Random(seed))
    players = state.n
    t0 = time.process_time()
    tuned = search_turn(state, weights_evaluator(DEFAULT_WEIGHTS), nodes=nodes)
    seconds = time.process_time() - t0
    mastered = search_turn(state, weights_evaluator(MASTER_WEIGHTS), nodes=nodes)
    expert = plan_turn(state, EXPERT_WIDTH, DEFAULT_WEIGHTS, budget=EXPERT_BUDGET, limit=EXPERT_BUDGET * 3 // 2)[0]
    master = make_bot("master", seed)
    assert isinstance(master, LookaheadBot)
    _, budget = master.beam(players)
    planner = plan_turn(state, MASTER_WIDTH, MASTER_WEIGHTS, budget=budget, limit=budget * 3 // 2)[0]
    chosen = turn_value(state, master.plan(view), MASTER_WEIGHTS)
    return Row(kind, key, tuned.nodes, tuned.sequences, tuned.complete, seconds,
               max(0.0, tuned.value - expert.value), expert.value > tuned.value + 1e-9,
               max(0.0, mastered.value - planner.value), planner.value > mastered.value + 1e-9,
               max(0.0, max(mastered.value, planner.value) - chosen), mastered.complete)


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def summary(label: str, rows: list[Row], nodes: int) -> str:
    n = len(rows)

    def size(values: list[int], complete: list[bool], p: float) -> str:
        # a search that stopped counts as bigger than every finished one
        ranked = sorted((v if c else float("inf")) for v, c in zip(values, complete))
        v = ranked[min(n - 1, int(p * n))]
        return f">{nodes:,}" if v == float("inf") else f"{int(v):,}"

    def losses(values: list[float]) -> str:
        hits = sum(v <= 1e-9 for v in values)
        return f"{hits / n:.0%} | {statistics.fmean(values):.2f} | {max(values):.1f}"

    complete = [r.complete for r in rows]
    seq = [r.sequences for r in rows]
    merged = [r.nodes for r in rows]
    return (f"| {label} | {n} | {sum(complete)} | {size(merged, complete, 0.5)} / {size(merged, complete, 0.9)} | "
            f"{size(seq, complete, 0.5)} / {size(seq, complete, 0.9)} | "
            f"{statistics.median(r.seconds for r in rows):.1f} | "
            f"{losses([r.expert_loss for r in rows])} | {losses([r.planner_loss for r in rows])} | "
            f"{losses([r.master_loss for r in rows])} | {sum(r.expert_beat for r in rows)}/"
            f"{sum(r.planner_beat for r in rows)} |")


def one_tree(position: str, nodes: int) -> None:
    """The exhaustive search of one position's turn as it stands (its hidden cards as the position gives them)."""
    import resource

    state = GameState.from_position(position)
    t0 = time.process_time()
    found = search_turn(state, weights_evaluator(DEFAULT_WEIGHTS), nodes=nodes)
    seconds = time.process_time() - t0
    print(f"{'finished' if found.complete else 'stopped at the limit'}: {found.nodes:,} positions merged, "
          f"{found.sequences:,} sequences without merging{'' if found.complete else ' (so far)'}, "
          f"{found.evaluations:,} evaluations, depth {found.depth}, value {found.value:.3f}, {seconds:.1f} s CPU, "
          f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


def load_rows(path: str) -> list[Row]:
    try:
        with open(path) as rows:
            return [Row(**json.loads(line)) for line in rows if line.strip()]
    except FileNotFoundError:
        return []


def measure_all(tasks: list[Task], jobs: int) -> Iterator[Row]:
    """Each task's row as soon as it is measured."""
    if jobs > 1:
        with multiprocessing.Pool(jobs, initializer=tune_for_search) as pool:
            yield from pool.imap_unordered(measure, tasks, chunksize=1)
    else:
        yield from map(measure, tasks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=36, help="positions in all, shared by the nine kinds")
    parser.add_argument("--nodes", type=int, default=20000, help="node limit of each exhaustive search (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--rows", help="append each row to this JSON-lines file; resume from the rows in it")
    parser.add_argument("--position", help="only search this position's turn (tuned evaluation) and print its tree")
    args = parser.parse_args()
    if args.position:
        one_tree(args.position, args.nodes)
        return
    per_kind = max(1, args.positions // len(KINDS))
    tasks: list[tuple[int, Task]] = []
    for k, (label, rules, players) in enumerate(KINDS):
        for i, position in enumerate(sample_positions(rules, players, per_kind, args.seed * 10 + k)):
            seed = args.seed * 100_000 + k * 1000 + i
            key = f"{label}#{i} nodes={args.nodes} seed={seed} levels={LEVELS}"
            tasks.append((i, (label, rules, position, args.nodes, seed, key)))
    tasks.sort(key=lambda t: t[0])  # rounds of one position of each kind
    rows = load_rows(args.rows) if args.rows else []
    done = {r.key for r in rows}
    todo = [task for _, task in tasks if task[-1] not in done]
    started = time.perf_counter()
    for row in measure_all(todo, args.jobs):
        rows.append(row)
        if args.rows:
            with open(args.rows, "a") as out:
                out.write(json.dumps(asdict(row)) + "\n")
    wanted = {task[-1] for _, task in tasks}
    rows = [r for r in rows if r.key in wanted]
    print(f"{len(rows)} positions (up to {per_kind} of each kind; {len(todo)} measured now), seed {args.seed}, "
          f"node limit {args.nodes or 'none'}, {time.perf_counter() - started:.0f} s with {args.jobs} process(es)\n")
    print("| positions | n | searches finished | merged positions p50 / p90 | sequences p50 / p90 | "
          "search s (p50) | expert = best | mean loss | worst | master's planner = best | mean loss | worst | "
          "master's turn = best | mean loss | worst | beat a stopped search (expert/planner) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, _, _ in KINDS:
        mine = [r for r in rows if r.kind == label]
        if mine:
            print(summary(label, mine, args.nodes))
    for players in (2, 3, 4):
        mine = [r for r in rows if r.kind.startswith(f"{players}p")]
        if mine:
            print(summary(f"**{players} players**", mine, args.nodes))
    print(summary("**all**", rows, args.nodes))
    unfinished = sum(not r.master_complete for r in rows)
    print(f"\n(the search under the master's evaluation stopped at the limit in {unfinished} of {len(rows)})")


if __name__ == "__main__":
    tune_for_search()
    main()
