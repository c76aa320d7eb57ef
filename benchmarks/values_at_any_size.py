"""Values at any size: time and memory of the symbolic values as n grows.

``python benchmarks/values_at_any_size.py [--repeat K]`` runs each case in a fresh Python
process (cold caches), times the call itself (not the start-up) and reports the peak memory
that call allocated (tracemalloc), as a Markdown table. Memory should stay flat in n.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

CASES = [
    # (label, kind, argument): kind "solve" is cgf solve RULESET POSITION, "calc" cgf calc EXPR
    ("cgf solve nim 1000,7", "solve", ("nim", "1000,7")),
    ("cgf solve nim 4294967296,7,12345678901", "solve", ("nim", "4294967296,7,12345678901")),
    ("cgf solve nim 10^30", "solve", ("nim", str(10**30))),
    ('cgf solve subtraction "{1,1000000000}:5"', "solve", ("subtraction", "{1,1000000000}:5")),
    ("cgf solve cheating-robot 20000", "solve", ("cheating-robot", "20000")),
    ('cgf calc "^100 + *20"', "calc", "^100 + *20"),
    ('cgf calc "^100000 + *20000"', "calc", "^100000 + *20000"),
    ('cgf calc "^1000000 + *18446744073709551616"', "calc", "^1000000 + *18446744073709551616"),
    ('cgf calc "10^30 + 1/2v*255 - 22"', "calc", f"{10**30} + 1/2v*255 - 22"),
]

CHILD = r"""
import json, sys, time, tracemalloc
kind, arg = json.loads(sys.argv[1])
from cgframework import solve
from cgframework.values import parse_value
from cgframework.values.notation import format_value
solve("nim", "1")  # plugins loaded before timing
tracemalloc.start()
start = time.perf_counter()
if kind == "solve":
    text = str(solve(*arg).value)
else:
    text = format_value(parse_value(arg))
seconds = time.perf_counter() - start
peak = tracemalloc.get_traced_memory()[1]
print(json.dumps({"seconds": seconds, "peak": peak, "value": text[:40]}))
"""


def run(kind: str, arg: object) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps([kind, arg])],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("| command | value | ms (median) | peak KiB |")
    print("|---|---|---:|---:|")
    for label, kind, arg in CASES:
        results = [run(kind, arg) for _ in range(args.repeat)]
        ms = statistics.median(r["seconds"] for r in results) * 1000
        kib = max(r["peak"] for r in results) / 1024
        print(f"| `{label}` | `{results[0]['value']}` | {ms:.2f} | {kib:.0f} |")


if __name__ == "__main__":
    main()
