"""How well the master's look-ahead ranks the turns it judges, against what each turn leads to, and whether a
reweighting of its leaf's own terms ranks them better.

    .venv/bin/python bench/sibling_turns.py --seed 905 --games 155 --jobs 2 --data /tmp/siblings.jsonl

Games between two bots (``--bots``, the expert by default) without cards (``--rules``), with random setups (the
tournament's own start, ``torres tournament --random-setup``), are played to the end. At every turn start from
``--from`` (phase and round, counted from 1) on, the master's look-ahead judges the turn of the seat to move (where
every deal plays alike it judges up to eight turns). For each turn it judged, the bench records

* the look-ahead's leaf: the position its simulation reaches (the turn, the rival's reply and the seat's own next
  turn) broken into the evaluation's parts for the seat and its rival: the track-score difference, castle points
  as they count at the remaining scorings, the king's bonus, climbing potential and the cards-and-knights term,
  each with the master's weights (so the master's leaf is their sum with the rival's parts negated and its
  climbing potential × ``rival_reach``);
* the turn's own evaluation as the planner found it (the look-ahead's ``prior``);
* the final margin when the turn is played and copies of the game's two bots play on (a game without cards has
  no chance after its setup: the margin is what would happen, with those bots). A leaf at the game's end is the
  final score difference alone, as the evaluation counts it.

Only games where every deal plays alike qualify (no cards: the look-ahead's one simulation of a turn is then the
leaf the bench replays, which it checks).

Sibling turns are then compared within their turn start only (all that the look-ahead does is rank them): a least
squares line fitted to each turn's margin minus its turn start's mean, from its parts minus theirs (a fixed effect
per turn start), on the games before the last ``--held-out`` share; and on the held-out games, for each way of
ranking (the look-ahead's score, its leaf alone, the prior alone, the line, the line beside the prior), the share of
pairs of sibling turns with different margins that it orders as their margins do (ties count half), and the mean
margin lost by its first choice against the best sibling (its *regret*, in points); then the same for the
look-ahead's score, its leaf and its prior by turn start (phase and round, and whether the simulation ends the game).

``--data FILE`` keeps the turn starts (JSON lines; an existing file is read instead of playing again, so the fit can
be rerun), each judged turn with its leaf's position string, on which ``bench/sibling_terms.py`` tries terms the
evaluation does not count. The margins are those of the two bots' own play: a better ranking by them need not be a
better one against another opponent (docs/strength-log.md has what this measured).
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from torres.ai.base import make_bot  # noqa: E402
from torres.ai.collector import tune_for_search  # noqa: E402
from torres.ai.evaluate import MASTER_WEIGHTS, Weights, _best_gains, _board_position, evaluate  # noqa: E402
from torres.ai.lookahead import LookaheadBot  # noqa: E402
from torres.ai.mcts import deals_alike, play_turn  # noqa: E402
from torres.cli.tournament import start_game, turn_of  # noqa: E402
from torres.engine import GameState  # noqa: E402
from torres.engine.stage import Stage  # noqa: E402

PARTS = ("score difference", "castles", "rival castles", "king", "rival king", "potential", "rival potential",
         "cards and knights", "rival cards and knights")


def leaf_parts(state: GameState, seat: int, w: Weights = MASTER_WEIGHTS) -> list[float]:
    """The evaluation of ``state`` for ``seat`` in parts (PARTS), each weighted as the evaluation weighs it for
    its own seat: :func:`master_line` · parts == ``evaluate(state, seat, w)`` (at the game's end, the final
    scores alone)."""
    if state.stage is Stage.OVER:
        return [float(state.scores[seat] - state.scores[1 - seat])] + [0.0] * (len(PARTS) - 1)
    turn, boards, _, current = _board_position(state, w)
    sides = []
    for s in (seat, 1 - seat):
        castles, king, potential, gains, _, _ = boards[s]
        if turn.climbs is not None and turn.climbs[s] < len(gains):
            potential = _best_gains(gains, turn.climbs[s])
        cards = float(sum(state.hands[s]) + (s == current))
        knights = float(turn.per_knights - len(state.knights[s]))
        sides.append((float(state.scores[s]), castles * turn.scorings, w.king * king,
                      w.reach * potential * turn.reach_scorings[s], (w.card * cards + w.reserve * knights) * turn.share))
    own, rival = sides
    return [own[0] - rival[0], own[1], rival[1], own[2], rival[2], own[3], rival[3], own[4], rival[4]]


def master_line(w: Weights = MASTER_WEIGHTS) -> list[float]:
    """The coefficients on PARTS that make the evaluation (2 players, no master card)."""
    return [1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -w.rival_reach, 1.0, -1.0]


def margin_of(state: GameState, seat: int) -> int:
    return state.scores[seat] - state.scores[1 - seat]


def play_out(state: GameState, seats: Sequence[Any]) -> GameState:
    while not state.is_over():
        state.push(seats[state.current].choose(state.view(state.current)))
    return state


def judge(state: GameState, seats: list[Any], master_seed: int) -> dict[str, Any] | None:
    """The turn start ``state``: the turns the master's look-ahead judged, their leaves' parts, priors, the
    look-ahead's score and final margins (None: it judged fewer than two)."""
    seat = state.current
    if not deals_alike(state.view(seat)):
        raise SystemExit("every deal must play alike (a game without cards: --rules ...:max_buys=0)")
    master = make_bot("master", master_seed)
    assert isinstance(master, LookaheadBot)
    search = master.search
    judged: dict[str, Any] = {}
    paired = search._paired

    def spy(view: Any, plans: Any, *args: Any, **kwargs: Any) -> Any:
        judged["plans"] = list(plans)
        return paired(view, plans, *args, **kwargs)

    search._paired = spy  # type: ignore[method-assign]
    chosen = master.plan(state.view(seat))
    plans = judged.get("plans")
    if not plans or len(plans) < 2:
        return None
    means = {tuple(actions): mean for actions, _, mean in search.stats.candidates}
    turns = []
    for plan in plans:
        leaf = state.clone()
        simulated = search.simulate(leaf, plan, seat)  # (the simulation plays on the state it is given)
        parts = leaf_parts(leaf, seat)
        # the look-ahead saw the same leaf: every deal plays alike, and its first round plays every turn judged
        if not math.isclose(simulated, means[tuple(plan.actions)], abs_tol=1e-9):
            raise RuntimeError("the leaf replayed is not the one the look-ahead judged")
        played = state.clone()
        play_turn(played, plan.actions)
        final = margin_of(play_out(played, copy.deepcopy(seats)), seat)
        turns.append({"parts": parts, "leaf": evaluate(leaf, seat, MASTER_WEIGHTS),
                      "prior": math.tanh(plan.value / search.scale), "score": simulated
                      + search.prior * math.tanh(plan.value / search.scale), "margin": final,
                      "played": plan.actions == chosen, "position": leaf.position()})
    return {"phase": state.phase, "round": state.round, "seat": seat, "turns": turns}


