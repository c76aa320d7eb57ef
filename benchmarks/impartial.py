"""Impartial search at scale: the Lemoine-Viennot search (``--method lemoine-viennot``)
against the route each ruleset took before it (Cram: ``grundy-keys``, the mex rule on keys;
Node-Kayles: ``grundy``, the mex rule on canonical labellings; Arc-Kayles: the wak plugin's
``auto``), on Cram, Node-Kayles 3 x n and Arc-Kayles grids.

``python benchmarks/impartial.py [--timeout S] [--only NAME ...] [--mcgs PATH]`` prints a
markdown table of CPU seconds (user + system of a fresh child process, interpreter start
included) and nodes for each route; a run stopped by the CPU limit (``RLIMIT_CPU``) is shown
as ``> S s``. With ``--mcgs`` the MCGS binary (Cram as its ``[impartial domineering]``) is
timed the same way. Published values are checked where known: Cram 4x8 0, 3x12 *1, 5x6 *2,
4x9 *1 (Lemoine and Viennot; Beling and Rogalski, Artificial Intelligence 283, 2020),
Node-Kayles 3 x n from OEIS A316632; Cram is Arc-Kayles on the grid of its cells, so the
Arc-Kayles grids have the Cram boards' values.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys

A316632 = [2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3]

CHILD = """
import json, sys
from cgframework import solve
rs, pos, method = sys.argv[1:4]
s = solve(rs, pos, method=method)
print(json.dumps({"grundy": s.grundy, "nodes": s.stats.nodes}))
"""


def cases() -> list[tuple[str, str, str, str, str, int | None]]:
    """(name, ruleset, position, old route's ruleset, its method, published value)."""
    out = []
    for board, value in (
        ("3x10", None),
        ("3x12", 1),
        ("4x7", None),
        ("4x8", 0),
        ("5x6", 2),
        ("4x9", 1),
    ):
        out.append((f"Cram {board}", "cram", f"rect:{board}", "cram", "grundy-keys", value))
    for n in (8, 10, 12, 14, 16):
        out.append(
            (
                f"Node-Kayles 3x{n}",
                "node-kayles",
                f"grid:3x{n}",
                "node-kayles",
                "grundy",
                A316632[n - 1],
            )
        )
    for board, value in (("4x8", 0), ("5x6", 2)):
        out.append(
            (f"Arc-Kayles {board}", "arc-kayles", f"grid:{board}", "arc-kayles", "auto", value)
        )
    return out


def timed(args: list[str], timeout: float) -> tuple[float, str | None]:
    """CPU seconds of a child (None output when it hit the CPU limit or failed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(timeout), int(timeout) + 1))

    done = subprocess.run(args, capture_output=True, text=True, preexec_fn=limit)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, done.stdout if done.returncode == 0 else None


def ours(ruleset: str, position: str, method: str, timeout: float) -> tuple[float, dict | None]:
    cpu, out = timed([sys.executable, "-c", CHILD, ruleset, position, method], timeout)
    return cpu, None if out is None else json.loads(out.strip().splitlines()[-1])


def mcgs(path: str, board: str, timeout: float) -> tuple[float, int | None]:
    rows, cols = map(int, board.split("x"))
    text = "|".join(["." * cols] * rows)
    cpu, out = timed([path, f"[impartial domineering] {text} {{N}}"], timeout)
    if out is None:
        return cpu, None
    for line in out.splitlines():
        if line.startswith("Got:"):
            return cpu, int(line.split()[1])
    return cpu, None


def cell(cpu: float, found: dict | None, timeout: float) -> str:
    if found is None:
        return f"> {timeout:g} s"
    return f"{cpu:.1f} s, *{found['grundy']}, {found['nodes']} nodes"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=300.0, help="CPU seconds per run")
    parser.add_argument("--old-timeout", type=float, default=120.0, help="for the old route")
    parser.add_argument("--only", nargs="*", help="rows whose name contains one of these")
    parser.add_argument("--mcgs", help="path of the MCGS binary (Cram rows)")
    args = parser.parse_args()
    head = "| position | published | Lemoine-Viennot (CPU) | old route (CPU) |"
    rule = "| --- | ---: | --- | --- |"
    if args.mcgs:
        head += " MCGS (CPU) |"
        rule += " --- |"
    print(head)
    print(rule)
    for name, ruleset, position, old_ruleset, old_method, value in cases():
        if args.only and not any(word in name for word in args.only):
            continue
        new_cpu, new = ours(ruleset, position, "lemoine-viennot", args.timeout)
        old_cpu, old = ours(old_ruleset, position, old_method, args.old_timeout)
        if new is not None and value is not None:
            assert new["grundy"] == value, (name, new, value)
        published = "" if value is None else f"*{value}"
        row = (
            f"| {name} | {published} | {cell(new_cpu, new, args.timeout)} "
            f"| {old_method}: {cell(old_cpu, old, args.old_timeout)} |"
        )
        if args.mcgs:
            if ruleset == "cram" and name.startswith("Cram"):
                cpu, got = mcgs(args.mcgs, position.split(":")[1], args.timeout)
                row += f" {f'> {args.timeout:g} s' if got is None else f'{cpu:.1f} s, *{got}'} |"
            else:
                row += " |"
        print(row, flush=True)


if __name__ == "__main__":
    main()
