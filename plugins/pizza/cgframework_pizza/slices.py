"""Slice partitions (Brown & Brown Lemma 2.10, Algorithm 2.17) and the values they give.

A *slice* is an odd-length sequence whose even-length prefixes, read from either end, have
non-positive alternating sum; its weight is its alternating sum. Lemma 2.10: every sequence
splits into slices with U-shaped weights (i), or into slices with strictly decreasing weights
followed by an *ev-sequence* (ii); the weights are unique. Theorem 2.11: tes(a) ~ <s1..sm> and
st(a) ~ <s1..sm> + ev(x). The partition is computed in O(n) by condensing interior weak local
maxima on a stack (the digest's equivalent form of Algorithm 2.17; R3' and R4 justify it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import islice

import attrs


@attrs.frozen
class Slice:
    """Weight and index range [start, stop) of one slice in the input sequence."""

    weight: Fraction
    start: int
    stop: int


def alternating_sum(values: Sequence[Fraction]) -> Fraction:
    return sum(values[0::2]) - sum(values[1::2])


def tes_slices(a: Sequence[Fraction]) -> list[Slice]:
    """The slices of Lemma 2.10(i), U-shaped weights, in O(n)."""
    weights = tes_slice_weights(a, starts := [])
    stops = starts[1:] + [len(a)]
    return [Slice(w, b, e) for w, b, e in zip(weights, starts, stops, strict=True)]


def tes_slice_weights(a: Sequence[Fraction], starts: list[int] | None = None) -> list[Fraction]:
    """Just the U-shaped slice weights (and, into ``starts``, where each slice begins):
    the stack condensation on plain lists, the inner loop of every solver here."""
    stack: list[Fraction] = []
    begin: list[int] = []
    for i, x in enumerate(a):
        stack.append(x)
        begin.append(i)
        while len(stack) >= 3 and stack[-2] >= stack[-1] and stack[-2] >= stack[-3]:
            z = stack.pop()
            y = stack.pop()
            stack[-1] += z - y
            del begin[-2:]
    if starts is not None:
        starts[:] = begin
    return stack


def condense_onto(stack: list, values: Iterable) -> list:
    """Push ``values`` onto a stack of slice weights, condensing each interior weak local
    maximum as it appears. The condensation is online: the stack after a prefix is that
    prefix's slice weights, so one pass can stop, be copied, and go on."""
    for x in values:
        stack.append(x)
        while len(stack) >= 3 and stack[-2] >= stack[-1] and stack[-2] >= stack[-3]:
            z = stack.pop()
            y = stack.pop()
            stack[-1] += z - y
    return stack


def tes_weights_and_ends(a: Sequence[Fraction]) -> tuple[list, list, list]:
    """The slice weights of a (len >= 2), of a[1:] and of a[:-1], in two passes: a[:-1] then
    one more entry gives a; a[1:] is a[:-1] read backwards (a slice read backwards is a
    slice, and the weights are unique, L280, so S(reversed b) = reversed S(b))."""
    n = len(a)
    without_last = condense_onto([], islice(a, n - 1))
    whole = condense_onto(list(without_last), (a[-1],))
    without_first = condense_onto([], islice(reversed(a), n - 1))[::-1]
    return whole, without_first, without_last


@attrs.frozen
class StackDecomposition:
    """Lemma 2.10(ii): slices with strictly decreasing weights, then an ev-sequence
    ``a[ev_start:]`` of weight ``x`` >= 0 (empty when ``ev_start == len(a)``)."""

    slices: tuple[Slice, ...]
    ev_start: int
    x: Fraction


def st_decomposition(a: Sequence[Fraction]) -> StackDecomposition:
    """From the U-shaped slices: cut at the first minimum (Lemma 2.10(ii) proof, L276)."""
    s = tes_slices(a)
    if not s:
        return StackDecomposition((), 0, Fraction(0))
    m = len(s)
    k = min(range(m), key=lambda i: (s[i].weight, i))  # first index of the minimum
    if k == m - 1:
        kept = s
    elif (m - 1 - k) % 2 == 1:  # m - k odd in 1-based terms: X = s_k..s_m
        kept = s[:k]
    else:
        kept = s[: k + 1]
    ev_start = kept[-1].stop if kept else 0
    x = -alternating_sum([sl.weight for sl in s[len(kept) :]])
    return StackDecomposition(tuple(kept), ev_start, x)


def list_value(weights: Sequence[Fraction]) -> Fraction:
    """(1.4): val(<a1 >= a2 >= ... >= an>) = a1 - a2 + a3 - ... (greedy is optimal)."""
    return alternating_sum(sorted(weights, reverse=True))


