"""The master's search: a whole-turn planner proposes its best few turns, and each is judged by what follows it —
the rival's reply and the bot's own next turn — on the same few deals of the cards it cannot see. (The master's
planner is the expert's, four times as wide and with six times the evaluations: the look-ahead over it wins far
more often than over the expert's own, docs/strength-log.md.)

A turn that looks best when it ends can look worse once the rival has answered it; judged after the rival's reply
alone, the bot would favour turns that leave the rival little, since its own next turn is not played (that
two-ply look-ahead lost in docs/strength-log.md). So every candidate is followed by two whole turns, the rival's and
its own, each planned by the width-4 planner with an evaluation budget, and scored by the evaluation. The
candidates meet on shared deals (common random numbers) and the worse half is dropped after each deal
(successive halving, :meth:`~torres.ai.mcts.ISMCTSBot._paired`), so the deal's luck does not decide. A turn's
score is its simulations' mean plus ``prior`` times its own evaluation as the planner found it (on the same
``tanh`` scale), a hedge against the errors of the simulated turns' model of the game. The master's is 1, the
setting its weights were tuned in (docs/strength-log.md). The search itself is :class:`~torres.ai.mcts.ISMCTSBot`
with those settings; this class makes it a level: a :class:`~torres.ai.greedy.GreedyBot` (its planner settings,
the live clock cap, hints) that plays the planner's own turn in games of more than ``players`` players, where the
look-ahead did not pay and more evaluations (``many_budget``, and ``many_width``) pay instead; ``four_budget`` sets
the budget of 4-player games apart, where each evaluation costs more.
The look-ahead runs once per turn: after a card draw, the planner re-plans the rest of the turn with what is left
of the turn's evaluation budget, as the expert does, and past it finishes the turn one node a step. With
``seconds`` (live play), the clock runs per turn: the planner stops by it as the greedy bot does, and no simulation
starts after it has run out (a deal cut short is not counted).
"""

from __future__ import annotations

import time

from ..engine.view import SeatView
from .evaluate import DEFAULT_WEIGHTS, Weights
from .greedy import GreedyBot
from .mcts import ISMCTSBot


class LookaheadBot(GreedyBot):
    """The planner's best ``candidates`` turns, each followed by the next ``horizon`` turns on shared deals
    (successive halving, ``simulations`` in all); the best on average is played, its own evaluation counted
    ``prior`` times beside the simulations' mean."""

    name = "lookahead"

    def __init__(self, seed: int = 0, width: int = 12, weights: Weights = DEFAULT_WEIGHTS, budget: int = 4000,
                 seconds: float = 0.0, candidates: int = 4, simulations: int = 8, reply_width: int = 4,
                 reply_budget: int = 800, horizon: int = 2, players: int = 2, prior: float = 0.0,
                 many_width: int = 0, many_budget: int = 0, four_budget: int = 0, known_candidates: int = 0,
                 known_limit: int = 0, limit: int = 0) -> None:
        super().__init__(seed, width=width, weights=weights, budget=budget, seconds=seconds)
        self.players = players
        # the planner's settings in games of more than ``players`` players (0: ``width`` and ``budget``)
        self.many_width, self.many_budget = many_width or width, many_budget or budget
        # ... and in 4-player games (0: ``many_budget``): there an evaluation weighs four seats' terms, so the same
        # count takes longer (issue #34: 43 µs against 30 µs with 3 players)
        self.four_budget = four_budget or self.many_budget
        # By default a turn's evaluations stop where the planner's alone would (half as much again as its budget),
        # the simulated turns' included: the most they can take is kept from the root's beam, never below its soft
        # budget (issue #34: its simulations took a quarter of the slowest turns' time on top of the planner's hard
        # stop). With the budget as the stop, though, no room is left to finish a turn past the budget: with a full
        # hand of cards the beam's second step alone passes it, and the turns found are an action or two and points
        # on the scoring track. ``limit`` sets the root's stop instead: the master's budget is 18,000 and its stop
        # 27,000, which finishes those turns (how often it wins: docs/strength-log.md).
        self.simulated = simulated = simulations * horizon * (reply_budget * 3 // 2)
        self.search = ISMCTSBot(seed, iterations=simulations, candidates=candidates, width=width,
                                reply_width=reply_width, horizon=horizon, weights=weights, paired=True, sample=0,
                                budget=budget, reply_budget=reply_budget, prior=prior,
                                limit=limit or max(budget, budget * 3 // 2 - simulated),
                                known_candidates=known_candidates, turn_limit=known_limit or budget)
        self.search.rng = self.rng  # one stream for the search and the decisions outside turns
        self._looked: tuple[int, int, int] | None = None  # the turn the look-ahead chose (None: none yet)

    def beam(self, players: int) -> tuple[int, int]:
        if players > self.players:
            return self.many_width, self.four_budget if players >= 4 else self.many_budget
        return self.width, self.budget

    def stops(self, total: int) -> tuple[int, int]:
        if self._looked != self._turn:
            return super().stops(total)
        # A re-plan after a card draw finishes the turn the look-ahead chose: within what is left of the turn's
        # budget, then one node a step, never cut short (a hard stop there could end a turn that had taken its
        # budget after one more action; in 200 games against the expert it never changed a move).
        return max(1, total - self._spent), 0

    def plan(self, view: SeatView) -> list[int]:
        if view.players > self.players:
            return super().plan(view)
        turn = (view.phase, view.round, view.turn)
        if turn == self._turn:
            # a re-plan after a card draw: the look-ahead chose the turn, the planner finishes it (with what is
            # left of the turn's budget and clock) -- a second look-ahead would double the turn's thinking
            return super().plan(view)
        self._turn = self._looked = turn
        self._deadline = self.search.deadline = time.perf_counter() + self.seconds if self.seconds else 0.0
        actions = self.search.plan(view)
        # (a re-plan after a card draw has what is left of the turn's evaluations once the simulations' are kept)
        # (more turns judged where deals play alike: one simulation each, which may pass ``simulations``)
        judged = len(self.search.stats.candidates) * self.search.simulation_cost()
        self._spent = self.search.stats.evaluations + max(self.simulated, judged)
        self.evaluations += self.search.stats.evaluations + self.search.stats.simulated
        return actions
