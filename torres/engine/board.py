"""What the height map alone determines: castles, their areas and tops, doors, where a block may go.

A castle is a set of orthogonally connected squares holding at least one block. ``BoardInfo`` objects are
immutable and cached by the height map, so undo, clones and search revisit them for free; a copy of a game state
shares them too (``copy.copy``/``copy.deepcopy`` of an analysis are the analysis itself), and a pickled one is
loaded with its fields and empty caches.
"""

from __future__ import annotations

from collections.abc import Sequence

from .squares import ORTHOGONAL

_CACHE: dict[bytes, "BoardInfo"] = {}
_CACHE_LIMIT = 50_000
#: The empty table every new analysis starts its lazy caches with, never stored into: a method about to store
#: into a cache gives its analysis a table of its own when the one it has is *empty* (see ``BoardInfo.__init__``).
#: Emptiness, not identity: a deep copy or a pickle of several analyses turns this one shared table into one
#: shared copy, which no test ``is _EMPTY`` would recognise (issue #31: the copies' caches became one table).
_EMPTY: dict = {}  # type: ignore[type-arg]
#: The mask tables every new analysis starts with (-1: not computed), replaced by a list of its own at the first
#: store — recognised by being a tuple, for the same reason.
_UNKNOWN = (-1,) * 64


