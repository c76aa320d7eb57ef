"""Values of sums with unopened paths and pizzas: one DP over the list still to be taken.

A concatenation of lists, stacks, two-ended stacks and unopened parts is ``<N> + ev(x) + U``
(Thm 2.11, L284: tes(a) ~ <s>, st(a) ~ <s> + ev(x)). Among list moves only the largest entry
matters (L109), so from ``<N> + U`` the list moves reach just the suffixes ``N[k:]`` of N
sorted decreasingly. Opening a part P of U at v (one point per plateau is enough, Thm 4.3,
L773) turns P into slice weights T_v and an ev-weight x_v (L20: a cycle becomes a tes, a
path two stacks). So, with ``V_k = val(<N[k:]> + U)``:

    V_k = max(N[k] - V_{k+1},  max over P, v of  wt(v) - val(<N[k:] + T_v> + ev(x_v) + U - P))

When P is the last unopened part, the position after the opening is a list, whose value is
the alternating sum of its entries sorted decreasingly (1.4), plus or minus x_v (1.3). For
one opening that alternating sum is found for *every* k at once in O(m + |T_v|): where each
entry of T_v falls in N decides its sign, and dropping the top k entries of N flips the
signs below them by k. So a sum of one unopened part and a list of m entries costs
O(openings * (m + n)) instead of a search over (list, opening) states; with NumPy the
openings are processed as matrices. With several unopened parts the same recursion opens
them one at a time (cost exponential in their number only, as the digest's §2.7 solver).
Weights are integers here (the caller scales rationals: val(c*g) = c*val(g), (3.21) L621).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import attrs

from cgframework_pizza.numeric import numpy_or_none
from cgframework_pizza.slices import (
    cancel_pairs,
    list_value,
    plateau_runs,
    st_decomposition,
    tes_slice_weights,
)

NUMPY_FROM = 4096
"""Cells (list length + 1) x (part length) from which the last part's DP uses NumPy; below
it the Python kernel is as fast, and NumPy is not even imported (a small solve stays light)."""
NUMPY_SAFE = 2**60
"""Every partial sum below is at most the total |weight| of the position: int64 is exact."""
CHUNK = 1 << 21
"""Entries per NumPy block (openings x list length), bounding the kernel's memory."""
CACHE_LIMIT = 4_000_000
"""Slice weights of openings kept per valuer; beyond it openings are recomputed when
needed (streamed), so memory stays linear in the board beyond this constant."""


@attrs.frozen(cache_hash=True)
class Unopened:
    """An unbroached path or cycle, by its weights in order."""

    weights: tuple
    cyclic: bool


@attrs.frozen(cache_hash=True)
class Opening:
    """The first move at a vertex of weight ``weight`` of an unopened part: what is left is
    ``<slices> + ev(x)``, ``slices`` sorted decreasingly, equal pairs cancelled (1.5)."""

    weight: int
    slices: tuple
    x: int


def after_opening(part: Unopened, i: int) -> tuple[list, int]:
    """Slice weights and ev-weight of an unopened part after its vertex i is taken (L20)."""
    a = part.weights
    if part.cyclic and len(a) > 2:
        return tes_slice_weights(a[i + 1 :] + a[:i]), 0
    weights: list = []
    x = 0
    for side in (a[:i][::-1], a[i + 1 :]):
        if side:
            d = st_decomposition(side)
            weights.extend(s.weight for s in d.slices)
            x += d.x
    return weights, x


def openings(part: Unopened, vertices: Iterable[int] | None = None) -> Iterator[Opening]:
    """The openings at ``vertices`` (default: one per plateau), computed one at a time."""
    if vertices is None:
        vertices = [b % len(part.weights) for b, _ in plateau_runs(part.weights, part.cyclic)]
    for i in vertices:
        slices, x = after_opening(part, i)
        yield Opening(part.weights[i], cancel_pairs(slices), x)


