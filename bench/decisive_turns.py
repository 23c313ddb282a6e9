"""Where a lost game was lost: each turn the look-ahead judged, played out to the end against the same opponents.

    .venv/bin/python bench/decisive_turns.py --bots master,exhaustive:nodes=30000:eval=tuned \\
        --rules riogrande:max_buys=0 --random-setup --seed 904 --games 0-29 --jobs 2

Game ``g`` of ``torres tournament --seed S`` is replayed as the tournament plays it
(:func:`torres.cli.tournament.start_game`). At each turn start of the first bot (a look-ahead: the master) from
``--phase`` on, the game and every bot are copied. If the first bot lost the game (or with ``--all``), every turn
its look-ahead judged there (``search.stats.candidates``) is played from that copy, and the copied bots finish the
game: the final margin that turn would have led to against these opponents. Turns are taken from the last one
back, and the search back stops at the latest turn where one of the candidates would have won (``--every``: all
of them): that turn, or an earlier one, decided the game, and the margins say whether the look-ahead's choice lost
it (a candidate it ranked lower wins) or its planner did (no candidate wins).

Without cards a game has no chance after its setup, so the margins are what would have happened. With cards, a
candidate's turn is played as the look-ahead's simulations play it (a card drawn is kept by the planner's fixed
order, :func:`torres.ai.mcts.play_turn`) and the deals after it are the game's own deck: one deal, not a
probability. The played turn is replayed by the copied bot itself, and must end as the game did: a check that the
copies play the game the tournament played.
"""

from __future__ import annotations

import argparse
import copy
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from torres.ai.base import Bot  # noqa: E402
from torres.ai.collector import tune_for_search  # noqa: E402
from torres.ai.lookahead import LookaheadBot  # noqa: E402
from torres.ai.mcts import play_turn  # noqa: E402
from torres.cli.tournament import start_game, turn_of  # noqa: E402
from torres.engine import GameState  # noqa: E402
from torres.engine.stage import Stage  # noqa: E402


@dataclass
class Snapshot:
    """A turn start of the first bot, before its first decision."""

    phase: int
    round: int
    state: GameState
    seats: list[Bot]
    candidates: list[tuple[list[int], int, float]] = field(default_factory=list)  # turn, simulations, mean
    played: list[int] = field(default_factory=list)


@dataclass
class TurnOutcomes:
    phase: int
    round: int
    replayed: int  # the final margin when the copied bots play on from the turn's start (== the game's)
    margins: list[int]  # each candidate's final margin, in the look-ahead's order
    means: list[float]  # each candidate's mean simulated outcome (the look-ahead's judgement)
    played: int  # the index of the candidate played (-1: none, the turn was re-planned after a card draw)


@dataclass
class GameOutcome:
    game: int
    seat: int
    margin: int
    turns: list[TurnOutcomes]  # from the last turn back


def margin_of(state: GameState, seat: int) -> int:
    """``seat``'s score minus the best other seat's."""
    return state.scores[seat] - max(s for i, s in enumerate(state.scores) if i != seat)


def play_out(state: GameState, seats: list[Bot]) -> GameState:
    while not state.is_over():
        state.push(seats[state.current].choose(state.view(state.current)))
    return state


def replay(bots: list[str], game: int, rules_text: str, seed: int, random_setup: bool,
           phase: int) -> tuple[int, int, list[Snapshot]]:
    """Game ``game`` played as the tournament plays it: the first bot's seat, its final margin and a snapshot
    of every turn start of it from ``phase`` on."""
    start = start_game(bots, game, len(bots), rules_text, seed, random_setup)
    state, seats = start.state, start.seats
    seat = start.entries.index(0)
    if not isinstance(seats[seat], LookaheadBot) or len(bots) != 2:
        raise SystemExit(f"two bots, the first a look-ahead (the master), not {','.join(bots)}")
    snapshots: list[Snapshot] = []
    turn: tuple[int, ...] = ()
    recording: Snapshot | None = None  # the first bot's turn under way, from a snapshot
    while not state.is_over():
        current = state.current
        if turn_of(state) != turn:
            turn, recording = turn_of(state), None
            if current == seat and state.stage is Stage.TURN and state.phase >= phase \
                    and len(state.legal_action_ids()) > 1:
                recording = Snapshot(state.phase, state.round, state.clone(), copy.deepcopy(seats))
                snapshots.append(recording)
        search = getattr(seats[current], "search", None)
        judged = search.stats if search is not None else None
        action = seats[current].choose(state.view(current))
        if recording is not None:
            if not recording.played:
                if search is None or search.stats is judged:  # (the look-ahead did not run: stale stats)
                    raise SystemExit(f"{bots[0]} did not judge its turn with a look-ahead (2 players only)")
                recording.candidates = [(list(t), visits, mean) for t, visits, mean in search.stats.candidates]
            recording.played.append(action)
        state.push(action)
    return seat, margin_of(state, seat), snapshots