class BoardInfo:
    __slots__ = ("heights", "cid", "area", "top", "squares", "_exits", "_placeable", "_door_masks",
                 "_placeable_mask", "_near", "_shift_masks", "move_masks", "site_masks", "derived_from", "blocks",
                 "in_hand")

    heights: bytes
    cid: list[int]  # castle index of each square, -1 for ground
    area: list[int]  # area of each castle
    top: list[int]  # tallest square of each castle
    squares: list[tuple[int, ...]]

    def __init__(self, heights: bytes, cid: list[int], area: list[int], top: list[int],
                 squares: list[tuple[int, ...]], blocks: int = -1) -> None:
        self.heights = heights
        #: the bitmask of the squares with a block (the castles' squares)
        self.blocks = blocks if blocks >= 0 else sum(1 << sq for sq in range(64) if heights[sq])
        self.cid = cid
        self.area = area
        self.top = top
        self.squares = squares
        # The caches below start empty and shared (a search evaluates most boards it makes without generating a
        # move there); each method gives its board a table of its own when it first stores into it. A cache holds
        # only what the fields above determine, so sharing an analysis (copies do: ``__deepcopy__``) is safe.
        self._exits: dict[int, tuple[int, ...]] = _EMPTY
        self._placeable: tuple[int, ...] | None = None
        self._door_masks: dict[int, int] = _EMPTY
        self._placeable_mask = -1
        self._near: list[int] | None = None
        self._shift_masks: dict[tuple[int, bool, int], int] = _EMPTY
        # Caches read directly by the move generator's inner loop (-1: not computed yet); see ``move_mask`` and
        # ``site_mask``. Knights move far more often than blocks are placed, so a board's masks are reused.
        self.move_masks: list[int] | tuple[int, ...] = _UNKNOWN
        self.site_masks: list[int] | tuple[int, ...] = _UNKNOWN
        # (the analysis this one was carried over from by a block added or shifted, the bitmask of the squares whose
        # height, castle or castle's area differ from it), castle numbers kept; None after a full analysis. Lets a
        # search reuse what it knows of the board before the change away from those squares.
        self.derived_from: tuple[BoardInfo, int] | None = None
        #: whether this is a board with a block in hand (the shift card's, between taking and placing it), which
        #: no position stands on
        self.in_hand = False

    # --- copies -----------------------------------------------------------------------------------------------
    # An analysis is immutable (its caches hold only what its fields determine), so a copy of a game state may
    # share it: ``copy.copy`` and ``copy.deepcopy`` give the analysis itself, as they do for a tuple. A pickle
    # keeps the fields and leaves the caches behind: the loaded analysis starts with empty caches of its own.
    def __copy__(self) -> "BoardInfo":
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> "BoardInfo":
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return _unpickle, (self.heights, self.cid, self.area, self.top, self.squares, self.blocks,
                           self.derived_from, self.in_hand)

    @property
    def castle_count(self) -> int:
        return len(self.area)

    def castles_next_to(self, sq: int) -> set[int]:
        cid = self.cid
        return {cid[n] for n in ORTHOGONAL[sq] if cid[n] >= 0}

    def near_counts(self) -> list[int]:
        """For each square: how many different castles touch it orthogonally (castle squares count too), 2 for
        two or more."""
        if self._near is None:
            cid = self.cid
            self._near = [_near_count(cid, sq) for sq in range(64)]
        return self._near

    def shift_mask(self, src: int, level_one: bool, minimum: int, every_moment: bool = False) -> int:
        """Where the shift card may move the block on top of ``src`` (pieces ignored; -1 bits never include
        ``src``): 0 if taking it would divide its castle or leave the castle taller than its area.

        Rules (000_…): "A castle may not be divided ... you may not reduce the total number of castles below
        six ... you may not ... reduce the surface area of a castle if such action would cause that castle to be
        taller than its surface area ... begin a new castle by placing the block on an empty space that is not
        orthogonally adjacent to any other castle." yucata.de (001_…): "The tower block taken must be at level 1
        and must be placed onto a space so that the level of the space is 1 after placing the block."
        Ravensburger (003_…, ``every_moment``): "Es müssen aber zu jedem Zeitpunkt mindestens 6 Burgen auf dem
        Spielplan vorhanden sein": lifting a one-block castle may not leave fewer than six even for a moment."""
        key = (src, level_one, minimum * 2 + every_moment)
        mask = self._shift_masks.get(key)
        if mask is not None:
            return mask
        mask = 0
        h = self.heights
        lone = h[src] == 1 and self.area[self.cid[src]] == 1
        if h[src] and not (level_one and h[src] != 1) and not (
                every_moment and lone and self.castle_count - 1 < minimum):
            after = bytearray(h)
            after[src] -= 1
            board = board_info_after_removal(self, src)
            whole = True
            if h[src] == 1 and self.area[self.cid[src]] > 1:
                remaining = [s for s in self.squares[self.cid[src]] if s != src]
                pieces = {board.cid[s] for s in remaining}
                c = board.cid[remaining[0]]
                whole = len(pieces) == 1 and board.top[c] <= board.area[c]
            if whole:
                near = board.near_counts()
                bcid, barea = board.cid, board.area
                count = board.castle_count
                before = self.castle_count
                for dst in range(64):
                    if dst == src:
                        continue
                    c = bcid[dst]
                    if c >= 0:
                        if level_one or after[dst] >= barea[c]:
                            continue
                        total = count
                    else:
                        k = near[dst]
                        if k > 1:
                            continue
                        total = count + (1 if k == 0 else 0)
                    if total < before and total < minimum:
                        continue
                    mask |= 1 << dst
        if not self._shift_masks:  # still the shared empty table (or a copy of it): a table of its own
            self._shift_masks = {}
        self._shift_masks[key] = mask
        return mask

    def exits(self, castle: int) -> tuple[int, ...]:
        """Squares a knight can step out onto from a door of ``castle``.

        A block has doors on all four sides; a door is usable where the wall is exposed, i.e. from a castle
        square ``v`` onto an orthogonal neighbour ``u`` that is lower than ``v``. ``u`` may be ground or part of
        any castle (this one included)."""
        found = self._exits.get(castle)
        if found is None:
            h = self.heights
            seen: set[int] = set()
            for v in self.squares[castle]:
                hv = h[v]
                for u in ORTHOGONAL[v]:
                    if h[u] < hv:
                        seen.add(u)
            found = tuple(sorted(seen))
            if not self._exits:  # still the shared empty table (or a copy of it): a table of its own
                self._exits = {}
            self._exits[castle] = found
        return found

    def door_mask(self, castle: int, level: int) -> int:
        """Bitmask of the door exits of ``castle`` at ``level`` or below: where a knight that entered the castle
        from ``level`` may step out (before excluding occupied squares)."""
        key = castle * 64 + level
        mask = self._door_masks.get(key)
        if mask is None:
            h = self.heights
            mask = 0
            for u in self.exits(castle):
                if h[u] <= level:
                    mask |= 1 << u
            if not self._door_masks:  # still the shared empty table (or a copy of it): a table of its own
                self._door_masks = {}
            self._door_masks[key] = mask
        return mask

    def move_mask(self, src: int) -> int:
        """Bitmask of where a knight on ``src`` may go with a plain move, before excluding occupied squares (so
        it may include ``src``): an orthogonal step up at most one level or down any number, or through the doors
        of a higher neighbouring castle to an exit no higher than ``src``."""
        mask = self.move_masks[src]
        if mask < 0:
            h, cid = self.heights, self.cid
            level = h[src]
            mask = 0
            entered = -1
            for v in ORTHOGONAL[src]:
                hv = h[v]
                if hv <= level + 1:
                    mask |= 1 << v
                if hv > level:
                    c = cid[v]
                    if c != entered:  # a second neighbour of the same castle adds nothing new
                        mask |= self.door_mask(c, level)
                        entered = c
            if type(self.move_masks) is tuple:  # still ``_UNKNOWN`` (or a copy of it): a list of its own
                self.move_masks = list(self.move_masks)
            self.move_masks[src] = mask  # type: ignore[index]
        return mask

    def site_mask(self, sq: int) -> int:
        """Bitmask of the orthogonal neighbours of ``sq`` no higher than it: where a knight on ``sq`` lets a new
        knight (or a redeployed one) enter, before excluding occupied squares."""
        mask = self.site_masks[sq]
        if mask < 0:
            h = self.heights
            level = h[sq]
            mask = 0
            for n in ORTHOGONAL[sq]:
                if h[n] <= level:
                    mask |= 1 << n
            if type(self.site_masks) is tuple:  # still ``_UNKNOWN`` (or a copy of it): a list of its own
                self.site_masks = list(self.site_masks)
            self.site_masks[sq] = mask  # type: ignore[index]
        return mask

    def placeable_mask(self) -> int:
        """:meth:`placeable` as a bitmask."""
        if self._placeable_mask < 0:
            h, cid, area = self.heights, self.cid, self.area
            near = self.near_counts()
            mask = 0
            for sq in range(64):
                c = cid[sq]
                if c >= 0:
                    if h[sq] < area[c]:
                        mask |= 1 << sq
                elif near[sq] == 1:
                    mask |= 1 << sq
            self._placeable_mask = mask
        return self._placeable_mask

    def placeable(self) -> tuple[int, ...]:
        """Squares where the normal rules allow a block, ignoring pieces: on a castle square below the castle's
        area, or on ground orthogonally next to exactly one castle (never joining two)."""
        if self._placeable is None:
            mask = self.placeable_mask()
            self._placeable = tuple(sq for sq in range(64) if mask >> sq & 1)
        return self._placeable

    def block_allowed(self, sq: int) -> bool:
        """Whether the normal rules allow a block on ``sq`` (ignoring pieces)."""
        c = self.cid[sq]
        if c >= 0:
            return self.heights[sq] < self.area[c]
        return len(self.castles_next_to(sq)) == 1


