"""Game records: a whole game as JSON — the rules, the seed and every action in notation.

The seed plus the actions *is* the game (the engine draws all chance from the seed), so a record replays
exactly::

    {"format": "torres-record", "version": 1,
     "rules": "riogrande:card_mode=common", "edition": "riogrande", "players": 2, "seed": 7,
     "actions": ["start d8", "start c6", "king f6", "stack 3", "block c5", ...],
     "result": {"scores": [31, 27], "winners": [0], "finished": true},
     "meta": {"bots": ["random", "random"], "date": "2026-11-22T00:00:00+00:00"}}

``result.winners`` lists the seats with the best score once the game is over and is empty before that.
``meta`` is free-form (the caller supplies dates, bot names, ...). Everything here is pure except
:func:`write_record` and :func:`read_record`, which only move text between a file and :func:`dump_record` /
:func:`parse_record`.

>>> import torres
>>> game = torres.GameState(players=2, seed=1)
>>> game.play(["start d8", "start c6", "king f6"]).position() == replay(record_of(game)).position()
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .engine import GameState, IllegalActionError, Rules

FORMAT = "torres-record"
VERSION = 1

# What a record may hold, so that reading and replaying one costs little whatever it holds (docs/notation.md §4).
# The longest games measured (4 players, every edition with and without the master version, own and common cards,
# bots and a player that takes every action it can) have at most 373 actions and records of 6.6 KB; the longest
# game any rules the engine accepts allow has 977 actions (``Rules.longest_game``).
#: Actions in a record (and never more than its rules allow: ``Rules.longest_game``).
MAX_ACTIONS = 1000
#: Characters in one action (the longest notation has 39: ``keep climb top:diagonal bottom:redeploy``).
MAX_ACTION_CHARS = 64
#: ``meta`` as JSON, and any text in it (a player's name, a date, a bot's name).
MAX_META_CHARS = 4096
MAX_META_TEXT = 200
#: A record as JSON text (:func:`parse_record`, :func:`read_record`).
MAX_RECORD_CHARS = 128 * 1024
#: Seeds are 64-bit integers; scores lie on the track.
MAX_SEED = 2**63
MAX_SCORE = 10_000

_REQUIRED = ("format", "version", "rules", "edition", "players", "seed", "actions", "result")
_OPTIONAL = ("meta",)


class RecordError(ValueError):
    """A record that is not a valid Torres game record; the message says what is wrong."""


class ReplayError(RecordError):
    """An action of a record that cannot be replayed: its index in ``actions``, its text and the rule it breaks."""

    def __init__(self, index: int, action: str, reason: str) -> None:
        self.index = index
        self.action = action
        self.reason = reason
        super().__init__(f"action {index} ({action!r}) cannot be replayed: {reason}")


class ResultMismatchError(RecordError):
    """The replayed game does not end with the result the record states."""

    def __init__(self, field: str, stored: Any, replayed: Any) -> None:
        self.field = field
        self.stored = stored
        self.replayed = replayed
        super().__init__(f"result.{field} in the record is {stored!r} but the replay gives {replayed!r}")


# --- building ------------------------------------------------------------------------------------------------
def result_of(state: GameState) -> dict[str, Any]:
    """The ``result`` object of a record of ``state``."""
    finished = state.is_over()
    return {"scores": list(state.scores), "winners": state.winners() if finished else [], "finished": finished}


def record_of(state: GameState, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record of ``state``'s game so far.

    The record is checked to replay to ``state``: a state loaded from a position string lacks the actions that
    led there, so it has no record (:class:`RecordError`)."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": state.rules.to_text(),
        "edition": state.rules.edition,
        "players": state.n,
        "seed": state.seed,
        "actions": state.actions_text(),
        "result": result_of(state),
    }
    if meta:
        record["meta"] = dict(meta)
    replayed = new_game(record)
    for action_id in state.history:
        replayed.apply(action_id)
    if replayed.position() != state.position():
        raise RecordError("this game does not follow from its seed and its actions (was it loaded from a "
                          "position string?), so it cannot be recorded")
    return record


# --- validating ----------------------------------------------------------------------------------------------
def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_list(value: Any) -> bool:
    return isinstance(value, list) and all(_is_int(v) for v in value)


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut short: a message names what was given without echoing a page of it."""
    try:
        text = repr(value)
    except RecursionError:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _check_meta(meta: Any) -> None:
    if not isinstance(meta, dict):
        raise RecordError("'meta' must be an object")
    try:
        text = json.dumps(meta)
    except (TypeError, ValueError, RecursionError):
        raise RecordError("'meta' must hold only JSON values (objects, lists, text, numbers)") from None
    if len(text) > MAX_META_CHARS:
        raise RecordError(f"'meta' holds at most {MAX_META_CHARS} characters of JSON, not {len(text)}")
    stack: list[Any] = [meta]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str) and len(value) > MAX_META_TEXT:
            raise RecordError(f"a text in 'meta' (a name, a date, ...) has at most {MAX_META_TEXT} characters, "
                              f"not {len(value)}: {_short(value)}")


