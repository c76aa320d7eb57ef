"""Named families for sweeps (``cgf sweep``, ``cgf wak sequence --family``), and the
unbounded-Grundy construction of Section 7 (Theorem 2, L307-L332)."""

from __future__ import annotations

from cgframework import Family
from cgframework_wak.graph import EMPTY, WakGraph, disjoint_union
from cgframework_wak.parse import dump_json


def unbounded(n: int) -> tuple[WakGraph, int]:
    """(G_n, index of its root u_n). G_1 is one vertex with one counter and a loop (L311 lost,
    digest reconstruction); G_{n+1} is a new such vertex u_{n+1} joined to the root of one of
    two copies of each G_i, i <= n (L312-L319). |V(G_n)| = 3^(n-1) (L332)."""
    if n < 1:
        return EMPTY, -1
    graphs: list[tuple[WakGraph, int]] = [(WakGraph((1,), (), (0,)), 0)]
    while len(graphs) < n:
        parts = [WakGraph((1,), (), (0,))]
        joins = []
        base = 1
        for g, root in graphs:
            joins.append(base + root)  # the first copy G'_i is joined to u_{n+1}
            parts.extend([g, g])
            base += 2 * g.n
        union = disjoint_union(parts)
        graphs.append(
            (WakGraph(union.weights, union.edges + tuple((0, j) for j in joins), union.loops), 0)
        )
    return graphs[n - 1]


def unbounded_arc_kayles(n: int) -> WakGraph:
    """T_n: G_n with every weight-1 loop replaced by a pendant leaf (Corollary 1, L330;
    a looped vertex of weight 1 is a pendant leaf, digest section 2.3): 2*3^(n-1) vertices."""
    g, _ = unbounded(n)
    base = g.n
    edges = list(g.edges) + [(v, base + i) for i, v in enumerate(g.loops)]
    return WakGraph((1,) * (base + len(g.loops)), edges, ())


def _ak(kind: str):
    def generate(n: int) -> str:
        if kind == "cycle" and n < 3:
            return f"path:{n}"
        if kind == "wheel" and n < 3:
            return f"star:{n}"
        return f"{kind}:{n}"

    return generate


FAMILIES = (
    Family("path", "arc-kayles", _ak("path"), "the path P_n (octal 0.07, L12)"),
    Family("cycle", "arc-kayles", _ak("cycle"), "the cycle C_n (P_n for n < 3)"),
    Family("complete", "arc-kayles", _ak("complete"), "the complete graph K_n"),
    Family("wheel", "arc-kayles", _ak("wheel"), "the wheel: hub plus C_n"),
    Family("star", "arc-kayles", _ak("star"), "the star K_{1,n}"),
    Family("ladder", "arc-kayles", lambda n: f"grid:2x{n}" if n else "empty", "the 2 x n grid"),
    Family("grid3", "arc-kayles", lambda n: f"grid:3x{n}" if n else "empty", "the 3 x n grid"),
    Family("grid4", "arc-kayles", lambda n: f"grid:4x{n}" if n else "empty", "the 4 x n grid"),
    Family(
        "unbounded",
        "arc-kayles",
        lambda n: dump_json(unbounded_arc_kayles(n), arc_kayles=True),
        "the forests T_n of Corollary 1 (L330), 2*3^(n-1) vertices",
    ),
    Family(
        "unbounded",
        "wak",
        lambda n: dump_json(unbounded(n)[0]),
        "the graphs G_n of Theorem 2 (L307), 3^(n-1) vertices",
    ),
    Family(
        "path2",
        "wak",
        lambda n: "path:" + ",".join(["2"] * n) if n else "empty",
        "the path P_n with 2 counters per vertex (value 0, all even)",
    ),
    Family(
        "path3",
        "wak",
        lambda n: "path:" + ",".join(["3"] * n) if n else "empty",
        "the path P_n with 3 counters per vertex",
    ),
)
