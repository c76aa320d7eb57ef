"""The slice partition of a two-ended stack and a stack: the stack condensation against
Algorithm 2.17 as printed (Brown & Brown L358-L372), and the interval-DP minimax for scale.

``python benchmarks/pizza_partition.py [--quick]`` prints a table of seconds per size (best
of three, in this process) and the fitted growth exponent of each method.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from fractions import Fraction

from run import fit_exponent  # benchmarks/run.py, beside this script

from cgframework_pizza.slices import (
    paper_st_decomposition,
    paper_tes_slices,
    st_decomposition,
    tes_slice_weights,
)


def weights(n: int) -> list[int]:
    return [(i * 7919 + 3) % 13 for i in range(n)]


def interval_dp(a: list[int]) -> int:
    """val(tes(a)) by the recursion (1.1) over all intervals: O(n^2), the generic route."""
    row = list(a)
    for length in range(2, len(a) + 1):
        row = [
            max(a[i] - row[i + 1], a[i + length - 1] - row[i]) for i in range(len(a) - length + 1)
        ]
    return row[0]


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    sizes = [10**3, 10**4, 10**5] if args.quick else [10**3, 10**4, 10**5, 10**6]
    methods: dict[str, Callable[[list], object]] = {
        "tes condensation": tes_slice_weights,
        "tes Algorithm 2.17": paper_tes_slices,
        "st condensation": st_decomposition,
        "st Algorithm 2.17": paper_st_decomposition,
        "tes interval DP": interval_dp,
    }
    print("| method | " + " | ".join(f"n={n}" for n in sizes) + " | growth |")
    print("| --- |" + " ---: |" * (len(sizes) + 1))
    for name, fn in methods.items():
        points = []
        cells = []
        for n in sizes:
            if name.endswith("interval DP") and n > 10**4:
                cells.append("-")
                continue
            a = weights(n) if "DP" in name else [Fraction(w) for w in weights(n)]
            t = best_of(lambda a=a, fn=fn: fn(a), 1 if n >= 10**5 else 3)
            points.append((math.log(n), math.log(t)))
            cells.append(f"{t:.3f} s")
        print(f"| {name} | " + " | ".join(cells) + f" | n^{fit_exponent(points):.2f} |")


if __name__ == "__main__":
    main()
