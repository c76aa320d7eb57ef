"""Loopless trees of depth <= 2 in linear time, winning moves included (Section 5, Theorem 1,
L256-L262; the proof is lost, digest section 2.4 reconstructs it from Lemmas 5 and 6).

Rooted at a vertex r of eccentricity <= 2, each child x of r with leaves of total y
contributes to the path a(L) - c - X - Y: to a if y >= w(x) (the merged leaf is heavy), else
w(x) to X and y to Y. A move changes one child's (w(x), y) or the root's counter, so every
option's parameters follow in O(1) and all winning moves in O(n) (zero counters are allowed:
a child at 0 adds 0 to a; a root at 0 leaves a forest of stars).
"""

from __future__ import annotations

from collections.abc import Callable

from cgframework_wak.formulas import (
    depth2_grundy_formula,
    depth2_outcome_is_p,
    depth2_root,
)
from cgframework_wak.graph import WakGraph

Params = tuple[int, int, int, int]


class Depth2Tree:
    """One component: its root, each child's (w(x), y), and the totals (a, X, Y)."""

    def __init__(self, graph: WakGraph, root: int) -> None:
        self.w = list(graph.weights)
        self.root = root
        adj = graph.adjacency()
        self.parent: dict[int, int] = {}
        self.y: dict[int, int] = {}
        for x in adj[root]:
            self.parent[x] = root
            self.y[x] = 0
            for z in adj[x]:
                if z != root:
                    self.parent[z] = x
                    self.y[x] += self.w[z]
        self.a = self.x_sum = self.y_sum = 0
        self.stars = 0  # nim-sum of the star values once the root is gone
        for x in self.y:
            a, xs, ys = self._part(self.w[x], self.y[x])
            self.a += a
            self.x_sum += xs
            self.y_sum += ys
            self.stars ^= min(self.w[x], self.y[x]) % 2

    @staticmethod
    def _part(wx: int, y: int) -> tuple[int, int, int]:
        return (wx, 0, 0) if y >= wx else (0, wx, y)

    def params(self) -> Params:
        return self.a, self.w[self.root], self.x_sum, self.y_sum

    def option(self, u: int, v: int) -> tuple[Params, int]:
        """(a, c, X, Y) after playing the edge u-v, and the star nim-sum if c becomes 0."""
        c = self.w[self.root]
        if self.root in (u, v):
            x = v if u == self.root else u
            new_wx, new_y, new_c = self.w[x] - 1, self.y[x], c - 1
        else:
            x = u if self.parent.get(u) == self.root else v
            new_wx, new_y, new_c = self.w[x] - 1, self.y[x] - 1, c
        wx, y = self.w[x], self.y[x]
        a0, x0, y0 = self._part(wx, y)
        a1, x1, y1 = self._part(new_wx, new_y)
        params = (self.a - a0 + a1, new_c, self.x_sum - x0 + x1, self.y_sum - y0 + y1)
        stars = self.stars ^ (min(wx, y) % 2) ^ (min(new_wx, new_y) % 2)
        return params, stars


def solve_forest(
    parts: list[WakGraph], value: Callable[[Params], int]
) -> tuple[int, list[str]] | None:
    """(nim-sum of ``value`` over the components, the moves to 0 as move texts, prefixed by
    the part number when there are several parts), or None if some component is not a
    loopless tree of depth <= 2."""
    owners = []  # per part: vertex -> (its component's tree, its id in the component)
    total = 0
    for part in parts:
        owner: dict[int, tuple[Depth2Tree, int]] = {}
        for vertices in part.component_vertices():
            comp = part.induced(vertices)
            root = depth2_root(comp)
            if root is None or comp.n < 2:
                return None  # (a lone live vertex would need a loop)
            tree = Depth2Tree(comp, root)
            for local, v in enumerate(vertices):
                owner[v] = (tree, local)
            total ^= value(tree.params())
        owners.append(owner)
    best: list[str] = []
    if total:
        for index, (part, owner) in enumerate(zip(parts, owners, strict=True)):
            w = part.weights
            for u, v in part.edges:
                if w[u] > 0 and w[v] > 0:
                    tree, lu = owner[u]
                    params, stars = tree.option(lu, owner[v][1])
                    after = stars if params[1] == 0 else value(params)
                    if total ^ value(tree.params()) ^ after == 0:
                        text = f"{u}-{v}"
                        best.append(text if len(parts) == 1 else f"{index + 1}:{text}")
    return total, best


def grundy_value(params: Params) -> int:
    """The digest's Grundy formula (EMPIRICAL beyond Theorem 1's outcome)."""
    return depth2_grundy_formula(*params)


def outcome_value(params: Params) -> int:
    """0 for a P-position, 1 otherwise: Theorem 1's proven outcome (L257)."""
    return 0 if depth2_outcome_is_p(*params) else 1