# ---- the last unopened part: every suffix of the list at once ------------------------------
def opening_outcomes(n_desc: Sequence, opening: Opening) -> list:
    """out[k] = weight - val(<N[k:] + slices> + ev(x)) for k = 0..m, in O(m + |slices|).

    Merge N (decreasing, ties: N first) with T = slices. An entry n_r (r >= k) stands at rank
    (r - k) + c_r, c_r = #{t > n_r}; an entry t_s at rank s + max(0, D_s - k), D_s =
    #{n >= t_s}. So the alternating sum is (-1)^k (E_k + F_k) + G_k with E_k = sum_{r>=k}
    (-1)^(r + c_r) n_r, F_k = sum_{D_s >= k} (-1)^(s + D_s) t_s, G_k = sum_{D_s < k} (-1)^s t_s.
    """
    m = len(n_desc)
    ascending = list(reversed(n_desc))
    count = [0] * (m + 1)
    high = [0] * (m + 1)  # the F terms by D
    low = [0] * (m + 1)  # the G terms by D
    for s, t in enumerate(opening.slices):
        d = m - bisect_left(ascending, t)
        count[d] += 1
        high[d] += t if (s + d) % 2 == 0 else -t
        low[d] += t if s % 2 == 0 else -t
    e_suffix = [0] * (m + 1)
    c = 0
    signed = [0] * m
    for r in range(m):
        c += count[r]
        signed[r] = n_desc[r] if (r + c) % 2 == 0 else -n_desc[r]
    for r in range(m - 1, -1, -1):
        e_suffix[r] = e_suffix[r + 1] + signed[r]
    f = high[m]
    f_suffix = [0] * (m + 1)
    f_suffix[m] = f
    for k in range(m - 1, -1, -1):
        f += high[k]
        f_suffix[k] = f
    q = len(opening.slices)
    out = []
    g = 0
    for k in range(m + 1):
        if k:
            g += low[k - 1]
        ef = e_suffix[k] + f_suffix[k]
        alt = (ef if k % 2 == 0 else -ef) + g
        ev = opening.x if (m - k + q) % 2 else -opening.x
        out.append(opening.weight - alt - ev)
    return out


def _numpy_best(n_desc: Sequence, chunk: list[Opening], best):
    """max over the chunk's openings of opening_outcomes, for every k, as int64 matrices."""
    np = numpy_or_none()
    m = len(n_desc)
    nd = np.asarray(n_desc, dtype=np.int64).reshape(m)
    ascending = nd[::-1]
    sizes = np.fromiter((len(o.slices) for o in chunk), dtype=np.int64, count=len(chunk))
    p = len(chunk)
    total = int(sizes.sum())
    t = np.fromiter((w for o in chunk for w in o.slices), dtype=np.int64, count=total)
    group = np.repeat(np.arange(p, dtype=np.int64), sizes)
    starts = np.cumsum(sizes) - sizes
    s = np.arange(total, dtype=np.int64) - np.repeat(starts, sizes)
    d = m - np.searchsorted(ascending, t, side="left")
    cell = group * (m + 1) + d
    count = np.bincount(cell, minlength=p * (m + 1)).reshape(p, m + 1)
    high = np.zeros(p * (m + 1), dtype=np.int64)
    np.add.at(high, cell, np.where((s + d) & 1, -t, t))
    low = np.zeros(p * (m + 1), dtype=np.int64)
    np.add.at(low, cell, np.where(s & 1, -t, t))
    high = high.reshape(p, m + 1)
    low = low.reshape(p, m + 1)
    e_suffix = np.zeros((p, m + 1), dtype=np.int64)
    if m:
        c = np.cumsum(count[:, :m], axis=1)
        r = np.arange(m, dtype=np.int64)
        signed = np.where((r + c) & 1, -nd, nd)
        e_suffix[:, :m] = np.cumsum(signed[:, ::-1], axis=1)[:, ::-1]
    f_suffix = np.cumsum(high[:, ::-1], axis=1)[:, ::-1]
    g = np.zeros((p, m + 1), dtype=np.int64)
    g[:, 1:] = np.cumsum(low[:, :m], axis=1)
    k = np.arange(m + 1, dtype=np.int64)
    alt = np.where(k & 1, -1, 1) * (e_suffix + f_suffix) + g
    x = np.fromiter((o.x for o in chunk), dtype=np.int64, count=p)[:, None]
    ev = np.where(((m - k)[None, :] + sizes[:, None]) & 1, x, -x)
    weight = np.fromiter((o.weight for o in chunk), dtype=np.int64, count=p)[:, None]
    out = (weight - alt - ev).max(axis=0)
    return out if best is None else np.maximum(best, out)


