"""Whole-turn planning: a beam search over the actions of one turn, scored by the evaluation after ``end``.

A Torres turn is a sequence of ~5 actions (more with the six/seven cards) with 30–150 choices each; the order of
most actions does not matter, so the beam merges transpositions (the same pieces, blocks, points and cards
reached by different orders). Buying a card is planned as "buy, then keep the best card drawn"; since a bought
card cannot be played on the turn it is bought, which card comes does not change the rest of the turn, and the
bot re-plans after the real draw anyway.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable

from mypy_extensions import mypyc_attr

from ..engine.actions import DECODE, KEEP_TABLE, Kind, O_END, O_SCORE
from ..engine.cards import Card
from ..engine.state import GameState, Stage
from .evaluate import DEFAULT_WEIGHTS, Weights, evaluate

#: Which card to keep from a draw, best first (the extra action points are the most flexible).
KEEP_ORDER = (Card.SEVEN, Card.SIX, Card.CLIMB, Card.GATE, Card.LIFT, Card.VAULT, Card.BUILD, Card.DIAGONAL,
              Card.REDEPLOY, Card.SHIFT)
_RANK = {int(c): i for i, c in enumerate(KEEP_ORDER)}

Evaluator = Callable[[GameState, int], float]


def keep_choice(legal: list[int] | tuple[int, ...]) -> int:
    """The keep action: the best card by :data:`KEEP_ORDER`, the next best back on top, the worst below."""
    def key(a: int) -> tuple[int, int, int]:
        keep, top, bottom = KEEP_TABLE[DECODE[a][1]]
        top_rank = _RANK[top[0]] if top else 99
        return (_RANK[keep], top_rank if top else 50 if not bottom else 99, len(top))
    return min(legal, key=key)


@mypyc_attr(native_class=False)  # (a value type: pickled and replaced as dataclasses are)
@dataclass
class Plan:
    actions: list[int]
    value: float
    evaluations: int = 0


def _key(state: GameState, seat: int) -> tuple[object, ...]:
    return (bytes(state.heights), bytes(state.occ), state.ap, state.turn_stack, state.played, state.buys,
            tuple(state.scores), tuple(state.stacks[seat]), state.supply, tuple(state.hands[seat]), state.stage)


def plan_turn(state: GameState, width: int = 6, weights: Weights = DEFAULT_WEIGHTS,
              evaluator: Evaluator | None = None, top: int = 1, sample: int = 0,
              rng: random.Random | None = None, budget: int = 0, limit: int = 0,
              deadline: float = 0.0) -> list[Plan]:
    """The best ``top`` whole turns for the seat to move (each ends with ``end``), best first.

    With ``sample`` > 0 each node looks at only that many of its actions, drawn with ``rng`` (a cheap model of
    another seat's turn inside a search). With ``budget`` > 0, once that many positions have been evaluated each
    further step expands only the best node of the beam: the turn is still planned to its end, at the cost of one
    node's actions per step (this bounds the time of turns with a full hand, where a card offers hundreds of
    plays). With ``limit`` > 0 the search stops once that many positions have been evaluated and the best turn
    found so far is played (its unused action points go to the scoring track); ``deadline`` (a
    ``time.perf_counter()`` value) stops it the same way by the clock, which makes the result depend on the
    machine. ``state`` must be in the TURN stage; it is restored before returning."""
    seat = state.current
    evaluate_fn: Evaluator = evaluator or (lambda s, p: evaluate(s, p, weights))
    finals: dict[tuple[object, ...], Plan] = {}
    beam: list[Plan] = [Plan([], 0.0)]
    seen: set[tuple[object, ...]] = set()
    evaluations = 0
    depth = 0
    stopped = False
    while beam and depth < 16 and not stopped:
        depth += 1
        children: dict[tuple[object, ...], Plan] = {}
        for rank, node in enumerate(beam):
            # (the root is always expanded: a stop then still spends the turn's points rather than ending it bare)
            out_of_time = deadline and time.perf_counter() >= deadline
            if (depth > 1 or rank) and (limit and evaluations >= limit or out_of_time):
                stopped = True
                break
            if budget and rank and evaluations >= budget:
                break
            for a in node.actions:
                state.push(a, check=False)
            legal = state.legal_action_ids()
            # The turn ends here: spend what is left on the scoring track (never worse than stopping).
            tail = [O_SCORE] * state.ap if O_SCORE in legal else []
            for a in tail + [O_END]:
                state.push(a, check=False)
            value = evaluate_fn(state, seat)
            evaluations += 1
            fkey = _key(state, seat)
            old = finals.get(fkey)
            if old is None or value > old.value:
                finals[fkey] = Plan(node.actions + tail + [O_END], value)
            for _ in range(len(tail) + 1):
                state.pop()
            if sample and len(legal) > sample:
                legal = (rng or random).sample(legal, sample)
            for a in legal:
                kind = DECODE[a][0]
                if kind is Kind.END or kind is Kind.SCORE:
                    continue
                pushed = 1
                state.push(a, check=False)
                seq = node.actions + [a]
                if kind is Kind.BUY and state.stage is Stage.KEEP:
                    keep = keep_choice(state.legal_action_ids())
                    state.push(keep, check=False)
                    seq.append(keep)
                    pushed += 1
                key = _key(state, seat)
                if key not in seen:
                    seen.add(key)
                    value = evaluate_fn(state, seat)
                    evaluations += 1
                    children[key] = Plan(seq, value)
                for _ in range(pushed):
                    state.pop()
            for _ in node.actions:
                state.pop()
        beam = sorted(children.values(), key=lambda p: -p.value)[:width]
    plans = sorted(finals.values(), key=lambda p: -p.value)[:top]
    for p in plans:
        p.evaluations = evaluations
    if not plans:
        plans = [Plan([O_END], 0.0, evaluations)]
    return plans


def best_single(state: GameState, weights: Weights = DEFAULT_WEIGHTS, evaluator: Evaluator | None = None) -> int:
    """The legal action whose result evaluates best for the seat to act (one ply; ties: lowest id)."""
    seat = state.current
    legal = state.legal_action_ids()
    if state.stage is Stage.KEEP:
        return keep_choice(legal)
    evaluate_fn: Evaluator = evaluator or (lambda s, p: evaluate(s, p, weights))
    best, best_value = legal[0], float("-inf")
    for a in list(legal):
        state.push(a, check=False)
        value = evaluate_fn(state, seat)
        state.pop()
        if value > best_value:
            best, best_value = a, value
    return best
