"""Exact isomorphism certificates of vertex-labelled graphs (labels: counters and loop).

Two connected WAK graphs get equal certificates iff they are isomorphic as labelled graphs,
so a certificate is a sound cache and store key (digest section 6). Trees get an exact AHU
encoding rooted at their centre; other graphs a canonical labelling: BLISS through igraph when
it is installed, else a pure-Python colour refinement with individualisation and backtracking
to the lexicographically least edge list. The networkx Weisfeiler-Lehman hash is not a
certificate (digest section 6 gives two graphs with equal hash and Arc-Kayles values 1 and 3).

A certificate is a tuple of ints and strings (a stable repr for the value store), tagged
with how it was made: ``T`` (tree), ``py`` or ``bliss``; different tags never compare equal,
so mixing backends loses sharing but never soundness.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache
from types import ModuleType

from cgframework_wak.graph import WakGraph

SMALL = 0
"""Graphs up to this many vertices use the pure-Python labelling even with igraph installed
(0: BLISS is faster at every size; a larger value trades speed for keys that are the same
with and without igraph)."""


def has_igraph() -> bool:
    """Whether igraph (the optional extra) can be used: imported on the first call, which
    comes with the first graph that needs BLISS (not a tree). Not when the plugin loads:
    igraph's first graph imports numpy, whose BLAS thread pool then spun on the second core
    during every later search of the process (a Konane solve took 1.4x its wall time in
    CPU), and the imports took about 195 ms."""
    return _igraph() is not None


@cache
def _igraph() -> ModuleType | None:
    try:  # optional extra "igraph"
        import igraph
    except ImportError:  # pragma: no cover - exercised only without the extra
        return None
    return igraph


Label = tuple[int, int]


def labels(graph: WakGraph) -> list[Label]:
    loops = set(graph.loops)
    return [(w, int(v in loops)) for v, w in enumerate(graph.weights)]


def _connected(adj: list[list[int]]) -> bool:
    seen = {0}
    stack = [0]
    while stack:
        for u in adj[stack.pop()]:
            if u not in seen:
                seen.add(u)
                stack.append(u)
    return len(seen) == len(adj)


def is_tree(graph: WakGraph) -> bool:
    """A connected graph with n - 1 edges (loops are labels, not edges)."""
    return len(graph.edges) == graph.n - 1 and _connected(graph.adjacency())


def tree_certificate(graph: WakGraph) -> tuple[str, str]:
    """AHU encoding of a labelled tree, rooted at its centre (the least encoding of the two
    rootings when there are two centres). Iterative: paths of any length."""
    return _tree(graph.adjacency(), labels(graph))


def _tree(adj: list[list[int]], lab: list[Label]) -> tuple[str, str]:
    n = len(adj)
    text = [f"{w}{'L' if loop else ''}" for w, loop in lab]
    if n == 1:
        return ("T", f"({text[0]})")
    return ("T", min(_rooted(adj, text, root) for root in tree_centres(adj)))


def tree_centres(adj: list[list[int]]) -> list[int]:
    """The one or two centres of a tree, by peeling leaves layer by layer."""
    n = len(adj)
    degree = [len(a) for a in adj]
    layer = [v for v in range(n) if degree[v] <= 1]
    remaining = n
    while remaining > 2:
        remaining -= len(layer)
        nxt = []
        for v in layer:
            for u in adj[v]:
                degree[u] -= 1
                if degree[u] == 1:
                    nxt.append(u)
        layer = nxt
    return layer


def _rooted(adj: list[list[int]], lab: list[str], root: int) -> str:
    parent = {root: -1}
    order = [root]
    for v in order:
        for u in adj[v]:
            if u not in parent:
                parent[u] = v
                order.append(u)
    children: dict[int, list[str]] = {}
    enc = ""
    for v in reversed(order):
        enc = "(" + lab[v] + "".join(sorted(children.pop(v, []))) + ")"
        if parent[v] >= 0:
            children.setdefault(parent[v], []).append(enc)
    return enc


def _rank(sigs: list) -> list[int]:
    ranks = {s: i for i, s in enumerate(sorted(set(sigs)))}
    return [ranks[s] for s in sigs]


def _refine(colour: list[int], adj: list[list[int]]) -> list[int]:
    """Colour refinement to the coarsest equitable partition; colours are ranks of
    isomorphism-invariant signatures, so the result is canonical."""
    count = len(set(colour))
    n = len(adj)
    while True:
        new = _rank([(colour[v], tuple(sorted(colour[u] for u in adj[v]))) for v in range(n)])
        new_count = len(set(new))
        if new_count == count:
            return new
        colour, count = new, new_count


def py_certificate(graph: WakGraph) -> tuple:
    """Canonical form by individualisation-refinement: the least sorted edge list over all
    leaves of the search tree (twins in a cell are interchangeable, so one per twin class is
    tried). Exact; exponential only on very symmetric graphs."""
    return _py(graph.adjacency(), list(graph.edges), labels(graph))


def _py(adj: list[list[int]], edges: list[tuple[int, int]], lab: list[Label]) -> tuple:
    n = len(adj)
    nbrs = [frozenset(a) for a in adj]
    best: list[tuple] = []

    def search(colour: list[int]) -> None:
        colour = _refine(colour, adj)
        if len(set(colour)) == n:
            enc = tuple(sorted(tuple(sorted((colour[u], colour[v]))) for u, v in edges))
            if not best or enc < best[0]:
                best[:] = [enc]
            return
        cells: dict[int, list[int]] = {}
        for v, c in enumerate(colour):
            cells.setdefault(c, []).append(v)
        target = min(c for c, cell in cells.items() if len(cell) > 1)
        reps: list[int] = []
        for v in cells[target]:
            if not any(nbrs[v] - {r} == nbrs[r] - {v} for r in reps):
                reps.append(v)
        for v in reps:
            search(_rank([(c, x != v) for x, c in enumerate(colour)]))

    search(_rank(lab))
    return ("py", tuple(sorted(lab)), best[0] if best else ())


@cache
def _new_to_old() -> bool:
    """Whether igraph's canonical permutation lists, for each new position, the old vertex
    (igraph 1.0), rather than the new position of each old vertex: checked against igraph's
    own ``permute_vertices`` on fixed graphs, so either convention is handled."""
    import random

    igraph = _igraph()
    rng = random.Random(6)
    votes = set()
    for _ in range(5):
        edges = [(i, j) for i in range(7) for j in range(i + 1, 7) if rng.random() < 0.4]
        g = igraph.Graph(n=7, edges=edges)
        perm = g.canonical_permutation()
        want = sorted(tuple(sorted(e)) for e in g.permute_vertices(perm).get_edgelist())
        inverse = [0] * 7
        for new, old in enumerate(perm):
            inverse[old] = new
        as_new_to_old = sorted(tuple(sorted((inverse[u], inverse[v]))) for u, v in edges)
        as_old_to_new = sorted(tuple(sorted((perm[u], perm[v]))) for u, v in edges)
        if as_new_to_old != as_old_to_new:
            votes.add(as_new_to_old == want)
    if len(votes) != 1:  # pragma: no cover - an igraph we do not understand
        raise RuntimeError("cannot tell the convention of igraph's canonical_permutation")
    return votes.pop()


def bliss_certificate(graph: WakGraph) -> tuple:
    """Canonical form from igraph's BLISS canonical permutation, colours = label ranks."""
    return _bliss(graph.n, list(graph.edges), labels(graph))