def last_part_values(n_desc: Sequence, all_openings: Iterable[Opening], use_numpy: bool) -> list:
    """V_k = val(<N[k:]> + P) for k = 0..m, P the last unopened part, given its openings."""
    m = len(n_desc)
    if use_numpy and numpy_or_none() is not None:
        best = None
        chunk: list[Opening] = []
        cells = 0
        for o in all_openings:
            chunk.append(o)
            cells += m + 1 + len(o.slices)
            if cells >= CHUNK:
                best = _numpy_best(n_desc, chunk, best)
                chunk, cells = [], 0
        if chunk:
            best = _numpy_best(n_desc, chunk, best)
        opened = [int(v) for v in best]
    else:
        opened = None
        for o in all_openings:
            outs = opening_outcomes(n_desc, o)
            opened = outs if opened is None else list(map(max, opened, outs))
    values = [0] * (m + 1)
    values[m] = opened[m]
    for k in range(m - 1, -1, -1):
        values[k] = max(n_desc[k] - values[k + 1], opened[k])
    return values


class SumValuer:
    """val(<N> + ev(x) + U) for integer weights, memoised on (N, U); ``nodes`` counts the
    (list, unopened parts) states whose DP ran, charged to the search ``budget`` if any
    (``SolveContext.budget``: --max-nodes and --timeout)."""

    def __init__(self, use_numpy: bool = True, budget: Any = None) -> None:
        self.use_numpy = use_numpy
        self.budget = budget
        self.memo: dict[tuple, int] = {}
        self.cached: dict[Unopened, list[Opening]] = {}
        self.cached_size = 0
        self.nodes = 0
        self.hits = 0

    def openings(self, part: Unopened) -> Iterable[Opening]:
        """The part's openings: kept after the first pass while they fit ``CACHE_LIMIT``,
        else computed again on each pass (never more than one at a time)."""
        found = self.cached.get(part)
        return found if found is not None else self._keeping(part)

    def _keeping(self, part: Unopened) -> Iterator[Opening]:
        kept: list[Opening] | None = []
        size = 0
        for o in openings(part):
            if kept is not None:
                size += len(o.slices) + 1
                if self.cached_size + size > CACHE_LIMIT:
                    kept = None
                else:
                    kept.append(o)
            yield o
        if kept is not None:
            self.cached[part] = kept
            self.cached_size += size

    def value(self, n_desc: tuple, x: int, unopened: tuple[Unopened, ...]) -> int:
        """(1.3): the ev part counts x less for an even rest, x more for an odd one."""
        core = self.core(n_desc, unopened)
        size = len(n_desc) + sum(len(u.weights) for u in unopened)
        return core + x if size % 2 else core - x

    def core(self, n_desc: tuple, unopened: tuple[Unopened, ...]) -> int:
        """val(<N> + U), N sorted decreasingly with equal pairs cancelled."""
        if not unopened:
            return list_value(n_desc)
        key = (n_desc, unopened if len(unopened) == 1 else frozenset(Counter(unopened).items()))
        found = self.memo.get(key)
        if found is not None:
            self.hits += 1
            return found
        self.nodes += 1
        if self.budget is not None:
            self.budget.check(self.nodes)
        if len(unopened) == 1:
            cells = (len(n_desc) + 1) * len(unopened[0].weights)
            use_numpy = self.use_numpy and cells >= NUMPY_FROM and _fits_int64(n_desc, unopened[0])
            result = last_part_values(n_desc, self.openings(unopened[0]), use_numpy)[0]
        else:
            result = self._several(n_desc, unopened)
        self.memo[key] = result
        return result

    def _several(self, n_desc: tuple, unopened: tuple[Unopened, ...]) -> int:
        m = len(n_desc)
        after = 0  # V_{k+1}
        for k in range(m, -1, -1):
            best = n_desc[k] - after if k < m else None
            suffix = n_desc[k:]
            for j, part in enumerate(unopened):
                rest = unopened[:j] + unopened[j + 1 :]
                for o in self.openings(part):
                    merged = cancel_pairs(suffix + o.slices)
                    out = o.weight - self.value(merged, o.x, rest)
                    best = out if best is None or out > best else best
            after = best
        return after


def _fits_int64(n_desc: Sequence, part: Unopened) -> bool:
    return sum(abs(w) for w in n_desc) + sum(abs(w) for w in part.weights) < NUMPY_SAFE
