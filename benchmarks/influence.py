"""INFLUENCE segments S_n: Table 1 extended (paper L836-L856, "computed up to n = 80"),
and the segment solver against the general-digraph solver and the generic minimax.

``python benchmarks/influence.py [--to N] [--quick]`` prints two markdown tables:

1. Table 1 extended: for each n, (Ls, Rs) of S_n, the states the segment solver expanded
   for that n (its memo is shared from n = 1 upwards, as a table is built) and the
   cumulative seconds; "ok" where the paper (n <= 38) or the digest's extension
   (n <= 115) gives the same value.
2. One S_n from cold caches by each method (seconds, states), the speed-up of the segment
   solver over the slowest other method still running (a method stops after --budget
   seconds), and the fitted growth per added vertex (time ~ b^n, least squares on log time).
3. The trees of §5.1 by the graph solver.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time

from cgframework import Player, solve
from cgframework_influence.engine import GraphComponents
from cgframework_influence.graph import segment
from cgframework_influence.paper import TABLE_1
from cgframework_influence.segments import SegmentComponents
from cgframework_influence.solvers import Analyser


def digest_value(n: int) -> tuple[int, int] | None:
    """Table 1, then the digest's extension (§4.4, n <= 115): period 4 with S_77 = (1,-5)."""
    if n <= 38:
        return TABLE_1[n - 1]
    if n > 115:
        return None
    if n == 77:
        return (1, -5)
    return {2: (2, -2), 3: (3, -3), 0: (2, -2), 1: (1, -3)}[n % 4]


def table(stop: int) -> float:
    analyser = Analyser(SegmentComponents())
    print("| n | Ls | Rs | known | new states | cumulative s |")
    print("|---:|---:|---:|:---:|---:|---:|")
    start = time.perf_counter()
    before = 0
    for n in range(1, stop + 1):
        ls, rs = analyser.ls_rs(segment(n))
        known = digest_value(n)
        mark = "-" if known is None else ("ok" if known == (ls, rs) else "DIFFERS")
        nodes = analyser.engine.nodes
        elapsed = time.perf_counter() - start
        print(f"| {n} | {ls} | {rs} | {mark} | {nodes - before} | {elapsed:.2f} |", flush=True)
        before = nodes
    return time.perf_counter() - start


def one(method: str, n: int) -> tuple[float, int, tuple[int, int]]:
    """Seconds, states and (Ls, Rs) of S_n from cold caches."""
    g = segment(n)
    start = time.perf_counter()
    if method == "generic":
        left = solve("influence", g, method="generic", first=Player.LEFT)
        right = solve("influence", g, method="generic", first=Player.RIGHT)
        states = left.stats.cache_misses + right.stats.cache_misses
        value = (left.value, -right.value)
    else:
        universe = SegmentComponents() if method == "segments" else GraphComponents()
        analyser = Analyser(universe)
        value = analyser.ls_rs(g)
        states = analyser.engine.nodes
    return time.perf_counter() - start, states, value


def growth(points: list[tuple[int, float]]) -> str:
    """b in time ~ b^n, from the points taking at least 5 ms."""
    pts = [(n, math.log(t)) for n, t in points if t >= 0.005]
    if len(pts) < 3:
        return "-"
    mx = statistics.mean(x for x, _ in pts)
    my = statistics.mean(y for _, y in pts)
    slope = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
    return f"{math.exp(slope):.3f}"


def compare(sizes: list[int], budget: float) -> None:
    methods = ("segments", "graph", "generic")
    print("| n | " + " | ".join(f"{m} s | {m} states" for m in methods) + " | speed-up |")
    print("|---:|" + "---:|---:|" * len(methods) + "---:|")
    points: dict[str, list[tuple[int, float]]] = {m: [] for m in methods}
    alive = set(methods)
    for n in sizes:
        cells = []
        times = {}
        values = set()
        for m in methods:
            if m not in alive:
                cells.append("- | -")
                continue
            seconds, states, value = one(m, n)
            values.add(value)
            times[m] = seconds
            points[m].append((n, seconds))
            cells.append(f"{seconds:.3f} | {states}")
            if seconds > budget:
                alive.discard(m)
        assert len(values) == 1, f"methods disagree on S_{n}: {values}"
        slowest = max((t for m, t in times.items() if m != "segments"), default=None)
        ratio = f"{slowest / times['segments']:.0f}x" if slowest else "-"
        print(f"| {n} | " + " | ".join(cells) + f" | {ratio} |", flush=True)
    print()
    print("| method | growth per vertex b (time ~ b^n) |")
    print("|---|---:|")
    for m in methods:
        print(f"| {m} | {growth(points[m])} |")


def trees(quick: bool) -> None:
    """§5.1 instances (J_n^c = T_n^c + T_n^c, L875) by the graph solver, and the generic
    minimax where it finishes quickly."""
    from cgframework import get_registry

    rules = get_registry().ruleset("influence")
    texts = ["J:1,1", "J:1,2", "J:2,1", "J:2,2"]
    if not quick:
        texts += ["J:2,4", "J:3,1", "J:3,2", "J:3,3", "tree:4,1"]
    print("| instance | vertices | s1L | s2L | s1R | s2R | graph s | states | generic s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for text in texts:
        g = rules.parse(text)
        analyser = Analyser(GraphComponents())
        start = time.perf_counter()
        ls, rs = analyser.ls_rs(g)
        seconds = time.perf_counter() - start
        generic = "-"
        if g.n <= 20:
            start = time.perf_counter()
            left = solve(rules, g, method="generic", first=Player.LEFT)
            right = solve(rules, g, method="generic", first=Player.RIGHT)
            assert (left.value, -right.value) == (ls, rs)
            generic = f"{time.perf_counter() - start:.3f}"
        n = g.n
        s1l, s2l = (ls + n) // 2, (rs + n) // 2
        print(
            f"| {text} | {n} | {s1l} | {s2l} | {n - s2l} | {n - s1l} | {seconds:.3f} | "
            f"{analyser.engine.nodes} | {generic} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--to", type=int, default=80, help="last n of the table")
    parser.add_argument("--quick", action="store_true", help="n <= 40, small comparison")
    parser.add_argument("--budget", type=float, default=20.0, help="stop a method after this")
    args = parser.parse_args()
    sys.setrecursionlimit(100_000)
    one("generic", 4)  # load the plugins before timing
    stop = 40 if args.quick else args.to
    print(f"## Table 1 extended to n = {stop} (segment solver, shared memo)\n")
    total = table(stop)
    print(f"\ntotal: {total:.2f} s for n = 1..{stop}\n")
    print("## One S_n from cold caches\n")
    sizes = list(range(8, 25, 2)) if args.quick else list(range(8, 61, 4))
    compare(sizes, 2.0 if args.quick else args.budget)
    print("\n## Trees of §5.1\n")
    trees(args.quick)


if __name__ == "__main__":
    main()
