"""The engine's and the search's hottest modules compiled to C with mypyc: the same games in less time.

    scripts/native                 # builds into .native (mypyc, with a C compiler and Python.h); scripts/run does too
    torres native                  # the same from an installed package, into the user's cache
    torres tournament ...          # every torres process of this checkout or installation then imports the build
    TORRES_NATIVE=off torres ...   # ... but one with the variable off, or naming another build's folder

:data:`GROUP` compiles as it is (``mypy --strict`` already holds; the search's value types are marked to stay Python
classes, which pickle and ``replace`` as dataclasses do, and a state keeps its fields in ``__slots__``, so that a
compiled one copies and pickles as the pure one does), and a compiled float is the C double Python's is, computed in
the same order: the bots play the same games (tests/test_native.py, docs/strength-log.md). The package imports this
module first (``torres/__init__.py``), so the build is in place before any engine module is imported; the engine
itself imports nothing of it. Without a build (none made yet, or a machine without a C compiler) the pure modules
run, silently: they are the reference the build is checked against.

A compiled module is imported only where it was built from the sources that are here: the build records the SHA-256
of each module of :func:`sources` (the group and every engine module it imports, whose constants mypyc may have
built in), and if one of them differs (an edit, a ``git pull``, or an experiment patch applied with ``git apply``),
or the interpreter is another, no compiled module is used (they are compiled together and call each other directly,
so a stale part would run another's old code) and a warning says why.
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

# (the rest is imported where it is used: the package imports this module at every start, nearly always with no
# build named)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

#: The modules compiled, together: where a master's turn spends its time (the evaluation, the planner, and the
#: engine's push, pop and move generation), the phase scoring, where the env's ``features`` mode spends its, and the
#: full-width turn search, where a game against the exhaustive yardstick spends nine tenths of its.
GROUP = ("torres.ai.evaluate", "torres.ai.planner", "torres.ai.turn_search", "torres.engine.board",
         "torres.engine.movegen", "torres.engine.scoring", "torres.engine.state")
#: The variable naming a build's folder, or turning the build off (:data:`OFF`).
ENVIRONMENT = "TORRES_NATIVE"
#: Values of :data:`ENVIRONMENT` that leave the pure modules in place.
OFF = ("", "0", "off")
MANIFEST = "manifest.json"
_PACKAGE = Path(__file__).resolve().parent  # the torres package's folder
#: Whether the package runs from a checkout (an editable install too) rather than an installed copy.
_CHECKOUT = (_PACKAGE.parent / "pyproject.toml").is_file()


def _default() -> Path:
    if _CHECKOUT:
        return _PACKAGE.parent / ".native"
    # an installed package: a folder of the user's cache for this installation (another venv has its own sources)
    import hashlib

    try:
        cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    except RuntimeError:  # (no home directory to hold a cache: beside the installed package, if it is writable)
        return _PACKAGE / ".native"
    return cache / "torres" / f"native-{hashlib.sha256(str(_PACKAGE).encode()).hexdigest()[:12]}"


#: Where the build is, and is looked for where :data:`ENVIRONMENT` is not set: a checkout's ``.native`` (scripts/native,
#: scripts/run), or for an installed package a folder of the user's cache (``torres native``). Without a build there
#: the pure modules run.
DEFAULT = _default()


def _relative_source(module: str) -> Path:
    return Path(*module.split(".")).with_suffix(".py")


def source_of(module: str) -> Path:
    """The pure module's source file."""
    return _PACKAGE.parent / _relative_source(module)


def sources() -> list[str]:
    """The modules a build is of: the group's, and the engine's (the group imports nothing else of torres)."""
    return sorted({*GROUP, *(f"torres.engine.{p.stem}" for p in (_PACKAGE / "engine").glob("*.py"))})


