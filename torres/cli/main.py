"""Entry point of the ``torres`` console script."""

from __future__ import annotations

import importlib

from .app import app

#: Modules that register commands on ``app`` (one line each).
COMMAND_MODULES: tuple[str, ...] = (
    "tournament",
    "bench_ai",
    "hint",
    "analyse",
    "records_cmds",
    "bench_cmd",
    "play",
    "rules_cmd",
    "serve",
    "native_cmd",
)


def main() -> None:
    for name in COMMAND_MODULES:
        importlib.import_module(f"torres.cli.{name}")
    app()


if __name__ == "__main__":
    main()
