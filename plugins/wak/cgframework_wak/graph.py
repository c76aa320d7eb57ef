"""WAK positions: a graph with counters on the vertices and optional loops.

Section 2.2 of Dailly, Gledel & Heinrich, "A generalization of Arc-Kayles" (L58-L64): a move
picks an edge whose two endpoints both carry a counter and removes one counter from each; a
loop removes exactly one counter from its vertex (L61). A vertex without counters disappears
(L62) and components are nim-summed (Observation 3, L63-L64).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import attrs


def _edges(value: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted({(min(u, v), max(u, v)) for u, v in value}))


def _loops(value: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(set(value)))


@attrs.frozen(cache_hash=True)
class WakGraph:
    """An immutable weighted graph: ``weights[v]`` counters on vertex v, simple edges
    ``(u, v)`` with u < v, and the sorted vertices carrying a loop. Build through
    :func:`make_graph`, which validates."""

    weights: tuple[int, ...]
    edges: tuple[tuple[int, int], ...] = attrs.field(converter=_edges, default=())
    loops: tuple[int, ...] = attrs.field(converter=_loops, default=())

    @property
    def n(self) -> int:
        return len(self.weights)

    def adjacency(self) -> list[list[int]]:
        adj: list[list[int]] = [[] for _ in self.weights]
        for u, v in self.edges:
            adj[u].append(v)
            adj[v].append(u)
        return adj

    def has_loop(self, v: int) -> bool:
        return v in self.loops

    def is_arc_kayles(self) -> bool:
        """No loops and every counter 1 (L13: WAK is then Arc-Kayles)."""
        return not self.loops and all(w == 1 for w in self.weights)

    def moves(self) -> Iterator[tuple[tuple[int, int], tuple[int, ...]]]:
        """(edge, weights after playing it) for every playable edge and loop (L60-L61)."""
        w = self.weights
        for v in self.loops:
            if w[v] > 0:
                after = list(w)
                after[v] -= 1
                yield (v, v), tuple(after)
        for u, v in self.edges:
            if w[u] > 0 and w[v] > 0:
                after = list(w)
                after[u] -= 1
                after[v] -= 1
                yield (u, v), tuple(after)

    def with_weights(self, weights: Sequence[int]) -> WakGraph:
        return WakGraph(tuple(weights), self.edges, self.loops)

    def induced(self, vertices: Sequence[int]) -> WakGraph:
        """The subgraph on ``vertices`` (in this order), relabelled 0..k-1."""
        index = {v: i for i, v in enumerate(vertices)}
        edges = [(index[u], index[v]) for u, v in self.edges if u in index and v in index]
        loops = [index[v] for v in self.loops if v in index]
        return WakGraph(tuple(self.weights[v] for v in vertices), edges, loops)

    def live_vertices(self) -> list[int]:
        """Vertices with a counter and a playable edge: zero and dead vertices dropped (L62)."""
        w = self.weights
        alive = [w[v] > 0 for v in range(self.n)]
        live = set(v for v in self.loops if alive[v])
        for u, v in self.edges:
            if alive[u] and alive[v]:
                live.add(u)
                live.add(v)
        return sorted(live)

    def split(self) -> list[WakGraph]:
        """Connected components of the live part (Observation 3, L63-L64), each relabelled
        in increasing vertex order."""
        return [self.induced(comp) for comp in self.component_vertices()]

    def component_vertices(self) -> list[list[int]]:
        """The sorted vertex lists of the live part's connected components."""
        live = self.live_vertices()
        inside = set(live)
        adj = self.adjacency()
        seen: set[int] = set()
        parts = []
        for start in live:
            if start in seen:
                continue
            seen.add(start)
            stack = [start]
            comp = []
            while stack:
                v = stack.pop()
                comp.append(v)
                for u in adj[v]:
                    if u in inside and u not in seen:
                        seen.add(u)
                        stack.append(u)
            parts.append(sorted(comp))
        return parts

    def total(self) -> int:
        return sum(self.weights)


EMPTY = WakGraph(())


def _int(token: object, what: str) -> int:
    if isinstance(token, bool) or not isinstance(token, int):
        if isinstance(token, str) and token.strip().lstrip("-").isdigit():
            return int(token.strip())
        raise ValueError(f"{what} {token!r} is not an integer")
    return token


def make_graph(
    n: int,
    edges: Iterable[Sequence[object]] = (),
    loops: Iterable[object] = (),
    weights: Sequence[object] | None = None,
) -> WakGraph:
    """A validated WakGraph: vertices 0..n-1, counters >= 0 (default 1), no self-loop
    written as an edge (loops are listed apart), endpoints in range."""
    n = _int(n, "vertex count")
    if n < 0:
        raise ValueError(f"vertex count {n} is negative")
    if weights is None:
        ws = [1] * n
    else:
        ws = [_int(w, "counter") for w in weights]
        if len(ws) != n:
            raise ValueError(f"{len(ws)} counters given for {n} vertices")
    for v, w in enumerate(ws):
        if w < 0:
            raise ValueError(f"negative counter {w} on vertex {v}")
    pairs = []
    for edge in edges:
        if isinstance(edge, str) or len(edge) != 2:
            raise ValueError(f"edge {edge!r} is not a pair of vertices")
        u, v = (_int(x, "vertex") for x in edge)
        for x in (u, v):
            if not 0 <= x < n:
                raise ValueError(f"vertex {x} of edge {u}-{v} is not in 0..{n - 1}")
        if u == v:
            raise ValueError(f"self-loop {u}-{v} written as an edge: list vertex {u} in loops")
        pairs.append((u, v))
    loop_list = []
    for v in loops:
        x = _int(v, "loop vertex")
        if not 0 <= x < n:
            raise ValueError(f"loop vertex {x} is not in 0..{n - 1}")
        loop_list.append(x)
    return WakGraph(tuple(ws), pairs, loop_list)


def disjoint_union(graphs: Iterable[WakGraph]) -> WakGraph:
    """The graphs side by side, relabelled consecutively (Observation 3: values nim-sum)."""
    weights: list[int] = []
    edges: list[tuple[int, int]] = []
    loops: list[int] = []
    for g in graphs:
        base = len(weights)
        weights.extend(g.weights)
        edges.extend((u + base, v + base) for u, v in g.edges)
        loops.extend(v + base for v in g.loops)
    return WakGraph(tuple(weights), edges, loops)


def relabel(graph: WakGraph, perm: Sequence[int]) -> WakGraph:
    """The same graph with vertex v renamed ``perm[v]``."""
    weights = [0] * graph.n
    for v, w in enumerate(graph.weights):
        weights[perm[v]] = w
    edges = [(perm[u], perm[v]) for u, v in graph.edges]
    return WakGraph(tuple(weights), edges, [perm[v] for v in graph.loops])
