"""The compiled engine and search (torres/native.py): built with mypyc (as scripts/run does, with build tools only
for the build), they play the same games as the pure modules, every process of a checkout with a build uses them
(``torres serve`` and its bot workers too), and they are used only where they were built from the sources that are
here."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ServerProcess
from test_server_faults import get, post
from torres.native import ENVIRONMENT, GROUP, MANIFEST, build, main, missing_compiler

ROOT = Path(__file__).resolve().parent.parent

# Four games, each printed as its actions and final scores: the master without cards (its look-ahead, the planner
# and the evaluation all run), two experts with cards (the draws and the re-plans after them), and the exhaustive
# yardstick's full-width search with cards and with the "score now" evaluation.
GAMES = """
import hashlib, importlib
from torres.ai import make_bot
from torres.engine import GameState, Rules
from torres.native import GROUP
for module in GROUP:
    print(importlib.import_module(module).__file__)
for rules, specs in (("riogrande:max_buys=0", ("master", "expert")), ("riogrande", ("expert", "expert")),
                     ("riogrande", ("exhaustive:nodes=2000", "expert")),
                     ("riogrande:max_buys=0", ("exhaustive:nodes=1000:eval=score", "strong"))):
    state = GameState(2, 5, Rules.from_text(rules))
    bots = [make_bot(spec, 50 + seat) for seat, spec in enumerate(specs)]
    actions = []
    while not state.is_over():
        action = bots[state.current].choose(state.view(state.current))
        state.push(action)
        actions.append(action)
    print(hashlib.sha256(repr(actions).encode()).hexdigest(), state.scores)
"""


def environment(native: Path | None) -> dict[str, str]:
    """This process's environment, naming the build ``native`` (None: off, whatever the caller's names and whether
    the checkout has a build)."""
    return {**os.environ, ENVIRONMENT: "off" if native is None else str(native)}


def run_games(native: Path | None) -> tuple[list[str], str]:
    done = subprocess.run([sys.executable, "-c", GAMES], cwd=ROOT, env=environment(native), capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines(), done.stderr


@pytest.fixture(scope="module")
def native(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cannot = missing_compiler()
    if cannot is not None and not os.environ.get("CI"):
        pytest.skip(f"cannot compile here: {cannot}")
    folder = tmp_path_factory.mktemp("native") / "build"
    # as scripts/run builds on a serving set-up, which has no mypy: the build tools installed for the build alone
    assert main([str(folder), "--fresh-tools"]) == 0
    return folder


@pytest.mark.slow  # mypyc compiles the modules of GROUP (60-120 s), then four games are played twice
def test_the_compiled_search_plays_the_same_games(native: Path) -> None:
    pure, _ = run_games(None)
    compiled, warned = run_games(native)
    files = len(GROUP)
    assert all(where.endswith(".py") and not where.startswith(str(native)) for where in pure[:files]), pure
    assert all(where.startswith(str(native)) for where in compiled[:files]), compiled[:files]
    assert compiled[files:] == pure[files:] and len(pure) == files + 4
    assert ENVIRONMENT not in warned


def changed_copy(native: Path, tmp_path: Path, **fields: object) -> Path:
    copy = tmp_path / "copy"
    shutil.copytree(native, copy)
    manifest = json.loads((copy / MANIFEST).read_text())
    manifest.update(fields)
    (copy / MANIFEST).write_text(json.dumps(manifest))
    return copy


WHERE_FROM = ("import importlib; from torres.native import GROUP; "
              "print(*(importlib.import_module(m).__file__ for m in GROUP))")


@pytest.mark.slow
def test_a_build_of_other_sources_or_for_another_interpreter_is_not_used(native: Path, tmp_path: Path) -> None:
    manifest = json.loads((native / MANIFEST).read_text())
    # as if evaluate.py had been edited since the build; and actions.py, which is not compiled but whose constants
    # the compiled modules use
    edited = {**manifest["modules"], "torres.ai.evaluate": "0" * 64}
    edited_beside = {**manifest["modules"], "torres.engine.actions": "0" * 64}
    for fields, why in (({"modules": edited}, "torres.ai.evaluate changed since the build"),
                        ({"modules": edited_beside}, "torres.engine.actions changed since the build"),
                        ({"cache_tag": "cpython-399"}, "built for cpython-399"),
                        ({"files": {}}, "is not of these modules")):
        check = subprocess.run(
            [sys.executable, "-c", WHERE_FROM], cwd=ROOT,
            env={**os.environ, ENVIRONMENT: str(changed_copy(native, tmp_path / why.split()[0], **fields))},
            capture_output=True, text=True, timeout=120)
        assert check.returncode == 0, check.stderr
        assert check.stdout.split() == [str(ROOT / m.replace(".", "/")) + ".py" for m in GROUP]
        assert "the compiled modules are not used" in check.stderr and why in check.stderr, check.stderr


def test_no_build_named_leaves_the_pure_modules_and_says_why(tmp_path: Path) -> None:
    check = subprocess.run([sys.executable, "-c", "import torres.ai.evaluate as e; print(e.__file__)"], cwd=ROOT,
                           env={**os.environ, ENVIRONMENT: str(tmp_path / "nothing")}, capture_output=True,
                           text=True, timeout=120)
    assert check.returncode == 0 and check.stdout.strip().endswith("evaluate.py")
    assert "no readable build" in check.stderr


@pytest.mark.slow
def test_a_tournament_says_when_it_ran_compiled(native: Path) -> None:
    # its s/turn are then not the pure modules' (docs/strength.md times the pure ones)
    def title(build: Path | None) -> str:
        done = subprocess.run([sys.executable, "-m", "torres.cli.main", "tournament", "--bots", "random,random",
                               "--games", "1", "--jobs", "1"], cwd=ROOT, env=environment(build),
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return " ".join(done.stdout.split())

    assert "compiled with mypyc" in title(native)
    assert "compiled with mypyc" not in title(None)


VALUES = """
import copy, pickle
from dataclasses import replace
import torres.ai.evaluate as evaluate
from torres.ai import make_bot
from torres.ai.evaluate import MASTER_WEIGHTS, Weights
from torres.ai.planner import Plan
print(evaluate.__file__)
assert pickle.loads(pickle.dumps(MASTER_WEIGHTS)) == MASTER_WEIGHTS == copy.deepcopy(MASTER_WEIGHTS)
assert replace(MASTER_WEIGHTS, later=0.2).later == 0.2 and make_bot("master:later=0.2").weights.later == 0.2
plan = Plan([1, 2], 0.5)
assert pickle.loads(pickle.dumps(plan)) == plan == copy.deepcopy(plan)
from torres.engine import GameState, Rules
state = GameState(3, 4, Rules.from_text("riogrande"))
for _ in range(12):
    state.push(state.legal_action_ids()[-1])
