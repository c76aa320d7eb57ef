"""Clobber's search keys: a region as two bit masks, its options' regions found for all stones
at once, folded over the eight symmetries and the swap of colours.

A key is ``(h, w, xs, os)``: a trimmed region of ``h`` rows and ``w`` columns, cell ``r * w +
c`` is bit ``r * w + c`` of ``xs`` (Left's stones) or ``os`` (Right's). Swapping the colours of
a Clobber position negates its value (the players' moves are the same, mirrored), so a
region's token is the least image ``(xs, os)`` over the symmetries of the rectangle (the
flatter orientation: ``h <= w``) of the board *or* of its colour swap; the swap's image is
written with ``-1`` appended, ``(h, w, xs, os, -1)``, and stands for minus that key's value
(the ``negated_key`` protocol of the core's key searches). A region equal to minus itself
under some symmetry gets a plain key.

The compiled twin (``_k_clobber.c``) does the same on 64-bit masks; this module is the
reference and the path without a compiler (``tests/test_clobber_keys.py`` holds them equal).
"""

from __future__ import annotations

from functools import cache

from cgframework import Player
from cgframework.runtime.compiled import load_kernel

ClobberKey = tuple[int, int, int, int]
NegatedClobberKey = tuple[int, int, int, int, int]

#: The compiled twin (``_k_clobber.c``), or None: this module's Python path.
KERNEL = load_kernel("cgframework_grids._k_clobber", api_version=2)

MAX_CELLS = 64
"""Most cells of a board the keys cover (the compiled masks are 64 bits)."""

_CACHE_LIMIT = 1_000_000


