"""Boards as integers, one hex digit (nibble) a cell, for the search of rulesets whose
regions never change shape (Konane, Fission: no move turns a cell into ``#`` or back).

Cell i is nibble i: ``.`` is 1, ``x`` 2, ``o`` 4, ``#`` 0, so each letter is a bit plane
(``board >> k & ONES``) and a move is found for all cells at once by shifting the planes by
4 (a column) or 4 * width (a row), and made by an exclusive or. ``format(board, "x")`` is the
cell string (last cell first), so the symmetric images are the same string slices as
``grid.images`` and the least image's digits read back with ``int(..., 16)``.
"""

from __future__ import annotations

import gc
from functools import cache
from types import ModuleType

from cgframework import SolveContext
from cgframework.runtime.compiled import load_kernel
from cgframework.values import ZERO, CanonicalGame, game
from cgframework_grids.grid import CACHE_LIMIT, Grid, images, transposed, trim

NibbleKey = tuple[int, int, int]  # (height, width, board): least of its images
NegatedNibbleKey = tuple[int, int, int, int]  # with -1 appended: minus the key's value

EMPTY, STONE_X, STONE_O = 1, 2, 4

#: The compiled key searches of Fission and Konane (``_k_planes.c``), or None: the Python paths.
PLANES = load_kernel("cgframework_grids._k_planes", api_version=3)
#: Keys the kernel finds before it gives up and the Python search takes over. Not a memory
#: guard (the Python search needs more memory a key, and is 10-20 times slower; running out
#: of memory is a limit, exit 3): with the values, about 400 bytes a key (the 2,806,077 keys
#: of the Konane board ``..xox.|.xoxox|xoxoxo|oxoxox|......|......`` take 1.1 GB in 17 s).
KERNEL_CAP = 20_000_000
FISSION, KONANE = 0, 1  # the kernel's rules (``PLANES.FISSION``, ``PLANES.KONANE``)
_TO_HEX = str.maketrans({".": "1", "x": "2", "o": "4", "#": "0"})


def to_nibbles(cells: str) -> int:
    """The board of a row-major cell string (cell 0 the lowest nibble)."""
    return int(cells.translate(_TO_HEX)[::-1], 16) if cells else 0


@cache
def planes(h: int, w: int) -> tuple[int, int, int, int, int, int]:
    """Per frame: (ONES: bit 0 of every nibble; cells with a column right of them; with
    two; with a column left of them; with two; cells with columns on both sides)."""
    ones = sum(1 << (4 * i) for i in range(h * w))

    def columns(keep) -> int:
        return sum(1 << (4 * (r * w + c)) for r in range(h) for c in range(w) if keep(c))

    return (
        ones,
        columns(lambda c: c + 1 < w),
        columns(lambda c: c + 2 < w),
        columns(lambda c: c >= 1),
        columns(lambda c: c >= 2),
        columns(lambda c: 1 <= c < w - 1),
    )


@cache
def symmetries(h: int, w: int) -> tuple[tuple[int, ...], ...]:
    """The cell permutations of the rectangle's symmetries (cell i goes to ``perm[i]``): four
    that keep rows rows, then on a square the four transposes."""
    cells = [divmod(i, w) for i in range(h * w)]
    maps = [
        lambda r, c: r * w + c,
        lambda r, c: r * w + w - 1 - c,
        lambda r, c: (h - 1 - r) * w + c,
        lambda r, c: (h - 1 - r) * w + w - 1 - c,
    ]
    if h == w:
        maps += [
            lambda r, c: c * w + r,
            lambda r, c: c * w + h - 1 - r,
            lambda r, c: (w - 1 - c) * w + r,
            lambda r, c: (w - 1 - c) * w + h - 1 - r,
        ]
    return tuple(tuple([f(r, c) for r, c in cells]) for f in maps)


@cache
def compositions(h: int, w: int) -> tuple[tuple[int, ...], ...]:
    """For each pair of ``symmetries(h, w)``, the index of ``a after b``."""
    perms = symmetries(h, w)
    index = {p: k for k, p in enumerate(perms)}  # (on a 1-wide board images coincide)
    return tuple(tuple(index[tuple(a[b[i]] for i in range(h * w))] for b in perms) for a in perms)