def _bliss(n: int, edges: list[tuple[int, int]], lab: list[Label]) -> tuple:
    igraph = _igraph()
    if igraph is None:
        raise RuntimeError("igraph is not installed (pip install 'cgframework[igraph]')")
    perm = igraph.Graph(n=n, edges=edges).canonical_permutation(color=_rank(lab))
    if _new_to_old():
        new = [0] * n
        for position, old in enumerate(perm):
            new[old] = position
    else:
        new = perm
    new_lab: list[Label] = [(0, 0)] * n
    for v, label in enumerate(lab):
        new_lab[new[v]] = label
    canon = sorted((new[u], new[v]) if new[u] < new[v] else (new[v], new[u]) for u, v in edges)
    return ("bliss", tuple(new_lab), tuple(canon))


def certificate_of(
    adj: list[list[int]], edges: list[tuple[int, int]], lab: list[Label]
) -> Hashable:
    """The exact certificate of a connected labelled graph given by its parts."""
    n = len(adj)
    if n == 0:
        return ("T", "")
    if len(edges) == n - 1:  # connected with n - 1 edges: a tree
        return _tree(adj, lab)
    if n <= SMALL or not has_igraph():
        return _py(adj, edges, lab)
    return _bliss(n, edges, lab)


def certificate(graph: WakGraph) -> Hashable:
    """The exact certificate of a connected labelled graph (see the module docstring); a
    disconnected graph gets the py or bliss certificate, which handle any graph."""
    adj = graph.adjacency()
    if graph.n and not _connected(adj):
        lab = labels(graph)
        edges = list(graph.edges)
        return (
            _py(adj, edges, lab)
            if graph.n <= SMALL or not has_igraph()
            else _bliss(graph.n, edges, lab)
        )
    return certificate_of(adj, list(graph.edges), labels(graph))
