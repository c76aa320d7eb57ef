"""Periods and saltus of a computed sequence G(0), ..., G(N - 1), as *observed* over it.

A period found here holds for the values computed, not beyond: no theorem is applied. A
plugin that has one for its rules (the classic plugin: the periodicity theorem of
take-and-break codes, Guy & Smith 1956) proves periods through a heap engine's
``period_watcher`` (:class:`cgframework.extensions.KnownHeapRule`), built on
:func:`least_period` and :class:`Values` here.

Linear time: values are compared as 8-byte machine integers, so two runs of them compare
by ``memcmp`` and the candidate periods are where the sequence's last stretch recurs (one
string search in C), as CGSuite's ``CheckPeriodicity`` would be asked, for 10^7 values.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from operator import sub

import attrs

ITEM = "q"
"""Values are compared as 8-byte machine integers, so slices compare by ``memcmp``."""

WIDTH = array(ITEM).itemsize

MIN_PERIODS = 3
"""An observed pattern covers at least this many periods, and the second half of the values."""


@attrs.frozen
class Period:
    """G(n + period) = G(n) for all n >= preperiod (the first periodic heap)."""

    preperiod: int
    period: int

    @property
    def last_exception(self) -> int | None:
        """The last heap whose value differs from the periodic pattern, if any."""
        return self.preperiod - 1 if self.preperiod > 0 else None


@attrs.frozen
class ObservedPeriod:
    """G(n + period) = G(n) for preperiod <= n <= observed_to - period: seen over the values
    computed (G(0..observed_to)), not proved for every heap."""

    preperiod: int
    period: int
    observed_to: int

    @property
    def last_exception(self) -> int | None:
        return self.preperiod - 1 if self.preperiod > 0 else None


@attrs.frozen
class ArithmeticPeriod:
    """G(n + period) = G(n) + saltus for all n >= preperiod, saltus > 0 (arithmetic
    periodicity; CGSuite's "saltus"). ``proven`` is False when it is only observed over the
    computed values (``observed_to``: the last heap checked), not proved for every heap."""

    preperiod: int
    period: int
    saltus: int
    proven: bool = False
    observed_to: int = 0

    @property
    def last_exception(self) -> int | None:
        """The last heap outside the arithmetico-periodic pattern, if any."""
        return self.preperiod - 1 if self.preperiod > 0 else None


def as_array(values: Sequence[int]) -> array:
    """The values as 8-byte integers; values past 2^63 (never met as Grundy values) are
    renumbered, which keeps equality, all that the period search compares."""
    if isinstance(values, array) and values.typecode == ITEM:
        return values
    try:
        return array(ITEM, values)
    except OverflowError:
        ids: dict[int, int] = {}
        return array(ITEM, (ids.setdefault(v, len(ids)) for v in values))


class Values:
    """A sequence of 8-byte values in a bytes buffer; every comparison of two runs of it is
    one ``memcmp`` (``bytes.startswith`` on a memoryview), every search one ``bytes.find``."""

    def __init__(self, raw: bytes | bytearray) -> None:
        self.raw = raw
        self.size = len(raw) // WIDTH
        self._reversed: bytes | None = None

    @classmethod
    def of(cls, values: Sequence[int]) -> Values:
        return cls(as_array(values).tobytes())

    def periodic_from(self, i: int, p: int) -> bool:
        """values[n] == values[n + p] for every i <= n < size - p."""
        if i >= self.size - p:
            return True
        with memoryview(self.raw) as view, view[(i + p) * WIDTH :] as later:
            return self.raw.startswith(later, i * WIDTH)

    def least_start(self, p: int, top: int) -> int | None:
        """The least i <= ``top`` from which p is a period, None if not even from ``top``
        (bisection: periodic from i implies periodic from i + 1)."""
        if top < 0 or not self.periodic_from(top, p):
            return None
        low = 0
        while low < top:
            mid = (low + top) // 2
            if self.periodic_from(mid, p):
                top = mid
            else:
                low = mid + 1
        return low

    def recurring_tail(self, block: int, max_period: int) -> Iterator[int]:
        """Every p in 1..``max_period``, ascending, such that the last ``block`` values equal
        the ``block`` values p earlier (all p if ``block`` is 0). The search runs forward
        over the reversed values, so it is one linear pass (two-way string search) in C."""
        if block <= 0:
            yield from range(1, max_period + 1)
            return
        if self._reversed is None:
            backwards = array(ITEM)
            backwards.frombytes(self.raw)
            backwards.reverse()
            self._reversed = backwards.tobytes()
        rev = self._reversed
        end = (max_period + block) * WIDTH
        with memoryview(rev) as view, view[: block * WIDTH] as needle:
            start = WIDTH
            while True:
                pos = rev.find(needle, start, end)
                if pos < 0:
                    return
                start = pos + 1
                if pos % WIDTH == 0:
                    yield pos // WIDTH


def least_period(
    values: Values,
    latest_start: Callable[[int], int],
    max_period: int,
    block: int,
) -> tuple[int, int] | None:
    """The least p <= ``max_period`` (and least i for it) with values[n] == values[n + p] for
    all i <= n < size - p and i <= ``latest_start(p)`` (negative: no i allowed). ``block``
    is at most the length of the shortest run [latest_start(p), size - p) any admissible p
    must match, so its last ``block`` values recur p earlier: those p are the candidates."""
    max_period = min(max_period, values.size - 1)
    if max_period < 1:
        return None
    for p in values.recurring_tail(min(block, values.size - 1), max_period):
        i = values.least_start(p, latest_start(p))
        if i is not None:
            return i, p
    return None


def _observed_latest(size: int, min_periods: int) -> Callable[[int], int]:
    """For a period p, the latest start an observed pattern may have: it covers the second
    half of ``size`` values and at least ``min_periods`` periods (-1: p is too long)."""

    def latest(p: int) -> int:
        top = min(size // 2, size - min_periods * p)
        return top if top >= 0 else -1

    return latest


def observed_period(values: Sequence[int], min_periods: int = MIN_PERIODS) -> ObservedPeriod | None:
    """The least p (and least pre-period i for it) with G(n + p) = G(n) for every computed
    n >= i, the pattern covering the second half of the values and at least ``min_periods``
    periods; or None. Observed over the values, not proved."""
    size = len(values)
    if size < 2:
        return None
    # every run [latest(p), size - p) has more than size / 3 - 1 values
    block = max(0, size // 3 - 2)
    latest = _observed_latest(size, min_periods)
    found = least_period(Values.of(values), latest, size // min_periods, block)
    return None if found is None else ObservedPeriod(found[0], found[1], size - 1)


def find_saltus(values: Sequence[int], min_periods: int = MIN_PERIODS) -> ArithmeticPeriod | None:
    """The least p (and least pre-period i for it) with G(n + p) = G(n) + s, s > 0, for every
    computed n >= i (arithmetic periodicity), or None. Observed, not proven: the pattern must
    cover the second half of the values and at least ``min_periods`` periods."""
    if not isinstance(values, array):
        values = list(values)
    size = len(values)
    if size < 3:
        return None
    try:  # d(n) = G(n + 1) - G(n)
        steps = array(ITEM, map(sub, islice(values, 1, None), values))
    except OverflowError:
        steps = as_array([values[n + 1] - values[n] for n in range(size - 1)])
    # G(n + p) - G(n) = s for i <= n < size - p  <=>  d(n) = d(n + p), i <= n < size - 1 - p
    block = max(0, size // 3 - 2)  # every run [latest(p), size - 1 - p) is longer
    latest = _observed_latest(size, min_periods)
    found = least_period(Values(steps.tobytes()), latest, size // min_periods, block)
    if not found:
        return None
    i, p = found
    saltus = values[i + p] - values[i]
    if saltus <= 0:
        return None
    return ArithmeticPeriod(i, p, saltus, proven=False, observed_to=size - 1)
