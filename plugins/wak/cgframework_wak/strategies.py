"""Hypothesis strategies for the plugin's property tests (needs the ``test`` extra)."""

from __future__ import annotations

from hypothesis import strategies as st

from cgframework_wak.graph import WakGraph


@st.composite
def graphs(
    draw, min_n: int = 1, max_n: int = 6, max_w: int = 3, loops: bool = True, min_w: int = 0
) -> WakGraph:
    """A random weighted graph with random loops."""
    n = draw(st.integers(min_n, max_n))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    looped = draw(st.lists(st.integers(0, n - 1), unique=True)) if loops and n else []
    weights = draw(st.lists(st.integers(min_w, max_w), min_size=n, max_size=n))
    return WakGraph(tuple(weights), edges, looped)


@st.composite
def trees(draw, min_n: int = 1, max_n: int = 9, max_w: int = 5, depth2: bool = False) -> WakGraph:
    """A random loopless tree (each vertex hangs from an earlier one); with ``depth2`` every
    vertex is within distance 2 of vertex 0."""
    n = draw(st.integers(min_n, max_n))
    parent = [-1]
    depth = [0]
    for v in range(1, n):
        choices = [u for u in range(v) if not depth2 or depth[u] < 2]
        p = draw(st.sampled_from(choices))
        parent.append(p)
        depth.append(depth[p] + 1)
    weights = draw(st.lists(st.integers(1, max_w), min_size=n, max_size=n))
    return WakGraph(tuple(weights), [(parent[v], v) for v in range(1, n)], ())


@st.composite
def relabellings(draw, graph: WakGraph) -> list[int]:
    return draw(st.permutations(list(range(graph.n))))
