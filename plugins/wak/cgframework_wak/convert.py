"""WAK to Arc-Kayles (Corollary 2 of Section 4, L161-L166; digest 2.3).

Every vertex v becomes w(v) copies with counter 1 and v's neighbours (an independent set of
false twins), and a loop at u becomes a new vertex of weight w(u) joined to u (heavy), blown
up the same way. Proposition 1 undoes both steps, so the Arc-Kayles value equals the WAK
value. The size is the total of the counters plus the counters of looped vertices:
exponential in the bits of the counters (L166).
"""

from __future__ import annotations

from cgframework_wak.graph import WakGraph


def arc_kayles_size(graph: WakGraph) -> int:
    return graph.total() + sum(graph.weights[v] for v in graph.loops)


def to_arc_kayles(graph: WakGraph) -> WakGraph:
    """The Arc-Kayles graph of Corollary 2 (its vertices: copies of v, then of the loops)."""
    copies: list[list[int]] = []
    count = 0
    for w in graph.weights:
        copies.append(list(range(count, count + w)))
        count += w
    edges = [(a, b) for u, v in graph.edges for a in copies[u] for b in copies[v]]
    for u in graph.loops:
        hanging = list(range(count, count + graph.weights[u]))  # h_u, weight w(u) (digest 2.3)
        count += len(hanging)
        edges.extend((a, b) for a in copies[u] for b in hanging)
    return WakGraph((1,) * count, edges, ())
