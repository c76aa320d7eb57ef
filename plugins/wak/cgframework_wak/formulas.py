"""Closed forms for connected WAK graphs (each cites the paper or the digest's reconstruction).

Every function takes one connected live component (as :meth:`WakGraph.split` gives) and
returns its Grundy value, or ``None`` when its shape does not match.
"""

from __future__ import annotations

from functools import cache

from cgframework_wak.certificate import tree_centres
from cgframework_wak.graph import WakGraph


def all_even(graph: WakGraph) -> int | None:
    """0 when every counter is even: the second player repeats the first player's edge or loop
    (digest P15, beyond the paper; a copycat proof, loops included)."""
    return 0 if all(w % 2 == 0 for w in graph.weights) else None


def lemma1(a: int) -> int:
    """Lemma 1 (L170-L173): a looped isolated vertex with a counters has value a mod 2."""
    return a % 2


def lemma2(a: int, b: int) -> int:
    """Lemma 2 (L174-L184, table L177-L180, digest reconstruction): two adjacent looped
    vertices a, b have value ((a + b) mod 2) + 2 (min(a, b) mod 2)."""
    return (a + b) % 2 + 2 * (min(a, b) % 2)


def star_value(centre: int, leaves_total: int) -> int:
    """Star (L159): the leaves are false twins, merged into one leaf, then the heavier end is
    heavy: value min(c, sum of leaves) mod 2 (K_2 included)."""
    return min(centre, leaves_total) % 2


def isolated_loop(graph: WakGraph) -> int | None:
    if graph.n == 1 and graph.loops == (0,):
        return lemma1(graph.weights[0])
    return None


def looped_edge(graph: WakGraph) -> int | None:
    if graph.n == 2 and graph.loops == (0, 1) and graph.edges == ((0, 1),):
        return lemma2(*graph.weights)
    return None


def star_centre(graph: WakGraph) -> int | None:
    """The centre of a loopless star with at least one edge (either end of K_2), else None."""
    if graph.loops or graph.n < 2 or len(graph.edges) != graph.n - 1:
        return None
    degree = [0] * graph.n
    for u, v in graph.edges:
        degree[u] += 1
        degree[v] += 1
    centre = max(range(graph.n), key=degree.__getitem__)
    return centre if degree[centre] == graph.n - 1 else None


def star(graph: WakGraph) -> int | None:
    c = star_centre(graph)
    if c is None:
        return None
    return star_value(graph.weights[c], graph.total() - graph.weights[c])


def _ak_degrees(graph: WakGraph, edges: int) -> list[int] | None:
    """The vertex degrees of a loopless graph with every counter 1 and ``edges`` edges
    (an Arc-Kayles component of that size), else None."""
    if graph.loops or len(graph.edges) != edges or any(w != 1 for w in graph.weights):
        return None
    degree = [0] * graph.n
    for u, v in graph.edges:
        degree[u] += 1
        degree[v] += 1
    return degree


def is_ak_path(graph: WakGraph) -> bool:
    """A loopless path with every counter 1 (Arc-Kayles on P_n, L12)."""
    degree = _ak_degrees(graph, graph.n - 1) if graph.n >= 2 else None
    return degree is not None and max(degree) <= 2


DAWSON_PREPERIOD, DAWSON_PERIOD = 53, 34
"""0.07 (Dawson's Kayles) has period 34 from heap 53 on (its last exceptional value is at
heap 52: Guy & Smith 1956; Winning Ways ch. 4); the octal periodicity theorem's check up to
2*53 + 34 + 2 against the classic plugin's octal solver is a test."""


@cache
def _octal_007_table() -> tuple[int, ...]:
    """G(P_n) for n < 53 + 34 by the recursion: an edge leaves paths of a and n - 2 - a."""
    table: list[int] = []
    for n in range(DAWSON_PREPERIOD + DAWSON_PERIOD):
        seen = {table[a] ^ table[n - 2 - a] for a in range(n - 1)}
        table.append(next(g for g in range(len(seen) + 1) if g not in seen))
    return tuple(table)


