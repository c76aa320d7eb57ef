"""Value-preserving reductions to a canonical graph (Definition 1-2, Proposition 1, L92-L119).

Digest section 1.4 reconstructs the lost conditions (verified there by brute force, and here by
the property tests): with N(u) the neighbours of u other than u,

* u is *useless* if u has no loop and every neighbour has one: delete u;
* u is *heavy* if u has no loop and w(u) >= sum of w(v) over N(u) (the SUM condition): delete
  u and put a loop on each neighbour;
* u, v are *false twins* if N(u) = N(v) (so they are not adjacent) and loop(u) = loop(v):
  merge them into one vertex of weight w(u) + w(v).

Proposition 1 (L118-L119) is an equality of Grundy values, so every rewrite is safe inside
sums. It holds only for the paper's loop convention (a loop removes one counter, L61).
"""

from __future__ import annotations

from cgframework_wak.graph import WakGraph


class _Work:
    """Mutable copy of a graph for in-place reduction."""

    def __init__(self, graph: WakGraph) -> None:
        self.w = list(graph.weights)
        self.loop = [False] * graph.n
        for v in graph.loops:
            self.loop[v] = True
        self.adj = [set(a) for a in graph.adjacency()]
        self.alive = [True] * graph.n

    def remove(self, u: int) -> set[int]:
        self.alive[u] = False
        nbrs = self.adj[u]
        for v in nbrs:
            self.adj[v].discard(u)
        self.adj[u] = set()
        return nbrs

    def graph(self) -> WakGraph:
        keep = [v for v, a in enumerate(self.alive) if a]
        index = {v: i for i, v in enumerate(keep)}
        edges = [(index[u], index[v]) for u in keep for v in self.adj[u] if u < v]
        loops = [index[v] for v in keep if self.loop[v]]
        return WakGraph(tuple(self.w[v] for v in keep), edges, loops)

    def dead(self, u: int) -> bool:
        return self.w[u] == 0 or (not self.loop[u] and not self.adj[u])

    def useless(self, u: int) -> bool:
        return not self.loop[u] and all(self.loop[v] for v in self.adj[u])

    def heavy(self, u: int) -> bool:
        return not self.loop[u] and self.w[u] >= sum(self.w[v] for v in self.adj[u])


def _drop_dead(work: _Work) -> list[int]:
    """Drop zero-weight vertices, then loopless vertices without neighbours (L62)."""
    for u, alive in enumerate(work.alive):
        if alive and work.w[u] == 0:
            work.remove(u)
    return [u for u, alive in enumerate(work.alive) if alive]


def reduce_graph(graph: WakGraph, rules: str = "uht") -> WakGraph:
    """Apply the chosen rules (u: useless, h: heavy, t: false twins) to a fixpoint; zero and
    dead vertices are dropped too. The result need not be unique, its value is (L118)."""
    work = _Work(graph)
    queue = _drop_dead(work)
    while True:
        while queue:
            u = queue.pop()
            if not work.alive[u]:
                continue
            if work.dead(u):
                queue.extend(work.remove(u))
            elif "u" in rules and work.useless(u):
                queue.extend(work.remove(u))
            elif "h" in rules and work.heavy(u):
                nbrs = work.remove(u)
                for v in nbrs:
                    work.loop[v] = True
                    queue.append(v)
                    queue.extend(work.adj[v])
        if "t" not in rules:
            break
        queue = _merge_twins(work)
        if not queue:
            break
    return work.graph()


def _merge_twins(work: _Work) -> list[int]:
    groups: dict[tuple[frozenset[int], bool], list[int]] = {}
    for u, alive in enumerate(work.alive):
        if alive:
            groups.setdefault((frozenset(work.adj[u]), work.loop[u]), []).append(u)
    touched: list[int] = []
    for (nbrs, _), members in groups.items():
        if len(members) < 2:
            continue
        keep = members[0]
        for other in members[1:]:
            work.w[keep] += work.w[other]
            work.remove(other)
        touched.append(keep)
        touched.extend(nbrs)
        for v in nbrs:
            touched.extend(work.adj[v])
    return touched


def reduce_once(graph: WakGraph, rule: str) -> WakGraph | None:
    """One step of a single rule (u, h or t) at its first applicable vertex, or None: for the
    property tests of Proposition 1, one rewrite at a time."""
    work = _Work(graph)
    n = graph.n
    for u in range(n):
        if work.w[u] == 0:
            continue
        if rule == "u" and work.useless(u):
            work.remove(u)
            return work.graph()
        if rule == "h" and work.heavy(u):
            for v in work.remove(u):
                work.loop[v] = True
            return work.graph()
        if rule == "t":
            for v in range(u + 1, n):
                if (
                    work.w[v] > 0
                    and v not in work.adj[u]
                    and work.adj[u] == work.adj[v]
                    and work.loop[u] == work.loop[v]
                ):
                    work.w[u] += work.w[v]
                    work.remove(v)
                    return work.graph()
    return None


def is_canonical(graph: WakGraph) -> bool:
    """No useless vertex, no heavy vertex, no false twins (L117)."""
    return all(reduce_once(graph, rule) is None for rule in "uht")


def simplify(ruleset: object, position: WakGraph) -> WakGraph:
    """The registered simplification: reduce to a canonical graph (Proposition 1)."""
    return reduce_graph(position)
