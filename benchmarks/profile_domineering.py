"""Profile our Domineering canonical solve: ``python benchmarks/profile_domineering.py [RxC ...]``.

One fresh process per board (cold interned values and caches), cProfile around ``solve()``
only (plugin loading excluded), with the search on the main thread (``solve()`` normally
runs it on a big-stack thread, invisible to cProfile); prints the top ``--top`` functions
by cumulative and by own time, and the core's value-cache counters (``cache_info()``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys

CHILD = r"""
import cProfile, io, pstats, sys, time
from cgframework import get_registry, parse_position, solve
from cgframework.solvers import dispatch
from cgframework.values import cache_info
# solve() runs its search on a big-stack thread, which cProfile would not see; these boards
# are shallow (at most 15 moves), so run the search on the main thread instead
dispatch._deep.active = True
rows, cols, top = map(int, sys.argv[1:4])
rules = get_registry().ruleset("domineering")
position = parse_position(rules, "|".join("." * cols for _ in range(rows)))
profile = cProfile.Profile()
start = time.perf_counter()
profile.enable()
solution = solve(rules, position)
profile.disable()
seconds = time.perf_counter() - start
print(f"== domineering {rows}x{cols}: {solution.value}")
print(f"profiled solve: {seconds:.2f} s; nodes {solution.stats.nodes}, "
      f"cache hits {solution.stats.cache_hits}; values: {cache_info()}")
for order in ("cumulative", "tottime"):
    out = io.StringIO()
    pstats.Stats(profile, stream=out).strip_dirs().sort_stats(order).print_stats(top)
    text = out.getvalue()
    print(f"-- top {top} by {order}")
    print(text[text.index("   ncalls"):].rstrip())
"""


def unprofiled(rows: int, cols: int) -> float:
    """The same solve without the profiler, for the profiler's overhead factor."""
    code = (
        "import sys, time\n"
        "from cgframework import get_registry, parse_position, solve\n"
        "r, c = map(int, sys.argv[1:3])\n"
        "rules = get_registry().ruleset('domineering')\n"
        "p = parse_position(rules, '|'.join('.' * c for _ in range(r)))\n"
        "t = time.perf_counter(); solve(rules, p); print(time.perf_counter() - t)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(rows), str(cols)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("boards", nargs="*", default=["4x5", "4x6"], help="RxC, e.g. 4x5")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    for text in args.boards:
        rows, cols = map(int, text.lower().split("x"))
        print(f"unprofiled solve {rows}x{cols}: {unprofiled(rows, cols):.2f} s", flush=True)
        subprocess.run(
            [sys.executable, "-c", CHILD, str(rows), str(cols), str(args.top)], check=True
        )


if __name__ == "__main__":
    main()