def play(args: tuple[list[str], int, str, int, tuple[int, int]]) -> list[dict[str, Any]]:
    """Game ``game``'s turn starts from ``first`` (phase, round, from 0) on, judged."""
    bots, game, rules_text, seed, first = args
    tune_for_search()
    start = start_game(bots, game, 2, rules_text, seed, random_setup=True)
    state, seats = start.state, start.seats
    starts = []
    turn: tuple[int, ...] = ()
    while not state.is_over():
        if turn_of(state) != turn:
            turn = turn_of(state)
            if state.stage is Stage.TURN and (state.phase, state.round) >= first and len(state.legal_action_ids()) > 1:
                judged = judge(state, seats, seed * 7919 + game * 131 + state.phase * 17 + state.round * 3
                               + state.current)
                if judged is not None:
                    starts.append({"game": game, **judged})
        state.push(seats[state.current].choose(state.view(state.current)))
    return starts


Scorer = Callable[[list[dict[str, Any]], np.ndarray], Sequence[float]]


def within_fit(starts: list[dict[str, Any]], ridge: float = 1.0) -> np.ndarray:
    """The line on PARTS fitted to sibling turns' margins, each turn start's means taken out."""
    xs, ys = [], []
    for start in starts:
        x = np.array([t["parts"] for t in start["turns"]], float)
        y = np.array([t["margin"] for t in start["turns"]], float)
        xs.append(x - x.mean(0))
        ys.append(y - y.mean())
    x, y = np.vstack(xs), np.concatenate(ys)
    return np.linalg.solve(x.T @ x + ridge * np.eye(x.shape[1]), x.T @ y)


def concordance(starts: list[dict[str, Any]], scorer: Scorer) -> tuple[float, int, float]:
    """The share of sibling pairs with different margins the scorer orders as the margins (ties half), how many
    pairs, and the mean regret of its first choice (ties among first choices: their mean margin)."""
    agree = 0.0
    pairs = 0
    regrets = []
    for start in starts:
        turns = start["turns"]
        margins = np.array([t["margin"] for t in turns], float)
        values = np.asarray(scorer(turns, np.array([t["parts"] for t in turns], float)), float)
        for i in range(len(turns)):
            for j in range(i + 1, len(turns)):
                if margins[i] != margins[j]:
                    pairs += 1
                    d = (values[i] - values[j]) * (margins[i] - margins[j])
                    agree += 1.0 if d > 0 else 0.5 if d == 0 else 0.0
        first = np.isclose(values, values.max())
        regrets.append(margins.max() - margins[first].mean())
    return agree / max(1, pairs), pairs, float(np.mean(regrets)) if regrets else 0.0


