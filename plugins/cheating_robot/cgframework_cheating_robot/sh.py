"""Sums of simple hot games {a|b|c} (a >= b >= c) and integers: Thm 10, Cor 2, Thm 11 (L520-L632).

Value = sum b_i + integers + min-weight matching on D_G (edges i<j in standard order with
a_i' + c_j' < 0, normalised a' = a-b, c' = c-b). The paper's l.612 sign "w = -a_i - c_j" is a
typo; l.618 and the proof use w = a_i + c_j with a *minimum* weight (not perfect) matching.
"""

from __future__ import annotations

import attrs

from cgframework_cheating_robot.games import CRGame, as_hot, as_integer, is_simple_hot


@attrs.frozen
class SHResult:
    """Value (integer), outcome, standard order, matched pairs (Left plays i, Right answers j)."""

    value: int
    outcome: str
    order: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]


def applies(parts) -> bool:
    """Every summand is an integer or a simple hot game."""
    return all(as_integer(p) is not None or is_simple_hot(p) for p in parts)


def split(parts) -> tuple[list[tuple[int, int, int]], list[int], list[int]]:
    """(hot triples, their indices among ``parts``, integers)."""
    hots, idx, ints = [], [], []
    for k, p in enumerate(parts):
        n = as_integer(p)
        if n is not None:
            ints.append(n)
        else:
            h = as_hot(p)
            if h is None or not h[0] >= h[1] >= h[2]:
                raise ValueError(f"summand {p} is not simple hot or an integer")
            hots.append(h)
            idx.append(k)
    return hots, idx, ints


def standard_order(hots) -> list[int]:
    """Indices by a-c descending (standard indexing, L600-L604)."""
    return sorted(range(len(hots)), key=lambda i: -(hots[i][0] - hots[i][2]))


def matching_dp(hots) -> tuple[int, list[tuple[int, int]]]:
    """O(n^2) DP: a matching on D_G is a parenthesis labelling in standard order
    (opener +a_i', closer +c_j'); returns (min weight, pairs)."""
    order = standard_order(hots)
    al = [hots[i][0] - hots[i][1] for i in order]
    ga = [hots[i][2] - hots[i][1] for i in order]
    n = len(order)
    inf = float("inf")
    dp = [0] + [inf] * (n + 1)
    choice: list[list[int]] = []
    for k in range(n):
        nd = list(dp)
        ch = [0] * (n + 2)
        for b in range(k + 1):
            v = dp[b]
            if v == inf:
                continue
            if v + al[k] < nd[b + 1]:
                nd[b + 1] = v + al[k]
                ch[b + 1] = 1
            if b > 0 and v + ga[k] < nd[b - 1]:
                nd[b - 1] = v + ga[k]
                ch[b - 1] = -1
        dp = nd
        choice.append(ch)
    # backtrack
    labels = [0] * n
    b = 0
    for k in range(n - 1, -1, -1):
        c = choice[k][b]
        labels[k] = c
        b -= c
    stack: list[int] = []
    pairs = []
    for k in range(n):
        if labels[k] == 1:
            stack.append(k)
        elif labels[k] == -1:
            pairs.append((order[stack.pop()], order[k]))
    return int(dp[0]), pairs


def matching_networkx(hots) -> tuple[int, list[tuple[int, int]]]:
    """Blossom on the general graph D_G: max_weight_matching(maxcardinality=False) on
    negated weights (min_weight_matching would force maximum cardinality: wrong here)."""
    import networkx as nx

    order = standard_order(hots)
    pos = {v: k for k, v in enumerate(order)}
    g = nx.Graph()
    for p, i in enumerate(order):
        for j in order[p + 1 :]:
            w = (hots[i][0] - hots[i][1]) + (hots[j][2] - hots[j][1])
            if w < 0:
                g.add_edge(i, j, w=-w)
    m = nx.max_weight_matching(g, maxcardinality=False, weight="w")
    pairs = []
    total = 0
    for u, v in m:
        i, j = (u, v) if pos[u] < pos[v] else (v, u)
        pairs.append((i, j))
        total -= g[u][v]["w"]
    return total, sorted(pairs, key=lambda e: pos[e[0]])


def solve_sh(parts, backend: str = "dp") -> SHResult:
    """Thm 11: value, outcome, standard order, matching (indices into ``parts``)."""
    hots, idx, ints = split(parts)
    backends = {"dp": matching_dp, "networkx": matching_networkx}
    if backend not in backends:
        raise ValueError(f"unknown backend {backend!r} (choose dp or networkx)")
    fn = backends[backend]
    w, pairs = fn(hots)
    value = sum(h[1] for h in hots) + sum(ints) + w
    out = "L" if value > 0 else ("D" if value == 0 else "R")
    order = tuple(idx[i] for i in standard_order(hots))
    return SHResult(value, out, order, tuple((idx[i], idx[j]) for i, j in pairs))


def value_by_outcomes(parts: tuple[CRGame, ...]) -> int:
    """A7: the integer V with o(P + (-V)) = D, found by the generic round search."""
    from cgframework_cheating_robot.games import integer, outcome_sum

    lo = -sum(abs(x) for p in parts for x in (as_hot(p) or (as_integer(p) or 0,)))
    hi = -lo
    for v in range(lo - 1, hi + 2):
        if outcome_sum((*parts, integer(-v))) == "D":
            return v
    raise AssertionError("no draw shift found")


def right_reply(res: SHResult, played: int, present: set[int]) -> int:
    """Right's matching strategy alpha(M): answer in the partner if present, else locally."""
    for i, j in res.pairs:
        if i == played and j in present:
            return j
        if j == played and i in present:
            return i
    return played


def play_against(parts, res: SHResult, left_order) -> int:
    """Final integer when Left plays hot games in ``left_order`` and Right uses alpha(M)."""
    hots = {k: as_hot(p) for k, p in enumerate(parts) if as_integer(p) is None}
    total = sum(as_integer(p) for p in parts if as_integer(p) is not None)
    present = set(hots)
    for i in left_order:
        if i not in present:
            continue
        present.discard(i)
        j = right_reply(res, i, present)
        if j == i:
            total += hots[i][1]
        else:
            present.discard(j)
            total += hots[i][0] + hots[j][2]
    return total
