"""The plain memoised brute force: no canonical key, no decomposition, no reductions.

The reference the tests check every shortcut against (independently of the certificates), and
the baseline of ``benchmarks/wak.py``. Digest Appendix A describes the same oracle.
"""

from __future__ import annotations

from cgframework.values import mex
from cgframework_wak.graph import WakGraph


class Oracle:
    """Grundy values by the mex rule, memoised on the exact labelled weights of one graph."""

    def __init__(self, graph: WakGraph) -> None:
        self.graph = graph
        self.memo: dict[tuple[int, ...], int] = {}

    def value(self, weights: tuple[int, ...] | None = None) -> int:
        start = self.graph.weights if weights is None else weights
        stack = [start]
        memo = self.memo
        graph = self.graph
        while stack:  # iterative post-order: long games do not hit the recursion limit
            w = stack[-1]
            if w in memo:
                stack.pop()
                continue
            kids = [after for _, after in graph.with_weights(w).moves()]
            missing = [k for k in kids if k not in memo]
            if missing:
                stack.extend(missing)
                continue
            memo[w] = mex({memo[k] for k in kids})
            stack.pop()
        return memo[start]


def plain_grundy(graph: WakGraph) -> int:
    return Oracle(graph).value()
