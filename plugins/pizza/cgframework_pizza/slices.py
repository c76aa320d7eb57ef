"""Slice partitions (Brown & Brown Lemma 2.10, Algorithm 2.17) and the values they give.

A *slice* is an odd-length sequence whose even-length prefixes, read from either end, have
non-positive alternating sum; its weight is its alternating sum. Lemma 2.10: every sequence
splits into slices with U-shaped weights (i), or into slices with strictly decreasing weights
followed by an *ev-sequence* (ii); the weights are unique. Theorem 2.11: tes(a) ~ <s1..sm> and
st(a) ~ <s1..sm> + ev(x). The partition is computed in O(n) by condensing interior weak local
maxima on a stack (the digest's equivalent form of Algorithm 2.17; R3' and R4 justify it).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

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


def plateau_points(a: Sequence[Fraction], cyclic: bool) -> list[int]:
    """Def 4.2 (L759): v_i is a plateau point when the first weight different from a_i, going
    left and going right (cyclically for a cycle), is smaller, or there is none. Thm 4.3:
    in an unopened path or cycle only these openings need trying, in any sum."""
    n = len(a)
    points = []
    for i in range(n):
        ok = True
        for step in (-1, 1):
            j = i
            for _ in range(n - 1):
                j += step
                if cyclic:
                    j %= n
                elif not 0 <= j < n:
                    break
                if a[j] != a[i]:
                    ok = a[j] < a[i]
                    break
            if not ok:
                break
        if ok:
            points.append(i)
    return points
