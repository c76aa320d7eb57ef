"""Profile our Domineering canonical solve: ``python benchmarks/profile_domineering.py BOARD...``.

A BOARD is ``RxC`` (the empty rectangle) or a board text (``#....|.....|....#``).

One fresh process per board (cold interned values and caches), cProfile around ``solve()``
only (plugin loading excluded), with the search on the main thread (``solve()`` normally
runs it on a big-stack thread, invisible to cProfile); prints the top ``--top`` functions
by cumulative and by own time, and the core's value-cache counters (``cache_info()``).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

CHILD = r"""
import cProfile, io, pstats, sys, time
from cgframework import get_registry, parse_position, solve
from cgframework.values import cache_info
# with no budget, solve() first runs its search on the calling thread (cProfile sees it)
text, top = sys.argv[1], int(sys.argv[2])
rules = get_registry().ruleset("domineering")
position = parse_position(rules, text)
profile = cProfile.Profile()
start = time.perf_counter()
profile.enable()
solution = solve(rules, position)
profile.disable()
seconds = time.perf_counter() - start
print(f"== domineering {text}: {solution.value}")
print(f"profiled solve: {seconds:.2f} s; nodes {solution.stats.nodes}, "
      f"cache hits {solution.stats.cache_hits}; values: {cache_info()}")
for order in ("cumulative", "tottime"):
    out = io.StringIO()
    pstats.Stats(profile, stream=out).strip_dirs().sort_stats(order).print_stats(top)
    text = out.getvalue()
    print(f"-- top {top} by {order}")
    print(text[text.index("   ncalls"):].rstrip())
"""


def board_text(board: str) -> str:
    """The board text of ``RxC`` (all cells empty), or ``board`` itself."""
    if re.fullmatch(r"\d+[xX]\d+", board):
        rows, cols = map(int, board.lower().split("x"))
        return "|".join("." * cols for _ in range(rows))
    return board


def unprofiled(text: str) -> float:
    """The same solve without the profiler, for the profiler's overhead factor."""
    code = (
        "import sys, time\n"
        "from cgframework import get_registry, parse_position, solve\n"
        "rules = get_registry().ruleset('domineering')\n"
        "p = parse_position(rules, sys.argv[1])\n"
        "t = time.perf_counter(); solve(rules, p); print(time.perf_counter() - t)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, text],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("boards", nargs="*", default=["4x5", "4x6"], help="RxC or a board text")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    for board in args.boards:
        text = board_text(board)
        print(f"unprofiled solve {text}: {unprofiled(text):.2f} s", flush=True)
        subprocess.run([sys.executable, "-c", CHILD, text, str(args.top)], check=True)


if __name__ == "__main__":
    main()
