"""Misère quotients of take-and-break games (``cgf classic quotient CODE``, an alias of
``cgf quotient``): the core computes them for any heap rule
(:mod:`cgframework.heaps.quotient`, Plambeck & Siegel 2008); what this module adds is the
theorem that proves a code's quotient *stable* (that of every heap size).

Stabilisation (octal codes, at most two heaps left by a move): if the images are periodic,
φ(h + p) = φ(h) for n0 ≤ h ≤ N - p, and N ≥ 2·n0 + 2p + t - 1 (t the code's length), then
every heap above N reads like the heap p, 2p, ... below it, and so do its moves (the
pairs of images a move can leave repeat with period p once the heap exceeds 2·n0 + p + t):
the verified pairs automaton is then the one of all heaps, so Q is the quotient of the
whole game and the images stay periodic. The argument is the one of the periodicity
theorems for octal games (Guy & Smith 1956) and for misère quotients (Plambeck & Siegel
2008; Siegel, "Misère games and misère quotients", Games of No Chance 5), proved here
directly on the verified automaton; without it the quotient is reported as "not proved
stable, observed up to N".
"""

from __future__ import annotations

from collections.abc import Sequence

from cgframework.heaps.quotient import (
    DEFAULT_MAX_ORDER,
    MAX_HEAP,
    MisereQuotient,
)
from cgframework.heaps.quotient import misere_quotient as rule_quotient
from cgframework_classic.heaps import OctalCode, code_rule

__all__ = ["MAX_HEAP", "MisereQuotient", "misere_quotient", "stable_images"]


def stable_images(code: OctalCode, images: Sequence[int]) -> tuple[int, int] | None:
    """(period p, preperiod n0) if the images prove the quotient stable (module docstring)."""
    if code.heaps_left > 2:
        return None
    n = len(images) - 1
    t = code.length
    for p in range(1, n + 1):
        last = 0  # the last heap h with images[h] != images[h - p]
        for h in range(n, p, -1):
            if images[h] != images[h - p]:
                last = h
                break
        n0 = max(1, last - p + 1)
        if n >= 2 * n0 + 2 * p + t - 1:
            return p, n0
    return None


def misere_quotient(
    code: OctalCode | str,
    max_heap: int,
    *,
    max_order: int = DEFAULT_MAX_ORDER,
    timeout: float | None = None,
    max_nodes: int | None = None,
    label: str | None = None,
) -> MisereQuotient:
    """The misère quotient of the heaps 1..``max_heap`` of an octal or hexadecimal code
    (:func:`cgframework.heaps.quotient.misere_quotient` on the code's rule), labelled by
    the code as written."""
    if isinstance(code, str):
        label = label or code
        code = OctalCode.parse(code)
    return rule_quotient(
        code_rule(code),
        max_heap,
        max_order=max_order,
        timeout=timeout,
        max_nodes=max_nodes,
        label=label or str(code),
    )
