"""``torres tournament``: seeded games between bots, seats rotated, in parallel processes; win rates with 95%
Wilson intervals, mean scores, thinking time per turn and openskill (Plackett–Luce) ratings.

Thinking time is the deciding process's CPU time (``time.process_time``), not the wall clock: with ``--jobs`` as
many as the cores, or another program running, a wall clock counts the time a process waited for a core, and a
machine's load would change a bot's reported speed (issue #34: a wall-clock maximum of 3.34 s against 0.98 s of
CPU). A bot's turn is the time of all its decisions of one turn (its actions and keeps)."""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import random
import shlex
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..ai.base import Bot, make_bot
from .. import native
from ..ai.collector import settle, tune_for_search
from ..engine.rules import Rules
from ..engine.stage import Stage
from ..engine.state import GameState
from .app import app
from .options import CardsOption, EditionOption, MasterOption, rules_from_options


@dataclass
class GameResult:
    game: int
    entries: list[int]  # the entry (index into the bot list) at each seat
    scores: list[int]  # by seat
    seconds: list[float]  # thinking time by seat
    turns: list[int]  # turns taken by seat
    slowest: list[float]  # the longest single turn by seat
    turn_seconds: list[list[float]] = field(default_factory=list)  # every turn's thinking time, by seat
    phases: list[list[int]] = field(default_factory=list)  # the scores by seat after each phase's scoring
    digest: str = ""  # of every action from the first: two games with the same digest were the same game


#: The decisions before the first turn, which ``--random-setup`` makes at random.
SETUP_STAGES = (Stage.CASTLES, Stage.KNIGHTS, Stage.KING_SETUP)


def draw_setup(state: GameState, rng: random.Random) -> list[int]:
    """Make every decision before the first turn (:data:`SETUP_STAGES`) a random legal one, drawn with ``rng``;
    the actions, in order."""
    actions = []
    while state.stage in SETUP_STAGES:
        action = rng.choice(state.legal_action_ids())
        actions.append(action)
        state.push(action)
    return actions


@dataclass
class GameStart:
    """Game ``game`` of a seed before its first bot decision: the same game for every tool that replays it."""

    state: GameState
    entries: list[int]  # the entry (index into the bot list) at each seat
    seats: list[Bot]  # the bots by seat
    setup: list[int]  # the actions drawn at random before the first turn (``random_setup``)


def set_up(game: int, players: int, rules_text: str, seed: int,
           random_setup: bool = False) -> tuple[GameState, list[int]]:
    """Game ``game`` of a seed before its first turn (with ``random_setup``, after the setup drawn from the game's
    own seed) and the actions drawn."""
    state = GameState(players, seed * 100_003 + game, Rules.from_text(rules_text))
    return state, draw_setup(state, random.Random(seed * 1_000_033 + game)) if random_setup else []


def start_game(bots: list[str], game: int, players: int, rules_text: str, seed: int,
               random_setup: bool = False) -> GameStart:
    """Seat ``s`` is played by entry ``(s + game) % players`` (seats rotate from game to game). With
    ``random_setup`` every decision before the first turn (the master version's castles, the first knights, the
    king) is a random legal one, drawn from the game's own seed."""
    state, setup = set_up(game, players, rules_text, seed, random_setup)
    entries = [(s + game) % players for s in range(players)]
    seats = [make_bot(bots[entries[s]], seed * 1_000_003 + game * 16 + s) for s in range(players)]
    return GameStart(state, entries, seats, setup)


def play_game(bots: list[str], game: int, players: int, rules_text: str, seed: int,
              random_setup: bool = False) -> GameResult:
    """One game (:func:`start_game`), played out."""
    start = start_game(bots, game, players, rules_text, seed, random_setup)
    state, entries, seats = start.state, start.entries, start.seats
    played = hashlib.blake2b(digest_size=8)
    for action in start.setup:
        played.update(action.to_bytes(2, "little"))
    seconds = [0.0] * players
    turns = [0] * players
    turn_seconds: list[list[float]] = [[] for _ in range(players)]
    turn: tuple[int, ...] = ()
    while not state.is_over():
        seat = state.current
        if turn_of(state) != turn:
            turn = turn_of(state)
            turns[seat] += 1
            turn_seconds[seat].append(0.0)
        t0 = time.process_time()
        action = seats[seat].choose(state.view(seat))
        dt = time.process_time() - t0
        settle()
        seconds[seat] += dt
        turn_seconds[seat][-1] += dt
        played.update(action.to_bytes(2, "little"))
        state.push(action)
    slowest = [max(times, default=0.0) for times in turn_seconds]
    return GameResult(game, entries, list(state.scores), seconds, turns, slowest,
                      phases=[list(scoring.after) for scoring in state.scorings], turn_seconds=turn_seconds,
                      digest=f"{entries}:{played.hexdigest()}")


