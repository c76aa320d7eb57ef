"""The generic canonical search against the peers:
``python benchmarks/generic_search.py [--quick] [--repeat N] [--timeout S] [--only GROUP]``.

Rulesets with **no fast hooks**, written as ``docs/writing-a-plugin.md`` teaches: the tutorial
Toads and Frogs (``docs/example-plugin``: options only, plus its registered simplification),
and plain Clobber and Cram (``tests/plain_rulesets.py``: options, components, a symmetric
``canonical_key``; Cram solved with ``method="canonical"``, not the Grundy search), against
pycgt on the same positions; and Domineering on irregular boards (17-28 empty cells, its
``option_keys`` search) against cgt-py.

Each solve runs in a fresh Python process (library imported, position built and a trivial
position solved before the clock starts, so caches start cold for everyone). ``--repeat N``
runs ours and the peer back to back N times and reports the median of each. Values are
compared as games: each child prints its value as a DAG of option lists and the parent
rebuilds both with the core's ``game()``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from typing import Any

HERE = os.path.abspath(__file__)
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import peers  # noqa: E402  (benchmarks/ is not a package; its timed child call)
from grids import agrees, cell, md, ratio, short  # noqa: E402  (table cells, as in the grids table)

GRACE = 20.0

#: (group, ruleset, peer, positions); the quick run takes the first two of each group.
GROUPS: list[tuple[str, str, str, list[str]]] = [
    (
        "toads",
        "toads-tutorial",
        "pycgt",
        [
            "TTTT....FFFF",
            "TTT.T.F..FFF",
            "TTTT.....FFFF",
            "TTTTT....FFFFF",
            "TTT.........FFF",
        ],
    ),
    (
        "clobber",
        "plain-clobber",
        "pycgt",
        [
            "xoxoxo|oxoxox",
            "xoxo|oxox|xoxo",
            "xoxoxox|oxoxoxo",
            "xoxo|ox.x|x.xo|oxox",
            "xo.x|oxox|x.ox|oxo.",
            "xoxoxoxoxoxoxoxo",
        ],
    ),
    (
        "cram",
        "plain-cram",
        "pycgt",
        [
            "....|....|....",
            ".......|.......",
            "....|....|....|....",
            ".....|.....|.....",
            "....#|.....|.....|.....",
        ],
    ),
    (
        "domineering",
        "domineering",
        "cgt-py",
        [
            "....|.#..|....|..#.|....",
            ".....|.....|..#..|.....",
            "#....|.....|.....|....#|.....",
            "......|..#...|......|...#..|......",
            "#.....|......|......|......|.....#",
            "......|.#..#.|......|......|......",
        ],
    ),
]

SMALL = 0.2
"""Positions whose first solve of ours takes less (seconds) are run at least five times."""

#: A position without moves per ruleset, solved before the clock starts.
WARM_UP = {"toads-tutorial": "T", "plain-clobber": "x", "plain-cram": "#", "domineering": "#"}
METHOD = {"plain-cram": "canonical"}


def our_ruleset(name: str) -> Any:
    from cgframework import get_registry, load_plugin

    if name == "toads-tutorial":
        sys.path.insert(0, os.path.join(ROOT, "docs", "example-plugin"))
        load_plugin("cgframework_toads.plugin")
        return get_registry().ruleset(name)
    if name.startswith("plain-"):
        sys.path.insert(0, os.path.join(ROOT, "tests"))
        import plain_rulesets

        return {
            "plain-clobber": plain_rulesets.PlainClobber,
            "plain-cram": plain_rulesets.PlainCram,
        }[name]()
    return get_registry().ruleset(name)


def peer_run(peer: str, ruleset: str, text: str) -> Any:
    if peer == "cgt-py":
        import cgt_py

        return lambda: cgt_py.Domineering(text).canonical_form
    from pycgt.rulesets import clobber, cram, grid, toads_and_frogs

    if ruleset == "toads-tutorial":
        word = text.lower()
        return lambda: toads_and_frogs.value(word)
    if ruleset == "plain-clobber":
        board = clobber.board(text)
        return lambda: clobber.value(board)
    position = grid.Position.parse(text.replace("|", "\n"))
    return lambda: grid.value(position, cram.CRAM)


def child(who: str, ruleset: str, text: str, timeout: float) -> None:
    """Print one JSON line: status, seconds, the value as a DAG (and our search's counts)."""
    from cgframework.testing import core_dag, to_dag

    extra: dict[str, Any] = {}
    if who == "ours":
        from cgframework import parse_position, solve

        rules = our_ruleset(ruleset)
        position = parse_position(rules, text)
        method = METHOD.get(ruleset, "auto")
        solve(rules, WARM_UP[ruleset], method=method)  # lazy imports, first-call set-up
        solution: list[Any] = []

        def run() -> Any:
            solution.append(solve(rules, position, method=method))
            return solution[-1].value

        dag = core_dag
    else:
        run = peer_run(who, ruleset, text)
        if who == "pycgt":

            def dag(value: Any) -> Any:
                return to_dag(value, lambda g: (g.left, g.right), lambda g: g)
        else:

            def dag(value: Any) -> Any:
                return to_dag(value, lambda g: (g.left_options, g.right_options), repr)

    cpu = time.process_time()
    value, seconds = peers.timed_call(run, timeout)
    cpu = time.process_time() - cpu
    if seconds is None:
        print(json.dumps({"status": "timeout"}))
        return
    if who == "ours":
        stats = solution[-1].stats
        extra = {"nodes": stats.nodes, "method": solution[-1].method}
    extra["cpu"] = cpu
    print(json.dumps({"status": "ok", "seconds": seconds, "dag": dag(value), **extra}))


def measure(who: str, ruleset: str, text: str, timeout: float) -> dict:
    return peers.run_child(HERE, [who, ruleset, text, str(timeout)], timeout + GRACE)


def median_of(runs: list[dict]) -> dict:
    ok = [r for r in runs if r["status"] == "ok"]
    if len(ok) < len(runs):
        return next(r for r in runs if r["status"] != "ok")
    result = dict(ok[-1])
    result["seconds"] = statistics.median(r["seconds"] for r in ok)
    result["cpu"] = statistics.median(r["cpu"] for r in ok)
    return result


def cpu_ratio(peer: dict, ours: dict) -> str:
    """Peer CPU seconds over ours (the machine is shared: CPU time is the steadier measure)."""
    if ours["status"] != "ok" or peer["status"] != "ok":
        return "-"
    return f"{peer['cpu'] / max(ours['cpu'], 1e-6):.2f}x"


def size(ruleset: str, text: str) -> str:
    """Cells of a strip; empty cells over cells of a board (stones over cells for Clobber)."""
    cells = text.replace("|", "")
    if ruleset == "plain-clobber":
        return f"{len(cells) - cells.count('.')}/{len(cells)}"
    if ruleset == "toads-tutorial":
        return str(len(cells))
    return f"{cells.count('.')}/{len(cells)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--only", help="one group: toads, clobber, cram or domineering")
    args = parser.parse_args()
    from cgframework.testing import from_dag

    print(
        "| ruleset | position | size | value | ours s | nodes | peer | peer s | peer/ours"
        " | CPU peer/ours | agree |"
    )
    print("|---|---|---|---|---:|---:|---|---:|---:|---:|---|")
    for group, ruleset, peer, positions in GROUPS:
        if args.only and group != args.only:
            continue
        for text in positions[:2] if args.quick else positions:
            ours_runs, peer_runs = [], []
            repeat = args.repeat
            while len(ours_runs) < repeat:  # back to back, so both see the same load
                ours_runs.append(measure("ours", ruleset, text, args.timeout))
                peer_runs.append(measure(peer, ruleset, text, args.timeout))
                if ours_runs[0].get("seconds", 1) < SMALL:  # milliseconds: noisy, run more
                    repeat = max(repeat, 5)
            ours, theirs = median_of(ours_runs), median_of(peer_runs)
            value = from_dag(ours["dag"]) if ours["status"] == "ok" else None
            shown = short(str(value) if value is not None else ours.get("error", "-"), 24)
            print(
                f"| {ruleset} | {md(text)} | {size(ruleset, text)} | {md(shown)} | "
                f"{cell(ours, args.timeout)} | {ours.get('nodes', '-')} | {peer} | "
                f"{cell(theirs, args.timeout)} | {ratio(theirs, ours, args.timeout)} | "
                f"{cpu_ratio(theirs, ours)} | {agrees(theirs, value)} |",
                flush=True,
            )


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "_child":
        child(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]))
    else:
        main()
