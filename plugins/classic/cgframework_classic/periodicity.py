"""Grundy sequences of octal games and their proven periods.

Octal periodicity theorem (Guy & Smith 1956; Winning Ways ch. 4; Siegel CGT IV.2): for an
octal game whose code has length t (no move removes more than t tokens), if
G(n + p) = G(n) for all n with i <= n < 2i + p + t, then G(n + p) = G(n) for every n >= i.
"""

from __future__ import annotations

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


def find_period(seq: list[int], code_length: int) -> Period | None:
    """The least period (and least pre-period for it) that ``seq`` proves by the octal
    periodicity theorem, or None if the computed values do not suffice."""
    size = len(seq)
    for p in range(1, size // 2 + 1):
        i = size - p  # least i with seq[n] == seq[n + p] for every n in [i, size - p)
        while i > 0 and seq[i - 1] == seq[i - 1 + p]:
            i -= 1
        if 2 * i + 2 * p + code_length <= size:
            return Period(i, p)
    return None


def proven_period(code: OctalCode, limit: int = 20000) -> tuple[list[int], Period | None]:
    """Compute the sequence far enough to prove its period (doubling up to ``limit``)."""
    seq: list[int] = []
    count = 64
    while True:
        grundy_sequence(code, count, seq)
        period = find_period(seq, code.length)
        if period is not None or count >= limit:
            return seq, period
        count = min(2 * count, limit)
