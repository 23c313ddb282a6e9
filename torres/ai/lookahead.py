"""Two-ply whole-turn lookahead: the planner's best few turns, each answered by the rivals' planned replies.

In two-player Torres both seats usually race up the same big castle, so what a turn leaves the rival to do next
(a step up it opens or closes, a square it takes first) matters as much as the points it makes. The bot plans its
best ``candidates`` turns with the beam planner, plays each on the same determinization of its view, lets every
other seat answer with its own planned turn (the planner at ``reply_width``, seeing the rival's dealt hand, never
the real one) until the bot is to move again, and plays the turn whose position then evaluates best.
"""

from __future__ import annotations

from ..engine.state import GameState, Stage
from ..engine.view import SeatView
from .evaluate import DEFAULT_WEIGHTS, Weights, evaluate
from .greedy import GreedyBot
from .mcts import play_turn
from .planner import best_single, keep_choice, plan_turn


class LookaheadBot(GreedyBot):
    name = "lookahead"

    def __init__(self, seed: int = 0, width: int = 12, candidates: int = 4, reply_width: int = 4,
                 weights: Weights = DEFAULT_WEIGHTS, budget: int = 0, reply_budget: int = 800) -> None:
        super().__init__(seed, width=width, weights=weights, budget=budget)
        self.candidates = candidates
        self.reply_width = reply_width
        self.reply_budget = reply_budget  # evaluations per simulated reply turn

    def plan(self, view: SeatView) -> list[int]:
        state: GameState = view.determinize(self.rng)
        me = state.current
        plans = plan_turn(state, self.width, self.weights, top=self.candidates, budget=self.budget)
        spent = plans[0].evaluations
        best, best_value = plans[0].actions, float("-inf")
        if len(plans) > 1:
            for plan in plans:
                sim = state.clone()
                play_turn(sim, plan.actions)
                spent += self._replies(sim, me)
                value = evaluate(sim, me, self.weights)
                if value > best_value:
                    best, best_value = plan.actions, value
        self.evaluations += spent
        return best

    def _replies(self, sim: GameState, me: int) -> int:
        """Play the other seats' turns (and any scoring, king move or setup step between) until ``me`` is to
        start a turn again; returns the evaluations spent."""
        spent = 0
        while not sim.is_over() and not (sim.current == me and sim.stage is Stage.TURN):
            if sim.stage is Stage.TURN:
                reply = plan_turn(sim, self.reply_width, self.weights, budget=self.reply_budget)[0]
                spent += reply.evaluations
                play_turn(sim, reply.actions)
            elif sim.stage is Stage.KEEP:
                sim.apply(keep_choice(sim.legal_action_ids()))
            else:
                sim.apply(best_single(sim, self.weights))
        return spent