def kernel_values(
    kernel: ModuleType, rule: int, h: int, w: int, board: int, ctx: SolveContext
) -> tuple[list[int], list[CanonicalGame]] | None:
    """The values of a key board of ``h x w`` and of its options' keys, from the compiled
    search (``_k_planes.c``: the key DAG in C, valued in post-order with the core's
    ``game()`` once per new option set; every key charged to ``ctx``'s search budget); None
    when the kernel declines (over 64 cells, past ``KERNEL_CAP`` keys, or past the keys a
    ``--max-nodes`` budget has left: the Python search then stops at the limit itself,
    instead of after the whole DAG was found)."""
    table = ctx.table
    cap = KERNEL_CAP
    budget = table.budget
    if budget is not None and budget.max_nodes is not None:
        cap = max(1, min(cap, budget.max_nodes - table.nodes + 1))

    def charge(count: int) -> None:
        table.nodes += count  # (may raise: the budget is spent)
        if not count and budget is not None:  # (the kernel's search phase asks: a deadline?)
            budget.check(table.nodes)

    collecting = gc.isenabled()
    gc.disable()  # (no cycles are made here; on Fission 5 x 6 the collector took 15% of the time)
    try:
        # (perms None: the kernel makes symmetries(h, w) itself, no Python per board shape)
        found = kernel.values(rule, h, w, board, None, cap, game, ZERO, charge)
    finally:
        if collecting:
            gc.enable()
    return found


def least_image(h: int, w: int, board: int) -> NibbleKey:
    """The least (height, width, board) over the eight symmetries of the rectangle."""
    digits = format(board, f"0{h * w}x")
    if h < w:  # keys compare by height first: the transposes (w x h) are larger
        best = min(images(h, w, digits))
    elif h > w:
        best = min(images(*transposed(h, w, digits)))
    else:
        best = min(images(h, w, digits) + images(*transposed(h, w, digits)))
    return (best[0], best[1], int(best[2], 16))


def signed_least_image(h: int, w: int, board: int) -> NibbleKey | NegatedNibbleKey:
    """For a ruleset whose transpose swaps the players: the least of the four images that
    keep rows rows, or of the transpose's four with -1 appended (minus its value) if
    that one is smaller."""
    digits = format(board, f"0{h * w}x")
    # keys compare by height first: of a board and its transpose, the flatter one wins
    own = min(images(h, w, digits)) if h <= w else None
    other = min(images(*transposed(h, w, digits))) if h >= w else None
    if other is None or (own is not None and own <= other):
        return (own[0], own[1], int(own[2], 16))  # type: ignore[index]
    return (other[0], other[1], int(other[2], 16), -1)


class NibbleSearch:
    """For a ``GridRuleset`` whose ``option_keys`` works on nibble boards: the key of a
    component, and the cached fold of a board (``folded``: ``least_image``, or
    ``signed_least_image`` when transposing swaps the players)."""

    fill: str
    transpose_negates: bool  # (``GridRuleset``'s: the fold is ``signed_least_image``)
    _folds: dict[tuple[int, int, int], tuple[int, ...]]  # set by ``GridRuleset``

    @staticmethod
    def folded(h: int, w: int, board: int) -> tuple[int, ...]:
        raise NotImplementedError

    def search_key(self, position: Grid) -> tuple[int, ...]:
        """The key ``option_keys`` gives for this board (a trimmed region): folded by the
        kernel (``PLANES.fold``, no string work) when it is there, else by ``folded``."""
        h, w, s = trim(position.height, position.width, position.cells, self.fill)
        if PLANES is not None:
            key = PLANES.fold(h, w, s, self.transpose_negates)
            if key is not None:
                return key
        return self._fold(h, w, to_nibbles(s))

    def _fold(self, h: int, w: int, board: int) -> tuple[int, ...]:
        folds = self._folds
        key = folds.get((h, w, board))
        if key is None:
            if len(folds) >= CACHE_LIMIT:
                folds.clear()
            key = folds[(h, w, board)] = self.folded(h, w, board)
        return key
