"""The record and bench commands, through typer's CliRunner and through the installed console script."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import run_command
from typer.testing import CliRunner

import torres.cli.bench_cmd  # noqa: F401  (registers `bench`)
import torres.cli.records_cmds  # noqa: F401  (registers `selfplay`, `replay`, `legal`)
from torres import GameState, Rules
from torres.cli.app import app
from torres.cli.main import COMMAND_MODULES
from torres.records import read_record, replay

runner = CliRunner()
TORRES = Path(sys.executable).parent / "torres"
ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> Any:
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rec") / "game.json"
    result = run("selfplay", "--players", "3", "--seed", "9", "--out", str(path))
    assert result.exit_code == 0, result.output
    return path


def test_modules_are_registered() -> None:
    assert "records_cmds" in COMMAND_MODULES and "bench_cmd" in COMMAND_MODULES


def test_selfplay_to_stdout_is_a_record_and_summary_goes_to_stderr() -> None:
    result = run("selfplay", "--players", "2", "--seed", "3", "--edition", "idw")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["format"] == "torres-record" and record["edition"] == "idw" and record["players"] == 2
    assert record["meta"]["bots"] == ["random", "random"]
    assert record["result"]["finished"] is True
    state = replay(record)
    assert "scores:" in result.stderr and "winner: seat" in result.stderr
    for seat in range(2):
        assert f"seat {seat} (random) {state.scores[seat]}" in result.stderr


def test_selfplay_is_deterministic_for_a_seed() -> None:
    a = json.loads(run("selfplay", "-n", "4", "-s", "5").stdout)
    b = json.loads(run("selfplay", "-n", "4", "-s", "5").stdout)
    c = json.loads(run("selfplay", "-n", "4", "-s", "6").stdout)
    assert a["actions"] == b["actions"]
    assert a["actions"] != c["actions"]


def test_selfplay_options_reach_the_rules(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    result = run("selfplay", "-n", "2", "--edition", "yucata", "--master", "--card-mode", "common",
                 "--bots", "random,random", "--out", str(out))
    assert result.exit_code == 0, result.output
    record = read_record(out)
    rules = Rules.from_text(record["rules"])
    assert rules.edition == "yucata" and rules.master and rules.card_mode.value == "common"
    assert record["actions"][0].startswith("castle ")
    assert f"record written to {out}" in result.stderr


def test_selfplay_stop_after_writes_an_unfinished_record() -> None:
    result = run("selfplay", "--stop-after", "25")
    record = json.loads(result.stdout)
    assert len(record["actions"]) == 25 and record["result"]["finished"] is False
    assert "unfinished" in result.stderr


@pytest.mark.parametrize("args, message", [
    (["--bots", "random,random,random"], "names 3 bots for 2 players"),
    (["--bots", "genius"], "unknown bot 'genius'"),
    (["--edition", "monopoly"], "unknown edition 'monopoly'"),
])
def test_selfplay_rejects_bad_options(args: list[str], message: str) -> None:
    result = run("selfplay", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stdout == ""


def test_replay_prints_position_and_scores(record_file: Path) -> None:
    state = replay(read_record(record_file))
    result = run("replay", str(record_file))
    assert result.exit_code == 0, result.output
    assert f"position: {state.position()}" in result.stdout
    assert "replay OK" in result.stdout and "game over after phase 3" in result.stdout
    assert "Scores" in result.stdout
    for seat in range(3):
        assert any(line.split("│")[1:4] == [f" {seat} ".rjust(6), " random ", f" {state.scores[seat]} ".rjust(7)]
                   for line in result.stdout.splitlines() if line.count("│") >= 4)


def test_replay_json(record_file: Path) -> None:
    record = read_record(record_file)
    state = replay(record)
    result = run("replay", str(record_file), "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["scores"] == state.scores
    assert summary["finished"] is True and summary["stage"] == "over"
    assert summary["position"] == state.position()
    assert summary["actions"] == len(record["actions"])
    assert (summary["phase"], summary["round"], summary["current"]) == (state.phase + 1, state.round + 1,
                                                                         state.current)


def test_replay_of_an_unfinished_game_says_who_is_to_act(tmp_path: Path) -> None:
    out = tmp_path / "u.json"
    run("selfplay", "--stop-after", "12", "--out", str(out))
    state = replay(read_record(out))
    result = run("replay", str(out))
    assert result.exit_code == 0, result.output
    assert f"seat {state.current} to act" in result.stdout
    assert json.loads(run("replay", str(out), "--json").stdout)["finished"] is False


def test_replay_of_a_tampered_record_names_index_text_and_rule(record_file: Path, tmp_path: Path) -> None:
    record = read_record(record_file)
    record["actions"].insert(2, "buy")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    state = GameState(3, record["seed"], Rules.from_text(record["rules"])).play(record["actions"][:2])
    assert not state.is_legal("buy")
    result = run("replay", str(bad), "--json")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "action 2 ('buy') is illegal" in result.stderr
    assert "each player places a first knight" in result.stderr


@pytest.mark.parametrize("content, message", [
    ("{not json", "not valid JSON"),
    ('{"format": "pgn"}', "not a Torres record"),
    ('{"format": "torres-record", "version": 1}', "record lacks the fields"),
])
def test_replay_of_a_malformed_file_fails_cleanly(tmp_path: Path, content: str, message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    result = run("replay", str(bad))
    assert result.exit_code == 1
    assert message in result.stderr and str(bad) in result.stderr
    assert "Traceback" not in result.output


def test_replay_of_a_missing_file(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "nope.json"))
    assert result.exit_code == 1 and "cannot read" in result.stderr


def test_legal_at_a_point_of_a_record_groups_by_kind(record_file: Path) -> None:
    record = read_record(record_file)
    k = 3  # all three first knights placed: the king's setup square is to be chosen
    state = replay(record, upto=k)
    result = run("legal", str(record_file), "--at", str(k))
    assert result.exit_code == 0, result.output
    assert f"seat {state.current} to act" in result.stdout
    assert f"{len(state.legal_actions)} legal actions" in result.stdout
    kinds = {a.kind.name.lower() for a in state.legal_actions}
    rows = [line for line in result.stdout.splitlines() if line.startswith("│")]
    assert {row.split("│")[1].strip() for row in rows} == kinds
    for action in state.legal_actions:
        assert str(action) in result.stdout


def test_legal_json_from_a_position(record_file: Path) -> None:
    state = replay(read_record(record_file), upto=40)
    result = run("legal", "--position", state.position(), "--json")
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout)
    assert [a["text"] for a in info["actions"]] == [str(a) for a in state.legal_actions]
    assert [a["id"] for a in info["actions"]] == state.legal_action_ids()
    assert info["count"] == len(state.legal_actions) and info["current"] == state.current


def test_legal_at_the_end_of_a_finished_game(record_file: Path) -> None:
    result = run("legal", str(record_file))
    assert result.exit_code == 0 and "game is over" in result.stdout
    info = json.loads(run("legal", str(record_file), "--json").stdout)
    assert info["finished"] is True and info["actions"] == [] and info["count"] == 0


@pytest.mark.parametrize("args, message", [
    ([], "give a record FILE or --position, not both or neither"),
    (["--position", "torres/1 n=2"], "bad position"),
    (["--position", "chess"], "bad position"),
    (["--position", GameState(2, 1).play(["start d8", "start c6", "king f6"]).position().replace(
        "board=0.0.0.1a0.0.0.0./0.0.0.0.0.0.0.0.", "board=0.0.0.1a0.0.0.0./0.0.0.0c0.0.0.0.")], "bad position"),
    (["x.json", "--position", "torres/1"], "not both or neither"),
    (["--position", "torres/1", "--at", "3"], "--at applies to a record FILE"),
])
def test_legal_rejects_bad_input(args: list[str], message: str) -> None:
    result = run("legal", *args)
    assert result.exit_code != 0 and message in result.stderr


def test_bench_json_has_every_field() -> None:
    result = run("bench", "--seconds", "0.01", "--reps", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rows = {(s["players"], s["mode"]) for s in data["torres"]}
    assert rows == {(n, m) for n in (2, 3, 4) for m in ("push", "apply")}
    for s in data["torres"]:
        assert s["actions_per_second"] > 0 and s["games_per_second"] > 0 and s["games"] >= 1
        assert s["ratio_vs_chess"] == pytest.approx(s["actions_per_second"] / data["chess"]["actions_per_second"])
    assert data["chess"]["actions_per_second"] > 0 and data["chess"]["actions_per_game"] <= 200


def test_bench_human_output() -> None:
    result = run("bench", "--seconds", "0.01", "--reps", "2")
    assert result.exit_code == 0, result.output
    for word in ("actions/s", "games/s", "× chess", "medians of 2 repetitions", "push", "apply", "chess"):
        assert word in result.stdout
    lines = [line for line in result.stdout.splitlines() if line.startswith("│ torres")]
    assert len(lines) == 6


def test_console_script_selfplay_replay_legal(tmp_path: Path) -> None:
    """The installed ``torres`` script end to end, in real subprocesses."""
    assert TORRES.exists(), f"console script not installed at {TORRES}"
    game = tmp_path / "sp.json"
    sp = run_command([str(TORRES), "selfplay", "--players", "4", "--seed", "21", "--edition", "ravensburger",
                      "--out", str(game)], capture_output=True, text=True, timeout=120)
    assert sp.returncode == 0, sp.stderr
    assert "winner: seat" in sp.stderr
    rp = run_command([str(TORRES), "replay", str(game), "--json"], capture_output=True, text=True, timeout=120)
    assert rp.returncode == 0, rp.stderr
    summary = json.loads(rp.stdout)
    record = read_record(game)
    assert summary["scores"] == record["result"]["scores"] and summary["finished"] is True
    lg = run_command([str(TORRES), "legal", str(game), "--at", "10", "--json"], capture_output=True,
                     text=True, timeout=120)
    assert lg.returncode == 0, lg.stderr
    legal = json.loads(lg.stdout)
    assert [a["text"] for a in legal["actions"]] == [str(a) for a in replay(record, upto=10).legal_actions]
    record["actions"][10] = "play seven"
    game.write_text(json.dumps(record), encoding="utf-8")
    bad = run_command([str(TORRES), "replay", str(game)], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1
    assert "action 10 ('play seven') is illegal" in bad.stderr


# --- one way to name the rules (issue 11) --------------------------------------------------------------------
def _registered() -> None:
    for name in COMMAND_MODULES:
        if name != "serve":  # the server's command imports the server, which these tests do not need
            importlib.import_module(f"torres.cli.{name}")


@pytest.mark.parametrize("command", [
    ["selfplay", "--players", "2", "--seed", "4"],
    ["demo", "--players", "2", "--seed", "4", "--delay", "0", "--bots", "random,random"],
    ["play", "--seats", "bot:random,bot:random", "--seed", "4", "--delay", "0.001"],  # a delay: boards drawn
    ["tournament", "--bots", "random,random", "--games", "1", "--players", "2"],
])
def test_every_command_takes_an_edition_with_settings(command: list[str], tmp_path: Path) -> None:
    _registered()
    out = ["--out", str(tmp_path / "r.json")] if command[0] == "selfplay" else []
    result = run(*command, "--edition", "riogrande:card_mode=common", *out)
    assert result.exit_code == 0, result.output
    if command[0] == "selfplay":
        assert read_record(tmp_path / "r.json")["rules"] == "riogrande:card_mode=common"
    elif command[0] == "tournament":
        assert "riogrande:card_mode=common" in result.output
    else:
        assert "Rio Grande (common deck)" in result.output


@pytest.mark.parametrize("command", [["selfplay"], ["demo", "--players", "2"], ["play", "--seats", "bot,bot"],
                                     ["tournament", "--bots", "random,random", "--games", "1"]])
def test_every_command_refuses_a_bad_edition_alike(command: list[str]) -> None:
    _registered()
    result = run(*command, "--edition", "riogrande:colour=pink")
    assert result.exit_code == 2
    assert "unknown rules setting 'colour'" in result.output + result.stderr


def test_the_card_options_are_named_alike(tmp_path: Path) -> None:
    """--cards everywhere (play's name); selfplay's old --card-mode still works, hidden from the help."""
    for flag in ("--cards", "--card-mode"):
        out = tmp_path / f"{flag}.json"
        result = run("selfplay", "--edition", "idw", flag, "common", "--out", str(out))
        assert result.exit_code == 0, result.output
        assert Rules.from_text(read_record(out)["rules"]).card_mode.value == "common"
    assert "--cards" in run("selfplay", "--help").output and "--card-mode" not in run("selfplay", "--help").output
    assert "--master" in run("selfplay", "--help").output
    result = run("selfplay", "--cards", "both")
    assert result.exit_code == 2 and "--cards is own or common, not 'both'" in result.stderr


def test_rules_command_prints_how_to_play() -> None:
    _registered()
    from torres.tui.guide import LANGUAGES, how_to_play

    english = how_to_play("en")
    result = run("rules", "--raw")
    assert result.exit_code == 0 and result.stdout.strip() == english.strip()
    assert english.splitlines()[0].lstrip("# ") in run("rules").stdout
    german = ROOT / "torres" / "data" / LANGUAGES["de"]
    result = run("rules", "--lang", "de", "--raw")
    if german.exists():
        assert result.exit_code == 0 and result.stdout.strip() == german.read_text(encoding="utf-8").strip()
    else:  # until the translation lands, a clear error rather than the English text
        assert result.exit_code == 2 and "how-to-play.de.md is missing" in result.stderr
    result = run("rules", "--lang", "xx")
    assert result.exit_code == 2 and "no how-to-play text in 'xx' (languages: en, de)" in result.stderr


def test_hint_command_names_no_card_it_cannot_know(tmp_path: Path) -> None:
    """A planned keep after a buy is on cards not drawn yet: the command says what to do, not '?'."""
    _registered()
    game = tmp_path / "g.json"
    assert run("selfplay", "--players", "4", "--seed", "1", "--edition", "idw", "--out", str(game)).exit_code == 0
    result = run("hint", str(game), "--upto", "30", "--iterations", "4")
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert "buy, keep the best card drawn" in first and "?" not in first


def test_a_tournament_counts_the_king_move_after_a_seats_last_turn_as_a_turn_of_its_own() -> None:
    """At a phase's end the seat that acted last may also move the king: two decisions of one seat in a row that
    are two turns (issue #34: counted as one, its time doubled the "max s/turn")."""
    from torres.ai.base import make_bot
    from torres.cli.tournament import play_game
    from torres.engine.rules import Rules
    from torres.engine.stage import Stage
    from torres.engine.state import GameState

    for game in range(6):
        result = play_game(["random", "random"], game, 2, "riogrande", seed=5)
        # the same game again, counting turns another way: a turn starts when a seat starts acting in the TURN
        # stage (a new turn number, round or phase), and every decision outside TURN and KEEP is a turn of its own
        state = GameState(2, 5 * 100_003 + game, Rules.from_text("riogrande"))
        bots = [make_bot("random", 5 * 1_000_003 + game * 16 + s) for s in range(2)]
        expected, last_turn, same_seat_king_moves = [0, 0], None, 0
        previous_seat = None
        while not state.is_over():
            seat = state.current
            if state.stage == Stage.TURN and (seat, state.phase, state.round, state.turn) != last_turn:
                last_turn = (seat, state.phase, state.round, state.turn)
                expected[seat] += 1
            elif state.stage not in (Stage.TURN, Stage.KEEP):
                expected[seat] += 1
                same_seat_king_moves += state.stage == Stage.KING_MOVE and seat == previous_seat
            previous_seat = seat
            state.push(bots[seat].choose(state.view(seat)))
        assert list(state.scores) == result.scores  # the same game
        assert result.turns == expected, (game, same_seat_king_moves)


def test_a_tournament_without_cards_plays_new_games_only_with_a_random_setup() -> None:
    """Rio Grande without buying has no chance at all: two deterministic bots play the same game every time their
    seats are the same (issue #34: an outside run measured 20 games that were two). ``--random-setup`` makes the
    first knights and the king random, drawn from each game's seed, and leaves the turns to the bots."""
    from torres.cli.tournament import play_game

    rules = "riogrande:max_buys=0"
    same = [play_game(["strong", "greedy"], game, 2, rules, seed=3) for game in (0, 2, 4)]
    assert same[0].scores == same[1].scores == same[2].scores
    assert same[0].digest == same[1].digest == same[2].digest  # ... and the same actions: the same game
    assert play_game(["strong", "greedy"], 1, 2, rules, seed=3).digest != same[0].digest  # the seats swapped
    varied = [play_game(["strong", "greedy"], game, 2, rules, seed=3, random_setup=True) for game in (0, 2, 4)]
    assert len({tuple(r.scores) for r in varied}) > 1
    assert len({r.digest for r in varied}) == 3
    again = play_game(["strong", "greedy"], 2, 2, rules, seed=3, random_setup=True)
    assert again.scores == varied[1].scores  # the setup comes from the game's seed: a run replays
    # every turn's thinking time is recorded (CPU seconds), one entry a turn
    assert [len(times) for times in again.turn_seconds] == again.turns
    assert again.slowest == [max(times) for times in again.turn_seconds]


def test_a_tournament_counts_the_games_that_repeat_another() -> None:
    """Without chance a repeated setup is a repeated game (issue #34: 400 games without cards were 115 games); the
    summary says how many of its games were distinct, and so the table's title."""
    from torres.cli.tournament import run_tournament

    repeated = run_tournament(["strong", "greedy"], games=4, players=2, rules_text="riogrande:max_buys=0", seed=3)
    assert repeated.distinct == 2 and repeated.to_json()["distinct_games"] == 2  # one game for each seating
    assert len({g["digest"] for g in repeated.to_json()["results"]}) == 2
    dealt = run_tournament(["strong", "greedy"], games=4, players=2, rules_text="riogrande", seed=3)
    assert dealt.distinct == 4
    result = runner.invoke(app, ["tournament", "--bots", "strong,greedy", "--games", "4", "-e", "riogrande:max_buys=0",
                                 "--seed", "3"], terminal_width=160)
    assert result.exit_code == 0, result.output
    assert "4 games (2 distinct)" in result.output


def test_tournament_reports_the_median_and_slowest_turn() -> None:
    from torres.cli.tournament import run_tournament

    summary = run_tournament(["strong", "random"], games=2, players=2, rules_text="riogrande", seed=1)
    rows = summary.to_json()["bots"]
    assert all(0 <= row["median_turn"] <= row["p99_turn"] <= row["slowest_turn"] for row in rows)
    assert rows[0]["median_turn"] > rows[1]["median_turn"]  # a planner thinks longer than a random choice
    strong = sorted(t for r in summary.results for seat, entry in enumerate(r.entries) if entry == 0
                    for t in r.turn_seconds[seat])
    assert rows[0]["p99_turn"] == strong[int(0.99 * len(strong))] and rows[0]["slowest_turn"] == strong[-1]


@pytest.mark.parametrize("command, message", [
    (["hint", "--position", "x", "--budget", "nan"], "--budget"),      # ran for ever
    (["hint", "--position", "x", "--budget", "inf"], "--budget"),
    (["hint", "--position", "x", "--iterations", "-3"], "--iterations"),
    (["selfplay", "--seed", "99999999999999999999999999"], "--seed"),  # a traceback once the game was played
    (["tournament", "--bots", "random,random", "--games", "-5"], "--games"),  # a table of "-5 games"
    (["tournament", "--bots", "random,random", "--games", "2", "--jobs", "0"], "--jobs"),
    (["tournament", "--bots", "random,random", "--games", "2", "--json", "/nonexistent/dir/x.json"],
     "no such directory"),                                               # a traceback after the games
    (["bench-ai", "--positions", "0"], "--positions"),
    (["bench-ai", "--players", "9"], "--players"),
])
def test_odd_numbers_and_paths_are_refused_before_any_work(command: list[str], message: str) -> None:
    """Found by an outside probe: each was a traceback, a silent nonsense result or a command that never ended."""
    _registered()
    result = run(*command)
    assert result.exit_code == 2, result.output
    assert message in result.output + result.stderr
    assert "Traceback" not in result.output + result.stderr
