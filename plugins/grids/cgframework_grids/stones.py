"""The grid rulesets: Clobber, Konane, Cram, Fission and Amazons, as move lists on board
strings (``grid.GridRuleset`` does the rest). Letters as in cgt-py and pycgt: ``x`` Left's
stone or amazon, ``o`` Right's, ``.`` empty, ``#`` removed or burned.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cgframework import Player, SolveContext
from cgframework.values import CanonicalGame
from cgframework_grids import mask_keys
from cgframework_grids.grid import Grid, GridRuleset, move_text, put2, rays, transposed
from cgframework_grids.mask_keys import MaskKey, Token
from cgframework_grids.nibbles import (
    EMPTY,
    KONANE,
    PLANES,
    STONE_O,
    STONE_X,
    NegatedNibbleKey,
    NibbleKey,
    NibbleSearch,
    kernel_values,
    least_image,
    planes,
    signed_least_image,
)


def _sides(player: Player) -> tuple[str, str]:
    return ("x", "o") if player is Player.LEFT else ("o", "x")


class MaskSearch:
    """The key searches' protocol on bit masks, colour swaps folded (``mask_keys.py``), for
    a ruleset whose colour swap negates the value (Clobber, Amazons)."""

    rule = mask_keys.CLOBBER

    def search_key(self, position: Grid) -> Token:
        """The token ``option_keys`` gives for this region: the least image of it or of its
        colour swap (minus its value), as bit masks."""
        return mask_keys.key_of(self.rule, position.height, position.width, position.cells)

    def negated_key(self, token: tuple) -> MaskKey | None:
        """The key whose value ``token`` negates (its colour swap), or None for a key."""
        return mask_keys.negated_key(token)

    def option_keys(self, key: MaskKey, player: Player) -> list[tuple[Token, ...]]:
        """For each move, its regions' tokens, found on bit masks (in C when the kernel is
        built; ``moves`` is the slow twin)."""
        return mask_keys.option_keys(self.rule, key, player)

    def signed_option_keys(
        self, key: MaskKey, player: Player
    ) -> list[tuple[tuple[MaskKey, int], ...]]:
        """``option_keys`` with each token as ``(key, 1)`` or ``(key, -1)``."""
        return mask_keys.signed_option_keys(self.rule, key, player)


class Clobber(MaskSearch, GridRuleset):
    """Clobber (Albert, Grossman, Nowakowski and Wolfe 2001; Lessons in Play, ch. 1 and the
    rules appendix; Siegel, CGT, ch. I.1): a move takes one of your stones onto an
    orthogonally adjacent enemy stone, which is removed. Stones never move onto an empty
    cell, so empty and removed cells are the same (``#`` is read as ``.``), and a region is a
    connected group of stones; a group of one colour is 0. Both players move alike in
    every direction: all eight symmetries of the rectangle keep the value."""

    name = "clobber"
    syntax = (
        "rows joined by |: x Left's stone, o Right's, . or # empty, e.g. xox|oxo; "
        "rect:RxC (empty), checker:RxC (full checkerboard, x top-left)"
    )
    letters = "xo.#"
    solid = "xo"
    fill = "."
    checker = True

    def compiled_outcome_search(self, ctx: SolveContext, memory: int) -> Any:
        """The core outcome search's optional compiled twin: who wins a sum of mask tokens,
        in C (``mask_keys.CompiledWins``, ``_k_masks.c``); None without the kernel."""
        return mask_keys.compiled_wins(self.rule, ctx.table, memory)

    def normalised(self, grid: Grid) -> Grid:
        return Grid(grid.height, grid.width, grid.cells.replace("#", "."))

    def live(self, s: str) -> bool:
        return "x" in s and "o" in s

    def moves(self, h: int, w: int, s: str, player: Player) -> Iterator[tuple[tuple, str]]:
        mine, theirs = _sides(player)
        i = s.find(mine)
        while i >= 0:
            r, c = divmod(i, w)
            for j, inside in (
                (i - w, r > 0),
                (i + w, r < h - 1),
                (i - 1, c > 0),
                (i + 1, c < w - 1),
            ):
                if inside and s[j] == theirs:  # (up, down, left, right)
                    yield (i, j), put2(s, i, ".", j, mine)
            i = s.find(mine, i + 1)

    def examples(self) -> list[str]:
        return ["xox|oxo", "checker:2x3", "xoxo|o..x"]


class Konane(NibbleSearch, GridRuleset):
    """Konane (Hawaiian checkers; Ernst, "Playing Konane mathematically", 1995; Lessons in
    Play, rules appendix): a move jumps one of your stones orthogonally over an adjacent
    enemy stone onto the empty cell beyond, removing the enemy stone; the same stone may
    go on jumping in the same direction, and may stop after any jump. ``#`` cells are
    off the board. Regions are the connected groups of cells that are not ``#``; one
    without stones of both colours is 0. Both players move alike in every direction: all
    eight symmetries keep the value."""

    name = "konane"
    syntax = (
        "rows joined by |: x Left's stone, o Right's, . empty, # off the board, e.g. xo.|.ox; "
        "rect:RxC (empty), checker:RxC (full checkerboard, x top-left)"
    )
    letters = "xo.#"
    solid = "xo."
    fill = "#"
    checker = True

    def live(self, s: str) -> bool:
        return "x" in s and "o" in s and "." in s

    def moves(self, h: int, w: int, s: str, player: Player) -> Iterator[tuple[tuple, str]]:
        """A stone jumps over an enemy stone next to it onto the empty cell beyond, and may
        go on in the same direction. The first jumps are found by ``str.find`` of three
        cells in a row (``xo.`` or ``.ox`` for Left) in the rows and in the columns (read
        top-down), in order of landing cell, then direction: up, down, left, right."""
        mine, theirs = _sides(player)
        found = []  # (landing cell, direction 0-3, starting cell)
        for text, size, in_columns in (
            (s, w, False),
            (transposed(h, w, s)[2] if h > 2 else "", h, True),  # columns, top-down
        ):
            for pattern, toward_higher in (
                (mine + theirs + ".", True),
                ("." + theirs + mine, False),
            ):
                i = text.find(pattern)
                while i >= 0:
                    if i % size <= size - 3:  # the three cells in one line
                        first, last = i, i + 2  # (a column's: cell r of column c is r * w + c)
                        if in_columns:
                            c, r = divmod(i, size)
                            first, last = r * w + c, (r + 2) * w + c
                        land, start = (last, first) if toward_higher else (first, last)
                        direction = (0 if in_columns else 2) + toward_higher
                        found.append((land, direction, start))
                    i = text.find(pattern, i + 1)
        found.sort()
        for e, d, start in found:
            step = (-w, w, -1, 1)[d]
            cells = list(s)
            cells[start] = cells[e - step] = "."
            cells[e] = mine
            yield (start, e), "".join(cells)
            r, c = divmod(e, w)
            ahead, at = (r, h - 1 - r, c, w - 1 - c)[d], e  # cells ahead of e to the edge
            while ahead > 1 and s[at + step] == theirs and s[at + 2 * step] == ".":
                cells[at] = cells[at + step] = "."
                at += 2 * step
                cells[at] = mine
                yield (start, at), "".join(cells)
                ahead -= 2

    def examples(self) -> list[str]:
        return ["xo.|.ox", "xox.|o.ox|xoxo"]

    folded = staticmethod(least_image)  # the search on nibble boards (``NibbleSearch``)

    def option_keys(self, key: NibbleKey, player: Player) -> list[tuple[NibbleKey, ...]]:
        """The jumps found for all stones at once on the bit planes (``moves`` is the
        slow twin): a stone jumps toward higher cells by ``d`` (4: a column, 4 * width: a
        row) if ``mine & theirs >> d & empty >> 2d``, toward lower ones with ``<<``; it
        may go on while the next two cells ahead are an enemy stone and an empty cell.
        An option without stones of both colours is 0 and left out."""
        h, w, board = key
        ones, _, right2, _, left2, _ = planes(h, w)
        empty = board & ones
        xs, os = (board >> 1) & ones, (board >> 2) & ones
        if player is Player.LEFT:
            mine, theirs, lift, take = xs, os, STONE_X ^ EMPTY, STONE_O ^ EMPTY
        else:
            mine, theirs, lift, take = os, xs, STONE_O ^ EMPTY, STONE_X ^ EMPTY
        afters = []
        row = 4 * w
        for d, guard in ((4, right2), (row, ones)):  # toward higher cells
            starts = mine & (theirs >> d) & (empty >> (d + d)) & guard
            while starts:
                low = starts & -starts
                starts ^= low
                after, at = board ^ lift * low, low
                while True:
                    after ^= take * (at << d) ^ lift * (at << (d + d))
                    afters.append(after)
                    at <<= d + d
                    if not (at & guard and theirs & (at << d) and empty & (at << (d + d))):
                        break
                    after ^= lift * at  # the stone jumps on from here
        for d, guard in ((4, left2), (row, ones)):  # toward lower cells
            starts = mine & (theirs << d) & (empty << (d + d)) & guard
            while starts:
                low = starts & -starts
                starts ^= low
                after, at = board ^ lift * low, low
                while True:
                    after ^= take * (at >> d) ^ lift * (at >> (d + d))
                    afters.append(after)
                    at >>= d + d
                    if not (at & guard and theirs & (at >> d) and empty & (at >> (d + d))):
                        break
                    after ^= lift * at  # the stone jumps on from here
        fold = self._fold
        return [
            (fold(h, w, after),) if (after >> 1) & ones and (after >> 2) & ones else ()
            for after in afters
        ]

    kernel = PLANES  # the compiled search of ``key_values`` (None: ``option_keys`` only)

    def key_values(
        self, key: NibbleKey, ctx: SolveContext
    ) -> dict[NibbleKey, CanonicalGame] | None:
        """The values of ``key`` and of its options' keys from the compiled search of the
        whole key DAG (``_k_planes.c``, the twin of ``option_keys``; the core's key search
        over ``option_keys`` stays the reference, ``tests/test_planes_kernel.py``); None
        without the kernel or when it declines (over 64 cells, too many keys)."""
        if self.kernel is None:
            return None
        h, w, board = key
        found = kernel_values(self.kernel, KONANE, h, w, board, ctx)
        if found is None:
            return None
        return {(h, w, b): value for b, value in zip(*found, strict=True)}


class Cram(GridRuleset):
    """Cram (Gardner 1974; Winning Ways, ch. 3 and ch. 15 (as Dots-and-Boxes' cousin);
    Lessons in Play, ch. 7): both players place a domino in either direction on two
    empty cells. Impartial: every value is a nimber. Regions are the connected groups of
    empty cells; all eight symmetries keep the value."""

    name = "cram"
    impartial = True
    syntax = "rows joined by |: . empty, # filled, e.g. ...|...; rect:RxC (empty)"
    letters = ".#"
    solid = "."
    fill = "#"
    ordered_picks = False

    def live(self, s: str) -> bool:
        return s.count(".") >= 2

    def moves(self, h: int, w: int, s: str, player: Player) -> Iterator[tuple[tuple, str]]:
        i = s.find(".")
        while i >= 0:
            c = i % w
            if c + 1 < w and s[i + 1] == ".":
                yield (i, i + 1), s[:i] + "##" + s[i + 2 :]
            if i + w < h * w and s[i + w] == ".":
                yield (i, i + w), put2(s, i, "#", i + w, "#")
            i = s.find(".", i + 1)

    def examples(self) -> list[str]:
        return ["...|...|...", "rect:3x4", "....#|.....|#...."]

    def impartial_game(self, position: Any, ctx: SolveContext) -> Any:
        """The Lemoine-Viennot search's view of one board: Cram is Arc-Kayles on the grid
        graph of its empty cells (a domino takes two adjacent cells), searched on vertex
        masks of the board's grid, pieces keyed wherever they lie (``kayles_masks.py``)."""
        if not isinstance(position, Grid):
            return None
        from cgframework.solvers.vertex_masks import KaylesMasks

        h, w = position.height, position.width
        edges = [(i, i + 1) for i in range(h * w) if (i + 1) % w] + [
            (i, i + w) for i in range(h * w - w)
        ]
        empty = [i for i, ch in enumerate(position.cells) if ch == "."]
        return KaylesMasks(
            h * w, edges, edges=True, alive=empty, name=lambda u, v: move_text((u, v), w)
        )


class Fission(NibbleSearch, GridRuleset):
    """Fission (as in CGSuite and cgt-py): a stone ``x`` splits into two, Left's move
    vertically (the stones go to the empty cells above and below it), Right's
    horizontally (left and right of it). ``#`` cells are blocked. Regions are the
    connected groups of cells that are not ``#``; transposing the board swaps the
    players, so the canonical key folds the four symmetries that keep rows rows and a
    transposed region stands for minus its value (``negated_key``)."""

    name = "fission"
    syntax = "rows joined by |: x a stone, . empty, # blocked, e.g. ...|.x.|...; rect:RxC (empty)"
    letters = "x.#"
    solid = "x."
    fill = "#"
    transpose_negates = True

    def live(self, s: str) -> bool:
        return "x" in s and s.count(".") >= 2

    def moves(self, h: int, w: int, s: str, player: Player) -> Iterator[tuple[tuple, str]]:
        i = s.find("x")
        if player is Player.LEFT:
            n = h * w
            while i >= 0:
                if w <= i < n - w and s[i - w] == "." and s[i + w] == ".":
                    a, b = i - w, i + w
                    yield (i,), s[:a] + "x" + s[a + 1 : i] + "." + s[i + 1 : b] + "x" + s[b + 1 :]
                i = s.find("x", i + 1)
        else:
            while i >= 0:
                if 0 < i % w < w - 1 and s[i - 1] == "." and s[i + 1] == ".":
                    yield (i,), s[: i - 1] + "x.x" + s[i + 2 :]
                i = s.find("x", i + 1)

    def examples(self) -> list[str]:
        return ["...|.x.|...", "....|.x..|..x.|...."]

    folded = staticmethod(signed_least_image)  # the search on nibble boards (``NibbleSearch``)

    def option_keys(
        self, key: NibbleKey, player: Player
    ) -> list[tuple[NibbleKey | NegatedNibbleKey, ...]]:
        """The splits found for all stones at once on the bit planes (``moves`` is the
        slow twin): Left's stones with empty cells above and below, ``stones & empty <<
        row & empty >> row``, Right's with empty cells left and right (not on the edge
        columns). A move turns three cells over (``^ 3`` each: ``x`` 2 <-> ``.`` 1). An
        option with fewer than two empty cells is 0 and left out."""
        h, w, board = key
        ones, _, _, _, _, inner = planes(h, w)
        empty = board & ones
        stones = (board >> 1) & ones
        if player is Player.LEFT:
            d = 4 * w
            starts = stones & (empty << d) & (empty >> d)
        else:
            d = 4
            starts = stones & (empty << d) & (empty >> d) & inner
        out = []
        fold = self._fold
        flip = STONE_X ^ EMPTY
        while starts:
            low = starts & -starts
            starts ^= low
            after = board ^ flip * (low | (low << d) | (low >> d))
            out.append((fold(h, w, after),) if (after & ones).bit_count() >= 2 else ())
        return out


class Amazons(MaskSearch, GridRuleset):
    """Amazons (Walter Zamkauskas 1988; Berlekamp, "Sums of N x 2 Amazons", 2000; Siegel,
    CGT, ch. I.1 and appendix): a move slides one of your amazons like a chess queen
    through empty cells, then it shoots an arrow, again like a queen, from where it
    landed through empty cells; the arrow's cell is burned (``#``). Regions are the groups
    of cells that are not ``#``, connected also diagonally; one without amazons is 0. Both
    players move alike in every direction: all eight symmetries keep the value."""

    name = "amazons"
    rule = mask_keys.AMAZONS
    syntax = (
        "rows joined by |: x Left's amazon, o Right's, . empty, # burned, e.g. x..|..o; "
        "rect:RxC (empty)"
    )
    letters = "xo.#"
    solid = "xo."
    fill = "#"
    diagonal = True
    # The who-wins search values a component of up to 32 moves (with 300 positions to spare)
    # rather than 8 (100): Amazons' regions are cheap to value and costly to search (3x4:
    # 4 thousand search nodes against 25 thousand, 1.0 CPU s -> 0.65; 3x4 x...|...#|o.x.,
    # decided in few states, 0.12 -> 0.28).
    outcome_value_moves = 32
    outcome_value_allowance = 300

    def live(self, s: str) -> bool:
        return ("x" in s or "o" in s) and "." in s

    def moves(self, h: int, w: int, s: str, player: Player) -> Iterator[tuple[tuple, str]]:
        mine = _sides(player)[0]
        steps = rays(h, w, True)
        i = s.find(mine)
        while i >= 0:
            left = s[:i] + "." + s[i + 1 :]
            for ray in steps[i]:
                for j in ray:
                    if left[j] != ".":
                        break
                    landed = left[:j] + mine + left[j + 1 :]
                    for shot in steps[j]:
                        for k in shot:
                            if landed[k] != ".":
                                break
                            after = landed[:k] + "#" + landed[k + 1 :]
                            yield (i, j, k), after
            i = s.find(mine, i + 1)

    def examples(self) -> list[str]:
        return ["x...|...o", "x.#|..o"]