def octal_007(n: int) -> int:
    """Arc-Kayles on the path with n vertices is the octal game 0.07 on a heap of n (L12,
    Guy & Smith 1956); large heaps are reduced by the period (tested against the classic
    plugin's ``octal`` ruleset)."""
    if n >= DAWSON_PREPERIOD + DAWSON_PERIOD:
        n = DAWSON_PREPERIOD + (n - DAWSON_PREPERIOD) % DAWSON_PERIOD
    return _octal_007_table()[n]


def ak_path(graph: WakGraph) -> int | None:
    return octal_007(graph.n) if is_ak_path(graph) else None


def is_ak_cycle(graph: WakGraph) -> bool:
    """A loopless cycle with every counter 1 (a connected component: n edges, degrees 2)."""
    degree = _ak_degrees(graph, graph.n) if graph.n >= 3 else None
    return degree is not None and all(d == 2 for d in degree)


def ak_cycle(graph: WakGraph) -> int | None:
    """Arc-Kayles on C_n: every move leaves the path on n - 2 vertices, so the value is
    mex{G(P_(n-2))}: 1 if that is 0, else 0."""
    if not is_ak_cycle(graph):
        return None
    return 0 if octal_007(graph.n - 2) else 1


def ak_path_or_cycle(graph: WakGraph) -> int | None:
    value = ak_path(graph)
    return ak_cycle(graph) if value is None else value


PROVEN_FORMS = (all_even, isolated_loop, looped_edge, star, ak_path)


def closed_form(graph: WakGraph) -> int | None:
    """The first proven closed form that matches the component, if any."""
    for form in PROVEN_FORMS:
        value = form(graph)
        if value is not None:
            return value
    return None


# Trees of depth at most 2 (Section 5, Theorem 1, L256-L262; digest section 2.4).


def depth2_root(graph: WakGraph) -> int | None:
    """A vertex of eccentricity <= 2 of a loopless tree (the tree's centre), else None."""
    n = graph.n
    if graph.loops or n == 0 or len(graph.edges) != n - 1:
        return None
    adj = graph.adjacency()
    for root in tree_centres(adj):
        dist = {root: 0}
        frontier = [root]
        while frontier:
            nxt = []
            for v in frontier:
                for u in adj[v]:
                    if u not in dist:
                        dist[u] = dist[v] + 1
                        nxt.append(u)
            frontier = nxt
        if len(dist) == n and max(dist.values()) <= 2:
            return root
    return None


def depth2_parameters(graph: WakGraph, root: int) -> tuple[int, int, int, int]:
    """(a, c, X, Y) of the path a(L) - c - X - Y that the tree reduces to (digest section 2.4):
    leaf children of a child x merge into one leaf y (false twins); if y >= w(x) that leaf is
    heavy, x gets a loop and joins a (looped twins); else Lemma 6 sums the branches."""
    w = graph.weights
    adj = graph.adjacency()
    a = x_sum = y_sum = 0
    for x in adj[root]:
        y = sum(w[z] for z in adj[x] if z != root)
        if y >= w[x]:
            a += w[x]
        else:
            x_sum += w[x]
            y_sum += y
    return a, w[root], x_sum, y_sum


def depth2_outcome_is_p(a: int, c: int, x: int, y: int) -> bool:
    """Theorem 1 (proven; its proof L259-L261 is lost, digest reconstruction from Lemma 5 and
    Lemma 6): the tree is a P-position iff this holds."""
    if x < c + y:
        return (a + x) % 2 == 0
    return (a + c + y) % 2 == 0 and min(a, c) % 2 == 0


def depth2_grundy_formula(a: int, c: int, x: int, y: int) -> int:
    """The digest's Grundy extension of Theorem 1 (beyond the paper, EMPIRICAL)."""
    if x < c + y:
        return (a + x) % 2
    return (a + c + y) % 2 + 2 * (min(a, c) % 2)


def depth2_tree(graph: WakGraph) -> int | None:
    """Empirical Grundy value of a loopless tree of depth <= 2 (its outcome is proven)."""
    root = depth2_root(graph)
    if root is None:
        return None
    return depth2_grundy_formula(*depth2_parameters(graph, root))
