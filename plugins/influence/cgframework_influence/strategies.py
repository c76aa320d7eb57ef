"""Hypothesis strategies for tests: random small coloured digraphs."""

from __future__ import annotations

from hypothesis import strategies as st

from cgframework_influence.graph import InfluenceGraph


@st.composite
def digraphs(draw, max_n: int = 7, acyclic: bool | None = None) -> InfluenceGraph:
    """A random coloured digraph; acyclic ones only point from lower to higher vertices."""
    n = draw(st.integers(1, max_n))
    colors = "".join(draw(st.lists(st.sampled_from("LR"), min_size=n, max_size=n)))
    dag = draw(st.booleans()) if acyclic is None else acyclic
    pairs = [(u, v) for u in range(n) for v in range(n) if u != v and (not dag or u < v)]
    arcs = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=2 * n)) if pairs else []
    return InfluenceGraph(colors, tuple(sorted(arcs)))


def one_line(g: InfluenceGraph) -> str:
    return g.colors + ":" + ",".join(f"{u}>{v}" for u, v in g.arcs)
