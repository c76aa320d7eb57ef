"""Wythoff's game (Wythoff 1907; Winning Ways ch. 15): two heaps; a move takes any number of
tokens from one heap, or the same number from both. Equivalently a queen on a quarter-infinite
board moves left, down or diagonally down-left towards the corner. Impartial.

The P-positions are the pairs (a_k, b_k) = (floor(k phi), floor(k phi^2)), k >= 0 (Wythoff
1907; OEIS A000201 and A001950), computed here exactly: floor(k phi) = (k + isqrt(5 k^2)) // 2
(sqrt(5) k is irrational for k > 0, so the floor of the half-sum is that of the integer
part's), and b_k = a_k + k. The Grundy values (OEIS A004481) have no known closed form; the
specialised solver fills the table row by row, each square's value the mex of three bit masks
(values seen along its row, its column and its diagonal), O(1) big-integer operations a square.
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Hashable, Iterator, Mapping, Sequence
from math import isqrt
from typing import Any

import attrs

from cgframework import BaseRuleset, Convention, LimitExceeded, Move, Player, SearchStopped
from cgframework.runtime.budget import SearchBudget

Pair = tuple[int, int]


@attrs.frozen
class Queens:
    """Wythoff positions (pairs of heap sizes), in the order written."""

    pairs: tuple[Pair, ...]


def beatty_lower(k: int) -> int:
    """floor(k phi), exactly (OEIS A000201 from k = 1)."""
    return (k + isqrt(5 * k * k)) // 2


def p_position(k: int) -> Pair:
    """The k-th Wythoff pair (floor(k phi), floor(k phi^2)) (OEIS A000201, A001950)."""
    a = beatty_lower(k)
    return a, a + k


def is_p_position(a: int, b: int) -> bool:
    """True when (a, b) is a P-position of Wythoff's game (a second-player win)."""
    a, b = min(a, b), max(a, b)
    return beatty_lower(b - a) == a


def parse_queens(text: str) -> Queens:
    """``A,B`` pairs joined by ``;`` (``3,5`` or ``3,5;1,2``); ``0`` or ``0,0``: no move."""
    text = text.strip()
    if text == "0":
        return Queens(())
    pairs = []
    for token in text.split(";"):
        parts = [p.strip() for p in token.split(",")]
        if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
            raise ValueError(f"Wythoff position {token.strip()[:40]!r} is not A,B such as 3,5")
        a, b = int(parts[0]), int(parts[1])
        if a or b:
            pairs.append((a, b))
    return Queens(tuple(pairs))


def format_queens(position: Queens) -> str:
    return ";".join(f"{a},{b}" for a, b in position.pairs) or "0"


def pair_results(a: int, b: int) -> Iterator[Pair]:
    """Every option of one pair: the first heap lowered, the second, or both equally."""
    for x in range(a - 1, -1, -1):
        yield x, b
    for y in range(b - 1, -1, -1):
        yield a, y
    for k in range(1, min(a, b) + 1):
        yield a - k, b - k


class Wythoff(BaseRuleset):
    """Wythoff's game; a position is one or more queens (pairs of heaps)."""

    name = "wythoff"
    convention = Convention.NORMAL
    impartial = True
    family = "classic"
    syntax = "heap pairs A,B joined by ;, e.g. 3,5 or 4,7;2,2 (take from one heap or both)"

    def parse(self, text: str) -> Queens:
        return parse_queens(text)

    def format(self, position: Queens) -> str:
        return format_queens(position)

    def options(self, position: Queens, player: Player) -> Iterator[Move]:
        pairs = position.pairs
        seen = set()
        for i, (a, b) in enumerate(pairs):
            if (a, b) in seen:
                continue
            seen.add((a, b))
            for x, y in pair_results(a, b):
                left = ((x, y),) if x or y else ()
                yield Move(Queens(pairs[:i] + left + pairs[i + 1 :]), f"{a},{b}->{x},{y}")

    def components(self, position: Queens) -> Sequence[Queens]:
        return [Queens((p,)) for p in position.pairs if p != (0, 0)]

    def is_empty(self, position: Queens) -> bool:
        return not any(a or b for a, b in position.pairs)

    def canonical_key(self, position: Queens) -> Hashable:
        """The multiset of pairs, each read in either order (the rules are symmetric)."""
        return ("wythoff", tuple(sorted((min(p), max(p)) for p in position.pairs if any(p))))

    def draw(self, position: Queens, marks: Mapping[Hashable, Any] | None = None) -> str:
        """Each queen on its corner of the board, the P-positions shaded."""
        from cgframework_classic.pictures import wythoff_svg

        return wythoff_svg(position.pairs, is_p_position)

    def examples(self) -> list[str]:
        return ["3,5", "4,6", "2,3;5,7"]


MAX_SQUARES = 4_000_000
"""Most Grundy values the table holds (a few CPU seconds, 16 MB of values)."""

MAX_MASK_BYTES = 1 << 30
"""Most memory the bit masks may take. A mask holds values up to i + j, so a long thin table
(``0,3000000``: few squares, but column masks of millions of bits each) is refused at once
rather than growing to the memory ceiling."""


