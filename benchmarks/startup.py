"""Start-up and per-solve overhead (issue 20, goals 1-2): ``python benchmarks/startup.py``.

Start-up: each command runs ``--runs`` times in a fresh process; the table gives the median
and the minimum wall time. ``cgf solve nim 1 --json`` is compared with ``python -c "import
cgframework"`` (goal: under 0.15 s and under 2x the import). Per-solve overhead: tiny
positions solved in-process with ``cgframework.solve(ruleset, text)`` after a warm-up
(timeit, best of 5; goal: under 50 us).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
import timeit

CGF = shutil.which("cgf") or "cgf"
COMMANDS: list[tuple[str, list[str]]] = [
    ('python -c "import cgframework"', [sys.executable, "-c", "import cgframework"]),
    ("cgf solve nim 1 --json", [CGF, "solve", "nim", "1", "--json"]),
    ("cgf solve pizza 3,1,4 --json", [CGF, "solve", "pizza", "3,1,4", "--json"]),
    ("cgf calc '{1|0} + *'", [CGF, "calc", "{1|0} + *"]),
    ("cgf --help (every plugin)", [CGF, "--help"]),
    ("cgf rulesets --json (every plugin)", [CGF, "rulesets", "--json"]),
]
TINY: list[tuple[str, str]] = [("nim", "1"), ("nim", "3+5"), ("domineering", "..|..")]


def wall(argv: list[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return times


def per_solve_us(ruleset: str, text: str) -> float:
    import cgframework

    cgframework.solve(ruleset, text)  # warm-up: plugin loaded, caches and values interned
    number = 2000
    best = min(timeit.repeat(lambda: cgframework.solve(ruleset, text), number=number, repeat=5))
    return best / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="fresh processes per command")
    args = parser.parse_args()
    print(f"nproc {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}, runs {args.runs}\n")
    print("| command | median s | min s | median / import |")
    print("| --- | ---: | ---: | ---: |")
    base = None
    for label, argv in COMMANDS:
        times = wall(argv, args.runs)
        median = statistics.median(times)
        base = base or median
        print(f"| `{label}` | {median:.3f} | {min(times):.3f} | {median / base:.2f}x |")
    print("\n| in-process solve | us per solve (best of 5 x 2000) |")
    print("| --- | ---: |")
    for ruleset, text in TINY:
        print(f"| `solve({ruleset!r}, {text!r})` | {per_solve_us(ruleset, text):.1f} |")


if __name__ == "__main__":
    main()
