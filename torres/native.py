"""The engine's and the search's hottest modules compiled to C with mypyc, an opt-in: the same games in less time.

    scripts/native                                # builds into .native (needs mypy, a C compiler and Python.h)
    TORRES_NATIVE=$PWD/.native torres tournament ...  # a process with the variable set imports the build

:data:`GROUP` compiles as it is (``mypy --strict`` already holds; the search's value types are marked to stay Python
classes, which pickle and ``replace`` as dataclasses do, and a state keeps its fields in ``__slots__``, so that a
compiled one copies and pickles as the pure one does), and a compiled float is the C double Python's is, computed in
the same order: the bots play the same games (tests/test_native.py, docs/strength-log.md). The package imports this
module first (``torres/__init__.py``), so the build is in place before any engine module is imported; the engine
itself imports nothing of it.

A compiled module is imported only where it was built from the sources that are here: the build records the SHA-256
of each module of :func:`sources` (the group and every engine module it imports, whose constants mypyc may have
built in), and if one of them differs (an edit, or an experiment patch applied with ``git apply``), or the
interpreter is another, no compiled module is used (they are compiled together and call each other directly, so a
stale part would run another's old code) and a warning says why.
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
#: engine's push, pop and move generation).
GROUP = ("torres.ai.evaluate", "torres.ai.planner", "torres.engine.board", "torres.engine.movegen",
         "torres.engine.state")
#: The variable naming a build's folder.
ENVIRONMENT = "TORRES_NATIVE"
MANIFEST = "manifest.json"
_PACKAGE = Path(__file__).resolve().parent  # the torres package's folder


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


def build(folder: Path) -> dict[str, str]:
    """Compiles :data:`GROUP` into ``folder`` (made anew: an empty folder or an earlier build) and writes its manifest;
    returns its files by module name.

    mypyc type-checks what the modules import, so it runs on a copy of the whole package, away from the project's
    own configuration; only the compiled files are kept, with the digests of the sources copied."""
    if folder.exists() and any(folder.iterdir()) and not (folder / MANIFEST).is_file():
        raise RuntimeError(f"{folder} is neither empty nor a build: not replaced")
    import json
    import shutil
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as work:
        shutil.copytree(_PACKAGE, Path(work) / "torres",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "static"))
        digests = {m: digest(Path(work) / _relative_source(m)) for m in sources()}
        done = subprocess.run([sys.executable, "-m", "mypyc", *map(str, map(_relative_source, GROUP))], cwd=work,
                              capture_output=True, text=True)
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


class _CompiledFinder:
    """Finds the build's extension modules (the compiled ones and the library they share) before the pure ones."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        import importlib.util

        file = self.files.get(fullname)
        return None if file is None else importlib.util.spec_from_file_location(fullname, file)


def _refuse(why: str) -> bool:
    warnings.warn(f"{ENVIRONMENT}: the compiled modules are not used: {why}", RuntimeWarning, stacklevel=3)
    return False


def activate(folder: Path) -> bool:
    """Imports the build in ``folder`` from now on, if it was built from these sources for this interpreter; warns
    and changes nothing otherwise."""
    import importlib.machinery
    import json

    if in_use():
        return True
    folder = folder.resolve()  # (a process that changes its directory later still finds the build)
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        modules, listed, tag = manifest["modules"], manifest["files"], manifest["cache_tag"]
        if not (isinstance(modules, dict) and isinstance(listed, dict) and isinstance(tag, str)):
            raise TypeError("a field of the wrong type")
        files = {str(name): folder / str(relative) for name, relative in listed.items()}
    except (OSError, ValueError, KeyError, TypeError) as error:
        return _refuse(f"no readable build in {folder} ({error})")
    if tag != sys.implementation.cache_tag:
        return _refuse(f"built for {tag}, this is {sys.implementation.cache_tag}")
    these = sources()
    if set(modules) != set(these) or not set(GROUP) <= set(files):
        return _refuse(f"the build in {folder} is not of these modules ({', '.join(GROUP)}); build it again")
    stale = [m for m in these if modules[m] != digest(source_of(m))]
    if stale:
        return _refuse(f"{', '.join(stale)} changed since the build in {folder}; build it again")
    if any(not file.is_file() for file in files.values()):
        return _refuse(f"the build in {folder} is incomplete")
    if any(not file.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) for file in files.values()):
        return _refuse(f"the build in {folder} is not for this platform")
    if any(m in sys.modules for m in GROUP):
        return _refuse("the pure modules were imported first")
    sys.meta_path.insert(0, _CompiledFinder(files))
    return True


def in_use() -> bool:
    """Whether this process imports the compiled modules (timings say so: ``torres tournament``, ``bench-ai``)."""
    return any(isinstance(finder, _CompiledFinder) for finder in sys.meta_path)


def activate_from_environment() -> bool:
    """:func:`activate` with the folder :data:`ENVIRONMENT` names, if it is set."""
    folder = os.environ.get(ENVIRONMENT)
    return activate(Path(folder)) if folder else False


def main(argv: Sequence[str] | None = None) -> int:
    """``scripts/native``: builds into the folder given."""
    import argparse

    parser = argparse.ArgumentParser(prog="scripts/native", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("folder", type=Path, nargs="?", default=Path(".native"), help="where to build (made anew)")
    args = parser.parse_args(argv)
    try:
        files = build(args.folder)
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"built {', '.join(GROUP)} into {args.folder} ({len(files)} files, {sys.implementation.cache_tag}); "
          f"use it with {ENVIRONMENT}={args.folder.resolve()}")
    return 0
