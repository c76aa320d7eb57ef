"""The core's table engine for heap rules written in Python, against the bundled compiled
engine on Kayles: CPU seconds and peak memory.

``python benchmarks/heap_tables.py`` prints a Markdown table, one row a case, each case run in
a fresh process (``--case NAME``) so that its peak resident memory (``ru_maxrss``) is its own;
CPU seconds are ``time.process_time`` around the table's ``extend`` alone (the rule's module
and the plugins loaded first). The table holds 4 bytes a heap (an ``array('I')``): 4 MB for
10^6 heaps; the rest of the peak is the interpreter, the core and the plugins.
``--quick`` runs smaller sizes.

Kayles has n options a heap (every split), so its sequence is O(N^2) for both engines, and
its values leave the sparse-space method no sparse mask: the compiled kernel's plain scan
then sets the pace. A rule with a few options a heap costs O(N) even in Python.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from typing import Any

from cgframework.authoring import HeapRuleset


class FewOptions(HeapRuleset):
    """Take 1, 2 or 5 tokens, or halve an even heap: four options a heap at most."""

    name = "bench-few-options"

    def heap_options(self, n: int) -> Any:
        for k in (1, 2, 5):
            if k <= n:
                yield (n - k,)
        if n % 2 == 0:
            yield (n // 2,)


class SquareOrHalve(HeapRuleset):
    """Remove a positive square, or halve an even heap: about sqrt(n) options a heap."""

    name = "bench-square-or-halve"

    def heap_options(self, n: int) -> Any:
        k = 1
        while k * k <= n:
            yield (n - k * k,)
            k += 1
        if n % 2 == 0:
            yield (n // 2,)


class WrittenKayles(HeapRuleset):
    """Kayles written out (no code declared): n options a heap, O(n^2) for the sequence."""

    name = "bench-written-kayles"

    def heap_options(self, n: int) -> Any:
        for take in (1, 2):
            for left in range(n - take + 1):
                yield (left, n - take - left)


def _table(case: str) -> tuple[str, Any]:
    from cgframework.heaps.table import HeapTable, sequence_of

    if case == "few":
        return "Python rule, <= 4 options a heap (take 1, 2, 5 or halve)", HeapTable(FewOptions())
    if case == "squares":
        return "Python rule, ~sqrt(n) options (take a square or halve)", HeapTable(SquareOrHalve())
    if case == "kayles-python":
        return "Kayles written in Python (n options a heap)", HeapTable(WrittenKayles())
    if case == "kayles-engine":
        from cgframework_classic.heaps import OctalCode, code_rule

        rule = code_rule(OctalCode.parse("0.77"))
        return "Kayles, the bundled engine (compiled kernel)", sequence_of(rule)
    raise SystemExit(f"unknown case {case!r}")


def run_case(case: str, heaps: int) -> None:
    """In a fresh process: extend the case's table to ``heaps`` values; print the row's data."""
    label, table = _table(case)
    started = time.process_time()
    table.extend(heaps)
    seconds = time.process_time() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    values = table.values
    print(
        json.dumps(
            {
                "label": label,
                "heaps": heaps,
                "cpu": seconds,
                "peak_mb": peak,
                "table_mb": values.itemsize * len(values) / 2**20,
                "last": values[heaps - 1],
            }
        )
    )


CASES = [  # (case, heaps, quick heaps)
    ("few", 10**6, 10**5),
    ("squares", 10**5, 2 * 10**4),
    ("kayles-python", 5000, 2000),
    ("kayles-engine", 5000, 2000),
    ("kayles-engine", 10**6, 10**5),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", help="run one case in this process (internal)")
    parser.add_argument("--heaps", type=int)
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    args = parser.parse_args()
    if args.case:
        run_case(args.case, args.heaps)
        return
    print("| case | heaps | CPU s | peak RSS MB | table MB | G(last) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for case, full, quick in CASES:
        heaps = quick if args.quick else full
        done = subprocess.run(
            [sys.executable, __file__, "--case", case, "--heaps", str(heaps)],
            capture_output=True,
            text=True,
            check=True,
        )
        row = json.loads(done.stdout)
        print(
            f"| {row['label']} | {row['heaps']:,} | {row['cpu']:.2f} | {row['peak_mb']:.0f} "
            f"| {row['table_mb']:.1f} | {row['last']} |"
        )


if __name__ == "__main__":
    main()
