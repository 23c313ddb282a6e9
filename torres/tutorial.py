"""The guided first game (issue #32): short lessons on positions built with the engine, in English and German.

Each lesson is a position (``torres.engine.builder.build``) in which the learner (seat 0) is to act, the actions
its page offers, and a judge that reads what an action did from the engine's own facts (levels, castle areas,
``scoring_now``, the phase scoring it caused) and says whether the lesson's goal is reached, and why or why not.
Nothing here decides a rule: which actions are legal, and what they do, is the engine's answer.

An attempt is stateless: the actions so far are replayed on the lesson's position (``attempt``), each one parsed
and checked by the engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .engine.actions import Action, Kind
from .engine.builder import build
from .engine.cards import Card
from .engine.squares import parse_square, square_name
from .engine.state import GameState, IllegalActionError

#: A text in both languages of the front-end.
Text = dict[str, str]
#: The most actions an attempt may hold (every lesson is reached in far fewer).
MAX_ACTIONS = 20
#: The longest action text taken (the longest notation has 39 characters, docs/notation.md).
MAX_ACTION_CHARS = 64

LEARNER = 0


def say(en: str, de: str, **params: object) -> Text:
    """Both languages, with ``{name}`` filled from ``params``."""
    return {"en": en.format(**params), "de": de.format(**params)}


@dataclass(frozen=True)
class Outcome:
    """What one action of an attempt came to: ``goal`` (the lesson is done), ``step`` (on the way: go on) or
    ``wrong`` (a legal action, but not what the lesson asks: try again), with the reason in words."""

    kind: str
    message: Text


@dataclass(frozen=True)
class Lesson:
    id: str
    title: Text
    text: Text  # what the lesson teaches (paragraphs separated by blank lines)
    task: Text  # what to do on the board
    offer: tuple[str, ...]  # what the page offers: "move", "knight", "stack", "block", "card", "end"
    setup: Callable[[], GameState]
    judge: Callable[[GameState, GameState, Action], Outcome]
    solution: tuple[str, ...]  # one way to the goal (the tests check it with the engine)


# --- facts read from the engine ---------------------------------------------------------------------------------
def level_of(state: GameState, square: int) -> int:
    return state.level(square)


def castle_area(state: GameState, square: int) -> int:
    """The area of the castle ``square`` belongs to (0 on the ground)."""
    castle = state.info.cid[square]
    return state.info.area[castle] if castle >= 0 else 0


def points_now(state: GameState, seat: int = LEARNER) -> tuple[int, int]:
    """(castle points, king's bonus) ``seat`` would get if the phase ended now: the engine's ``scoring_now``."""
    scoring = state.scoring_now()
    return scoring.castle_points(seat), scoring.king_bonus[seat]


def castle_lines(state: GameState, seat: int, scoring_index: int | None = None) -> tuple[str, str]:
    """The castles ``seat`` scores, as "area × level = points" in English and German (from the engine's scoring)."""
    scoring = state.scoring_now() if scoring_index is None else state.scorings[scoring_index]
    parts = [f"{'–'.join(c.castle)} {c.area} × {c.level} = {c.points}" for c in scoring.castles if c.seat == seat]
    if not parts:
        return "none", "keine"
    return ", ".join(parts[:-1]) + " and " * (len(parts) > 1) + parts[-1], \
        ", ".join(parts[:-1]) + " und " * (len(parts) > 1) + parts[-1]


def where(square: int) -> str:
    return square_name(square)


def climb_words(before: int, after: int) -> Text:
    if after > before:
        return say("up from level {a} to level {b}", "von Ebene {a} hinauf auf Ebene {b}", a=before, b=after)
    if after < before:
        return say("down from level {a} to level {b}", "von Ebene {a} hinunter auf Ebene {b}", a=before, b=after)
    return say("along level {a}", "auf derselben Ebene {a}", a=before)


def ap_left(state: GameState) -> Text:
    if state.ap == 0:
        return say("No AP left.", "Keine AP mehr.")
    return say("{n} AP left.", "Noch {n} AP.", n=state.ap)


def is_step(src: int, dst: int) -> bool:
    """Whether two squares are orthogonal neighbours (a plain step rather than a trip through a castle)."""
    return abs(src % 8 - dst % 8) + abs(src // 8 - dst // 8) == 1


def unexpected(action: Action) -> Outcome:
    return Outcome("wrong", say("{a} is legal, but this lesson is about something else: try again.",
                                "{a} ist erlaubt, aber in dieser Lektion geht es um etwas anderes: versuchen Sie es "
                                "noch einmal.",
                                a=str(action)))


# --- 1. move and climb --------------------------------------------------------------------------------------------
def setup_move() -> GameState:
    return build(2, heights={"c4": 1, "d4": 2, "e4": 3, "g7": 1}, knights={0: ["b4"], 1: ["g7"]})


def judge_move(before: GameState, after: GameState, action: Action) -> Outcome:
    if action.kind is not Kind.MOVE:
        return unexpected(action)
    src, dst = action.source, action.square
    a, b = level_of(before, src), level_of(after, dst)
    words = climb_words(a, b)
    if b == 3:
        return Outcome("goal", {
            "en": f"Well done! Your knight climbed {words['en']}, onto the top of the tower. Each step went up "
                  "exactly one level: a step may climb at most one level (and go down any number). It took 3 steps, 1 "
                  "action point (AP) each.",
            "de": f"Gut gemacht! Ihr Ritter ist {words['de']} geklettert, ganz oben auf den Turm. Jeder Schritt ging "
                  "genau eine Ebene hinauf: Ein Schritt darf höchstens eine Ebene hinauf führen (hinunter beliebig "
                  "viele). Das waren 3 Schritte zu je 1 Aktionspunkt (AP)."})
    if b == a + 1:
        return Outcome("step", {
            "en": f"Good: {where(src)}-{where(dst)} went {words['en']}, one level — the most a step may climb. "
                  f"{after.ap} AP left. Keep climbing.",
            "de": f"Gut: {where(src)}-{where(dst)} führte {words['de']}, eine Ebene – mehr schafft ein Schritt nicht. "
                  f"Noch {after.ap} AP. Klettern Sie weiter."})
    if not is_step(src, dst):
        return Outcome("wrong", {
            "en": f"Your knight went through the castle's doors to {where(dst)} and came out {words['en']}. Doors "
                  "(lesson 5) never take a knight up. Try again: climb one level per step.",
            "de": f"Ihr Ritter ist durch die Tore der Burg nach {where(dst)} gegangen und kam {words['de']} heraus. "
                  "Tore (Lektion 5) führen nie hinauf. Versuchen Sie es noch einmal: pro Schritt eine Ebene hinauf."})
    if b == a:
        return Outcome("wrong", {
            "en": f"Your knight stepped to {where(dst)} and stayed on level {a}: allowed, but the tower is up. Try "
                  "again: step onto a square one level higher.",
            "de": f"Ihr Ritter ist nach {where(dst)} gezogen und auf Ebene {a} geblieben: erlaubt, aber der Turm "
                  "liegt oben. Versuchen Sie es noch einmal: auf ein Feld eine Ebene höher."})
    return Outcome("wrong", {
        "en": f"Your knight stepped {words['en']}. That is allowed — a step may go down any number of levels — but "
              "the tower is up. Try again: step onto a square one level higher.",
        "de": f"Ihr Ritter ist {words['de']} gegangen. Das ist erlaubt – hinunter geht es beliebig viele Ebenen –, "
              "aber der Turm liegt oben. Versuchen Sie es noch einmal: auf ein Feld eine Ebene höher."})


# --- 2. add a knight ----------------------------------------------------------------------------------------------
def setup_knight() -> GameState:
    return build(2, heights={"c4": 1, "d4": 2, "d5": 3, "g2": 1}, knights={0: ["d4"], 1: ["g2"]})


def judge_knight(before: GameState, after: GameState, action: Action) -> Outcome:
    if action.kind is not Kind.KNIGHT:
        return unexpected(action)
    sq = action.square
    level = level_of(after, sq)
    left = after.reserve(LEARNER)
    if level >= 1:
        return Outcome("goal", {
            "en": f"Yes! Your new knight stands on {where(sq)}, level {level}, on a castle — where knights score. It "
                  f"came in next to your knight on level {level_of(after, parse_square('d4'))}, on that level or "
                  f"lower, for 2 AP. {left} knights are still waiting beside the board.",
            "de": f"Ja! Ihr neuer Ritter steht auf {where(sq)}, Ebene {level}, auf einer Burg – dort punkten Ritter. "
                  f"Er kam neben Ihrem Ritter auf Ebene {level_of(after, parse_square('d4'))} ins Spiel, auf dessen "
                  f"Ebene oder tiefer, für 2 AP. {left} Ritter warten noch neben dem Spielplan."})
    return Outcome("wrong", {
        "en": f"Your new knight stands on {where(sq)}, on the ground (level 0). That is allowed, but a knight on the "
              "ground is on no castle and scores nothing. Try again: put it onto a castle.",
        "de": f"Ihr neuer Ritter steht auf {where(sq)}, auf dem Boden (Ebene 0). Das ist erlaubt, aber ein Ritter auf "
              "dem Boden steht auf keiner Burg und bringt keine Punkte. Versuchen Sie es noch einmal: auf eine Burg."})


# --- 3. build -----------------------------------------------------------------------------------------------------
def setup_build() -> GameState:
    return build(2, heights={"c4": 1, "d4": 1, "e5": 1, "g2": 1}, knights={0: ["c4"], 1: ["g2"]})


def judge_build(before: GameState, after: GameState, action: Action) -> Outcome:
    if action.kind is Kind.STACK:
        return Outcome("step", {
            "en": f"You took a stack of {after.turn_stack} blocks: this turn you build with these, 1 AP per block. "
                  "Now choose “Build a block” and click where it goes.",
            "de": f"Sie haben einen Turm aus {after.turn_stack} Bausteinen genommen: Mit ihnen bauen Sie in diesem "
                  "Zug, 1 AP pro Baustein. Wählen Sie jetzt „Baustein setzen“ und klicken Sie, wohin er soll."})
    if action.kind is not Kind.BLOCK:
        return unexpected(action)
    sq = action.square
    level, area = level_of(after, sq), castle_area(after, sq)
    knight = after.knights[LEARNER][0]
    mine = level_of(after, knight)
    if is_step(knight, sq) and level == mine + 1:
        return Outcome("goal", {
            "en": f"Exactly! {where(sq)} is now level {level}, one above your knight on {where(knight)}: next it can "
                  f"step up there. The castle has area {area} (squares), so it may be at most {area} levels tall.",
            "de": f"Genau! {where(sq)} hat jetzt Ebene {level}, eine über Ihrem Ritter auf {where(knight)}: Als "
                  f"Nächstes kann er dort hinaufsteigen. Die Burg hat die Grundfläche {area} (Felder), also darf sie "
                  f"höchstens {area} Ebenen hoch sein."})
    return Outcome("wrong", {
        "en": f"The block went onto {where(sq)}: it is now level {level}, and its castle has area {area}. A fine move "
              f"in a game, but your knight on level {mine} still has no square one level higher next to it. Try again.",
        "de": f"Der Baustein kam auf {where(sq)}: Das Feld hat jetzt Ebene {level}, seine Burg die Grundfläche "
              f"{area}. Im Spiel ein guter Zug, aber neben Ihrem Ritter auf Ebene {mine} gibt es noch kein Feld eine "
              "Ebene höher. Versuchen Sie es noch einmal."})


# --- 4. castles and their score -------------------------------------------------------------------------------
def setup_castles() -> GameState:
    state = build(2, heights={"b2": 1, "b3": 1, "c2": 1, "c3": 1, "e3": 1, "e4": 2},
                  knights={0: ["d3"], 1: ["b2"]})
    state.ap = 1  # one action left this turn: one move decides
    return state


def best_move_points(before: GameState) -> int:
    """The most castle points any one legal move of the learner would give now (each tried with the engine)."""
    best = 0
    for action in before.legal_actions:
        if action.kind is Kind.MOVE:
            before.push(action)
            best = max(best, points_now(before)[0])
            before.pop()
    return best


def judge_castles(before: GameState, after: GameState, action: Action) -> Outcome:
    if action.kind is not Kind.MOVE:
        return unexpected(action)
    dst = action.square
    points, best = points_now(after)[0], best_move_points(before)
    level, area = level_of(after, dst), castle_area(after, dst)
    if area and points == best:
        return Outcome("goal", {
            "en": f"Right! Your knight is on level {level} of a castle of area {area}: if the phase ended now it "
                  f"would score {area} × {level} = {points} points — the most any move gives here. The big low castle "
                  "beats the small tall one. Blue's knight on the same castle does not take anything from you.",
            "de": f"Richtig! Ihr Ritter steht auf Ebene {level} einer Burg mit Grundfläche {area}: Endete die Phase "
                  f"jetzt, brächte er {area} × {level} = {points} Punkte – mehr gibt kein Zug hier. Die große "
                  "niedrige Burg schlägt die kleine hohe. Der blaue Ritter auf derselben Burg nimmt Ihnen nichts weg."})
    if area:
        return Outcome("wrong", {
            "en": f"Your knight is on level {level} of a castle of area {area}: {area} × {level} = {points} points. "
                  f"Another move gives {best}. Try again: count the squares of each castle.",
            "de": f"Ihr Ritter steht auf Ebene {level} einer Burg mit Grundfläche {area}: {area} × {level} = {points} "
                  f"Punkte. Ein anderer Zug bringt {best}. Versuchen Sie es noch einmal: Zählen Sie die Felder jeder "
                  "Burg."})
    return Outcome("wrong", {
        "en": f"Your knight is on the ground ({where(dst)}): it is on no castle and would score nothing. Another move "
              f"gives {best} points. Try again.",
        "de": f"Ihr Ritter steht auf dem Boden ({where(dst)}): auf keiner Burg, also ohne Punkte. Ein anderer Zug "
              f"bringt {best} Punkte. Versuchen Sie es noch einmal."})


# --- 5. doors -------------------------------------------------------------------------------------------------
def setup_doors() -> GameState:
    state = build(2, heights={"b4": 1, "c4": 3, "d4": 1, "c3": 2, "g7": 1}, knights={0: ["b4"], 1: ["g7"]})
    state.ap = 1
    return state


def judge_doors(before: GameState, after: GameState, action: Action) -> Outcome:
    if action.kind is not Kind.MOVE:
        return unexpected(action)
    src, dst = action.source, action.square
    words = climb_words(level_of(before, src), level_of(after, dst))
    if dst == parse_square("d4"):
        return Outcome("goal", {
            "en": f"Through the castle! Your knight walked in at a door of the tower and came out on d4, "
                  f"{words['en']}, for 1 AP, however far apart the doors are. A knight can come out onto any empty "
                  "square next to a higher square of that castle, on its own level or lower.",
            "de": f"Durch die Burg! Ihr Ritter ist durch ein Tor des Turms hinein- und auf d4 wieder herausgegangen, "
                  f"{words['de']}, für 1 AP, egal wie weit die Tore auseinanderliegen. Heraus kommt er auf jedes "
                  "freie Feld neben einem höheren Feld dieser Burg, auf seiner Ebene oder tiefer."})
    how = ({"en": f"stepped to {where(dst)}", "de": f"ist einen Schritt nach {where(dst)} gegangen"}
           if is_step(src, dst) else
           {"en": f"went through the doors to {where(dst)}", "de": f"ist durch die Tore nach {where(dst)} gegangen"})
    return Outcome("wrong", {
        "en": f"Your knight {how['en']}, {words['en']}. That was your last AP, and d4 is still on the other side. Try "
              "again: d4 is one of the door exits of the tower.",
        "de": f"Ihr Ritter {how['de']}, {words['de']}. Das war Ihr letzter AP, und d4 liegt immer noch auf der "
              "anderen Seite. Versuchen Sie es noch einmal: d4 ist ein Ausgang des Turms."})


# --- 6. the king ------------------------------------------------------------------------------------------------
def setup_king() -> GameState:
    state = build(2, heights={"e5": 1, "e6": 2, "f6": 2, "f5": 1, "b5": 1, "c5": 1, "b6": 1, "h2": 1},
                  knights={0: ["d5"], 1: ["h2"]}, king="f6")
    state.ap = 1
    return state


def judge_king(before: GameState, after: GameState, action: Action) -> Outcome:
    if action.kind is not Kind.MOVE:
        return unexpected(action)
    dst = action.square
    castle, bonus = points_now(after)
    level, area = level_of(after, dst), castle_area(after, dst)
    if bonus:
        return Outcome("goal", {
            "en": f"The king is pleased! Your knight is on level {level} of his castle: after phase 1 he gives "
                  f"{bonus} bonus points to every player with a knight on level 1 of his castle (after phase 2: level "
                  f"2, 10 points; after phase 3: level 3, 15 points). With the castle's {area} × {level} = {castle} "
                  f"that makes {castle + bonus} points now.",
            "de": f"Der König ist zufrieden! Ihr Ritter steht auf Ebene {level} seiner Burg: Nach Phase 1 gibt er "
                  f"jedem Spieler mit einem Ritter auf Ebene 1 seiner Burg {bonus} Sonderpunkte (nach Phase 2: Ebene "
                  f"2, 10 Punkte; nach Phase 3: Ebene 3, 15 Punkte). Mit den {area} × {level} = {castle} der Burg "
                  f"sind das jetzt {castle + bonus} Punkte."})
    if area:
        return Outcome("wrong", {
            "en": f"Your knight is on level {level} of a castle of area {area}: {castle} points, but it is not the "
                  "king's castle, so no bonus. Try again: the king's castle has the golden outline.",
            "de": f"Ihr Ritter steht auf Ebene {level} einer Burg mit Grundfläche {area}: {castle} Punkte, aber das "
                  "ist nicht die Königsburg, also kein Bonus. Versuchen Sie es noch einmal: Die Königsburg hat den "
                  "goldenen Rand."})
    return Outcome("wrong", {
        "en": f"Your knight is on the ground ({where(dst)}): no castle, no points, no bonus. Try again.",
        "de": f"Ihr Ritter steht auf dem Boden ({where(dst)}): keine Burg, keine Punkte, kein Bonus. Versuchen Sie es "
              "noch einmal."})


# --- 7. a phase scoring -----------------------------------------------------------------------------------------
def setup_scoring() -> GameState:
    # The last turn of phase 1: Blue (seat 1) started this phase and has played all its turns; yours is the last.
    return build(2, heights={"d4": 1, "d5": 2, "e4": 1, "f3": 1, "g3": 2, "a7": 1},
                 knights={0: ["d4", "f2"], 1: ["d5", "a7"]}, king="e4", start=1, current=0, round=3,
                 scores=[10, 12], stacks={0: [3], 1: []})


def judge_scoring(before: GameState, after: GameState, action: Action) -> Outcome:
    if action.kind is Kind.MOVE:
        (c0, b0), (c1, b1) = points_now(before), points_now(after)
        return Outcome("step", {
            "en": f"If the phase ended now you would score {c1 + b1} (castles {c1}, king's bonus {b1}); before this "
                  f"move {c0 + b0}. {ap_left(after)['en']}",
            "de": f"Endete die Phase jetzt, bekämen Sie {c1 + b1} (Burgen {c1}, Königsbonus {b1}); vor diesem Zug "
                  f"{c0 + b0}. {ap_left(after)['de']}"})
    if action.kind is Kind.SCORE:
        a, b = before.scores[LEARNER], after.scores[LEARNER]
        jump = b - a > 1
        past = say(" — past Blue's marker: a marker never stops on an occupied space, so this AP brought {n} points",
                   " – an Blaus Stein vorbei: Ein Stein bleibt nie auf einem besetzten Feld stehen, also brachte "
                   "dieser AP {n} Punkte", n=b - a) if jump else {"en": "", "de": ""}
        return Outcome("step", {
            "en": f"Your marker moved on from {a} to {b}{past['en']}. {ap_left(after)['en']}",
            "de": f"Ihr Wertungsstein rückte von {a} auf {b} vor{past['de']}. {ap_left(after)['de']}"})
    if action.kind is Kind.END and before.ap > 0:
        return Outcome("wrong", {
            "en": f"You ended your turn with {before.ap} AP unused: they are lost, and each could have been a point "
                  "on the scoring track. Try again: spend all 5 AP, then end the turn.",
            "de": f"Sie haben Ihren Zug mit {before.ap} ungenutzten AP beendet: Diese verfallen, und jeder hätte ein "
                  "Punkt auf der Wertungsleiste sein können. Versuchen Sie es noch einmal: Nutzen Sie alle 5 AP, dann "
                  "beenden Sie den Zug."})
    if action.kind is Kind.END and len(after.scorings) > len(before.scorings):
        scoring = after.scorings[-1]
        en, de = castle_lines(after, LEARNER, -1)
        castle, bonus = scoring.castle_points(LEARNER), scoring.king_bonus[LEARNER]
        blue = scoring.castle_points(1) + scoring.king_bonus[1]
        mine, theirs = (scoring.before[0], scoring.after[0]), (scoring.before[1], scoring.after[1])
        return Outcome("goal", {
            "en": f"Phase 1 is scored. Your castles: {en}, {castle} points in all; king's bonus: {bonus}. Your score "
                  f"went from {mine[0]} to {mine[1]}; Blue got {blue} ({theirs[0]} → {theirs[1]}). Only your highest "
                  "knight on each castle counts. After three such scorings the most points win.",
            "de": f"Phase 1 ist gewertet. Ihre Burgen: {de}, zusammen {castle} Punkte; Königsbonus: {bonus}. Ihr "
                  f"Stand ging von {mine[0]} auf {mine[1]}; Blau bekam {blue} ({theirs[0]} → {theirs[1]}). Auf jeder "
                  "Burg zählt nur Ihr höchster Ritter. Nach drei solchen Wertungen gewinnen die meisten Punkte."})
    return unexpected(action)


# --- 8. a card --------------------------------------------------------------------------------------------------
def setup_card() -> GameState:
    return build(2, heights={"c3": 1, "c4": 3, "b4": 2, "g7": 1}, knights={0: ["c3"], 1: ["g7"]},
                 hands={0: [Card.CLIMB]})


def judge_card(before: GameState, after: GameState, action: Action) -> Outcome:
    if action.kind is Kind.CLIMB:
        src, dst = action.source, action.square
        a, b = level_of(before, src), level_of(after, dst)
        castle = points_now(after)[0]
        return Outcome("goal", {
            "en": f"Up you go! The climb card lifted your knight from level {a} to level {b}, exactly two levels — "
                  f"which no step can do. Playing a card costs 0 AP (one card per turn); the card then leaves the "
                  f"game. Your knight now scores {castle} if the phase ended now.",
            "de": f"Hinauf! Die Karte „Klettern“ hat Ihren Ritter von Ebene {a} auf Ebene {b} gebracht, genau zwei "
                  f"Ebenen – das schafft kein Schritt. Eine Karte auszuspielen kostet 0 AP (eine Karte pro Zug); "
                  f"danach ist sie aus dem Spiel. Endete die Phase jetzt, brächte Ihr Ritter {castle} Punkte."})
    if action.kind is Kind.MOVE:
        src, dst = action.source, action.square
        words = climb_words(level_of(before, src), level_of(after, dst))
        return Outcome("wrong", {
            "en": f"Your knight went {words['en']}. A step never climbs two levels, and from there the tower is as "
                  "far away as before. Try again: click the climb card in your hand first.",
            "de": f"Ihr Ritter ging {words['de']}. Ein Schritt klettert nie zwei Ebenen, und von dort ist der Turm so "
                  "fern wie vorher. Versuchen Sie es noch einmal: Klicken Sie zuerst die Karte „Klettern“ auf Ihrer "
                  "Hand an."})
    return unexpected(action)


# --- the lessons ------------------------------------------------------------------------------------------------
LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "move", say("Move and climb", "Ziehen und klettern"),
        say("This is the board: 8 × 8 squares, named like a chessboard (files a–h, ranks 1–8). Blocks stacked on the "
            "squares make castles; a square's level is the number of blocks on it, and a knight stands on the level "
            "of its square. Your knights are red, Blue's are blue.\n\nOn your turn you have 5 action points (AP). "
            "Moving a knight one square — forward, back or sideways, never diagonally — costs 1 AP. A step may climb "
            "at most one level, and go down any number. A knight never steps onto another knight or the king.",
            "Das ist der Spielplan: 8 × 8 Felder, benannt wie beim Schach (Spalten a–h, Reihen 1–8). Aufeinander "
            "gesetzte Bausteine bilden Burgen; die Ebene eines Feldes ist die Zahl der Bausteine darauf, und ein "
            "Ritter steht auf der Ebene seines Feldes. Ihre Ritter sind rot, die von Blau blau.\n\nIn Ihrem Zug haben "
            "Sie 5 Aktionspunkte (AP). Einen Ritter ein Feld weit zu ziehen – vor, zurück oder zur Seite, nie "
            "diagonal – kostet 1 AP. Ein Schritt darf höchstens eine Ebene hinauf führen, hinunter beliebig viele. "
            "Ein Ritter zieht nie auf einen anderen Ritter oder den König."),
        say("Bring your knight from the ground (b4) to the top of the tower on e4, level 3. Click your knight, then a "
            "lit square. (Why is d4 not lit at first? It is level 2: two levels above your knight.)",
            "Bringen Sie Ihren Ritter vom Boden (b4) ganz nach oben auf den Turm auf e4, Ebene 3. Klicken Sie Ihren "
            "Ritter an und dann ein leuchtendes Feld. (Warum leuchtet d4 anfangs nicht? Es hat Ebene 2: zwei Ebenen "
            "über Ihrem Ritter.)"),
        ("move",), setup_move, judge_move, ("b4-c4", "c4-d4", "d4-e4")),
    Lesson(
        "knight", say("Add a knight", "Ritter einsetzen"),
        say("You have 6 knights; the game starts with one of them on the board. For 2 AP you bring in another: onto "
            "an empty square right next to (not diagonally) one of your knights, on that knight's level or lower — "
            "never higher. More knights on more castles means more points.",
            "Sie haben 6 Ritter; das Spiel beginnt mit einem davon auf dem Spielplan. Für 2 AP setzen Sie einen "
            "weiteren ein: auf ein freies Feld direkt neben (nicht diagonal) einem Ihrer Ritter, auf dessen Ebene "
            "oder tiefer – nie höher. Mehr Ritter auf mehr Burgen bringen mehr Punkte."),
        say("Choose “Add a knight” under the board and put a new knight onto a castle. (Why is d5 not lit? It is "
            "level 3, higher than your knight on level 2.)",
            "Wählen Sie unter dem Spielplan „Ritter einsetzen“ und setzen Sie einen neuen Ritter auf eine Burg. "
            "(Warum leuchtet d5 nicht? Es hat Ebene 3, höher als Ihr Ritter auf Ebene 2.)"),
        ("knight",), setup_knight, judge_knight, ("knight c4",)),
    Lesson(
        "build", say("Build", "Bauen"),
        say("Each phase you get stacks of blocks (with 2 players: 4 stacks of 3); each stack is one turn. On your "
            "turn you take one stack (free) and place its blocks, 1 AP each — you need not place them all.\n\nA block "
            "always goes onto a castle — on top of one of its squares, or on the ground right next to it — and only "
            "onto an empty square, never under a piece. Castles belong to nobody: everyone builds on all of them. A "
            "castle may never be taller than its area (its number of squares), and castles never join: a block may "
            "not touch two castles.",
            "In jeder Phase bekommen Sie Türme aus Bausteinen (zu zweit: 4 Türme zu 3); jeder Turm ist ein Zug. In "
            "Ihrem Zug nehmen Sie einen Turm (kostenlos) und setzen seine Bausteine ein, je 1 AP – Sie müssen nicht "
            "alle verbauen.\n\nEin Baustein kommt immer an eine Burg – auf eines ihrer Felder oder daneben auf den "
            "Boden – und nur auf ein freies Feld, nie unter eine Figur. Burgen gehören niemandem: Alle bauen an "
            "allen. Eine Burg darf nie höher sein als ihre Grundfläche (die Zahl ihrer Felder), und Burgen wachsen "
            "nie zusammen: Ein Baustein darf nicht an zwei Burgen grenzen."),
        say("Your knight on c4 is on level 1. Take a stack of 3, choose “Build a block” and make a square next to "
            "your knight one level higher than it, so that it can climb. (Why are d5 and e4 not lit? They touch two "
            "castles. And e5? Its castle has area 1, so it is as tall as it may be.)",
            "Ihr Ritter auf c4 steht auf Ebene 1. Nehmen Sie einen Turm aus 3, wählen Sie „Baustein setzen“ und "
            "machen Sie ein Feld neben Ihrem Ritter eine Ebene höher als ihn, damit er klettern kann. (Warum leuchten "
            "d5 und e4 nicht? Sie grenzen an zwei Burgen. Und e5? Seine Burg hat Grundfläche 1, sie ist also so hoch "
            "wie erlaubt.)"),
        ("stack", "block"), setup_build, judge_build, ("stack 3", "block d4")),
    Lesson(
        "castles", say("Castles and their score", "Burgen und ihre Wertung"),
        say("Three times a game, at the end of each phase, every castle is scored. For each castle you have a knight "
            "on you get its area × the level of your highest knight there. A knight on the ground scores nothing; "
            "other players' knights on the same castle take nothing from you.",
            "Dreimal im Spiel, am Ende jeder Phase, werden alle Burgen gewertet. Für jede Burg, auf der Sie einen "
            "Ritter haben, bekommen Sie ihre Grundfläche × die Ebene Ihres höchsten Ritters dort. Ein Ritter auf dem "
            "Boden bringt nichts; Ritter anderer Spieler auf derselben Burg nehmen Ihnen nichts weg."),
        say("You have 1 AP left. Make the one move that would score the most if the phase ended now.",
            "Sie haben noch 1 AP. Machen Sie den einen Zug, der die meisten Punkte brächte, wenn die Phase jetzt "
            "endete."),
        ("move",), setup_castles, judge_castles, ("d3-c3",)),
    Lesson(
        "doors", say("Doors", "Tore"),
        say("Every block has doors on all four sides. A knight standing next to a higher square of a castle can walk "
            "in through its door and come out at any other door of the same castle — for 1 AP, however far. Inside it "
            "never climbs: it comes out onto an empty square next to a higher square of that castle, on its own level "
            "or lower.",
            "Jeder Baustein hat auf allen vier Seiten Tore. Ein Ritter neben einem höheren Feld einer Burg kann durch "
            "dessen Tor hineingehen und aus jedem anderen Tor derselben Burg herauskommen – für 1 AP, egal wie weit. "
            "Drinnen klettert er nie: Er kommt auf ein freies Feld neben einem höheren Feld dieser Burg heraus, auf "
            "seiner Ebene oder tiefer."),
        say("You have 1 AP left. Get your knight from b4 to d4, on the other side of the tower. (Why is c3 not lit? "
            "It is level 2, above your knight: a door never takes a knight up.)",
            "Sie haben noch 1 AP. Bringen Sie Ihren Ritter von b4 nach d4, auf die andere Seite des Turms. (Warum "
            "leuchtet c3 nicht? Es hat Ebene 2, über Ihrem Ritter: Durch ein Tor geht es nie hinauf.)"),
        ("move",), setup_doors, judge_doors, ("b4-d4",)),
    Lesson(
        "king", say("The king", "Der König"),
        say("The king stands on a castle: the king's castle (the golden outline). It scores like any castle, and at "
            "each scoring the king gives a bonus to every player with a knight on the right level of it: after phase "
            "1 level 1 (5 points), after phase 2 level 2 (10), after phase 3 level 3 (15). No knight may step onto "
            "the king or build under him. Between phases the player with the fewest points may move him.",
            "Der König steht auf einer Burg: der Königsburg (mit dem goldenen Rand). Sie wird wie jede Burg gewertet, "
            "und bei jeder Wertung gibt der König jedem Spieler mit einem Ritter auf der richtigen Ebene seiner Burg "
            "Sonderpunkte: nach Phase 1 Ebene 1 (5 Punkte), nach Phase 2 Ebene 2 (10), nach Phase 3 Ebene 3 (15). "
            "Kein Ritter darf auf den König ziehen oder unter ihn bauen. Zwischen den Phasen darf, wer die wenigsten "
            "Punkte hat, ihn versetzen."),
        say("It is phase 1 and you have 1 AP left. Earn the king's bonus.",
            "Es ist Phase 1, und Sie haben noch 1 AP. Holen Sie sich den Königsbonus."),
        ("move",), setup_king, judge_king, ("d5-e5",)),
    Lesson(
        "scoring", say("A phase scoring", "Eine Wertung"),
        say("A phase ends when every player has used up their stacks: it is this turn, your last of phase 1. Then "
            "each player scores every castle they stand on (area × level of their highest knight), then the king's "
            "bonus. After the scoring new stacks are handed out and the next phase begins; the game ends after the "
            "third scoring, and the most points win.\n\nAction points you do not spend are lost at the end of your "
            "turn. What you cannot use better, spend on the scoring track: “Score 1 point” moves your marker one "
            "space on for 1 AP — and past any marker in the way, as a marker never stops on an occupied space.",
            "Eine Phase endet, wenn alle ihre Türme verbraucht haben: Das ist dieser Zug, Ihr letzter in Phase 1. "
            "Dann bekommt jeder Spieler für jede Burg, auf der er steht, Punkte (Grundfläche × Ebene seines höchsten "
            "Ritters), danach den Königsbonus. Nach der Wertung gibt es neue Türme, und die nächste Phase beginnt; "
            "nach der dritten Wertung endet das Spiel, und die meisten Punkte gewinnen.\n\nAktionspunkte, die Sie "
            "nicht nutzen, verfallen am Ende Ihres Zuges. Was Sie nicht besser nutzen können, geben Sie für die "
            "Wertungsleiste aus: „1 Punkt vorziehen“ rückt Ihren Wertungsstein für 1 AP ein Feld vor – und an jedem "
            "Stein im Weg vorbei, denn ein Stein bleibt nie auf einem besetzten Feld stehen."),
        say("Use all 5 AP: move your knights to score more at the scoring (the message tells you what it would "
            "bring), put the rest on the scoring track, then click “End turn” to end the phase and see the scoring.",
            "Nutzen Sie alle 5 AP: Ziehen Sie Ihre Ritter so, dass die Wertung mehr bringt (die Meldung sagt Ihnen, "
            "wie viel), geben Sie den Rest für die Wertungsleiste aus und klicken Sie dann „Zug beenden“, um die "
            "Phase zu beenden und die Wertung zu sehen."),
        ("move", "score", "end"), setup_scoring, judge_scoring,
        ("f2-f3", "f3-g3", "score", "score", "score", "end")),
    Lesson(
        "card", say("A card", "Eine Aktionskarte"),
        say("For 1 AP you may buy an action card (at most 2 per turn): you draw the top 3 cards of your deck, keep "
            "one and put the others back. A card bought this turn can be played from your next turn on. Playing a "
            "card costs 0 AP, at most one per turn. There are ten cards: extra action points, a diagonal move, a jump "
            "over a knight, an extra block and more — click a card to read what it does.",
            "Für 1 AP dürfen Sie eine Aktionskarte kaufen (höchstens 2 pro Zug): Sie ziehen die obersten 3 Karten "
            "Ihres Stapels, behalten eine und legen die anderen zurück. Eine in diesem Zug gekaufte Karte können Sie "
            "ab Ihrem nächsten Zug ausspielen. Eine Karte auszuspielen kostet 0 AP, höchstens eine pro Zug. Es gibt "
            "zehn Karten: zusätzliche Aktionspunkte, ein Zug diagonal, ein Sprung über einen Ritter, ein zusätzlicher "
            "Baustein und mehr – klicken Sie eine Karte an, um zu lesen, was sie kann."),
        say("Your knight on c3 (level 1) wants onto the tower c4 (level 3): two levels up, too much for a step. You "
            "hold the climb card: click it, then the lit square.",
            "Ihr Ritter auf c3 (Ebene 1) will auf den Turm c4 (Ebene 3): zwei Ebenen hinauf, zu viel für einen "
            "Schritt. Sie haben die Karte „Klettern“: Klicken Sie sie an, dann das leuchtende Feld."),
        ("move", "card"), setup_card, judge_card, ("play climb c3-c4",)),
)

BY_ID = {lesson.id: lesson for lesson in LESSONS}


class AttemptError(ValueError):
    """An attempt the lesson cannot take: an illegal action (the engine's reason), or one after the end."""


@dataclass(frozen=True)
class Attempt:
    state: GameState
    outcomes: tuple[Outcome, ...]

    @property
    def last(self) -> Outcome | None:
        return self.outcomes[-1] if self.outcomes else None


def attempt(lesson: Lesson, actions: list[str]) -> Attempt:
    """Replay ``actions`` on the lesson's position, judging each; ``AttemptError`` for an illegal action (the
    engine says why) or an action after the attempt has ended (goal reached, or a wrong action)."""
    if len(actions) > MAX_ACTIONS:
        raise AttemptError(f"an attempt holds at most {MAX_ACTIONS} actions")
    state = lesson.setup()
    outcomes: list[Outcome] = []
    for i, text in enumerate(actions):
        if len(text) > MAX_ACTION_CHARS:
            raise AttemptError(f"action {i + 1} is longer than {MAX_ACTION_CHARS} characters")
        if outcomes and outcomes[-1].kind != "step":
            raise AttemptError(f"action {i + 1}: this attempt has ended; start the lesson again")
        try:
            action = state.parse(text)
        except IllegalActionError as exc:
            raise AttemptError(f"action {i + 1}: {exc}") from None
        before = state.clone()
        state.push(action)
        outcomes.append(lesson.judge(before, state, action))
    return Attempt(state, tuple(outcomes))
