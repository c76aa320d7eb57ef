"""Benchmarks: ``python benchmarks/run.py [--quick] [--only NAME] [--repeat K]``.

Each instance is solved in a fresh Python process (so interned values and caches start
cold), ``--repeat`` times; the table shows the median time, the positions the solver
expanded, its transposition-table hits, and the child's peak RSS.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

CHILD = r"""
import json, resource, sys, time
from cgframework import get_registry, parse_position, solve
ruleset, position, method = sys.argv[1:4]
if position.startswith("@"):  # large positions come in a file
    position = open(position[1:]).read()
rules = get_registry().ruleset(ruleset)  # plugin loading is not part of the timing
position = parse_position(rules, position)
start = time.perf_counter()
solution = solve(rules, position, method=method)
seconds = time.perf_counter() - start
print(json.dumps({
    "seconds": seconds,
    "value": str(solution.value),
    "nodes": solution.stats.nodes,
    "hits": solution.stats.cache_hits,
    "method": solution.method,
    "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""


def board(rows: int, cols: int) -> str:
    return "|".join("." * cols for _ in range(rows))


def domineering(quick: bool) -> list[tuple[str, str, str, str]]:
    sizes = [(2, n) for n in range(4, 11)] + [(3, 4), (4, 4), (4, 5)]
    if quick:
        sizes = [(2, n) for n in range(4, 9)] + [(3, 4)]
    return [(f"domineering {r}x{c}", "domineering", board(r, c), "auto") for r, c in sizes]


def pizza_text(n: int) -> str:
    """A deterministic pseudo-random pizza of n slices with weights 0..12."""
    return ",".join(str((i * 7919 + 3) % 13) for i in range(n))


def as_file(text: str) -> str:
    handle = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
    handle.write(text)
    handle.close()
    return "@" + handle.name


def pizza(quick: bool) -> list[tuple[str, str, str, str]]:
    """Brown & Brown: the plateau algorithm (slices) and the arc DP against the generic
    minimax on pizzas; the slice partition against the generic (interval) minimax on tes."""
    rows = []
    for n in (10, 20, 40) if quick else (10, 20, 40, 80):
        for method in ("generic", "slices", "arc-dp"):
            rows.append((f"pizza n={n} {method}", "pizza", pizza_text(n), method))
    for n in (200, 400) if quick else (200, 400, 1000):
        rows.append((f"pizza n={n} slices", "pizza", as_file(pizza_text(n)), "slices"))
    for n in (1000,) if quick else (1000, 3000, 10**4):
        rows.append((f"pizza n={n} arc-dp", "pizza", as_file(pizza_text(n)), "arc-dp"))
    for n in (10**4,) if quick else (10**4, 10**5, 10**6):
        tes = "tes(" + pizza_text(n) + ")"
        rows.append((f"tes n={n} slices", "pizza", as_file(tes), "slices"))
    for n in (100, 200) if quick else (100, 200, 400):
        tes = "tes(" + pizza_text(n) + ")"
        rows.append((f"tes n={n} generic", "pizza", tes, "generic"))
    return rows


def growth(rows: list[tuple[str, ...]], seconds: list[float]) -> list[str]:
    """Least-squares exponent k of time ~ n^k for each series ``"<family> n=<n> <method>"``
    with at least two sizes (instances under 5 ms are too noisy to fit and are skipped)."""
    series: dict[str, list[tuple[float, float]]] = {}
    for row, t in zip(rows, seconds, strict=True):
        match = re.fullmatch(r"(\S+) n=(\d+) (\S+)", row[0])
        if match and t >= 0.005:
            key = f"{match[1]} {match[3]}"
            series.setdefault(key, []).append((math.log(int(match[2])), math.log(t)))
    return [
        f"{key}: time ~ n^{fit_exponent(points):.2f} over {len(points)} sizes"
        for key, points in series.items()
        if len(points) >= 2
    ]


def fit_exponent(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of log(time) against log(n)."""
    mx = statistics.mean(x for x, _ in points)
    my = statistics.mean(y for _, y in points)
    return sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)


GROUPS: dict[str, Callable[[bool], list[tuple[str, str, str, str]]]] = {
    "domineering": domineering,
    "pizza": pizza,
}


def measure(ruleset: str, position: str, method: str, repeat: int) -> dict:
    runs = []
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, "-c", CHILD, ruleset, position, method],
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append(json.loads(done.stdout))
    result = dict(runs[-1])
    result["seconds"] = statistics.median(r["seconds"] for r in runs)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small instances, < 1 minute")
    parser.add_argument("--only", choices=sorted(GROUPS), help="run one group")
    parser.add_argument("--repeat", type=int, default=3, help="runs per instance (median)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    table = Table(title=f"cgframework benchmarks ({platform.python_version()})")
    for col in ("instance", "value", "method", "median s", "nodes", "cache hits", "peak RSS MB"):
        table.add_column(col)
    console = Console(width=160)
    rows: list[tuple[str, ...]] = []
    seconds: list[float] = []
    for group, make in GROUPS.items():
        if args.only and group != args.only:
            continue
        for label, ruleset, position, method in make(args.quick):
            r = measure(ruleset, position, method, args.repeat)
            row = (
                label,
                r["value"],
                r["method"],
                f"{r['seconds']:.3f}",
                str(r["nodes"]),
                str(r["hits"]),
                f"{r['rss_mb']:.0f}",
            )
            rows.append(row)
            seconds.append(r["seconds"])
            table.add_row(*row)
            console.print(f"done {label}: {r['seconds']:.3f} s", style="dim")
    fits = growth(rows, seconds)
    if not args.markdown:
        console.print(table)
        for line in fits:
            console.print(line)
        return
    print("| instance | value | method | median s | nodes | cache hits | peak RSS MB |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    for row in rows:
        print("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
    print()
    for line in fits:
        print(f"- {line}")


if __name__ == "__main__":
    main()
