"""Grundy sequences of take-and-break games, their proven periods and observed saltus.

Periodicity theorem (Guy & Smith 1956; Winning Ways ch. 4; Siegel, CGT IV.2), in the form
proved here for a code of length t (no move removes more than t tokens) whose moves leave at
most R non-empty heaps (R = 2 for octal codes, 3 for hexadecimal ones, 1 with no split, 0
when only whole heaps are taken). Suppose G(n + p) = G(n) for every n with i <= n < N. Then
G(n + p) = G(n) for every n >= i as soon as

* R >= 2: N >= R * max(i, 1) + (R - 1) * p + t (octal: 2i + p + t, the classical bound;
  hexadecimal: 3i + 2p + t, as in Howse & Nowakowski 2004);
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

import attrs

from cgframework.values import mex
from cgframework_classic.heaps import OctalCode


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


def proof_length(preperiod: int, period: int, code_length: int, heaps_left: int = 2) -> int:
    """How many values G(0..L-1) the periodicity theorem (module docstring) needs to prove
    G(n + period) = G(n) for all n >= preperiod, for moves removing at most ``code_length``
    tokens and leaving at most ``heaps_left`` heaps."""
    t, i, p = code_length, preperiod, period
    if heaps_left <= 1:
        return max(i + t, t + 1) + p
    return heaps_left * max(i, 1) + (heaps_left - 1) * p + t + p


ITEM = "q"
"""Values are compared as 8-byte machine integers, so slices compare by ``memcmp``."""

FILTER_BLOCK = 64
"""Candidate periods are the shifts at which the last values (up to this many) recur."""


def _to_array(values: Iterable[int]) -> array:
    if isinstance(values, array) and values.typecode == ITEM:
        return values
    try:
        return array(ITEM, values)
    except OverflowError:  # values past 2^63: only their equality matters here
        ids: dict[int, int] = {}
        return array(ITEM, (ids.setdefault(v, len(ids)) for v in values))


def _least_period(
    raw: bytes | bytearray,
    latest_start: Callable[[int], int],
    max_period: int,
    block: int,
) -> tuple[int, int] | None:
    """The least p <= ``max_period`` (and least i for it) with values[n] == values[n + p] for
    all i <= n < size - p and i <= ``latest_start(p)`` (negative: no i allowed), over the
    8-byte values in ``raw``.

    Every admissible p leaves its last ``block`` values equal to the ``block`` values p
    earlier (callers choose ``block`` no longer than the shortest region checked), so the
    candidates are found by ``rfind`` of the last block, nearest first, and each is checked
    with one ``memcmp``; the least i is then found by bisection. Linear per candidate, in C.
    """
    w = array(ITEM).itemsize
    size = len(raw) // w
    max_period = min(max_period, size - 1)
    if max_period < 1:
        return None
    with memoryview(raw) as view:

        def periodic_from(i: int, p: int) -> bool:
            if i >= size - p:
                return True
            return raw.startswith(view[(i + p) * w : size * w], i * w)

        def settle(p: int) -> tuple[int, int] | None:
            top = latest_start(p)
            if top < 0 or not periodic_from(top, p):
                return None
            low = 0
            while low < top:  # least i in [0, top] from which p is a period
                mid = (low + top) // 2
                if periodic_from(mid, p):
                    top = mid
                else:
                    low = mid + 1
            return low, p

        block = min(block, size - 1)
        if block <= 0:
            for p in range(1, max_period + 1):
                found = settle(p)
                if found:
                    return found
            return None
        pattern = view[(size - block) * w : size * w]
        start = max(0, size - block - max_period) * w
        end = (size - 1) * w  # an occurrence starts at q <= size - block - 1 (p >= 1)
        try:
            while end - start >= block * w:
                pos = raw.rfind(pattern, start, end)
                if pos < 0:
                    return None
                end = pos + block * w - 1
                if pos % w:
                    continue  # straddles two values
                found = settle(size - block - pos // w)
                if found:
                    return found
            return None
        finally:
            pattern.release()


def _filter_block(size: int, code_length: int, heaps_left: int) -> int:
    """A block no longer than the region any admissible period must match (see
    :func:`_least_period`): at least t values when R <= 1, half the values when R >= 2."""
    if heaps_left <= 1:
        return min(FILTER_BLOCK, code_length, size // 2)
    return min(FILTER_BLOCK, size // 2)


def _latest_start(size: int, code_length: int, heaps_left: int) -> Callable[[int], int]:
    """For a period p, the largest pre-period i whose proof needs at most ``size`` values."""
    t, r = code_length, heaps_left

    def latest(p: int) -> int:
        if r <= 1:
            return size - p - t if size >= t + 1 + p else -1
        room = size - r * p - t
        if room >= r:
            return room // r
        return -1

    return latest


def _max_period(size: int, code_length: int, heaps_left: int) -> int:
    if heaps_left <= 1:
        return size - code_length - 1
    return (size - heaps_left - code_length) // heaps_left


def _find_in_bytes(
    raw: bytes | bytearray, code_length: int, heaps_left: int, max_period: int | None = None
) -> Period | None:
    size = len(raw) // array(ITEM).itemsize
    top = _max_period(size, code_length, heaps_left)
    if max_period is not None:
        top = min(top, max_period)
    found = _least_period(
        raw,
        _latest_start(size, code_length, heaps_left),
        top,
        _filter_block(size, code_length, heaps_left),
    )
    return Period(*found) if found else None


def find_period(seq: Sequence[int], code_length: int, heaps_left: int = 2) -> Period | None:
    """The least period (and least pre-period for it) that ``seq`` = G(0..) proves by the
    periodicity theorem (module docstring: moves remove at most ``code_length`` tokens and
    leave at most ``heaps_left`` heaps: 2 for octal codes, 3 for hexadecimal ones), or None
    if the computed values do not suffice. Linear-time checks in C per candidate period
    (candidates: where the last values recur), so 10^7 values take well under a second
    for periodic sequences."""
    raw = _to_array(seq).tobytes()
    return _find_in_bytes(raw, code_length, heaps_left)


class PeriodWatcher:
    """:func:`find_period` on a growing sequence: ``extend`` appends values, ``proven`` is
    ``find_period(all values so far, ...)``, computed when read.

    Before a period is proven a read costs one :func:`find_period` pass (C-speed scans of the
    values), so read it after chunks that grow the sequence geometrically (or by at least a
    fixed fraction), not after every value. Once a period p is proven, a read checks only the
    new values against p and the few shorter candidate periods (O(new values + p) in C)."""

    def __init__(self, code_length: int, heaps_left: int = 2) -> None:
        self.code_length = code_length
        self.heaps_left = heaps_left
        self._raw = bytearray()
        self._width = array(ITEM).itemsize
        self._answer: Period | None = None
        self._answer_size = -1

    def __len__(self) -> int:
        return len(self._raw) // self._width

    def extend(self, values: Iterable[int]) -> None:
        """Append G(len), G(len + 1), ... to the watched sequence."""
        self._raw += _to_array(values).tobytes()

    @property
    def proven(self) -> Period | None:
        """The least period the values so far prove, as :func:`find_period` would say."""
        size = len(self)
        if size == self._answer_size:
            return self._answer
        previous, before = self._answer, self._answer_size
        answer = None
        if previous is not None and self._continues(previous, before, size):
            shorter = _find_in_bytes(
                self._raw, self.code_length, self.heaps_left, previous.period - 1
            )
            answer = shorter or previous
        else:
            answer = _find_in_bytes(self._raw, self.code_length, self.heaps_left)
        self._answer, self._answer_size = answer, size
        return answer

    def _continues(self, period: Period, before: int, size: int) -> bool:
        """Whether the values appended since ``before`` keep ``period`` (then its least
        pre-period is unchanged and it stays proven)."""
        w, p = self._width, period.period
        start = before - p
        with memoryview(self._raw) as view:
            return self._raw.startswith(view[before * w : size * w], start * w)


def find_saltus(
    seq: Sequence[int], min_periods: int = 3, code: OctalCode | None = None
) -> ArithmeticPeriod | None:
    """The least p (and least pre-period i for it) with G(n + p) = G(n) + s, s > 0, for every
    computed n >= i (arithmetic periodicity), or None. Observed, not proven: the pattern must
    cover the second half of the values and at least ``min_periods`` periods.

    What is known: a finite octal code 0.d1...du is never arithmetico-periodic (Horrocks &
    Nowakowski 2003), nor is a finite subtraction game (its values are bounded); hexadecimal
    codes can be (Howse & Nowakowski 2004, e.g. 0.F, 0.B...), as can octal codes with a
    non-zero d0 (Winning Ways ch. 4, e.g. 4.7). ``code`` is only used to say so: a finite
    octal code with d0 = 0 never gets an observed saltus (None)."""
    values = list(seq) if not isinstance(seq, array) else seq
    size = len(values)
    if size < 3:
        return None
    if code is not None and code.digits[0] == 0 and code.heaps_left <= 2:
        return None  # proven impossible (see above)
    steps = _to_array([values[n + 1] - values[n] for n in range(size - 1)])
    raw = steps.tobytes()
    count = size - 1  # differences d(n) = G(n + 1) - G(n), n < size - 1

    def latest(p: int) -> int:
        # G(n + p) - G(n) = s for i <= n < size - p  <=>  d(n) = d(n + p), i <= n < size - 1 - p
        top = min(size // 2, size - min_periods * p)
        return top if top >= 0 else -1

    block = min(FILTER_BLOCK, max(0, size // 3 - 2))  # every admissible region is longer
    found = _least_period(raw, latest, count // min_periods, block)
    if not found:
        return None
    i, p = found
    saltus = values[i + p] - values[i]
    if saltus <= 0:
        return None
    return ArithmeticPeriod(i, p, saltus, proven=False, observed_to=size - 1)


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
