"""Fission's own search on nibble boards (``nibbles.py``), registered as ``fission-planes``.

A region of Fission never changes shape (a split only turns three cells over), so one
search serves every board of a shape: its keys are bare integers, the least image of a
board under the symmetries of the rectangle (four, or eight on a square where the
transposes stand for minus the value: transposing swaps the players), exactly the keys of
``nibbles.signed_least_image``. What makes it cheaper than the core's key search over
``Fission.option_keys``:

- a board reached before is one dictionary look-up of the board itself (no key tuples);
- a new board is imaged without string work: every key carries its images, and a split
  changes each image by an exclusive or with a mask fixed per (cell, direction, symmetry),
  so an option's images are its parent's, each xor-ed once, and its key their least;
- the values are the core's canonical forms (``game()``), so the result is the generic
  search's, as ``tests/test_grids.py`` checks against ``--method generic``.

With the compiled kernel (``_k_planes.c``) a board of up to 64 cells is searched in C and
valued in one post-order pass calling ``game()`` once per new pair of option sets, after
dropping dominated options; the search below is the fallback (no compiler, a DAG past
``nibbles.KERNEL_CAP`` keys) and the reference (``tests/test_planes_kernel.py``).
"""

from __future__ import annotations

from types import ModuleType

from cgframework import Solution, SolveContext, components
from cgframework.values import ZERO, CanonicalGame, game
from cgframework_grids.closed_forms import solution_from_option_values
from cgframework_grids.grid import CACHE_LIMIT
from cgframework_grids.nibbles import (
    EMPTY,
    FISSION,
    PLANES,
    STONE_X,
    compositions,
    kernel_values,
    planes,
    symmetries,
)

_FLIP = STONE_X ^ EMPTY  # a stone and an empty cell differ in these bits


class FissionBoards:
    """The values of the Fission boards of one shape ``h x w`` (``h <= w``, as keys are)."""

    def __init__(self, h: int, w: int, ctx: SolveContext, kernel: ModuleType | None = PLANES):
        """``kernel``: the compiled DAG search (``None``: the Python search, the reference)."""
        self.h, self.w, self.ctx, self.kernel = h, w, ctx, kernel
        self.codes: dict[tuple[int, int], tuple[int, ...]] | None = None  # (see _prepare)
        self.plain: dict[int, CanonicalGame] = {}  # any board -> value
        self.folded: dict[int, CanonicalGame] = {}  # key board -> value
        self.images: dict[int, list[int]] = {}  # key board -> its images, until expanded

    def _prepare(self) -> None:
        """The Python search's tables of the shape, made when it first runs (the kernel needs
        none: a solve in C pays for no Python per shape). Per split (direction, centre cell):
        per symmetry, the xor that makes it in the image."""
        h, w = self.h, self.w
        self.perms, self.after = symmetries(h, w), compositions(h, w)
        self.ones, _, _, _, _, self.inner = planes(h, w)
        n = h * w
        codes = {}
        for step in (w, 1):
            for i in range(n):
                cells = (i - step, i, i + step)
                if cells[0] >= 0 and cells[2] < n:
                    codes[(step, i)] = tuple(
                        sum(_FLIP << (4 * p[j]) for j in cells) for p in self.perms
                    )
        self.codes = codes

    def images_of(self, board: int) -> list[int]:
        """The board's images, one per symmetry (cell i goes to ``perm[i]``)."""
        out = []
        for perm in self.perms:
            image = 0
            for i, j in enumerate(perm):
                image |= ((board >> (4 * i)) & 15) << (4 * j)
            out.append(image)
        return out

    def key_value(self, key: int) -> CanonicalGame:
        """The value of a key board (one that is the least of its images)."""
        found = self.folded.get(key)
        if found is None:
            if self.kernel is not None and self.from_kernel(self.kernel, key):
                return self.folded[key]
            if self.codes is None:
                self._prepare()
            self.images[key] = self.images_of(key)
            found = self.folded[key] = self.expand(key)
        return found

    def from_kernel(self, kernel: ModuleType, key: int) -> bool:
        """Value every key reachable from ``key`` in the kernel (``nibbles.kernel_values``);
        False when it declines (too big a board or DAG)."""
        found = kernel_values(kernel, FISSION, self.h, self.w, key, self.ctx)
        if found is None:
            return False
        self.folded.update(zip(*found, strict=True))
        return True

    def option_value(self, board: int, parent: list[int], code: tuple[int, ...]) -> CanonicalGame:
        """The value of a board new to ``plain``: its images are the parent's, xor-ed."""
        new = [a ^ b for a, b in zip(parent, code, strict=True)]
        own = min(new[:4])
        other = min(new[4:]) if len(new) > 4 else own
        key = other if other < own else own
        found = self.folded.get(key)
        if found is None:
            k = new.index(key)
            self.images[key] = [new[a_after_k[k]] for a_after_k in self.after]
            found = self.folded[key] = self.expand(key)
        else:
            self.ctx.table.hits += 1
        if other < own:
            found = -found
        if len(self.plain) >= CACHE_LIMIT:  # (the values stay in ``folded``)
            self.plain.clear()
        self.plain[board] = found
        return found

    def expand(self, board: int) -> CanonicalGame:
        """{Left's splits | Right's splits} of a key board."""
        self.ctx.table.nodes += 1  # charged to the search budget, if any
        parent = self.images.pop(board)  # (needed only here)
        ones = self.ones
        empty = board & ones
        stones = (board >> 1) & ones
        known = self.plain.get
        codes = self.codes
        row = 4 * self.w
        sides = []
        for d, starts in (
            (row, stones & (empty << row) & (empty >> row)),
            (4, stones & (empty << 4) & (empty >> 4) & self.inner),
        ):
            values = []
            while starts:
                low = starts & -starts
                starts ^= low
                after = board ^ _FLIP * (low | (low << d) | (low >> d))
                if (after & ones).bit_count() < 2:  # no two empty cells: no move ever
                    values.append(ZERO)
                    continue
                found = known(after)
                if found is None:
                    code = codes[(d >> 2, (low.bit_length() - 1) >> 2)]
                    found = self.option_value(after, parent, code)
                values.append(found)
            sides.append(values)
        return game(sides[0], sides[1])


def _value(ruleset, position, ctx: SolveContext) -> CanonicalGame:
    """Sum of the regions' values, each from the search of its shape (kept in the table)."""
    searches = ctx.table.side("fission-planes")
    total = ZERO
    for part in components(ruleset, position):
        h, w, board, *negated = ruleset.search_key(part)
        search = searches.get((h, w))
        if search is None:
            search = searches[(h, w)] = FissionBoards(h, w, ctx)
        search.ctx = ctx
        value = search.key_value(board)
        total = total + (-value if negated else value)
    return total


def solve_fission_planes(ruleset, position, ctx: SolveContext) -> Solution:
    """The canonical value by the search above; winning moves are those to a value >= 0
    (Left) or <= 0 (Right)."""

    def value_of(rules, pos) -> CanonicalGame:
        return _value(rules, pos, ctx)

    value = value_of(ruleset, position)
    return solution_from_option_values(ruleset, position, ctx, value, "fission-planes", value_of)
