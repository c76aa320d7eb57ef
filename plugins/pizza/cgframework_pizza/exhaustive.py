"""The value of every pizza with n slices and weights from a finite set, all at once.

Number the weightings b = (b_0, ..., b_{L-1}) over an alphabet of k weights by
idx(b) = sum_i d_i k^i (d_i the alphabet position of b_i). Taking the left end of tes(b)
leaves the weighting numbered idx // k, taking the right end the one numbered idx mod k^(L-1),
so the recursion (1.1), L51, fills the table of val(tes(b)) for all b of length L from the
table for length L-1 in O(k^L). A pizza's opening at slice 0 leaves tes(b_1..b_{n-1})
(L20); its other openings are the openings at slice 0 of its rotations, and a rotation is
idx -> idx // k + (idx mod k) k^(n-1). So all k^n pizzas cost O(n k^n) in total, with no
search: the whole of {0,1,2}^14 (Brown & Brown's claim L24 that no pizza of fewer than 15
slices is negative) takes a second or two with NumPy (extra ``fast``). Without NumPy the
same recursion runs on Python lists (fine to about a million weightings).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from math import lcm

import attrs

try:  # optional accelerator
    import numpy as np
except ImportError:  # pragma: no cover - exercised where numpy is absent
    np = None

MAX_WEIGHTINGS = 50_000_000
"""k^n above this is refused (the tables would not fit comfortably in memory)."""

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called as the layers of the computation finish."""


@attrs.frozen
class SearchResult:
    """The least pizza value over all weightings, and the weightings reaching it, one per
    class under rotation and reflection (each the lexicographically least of its class)."""

    n: int
    alphabet: tuple[Fraction, ...]
    weightings: int
    least: Fraction
    classes: tuple[tuple[Fraction, ...], ...]


def _scaled(alphabet: Sequence[Fraction]) -> tuple[list[int], int]:
    scale = lcm(*(Fraction(w).denominator for w in alphabet))
    return [int(Fraction(w) * scale) for w in alphabet], scale


def pizza_values(
    alphabet: Sequence[Fraction], n: int, progress: Progress | None = None
) -> Sequence[int]:
    """val(cyc(b)) * scale for every weighting b of n slices, indexed by idx(b), where scale
    is the least common denominator of the alphabet (values scale with weights, (3.21) L621)."""
    weights, _ = _scaled(alphabet)
    if np is not None and n * max(map(abs, weights)) < 2**62:
        return _numpy_values(weights, n, progress)
    return _python_values(weights, n, progress)


def _python_values(w: list[int], n: int, progress: Progress | None) -> list[int]:
    k = len(w)
    table = [0]  # tes of length 0
    for length in range(1, n):
        top = k ** (length - 1)
        table = [
            max(w[i % k] - table[i // k], w[i // top] - table[i % top]) for i in range(k**length)
        ]
        if progress:
            progress(length, 2 * n - 1)
    size, top = k**n, k ** (n - 1)
    opened = [w[i % k] - table[i // k] for i in range(size)]  # open at slice 0
    values = list(opened)
    current = list(range(size))
    for r in range(1, n):
        current = [i // k + (i % k) * top for i in current]
        values = [max(v, opened[i]) for v, i in zip(values, current, strict=True)]
        if progress:
            progress(n - 1 + r, 2 * n - 1)
    return values


def _numpy_values(w: list[int], n: int, progress: Progress | None):
    k = len(w)
    alphabet = np.array(w, dtype=np.int64)
    table = np.zeros(1, dtype=np.int64)
    for length in range(1, n):
        idx = np.arange(k**length, dtype=np.int64)
        top = k ** (length - 1)
        table = np.maximum(
            alphabet[idx % k] - table[idx // k], alphabet[idx // top] - table[idx % top]
        )
        if progress:
            progress(length, 2 * n - 1)
    idx = np.arange(k**n, dtype=np.int64)
    opened = alphabet[idx % k] - table[idx // k]
    values = opened.copy()
    top = k ** (n - 1)
    current = idx
    for r in range(1, n):
        current = current // k + (current % k) * top
        np.maximum(values, opened[current], out=values)
        if progress:
            progress(n - 1 + r, 2 * n - 1)
    return values


def digits(index: int, k: int, n: int) -> list[int]:
    return [(index // k**i) % k for i in range(n)]


def class_representative(ds: Sequence[int]) -> tuple[int, ...]:
    """The lexicographically least rotation or reflection of a digit sequence."""
    n = len(ds)
    images = [tuple(ds[i:]) + tuple(ds[:i]) for i in range(n)]
    images += [tuple(reversed(x)) for x in images]
    return min(images)


def least_pizzas(
    alphabet: Sequence[Fraction],
    n: int,
    progress: Progress | None = None,
    max_classes: int = 10_000,
) -> SearchResult:
    """The least value over all pizzas of n slices with weights in ``alphabet``, and (up to
    ``max_classes`` of) the rotation/reflection classes that reach it."""
    if n < 1 or not alphabet:
        raise ValueError("need at least one slice and one weight")
    alphabet = sorted({Fraction(w) for w in alphabet})
    k = len(alphabet)
    if k**n > MAX_WEIGHTINGS:
        raise ValueError(f"{k}^{n} weightings is more than {MAX_WEIGHTINGS:,}")
    _, scale = _scaled(alphabet)
    values = pizza_values(alphabet, n, progress)
    least = min(values)
    if np is not None and not isinstance(values, list):
        hits = np.flatnonzero(values == least)[: max_classes * 2 * n].tolist()
    else:
        hits = [i for i, v in enumerate(values) if v == least][: max_classes * 2 * n]
    reps = sorted({class_representative(digits(i, k, n)) for i in hits})[:max_classes]
    classes = tuple(tuple(alphabet[d] for d in rep) for rep in reps)
    return SearchResult(n, tuple(alphabet), k**n, Fraction(int(least), scale), classes)
