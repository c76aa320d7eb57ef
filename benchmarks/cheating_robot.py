"""Benchmark: cheating-robot simple hot sums, Thm 11 matching (DP, networkx) vs round search.

Run: python benchmarks/cheating_robot.py  -- prints a table and fitted growth exponents.
"""

from __future__ import annotations

import math
import random
import time

from cgframework_cheating_robot.games import _osum, hot, outcome_sum
from cgframework_cheating_robot.sh import matching_dp, matching_networkx


def rand_hots(n: int, rng: random.Random, m: int = 5) -> list[tuple[int, int, int]]:
    out = []
    for _ in range(n):
        b = rng.randint(-m, m)
        out.append((b + rng.randint(0, m), b, b - rng.randint(0, m)))
    return out


def timed(fn, *args) -> float:
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t


def fit(ns, ts) -> float:
    xs = [math.log(n) for n, t in zip(ns, ts, strict=True) if t > 1e-4]
    ys = [math.log(t) for t in ts if t > 1e-4]
    if len(xs) < 2:
        return float("nan")
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


def main() -> None:
    rng = random.Random(1)
    print(f"{'n':>6} {'dp s':>9} {'networkx s':>11} {'rounds s':>9}")
    ns, tdp, tnx = [], [], []
    for n in (2, 3, 4, 5, 6, 7, 10, 30, 100, 300, 1000, 3000):
        hots = rand_hots(n, rng)
        a = timed(matching_dp, hots)
        b = timed(matching_networkx, hots) if n <= 300 else float("nan")
        c = float("nan")
        if n <= 7:
            _osum.cache_clear()
            c = timed(outcome_sum, tuple(hot(*h) for h in hots))
        print(f"{n:>6} {a:>9.4f} {b:>11.4f} {c:>9.4f}")
        if n >= 10:
            ns.append(n)
            tdp.append(a)
            tnx.append(b)
    print(f"fitted exponent dp: {fit(ns, tdp):.2f}")
    k = [i for i, t in enumerate(tnx) if t == t]
    print(f"fitted exponent networkx: {fit([ns[i] for i in k], [tnx[i] for i in k]):.2f}")


if __name__ == "__main__":
    main()
