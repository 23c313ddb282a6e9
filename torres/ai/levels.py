"""The named bots and the strength ladder: beginner, casual, strong, expert (and the building blocks)."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any, Callable

from .base import Bot, RandomBot
from .evaluate import EVALUATIONS, Weights
from .greedy import GreedyBot, OneStepBot
from .lookahead import LookaheadBot
from .mcts import ISMCTSBot

Factory = Callable[[int, dict[str, str]], Bot]


def _int(opts: dict[str, str], key: str, default: int) -> int:
    return int(opts.pop(key, default))


def _float(opts: dict[str, str], key: str, default: float) -> float:
    return float(opts.pop(key, default))


def _weights(opts: dict[str, str]) -> Weights:
    """The evaluation named by ``eval`` (default ``tuned``), with any of its weights overridden by name; ``many``
    names the evaluation of 3–4-player games, and ``many_<weight>`` overrides one of its weights. Either makes
    those the weights of 3–4-player games with any rules, and a 2-player weight overridden makes those the weights
    of 2-player games with any rules (the evaluation's weights for some rules only are dropped), so a spec means the
    same whatever the game's rules."""
    weights = _named_evaluation(opts.pop("eval", "tuned"))
    named = "many" in opts
    many = _named_evaluation(opts.pop("many")) if named else weights.many
    many_changes = _weight_changes(opts, "many_")
    changes = _weight_changes(opts)
    two_changes = bool(changes)
    if many_changes:
        many = replace(many or weights, **many_changes)
    if many is not weights.many:
        changes["many"] = many
    if (named or many_changes) and weights.many_by_rules:
        changes["many_by_rules"] = ()
    if two_changes and weights.two_by_rules:
        changes["two_by_rules"] = ()
    return replace(weights, **changes) if changes else weights


def _weight_changes(opts: dict[str, str], prefix: str = "") -> dict[str, Any]:
    """The weights ``opts`` sets (each key: ``prefix`` + a weight's name), taken out of ``opts``."""
    changes: dict[str, Any] = {}
    for f in fields(Weights):
        if f.name not in ("many", "many_by_rules", "two_by_rules") and prefix + f.name in opts:
            changes[f.name] = (int if f.type in (int, "int") else float)(opts.pop(prefix + f.name))
    return changes


def _named_evaluation(name: str) -> Weights:
    try:
        return EVALUATIONS[name]
    except KeyError:
        raise ValueError(f"unknown evaluation {name!r} (evaluations: {', '.join(EVALUATIONS)})") from None


def _random(seed: int, opts: dict[str, str]) -> Bot:
    return RandomBot(seed)


def _onestep(seed: int, opts: dict[str, str]) -> Bot:
    return OneStepBot(seed, weights=_weights(opts))


def _greedy(seed: int, opts: dict[str, str]) -> Bot:
    return GreedyBot(seed, width=_int(opts, "width", 4), weights=_weights(opts), budget=_int(opts, "budget", 0),
                     seconds=_float(opts, "seconds", 0.0))


def _lookahead(seed: int, opts: dict[str, str]) -> Bot:
    return LookaheadBot(seed, width=_int(opts, "width", 12), weights=_weights(opts), budget=_int(opts, "budget", 4000),
                        seconds=_float(opts, "seconds", 0.0), candidates=_int(opts, "candidates", 4),
                        simulations=_int(opts, "simulations", 8), reply_width=_int(opts, "reply_width", 4),
                        reply_budget=_int(opts, "reply_budget", 800), horizon=_int(opts, "horizon", 2),
                        players=_int(opts, "players", 2), prior=_float(opts, "prior", 0.0),
                        many_width=_int(opts, "many_width", 0), many_budget=_int(opts, "many_budget", 0),
                        four_budget=_int(opts, "four_budget", 0), known_candidates=_int(opts, "known_candidates", 0),
                        known_limit=_int(opts, "known_limit", 0), limit=_int(opts, "limit", 0))


def _ismcts(seed: int, opts: dict[str, str]) -> Bot:
    return ISMCTSBot(seed, iterations=_int(opts, "iterations", 0), seconds=_float(opts, "time", 1.0),
                     candidates=_int(opts, "candidates", 6), width=_int(opts, "width", 6),
                     reply_width=_int(opts, "reply_width", 1), horizon=_int(opts, "horizon", 1),
                     to_scoring=bool(_int(opts, "to_scoring", 0)), c=_float(opts, "c", 0.7),
                     paired=bool(_int(opts, "paired", 0)), sample=_int(opts, "sample", 24),
                     budget=_int(opts, "budget", 0), reply_budget=_int(opts, "reply_budget", 0),
                     prior=_float(opts, "prior", 0.0), weights=_weights(opts))


def _policy(seed: int, opts: dict[str, str]) -> Bot:
    """``policy:module=M[:name=N]`` seats an environment policy (docs/research.md). torres.env builds those seats
    and registers its factory in place of this one when it is imported (the CLI imports it for a ``policy:``
    seat); torres.ai imports nothing above it, so without torres.env this can only say what is missing."""
    raise ValueError('a "policy:" seat needs the research environment: pip install "torres[env]", and import '
                     "torres.env before building the bot (torres tournament does)")


def register_factory(name: str, factory: Factory) -> None:
    """Let a layer above torres.ai build the bots named ``name`` (torres.env registers ``policy``)."""
    FACTORIES[name] = factory


def _exhaustive(seed: int, opts: dict[str, str]) -> Bot:
    # the full-width yardstick of issue #34, not a level (docs/strength.md, "The exhaustive yardstick"); imported
    # when asked for, since it imports this module's weights
    from .exhaustive import build

    return build(seed, opts)


FACTORIES: dict[str, Factory] = {
    "ismcts": _ismcts,
    "random": _random,
    "onestep": _onestep,
    "greedy": _greedy,
    "lookahead": _lookahead,
    "policy": _policy,
    "exhaustive": _exhaustive,
}

#: The expert's beam width: strength grew from width 4 to 12 but not from 12 to 24 (twice the time) in the
#: screening matches of docs/strength-log.md; 12 keeps the mean turn under half a second.
EXPERT_WIDTH = 12
#: The expert's evaluations per turn (soft; a hard stop at 1.5 times as many): most turns need fewer (median
#: ~2,700 over ten games), but turns with a full hand, where a card offers hundreds of plays at every step, took
#: up to 10,000 and several seconds.
EXPERT_BUDGET = 4000

#: The master's planner, which proposes the turns its look-ahead judges in 2-player games and plays its own turn
#: with 3–4 players: four times the expert's width, and the evaluations to keep that width to the end of most
#: turns. Neither alone pays: the look-ahead over the turns of a planner as wide with twice the expert's
#: evaluations, or as narrow as the expert's with twelve times, won no more than over the expert's planner; both
#: together won far more, with 2 players as with 4 (docs/strength-log.md, "A wider planner"). In 2-player games the
#: look-ahead's time bounds them at four and a half times the expert's: twelve times won no more than six, and with
#: both cores busy six times (a hard stop at 36,000 evaluations, the simulations' included) took 1.2–1.4 s of CPU in
#: the slowest turns where the issue allows 1 s; four and a half won no less over 320 games (issue #34). A hard stop
#: half as much again above it (``MASTER_LIMIT``) lets a turn past the budget be finished one node a step: with the
#: stop at the budget a full hand's turns (500-800 plays at the first step) ended after an action or two with points
#: on the scoring track. Finished on a lower budget, 12,000 stopped at 18,000, they won 80.3% of the goal's 1,000
#: deals; on this one, 85.3% (+5.0 ± 2.9 points paired), the slowest turn of the issue's 40 games 0.85-0.93 s of CPU
#: (docs/strength-log.md, "Turns a full hand cuts short" and "A full hand's turns finished on the master's whole
#: budget"). With 3–4 players twelve times won most, but their slowest turns took 1.3–1.5 s of CPU on an idle core:
#: with 4 players from what each evaluation costs (43 µs), with 3 from how many there were (48,000 at 30 µs). So
#: each seat count has its own: with 4 players 16,000 won as many of the 4-player goal's 1,000 deals (54.5%, twelve
#: times 53.9%); with 3 players 24,000 won 52.5% of 400 deals where twelve times won 52.2% (+0.3 ± 1.3 points
#: paired; docs/strength-log.md, "A budget for each number of seats").
MASTER_WIDTH = 48
MASTER_BUDGET = 18000
MASTER_LIMIT = 27000
MASTER_THREE_BUDGET = 24000
MASTER_FOUR_BUDGET = 16000
#: The deals the look-ahead plays its four candidate turns on: one (the second and third, on which only the
#: better two were played again, changed few choices and cost the time the wider planner needs).
MASTER_SIMULATIONS = 4
#: The turns the look-ahead judges where no hidden card can come into play (a game without cards, every card
#: known): there one deal is the game itself, and judging the planner's best 8 instead of 4 won 92.5% instead of
#: 72.5% of the same 40 games against the full-width search without cards, 81.8% of 400 new ones (issue #34,
#: docs/strength-log.md).
MASTER_KNOWN_CANDIDATES = 8
#: ... as many of them as keep the turn within this many evaluations, the planner's included (where deals play
#: alike the planner is cheap, without cards, or takes 18,000-27,000, with a full hand: there it leaves 4).
MASTER_KNOWN_LIMIT = 24000

#: The master: its planner proposes its best four turns (eight where no hidden card can come into play), each
#: followed by the rival's reply and the bot's own next turn on a shared deal (torres.ai.lookahead), all with the
#: master evaluation, whose 2-player weights were tuned by play inside this look-ahead (scripts/tune_spsa.py); a
#: turn's score counts the planner's own value of it once beside its simulation (``prior=1``, the setting the
#: weights were tuned in). With more players it plays the planner's turn, with the expert's weights.
#: docs/strength.md has its matches.
MASTER_SPEC = (f"lookahead:width={MASTER_WIDTH}:budget={MASTER_BUDGET}:limit={MASTER_LIMIT}"
               f":simulations={MASTER_SIMULATIONS}"
               f":eval=master:prior=1:many_budget={MASTER_THREE_BUDGET}:four_budget={MASTER_FOUR_BUDGET}"
               f":known_candidates={MASTER_KNOWN_CANDIDATES}:known_limit={MASTER_KNOWN_LIMIT}")

#: The ladder: level name → the spec it stands for.
LEVELS: dict[str, str] = {
    "beginner": "onestep:eval=basic",
    "casual": "greedy:eval=basic",
    "strong": "greedy:width=1",
    "expert": f"greedy:width={EXPERT_WIDTH}:budget={EXPERT_BUDGET}",
    "master": MASTER_SPEC,
}
#: The level whose turns hints suggest (the strongest; it must be a whole-turn planner).
HINT_LEVEL = "master"


def bot_names() -> list[str]:
    return list(LEVELS) + list(FACTORIES)


def build_bot(spec: str, seed: int = 0) -> Bot:
    """``name[:key=value[:key=value...]]``, e.g. ``expert:seconds=0.5``; a level name stands for its spec, and
    settings given override the level's."""
    name, _, args = spec.strip().partition(":")
    opts: dict[str, str] = {}
    if name in LEVELS:
        base, _, base_args = LEVELS[name].partition(":")
        name = base
        args = ":".join(a for a in (base_args, args) if a)
    for item in args.split(":"):
        if item:
            key, eq, value = item.partition("=")
            if not eq:
                raise ValueError(f"bad bot setting {item!r} in {spec!r} (expected key=value)")
            opts[key.strip()] = value.strip()
    try:
        factory = FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {spec!r} (bots: {', '.join(bot_names())})") from None
    bot = factory(seed, opts)
    if opts:
        raise ValueError(f"unknown setting(s) {', '.join(opts)} for bot {name!r}")
    bot.name = spec
    return bot