def _unpickle(heights: bytes, cid: list[int], area: list[int], top: list[int], squares: list[tuple[int, ...]],
              blocks: int, derived_from: tuple[BoardInfo, int] | None, in_hand: bool) -> BoardInfo:
    """A pickled analysis, with the fields it was pickled with (castle numbers included) and empty caches."""
    info = BoardInfo(heights, cid, area, top, squares, blocks)
    info.derived_from = derived_from
    info.in_hand = in_hand
    return info


def clear_board_cache() -> None:
    """Forget every cached analysis (benchmarks start from here; results never depend on the cache)."""
    _CACHE.clear()
    _REMOVED.clear()


def board_info(heights: bytes) -> BoardInfo:
    info = _CACHE.get(heights)
    if info is None:
        info = _analyse(heights)
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[heights] = info
    return info


def board_info_after_block(old: BoardInfo, heights: bytes, sq: int) -> BoardInfo:
    """The analysis after one block was added on ``sq`` by a legal placement (never joining castles; the shift
    card's may start one).

    Blocks are placed every few actions and a full analysis of the new board cost more than the move generation
    that follows, so what the placement cannot change is carried over from ``old``: the castles (but the one
    that grew), and the near counts and placeable squares away from ``sq``."""
    info = _CACHE.get(heights)
    if info is not None:
        return info
    c = old.cid[sq]
    if c >= 0:
        top = old.top
        if heights[sq] > top[c]:
            top = top[:]
            top[c] = heights[sq]
        info = BoardInfo(heights, old.cid, old.area, top, old.squares, old.blocks)
        # the same castles: only ``sq`` can stop being placeable (its castle's area is unchanged)
        info._near = old._near
        if old._placeable_mask >= 0:
            bit = 1 << sq
            info._placeable_mask = old._placeable_mask | bit if heights[sq] < old.area[c] else \
                old._placeable_mask & ~bit
    else:
        near = old.castles_next_to(sq)
        if not near:  # a new castle (the shift card may start one): the last number
            cid = old.cid[:]
            cid[sq] = len(old.area)
            info = BoardInfo(heights, cid, old.area + [1], old.top + [heights[sq]], old.squares + [(sq,)],
                             old.blocks | 1 << sq)
            info.derived_from = (old, 1 << sq)
            if len(_CACHE) >= _CACHE_LIMIT:
                _CACHE.clear()
            _CACHE[heights] = info
            return info
        if len(near) != 1:
            return board_info(heights)
        (c,) = near
        cid = old.cid[:]
        cid[sq] = c
        area = old.area[:]
        area[c] += 1
        squares = old.squares[:]
        squares[c] = squares[c] + (sq,)
        info = BoardInfo(heights, cid, area, old.top, squares, old.blocks | 1 << sq)
        if old._near is not None and old._placeable_mask >= 0:
            # Only the ground next to ``sq`` sees a castle it did not see before, and only castle ``c`` grew.
            near_counts = old._near[:]
            mask = old._placeable_mask
            for n in ORTHOGONAL[sq]:
                near_counts[n] = _near_count(cid, n)
            info._near = near_counts
            size = area[c]
            for s in squares[c]:
                if heights[s] < size:
                    mask |= 1 << s
                else:
                    mask &= ~(1 << s)
            for n in ORTHOGONAL[sq]:
                if cid[n] < 0:
                    if near_counts[n] == 1:
                        mask |= 1 << n
                    else:
                        mask &= ~(1 << n)
            info._placeable_mask = mask
    info.derived_from = (old, 1 << sq if old.cid[sq] >= 0 else _mask(info.squares[c]))
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[heights] = info
    return info


