"""Grundy sequences of take-and-break games, their proven periods and observed saltus.

Periodicity theorem (Guy & Smith 1956; Winning Ways ch. 4; Siegel, CGT IV.2), in the form
proved here for a code of length t (no move removes more than t tokens) whose moves leave at
most R non-empty heaps (R = 2 for octal codes, 3 for hexadecimal ones, 1 with no split, 0
when only whole heaps are taken). Suppose G(n + p) = G(n) for every n with i <= n < N. Then
G(n + p) = G(n) for every n >= i as soon as

* R >= 2: N >= R * max(i, 1) + (R - 1) * p + t (octal: 2i + p + t, the classical bound;
  hexadecimal: 3i + 2p + t: the octal bound does not carry over, since a move that leaves
  three heaps from N + p need not leave one heap as large as p + i);
* R <= 1: N >= max(i + t, t + 1).

Proof sketch, by induction on N: a move from N + p removing j <= t tokens leaves r <= R heaps
summing to N + p - j, the largest of them h >= (N + p - t) / R >= p + max(i, 1); replacing h by
h - p (>= i, >= 1, < N: same value) gives a move of the same kind from N, and every move from N
lifts back the same way. The ``max(i, 1)`` keeps h - p non-empty: with i = 0 the classical
2i + p + t lets a split (p, p) of N + p stand for the move "leave one heap p" from N, which
the code may not allow, so i = 0 is charged as i = 1.

Checking the hypothesis needs the values G(0..L-1) with L = N + p (:func:`proof_length`).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Sequence

from cgframework.heaps.periods import (
    ITEM,
    WIDTH,
    ArithmeticPeriod,
    Period,
    Values,
    as_array,
    least_period,
)
from cgframework.heaps.periods import find_saltus as observed_saltus
from cgframework.values import mex
from cgframework_classic.heaps import OctalCode

__all__ = [
    "ArithmeticPeriod",
    "Period",
    "PeriodWatcher",
    "find_period",
    "find_saltus",
    "grundy_sequence",
    "proof_length",
    "proven_period",
]


def grundy_sequence(code: OctalCode, count: int, known: list[int] | None = None) -> list[int]:
    """G(0), ..., G(count - 1) by the mex rule over heap sizes; extends ``known`` in place."""
    seq = known if known is not None else []
    for n in range(len(seq), count):
        seen = set()
        for _, left in code.results(n):
            value = 0
            for m in left:
                value ^= seq[m]
            seen.add(value)
        seq.append(mex(seen))
    return seq


def proof_length(preperiod: int, period: int, code_length: int, heaps_left: int = 2) -> int:
    """How many values G(0..L-1) the periodicity theorem (module docstring) needs to prove
    G(n + period) = G(n) for all n >= preperiod, for moves removing at most ``code_length``
    tokens and leaving at most ``heaps_left`` heaps."""
    t, i, p = code_length, preperiod, period
    if heaps_left <= 1:
        return max(i + t, t + 1) + p
    return heaps_left * max(i, 1) + (heaps_left - 1) * p + t + p


def _latest_start(size: int, code_length: int, heaps_left: int) -> Callable[[int], int]:
    """For a period p, the largest pre-period i whose proof needs at most ``size`` values
    (:func:`proof_length`), or -1."""
    t, r = code_length, heaps_left

    def latest(p: int) -> int:
        if r <= 1:
            return size - p - t if size >= t + 1 + p else -1
        room = size - r * p - t
        return room // r if room >= r else -1

    return latest


def _search(
    values: Values, code_length: int, heaps_left: int, max_period: int | None = None
) -> Period | None:
    """:func:`find_period` on ``values``, for periods up to ``max_period`` if given."""
    size, t, r = values.size, code_length, heaps_left
    if r <= 1:
        top = size - t - 1
        block = min(t, size)  # the run [size - p - t, size - p) has t values
    else:
        top = (size - r - t) // r
        block = size - (size + r - 1) // r  # every run is >= size * (1 - 1/R) values long
    if max_period is not None:
        top = min(top, max_period)
    found = least_period(values, _latest_start(size, t, r), top, block)
    return Period(*found) if found else None


def find_period(seq: Sequence[int], code_length: int, heaps_left: int = 2) -> Period | None:
    """The least period (and least pre-period for it) that ``seq`` = G(0..) proves by the
    periodicity theorem (module docstring: moves remove at most ``code_length`` tokens and
    leave at most ``heaps_left`` heaps: 2 for octal codes, 3 for hexadecimal ones), or None
    if the computed values do not suffice. Linear time: the candidate periods are where the
    last half of the values recurs (one string search in C), each checked by ``memcmp``."""
    return _search(Values(as_array(seq).tobytes()), code_length, heaps_left)


class PeriodWatcher:
    """:func:`find_period` on a growing sequence: ``extend`` appends values, ``proven`` is
    ``find_period(all values so far, ...)``, computed when read.

    Before a period is proven a read costs one :func:`find_period` pass (linear, in C), so
    read it after chunks that grow the sequence by a fixed fraction (say 1/8), not after
    every value: the total is then linear too. Once a period p is proven, a read compares
    the new values with those p earlier (O(new values)): no shorter period can appear
    while they continue it (see ``_shorter``)."""

    def __init__(self, code_length: int, heaps_left: int = 2) -> None:
        self.code_length = code_length
        self.heaps_left = heaps_left
        self._raw = bytearray()
        self._answer: Period | None = None
        self._answer_size = -1

    @classmethod
    def for_code(cls, code: OctalCode) -> PeriodWatcher:
        """A watcher with the code's length and the most heaps its moves leave."""
        return cls(code.length, code.heaps_left)

    def __len__(self) -> int:
        return len(self._raw) // WIDTH

    def extend(self, values: Iterable[int]) -> None:
        """Append G(len), G(len + 1), ... to the watched sequence (each below 2^63)."""
        try:
            self._raw += array(ITEM, values).tobytes()
        except OverflowError:
            raise ValueError("a Grundy value of 2^63 or more cannot be watched") from None

    @property
    def proven(self) -> Period | None:
        """The least period the values so far prove, as :func:`find_period` would say."""
        size = len(self)
        if size != self._answer_size:
            previous, before = self._answer, self._answer_size
            values = Values(self._raw)
            if previous is not None and self._continues(previous.period, before, size):
                answer = self._shorter(values, previous) or previous
            else:
                answer = _search(values, self.code_length, self.heaps_left)
            self._answer, self._answer_size = answer, size
        return self._answer

    def _continues(self, p: int, before: int, size: int) -> bool:
        """Whether the values appended since ``before`` keep the period p (then its least
        pre-period is unchanged and it stays proven)."""
        with memoryview(self._raw) as view, view[before * WIDTH : size * WIDTH] as new:
            return self._raw.startswith(new, (before - p) * WIDTH)

    def _shorter(self, values: Values, proven: Period) -> Period | None:
        """A period q below p = ``proven.period`` that the values now prove, if any.

        With R >= 2 there is none: both admissible runs start before size / 2 - q, so they
        overlap on more than p + q values, where (Fine and Wilf) gcd(p, q) is a period;
        hence q was a period from p's pre-period already when p was proven, and its proof
        needed fewer values, so :func:`find_period` would have returned q then. With
        R <= 1 the overlap is not guaranteed, so the shorter periods are searched again."""
        if self.heaps_left >= 2:
            return None
        return _search(values, self.code_length, self.heaps_left, proven.period - 1)