for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
    loaded = pickle.loads(pickle.dumps(state, protocol))
    assert loaded.position() == state.position() and loaded.history == state.history
for copy_of in (copy.deepcopy, copy.copy, GameState.clone):
    other = copy_of(state)
    assert other.position() == state.position() and other.pop() == state.pop()
print("ok")
"""


@pytest.mark.slow
def test_the_compiled_value_types_and_states_pickle_copy_and_replace_as_the_pure_ones(native: Path) -> None:
    # compiled as native classes the value types did not: a frozen dataclass's pickle and ``replace`` failed
    # (docs/strength-log.md); a compiled state has no ``__dict__``, which its copy once copied, and protocols 0 and 1
    # cannot pickle a compiled class without its own ``__reduce__``
    done = subprocess.run([sys.executable, "-c", VALUES], cwd=ROOT, env=environment(native),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    where, result = done.stdout.split()
    assert where.startswith(str(native)) and result == "ok", done.stdout


@pytest.mark.slow
def test_a_checkouts_build_is_used_unless_turned_off_and_only_while_its_sources_are_the_same(
        native: Path, tmp_path: Path) -> None:
    # a checkout of its own (a copy of the package and its pyproject.toml, which mark a checkout, beside a copy of
    # the build, in .native), so that the test neither reads nor writes this one's
    checkout = tmp_path / "checkout"
    shutil.copytree(ROOT / "torres", checkout / "torres", ignore=shutil.ignore_patterns("__pycache__", "static"))
    shutil.copy(ROOT / "pyproject.toml", checkout)
    shutil.copytree(native, checkout / ".native")
    unset = {k: v for k, v in os.environ.items() if k != ENVIRONMENT}

    def run(code: str, env: dict[str, str]) -> tuple[list[str], str]:
        done = subprocess.run([sys.executable, "-c", code], cwd=checkout, env=env, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout.split(), done.stderr

    # (the build's own process: off, whatever the checkout holds)
    is_current = ("from torres.native import DEFAULT, current, main; "
                  "print(DEFAULT, current(DEFAULT), main([str(DEFAULT), '--if-needed']))")
    files, warned = run(WHERE_FROM, unset)
    assert all(f.startswith(str(checkout / ".native")) for f in files) and not warned, (files, warned)
    assert run(is_current, {**unset, ENVIRONMENT: "off"})[0] == [str(checkout / ".native"), "True", "0"]
    pure = [str(checkout / m.replace(".", "/")) + ".py" for m in GROUP]
    for off in ("off", "0", ""):
        assert run(WHERE_FROM, {**unset, ENVIRONMENT: off}) == (pure, "")
    with open(checkout / "torres" / "engine" / "actions.py", "a", encoding="utf-8") as source:
        source.write("\n# an edit\n")  # (a module the build does not compile, but whose constants it holds)
    files, warned = run(WHERE_FROM, unset)
    assert files == pure and "torres.engine.actions changed since the build" in warned, warned
    assert run("from torres.native import DEFAULT, current; print(current(DEFAULT))",
               {**unset, ENVIRONMENT: "off"})[0] == ["False"]


@pytest.mark.slow
def test_an_installed_package_looks_for_its_build_in_the_users_cache(native: Path, tmp_path: Path) -> None:
    # an installation: the package without a pyproject.toml beside it; its build is the one `torres native` makes,
    # in a folder of the user's cache named after the package's path (scripts/test-wheel builds one from a wheel)
    site = tmp_path / "site-packages"
    shutil.copytree(ROOT / "torres", site / "torres", ignore=shutil.ignore_patterns("__pycache__", "static"))
    cache = tmp_path / "cache"
    env = {**{k: v for k, v in os.environ.items() if k != ENVIRONMENT}, "XDG_CACHE_HOME": str(cache)}

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, *argv], cwd=site, env=env, capture_output=True, text=True, timeout=120)

    where = run("-c", "from torres.native import DEFAULT; print(DEFAULT)")
    folder = Path(where.stdout.strip())
    assert folder.parent == cache / "torres" and folder.name.startswith("native-"), where
    assert run("-c", WHERE_FROM).stdout.split() == [str(site / m.replace(".", "/")) + ".py" for m in GROUP]
    shutil.copytree(native, folder)  # (as if `torres native` had built it)
    done = run("-m", "torres.cli.main", "native", "--if-needed")
    assert done.returncode == 0 and "compiling" not in done.stderr, done.stderr
    files = run("-c", WHERE_FROM).stdout.split()
    assert len(files) == len(GROUP) and all(f.startswith(str(folder)) for f in files), files


@pytest.mark.slow
def test_a_server_and_its_bot_workers_run_the_build(native: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT, str(native))
    server = ServerProcess(tmp_path / "games.db").start()
    try:
        assert "the bots compiled with mypyc" in server.log.read_text()
        game = post(f"{server.url}/api/games", {"players": 2, "bot_speed": "instant",
                                                "seats": [{"kind": "bot", "level": "expert"}, {"kind": "human"}]})
        deadline = time.monotonic() + 120
        while get(f"{server.url}/api/games/{game['id']}")["version"] < 1:  # the bot's opening placement
            assert time.monotonic() < deadline, "the bot did not act"
            time.sleep(0.1)
        # the bot chose it in a worker process of the server's, which maps the build's library
        assert server.process is not None
        mapped = [pid for pid in children(server.process.pid)
                  if str(native) in Path(f"/proc/{pid}/maps").read_text(errors="replace")]
        assert mapped, "no worker of the server's maps the build"
    finally:
        server.stop()


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
        except OSError:  # (ended meanwhile)
            continue
        if fields.get("PPid", "").strip() == str(pid):
            found.append(int(status.parent.name))
    return found


def test_a_folder_that_is_not_a_build_is_not_replaced(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(RuntimeError, match="neither empty nor a build"):
        build(tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_without_a_c_compiler_it_says_so_and_builds_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    # (scripts/run then serves the pure Python)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert main([str(tmp_path / "build")]) == 1
    assert "cannot compile here: no C compiler" in capsys.readouterr().err
    assert not (tmp_path / "build").exists()