def cancel_pairs(weights: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """(1.5): <a, a, rest> ~ <rest>; keep the weights of odd multiplicity, sorted descending."""
    odd: dict[Fraction, int] = {}
    for w in weights:
        odd[w] = odd.get(w, 0) ^ 1
    return tuple(sorted((w for w, c in odd.items() if c), reverse=True))


def plateau_runs(a: Sequence, cyclic: bool) -> list[tuple[int, int]]:
    """Every plateau (Def 4.2, L759) as a run ``range(start, stop)`` of vertices (taken mod
    n: a cycle's run may wrap): a maximal run of equal weights whose first different
    neighbours on both sides (cyclically for a cycle) are smaller or absent. Thm 4.3 (L773):
    the moves at points of one plateau are equivalent, and the plateaus' moves suffice."""
    n = len(a)
    if n == 0:
        return []
    if all(w == a[0] for w in a):
        return [(0, n)]
    runs = []  # maximal runs of equal weights, in order
    start = 0
    for i in range(1, n + 1):
        if i == n or a[i] != a[start]:
            runs.append((start, i))
            start = i
    if cyclic and a[0] == a[-1]:  # the first and the last run are one
        first = runs.pop(0)
        runs[-1] = (runs[-1][0], first[1] + n)
        runs.insert(0, runs.pop())
    plateaus = []
    for j, (b, e) in enumerate(runs):
        w = a[b % n]
        if cyclic:
            left, right = a[(b - 1) % n], a[e % n]
        else:
            left = a[b - 1] if j > 0 else None
            right = a[e] if e < n else None
        if (left is None or left < w) and (right is None or right < w):
            plateaus.append((b, e))
    return plateaus


def plateau_points(a: Sequence[Fraction], cyclic: bool) -> list[int]:
    """Def 4.2 (L759): v_i is a plateau point when the first weight different from a_i, going
    left and going right (cyclically for a cycle), is smaller, or there is none. Thm 4.3:
    in an unopened path or cycle only these openings need trying, in any sum."""
    n = len(a)
    return sorted(i % n for b, e in plateau_runs(a, cyclic) for i in range(b, e))


# ---- Algorithm 2.17 as printed (L358-L372), a second, independent route ------------------
def _split_left(a: Sequence[Fraction], start: int, stop: int) -> tuple[list[Slice], int]:
    """Part A (L360-L362): split initial slices off a[start:stop] while some even prefix has
    a positive alternating sum; each slice is the longest initial one (largest odd j with the
    least prefix sum, A.2). Returns the slices and where the rest begins. Each round scans
    O(l_k + l_{k+1}) terms (2.19, L394)."""
    slices = []
    while True:
        total = Fraction(0)
        least, least_at = None, None
        found = False
        for p in range(1, stop - start + 1):
            total += a[start + p - 1] if p % 2 else -a[start + p - 1]
            if p % 2 and (least is None or total <= least):
                least, least_at = total, p  # ties: the largest odd j
            if p % 2 == 0 and total > 0:
                found = True
                break
        if not found:
            return slices, start
        slices.append(Slice(least, start, start + least_at))
        start += least_at


def _least_odd_prefix(a: Sequence[Fraction], start: int, stop: int, below: int) -> int:
    """The largest odd j < ``below`` minimising the prefix alternating sum of a[start:stop]
    (C and II.B; the digest's note 2: the paper's b_j there means b_i)."""
    total = Fraction(0)
    least, least_at = None, 1
    for j in range(1, below):
        total += a[start + j - 1] if j % 2 else -a[start + j - 1]
        if j % 2 and (least is None or total <= least):
            least, least_at = total, j
    return least_at


def paper_tes_slices(a: Sequence[Fraction]) -> list[Slice]:
    """Algorithm 2.17 I (L358-L366): parts A, B (A mirrored) and C."""
    n = len(a)
    if n == 0:
        return []
    left, start = _split_left(a, 0, n)
    mirrored = list(reversed(a[start:]))
    right_rev, rest = _split_left(mirrored, 0, len(mirrored))
    stop = n - rest  # a[start:stop] is the middle part
    q = stop - start
    if q % 2:
        middle = [Slice(alternating_sum(a[start:stop]), start, stop)]
    else:
        j = _least_odd_prefix(a, start, stop, q)
        middle = [
            Slice(alternating_sum(a[start : start + j]), start, start + j),
            Slice(alternating_sum(a[start + j : stop]), start + j, stop),
        ]
    right = [Slice(s.weight, n - s.stop, n - s.start) for s in reversed(right_rev)]
    return left + middle + right


def paper_st_decomposition(a: Sequence[Fraction]) -> StackDecomposition:
    """Algorithm 2.17 II (L368-L372): part A, then one more slice if what is left is odd."""
    n = len(a)
    slices, start = _split_left(a, 0, n)
    q = n - start
    if q % 2:
        j = _least_odd_prefix(a, start, n, q + 1)
        slices.append(Slice(alternating_sum(a[start : start + j]), start, start + j))
        start += j
    x = -alternating_sum(a[start:]) if start < n else Fraction(0)
    return StackDecomposition(tuple(slices), start, x)