def board_info_after_shift(old: BoardInfo, heights: bytes, src: int, dst: int) -> BoardInfo:
    """The analysis after the shift card moved the top block of ``src`` onto ``dst``: the block added on ``dst``
    to the board without it (:func:`board_info_after_removal`), from which it is derived."""
    info = _CACHE.get(heights)
    if info is not None:
        return info
    return board_info_after_block(board_info_after_removal(old, src), heights, dst)


#: (id of an analysis, a square) → (the analysis, the analysis of its board with the top block of that square
#: taken away); module-level rather than on the analysis, which the one without the block refers to (no cycle)
_REMOVED: dict[tuple[int, int], tuple[BoardInfo, BoardInfo]] = {}


def board_info_after_removal(old: BoardInfo, src: int) -> BoardInfo:
    """The analysis of ``old``'s board with the top block of ``src`` taken away, derived from ``old``.

    The shift card tries every destination for each block it could take: the board without the block is worked
    out once per block, and what is known of it (the evaluation's terms too) serves every destination. Castle
    numbers are kept, but a castle that vanishes gives its number to the last castle; only a divided castle needs
    a full analysis. Not kept in the cache by heights: no position stands between taking the block and placing it."""
    entry = _REMOVED.get((id(old), src))
    if entry is not None and entry[0] is old:
        return entry[1]
    after = bytearray(old.heights)
    after[src] -= 1
    heights = bytes(after)
    cid, area, top, squares = old.cid, old.area, old.top, old.squares
    touched = 1 << src  # where height, castle number or castle area differ from ``old``
    c = cid[src]
    info: BoardInfo | None = None
    if heights[src]:
        if top[c] == heights[src] + 1:
            top = top[:]
            top[c] = max(heights[s] for s in squares[c])
    else:
        members = squares[c]
        cid, area, top, squares = cid[:], area[:], top[:], squares[:]
        cid[src] = -1
        if len(members) == 1:
            last = len(area) - 1
            if c != last:
                for s in squares[last]:
                    cid[s] = c
                area[c], top[c], squares[c] = area[last], top[last], squares[last]
                touched |= _mask(squares[last])
            del area[last], top[last], squares[last]
        else:
            i = members.index(src)
            rest = members[:i] + members[i + 1:]
            if _castle_neighbours(old.cid, src, c) > 1 and not connected(rest):
                info = _analyse(heights)  # divided (a block with one neighbour in its castle cannot divide it)
            else:
                area[c] -= 1
                squares[c] = rest
                touched |= _mask(members)
                if top[c] == heights[src] + 1:
                    top[c] = max(heights[s] for s in rest)
    if info is None:
        info = BoardInfo(heights, cid, area, top, squares, old.blocks if heights[src] else old.blocks & ~(1 << src))
        info.derived_from = (old, touched)
    info.in_hand = True
    if len(_REMOVED) >= _CACHE_LIMIT:
        _REMOVED.clear()
    _REMOVED[(id(old), src)] = (old, info)
    return info


