"""Command line: ``torres <command>``. Each command lives in its own module and registers on ``app``."""