def split(starts: list[dict[str, Any]], held_out: float) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """The turn starts whose turns' margins differ, of the games before the last ``held_out`` share (to fit on) and
    of those (to measure on), and the first held-out game."""
    games = sorted({s["game"] for s in starts})
    cut = games[int(len(games) * (1 - held_out))] if games else 0
    spread = [s for s in starts if len({t["margin"] for t in s["turns"]}) > 1]
    return [s for s in spread if s["game"] < cut], [s for s in spread if s["game"] >= cut], cut


def report(starts: list[dict[str, Any]], held_out: float) -> None:
    games = sorted({s["game"] for s in starts})
    train, test, cut = split(starts, held_out)
    spread = train + test
    line = within_fit(train)
    reference = np.array(master_line())
    # the master's leaf on the margin's scale (its slope within turn starts), so that the line can stand beside
    # the prior as the leaf does
    x = np.vstack([np.array([t["parts"] for t in s["turns"]]) - np.mean([t["parts"] for t in s["turns"]], 0)
                   for s in train])
    y = np.concatenate([np.array([t["margin"] for t in s["turns"]]) - np.mean([t["margin"] for t in s["turns"]])
                        for s in train])
    slope = float((x @ reference) @ y / ((x @ reference) @ (x @ reference)))
    on_scale = slope if slope > 0 else 1.0  # (a leaf that ranks backwards has no scale to borrow)
    print(f"{len(games)} games, {len(starts)} turn starts ({len(spread)} whose turns' margins differ); fitted on "
          f"{len(train)} of games before {cut}, measured on {len(test)}")
    print(f"the master's leaf within turn starts: slope {slope:.3f} points of margin per point of evaluation")
    print("part | the line | the master's leaf")
    for name, fitted, master in zip(PARTS, line, reference):
        print(f"{name} | {fitted:+.3f} | {master:+.3f}")
    scale = 25.0
    scorers: dict[str, Scorer] = {
        "the look-ahead's score (leaf and prior)": lambda turns, _: [t["score"] for t in turns],
        "its leaf alone": lambda turns, _: [t["leaf"] for t in turns],
        "the prior alone": lambda turns, _: [t["prior"] for t in turns],
        "the line": lambda _, parts: parts @ line,
        "the line beside the prior": lambda turns, parts: [math.tanh(v / on_scale / scale) + t["prior"]
                                                           for v, t in zip(parts @ line, turns)],
    }
    print("ranking | held out: pairs ordered as their margins | regret (points) | fitted games: pairs | regret")
    for name, scorer in scorers.items():
        held, pairs, regret = concordance(test, scorer)
        fitted, _, fitted_regret = concordance(train, scorer)
        print(f"{name} | {held:.3f} of {pairs} | {regret:.2f} | {fitted:.3f} | {fitted_regret:.2f}")
    print("by turn start, all games (phase, round; leaves at the game's end: all, some, none) | turn starts | pairs "
          "ordered and regret: the look-ahead's score | its leaf | the prior")
    kinds: dict[tuple[int, int, str], list[dict[str, Any]]] = {}
    for start in spread:
        ended = [at_end(t["parts"]) for t in start["turns"]]
        kinds.setdefault((start["phase"] + 1, start["round"] + 1,
                          "all" if all(ended) else "some" if any(ended) else "none"), []).append(start)
    for (phase, rnd, ended_text), starts_of_kind in sorted(kinds.items()):
        cells = [concordance(starts_of_kind, scorers[name]) for name in list(scorers)[:3]]
        print(f"{phase}, {rnd}; {ended_text} | {len(starts_of_kind)} | "
              + " | ".join(f"{agree:.3f}, {regret:.2f}" for agree, _, regret in cells))


def at_end(parts: Sequence[float]) -> bool:
    """Whether a leaf's parts are those of the game's end (:func:`leaf_parts`: the score difference alone)."""
    return not any(parts[1:])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="expert,expert")
    parser.add_argument("--rules", default="riogrande:max_buys=0")
    parser.add_argument("--seed", type=int, default=905)
    parser.add_argument("--games", type=int, default=155)
    parser.add_argument("--from", dest="first", default="2,3", help="phase,round (from 1): the first turn starts")
    parser.add_argument("--held-out", type=float, default=0.25)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--data", help="JSON lines of the turn starts: read if it exists, else written")
    args = parser.parse_args(argv)
    data = Path(args.data) if args.data else None
    source = f"{args.bots}, {args.rules}, --seed {args.seed}"
    if data is not None and data.exists():
        starts = [json.loads(line) for line in data.read_text().splitlines() if line]
        source = f"the turn starts in {data} (the options that played them are not checked)"
    else:
        first = tuple(int(n) - 1 for n in args.first.split(","))
        tasks = [(args.bots.split(","), g, args.rules, args.seed, first) for g in range(args.games)]
        starts = []
        with ProcessPoolExecutor(args.jobs) as pool:
            for game in pool.map(play, tasks):
                starts.extend(game)
        if data is not None:
            data.write_text("".join(json.dumps(s) + "\n" for s in starts))
    print(source)
    report(starts, args.held_out)


if __name__ == "__main__":
    main()
