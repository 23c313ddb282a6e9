"""Hints: the best turn the strongest bot finds for a seat within a short budget, and what it expects."""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from ..engine.actions import DECODE, Kind, format_action
from ..engine.state import GameState, Stage
from ..engine.view import SeatView
from .evaluate import evaluate, seat_values
from .greedy import GreedyBot
from .levels import HINT_LEVEL, build_bot
from .lookahead import LookaheadBot
from .mcts import ISMCTSBot
from .planner import Plan, best_single, keep_choice, plan_turn

#: How many turns a hint lists (the suggestion and the runners-up of the strongest level's planner).
ALTERNATIVES = 5


def hint_planner(seed: int = 0) -> GreedyBot:
    """The planner whose turns hints suggest: the strongest level's (:data:`~torres.ai.levels.HINT_LEVEL`)."""
    bot = build_bot(HINT_LEVEL, seed)
    if not isinstance(bot, GreedyBot):
        raise TypeError(f"hints need a whole-turn planner, and {HINT_LEVEL} is not one")
    return bot


@dataclass(frozen=True)
class Alternative:
    actions: tuple[str, ...]
    visits: int  # deals it was simulated on
    expected: float  # the mean outcome of this turn after the rivals' replies, in points ahead of them


@dataclass(frozen=True)
class Hint:
    """The suggested turn (or single decision, outside a turn) for ``seat``."""

    seat: int
    actions: tuple[str, ...]  # in notation, the first one is to be played now; "keep ?" after a buy: see the draw
    action_ids: tuple[int, ...]  # the plan on one deal (a planned keep there is only an example: ask again)
    value: float  # the evaluation right after the suggested turn: points ahead of the rivals (negative: behind)
    expected: float  # what the search expects after the rivals' replies, in the same units
    projected: tuple[float, ...]  # per seat after the suggested turn: points banked plus points in sight
    iterations: int
    seconds: float
    alternatives: tuple[Alternative, ...] = field(default=())

    def text(self) -> str:
        head = " ".join(self.actions) if self.actions else "(nothing to do)"
        return (f"{head}    [evaluation {self.value:+.1f}, expected after replies {self.expected:+.1f}; "
                f"{self.iterations} simulations in {self.seconds:.2f} s]")


def hint(state_or_view: GameState | SeatView, seat: int | None = None, budget: float = 1.0,
         iterations: int = 0, seed: int = 0) -> Hint:
    """The strongest level's suggestion for ``seat`` (default: the seat to act): the turn its planner chooses,
    with the runners-up; for each, the outcome after the rivals' replies, simulated on ``iterations`` deals (or as
    many as ``budget`` seconds allow; with ``iterations`` the hint is deterministic for the seed).

    A :class:`GameState` is first reduced to ``seat``'s view, so a hint never uses hidden information."""
    if isinstance(state_or_view, GameState):
        if seat is None:
            seat = state_or_view.current
        view = state_or_view.view(seat)
    else:
        view = state_or_view
        if seat is not None and seat != view.seat:
            raise ValueError(f"this is seat {view.seat}'s view, not seat {seat}'s")
    if view.stage is Stage.OVER:
        raise ValueError("the game is over")
    if view.current != view.seat:
        raise ValueError(f"seat {view.seat} is not to act (seat {view.current} is)")
    start = time.perf_counter()
    rng = random.Random(seed)
    planner = hint_planner(seed)
    weights = planner.weights
    if view.stage is not Stage.TURN:
        state = view.determinize(rng)
        action = keep_choice(list(view.legal)) if view.stage is Stage.KEEP else best_single(state, weights)
        state.push(action)
        value = evaluate(state, view.seat, weights)
        return Hint(view.seat, (format_action(action),), (action,), value, value,
                    tuple(seat_values(state, weights)), 0, time.perf_counter() - start)
    # The suggestion is the level's own turn (its beam planner, and the master's look-ahead over it, capped by
    # the budget's clock unless iterations are given); the simulated replies only tell the player how each
    # considered turn tends to fare, on the same deals for every turn (common random numbers).
    root = view.determinize(rng)
    width, evaluations = planner.beam(view.players)
    # (the runners-up stop where the level's own planner would: at its hard stop, and by the hint's clock when
    # there is one; a full hand of cards at the master's width could otherwise take seconds)
    plans = plan_turn(root, width, weights, top=ALTERNATIVES, budget=evaluations, limit=evaluations * 3 // 2,
                      deadline=0.0 if iterations > 0 else start + budget)
    plan = plans[0].actions
    if isinstance(planner, LookaheadBot):
        planner.seconds = 0.0 if iterations > 0 else budget
        plan = planner.plan(view)
        plans = [Plan(plan, 0.0)] + [p for p in plans if p.actions != plan][:ALTERNATIVES - 1]
    simulator = ISMCTSBot(seed, weights=weights)
    totals = [0.0] * len(plans)
    done = 0
    while len(plans) > 1:
        if iterations > 0:
            if done >= iterations:
                break
        elif done and time.perf_counter() - start >= budget:
            break
        deal = view.determinize(rng)
        for i, p in enumerate(plans):
            totals[i] += simulator.simulate(deal.clone(), p, view.seat)
        done += 1
    state = view.determinize(rng)
    for a in plan:
        if a not in state.legal_action_ids():
            break
        state.push(a)
    value = evaluate(state, view.seat, weights)
    alternatives = tuple(
        Alternative(_text(p.actions), done, _points(totals[i] / done, simulator.scale) if done else float("nan"))
        for i, p in enumerate(plans))
    expected = alternatives[0].expected if done else value
    return Hint(view.seat, _text(plan), tuple(plan), value, expected,
                tuple(seat_values(state, weights)), done * len(plans), time.perf_counter() - start, alternatives)


def _text(actions: list[int]) -> tuple[str, ...]:
    """Notation; a keep planned after a buy is shown as ``keep ?`` (which cards come is not known yet)."""
    return tuple("keep ?" if DECODE[a][0] is Kind.KEEP else format_action(a) for a in actions)


def _points(mean_reward: float, scale: float) -> float:
    """Back from the search's squashed reward (tanh of points / scale) to points."""
    clipped = max(-0.999999, min(0.999999, mean_reward))
    return scale * math.atanh(clipped)