def digest(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def build(folder: Path, tools: Path | None = None) -> dict[str, str]:
    """Compiles :data:`GROUP` into ``folder`` (made anew: an empty folder or an earlier build) and writes its manifest;
    returns its files by module name. ``tools``: a folder with mypy and setuptools (:func:`install_tools`), for an
    environment that has none of its own.

    mypyc type-checks what the modules import, so it runs on a copy of the whole package, away from the project's
    own configuration; only the compiled files are kept, with the digests of the sources copied."""
    if folder.exists() and any(folder.iterdir()) and not (folder / MANIFEST).is_file():
        raise RuntimeError(f"{folder} is neither empty nor a build: not replaced")
    import json
    import shutil
    import subprocess
    import tempfile

    env = {**os.environ, ENVIRONMENT: "off"}
    if tools is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(tools), os.environ.get("PYTHONPATH"))))
    with tempfile.TemporaryDirectory() as work:
        shutil.copytree(_PACKAGE, Path(work) / "torres",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "static"))
        digests = {m: digest(Path(work) / _relative_source(m)) for m in sources()}
        done = subprocess.run([sys.executable, "-m", "mypyc", *map(str, map(_relative_source, GROUP))], cwd=work,
                              env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"mypyc failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
        built = sorted(p.relative_to(work) for p in Path(work).rglob("*.so") if "build" not in p.parts)
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        files = {}
        for relative in built:
            (folder / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(Path(work) / relative, folder / relative)
            files[_module_name(relative)] = str(relative)
    manifest: dict[str, object] = {"cache_tag": sys.implementation.cache_tag,
                                   "modules": digests, "files": files}
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return files


def _module_name(relative: Path) -> str:
    # torres/ai/evaluate.cpython-311-x86_64-linux-gnu.so -> torres.ai.evaluate; the group's library sits at the top
    return ".".join((*relative.parent.parts, relative.name.split(".", 1)[0]))


def build_tools() -> list[str]:
    """What a build needs from PyPI: the ``native`` extra's requirements (mypy, which brings mypyc, and setuptools,
    which it compiles with and a venv of Python 3.12 or newer lacks), read from torres's installed metadata."""
    from importlib.metadata import requires

    return [r.split(";", 1)[0].strip() for r in requires("torres") or () if 'extra == "native"' in r]


def has_tools() -> bool:
    """Whether this environment can build without :func:`install_tools` (the dev set-up installs them)."""
    import importlib.util

    return all(importlib.util.find_spec(name) is not None for name in ("mypyc", "setuptools"))


def install_tools(folder: Path) -> None:
    """Installs :func:`build_tools` into ``folder`` (``pip --target``), for one build: a serving set-up keeps no
    build tools."""
    import subprocess

    tools = build_tools()
    if not tools:  # (installed before the extra was: scripts/setup installs torres again)
        raise RuntimeError("torres's installed metadata names no build tools (its native extra): run scripts/setup")
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                           "--target", str(folder), *tools], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"could not install {' '.join(tools)}:\n{done.stderr[-4000:]}")


def missing_compiler() -> str | None:
    """Why this machine cannot compile an extension module (no C compiler, or no Python.h), or None."""
    import shutil
    import sysconfig

    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None and shutil.which("cc") is None:
        return f"no C compiler ({compiler})"
    headers = Path(sysconfig.get_paths()["include"])
    if not (headers / "Python.h").is_file():
        return f"no Python.h in {headers} (Debian: python3-dev)"
    return None


class _CompiledFinder:
    """Finds the build's extension modules (the compiled ones and the library they share) before the pure ones."""

    def __init__(self, files: dict[str, Path]) -> None:
        # Imported here, never in find_spec: an import there would ask this finder again, without end, wherever
        # nothing had imported importlib.util before (an installed wheel).
        import importlib.util

        self.files = files
        self._spec_from_file = importlib.util.spec_from_file_location

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        file = self.files.get(fullname)
        return None if file is None else self._spec_from_file(fullname, file)


def _check(folder: Path) -> dict[str, Path] | str:
    """The build's files by module name, if ``folder`` holds a build of these sources for this interpreter; or why
    not."""
    import importlib.machinery
    import json

    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        modules, listed, tag = manifest["modules"], manifest["files"], manifest["cache_tag"]
        if not (isinstance(modules, dict) and isinstance(listed, dict) and isinstance(tag, str)):
            raise TypeError("a field of the wrong type")
        files = {str(name): folder / str(relative) for name, relative in listed.items()}
    except (OSError, ValueError, KeyError, TypeError) as error:
        return f"no readable build in {folder} ({error})"
    if tag != sys.implementation.cache_tag:
        return f"built for {tag}, this is {sys.implementation.cache_tag}"
    these = sources()
    if set(modules) != set(these) or not set(GROUP) <= set(files):
        return f"the build in {folder} is not of these modules ({', '.join(GROUP)}); build it again"
    stale = [m for m in these if modules[m] != digest(source_of(m))]
    if stale:
        return f"{', '.join(stale)} changed since the build in {folder}; build it again (torres native)"
    if any(not file.is_file() for file in files.values()):
        return f"the build in {folder} is incomplete"
    if any(not file.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) for file in files.values()):
        return f"the build in {folder} is not for this platform"
    return files


