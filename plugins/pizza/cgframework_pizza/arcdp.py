"""The outcome of every opening of an unopened cycle or path, in O(n^2), with one shared DP.

After the first move in an unopened cycle, the rest is a two-ended stack on an arc of the
cycle (L20); after the first move in an unopened path it is two stacks, i.e. the path minus
a removed interval. So every position reachable from a lone pizza is an arc, and from a lone
path a removed interval: n^2 states with O(1) work each (the digest's "arc DP", §2.6, which
it checked against the paper's plateau algorithm and brute force). This is the recursion
(1.1), L51, on those states, nothing more.

With NumPy installed (extra ``fast``) each DP layer is one vectorised step on exact int64
values (rational weights are scaled to integers first: val(c*g) = c*val(g) for c > 0, (3.21)
L621); without it, or when the numbers could overflow, the same recursion runs in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import lcm

from cgframework import Solution, SolveContext, finish
from cgframework_pizza.board import Board, cycle_order, path_order
from cgframework_pizza.chains import Chains
from cgframework_pizza.numeric import numpy_or_none

NUMPY_FROM = 100
"""Slices from which the DP's layers run in NumPy: below it Python is about as fast, and
NumPy is not even imported (``cgf solve pizza 3,1,4`` stays light)."""
INT64_SAFE = 2**62
"""Every DP entry is bounded by the sum of |weights|: below this, int64 cannot overflow."""


def opening_outcomes(
    weights: Sequence[Fraction | int], cyclic: bool, use_numpy: bool | None = None
) -> list[Fraction | int]:
    """out[v] = wt(v) - val(board after v), for every first move v of cyc(a) or path(a).
    ``use_numpy``: None (NumPy from ``NUMPY_FROM`` slices, if installed), True (NumPy if
    installed), False (the pure-Python kernel)."""
    n = len(weights)
    if n == 0:
        return []
    scale = lcm(*(Fraction(w).denominator for w in weights))
    ints = [int(Fraction(w) * scale) for w in weights]
    if use_numpy is None:
        use_numpy = n >= NUMPY_FROM
    use_numpy = use_numpy and numpy_or_none() is not None and sum(abs(w) for w in ints) < INT64_SAFE
    kernel = _numpy_outcomes if use_numpy else _python_outcomes
    outs = kernel(ints, cyclic and n > 2)  # a 2-cycle is a single edge (L73): a path
    if scale == 1:
        return outs
    return [Fraction(o, scale) for o in outs]


def _python_outcomes(a: list[int], cyclic: bool) -> list[int]:
    n = len(a)
    if cyclic:
        # arc[i] = val(tes(a[i], ..., a[i+length-1])) (indices mod n), grown one at a time
        arc = list(a)
        for length in range(2, n):
            arc = [max(a[i] - arc[(i + 1) % n], a[(i + length - 1) % n] - arc[i]) for i in range(n)]
        return [a[v] - (arc[(v + 1) % n] if n > 1 else 0) for v in range(n)]
    # gone[l] = val(path with a[l .. l+k-1] removed), for removed lengths k = n-1 .. 1
    gone = [0]  # k = n: everything removed
    for k in range(n - 1, 0, -1):
        row = []
        for left in range(n - k + 1):
            options = []
            if left > 0:
                options.append(a[left - 1] - gone[left - 1])
            if left + k < n:
                options.append(a[left + k] - gone[left])
            row.append(max(options))
        gone = row
    return [a[i] - gone[i] for i in range(n)]


def _numpy_outcomes(a: list[int], cyclic: bool) -> list[int]:
    np = numpy_or_none()
    w = np.array(a, dtype=np.int64)
    n = len(a)
    if cyclic:
        arc = w.copy()
        for length in range(2, n):
            arc = np.maximum(w - np.roll(arc, -1), np.roll(w, -(length - 1)) - arc)
        rest = np.roll(arc, -1) if n > 1 else np.zeros(1, dtype=np.int64)
        return [int(x) for x in w - rest]
    gone = np.zeros(1, dtype=np.int64)
    for k in range(n - 1, 0, -1):
        width = n - k + 1
        row = np.empty(width, dtype=np.int64)
        row[1:] = w[: width - 1] - gone  # take the left neighbour a[l-1] of the hole
        right = w[k:] - gone  # take the right neighbour a[l+k]
        row[0] = right[0]
        row[1 : width - 1] = np.maximum(row[1 : width - 1], right[1:])
        gone = row
    return [int(x) for x in w - gone]


def lone_unopened(board: Chains | Board) -> tuple[list[int], bool] | None:
    """(vertex order, cyclic?) when the board is one unopened path or cycle, else None."""
    if isinstance(board, Chains):
        if len(board.parts) != 1 or not board.parts[0].unopened:
            return None
        part = board.parts[0]
        return list(part.vertices), part.kind == "cyc"
    parts = board.components()
    if len(parts) != 1 or board.available:
        return None
    order = path_order(board, parts[0])
    if order is not None:
        return order, False
    order = cycle_order(board, parts[0])
    return None if order is None else (order, True)


def applies(ruleset, position) -> bool:
    return isinstance(position, Chains | Board) and lone_unopened(position) is not None


def solve_arc_dp(ruleset, position: Chains | Board, ctx: SolveContext) -> Solution:
    """Value and every optimal opening of a lone unopened cycle (pizza) or path."""
    order, cyclic = lone_unopened(position)
    if isinstance(position, Chains):
        weights = list(position.parts[0].weights)
    else:
        weights = [position.weight(v) for v in order]
    outs = opening_outcomes(weights, cyclic)
    value = max(outs)
    best = sorted(v for v, out in zip(order, outs, strict=True) if out == value)
    ctx.table.nodes += len(order) * len(order)
    return finish(
        ruleset,
        position,
        ctx,
        value=value,
        outcome=None,
        best_moves=[f"#{v + 1}" for v in best],
        method="arc-dp",
    )
