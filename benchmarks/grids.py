"""The grids plugin against the peers: ``python benchmarks/grids.py [--quick] [--timeout S]``.

For each shared ruleset (``cgframework_grids.peers.PEER_RULESETS``: Clobber, Cram and Toads and
Frogs with pycgt; Konane, Fission and Amazons with cgt-py; Snort and Col with both) a few
boards of growing size. Each solve (ours, and every peer that ships the ruleset) runs in a
fresh Python process, library imported and position built before the clock starts, so caches
start cold for everyone; the solve gets ``--timeout`` seconds (``> T s`` past it). A solve
under ``SHORT`` seconds is the median of ``REPEAT`` such processes. Values are
compared as games: each child prints its value as a DAG of option lists
(``cgframework.testing.to_dag``) and the parent rebuilds both with the core's ``game()``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

HERE = os.path.abspath(__file__)
sys.path.insert(0, os.path.dirname(HERE))
import peers  # noqa: E402  (benchmarks/ is not a package; its timed child call)

GRACE = 20.0

#: (ruleset, position) rows; the quick run takes the first two of each ruleset.
BOARDS: list[tuple[str, list[str]]] = [
    ("clobber", ["checker:2x4", "checker:1x12", "checker:2x6", "checker:3x4"]),
    ("cram", ["rect:3x4", "rect:4x4", "rect:4x5", "rect:5x5"]),
    ("toads-frogs", ["TT...FF", "TTT...FFF", "TTT....FFF", "TTTT....FFFF"]),
    (
        "konane",
        [
            "xoxo|o.ox|xoxo",
            "xoxo|o.ox|xoxo|oxo.",
            "xoxox|o.ox.|xoxox|oxoxo",
            "xo...|.xo..|..xo.|o..x.|.o..x",
            "xox..|oxo..|xox..|.....|.....",
            "xoxo|oxox|....|....|....|....",
            "xoxoxo|oxoxox|......|......|......",
            "xoxox|oxoxo|xoxox|.....|.....|.....",
            "xoxoxo|oxoxox|xoxoxo|......|......|......",
            ".xox.|xoxox|oxoxo|xoxox|.....|.....",
            "..xox.|.xoxox|xoxoxo|oxoxox|......|......",
        ],
    ),
    (
        "fission",
        [
            "...|.x.|...",
            "....|.x..|..x.|....",
            ".....|.x...|.....|...x.|.....",
            "....|.x..|....|....",
            ".....|.....|..x..|.....|.....",
            "....|.x..|....|..x.|....|....",
            "......|.x....|......|....x.|......",
        ],
    ),
    ("amazons", ["x..|..o", "x...|...o", "x..|...|..o", "x...|....|...o"]),
    ("snort", ["path:8", "cycle:10", "grid:3x4", "grid:4x4"]),
    ("col", ["path:8", "cycle:10", "grid:3x4", "grid:4x4"]),
]


#: A position without moves per ruleset, solved before the clock starts.
WARM_UP = {
    "clobber": "x",
    "cram": "#",
    "toads-frogs": "T",
    "konane": "x",
    "fission": "x",
    "amazons": "#",
    "snort": "path:0",
    "col": "path:0",
}


def child(who: str, ruleset: str, text: str, timeout: float) -> None:
    """Print one JSON line: status, seconds, the value as a DAG (``who``: a peer, or
    ``ours`` or ``ours=METHOD``, e.g. ``ours=canonical`` for the core's key search)."""
    from cgframework.testing import core_dag

    if who.startswith("ours"):
        from cgframework import get_registry, parse_position, solve

        method = who.partition("=")[2] or "auto"
        rules = get_registry().ruleset(ruleset)
        position = parse_position(rules, text)
        solve(rules, WARM_UP[ruleset], method=method)  # first-call set-up (lazy imports...)

        def run() -> Any:
            return solve(rules, position, method=method).value

        def dag(value: Any) -> Any:
            return core_dag(value)
    else:
        from cgframework_grids.peers import peer_dag, peer_solver

        try:
            run = peer_solver(who, ruleset, text)
        except ImportError as error:
            print(json.dumps({"status": "missing", "error": str(error)}))
            return

        def dag(value: Any) -> Any:
            return peer_dag(who, value)

    cpu = time.process_time()
    value, seconds = peers.timed_call(run, timeout)
    cpu = time.process_time() - cpu  # (this process's CPU: wall times move with the load)
    if seconds is None:
        print(json.dumps({"status": "timeout"}))
        return
    print(json.dumps({"status": "ok", "seconds": seconds, "cpu": cpu, "dag": dag(value)}))


#: A solve under SHORT seconds is timed in REPEAT fresh processes (the median): a single
#: first-in-process solve of a few hundred microseconds moves by a third from run to run.
SHORT, REPEAT = 0.05, 5


def measure(who: str, ruleset: str, text: str, timeout: float) -> dict:
    """One fresh process's result; for a short solve, the median of REPEAT processes
    (``seconds`` and ``cpu`` each their own median; the first run's value DAG)."""
    first = peers.run_child(HERE, [who, ruleset, text, str(timeout)], timeout + GRACE)
    if first["status"] != "ok" or first["seconds"] >= SHORT:
        return first
    runs = [first] + [
        peers.run_child(HERE, [who, ruleset, text, str(timeout)], timeout + GRACE)
        for _ in range(REPEAT - 1)
    ]
    if any(r["status"] != "ok" for r in runs):
        return first
    middle = REPEAT // 2
    return {
        **first,
        "seconds": sorted(r["seconds"] for r in runs)[middle],
        "cpu": sorted(r["cpu"] for r in runs)[middle],
    }


def cell(result: dict, timeout: float) -> str:
    if result["status"] == "ok":
        s = result["seconds"]
        return f"{s:.3f}" if s >= 0.01 else f"{s:.4f}"
    return f"> {timeout:g} s" if result["status"] == "timeout" else "-"


def ratio(peer: dict, ours: dict, timeout: float, field: str = "seconds") -> str:
    """Peer time over ours (above 1: we are faster); ``field`` ``cpu`` for CPU seconds."""
    if ours["status"] != "ok" or peer["status"] not in ("ok", "timeout"):
        return "-"
    theirs = peer[field] if peer["status"] == "ok" else timeout
    sign = "" if peer["status"] == "ok" else "> "
    return f"{sign}{theirs / max(ours[field], 1e-6):.2f}x"


def cpu_cells(ours: dict, theirs: dict) -> str:
    """``ours / peer`` CPU seconds of the solve (``-`` for one that did not finish)."""
    return "/".join(f"{r['cpu']:.3f}" if r["status"] == "ok" else "-" for r in (ours, theirs))


def md(text: str) -> str:
    """A table cell: a markdown table needs its bars escaped."""
    return text.replace("|", "\\|")


def short(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, with ``...`` when cut."""
    return text if len(text) <= width else text[: width - 3] + "..."


def agrees(theirs: dict, value: Any) -> str:
    """``yes`` / ``NO``: the peer's value against ours, compared as games; ``-`` when either
    is missing."""
    from cgframework.testing import from_dag

    if theirs["status"] == "ok" and value is not None:
        return "yes" if from_dag(theirs["dag"]) == value else "NO"
    return "-"


def canonical_text(ruleset: str, text: str) -> str:
    """Our canonical text of a position (generators expanded): the letters the peers read."""
    from cgframework import format_position, get_registry, parse_position

    rules = get_registry().ruleset(ruleset)
    return format_position(rules, parse_position(rules, text))


def empty_cells(ruleset: str, text: str) -> str:
    """The size column: empty cells of a board, squares of a strip, vertices of a graph."""
    from cgframework import get_registry, parse_position

    position = parse_position(get_registry().ruleset(ruleset), text)
    if hasattr(position, "order"):
        return f"{position.order} v"
    cells = getattr(position, "cells", "")
    return f"{cells.count('.')}/{len(cells)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--only", help="one ruleset")
    parser.add_argument("--peer", help="one peer (cgt-py or pycgt)")
    parser.add_argument("--position", help="only the boards written exactly so")
    parser.add_argument("--method", default="auto", help="our solver (default auto)")
    args = parser.parse_args()
    ours_as = "ours" if args.method == "auto" else f"ours={args.method}"
    from cgframework.testing import from_dag
    from cgframework_grids.peers import PEER_RULESETS

    print(
        "| ruleset | position | empty/cells | value | ours s | peer | peer s | peer/ours | agree "
        "| CPU ours/peer s | CPU peer/ours |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for ruleset, boards in BOARDS:
        if args.only and ruleset != args.only:
            continue
        for written in boards[:2] if args.quick else boards:
            if args.position and written != args.position:
                continue
            text = canonical_text(ruleset, written)  # what the peers are given
            ours = measure(ours_as, ruleset, text, args.timeout)
            value = from_dag(ours["dag"]) if ours["status"] == "ok" else None
            shown = short(str(value) if value is not None else "-", 30)
            for peer, shipped in PEER_RULESETS.items():
                if ruleset not in shipped or args.peer not in (None, peer):
                    continue
                theirs = measure(peer, ruleset, text, args.timeout)
                print(
                    f"| {ruleset} | {md(written)} | {empty_cells(ruleset, text)} | {md(shown)} | "
                    f"{cell(ours, args.timeout)} | {peer} | {cell(theirs, args.timeout)} | "
                    f"{ratio(theirs, ours, args.timeout)} | {agrees(theirs, value)} | "
                    f"{cpu_cells(ours, theirs)} | {ratio(theirs, ours, args.timeout, 'cpu')} |",
                    flush=True,
                )


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "_child":
        child(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]))
    else:
        main()
