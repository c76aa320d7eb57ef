"""Ruleset variants: what the wrapper costs against the ruleset itself.

The impartial variant of Domineering is Cram: it is solved by the generic Grundy search over
the wrapper's options, Cram by its own solvers (``auto``) and by the same generic search
(``--method generic``) on its own options. The dicotic and twisted variants of Domineering are
solved by the generic canonical search; Domineering itself by its key search (``auto``) and
by the plain recursion (``generic``). CPU seconds of one ``solve``, each in a fresh process
(no cache of an earlier row helps), best of ``--runs``.

    python benchmarks/variants.py
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from cgframework import solve


def cpu(ruleset: str, position: str, method: str, runs: int) -> float:
    """Best CPU seconds of ``solve`` over ``runs`` fresh processes."""
    best = float("inf")
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, __file__, "--one", ruleset, position, method],
            capture_output=True,
            text=True,
            check=True,
        )
        best = min(best, float(done.stdout))
    return best


def one(ruleset: str, position: str, method: str) -> None:
    start = time.process_time()
    solve(ruleset, position, method=method)
    print(time.process_time() - start)


def board(h: int, w: int) -> str:
    return "|".join(["." * w] * h)


ROWS = [
    ("impartial:domineering", "auto", "cram", "auto", "cram", "generic"),
    ("dicotic:domineering", "auto", "domineering", "auto", "domineering", "generic"),
    ("twisted:domineering", "auto", "domineering", "auto", "domineering", "generic"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--shapes", default="4x4,4x5,3x7")
    parser.add_argument("--one", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        return one(*args.one)
    shapes = [tuple(int(x) for x in s.split("x")) for s in args.shapes.split(",")]
    print("| variant | board | variant CPU s | base (auto) CPU s | base (generic) CPU s |")
    print("| --- | --- | ---: | ---: | ---: |")
    for variant, vm, base, bm, base2, bm2 in ROWS:
        for h, w in shapes:
            text = board(h, w)
            times = [
                cpu(variant, text, vm, args.runs),
                cpu(base, text, bm, args.runs),
                cpu(base2, text, bm2, args.runs),
            ]
            cells = " | ".join(f"{t:.3f}" for t in times)
            print(f"| `{variant}` (vs `{base}`) | {h}x{w} | {cells} |")


if __name__ == "__main__":
    main()
