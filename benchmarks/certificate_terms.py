"""Certificates with and without value terms, against the solve alone: whole ``cgf`` processes.

Run: ``python benchmarks/certificate_terms.py`` (the default rows) or with row names
(``python benchmarks/certificate_terms.py xo20 clobber3x7``). For each row, the CPU seconds
(user + system, of fresh processes, start-up included) of ``cgf solve RULESET POSITION
--outcome --no-moves`` alone, of the same with ``--certificate FILE`` (value terms: format
version 4; then without: ``DEFAULT_TERM_BUDGET`` set to 0 in the process, the version 3
writer) and of ``cgf certificate check FILE``; the nodes and gzip bytes of each file. A step
past ``--limit`` CPU seconds (default 300) is reported as ``>limit`` and the row goes on.
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile

ROWS = {
    "xo20": ("(XO)^20", "clobber", "xo" * 20),
    "clobber3x7": ("Clobber 3x7", "clobber", "checker:3x7"),
    "clobber4x5": ("Clobber 4x5", "clobber", "checker:4x5"),
    "dom6x6": ("Domineering 6x6", "domineering", "|".join(["......"] * 6)),
}

CHILD = """
import sys
from cgframework.proofs import writer
writer.DEFAULT_TERM_BUDGET = int(sys.argv[1])
from cgframework.cli import main
main(sys.argv[2:])
"""
"""A ``cgf`` process whose writer's default term budget is the first argument."""


def run(command: list[str], limit: float) -> tuple[float | None, str]:
    """CPU seconds of ``command`` (``None`` past ``limit``) and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(limit), int(limit) + 1))

    done = subprocess.run(command, capture_output=True, text=True, preexec_fn=cap)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return (used if done.returncode == 0 else None), done.stdout


def seconds(value: float | None, limit: float) -> str:
    return f">{limit:g}" if value is None else f"{value:.2f}"


def measure(name: str, limit: float) -> str:
    label, ruleset, position = ROWS[name]
    solve = [ruleset, position, "--outcome", "--no-moves"]
    alone, _ = run([sys.executable, "-c", CHILD, "0", "solve", *solve], limit)
    cells = [label, seconds(alone, limit)]
    with tempfile.TemporaryDirectory() as folder:
        for budget in ("100", "0"):
            path = os.path.join(folder, f"proof-{budget}.gz")
            write, _ = run(
                [sys.executable, "-c", CHILD, budget, "solve", *solve, "--certificate", path],
                limit,
            )
            check, out = (
                (None, "")
                if write is None
                else run(
                    [sys.executable, "-c", CHILD, "0", "certificate", "check", path, "--json"],
                    limit,
                )
            )
            nodes = f"{json.loads(out)['nodes']:,}" if out else "-"
            size = f"{os.path.getsize(path):,}" if write is not None else "-"
            cells += [nodes, size, seconds(write, limit), seconds(check, limit)]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", nargs="*", help=f"of {', '.join(ROWS)} (default: all)")
    parser.add_argument("--limit", type=float, default=300.0)
    args = parser.parse_args()
    unknown = sorted(set(args.rows) - set(ROWS))
    if unknown:
        parser.error(f"unknown rows: {', '.join(unknown)}")
    print(
        "| position | solve | nodes | bytes | solve + certificate | check "
        "| nodes (v3) | bytes (v3) | solve + certificate (v3) | check (v3) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.rows or list(ROWS):
        print(measure(name, args.limit), flush=True)


if __name__ == "__main__":
    main()
