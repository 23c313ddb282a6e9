"""pytest collects every module for doctests: skip the OpenSpiel adapter where open_spiel is not installed."""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("pyspiel") else ["openspiel.py"]
