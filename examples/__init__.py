"""Examples for torres.env (importable from the repository root: ``policy:module=examples.masked_random``)."""