def turn_of(state: GameState) -> tuple[int, ...]:
    """Which turn a decision belongs to: a seat's actions and keeps of one turn of one round and phase. The king
    move or the setup placing that follows a seat's own turn is a turn of its own: counted with it (the seat acts on
    without a change of seat at a phase's end), two turns once showed as one of twice the time (issue #34)."""
    playing = state.stage in (Stage.TURN, Stage.KEEP)
    return (state.current, state.phase, state.round, state.turn, -1 if playing else int(state.stage))


def _run(args: tuple[list[str], int, int, str, int, bool]) -> GameResult:
    return play_game(*args)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Summary:
    labels: list[str]
    games: int = 0
    wins: list[float] = field(default_factory=list)  # a shared first place counts as a fraction
    score_sum: list[float] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    slowest: list[float] = field(default_factory=list)
    median: list[float] = field(default_factory=list)  # the median turn's thinking time
    # the 99th percentile's: beside the slowest, which on a shared machine can be a quiet turn measured in a busy moment
    p99: list[float] = field(default_factory=list)
    mu: list[float] = field(default_factory=list)
    sigma: list[float] = field(default_factory=list)
    results: list[GameResult] = field(default_factory=list)  # by game number
    distinct: int = 0  # games that were not a repeat of another (same seats, same actions)

    def to_json(self) -> dict[str, Any]:
        rows = []
        for i, label in enumerate(self.labels):
            low, high = wilson(self.wins[i], self.games)
            rows.append({
                "bot": label, "wins": self.wins[i], "win_rate": self.wins[i] / max(1, self.games),
                "ci95": [low, high], "mean_score": self.score_sum[i] / max(1, self.games),
                "seconds_per_turn": self.seconds[i] / max(1, self.turns[i]),
                "median_turn": self.median[i] if self.median else 0.0,
                "p99_turn": self.p99[i] if self.p99 else 0.0, "slowest_turn": self.slowest[i],
                "mu": self.mu[i], "sigma": self.sigma[i], "ordinal": self.mu[i] - 3 * self.sigma[i],
            })
        # each game's seats and scores, so that two runs on the same seed can be compared deal by deal
        # (bench/paired.py): game g is the same deal in every run with the same seed; and its slowest turn by seat,
        # so that a slow one can be replayed
        played = [{"game": r.game, "entries": r.entries, "scores": r.scores, "phases": r.phases,
                   "slowest": r.slowest, "digest": r.digest} for r in self.results]
        return {"games": self.games, "distinct_games": self.distinct, "bots": rows, "results": played}


def summarize(bots: list[str], results: list[GameResult]) -> Summary:
    from openskill.models import PlackettLuce

    k = len(bots)
    labels = [b if bots.count(b) == 1 else f"{b}#{bots[:i + 1].count(b)}" for i, b in enumerate(bots)]
    s = Summary(labels, len(results), [0.0] * k, [0.0] * k, [0.0] * k, [0] * k, [0.0] * k)
    model = PlackettLuce()
    ratings = [model.rating(name=label) for label in labels]
    s.results = sorted(results, key=lambda r: r.game)
    s.distinct = len({r.digest for r in s.results})
    for r in s.results:
        best = max(r.scores)
        top = [seat for seat, sc in enumerate(r.scores) if sc == best]
        for seat, entry in enumerate(r.entries):
            if seat in top:
                s.wins[entry] += 1 / len(top)
            s.score_sum[entry] += r.scores[seat]
            s.seconds[entry] += r.seconds[seat]
            s.turns[entry] += r.turns[seat]
            s.slowest[entry] = max(s.slowest[entry], r.slowest[seat])
        teams = [[ratings[entry]] for entry in r.entries]
        rated = model.rate(teams, scores=[float(sc) for sc in r.scores])
        for seat, entry in enumerate(r.entries):
            ratings[entry] = rated[seat][0]
    times = [sorted(t for r in s.results for seat, entry in enumerate(r.entries) if entry == e
                    for t in (r.turn_seconds[seat] if r.turn_seconds else [])) or [0.0] for e in range(k)]
    s.median = [statistics.median(ts) for ts in times]
    s.p99 = [ts[min(len(ts) - 1, int(0.99 * len(ts)))] for ts in times]
    s.mu = [float(x.mu) for x in ratings]
    s.sigma = [float(x.sigma) for x in ratings]
    return s