def outcomes(snapshot: Snapshot, seat: int) -> TurnOutcomes:
    replayed = margin_of(play_out(snapshot.state.clone(), copy.deepcopy(snapshot.seats)), seat)
    margins = []
    for actions, _, _ in snapshot.candidates:
        state, seats = snapshot.state.clone(), copy.deepcopy(snapshot.seats)
        play_turn(state, actions)
        margins.append(margin_of(play_out(state, seats), seat))
    turns = [actions for actions, _, _ in snapshot.candidates]
    played = turns.index(snapshot.played) if snapshot.played in turns else -1
    return TurnOutcomes(snapshot.phase, snapshot.round, replayed, margins,
                        [round(mean, 3) for _, _, mean in snapshot.candidates], played)


def analyse(bots: list[str], game: int, rules_text: str, seed: int, random_setup: bool = False, phase: int = 0,
            every: bool = False, all_games: bool = False) -> GameOutcome:
    seat, margin, snapshots = replay(bots, game, rules_text, seed, random_setup, phase)
    result = GameOutcome(game, seat, margin, [])
    if margin > 0 and not all_games:
        return result
    for snapshot in reversed(snapshots):
        turn = outcomes(snapshot, seat)
        result.turns.append(turn)
        if turn.replayed != margin:
            raise RuntimeError(f"game {game}: replayed from phase {turn.phase} round {turn.round} it ended "
                               f"{turn.replayed:+d}, not {margin:+d}: the copies do not play the game played")
        if not every and any(m > 0 for m in turn.margins):
            break
    return result


def _analyse(args: tuple[list[str], int, str, int, bool, int, bool, bool]) -> GameOutcome:
    tune_for_search()
    return analyse(*args)


def parse_games(text: str) -> list[int]:
    """``0-29`` or ``3,7,12`` (or both: ``0-9,15``)."""
    games: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        games.extend(range(int(first), int(last or first) + 1))
    return games


def describe(outcome: GameOutcome) -> list[str]:
    lines = [f"game {outcome.game}: seat {outcome.seat}, margin {outcome.margin:+d}"]
    for turn in outcome.turns:
        shown = ", ".join(f"{'*' if i == turn.played else ''}{m:+d} ({mean:+.2f})"
                          for i, (m, mean) in enumerate(zip(turn.margins, turn.means)))
        lines.append(f"  phase {turn.phase + 1} round {turn.round + 1}: {shown}")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="master,exhaustive:nodes=30000:eval=tuned")
    parser.add_argument("--rules", default="riogrande:max_buys=0")
    parser.add_argument("--seed", type=int, default=904)
    parser.add_argument("--games", default="0-9", help="game numbers: 0-29, or 3,7,12")
    parser.add_argument("--random-setup", action="store_true", help="as torres tournament --random-setup")
    parser.add_argument("--phase", type=int, default=1, help="the first phase whose turns are judged (1-3)")
    parser.add_argument("--every", action="store_true", help="judge every turn, not only back to a winning one")
    parser.add_argument("--all", action="store_true", help="games the first bot won too")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    bots = args.bots.split(",")
    tasks = [(bots, g, args.rules, args.seed, args.random_setup, args.phase - 1, args.every, args.all)
             for g in parse_games(args.games)]
    lost = decided_by_choice = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for outcome in pool.map(_analyse, tasks):
            print("\n".join(describe(outcome)), flush=True)
            if outcome.margin <= 0:
                lost += 1
                decided_by_choice += any(any(m > 0 for m in t.margins) for t in outcome.turns)
    print(f"{len(tasks)} games, {lost} not won by {bots[0]}; in {decided_by_choice} of those a turn its look-ahead "
          f"judged and did not play would have won (from phase {args.phase} on)")


if __name__ == "__main__":
    main()
