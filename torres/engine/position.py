"""The one-line position string (like chess FEN): the whole state, hidden parts included, or one seat's view.

Format (docs/notation.md)::

    torres/1 rules=riogrande n=2 seed=7 stage=turn phase=1 round=1 turn=0 start=0 ap=5 buys=0 played=0
    stack=- king=f6 supply=70 scores=0.0 stacks=3.3.3.3|3.3.3.3 carry=0.0 board=<8 ranks> hands=-|-
    fresh=- drawn=- decks=<per seat>|<...> common=- discards=-|- master=-

``board`` lists ranks 8 → 1, separated by ``/``; each square is a height digit (base 36) and an occupant:
``.`` nobody, ``a``–``d`` a knight of seat 0–3, ``k`` the king. Cards are letters (``CARD_LETTERS``); decks list
bottom → top, a capital letter is a card its owner does not know is there, a small letter one it does; ``?`` is a
card hidden from the viewer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from .cards import N_CARD_TYPES
from .rules import MAX_STACK_HEIGHT, CardMode, Rules
from .squares import parse_square, square_name
from .state import EMPTY, KING, GameState, Stage

if TYPE_CHECKING:
    from .view import SeatView

FORMAT = "torres/1"
CARD_LETTERS = "clbgdxysrv"  # climb lift build gate diagonal six(x) seven(y) shift redeploy vault
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_OCC = {EMPTY: ".", KING: "k", 1: "a", 2: "b", 3: "c", 4: "d"}
_OCC_BACK = {v: k for k, v in _OCC.items()}


#: ``Rules.to_text`` of each rules object met (rules are frozen: their text never changes); views and their
#: positions spell it out again and again.
_RULES_TEXTS: dict[Rules, str] = {}


def rules_text(rules: Rules) -> str:
    text = _RULES_TEXTS.get(rules)
    if text is None:
        if len(_RULES_TEXTS) >= 256:
            _RULES_TEXTS.clear()
        text = _RULES_TEXTS[rules] = rules.to_text()
    return text


def _cards(counts: Sequence[int]) -> str:
    return "".join(CARD_LETTERS[c] * counts[c] for c in range(N_CARD_TYPES)) or "-"


def _card_list(cards: Sequence[int]) -> str:
    return "".join(CARD_LETTERS[c] for c in cards) or "-"


def _deck(cards: list[int], known: list[bool]) -> str:
    return "".join(CARD_LETTERS[c] if k else CARD_LETTERS[c].upper() for c, k in zip(cards, known)) or "-"


def _ints(values: Sequence[int]) -> str:
    return ".".join(str(v) for v in values)


def _board(heights: bytes | bytearray, occupancy: bytes | bytearray) -> str:
    return "/".join("".join(_DIGITS[heights[rank * 8 + f]] + _OCC[occupancy[rank * 8 + f]] for f in range(8))
                    for rank in range(7, -1, -1))


def board_text(state: GameState) -> str:
    return _board(state.heights, state.occ)


def _public(source: GameState | SeatView, occupancy: bytes | bytearray) -> list[str]:
    """The fields every seat sees alike, from ``stage`` to ``board`` (a state and a view name them alike but for
    the occupants)."""
    taken = ([f"taken={source.stack_taken}"]
             if source.rules.lift_counts_toward_three and source.turn_stack >= 0 else [])
    return [
        f"stage={source.stage.name.lower()}",
        f"phase={source.phase + 1}",
        f"round={source.round + 1}",
        f"turn={source.turn}",
        f"start={source.start}",
        f"ap={source.ap}",
        f"buys={source.buys}",
        f"played={int(source.played)}",
        f"stack={'-' if source.turn_stack < 0 else source.turn_stack}",
        # ``taken=<n>``, the blocks the turn's stack held when it was taken, only under
        # ``lift_counts_toward_three``: the one setting it changes anything for (the lift then needs the number of
        # blocks placed this turn); without it a loaded position counts nothing placed yet
        *taken,
        f"king={square_name(source.king) if source.king >= 0 else '-'}",
        f"supply={source.supply}",
        f"scores={_ints(source.scores)}",
        "stacks=" + "|".join(_ints(s) or "-" for s in source.stacks),
        f"carry={_ints(source.carry)}",
        f"board={_board(source.heights, occupancy)}",
    ]


def to_position(state: GameState, seat: int | None = None) -> str:
    """The whole state as one line; with ``seat``, only what that seat knows (``?`` for the rest): its view's
    :func:`view_position`."""
    if seat is not None:
        from .view import SeatView

        return SeatView.of(state, seat).position
    return " ".join([
        FORMAT, f"rules={rules_text(state.rules)}", f"n={state.n}", f"seed={state.seed}",
        *_public(state, state.occ),
        "hands=" + "|".join(_cards(h) for h in state.hands),
        f"fresh={_cards(state.fresh)}",
        f"drawn={_card_list(state.drawn)}",
        "decks=" + "|".join(_deck(d, k) for d, k in zip(state.decks, state.known)),
        f"common={_card_list(state.common)}",
        "discards=" + "|".join(_cards(d) for d in state.discards),
        f"master={state.master_card if state.master_card >= 0 else '-'}",
    ])


def view_position(view: SeatView) -> str:
    """The position string of what ``view``'s seat knows: every other seat's cards, the common deck's and the
    seed as ``?``; the seat's own deck with ``?`` where it does not know the card (the spectator's view: no cards
    at all)."""
    seat, mine = view.seat, view.seat == view.current
    hands = [_cards(view.hand) if s == seat else "?" * view.hand_sizes[s] or "-" for s in range(view.players)]
    decks = ["".join(CARD_LETTERS[c] if c >= 0 else "?" for c in view.deck_known) or "-" if s == seat
             else "?" * view.deck_sizes[s] or "-" for s in range(view.players)]
    return " ".join([
        FORMAT, f"rules={rules_text(view.rules)}", f"n={view.players}", "seed=?",
        *_public(view, view.occupancy),
        "hands=" + "|".join(hands),
        f"fresh={_cards(view.fresh) if mine else '?' * view.fresh_count or '-'}",
        f"drawn={_card_list(view.drawn) if mine else '?' * view.drawn_count or '-'}",
        "decks=" + "|".join(decks),
        f"common={'?' * view.common_size or '-'}",
        "discards=" + "|".join(_cards(d) for d in view.discards),
        f"master={view.master_card if view.master_card >= 0 else '-'}",
    ])


def from_position(text: str) -> GameState:
    """Load a full position string (not a redacted view). Raises ``ValueError`` saying what is wrong."""
    tokens = text.split()
    if not tokens or tokens[0] != FORMAT:
        raise ValueError(f"a position string starts with {FORMAT!r}")
    values: dict[str, str] = {}
    for token in tokens[1:]:
        key, eq, value = token.partition("=")
        if not eq:
            raise ValueError(f"bad field {token!r} (expected key=value)")
        values[key] = value
    missing = [key for key in _REQUIRED if key not in values]
    if missing:
        raise ValueError(f"position string lacks the field(s) {', '.join(missing)}")
    try:
        state = _build(values)
    except (KeyError, IndexError, TypeError) as exc:
        raise ValueError(f"bad position string: {exc}") from None
    except ValueError as exc:
        raise ValueError(f"bad position string: {exc}") from None
    _check_ranges(state)
    return state


_REQUIRED = ("rules", "n", "seed", "stage", "phase", "round", "turn", "start", "ap", "buys", "played", "stack",
             "king", "supply", "scores", "stacks", "carry", "board", "hands", "fresh", "drawn", "decks", "common",
             "discards", "master")


def _check_ranges(state: GameState) -> None:
    """Reject values no game can reach, so a loaded position never misleads the move generator (an outside probe
    loaded a stack of 16 blocks, which the action ids read as a block on a1; a round whose turn counter had passed
    its last seat, which never ended; and a million action points, a second of search per thousand)."""
    n, rules = state.n, state.rules
    problems = []
    if not 0 <= state.phase <= 2:
        problems.append("phase must be 1..3")
    if not 0 <= state.round < len(state.phase_stacks[min(max(state.phase, 0), 2)]):
        problems.append("round out of range for the phase card")
    # ``turn`` counts the turns taken in the round, or the placements of a setup stage; the knights' placements
    # have all been made when the king is placed
    turns = {Stage.CASTLES: len(rules.castles) - 1, Stage.KING_SETUP: n, Stage.OVER: n}.get(state.stage, n - 1)
    if not 0 <= state.start < n or not 0 <= state.turn <= turns:
        problems.append(f"start must be 0..{n - 1} and turn 0..{turns} in this stage")
    if state.stack_taken < state.turn_stack:
        problems.append("taken (the turn's stack when taken) cannot be less than stack")
    if state.ap < 0 or state.buys < 0 or state.supply < 0:
        problems.append("ap, buys and supply cannot be negative")
    if state.ap > rules.action_points + 2:  # a turn's points, and a seven's two more
        problems.append(f"ap is at most {rules.action_points + 2} (the turn's points and a seven card's two)")
    if state.supply > rules.blocks_total:
        problems.append(f"the supply holds at most the game's {rules.blocks_total} blocks")
    if any(s < 0 for s in state.scores):
        problems.append("scores cannot be negative")
    if any(h < 1 for stack in state.stacks for h in stack):
        # (a stack used up leaves the list: a stack of 0 blocks would be offered as "stack 0", no action at all)
        problems.append("a stack holds at least one block")
    if any(h > MAX_STACK_HEIGHT for stack in state.stacks for h in stack) or state.stack_taken > MAX_STACK_HEIGHT:
        problems.append(f"a stack holds at most {MAX_STACK_HEIGHT} blocks")
    if any(len(k) > rules.knights_per_player for k in state.knights):
        problems.append(f"at most {rules.knights_per_player} knights per seat")
    if state.king >= 0 and state.occ[state.king] != KING:
        problems.append("the king's square does not show the king")
    if sum(1 for sq in range(64) if state.occ[sq] == KING) > 1:
        problems.append("more than one king")
    if state.master_card >= 8:
        problems.append("master card must be 0..7")
    if state.stage in (Stage.CASTLES, Stage.KNIGHTS, Stage.KING_SETUP) and (state.phase, state.round) != (0, 0):
        problems.append("the setup stages come before the first round's first turn")
    if state.stage is Stage.CASTLES and not rules.master:
        problems.append("players place the starting castles in the master version only")
    if state.stage is Stage.KEEP:
        if rules.card_mode is not CardMode.OWN or not 1 <= len(state.drawn) <= 3:
            problems.append("a keep stage has 1..3 cards drawn from the seat's own deck")
    elif state.drawn:
        problems.append("cards are drawn only in a keep stage")
    copies = _copies(rules, n)
    held = [sum(seat[card] for seat in state.hands) + sum(seat[card] for seat in state.discards)
            for card in range(N_CARD_TYPES)]
    if any(h > c for h, c in zip(held, copies)):
        problems.append(f"the game has {max(copies)} copies of each card at most, in hands and discards together")
    if problems:
        raise ValueError("bad position string: " + "; ".join(problems))
    if not state.is_over() and not state.legal_action_ids():
        raise ValueError("bad position string: no legal action in a game that is not over")


def _copies(rules: Rules, n: int) -> list[int]:
    """How many of each card the game has (the decks as a new game deals them)."""
    fresh = GameState(n, 0, rules)
    copies = [0] * N_CARD_TYPES
    for card in [c for deck in fresh.decks for c in deck] + fresh.common:
        copies[card] += 1
    for hand in fresh.hands:
        for card, count in enumerate(hand):
            copies[card] += count
    return copies


def _letters(text: str) -> list[int]:
    if text == "-":
        return []
    if "?" in text:
        raise ValueError("a redacted view (with '?') cannot be loaded as a full position")
    try:
        return [CARD_LETTERS.index(ch.lower()) for ch in text]
    except ValueError:
        raise ValueError(f"bad card letters {text!r} (cards are {CARD_LETTERS})") from None


def _counts(text: str) -> list[int]:
    counts = [0] * N_CARD_TYPES
    for c in _letters(text):
        counts[c] += 1
    return counts


def _build(v: dict[str, str]) -> GameState:
    n = int(v["n"])
    if not 2 <= n <= 4:
        raise ValueError("n must be 2..4")
    if v["seed"] == "?":
        raise ValueError("a redacted view (seed=?) cannot be loaded as a full position")
    rules = Rules.from_text(v["rules"])
    state = GameState(n, int(v["seed"]), rules)
    try:
        state.stage = Stage[v["stage"].upper()]
    except KeyError:
        raise ValueError(f"unknown stage {v['stage']!r}") from None
    state.phase = int(v["phase"]) - 1
    state.round = int(v["round"]) - 1
    state.turn = int(v["turn"])
    state.start = int(v["start"])
    state.ap = int(v["ap"])
    state.buys = int(v["buys"])
    state.played = v["played"] == "1"
    state.turn_stack = -1 if v["stack"] == "-" else int(v["stack"])
    state.stack_taken = int(v["taken"]) if "taken" in v and state.turn_stack >= 0 else state.turn_stack
    state.king = -1 if v["king"] == "-" else parse_square(v["king"])
    state.supply = int(v["supply"])
    state.scores = [int(x) for x in v["scores"].split(".")]
    state.stacks = [[] if part == "-" else [int(x) for x in part.split(".")] for part in v["stacks"].split("|")]
    state.carry = [int(x) for x in v["carry"].split(".")]
    ranks = v["board"].split("/")
    if len(ranks) != 8 or any(len(r) != 16 for r in ranks):
        raise ValueError("board: 8 ranks of 8 squares, two characters each")
    state.knights = [[] for _ in range(n)]
    for i, rank_text in enumerate(ranks):
        rank = 7 - i
        for f in range(8):
            sq = rank * 8 + f
            if rank_text[2 * f] not in _DIGITS:
                raise ValueError(f"bad height {rank_text[2 * f]!r} on {square_name(sq)}")
            state.heights[sq] = _DIGITS.index(rank_text[2 * f])
            letter = rank_text[2 * f + 1]
            if letter not in _OCC_BACK:
                raise ValueError(f"unknown occupant {letter!r} on {square_name(sq)} (use . a b c d k)")
            code = _OCC_BACK[letter]
            if 1 <= code <= 4 and code > n:
                raise ValueError(f"a knight of seat {code - 1} on {square_name(sq)} in a {n}-player game")
            state.occ[sq] = code
            if 1 <= code <= 4:
                state.knights[code - 1].append(sq)
    state.hands = [_counts(part) for part in v["hands"].split("|")]
    state.fresh = _counts(v["fresh"])
    state.drawn = _letters(v["drawn"])
    state.decks, state.known = [], []
    for part in v["decks"].split("|"):
        state.decks.append(_letters(part))
        state.known.append([ch.islower() for ch in part] if part != "-" else [])
    state.common = _letters(v["common"])
    state.discards = [_counts(part) for part in v["discards"].split("|")]
    state.master_card = -1 if v["master"] == "-" else int(v["master"])
    if any(len(x) != n for x in (state.scores, state.stacks, state.carry, state.hands, state.decks,
                                 state.discards)):
        raise ValueError(f"per-seat fields must list {n} seats")
    state.history, state.actors, state._undo, state.scorings = [], [], [], []
    state.refresh()
    return state


__all__ = ["to_position", "from_position", "CARD_LETTERS"]
