"""Pizza at scale: sums of two unopened pizzas (the DP over list
suffixes of sums.py), a lone pizza by the plateau solver (``--method slices``: time and peak
memory), and a two-ended stack from the command line (``cgf solve pizza @FILE --json``,
wall time and peak RSS of the whole process).

``python benchmarks/pizza_sums.py [--quick] [--old PATH]`` prints three tables with the
fitted growth exponents. Each instance runs in a fresh process (the solver rows time the
solve alone, after parsing, as ``run.py`` does; the command-line rows time everything).
``--old PATH`` also runs an older pizza plugin for comparison: PATH is a directory holding
its ``cgframework_pizza`` package (for example ``git archive main plugins/pizza | tar -x -C
/tmp/old`` gives ``/tmp/old/plugins/pizza``), put first on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import CHILD, fit_exponent, pizza_text  # noqa: E402  (benchmarks/ is not a package)

CLI_CHILD = r"""
import resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
wall = time.perf_counter() - start
if done.returncode:
    sys.exit(done.stderr.decode()[-300:])
print(wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
"""


def second_pizza(n: int) -> str:
    """Another deterministic pizza of n slices, weights 0..10."""
    return ",".join(str((i * 104729 + 5) % 11) for i in range(n))


def random_pizza(n: int, seed: int) -> str:
    rng = random.Random(seed)
    return ",".join(str(rng.randint(0, 100)) for _ in range(n))


def write(text: str) -> str:
    handle = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
    handle.write(text)
    handle.close()
    return handle.name


def environment(old: str | None) -> dict[str, str]:
    env = dict(os.environ)
    if old:
        env["PYTHONPATH"] = old + os.pathsep + env.get("PYTHONPATH", "")
    return env


def solve_in_child(path: str, method: str, old: str | None, timeout: float) -> dict | None:
    command = [sys.executable, "-c", CHILD, "pizza", "@" + path, method, ""]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, env=environment(old), timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return None
    if done.returncode:
        raise SystemExit(done.stderr[-500:])
    return json.loads(done.stdout)


def cli_in_child(path: str, old: str | None) -> tuple[float, float]:
    cgf = os.path.join(os.path.dirname(sys.executable), "cgf")
    command = [sys.executable, "-c", CLI_CHILD, cgf, "solve", "pizza", "@" + path, "--json"]
    done = subprocess.run(command, capture_output=True, text=True, env=environment(old))
    if done.returncode:
        raise SystemExit(done.stderr[-500:])
    wall, rss = done.stdout.split()
    return float(wall), float(rss)


def growth(points: list[tuple[int, float]]) -> str:
    if len(points) < 2:
        return "-"
    return f"n^{fit_exponent([(math.log(n), math.log(max(t, 1e-4))) for n, t in points]):.2f}"


def table(title: str, header: list[str], rows: list[list[str]], notes: list[str]) -> None:
    print(f"\n{title}\n")
    print("| " + " | ".join(header) + " |")
    print("| --- |" + " ---: |" * (len(header) - 1))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    for note in notes:
        print(f"- {note}")


def solver_rows(args, label, old, instances, method, nodes: bool):
    """Rows (and (n, seconds) points) for ``instances`` = [(row name, n, text)] solved in
    fresh processes; stops at the first instance past ``--timeout``."""
    rows, points = [], []
    for name, n, text in instances:
        result = solve_in_child(write(text), method, old, args.timeout)
        if result is None:
            rows.append([name, label, "-"] + ["-"] * nodes + [f"> {args.timeout:g}", "-"])
            break
        points.append((n, result["seconds"]))
        cells = [name, label, result["value"]] + [str(result["nodes"])] * nodes
        rows.append(cells + [f"{result['seconds']:.3f}", f"{result['rss_mb']:.0f}"])
    return rows, points


def solver_table(args, versions, title, header, families, sizes, method, old_limit) -> None:
    """One table: each family (name -> text of size n) at each size, by each version."""
    rows, notes = [], []
    for name, make in families.items():
        for label, old in versions:
            ns = [n for n in sizes if not old or n <= old_limit]
            found, points = solver_rows(
                args,
                label,
                old,
                [(f"{name} n={n}", n, make(n)) for n in ns],
                method,
                "nodes" in header,
            )
            rows += found
            notes.append(f"{name} {label}: time ~ {growth(points)}")
    table(title, header, rows, notes)


def sums(args, versions) -> None:
    families = {
        "A+B": lambda n: f"cyc({pizza_text(n)}) + cyc({second_pizza(n)})",
        "A+A": lambda n: f"cyc({pizza_text(n)}) + cyc({pizza_text(n)})",
        "R+R'": lambda n: f"cyc({random_pizza(n, 1)}) + cyc({random_pizza(n, 2)})",
    }
    solver_table(
        args,
        versions,
        "Sums of two unopened pizzas of n slices each",
        ["two unopened pizzas", "version", "value", "nodes", "solve s", "peak RSS MB"],
        families,
        (100, 200, 400) if args.quick else (100, 200, 400, 1000, 2000),
        "auto",
        args.old_up_to,
    )


def lone(args, versions) -> None:
    solver_table(
        args,
        versions,
        "A lone pizza by the plateau solver (--method slices)",
        ["plateau solver", "version", "value", "solve s", "peak RSS MB"],
        {"pizza": pizza_text},
        (1000, 3000) if args.quick else (1000, 3000, 10**4, 3 * 10**4),
        "slices",
        args.old_lone_up_to,
    )


def command_line(args, versions) -> None:
    sizes = (10**4, 10**5) if args.quick else (10**4, 10**5, 10**6)
    rows, notes = [], []
    for label, old in versions:
        points = []
        for n in sizes:
            if old and n != sizes[-1]:
                continue
            path = write("tes(" + pizza_text(n) + ")")
            wall, rss = cli_in_child(path, old)
            points.append((n, wall))
            rows.append([f"tes n={n}", label, f"{wall:.2f}", f"{rss:.0f}"])
        if not old:
            notes.append(f"tes from the command line {label}: wall ~ {growth(points)}")
    header = ["cgf solve pizza @FILE --json", "version", "wall s", "peak RSS MB"]
    table("A two-ended stack from the command line (whole process)", header, rows, notes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--old", help="directory holding an older cgframework_pizza")
    parser.add_argument("--old-up-to", type=int, default=200, help="largest sum for --old")
    parser.add_argument("--old-lone-up-to", type=int, default=3000)
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per instance")
    args = parser.parse_args()
    versions = [("new", None)] + ([("old", args.old)] if args.old else [])
    load = os.getloadavg()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average {load[0]:.2f}")
    sums(args, versions)
    lone(args, versions)
    command_line(args, versions)


if __name__ == "__main__":
    main()