def run_tournament(bots: list[str], games: int, players: int, rules_text: str, seed: int = 0, jobs: int = 1,
                   progress: Optional[Progress] = None,
                   partial: Optional[Callable[[Summary], None]] = None, random_setup: bool = False,
                   first: int = 0) -> Summary:
    """Play games ``first`` to ``first + games - 1`` of the seed's games (``jobs`` processes); ``partial`` gets
    the summary so far every 10 games."""
    if len(bots) != players:
        raise ValueError(f"{len(bots)} bots for {players} players: give one bot per seat")
    if first < 0:
        raise ValueError(f"--first {first}: the first game's number is 0 or more")
    Rules.from_text(rules_text)  # fail early on a bad edition
    for b in bots:
        make_bot(b)  # ... or a bad bot
    tasks = [(bots, g, players, rules_text, seed, random_setup) for g in range(first, first + games)]
    results: list[GameResult] = []
    task_id = progress.add_task("games", total=games) if progress is not None else None

    def played(result: GameResult) -> None:
        results.append(result)
        if progress is not None and task_id is not None:
            progress.advance(task_id)
        if partial is not None and len(results) % 10 == 0:
            partial(summarize(bots, results))

    if jobs <= 1:
        for t in tasks:
            played(_run(t))
    else:
        ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
        with ctx.Pool(jobs, initializer=tune_for_search) as pool:  # (spawned workers do not inherit it)
            for res in pool.imap_unordered(_run, tasks):
                played(res)
    return summarize(bots, results)


def render(summary: Summary, title: str) -> Table:
    table = Table(title=title)
    table.add_column("bot", no_wrap=True)
    for col in ("win rate", "95% CI", "mean score", "s/turn", "median", "p99", "max", "openskill μ±σ"):
        table.add_column(col, justify="right", no_wrap=True)
    data = summary.to_json()["bots"]
    for row in data:
        low, high = row["ci95"]
        table.add_row(row["bot"], f"{row['win_rate']:.1%}", f"{low:.1%}–{high:.1%}", f"{row['mean_score']:.1f}",
                      f"{row['seconds_per_turn']:.3f}", f"{row['median_turn']:.3f}", f"{row['p99_turn']:.2f}",
                      f"{row['slowest_turn']:.2f}",
                      f"{row['mu']:.1f}±{row['sigma']:.1f}")
    return table


@app.command()
def tournament(
    bots: str = typer.Option(..., help="Comma-separated bots, one per seat, e.g. expert,greedy"),
    games: int = typer.Option(100, min=1, help="Number of games"),
    players: int = typer.Option(2, min=2, max=4, help="Players per game (2–4)"),
    edition: EditionOption = None,
    master: MasterOption = None,
    cards: CardsOption = None,
    seed: int = typer.Option(0, help="Base seed: the same seed replays the same games"),
    jobs: int = typer.Option(1, min=1, help="Parallel processes"),
    json_out: Optional[str] = typer.Option(None, "--json", help="Also write the results as JSON to this file"),
    random_setup: bool = typer.Option(False, "--random-setup", help="Make every decision before the first turn "
                                      "(first knights, king, master castles) at random: without cards a game has "
                                      "no chance at all, and every game between two bots would be the same"),
    first: int = typer.Option(0, help="Play the seed's games from this one on (game numbers start at 0): the "
                              "games a longer run plays there, to finish a stopped match or share one out"),
) -> None:
    """Play seeded games between bots with seats rotated; print win rates, scores, speed and ratings."""
    tune_for_search()
    console = Console(width=max(100, Console().width))
    names = [b.strip() for b in bots.split(",") if b.strip()]
    command = "torres tournament " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if len(sys.argv) > 2 else ""
    try:
        rules_text = rules_from_options(edition, master, cards).to_text()
        if json_out and not Path(json_out).resolve().parent.is_dir():  # known before the games, not after them
            raise ValueError(f"--json {json_out}: no such directory")
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TimeRemainingColumn(), console=console, transient=True) as progress:
            start = time.perf_counter()

            def save(partial: Summary) -> None:
                if json_out:
                    data = partial.to_json()
                    data.update({"players": players, "edition": rules_text, "seed": seed, "first": first,
                                 "partial": True, "random_setup": random_setup,
                                 "wall_seconds": time.perf_counter() - start, "command": command})
                    with open(json_out, "w") as fh:
                        json.dump(data, fh, indent=2)

            summary = run_tournament(names, games, players, rules_text, seed, jobs, progress, save, random_setup,
                                     first)
            wall = time.perf_counter() - start
    except ValueError as exc:
        from rich.markup import escape  # the message is text: 'pip install "torres[env]"' is no markup

        console.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from None
    # deterministic bots in a game without chance replay a game whenever its setup and seats come round again
    repeats = f" ({summary.distinct} distinct)" if summary.distinct < games else ""
    numbers = f" (games {first}–{first + games - 1})" if first else ""
    title = (f"{games} games{numbers}{repeats}, {players} players, {rules_text}, seed {seed}"
             f"{', random setup' if random_setup else ''} ({wall:.0f} s wall"
             f"{', compiled with mypyc' if native.in_use() else ''}; "
             f"s/turn: CPU seconds of a bot's turn)")
    console.print(render(summary, title))
    if command:
        console.print(f"[dim]{command}[/dim]")
    if json_out:
        data = summary.to_json()
        data.update({"players": players, "edition": rules_text, "seed": seed, "first": first,
                     "random_setup": random_setup, "wall_seconds": wall,
                     "command": command})
        with open(json_out, "w") as fh:
            json.dump(data, fh, indent=2)