@cache
def _images(h: int, w: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """(height, width, cell map) of the images of an h x w board in the flatter orientation:
    the four that keep rows rows when ``h < w``, the four of the transpose when ``h > w``,
    all eight on a square. Image ``k``'s cell of ``(r, c)`` as in ``_k_clobber.c``."""
    maps = [
        (h, w, lambda r, c: r * w + c),
        (h, w, lambda r, c: r * w + w - 1 - c),
        (h, w, lambda r, c: (h - 1 - r) * w + c),
        (h, w, lambda r, c: (h - 1 - r) * w + w - 1 - c),
        (w, h, lambda r, c: c * h + r),
        (w, h, lambda r, c: c * h + h - 1 - r),
        (w, h, lambda r, c: (w - 1 - c) * h + r),
        (w, h, lambda r, c: (w - 1 - c) * h + h - 1 - r),
    ]
    chosen = maps[:4] if h < w else maps[4:] if h > w else maps
    return tuple(
        (ih, iw, tuple(f(r, c) for r in range(h) for c in range(w))) for ih, iw, f in chosen
    )


def _permuted(mask: int, cells: tuple[int, ...]) -> int:
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << cells[low.bit_length() - 1]
        mask ^= low
    return out


_folds: dict[ClobberKey, ClobberKey | NegatedClobberKey] = {}


def fold(h: int, w: int, xs: int, os: int) -> ClobberKey | NegatedClobberKey:
    """The token of a trimmed region (see the module docstring)."""
    found = _folds.get((h, w, xs, os))
    if found is not None:
        return found
    own = swap = None
    images = _images(h, w)
    for _, _, cells in images:
        a, b = _permuted(xs, cells), _permuted(os, cells)
        if own is None or (a, b) < own:
            own = (a, b)
        if swap is None or (b, a) < swap:
            swap = (b, a)
    assert own is not None and swap is not None
    ih, iw = images[0][0], images[0][1]
    found = (ih, iw, *own) if own <= swap else (ih, iw, *swap, -1)
    if len(_folds) >= _CACHE_LIMIT:
        _folds.clear()
    _folds[(h, w, xs, os)] = found
    return found


@cache
def _frame(h: int, w: int) -> tuple[int, int, int]:
    """(all cells, cells not in the first column, cells not in the last column)."""
    ones = (1 << (h * w)) - 1
    first = sum(1 << (r * w) for r in range(h))
    return ones, ones & ~first, ones & ~(first << (w - 1))


def region(seed: int, stones: int, h: int, w: int) -> int:
    """The stones 4-connected to ``seed`` (bit-parallel flood fill)."""
    ones, not_first, not_last = _frame(h, w)
    grown = seed
    while True:
        more = (
            grown | (grown << 1 & not_first) | (grown >> 1 & not_last) | (grown << w) | grown >> w
        ) & stones
        if more == grown:
            return grown
        grown = more


def trimmed(h: int, w: int, xs: int, os: int) -> ClobberKey:
    """The board cut to the rows and columns that hold a stone (an empty board: 0 x 0)."""
    stones = xs | os
    if not stones:
        return (0, 0, 0, 0)
    rows = [r for r in range(h) if stones >> (r * w) & ((1 << w) - 1)]
    column = sum(1 << (r * w) for r in range(h))
    cols = [c for c in range(w) if stones & (column << c)]
    r0, r1, c0, c1 = rows[0], rows[-1], cols[0], cols[-1]
    nh, nw = r1 - r0 + 1, c1 - c0 + 1
    if (nh, nw) == (h, w):
        return (h, w, xs, os)
    nx = no = 0
    for r in range(nh):
        shift = (r + r0) * w + c0
        nx |= (xs >> shift & ((1 << nw) - 1)) << (r * nw)
        no |= (os >> shift & ((1 << nw) - 1)) << (r * nw)
    return (nh, nw, nx, no)


def regions(h: int, w: int, xs: int, os: int) -> list[ClobberKey | NegatedClobberKey]:
    """The tokens of a board's regions that hold stones of both colours (the others are 0),
    in order of their lowest cell."""
    stones = xs | os
    out = []
    while stones:
        part = region(stones & -stones, stones, h, w)
        stones ^= part
        px, po = xs & part, os & part
        if px and po:
            out.append(fold(*trimmed(h, w, px, po)))
    return out


def option_keys(
    h: int, w: int, xs: int, os: int, player: Player
) -> list[tuple[ClobberKey | NegatedClobberKey, ...]]:
    """Each move's regions' tokens: the player's stones in cell order, each onto the enemy
    stone up, down, left, right of it (``Clobber.moves``'s order)."""
    if KERNEL is not None and h * w <= MAX_CELLS:
        return KERNEL.options(h, w, xs, os, player is Player.LEFT)
    mine, theirs = (xs, os) if player is Player.LEFT else (os, xs)
    _, not_first, not_last = _frame(h, w)
    out = []
    m = mine
    while m:
        low = m & -m
        m ^= low
        for target, ok in (
            (low >> w, True),
            (low << w, True),
            (low >> 1, low & not_first),
            (low << 1, low & not_last),
        ):
            if ok and theirs & target:
                new_mine, new_theirs = mine ^ low ^ target, theirs ^ target
                after = (new_mine, new_theirs) if player is Player.LEFT else (new_theirs, new_mine)
                out.append(tuple(regions(h, w, *after)))
    return out


def signed_option_keys(
    h: int, w: int, xs: int, os: int, player: Player
) -> list[tuple[tuple[ClobberKey, int], ...]]:
    """:func:`option_keys` with each token as ``(key, 1)`` or ``(key, -1)`` (minus the key's
    value): the form the core's outcome search works on, made without a call per token."""
    if KERNEL is not None and h * w <= MAX_CELLS:
        return KERNEL.options(h, w, xs, os, player is Player.LEFT, True)
    return [
        tuple((t[:4], -1) if len(t) == 5 else (t, 1) for t in parts)
        for parts in option_keys(h, w, xs, os, player)
    ]


def key_of(h: int, w: int, cells: str) -> ClobberKey | NegatedClobberKey:
    """The token of a board of letters (``x``, ``o``, else empty) that is one region with
    stones of both colours (a component); ValueError for any other board."""
    xs = os = 0
    for i, ch in enumerate(cells):
        if ch == "x":
            xs |= 1 << i
        elif ch == "o":
            os |= 1 << i
    found = regions(h, w, xs, os)
    if len(found) != 1 or (xs | os) != region((xs | os) & -(xs | os), xs | os, h, w):
        raise ValueError("not one Clobber region with stones of both colours")
    return found[0]
