"""The garbage collector's thresholds for a process that searches.

A search allocates containers by the million (states, plans, cache keys) while the evaluation's caches keep a few
hundred thousand alive. With the default thresholds (700, 10, 10) the collector ran about 1,600 collections a game,
7 of them full ones over everything the caches hold: a fifth of the master's median turn and a third of its
slowest ones (docs/strength-log.md, "The garbage collector"). Reference counting frees a search's garbage all the
same: the collector is there for reference cycles, which the engine and the bots hardly make (10 games with the
collector off peaked at the same memory as with it on).

The thresholds are process-wide, so only a process that exists to search sets them: the console commands that
play bots, the server's bot workers, the benchmark and tuning scripts. Importing this module changes nothing.
"""

from __future__ import annotations

import gc

#: Collect the youngest generation after 1,000,000 net allocations instead of 700, the middle one after 50 of those
#: collections instead of 10, the oldest after 100 instead of 10 (and, as always, only once a quarter of its
#: objects are new). A wide search of a turn with a full hand keeps a few hundred thousand objects alive until it
#: returns: at 100,000 the young generation was collected several times in each such turn, walking all of them
#: (about a fifth of the slowest turns' time); at 1,000,000 it was not collected once in 10 games
#: (docs/strength-log.md).
SEARCH_THRESHOLDS = (1_000_000, 50, 100)


def tune_for_search() -> None:
    """Set the collector's thresholds of this process to :data:`SEARCH_THRESHOLDS`."""
    gc.set_threshold(*SEARCH_THRESHOLDS)
