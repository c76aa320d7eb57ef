"""Periodicity in one varying counter (Section 6, L264-L298; statement lost, digest 2.5).

Fix every counter but x = w(v) and let Omega be the total of the other counters of v's
component. For a looped v the outcome is periodic with period 2 from x = 2*Omega on (digest's
reconstruction of the induction, L269-L276; a bound of Omega is wrong). Observed, not proven:
the Grundy value too. For a loopless v, x >= the sum of its neighbours' counters makes v heavy
(Proposition 1), so the value is constant from there on (proven).
"""

from __future__ import annotations

from cgframework_wak.graph import WakGraph


def omega(graph: WakGraph, v: int) -> int:
    """The total counters of the vertices other than v."""
    return graph.total() - graph.weights[v]


LARGE = 1000
"""The shift is used only past this counter: below it the exact search is cheap and proven."""


def shiftable(comp: WakGraph) -> bool:
    """Some looped vertex has x >= 2*Omega + 2 and x > LARGE (at most one can)."""
    return any(
        comp.weights[v] > LARGE and comp.weights[v] >= 2 * omega(comp, v) + 2 for v in comp.loops
    )


def shift_component(comp: WakGraph) -> WakGraph:
    """x becomes 2*Omega + (x mod 2) on the looped vertex with x >= 2*Omega + 2."""
    for v in comp.loops:
        big = 2 * omega(comp, v)
        x = comp.weights[v]
        if x >= big + 2:
            weights = list(comp.weights)
            weights[v] = big + x % 2
            return comp.with_weights(weights)
    return comp


def proven_start(graph: WakGraph, v: int) -> tuple[int, str]:
    """(x0, what): from x0 on, what is proven about the sequence of values in w(v)."""
    if graph.has_loop(v):
        return 2 * omega(graph, v), "outcome period 2 (Section 6, reconstructed)"
    nbrs = sum(graph.weights[u] for u in graph.adjacency()[v])
    return nbrs, "constant: v is heavy (Proposition 1)"


def detect_period(seq: list[int], min_repeats: int = 3) -> tuple[int, int] | None:
    """(preperiod, period): the least period, then the least preperiod, such that the tail
    from the preperiod repeats at least ``min_repeats`` full periods within ``seq``."""
    size = len(seq)
    for p in range(1, size // (min_repeats + 1) + 1):
        i = size - p
        while i > 0 and seq[i - 1] == seq[i - 1 + p]:
            i -= 1
        if size - i >= (min_repeats + 1) * p:
            return i, p
    return None
