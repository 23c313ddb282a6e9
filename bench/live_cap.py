"""How often the live master, its turn capped by the clock as the server caps it (``LIVE_TURN_SECONDS``, 0.8 s),
plays the turn the master plays with no clock: at every turn start of the master's in seeded games.

    .venv/bin/python bench/live_cap.py --games 4 --seed 7
    TORRES_NATIVE=off .venv/bin/python bench/live_cap.py --games 4 --seed 7   # pure, in a checkout with a build

The games are the unclocked bot's (``--bot``, against ``--against``): at each of its turn starts it and a clocked bot
of the same spec are made afresh with the same seed, the clocked one plays the turn on a copy of the state, and the
two turns are compared action for action (a card drawn in the turn is the copy's own draw from the same deck, so the
same actions draw the same cards). The clock is the wall
clock, as the server's bot workers run it: on a slower or busier machine it cuts more turns. Prints the share of
turns played alike, how many clocked turns ran to the clock, and the evaluations a turn of each; it says when the
compiled modules ran (torres/native.py), the measure where they matter most.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from torres import native  # noqa: E402
from torres.ai.base import Bot, make_bot  # noqa: E402
from torres.ai.collector import settle, tune_for_search  # noqa: E402
from torres.ai.greedy import GreedyBot  # noqa: E402
from torres.engine import GameState, Rules  # noqa: E402
from torres.engine.state import Stage  # noqa: E402
from torres.server.bots import LIVE_TURN_SECONDS  # noqa: E402


@dataclass(frozen=True)
class Turn:
    """One turn start: whether the clocked bot played the unclocked one's turn, its wall seconds, and the
    evaluations each spent."""

    alike: bool
    seconds: float
    evaluations: int
    clocked_evaluations: int


def _evaluations(bot: Bot) -> int:
    return int(getattr(bot, "evaluations", 0))


def play_turn(state: GameState, bot: Bot) -> list[int]:
    """The actions ``bot`` plays in the turn of the seat to act, pushed onto ``state``."""
    seat, key = state.current, (state.phase, state.round, state.turn)
    actions = []
    while (not state.is_over() and state.current == seat and state.stage in (Stage.TURN, Stage.KEEP)
           and (state.phase, state.round, state.turn) == key):
        action = bot.choose(state.view(seat))
        settle()
        state.push(action)
        actions.append(action)
    return actions


def live_cap(bot_spec: str, rival_spec: str, games: int, seed: int, seconds: float = LIVE_TURN_SECONDS,
             players: int = 2, edition: str = "riogrande") -> list[Turn]:
    """Every turn start of ``bot_spec``'s in the games (seat rotating), compared with the clocked bot's turn."""
    turns: list[Turn] = []
    for g in range(games):
        state = GameState(players, seed + g, Rules.from_text(edition))
        me = g % players
        bots = [make_bot(bot_spec if s == me else rival_spec, seed * 1000 + g * 10 + s) for s in range(players)]
        while not state.is_over():
            if state.current == me and state.stage in (Stage.TURN, Stage.KEEP):
                # both made afresh with the turn's seed, so that only the clock tells them apart (a bot's draws of
                # the cards it cannot see would otherwise part them once one had drawn more than the other)
                turn_seed = seed * 1000 + g * 10 + me + 100_000 * len(state.history)
                unclocked, clocked = make_bot(bot_spec, turn_seed), make_bot(bot_spec, turn_seed)
                if not isinstance(clocked, GreedyBot):
                    raise SystemExit(f"{bot_spec}: not a planning bot, which the server's clock does not cap")
                clocked.seconds = seconds  # as the server's workers make their bots (torres/server/bots.py)
                started = time.perf_counter()
                theirs = play_turn(state.clone(), clocked)
                took = time.perf_counter() - started
                ours = play_turn(state, unclocked)
                turns.append(Turn(theirs == ours, took, _evaluations(unclocked), _evaluations(clocked)))
            else:
                state.push(bots[state.current].choose(state.view(state.current)))
                settle()
    return turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="master")
    parser.add_argument("--against", default="expert")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=LIVE_TURN_SECONDS, help="the clock of a turn")
    parser.add_argument("--rules", default="riogrande")
    args = parser.parse_args()
    tune_for_search()
    turns = live_cap(args.bot, args.against, args.games, args.seed, args.seconds, args.players, args.rules)
    alike = sum(t.alike for t in turns)
    # (a clocked turn that ran to the clock ends within a node or a simulation of it)
    clocked = sum(t.seconds >= args.seconds * 0.95 for t in turns)
    compiled = ", compiled with mypyc" if native.in_use() else ""
    print(f"{args.bot} clocked at {args.seconds:g} s against itself unclocked, {len(turns)} turn starts in "
          f"{args.games} games against {args.against} ({args.players} players, {args.rules}{compiled})")
    print(f"  the same turn: {alike} of {len(turns)} ({alike / len(turns):.1%}); ran to the clock: {clocked} "
          f"({clocked / len(turns):.1%}); clocked wall s/turn: median {statistics.median(t.seconds for t in turns):.3f}")
    differ = [t.clocked_evaluations for t in turns if not t.alike]
    print(f"  evaluations a turn: unclocked median {statistics.median_low(t.evaluations for t in turns)}, clocked "
          f"{statistics.median_low(t.clocked_evaluations for t in turns)}; "
          + (f"where the turns differ, the clocked median {statistics.median_low(differ)}" if differ
             else "no turn differs"))


if __name__ == "__main__":
    main()
