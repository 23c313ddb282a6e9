"""The player's guide (torres/data/how-to-play.md and .de.md) agrees with the engine.

The diagrams and numbers are read from the texts themselves, so editing a text wrongly fails here:

* the worked scoring example: the board diagram is parsed, built with ``build`` and scored by the engine; the
  per-castle products, castle points, king's bonus and track positions of the example table must match;
* the door-travel diagram: the squares marked ``*`` are exactly where the knight can go for 1 AP, and the moves the
  text calls legal / not legal are so;
* the block diagram: the squares marked ``+`` are exactly where a block may go;
* both languages have the same sections, name every card, and every action written in backticks parses.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from torres import Action, Card, GameState, Kind
from torres.engine.builder import build
from torres.engine.scoring import PhaseScoring
from torres.engine.squares import square_name

ROOT = Path(__file__).resolve().parent.parent
TEXTS = {
    "en": ROOT / "torres" / "data" / "how-to-play.md",
    "de": ROOT / "torres" / "data" / "how-to-play.de.md",
}
#: The example's players, seat by seat, as each text names them (the diagrams use the letters A and B).
NAMES = {"en": ("Ann", "Ben"), "de": ("Anna", "Ben")}
SEAT_LETTERS = {"A": 0, "B": 1}


def text(lang: str) -> str:
    return TEXTS[lang].read_text(encoding="utf-8")


# --- diagrams ----------------------------------------------------------------------------------------------------
class Diagram:
    """A ```text board diagram: a header of files, then rows ``<rank>  <token> <token> …``. A token is an optional
    level digit followed by marks: ``.`` empty ground, ``A``/``B`` a knight of seat 0/1, ``K`` the king, and the
    diagram's own marks (``*``, ``+``, ``x``)."""

    def __init__(self, block: str) -> None:
        lines = [line for line in block.splitlines() if line.strip()]
        self.files = lines[0].split()
        assert all(re.fullmatch(r"[a-h]", f) for f in self.files), lines[0]
        self.heights: dict[str, int] = {}
        self.knights: dict[int, list[str]] = {}
        self.king: str | None = None
        self.marks: dict[str, set[str]] = {}
        self.squares: list[str] = []
        for line in lines[1:]:
            rank, *tokens = line.split()
            assert re.fullmatch(r"[1-8]", rank) and len(tokens) == len(self.files), line
            for file, token in zip(self.files, tokens):
                sq = file + rank
                self.squares.append(sq)
                m = re.fullmatch(r"(\d?)([.ABK*+x]*)", token)
                assert m, f"bad token {token!r} in {line!r}"
                if m.group(1):
                    self.heights[sq] = int(m.group(1))
                for mark in m.group(2):
                    if mark in SEAT_LETTERS:
                        self.knights.setdefault(SEAT_LETTERS[mark], []).append(sq)
                    elif mark == "K":
                        assert self.king is None
                        self.king = sq
                    elif mark != ".":
                        self.marks.setdefault(mark, set()).add(sq)

    def key(self) -> tuple[object, ...]:
        return (self.files, sorted(self.heights.items()), sorted((s, sorted(q)) for s, q in self.knights.items()),
                self.king, sorted((m, sorted(q)) for m, q in self.marks.items()))


def diagrams(lang: str) -> list[Diagram]:
    return [Diagram(b) for b in re.findall(r"```text\n(.*?)```", text(lang), re.S)]


def diagram_with(lang: str, predicate) -> Diagram:  # type: ignore[no-untyped-def]
    found = [d for d in diagrams(lang) if predicate(d)]
    assert len(found) == 1, f"{lang}: expected one such diagram, found {len(found)}"
    return found[0]


def scoring_diagram(lang: str) -> Diagram:
    return diagram_with(lang, lambda d: d.king is not None and len(d.files) == 8)


def door_diagram(lang: str) -> Diagram:
    return diagram_with(lang, lambda d: "*" in d.marks)


def block_diagram(lang: str) -> Diagram:
    return diagram_with(lang, lambda d: "+" in d.marks)


@pytest.mark.parametrize("pick", [scoring_diagram, door_diagram, block_diagram])
def test_diagrams_are_the_same_in_both_languages(pick) -> None:  # type: ignore[no-untyped-def]
    assert pick("en").key() == pick("de").key()


# --- (a) the worked scoring example ------------------------------------------------------------------------------
PRODUCT = re.compile(r"(\d+) × (\d+) = (\d+)")


def example_rows(lang: str) -> dict[int, list[str]]:
    """The example table's row of each seat, as cells (the row starting with the player's name)."""
    rows = {}
    for seat, name in enumerate(NAMES[lang]):
        found = [line for line in text(lang).splitlines() if re.match(rf"\|\s*{name}\s*\|", line)]
        assert len(found) == 1, f"{lang}: expected one table row for {name}"
        rows[seat] = [c.strip() for c in found[0].strip().strip("|").split("|")]
    return rows


def scored_example(lang: str) -> tuple[GameState, PhaseScoring]:
    d = scoring_diagram(lang)
    rows = example_rows(lang)
    before = [int(re.findall(r"\d+", rows[seat][-1])[0]) for seat in (0, 1)]
    # The end of phase 2 (0-based 1); Ann (seat 0) is the start player and is scored first.
    game = build(2, heights=d.heights, knights=d.knights, king=d.king, phase=1, start=0, scores=before)
    return game, game.scoring_now()


@pytest.mark.parametrize("lang", TEXTS)
def test_worked_scoring_example(lang: str) -> None:
    game, s = scored_example(lang)
    assert s.phase == 1 and s.order == (0, 1)
    rows = example_rows(lang)
    for seat, cells in rows.items():
        written = [tuple(map(int, m)) for cell in cells for m in PRODUCT.findall(cell)]
        for area, level, points in written:
            assert area * level == points, f"{lang}: {area} × {level} = {points}"
        engine = [(c.area, c.level, c.points) for c in s.castles if c.seat == seat]
        assert Counter(written) == Counter(engine), f"{lang} seat {seat}: castle products"
        # after the product cells: castle points, king's bonus, track
        total, bonus, track = cells[-3], cells[-2], cells[-1]
        assert int(total) == s.castle_points(seat), f"{lang} seat {seat}: castle points"
        assert int(bonus) == s.king_bonus[seat], f"{lang} seat {seat}: king's bonus"
        numbers = [int(n) for n in re.findall(r"\d+", track)]
        assert numbers[0] == s.before[seat] and numbers[-1] == s.after[seat], f"{lang} seat {seat}: track"
    # Every product in the example's prose is one the engine scored.
    section = re.split(r"^### ", text(lang), flags=re.M)[1].split("\n## ")[0]
    products = {(c.area, c.level, c.points) for c in s.castles}
    prose = [tuple(map(int, m)) for m in PRODUCT.findall(section)]
    assert len(prose) >= 10 and set(prose) <= products, f"{lang}: {sorted(set(prose) - products)}"
    # The prose says the same: the bump (28 + 11 = 39 is taken, Ben goes on to 40) and the final scores.
    body = text(lang)
    for seat in (0, 1):
        assert f"{s.before[seat]} + {s.castle_points(seat)} = {s.before[seat] + s.castle_points(seat)}" in body
    assert s.before[0] + s.castle_points(0) == s.before[1] + s.castle_points(1)  # the example shows a bump
    assert s.after[1] == s.before[1] + s.castle_points(1) + 1
    first = s.before[0] + s.castle_points(0)
    assert f"{first} + {s.king_bonus[0]} = {s.after[0]}" in body


@pytest.mark.parametrize("lang", TEXTS)
def test_worked_example_is_what_the_phase_end_scores(lang: str) -> None:
    """Ending the last turn of the phase scores exactly what scoring_now() showed."""
    d = scoring_diagram(lang)
    game, s = scored_example(lang)
    rounds = len(game.rules.stacks_for(2)[1])
    end = build(2, heights=d.heights, knights=d.knights, king=d.king, phase=1, start=0, round=rounds - 1,
                current=1, scores=list(s.before))
    end.push("end")
    assert end.scorings[-1] == s


# --- (b) door travel ---------------------------------------------------------------------------------------------
def door_game(lang: str) -> tuple[GameState, str, Diagram]:
    d = door_diagram(lang)
    (knight,) = d.knights[0]
    game = build(2, heights=d.heights, knights=d.knights, king=d.king, hands={0: [Card.GATE]})
    return game, knight, d


@pytest.mark.parametrize("lang", TEXTS)
def test_door_diagram_marks_every_1ap_target(lang: str) -> None:
    game, knight, d = door_game(lang)
    for sq in d.squares:
        if sq != knight:
            assert game.is_legal(f"{knight}-{sq}") == (sq in d.marks["*"]), f"{lang}: {knight}-{sq}"
    # nowhere outside the drawn corner either
    moves = {square_name(a.square) for a in game.legal_actions if a.kind is Kind.MOVE}
    assert moves == d.marks["*"]


DOOR_LEGAL = ["b4-d4", "b4-c2", "b4-d5", "play gate b4-c3"]
DOOR_ILLEGAL = ["b4-c3", "b4-e5", "play gate b4-c4", "b4-c4"]


@pytest.mark.parametrize("lang", TEXTS)
def test_door_text_claims(lang: str) -> None:
    game, knight, _ = door_game(lang)
    body = text(lang)
    for move in DOOR_LEGAL + DOOR_ILLEGAL[:2]:
        assert f"`{move}`" in body, f"{lang} no longer mentions {move}"
    for move in DOOR_LEGAL:
        assert game.is_legal(move), move
    for move in DOOR_ILLEGAL:
        assert not game.is_legal(move), move
    assert game.is_legal("b4-a4") and game.is_legal("b4-b5") and game.is_legal("b4-b3")  # also plain steps
    # the trip costs 1 AP however far
    ap = game.ap
    game.push("b4-d4")
    assert game.ap == ap - 1


@pytest.mark.parametrize("lang", TEXTS)
def test_block_diagram(lang: str) -> None:
    d = block_diagram(lang)
    game = build(2, heights=d.heights)
    game.push("stack 3")
    for sq in d.squares:
        assert game.is_legal(f"block {sq}") == (sq in d.marks["+"]), f"{lang}: block {sq}"
    assert d.marks["x"] and not any(game.is_legal(f"block {sq}") for sq in d.marks["x"])


# --- (c) structure and cards -------------------------------------------------------------------------------------
def headings(lang: str, level: int) -> list[str]:
    marker = "#" * level + " "
    body = re.sub(r"```.*?```", "", text(lang), flags=re.S)
    return [line for line in body.splitlines() if line.startswith(marker)]


def test_same_section_structure() -> None:
    for level in (1, 2, 3):
        assert len(headings("en", level)) == len(headings("de", level)), f"{'#' * level} headings differ"
    assert len(headings("en", 2)) >= 10


@pytest.mark.parametrize("lang", TEXTS)
def test_every_card_is_named(lang: str) -> None:
    body = text(lang)
    for card in Card:
        assert re.search(rf"`{card.text}`", body), f"{lang}: card {card.text} missing"
        assert re.search(rf"`play {card.text}\b", body), f"{lang}: no notation example for {card.text}"


# --- (d) notation ------------------------------------------------------------------------------------------------
ACTION_LIKE = re.compile(r"^(?:(?:start|king|castle|first|knight|stack|block|buy|keep|score|end|play)\b.*"
                         r"|[a-h][1-8]-[a-h][1-8])$", re.I)


def notation_examples(lang: str) -> list[str]:
    return [c for c in re.findall(r"`([^`\n]+)`", text(lang)) if ACTION_LIKE.match(c.strip())]


@pytest.mark.parametrize("lang", TEXTS)
def test_notation_examples_parse(lang: str) -> None:
    examples = notation_examples(lang)
    assert len(examples) > 30
    for example in examples:
        action = Action.parse(example)
        assert str(action) == " ".join(example.split()).lower(), example  # written in the canonical form


def test_docs_links() -> None:
    for name, target in (("how-to-play.md", TEXTS["en"]), ("how-to-play.de.md", TEXTS["de"])):
        link = ROOT / "docs" / name
        assert link.is_symlink() and link.resolve() == target.resolve()
    assert "how-to-play.md" in (ROOT / "docs" / "rules.md").read_text(encoding="utf-8").split("---")[0]
