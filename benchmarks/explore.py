"""What one node of ``cgf explore`` costs: ``python benchmarks/explore.py``.

For each position: CPU seconds of ``solve`` alone (what ``cgf solve`` does), of the
explorer's outcome (asked first by the page), of the node's values (the position, every
option, every component: ``node(pictures=False)``), and of the whole node as the page gets
it (with every picture and the thermograph), and that answer's size in JSON. Each is the
first run after the plugins are loaded; ``warm`` is the best of ``--repeat`` more (the value
tables and the solvers' caches filled, as in a server that has answered before). Last, a
node past its deadline: how long the page waits before it says "too large (limit)".
"""

from __future__ import annotations

import argparse
import json
import time

from cgframework import get_registry, solve
from cgframework.display import explorer

POSITIONS = [
    ("domineering", "..#|...|.#."),
    ("domineering", "....|....|...."),
    ("domineering", "....|....|....|...."),
    ("clobber", "checker:3x3"),
    ("amazons", "x...|...o"),
    ("snort", "grid:2x3"),
    ("node-kayles", "grid:3x4"),
    ("kayles", "70"),
    ("pizza", "3,1,4,1,5,9,2,6"),
]


def cpu(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    get_registry()  # every plugin imported before the clock starts
    print("| position | solve | outcome | node values | node with pictures | warm | JSON |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for ruleset, text in POSITIONS:
        first_solve = cpu(lambda: solve(ruleset, text))  # noqa: B023
        outcome = cpu(lambda: explorer.outcome(ruleset, text, max_nodes=None, timeout=None))  # noqa: B023
        values = cpu(
            lambda: explorer.node(ruleset, text, max_nodes=None, timeout=None, pictures=False)  # noqa: B023
        )
        answer: dict = {}

        def full() -> None:
            answer.update(explorer.node(ruleset, text, max_nodes=None, timeout=None))  # noqa: B023

        whole = cpu(full)
        warm = min(cpu(full) for _ in range(args.repeat))
        size = len(json.dumps(answer, default=str))
        print(
            f"| {ruleset} `{text}` | {first_solve:.3f} s | {outcome:.3f} s | {values:.3f} s "
            f"| {whole:.3f} s | {warm:.3f} s | {size / 1024:.0f} kB |"
        )

    text = "|".join(["......"] * 6)
    wall = time.monotonic()
    node = explorer.node("domineering", text, max_nodes=None, timeout=2.0, pictures=False)
    wall = time.monotonic() - wall
    print(f"\ndomineering 6x6, --timeout 2: status {node['status']} after {wall:.2f} s wall")


if __name__ == "__main__":
    main()
