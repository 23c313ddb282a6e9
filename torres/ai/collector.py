"""The garbage collector's thresholds for a process that searches.

A search allocates containers by the million (states, plans, cache keys) while the evaluation's caches keep a few
hundred thousand alive. With the default thresholds (700, 10, 10) the collector ran about 1,600 collections a game,
7 of them full ones over everything the caches hold: a fifth of the master's median turn and a third of its
slowest ones (docs/strength-log.md, "The garbage collector"). Reference counting frees a search's garbage all the
same: the collector is there for reference cycles, which the engine and the bots hardly make (10 games with the
collector off peaked at the same memory as with it on).

The thresholds are process-wide, so only a process that exists to search sets them: the console commands that
play bots, the server's bot workers, the benchmark and tuning scripts. Importing this module changes nothing.

Such a process also calls :func:`settle` after each decision: the caches' objects then never pile up in the young
generation until one collection walks a million of them (a second of CPU in the middle of a turn, once every few
dozen games of a long-lived process).
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


def settle() -> None:
    """After a decision, in a process set for search: move every object alive now out of the collector's sight
    (``gc.freeze``, which costs nothing, whatever their number).

    What outlives a decision is mostly the evaluation's caches, bounded and cleared as they fill. With the young
    generation's threshold at a million, they crept towards it over dozens of games until one collection walked
    them all in the middle of a turn: 0.98 s of CPU collecting nothing, in the 35th game of the master in one process
    (docs/strength-log.md, "A second lost to the collector"). Frozen objects are still freed by reference counting
    when a cache drops them; only reference cycles still in memory at a decision's end would never be collected,
    and the bots make none (that collection, the first in the process, found not one). Elsewhere (thresholds other
    than :func:`tune_for_search`'s) this does nothing."""
    if gc.get_threshold() == SEARCH_THRESHOLDS:
        gc.freeze()