def current(folder: Path) -> bool:
    """Whether ``folder`` holds a build :func:`activate` would use."""
    return not isinstance(_check(folder.resolve()), str)


def activate(folder: Path) -> bool:
    """Imports the build in ``folder`` from now on, if it was built from these sources for this interpreter; warns
    and changes nothing otherwise."""
    if in_use():
        return True
    checked = _check(folder.resolve())  # (a process that changes its directory later still finds the build)
    if isinstance(checked, str):
        why = checked
    elif any(m in sys.modules for m in GROUP):
        why = "the pure modules were imported first"
    else:
        sys.meta_path.insert(0, _CompiledFinder(checked))
        return True
    warnings.warn(f"{ENVIRONMENT}: the compiled modules are not used: {why}", RuntimeWarning, stacklevel=2)
    return False


def in_use() -> bool:
    """Whether this process imports the compiled modules (timings say so: ``torres tournament``, ``bench-ai``,
    ``torres serve``)."""
    return any(isinstance(finder, _CompiledFinder) for finder in sys.meta_path)


def activate_from_environment(default: Path = DEFAULT) -> bool:
    """:func:`activate` with the folder :data:`ENVIRONMENT` names; with none named, the build in ``default`` (the
    checkout's or the installation's, :data:`DEFAULT`) if there is one; none where the variable is :data:`OFF`."""
    named = os.environ.get(ENVIRONMENT)
    if named is None:
        return (default / MANIFEST).is_file() and activate(default)
    return named.strip().lower() not in OFF and activate(Path(named))


def target() -> Path:
    """The build this process would look for: the folder :data:`ENVIRONMENT` names, or :data:`DEFAULT`."""
    named = os.environ.get(ENVIRONMENT)
    return DEFAULT if named is None or named.strip().lower() in OFF else Path(named)


def compile_into(folder: Path, if_needed: bool = False, fresh_tools: bool = False,
                 program: str = "torres native") -> int:
    """Builds into ``folder`` (``if_needed``: only where it holds no current build), installing the build tools for
    the build alone where this environment has none (``fresh_tools``: even where it has them); says what it did on
    standard error, each line headed by ``program``. 0 when ``folder`` then holds a current build."""
    import tempfile

    folder = folder.resolve()
    if if_needed and current(folder):
        return 0
    cannot = missing_compiler()
    if cannot is not None:
        print(f"{program}: cannot compile here: {cannot}", file=sys.stderr)
        return 1
    print(f"{program}: compiling {', '.join(GROUP)} with mypyc (a minute or two)", file=sys.stderr, flush=True)
    try:
        if has_tools() and not fresh_tools:
            files = build(folder)
        else:
            with tempfile.TemporaryDirectory() as tools:
                install_tools(Path(tools))
                files = build(folder, Path(tools))
    except RuntimeError as error:
        print(f"{program}: {error}", file=sys.stderr)
        return 1
    where = "checkout" if _CHECKOUT else "installation"
    use = (f"every torres process of this {where} uses it" if folder == DEFAULT.resolve()
           else f"use it with {ENVIRONMENT}={folder}")
    print(f"{program}: built {len(files)} files into {folder} ({sys.implementation.cache_tag}); {use} "
          f"({ENVIRONMENT}=off turns it off)", file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``scripts/native``: :func:`compile_into` the folder given (by default the checkout's)."""
    import argparse

    parser = argparse.ArgumentParser(prog="scripts/native", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("folder", type=Path, nargs="?", default=DEFAULT, help="where to build (made anew)")
    parser.add_argument("--if-needed", action="store_true", help="only if the folder holds no current build")
    parser.add_argument("--fresh-tools", action="store_true",
                        help="install the build tools for this build even where this environment has them")
    args = parser.parse_args(argv)
    return compile_into(args.folder, args.if_needed, args.fresh_tools, program="scripts/native")
