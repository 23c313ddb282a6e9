"""Terminal play through a real pseudo-terminal (pexpect): ``torres play`` against a bot and hot-seat, ``torres
demo``. Every game is seeded, so the bots' moves (and so the scripted human moves) are the same on every run."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest
from rich.console import Console

from torres import GameState, Kind, parse_square
from torres.engine.actions import DECODE
from torres.records import read_record, replay
from torres.tui.render import Seat, castle_colours, render_ranking, render_scoring, render_screen
from torres.tui.session import turn_log

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|[\x01\x02]")
VS_BOT = ["--players", "2", "--seats", "human:Ann,bot:random", "--edition", "riogrande", "--no-master",
          "--cards", "own", "--seed", "7", "--delay", "0"]


def spawn(*args: str, size: tuple[int, int] = (50, 140)) -> pexpect.spawn:
    env = dict(os.environ, TERM="xterm-256color", PYTHONIOENCODING="utf-8")
    for name in ("NO_COLOR", "COLUMNS", "LINES"):  # the pty's own size decides the layout
        env.pop(name, None)
    child = pexpect.spawn(sys.executable, ["-m", "torres.cli.main", *args], cwd=str(ROOT), env=env,
                          encoding="utf-8", dimensions=size, timeout=20)
    return child


def plain(text: str | None) -> str:
    return ANSI.sub("", text or "")


PROMPT = r"(Ann|Bob) (?:\[(\d+) AP\] )?›"


def cmd(child: pexpect.spawn, line: str, until: str = PROMPT) -> str:
    """Type a line and wait for ``until`` (by default the next prompt); the output in between, without colours."""
    child.sendline(line)
    child.expect(until)
    return plain(child.before)


def ap(child: pexpect.spawn) -> int:
    """The action points shown in the prompt just matched."""
    return int(child.match.group(2))


def start_vs_bot(child: pexpect.spawn) -> None:
    """Setup: an illegal first knight, then a legal one; the bot places its knight and the king."""
    child.expect(PROMPT)
    out = cmd(child, "start b2")
    assert "✗ start b2" in out and "castle" in out  # the engine's one-line reason
    cmd(child, "start c6")
    assert ap(child) == 5


def test_play_against_a_bot_undo_save(tmp_path: Path) -> None:
    child = spawn("play", *VS_BOT)
    start_vs_bot(child)
    # Nothing of this turn yet: undo must not reach into the bot's setup.
    assert "✗ nothing of this turn" in cmd(child, "undo")
    # Tab completion: "sco" is no action, Tab completes it to the legal "score".
    child.send("sco\t")
    child.expect("score")
    cmd(child, "")
    assert ap(child) == 4
    # An illegal move is refused with the engine's reason and changes nothing.
    out = cmd(child, "c6-c4")
    assert "✗ c6-c4" in out and ap(child) == 4
    out = cmd(child, "?")
    assert "move a knight" in out and "c6-c5" in out and "end the turn" in out
    # Legal actions, then undo them one by one.
    cmd(child, "stack 3")
    cmd(child, "block c5")
    assert ap(child) == 3
    assert "took back block c5" in cmd(child, "undo") and ap(child) == 4
    assert "took back stack 3" in cmd(child, "undo")
    assert "took back score" in cmd(child, "undo") and ap(child) == 5
    assert "✗ nothing of this turn" in cmd(child, "undo")
    # A buy reveals cards: neither it nor the keep that follows can be taken back.
    assert "Drawn: " in cmd(child, "buy")
    assert "✗ cannot undo: the card draw" in cmd(child, "undo")
    keep = hint(child)
    assert keep.startswith("keep ")
    cmd(child, keep)
    assert ap(child) == 4
    assert "✗ cannot undo: the card draw" in cmd(child, "undo")
    assert "✗" not in cmd(child, "stack 3")
    assert "took back stack 3" in cmd(child, "undo")  # later actions of the turn can still be taken back
    path = tmp_path / "game.json"
    assert "saved to" in cmd(child, f"save {path}")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    record = read_record(path)
    assert record["actions"][0] == "start c6"
    assert record["actions"][-2:] == ["buy", keep]
    assert record["meta"]["seats"] == ["human", "random"]
    assert replay(record).current == 0


def hint(child: pexpect.spawn) -> str:
    out = cmd(child, "hint")
    return out.split("hint: ")[1].splitlines()[0].strip()


def test_load_and_play_to_the_end(tmp_path: Path) -> None:
    child = spawn("play", *VS_BOT)
    start_vs_bot(child)
    cmd(child, "stack 3")
    cmd(child, "block c5")
    saved = tmp_path / "saved.json"
    assert "saved to" in cmd(child, f"save {saved}")
    child.sendline("quit")
    child.expect(pexpect.EOF)

    child = spawn("play", "--load", str(saved), "--delay", "0", size=(24, 80))  # a small terminal
    child.expect(PROMPT)
    assert ap(child) == 4  # the loaded turn goes on where it was saved
    assert "block c5" in plain(child.before)  # ... with its actions on the board's log
    # The actions before the save are not this session's to take back.
    assert "✗ nothing of this turn" in cmd(child, "undo")
    scorings = turns = 0
    line = "end"
    while True:
        child.sendline(line)
        index = child.expect([PROMPT, "press Enter to continue", "Final ranking"])
        if index == 0:
            # "end" every turn; after a scoring the lowest score may move the king: leave it.
            line = "end" if child.match.group(2) else "king stay"
            turns += line == "end"
        elif index == 1:
            scorings += 1
            line = ""
        else:
            break
    child.expect("Game over")
    child.expect("›")
    final = tmp_path / "final.json"
    cmd(child, f"save {final}", until="saved to")
    child.expect("›")
    child.sendline("")
    child.expect(pexpect.EOF)
    assert scorings == 2  # the tables of phases 1 and 2 wait for Enter; phase 3's comes with the ranking
    assert turns == 11  # 2 players, 4 + 4 + 4 rounds: Ann's 12 turns, the first ended before the loop
    record = read_record(final)
    assert record["result"]["finished"] is True
    state = replay(record)
    assert state.is_over() and len(state.scorings) == 3


def test_hot_seat_hides_the_previous_players_cards() -> None:
    child = spawn("play", "--players", "2", "--seats", "human:Ann,human:Bob", "--edition", "riogrande",
                  "--no-master", "--cards", "own", "--seed", "11", "--delay", "0")
    child.expect("Pass to Ann")  # the first player takes the screen too
    child.expect("press Enter")
    cmd(child, "")
    cmd(child, "start c6", until="Pass to Bob")
    child.expect("press Enter")
    cmd(child, "")
    assert child.match.group(1) == "Bob"
    cmd(child, "start f3")
    assert child.match.group(1) == "Bob"  # the king is placed by the last player: still Bob, no hand-over
    cmd(child, "king c3", until="Pass to Ann")
    child.expect("press Enter")
    cmd(child, "")
    assert child.match.group(1) == "Ann" and ap(child) == 5
    drawn = cmd(child, "buy")
    assert "Drawn: " in drawn
    keep = hint(child)
    cmd(child, keep)
    kept = keep.split()[1]
    screen = cmd(child, "board")
    assert f"Your cards: {kept}" in screen and f"keep {kept}" in screen  # Ann sees her card and what she kept
    handover = cmd(child, "end", until="Pass to Bob")
    child.expect("press Enter")
    # The screen handed to Bob shows no cards: no hand, no drawn cards, no kept card in the log.
    assert "Your cards" not in handover and "Drawn" not in handover and "keep" not in handover
    assert kept not in handover
    cmd(child, "")
    assert child.match.group(1) == "Bob" and ap(child) == 5
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_menu_asks_for_missing_choices() -> None:
    child = spawn("play", "--seed", "3", "--delay", "0")
    child.expect("Players")
    for answer, question in (("2", "Seat 1"), ("human", "name"), ("Ann", "Seat 2"), ("random", "Edition"),
                             ("ravensburger", "Master version"), ("n", "common deck")):
        child.sendline(answer)
        child.expect(question)
    board = cmd(child, "common")
    assert "Ravensburger (common deck)" in board and "Random" not in board.split("player")[0]
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_demo_plays_to_the_final_ranking() -> None:
    child = spawn("demo", "--players", "2", "--seed", "3", "--delay", "0")
    for phase in (1, 2, 3):
        child.expect(f"Scoring after phase {phase}")
    child.expect("Final ranking")
    child.expect("winner")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("bad", [["--seats", "human"], ["--edition", "nope"], ["--cards", "both"]])
def test_bad_flags_are_refused(bad: list[str]) -> None:
    child = spawn("play", "--players", "2", "--seed", "1", "--no-master", "--cards", "own", "--edition",
                  "riogrande", *bad)
    child.expect("error")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


# --- the drawing itself, without a terminal -------------------------------------------------------------------
def _bot_game(players: int, seed: int, actions: int, phase: int = 3) -> GameState:
    """Random bots play ``actions`` actions, or until ``phase`` (0-based) begins, or to the end."""
    from torres.ai import make_bot

    state = GameState(players, seed)
    bots = [make_bot("random", seed * 10 + s) for s in range(players)]
    for _ in range(actions):
        if state.is_over() or state.phase >= phase:
            break
        state.push(bots[state.current].choose(state.view(state.current)))
    return state


def _text(renderable: object, width: int = 120) -> str:
    console = Console(width=width, force_terminal=False, color_system=None)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


def test_each_castle_keeps_its_own_colour() -> None:
    state = GameState(4, 1)
    first = castle_colours(state.view(0))
    starting = [parse_square(sq) for sq in state.rules.castles]
    assert len({first[sq] for sq in starting}) == 8  # 8 castles, 8 colours
    state = _bot_game(4, 1, 120)
    later = castle_colours(state.view(0))
    for sq in starting:
        if sq in later:  # a castle that grew is still drawn in the colour it started with
            cid = state.info.cid[sq]
            assert all(later[other] == first[sq] for other in state.info.squares[cid])


def test_screen_shows_only_the_hand_of_the_seat_at_the_keyboard() -> None:
    state = _bot_game(3, 5, 10_000, phase=1)
    seats = [Seat("Ann", True), Seat("Blue", False, "random"), Seat("Yellow", False, "random")]
    view = state.view(0)
    kinds = [DECODE[a][0] for a in state.history]
    mine = _text(render_screen(view, seats, 0, turn_log(view, kinds, state.actors, 0)))
    assert "Your cards" in mine and "a   b   c" in mine and "phase" in mine
    nobody = _text(render_screen(view, seats, None, turn_log(view, kinds, state.actors, None)))
    assert "Your cards" not in nobody and "keep" not in nobody
    # Other seats' kept cards never reach the log, whoever is shown.
    others = [i for i, (k, s) in enumerate(zip(kinds, state.actors)) if k is Kind.KEEP and s != 0]
    assert others, "the game should have had card draws by the bots"
    log = " ".join(e.text for e in turn_log(view, kinds, state.actors, 0))
    for i in others:
        assert state.actions_text()[i] not in log


def test_scoring_table_and_ranking_show_every_bonus() -> None:
    state = _bot_game(2, 3, 10_000)
    assert state.is_over()
    seats = [Seat("Ann", True), Seat("Blue", False, "random")]
    view = state.view(0)
    scoring = state.scorings[-1]
    table = _text(render_scoring(scoring, view, seats))
    assert "Scoring after phase 3" in table and "king's bonus" in table
    for before, after in zip(scoring.before, scoring.after):
        assert f"{before} → {after}" in table
    ranking = _text(render_ranking(view, seats))
    assert "winner" in ranking and str(max(state.scores)) in ranking