def find_saltus(
    seq: Sequence[int], min_periods: int = 3, code: OctalCode | None = None
) -> ArithmeticPeriod | None:
    """The saltus observed over ``seq`` (:func:`cgframework.heaps.periods.find_saltus`), or
    None. Observed, not proven.

    What is known: a finite octal code d0.d1...du is never arithmetico-periodic (Horrocks &
    Nowakowski, INTEGERS 2003), so with such a ``code`` the answer is None whatever the
    values; hexadecimal codes can be (Howse & Nowakowski, TCS 2004, who prove an
    arithmetic-periodicity theorem for them; it is not implemented here, so no saltus is
    marked proven). Computed here: 0.8, 0.C, 0.3F and 0.FF show a saltus, 0.F and 0.B are
    periodic."""
    if code is not None and code.heaps_left <= 2:
        return None  # proven impossible (see above)
    return observed_saltus(seq, min_periods)


def proven_period(code: OctalCode, limit: int = 20000) -> tuple[list[int], Period | None]:
    """Compute the sequence far enough to prove its period (doubling up to ``limit``)."""
    seq: list[int] = []
    count = 64
    while True:
        grundy_sequence(code, count, seq)
        period = find_period(seq, code.length, code.heaps_left)
        if period is not None or count >= limit:
            return seq, period
        count = min(2 * count, limit)
