"""Information-set Monte Carlo tree search over whole turns (Cowling et al. 2012; whole-turn moves after
Justesen et al. 2017).

The root's moves are whole turns: the beam search of :mod:`torres.ai.planner` proposes the best few distinct
turns on one determinization. Each iteration deals a fresh determinization from the seat's view (so the unseen
cards differ from one iteration to the next and only what the seat knows is fixed), picks a candidate turn by
UCB1, plays it, plays the following turns (``horizon`` of them, or up to the coming phase scoring) with greedy
whole-turn plans on the same determinization (the information set of the opponents is sampled, never read),
and scores the result with the evaluation. The turn with the most visits is played.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from ..engine.actions import DECODE, O_END, Kind
from ..engine.state import GameState, Stage
from ..engine.view import SeatView
from .evaluate import DEFAULT_WEIGHTS, Weights, evaluate
from .greedy import TurnPlanningBot
from .planner import Plan, best_single, keep_choice, plan_turn


@dataclass
class SearchStats:
    """What the last search did (for hints and benchmarks)."""

    iterations: int = 0
    seconds: float = 0.0
    evaluations: int = 0  # of the root's beam
    candidates: list[tuple[list[int], int, float]] = field(default_factory=list)  # plan, visits, mean reward
    simulated: int = 0  # evaluations of the simulated turns' planners


def play_turn(state: GameState, actions: list[int]) -> None:
    """Apply a planned turn on a (different) determinization: a ``keep`` is re-chosen from the cards actually
    drawn there, and the plan stops early if an action is not legal there."""
    seat = state.current
    for a in actions:
        if state.is_over():
            return
        if state.stage is Stage.KEEP:
            state.apply(keep_choice(state.legal_action_ids()))
            if DECODE[a][0] is Kind.KEEP:
                continue
        if a not in state.legal_action_ids():
            break
        state.apply(a)
        if a == O_END:
            return
    # the plan broke off: finish the turn
    while state.stage in (Stage.TURN, Stage.KEEP) and state.current == seat and not state.is_over():
        if state.stage is Stage.KEEP:
            state.apply(keep_choice(state.legal_action_ids()))
        else:
            state.apply(O_END)
            return


def deals_alike(view: SeatView) -> bool:
    """Whether every deal of what ``view`` cannot see plays alike: nothing is unseen (the master version, a full
    hand), or no card is held and none can be bought (a game without cards)."""
    return not view.unseen_cards() or (view.rules.max_buys == 0 and not any(view.hand_sizes))


class ISMCTSBot(TurnPlanningBot):
    """Search bot: UCB1 over candidate whole turns, each iteration on a fresh determinization, the following
    seats replying with greedy whole turns, the evaluation at the leaf."""

    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int = 0, seconds: float = 1.0, candidates: int = 6,
                 width: int = 6, reply_width: int = 1, horizon: int = 1, to_scoring: bool = False,
                 c: float = 0.7, scale: float = 25.0, weights: Weights = DEFAULT_WEIGHTS,
                 paired: bool = False, sample: int = 24, budget: int = 0, reply_budget: int = 0,
                 prior: float = 0.0, limit: int = 0, known_candidates: int = 0, turn_limit: int = 0) -> None:
        super().__init__(seed)
        self.iterations = iterations  # > 0: a fixed number of iterations (deterministic); else the time budget
        self.seconds = seconds
        self.candidates = candidates
        self.width = width
        self.reply_width = reply_width
        self.horizon = horizon  # how many following turns (of any seat, its own included) each iteration plays
        self.to_scoring = to_scoring  # ... or: play on until the coming phase scoring is done
        self.c = c
        self.scale = scale
        self.weights = weights
        self.sample = sample  # actions looked at per step of a simulated turn (0: all)
        self.paired = paired  # successive halving on shared deals instead of UCB1
        # evaluations (soft, as the greedy bot's; 0: no limit) of the root's beam and of each simulated turn
        self.budget = budget
        self.reply_budget = reply_budget
        # the root's beam stops there (0: at half as much again as its budget, as the greedy bot's)
        self.limit = limit or budget * 3 // 2
        # (paired only) the weight of a turn's own evaluation, as the root's beam found it, beside its simulations'
        self.prior = prior
        # Where no hidden card can come into play, every deal is the game itself: the one simulation of a turn is
        # not one deal's luck, so choosing among more turns costs no winner's curse (with cards, the best 8 turns
        # on one deal each won no more often than the best 4, docs/strength-log.md). Then up to
        # ``known_candidates`` turns are judged, as many as keep the root's and the simulations' evaluations
        # within ``turn_limit`` (never fewer than ``candidates``; the master's is its soft budget, so that a turn
        # with a full hand, whose planning takes most of it, does not take longer than before).
        self.known_candidates = known_candidates
        self.turn_limit = turn_limit
        # a clock time (time.perf_counter()) after which no new simulation starts (0: none; live play only)
        self.deadline = 0.0
        self.stats = SearchStats()
        self.simulations = 0
        self._simulated = 0  # the current search's simulated turns' evaluations

    def plan(self, view: SeatView) -> list[int]:
        start = time.perf_counter()
        self._simulated = 0
        root = view.determinize(self.rng)
        alike = deals_alike(view)
        more = alike and self.known_candidates > self.candidates
        plans = plan_turn(root, self.width, self.weights, top=self.known_candidates if more else self.candidates,
                          budget=self.budget, limit=self.limit, deadline=self.deadline)
        if more and self.turn_limit:
            affordable = (self.turn_limit - plans[0].evaluations) // self.simulation_cost()
            plans = plans[:max(self.candidates, affordable)]
        if len(plans) == 1:
            self.stats = SearchStats(0, time.perf_counter() - start, plans[0].evaluations,
                                     [(plans[0].actions, 0, 0.0)])
            return plans[0].actions
        visits = [0] * len(plans)
        totals = [0.0] * len(plans)
        done = 0
        if self.paired:
            done, best = self._paired(view, plans, visits, totals, start, alike)
        else:
            while True:
                if self.iterations > 0:
                    if done >= self.iterations:
                        break
                elif done >= len(plans) and time.perf_counter() - start >= self.seconds:
                    break
                if done < len(plans):
                    i = done
                else:
                    log_n = math.log(done)
                    i = max(range(len(plans)), key=lambda j: totals[j] / visits[j]
                            + self.c * math.sqrt(log_n / visits[j]))
                state = view.determinize(self.rng)
                reward = self.simulate(state, plans[i], view.seat)
                visits[i] += 1
                totals[i] += reward
                done += 1
            best = max(range(len(plans)), key=lambda j: (visits[j], totals[j] / max(1, visits[j])))
        self.simulations += done
        self.stats = SearchStats(done, time.perf_counter() - start, plans[0].evaluations,
                                 [(p.actions, visits[j], totals[j] / max(1, visits[j]))
                                  for j, p in enumerate(plans)], self._simulated)
        return plans[best].actions

    def simulation_cost(self) -> int:
        """The most evaluations one candidate's simulation can take (each simulated turn's hard stop)."""
        return max(1, self.horizon * (self.reply_budget * 3 // 2))

    def _paired(self, view: SeatView, plans: list[Plan], visits: list[int], totals: list[float],
                start: float, alike: bool = False) -> tuple[int, int]:
        """Successive halving with common random numbers: every surviving turn is played on the same
        determinizations, so the comparison between turns is not drowned by the luck of the deal; after each
        round the worse half is dropped (down to two). Rounds go on until the budget is spent. A turn's score is
        its simulations' mean plus ``prior`` times its own value as the root's beam found it, on the same scale.
        ``alike``: every deal plays alike (:func:`deals_alike`), so a round cut short by the clock still compares
        the turns it played."""
        alive = list(range(len(plans)))
        done = 0
        deadline = self.deadline

        def score(j: int) -> float:
            return totals[j] / visits[j] + self.prior * math.tanh(plans[j].value / self.scale)

        while True:
            if self.iterations > 0 and done + len(alive) > self.iterations and done >= len(plans):
                break
            if self.iterations <= 0 and done >= len(plans) and time.perf_counter() - start >= self.seconds:
                break
            deal = view.determinize(self.rng)
            rewards = []
            for i in alive:
                if deadline and time.perf_counter() >= deadline:
                    break
                rewards.append(self.simulate(deal.clone(), plans[i], view.seat))
            cut = len(rewards) < len(alive)
            # Out of time: a round compares the turns on one deal, so a partial one is dropped -- unless every deal
            # plays alike, where the turns played so far are compared as they are.
            if cut and not (alike and rewards):
                break
            alive = alive[:len(rewards)]
            for i, reward in zip(alive, rewards):
                visits[i] += 1
                totals[i] += reward
                done += 1
            if cut:
                break
            if len(alive) > 2:
                alive.sort(key=lambda j: -score(j))
                alive = alive[:max(2, (len(alive) + 1) // 2)]
            if self.iterations > 0 and done >= self.iterations:
                break
        if not done:  # (out of time before a whole round: the planner's best)
            return 0, 0
        return done, max(alive, key=score)

    def simulate(self, state: GameState, plan: Plan, seat: int) -> float:
        phase = state.phase
        play_turn(state, plan.actions)
        turns = 0
        while not state.is_over():
            if state.stage is Stage.TURN:
                if self.to_scoring:
                    if state.phase != phase:
                        break
                elif turns >= self.horizon:
                    break
                reply = plan_turn(state, self.reply_width, self.weights, sample=self.sample, rng=self.rng,
                                  budget=self.reply_budget, limit=self.reply_budget * 3 // 2)[0]
                self._simulated += reply.evaluations
                play_turn(state, reply.actions)
                turns += 1
            else:
                state.apply(best_single(state, self.weights))
        return math.tanh(evaluate(state, seat, self.weights) / self.scale)
