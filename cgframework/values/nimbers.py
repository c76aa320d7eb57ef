"""Nimber arithmetic on Grundy values: the mex rule and the nim-sum (Winning Ways ch. 3-4)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from operator import xor


def mex(values: Iterable[int]) -> int:
    """The least non-negative integer not among ``values``."""
    seen = set(values)
    n = 0
    while n in seen:
        n += 1
    return n


def nim_sum(*values: int) -> int:
    """Bitwise exclusive or: the Grundy value of a sum of impartial games."""
    return reduce(xor, values, 0)