def _mask(squares: tuple[int, ...]) -> int:
    mask = 0
    for s in squares:
        mask |= 1 << s
    return mask


def _castle_neighbours(cid: list[int], sq: int, c: int) -> int:
    """How many orthogonal neighbours of ``sq`` belong to castle ``c``."""
    count = 0
    for n in ORTHOGONAL[sq]:
        if cid[n] == c:
            count += 1
    return count


def connected(squares: Sequence[int]) -> bool:
    """Whether ``squares`` (at least one) are orthogonally connected."""
    inside = set(squares)
    seen = {squares[0]}
    todo = [squares[0]]
    while todo:
        for n in ORTHOGONAL[todo.pop()]:
            if n in inside and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(inside)


def _near_count(cid: list[int], sq: int) -> int:
    """How many different castles touch ``sq`` orthogonally, counting 2 for two or more."""
    first, count = -1, 0
    for n in ORTHOGONAL[sq]:
        c = cid[n]
        if c >= 0 and c != first:
            if count == 0:
                first, count = c, 1
            else:
                return 2
    return count


def _analyse(heights: bytes) -> BoardInfo:
    cid = [-1] * 64
    area: list[int] = []
    top: list[int] = []
    squares: list[tuple[int, ...]] = []
    blocks = 0
    for start in range(64):
        if heights[start] == 0:
            continue
        blocks |= 1 << start
        if cid[start] >= 0:
            continue
        c = len(area)
        cid[start] = c
        todo = [start]
        members = []
        tallest = 0
        while todo:
            sq = todo.pop()
            members.append(sq)
            if heights[sq] > tallest:
                tallest = heights[sq]
            for n in ORTHOGONAL[sq]:
                if heights[n] and cid[n] < 0:
                    cid[n] = c
                    todo.append(n)
        area.append(len(members))
        top.append(tallest)
        squares.append(tuple(sorted(members)))
    return BoardInfo(heights, cid, area, top, squares, blocks)
