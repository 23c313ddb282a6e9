"""Greedy bots: the best next action (one ply), or the best whole turn (a beam search over the turn)."""

from __future__ import annotations

import time

from ..engine.state import GameState, Stage
from ..engine.view import SeatView
from .base import Bot
from .evaluate import DEFAULT_WEIGHTS, Weights
from .planner import best_single, keep_choice, plan_turn


class TurnPlanningBot(Bot):
    """Plans a whole turn, hands it out one action at a time, and re-plans when the view is not the one it
    expected (a card draw, or a turn it did not plan)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._plan: list[int] = []
        self._expect = -1  # len(view.history) at which the next planned action is due

    def choose(self, view: SeatView) -> int:
        legal = view.legal
        if len(legal) == 1:
            self._plan = []
            return legal[0]
        if view.stage is Stage.KEEP:
            self._plan = []
            return keep_choice(legal)
        if view.stage is Stage.TURN:
            if self._plan and self._expect == len(view.history) and self._plan[0] in legal:
                return self._hand_out()
            # (a copy: the turn handed out is popped, and the plan may be the search's own record of its candidates)
            self._plan = list(self.plan(view))
            if self._plan and self._plan[0] in legal:
                self._expect = len(view.history)
                return self._hand_out()
            self._plan = []
        return self.other(view)

    def _hand_out(self) -> int:
        action = self._plan.pop(0)
        self._expect += 1
        return action

    def plan(self, view: SeatView) -> list[int]:
        """A sequence of actions from this view, normally the whole turn."""
        raise NotImplementedError

    def other(self, view: SeatView) -> int:
        """A decision outside a turn (setup, king move, start player): the best one-ply evaluation."""
        return best_single(view.determinize(self.rng))


class OneStepBot(Bot):
    """Beginner: each action is the one that looks best right now (one ply of the evaluation), no plan."""

    name = "onestep"

    def __init__(self, seed: int = 0, weights: Weights = DEFAULT_WEIGHTS) -> None:
        super().__init__(seed)
        self.weights = weights

    def choose(self, view: SeatView) -> int:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        return best_single(view.determinize(self.rng), self.weights)


class GreedyBot(TurnPlanningBot):
    """Plans its whole turn (all its action points, cards included) with a beam search against the evaluation."""

    name = "greedy"

    def __init__(self, seed: int = 0, width: int = 4, weights: Weights = DEFAULT_WEIGHTS, budget: int = 0,
                 seconds: float = 0.0) -> None:
        super().__init__(seed)
        self.width = width
        self.budget = budget  # evaluations per turn, shared by the re-plans after card draws (0: no limit)
        self.weights = weights
        self.evaluations = 0
        # a wall-clock cap per turn for live play (0: none); with it, the bot's turns depend on the machine
        self.seconds = seconds
        self._turn: tuple[int, int, int] = (-1, -1, -1)
        self._spent = 0
        self._deadline = 0.0

    def plan(self, view: SeatView) -> list[int]:
        state: GameState = view.determinize(self.rng)
        turn = (view.phase, view.round, view.turn)
        if turn != self._turn:
            self._turn, self._spent = turn, 0
            self._deadline = time.perf_counter() + self.seconds if self.seconds else 0.0
        # the budget is soft (past it, only the best node of each step is expanded); half as much again is a hard
        # stop, for the turn as a whole, re-plans after card draws included
        width, total = self.beam(view.players)
        budget, limit = self.stops(total)
        plans = plan_turn(state, width, self.weights, budget=budget, limit=limit, deadline=self._deadline)
        self.evaluations += plans[0].evaluations
        self._spent += plans[0].evaluations
        return plans[0].actions

    def stops(self, total: int) -> tuple[int, int]:
        """The soft budget and the hard stop (0: none) of the plan about to be made, ``total`` being the turn's
        evaluations and :attr:`_spent` what its plans so far took."""
        if not total:
            return 0, 0
        return max(1, total - self._spent), max(1, total * 3 // 2 - self._spent)

    def beam(self, players: int) -> tuple[int, int]:
        """The planner's beam width and evaluations per turn in a game of ``players``."""
        return self.width, self.budget
