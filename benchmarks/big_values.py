"""Benchmark: values too large to print. ``cgf solve clobber (xo)^n`` (the row ``xo`` n times)
as a table, as JSON and with ``--full`` (to /dev/null): CPU seconds and peak memory of each
child process, with the text's length and the value's distinct subgames.

Run: python benchmarks/big_values.py [N ...]   (default 12 to 17; the solve itself is most
of the CPU time from n = 16: see the "solve only" column)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

CGF = [sys.executable, "-c", "import sys; from cgframework.cli.commands import main; main()"]


def run(args: list[str]) -> tuple[float, float, int]:
    """CPU seconds and peak resident MB of one child (GNU time), and its exit code."""
    with tempfile.NamedTemporaryFile("r") as report, open(os.devnull, "w") as sink:
        timed = ["/usr/bin/time", "-o", report.name, "-f", "%U %S %M", *CGF, *args]
        code = subprocess.run(timed, stdout=sink, stderr=subprocess.DEVNULL).returncode
        user, system, kb = report.read().split()[-3:]
    return float(user) + float(system), int(kb) / 1024, code


def solve_only(n: int) -> tuple[float, int, int]:
    """CPU seconds of the solve alone, the text's length and the number of subgames."""
    from cgframework.plugins import get_registry
    from cgframework.solvers.dispatch import solve
    from cgframework.values.notation import text_length
    from cgframework.values.summary import subgames

    rs = get_registry().rulesets["clobber"]
    started = time.process_time()
    g = solve(rs, rs.parse("xo" * n)).value
    return time.process_time() - started, text_length(g), len(subgames(g))


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or list(range(12, 18))
    print("n\tcharacters\tsubgames\tsolve only CPU s\ttable CPU s / MB\tjson\t--full")
    for n in sizes:
        solve_cpu, length, nodes = solve_only(n)
        cells = []
        for extra in ([], ["--json"], ["--full"]):
            cpu, mb, code = run(["solve", "clobber", "xo" * n, *extra])
            cells.append(f"{cpu:.1f} / {mb:.0f}" + ("" if code == 0 else f" (exit {code})"))
        print(f"{n}\t{length}\t{nodes}\t{solve_cpu:.1f}\t" + "\t".join(cells))


if __name__ == "__main__":
    main()