class GrundyTable:
    """Wythoff's Grundy values G(i, j), i <= j (G is symmetric), kept as a staircase: row i
    holds G(i, j) for i <= j < ``ends[i]``, the ends never rising from one row to the next.

    G(i, j) is the mex of the values to its left, below it and diagonally below-left; the
    table keeps each row's, column's and diagonal's values as a bit mask, so a request
    ``(a, b)`` only computes the squares it lacks (rows 0..a extended to column b), each once,
    whatever order the requests come in: the table is the union of the rectangles asked for,
    never more. The left of row i, below the diagonal, is column i by symmetry, so a new row
    starts from column i's mask; every square it reads is on or above the main diagonal.
    """

    def __init__(self) -> None:
        self._lock = threading.RLock()  # (threads of one process share the table)
        self.clear()

    def clear(self) -> None:
        """Forget every value (the table starts afresh)."""
        self.rows: list[array] = []  # row i: G(i, i), G(i, i + 1), ...
        self.ends: list[int] = []  # row i covers columns i .. ends[i] - 1
        self.row_masks: list[int] = []
        self.column_masks: list[int] = []
        self.diagonal_masks: list[int] = []  # index j - i >= 0
        self.squares = 0

    def covers(self, a: int, b: int) -> bool:
        """True when G(a, b) is in the table (either orientation)."""
        a, b = min(a, b), max(a, b)
        return a < len(self.ends) and b < self.ends[a]

    def missing(self, a: int, b: int) -> int:
        """How many squares ``ensure(a, b)`` would add (a <= b)."""
        ends = self.ends
        return sum(
            b + 1 - (ends[i] if i < len(ends) else i)
            for i in range(a + 1)
            if i >= len(ends) or ends[i] <= b
        )

    def ensure(self, a: int, b: int, budget: SearchBudget | None = None) -> None:
        """Extend the table to hold G(a, b) (a <= b): rows 0..a to column b, bottom row first
        (a square reads only rows below it). A table past :data:`MAX_SQUARES` is refused
        before any work (:class:`~cgframework.LimitExceeded`); ``budget``'s deadline is looked
        at every row."""
        if self.covers(a, b):
            return
        with self._lock:
            self._ensure(a, b, budget)

    def _ensure(self, a: int, b: int, budget: SearchBudget | None) -> None:
        if self.covers(a, b):  # (another thread may have added it meanwhile)
            return
        added = self.missing(a, b)
        if self.squares + added > MAX_SQUARES:
            raise LimitExceeded(
                f"wythoff: the Grundy values up to ({a}, {b}) need a table of "
                f"{self.squares + added} squares, past the {MAX_SQUARES} computed"
            )
        rows, cols = max(a, len(self.ends) - 1), max(b, len(self.column_masks) - 1)
        if mask_bytes(rows, cols) > MAX_MASK_BYTES:
            raise LimitExceeded(
                f"wythoff: the Grundy values up to ({a}, {b}) need about "
                f"{mask_bytes(rows, cols) >> 20} MB of bit masks, past the "
                f"{MAX_MASK_BYTES >> 20} MB allowed"
            )
        try:
            self._extend(a, b, budget)
        except SearchStopped:
            raise  # raised between two rows: the rows done are whole, the table sound
        except BaseException:
            self.clear()  # stopped inside a row (an interrupt, out of memory): start afresh
            raise

    def _extend(self, a: int, b: int, budget: SearchBudget | None) -> None:
        columns, diagonals = self.column_masks, self.diagonal_masks
        columns.extend([0] * (b + 1 - len(columns)))
        diagonals.extend([0] * (b + 1 - len(diagonals)))
        for i in range(a + 1):
            if budget is not None:
                budget.check_time()
            if i == len(self.ends):
                self.rows.append(array("I"))
                self.ends.append(i)
                self.row_masks.append(columns[i])  # G(i, j) = G(j, i), j < i: column i
            start = self.ends[i]
            if start > b:
                continue
            line, row_mask = self.rows[i], self.row_masks[i]
            for j in range(start, b + 1):
                d = j - i
                seen = row_mask | columns[j] | diagonals[d]
                g = (~seen & (seen + 1)).bit_length() - 1
                bit = 1 << g
                row_mask |= bit
                columns[j] |= bit
                diagonals[d] |= bit
                line.append(g)
            self.row_masks[i] = row_mask
            self.ends[i] = b + 1
            self.squares += b + 1 - start

    def __call__(self, a: int, b: int, budget: SearchBudget | None = None) -> int:
        if a > b:
            a, b = b, a
        with self._lock:  # (no other thread clears the table between the two)
            self.ensure(a, b, budget)
            return self.rows[a][b - a]


def mask_bytes(rows: int, cols: int) -> int:
    """An upper bound on the memory of the masks of a table of rows 0..``rows`` and columns
    0..``cols`` (rows <= cols). G(i, j) is the mex of i + j + min(i, j) options, so at most
    2i + j: a column's mask reaches bit 2 rows + j, a diagonal's 3 rows + d, a row's
    2i + cols; a Python int takes 4 bytes a 30 bits, and 32 bytes besides."""
    r, c = rows, cols
    bits = (c + 1) * (5 * r + 2) + c * (c + 1) + (r + 1) * (r + c + 1)
    return bits * 4 // 30 + 4 + 32 * (2 * c + r + 3)


def grundy_rectangle(rows: int, cols: int) -> list[array]:
    """G(i, j) for 0 <= i <= rows, 0 <= j <= cols (any rows <= cols or not), a row an array
    of 32-bit ints (G(i, j) <= i + j: 16 MB for the largest table, not 150 as int objects)."""
    column = [0] * (cols + 1)
    diagonal = [0] * (rows + cols + 1)  # index j - i + rows
    table = []
    for i in range(rows + 1):
        row_mask, line = 0, array("I")
        for j in range(cols + 1):
            d = j - i + rows
            seen = row_mask | column[j] | diagonal[d]
            g = (~seen & (seen + 1)).bit_length() - 1
            bit = 1 << g
            row_mask |= bit
            column[j] |= bit
            diagonal[d] |= bit
            line.append(g)
        table.append(line)
    return table


TABLE = GrundyTable()