def validate_record(obj: Any) -> dict[str, Any]:
    """``obj`` if it has the structure of a version-1 record; otherwise :class:`RecordError` naming the field.

    Checks the structure, the rules text (the engine's check, ``Rules.from_text``) and the bounds of what a record
    may hold (:data:`MAX_ACTIONS`, :data:`MAX_ACTION_CHARS`, :data:`MAX_META_CHARS`, ...); :func:`replay` checks
    the actions and the result."""
    if not isinstance(obj, dict):
        raise RecordError(f"a record is a JSON object, not {type(obj).__name__}")
    if obj.get("format") != FORMAT:
        raise RecordError(f"not a Torres record: 'format' is {_short(obj.get('format'))}, expected {FORMAT!r}")
    missing = [key for key in _REQUIRED if key not in obj]
    if missing:
        raise RecordError(f"record lacks the field{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
    unknown = sorted(str(key) for key in obj if key not in _REQUIRED and key not in _OPTIONAL)
    if unknown:
        names = ", ".join(key if len(key) <= 30 else key[:29] + "…" for key in unknown[:5])
        names += ", ..." if len(unknown) > 5 else ""
        raise RecordError(f"unknown record field{'s' if len(unknown) > 1 else ''} {names}")
    if not _is_int(obj["version"]) or obj["version"] != VERSION:
        raise RecordError(f"unsupported record version {_short(obj['version'])} (this reader knows version "
                          f"{VERSION})")
    if not isinstance(obj["rules"], str):
        raise RecordError("'rules' must be a rules string like 'riogrande' or 'idw:master=1'")
    try:
        rules = Rules.from_text(obj["rules"])
    except ValueError as exc:  # RulesError: the engine's one check of rules, naming the setting and its range
        raise RecordError(f"bad 'rules' {_short(obj['rules'])}: {exc}") from None
    if obj["edition"] != rules.edition:
        raise RecordError(f"'edition' is {_short(obj['edition'])} but the rules are of edition {rules.edition!r}")
    players = obj["players"]
    if not _is_int(players) or not 2 <= players <= 4:
        raise RecordError(f"'players' must be 2, 3 or 4, not {_short(players)}")
    seed = obj["seed"]
    if not _is_int(seed) or not -MAX_SEED <= seed < MAX_SEED:
        raise RecordError(f"'seed' must be an integer of 64 bits (-2**63..2**63-1), not {_short(seed)}")
    actions = obj["actions"]
    if not isinstance(actions, list):
        raise RecordError("'actions' must be a list of actions in notation")
    longest = min(MAX_ACTIONS, rules.longest_game(players))
    if len(actions) > longest:
        raise RecordError(f"a game of {players} players under these rules has at most {longest} actions; this "
                          f"record lists {len(actions)}")
    for i, action in enumerate(actions):
        if not isinstance(action, str):
            raise ReplayError(i, _short(action), "an action is a string in notation, e.g. 'c5-c6'")
        if len(action) > MAX_ACTION_CHARS:
            raise ReplayError(i, _short(action), f"an action has at most {MAX_ACTION_CHARS} characters")
    result = obj["result"]
    if not isinstance(result, dict):
        raise RecordError("'result' must be an object with scores, winners and finished")
    for key in ("scores", "winners", "finished"):
        if key not in result:
            raise RecordError(f"'result' lacks {key!r}")
    extra = sorted(str(key) for key in result if key not in ("scores", "winners", "finished"))
    if extra:
        raise RecordError(f"unknown field in 'result': {_short(extra[0], 30)}")
    scores = result["scores"]
    if not _int_list(scores) or len(scores) != players or not all(0 <= s <= MAX_SCORE for s in scores):
        raise RecordError(f"'result.scores' must list {players} integer scores, not {_short(scores)}")
    winners = result["winners"]
    if (not _int_list(winners) or any(not 0 <= s < players for s in winners)
            or len(set(winners)) != len(winners)):
        raise RecordError(f"'result.winners' must list seats 0..{players - 1}, each once, not {_short(winners)}")
    if not isinstance(result["finished"], bool):
        raise RecordError(f"'result.finished' must be true or false, not {_short(result['finished'])}")
    if "meta" in obj:
        _check_meta(obj["meta"])
    return obj


# --- replaying -----------------------------------------------------------------------------------------------
def new_game(record: dict[str, Any]) -> GameState:
    """The game a (validated) record starts from."""
    return GameState(record["players"], record["seed"], Rules.from_text(record["rules"]))


def replay(record: dict[str, Any], upto: int | None = None) -> GameState:
    """Re-apply every action of ``record`` (or its first ``upto``) with the engine's full legality checks.

    Raises :class:`ReplayError` at the first action that does not parse or that the rules forbid, and — for a
    full replay — :class:`ResultMismatchError` if the stored result differs from the replayed one."""
    validate_record(record)
    actions: list[str] = record["actions"]
    if upto is not None and (not _is_int(upto) or not 0 <= upto <= len(actions)):
        raise RecordError(f"the record has {len(actions)} actions; cannot stop after {_short(upto)}")
    state = new_game(record)
    for index, text in enumerate(actions[:upto]):
        try:
            state.push(text)
        except IllegalActionError as exc:
            raise ReplayError(index, text, str(exc)) from None
    if upto is None or upto == len(actions):
        check_result(record, state)
    return state


def check_result(record: dict[str, Any], state: GameState) -> None:
    """:class:`ResultMismatchError` unless ``record``'s result is that of ``state``."""
    stored, replayed = record["result"], result_of(state)
    for key in ("finished", "scores", "winners"):
        if stored[key] != replayed[key]:
            raise ResultMismatchError(key, stored[key], replayed[key])


# --- text and files ------------------------------------------------------------------------------------------
def dump_record(record: dict[str, Any]) -> str:
    """A record as JSON text (one action per line, so records diff well), ending with a newline."""
    validate_record(record)
    head = {k: v for k, v in record.items() if k != "actions"}
    lines = ["{"]
    for key in _REQUIRED + _OPTIONAL:
        if key == "actions":
            items = ",\n".join(f"    {json.dumps(a)}" for a in record["actions"])
            lines.append('  "actions": [' + (f"\n{items}\n  " if items else "") + "],")
        elif key in head:
            lines.append(f"  {json.dumps(key)}: {json.dumps(head[key], sort_keys=True)},")
    lines[-1] = lines[-1].rstrip(",")
    lines.append("}")
    return "\n".join(lines) + "\n"


def parse_record(text: str) -> dict[str, Any]:
    """JSON text → a validated record; :class:`RecordError` for bad JSON, a bad structure or a text longer than
    :data:`MAX_RECORD_CHARS`."""
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(f"a record has at most {MAX_RECORD_CHARS} characters of JSON, not {len(text)}")
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except (ValueError, RecursionError) as exc:  # e.g. nested deeper than the parser goes, a number too long
        raise RecordError(f"not valid JSON: {exc}") from None
    return validate_record(obj)


def write_record(path: str | Path, record: dict[str, Any]) -> None:
    """Write ``record`` to ``path`` as JSON (UTF-8)."""
    Path(path).write_text(dump_record(record), encoding="utf-8")


def read_record(path: str | Path) -> dict[str, Any]:
    """Read and validate the record at ``path``; :class:`RecordError` says what is wrong (``OSError`` if the
    file cannot be read). Does not replay it: see :func:`replay`."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read(MAX_RECORD_CHARS + 1)  # no more than a record may hold: a longer one is refused
    except UnicodeDecodeError as exc:
        raise RecordError(f"{path}: not UTF-8 text ({exc.reason})") from None
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(f"{path}: a record has at most {MAX_RECORD_CHARS} characters of JSON")
    return parse_record(text)


__all__ = [
    "FORMAT", "MAX_ACTIONS", "MAX_ACTION_CHARS", "MAX_META_CHARS", "MAX_RECORD_CHARS", "VERSION", "RecordError",
    "ReplayError", "ResultMismatchError", "check_result", "dump_record",
    "new_game", "parse_record", "read_record", "record_of", "replay", "result_of", "validate_record",
    "write_record",
]
