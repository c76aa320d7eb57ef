"""Who wins, by the outcome search (``solve(..., outcome_only=True)``) and by the canonical
value: CPU seconds and nodes of each, every case in a fresh child process (no warm caches).

    python benchmarks/outcome_search.py                      # every case, 120 s CPU cap each
    python benchmarks/outcome_search.py --cases clobber-xo-16 domineering-5x6 --cap 60
    python benchmarks/outcome_search.py --no-canonical       # the outcome search alone

Prints a markdown table: case, outcome, CPU s and nodes of each route (``>cap`` when the
child was stopped at the cap).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import resource
import sys

CASES: dict[str, tuple[str, str]] = {
    **{f"clobber-xo-{n}": ("clobber", "xo" * n) for n in range(10, 31)},
    "clobber-4x4": ("clobber", "checker:4x4"),
    "clobber-4x5": ("clobber", "checker:4x5"),
    "clobber-5x5": ("clobber", "checker:5x5"),
    "domineering-5x5": ("domineering", "|".join(["....."] * 5)),
    "domineering-5x6": ("domineering", "|".join(["......"] * 5)),
    "domineering-6x6": ("domineering", "|".join(["......"] * 6)),
    "amazons-3x4": ("amazons", "x...|....|...o"),
}
DEFAULT = [
    *(f"clobber-xo-{n}" for n in (10, 12, 14, 16, 18, 20, 22)),
    "clobber-4x4",
    "clobber-4x5",
    "domineering-5x6",
    "domineering-6x6",
    "amazons-3x4",
]


def _child(ruleset: str, text: str, outcome_only: bool, conn) -> None:
    from cgframework import solve

    solution = solve(ruleset, text, outcome_only=outcome_only)
    extra = solution.extra.get("search", {})
    conn.send({"outcome": solution.outcome.value, "nodes": solution.stats.nodes, **extra})


def measure(ruleset: str, text: str, outcome_only: bool, cap: float) -> dict:
    """Solve in a child limited to ``cap`` CPU seconds; its CPU time and answer."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    parent, child = multiprocessing.Pipe(False)
    proc = multiprocessing.Process(target=_limited, args=(ruleset, text, outcome_only, child, cap))
    proc.start()
    proc.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    result = parent.recv() if parent.poll() else None
    return {"cpu": cpu, "result": result}


def _limited(ruleset: str, text: str, outcome_only: bool, conn, cap: float) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (int(cap) + 1, int(cap) + 1))
    _child(ruleset, text, outcome_only, conn)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="*", default=DEFAULT, choices=sorted(CASES))
    parser.add_argument("--cap", type=float, default=120.0, help="CPU seconds per child")
    parser.add_argument("--no-canonical", action="store_true")
    args = parser.parse_args(argv)
    print("| case | outcome | search CPU s | search nodes | canonical CPU s | canonical nodes |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for name in args.cases:
        ruleset, text = CASES[name]
        ours = measure(ruleset, text, True, args.cap)
        theirs = None if args.no_canonical else measure(ruleset, text, False, args.cap)
        cells = [name]
        got = ours["result"]
        cells.append(got["outcome"] if got else "?")
        cells.append(f"{ours['cpu']:.2f}" if got else f">{args.cap:g}")
        cells.append(json.dumps({k: v for k, v in got.items() if k != "outcome"}) if got else "")
        if theirs is None:
            cells += ["", ""]
        else:
            found = theirs["result"]
            cells.append(f"{theirs['cpu']:.2f}" if found else f">{args.cap:g}")
            cells.append(str(found["nodes"]) if found else "")
            if found and got and found["outcome"] != got["outcome"]:
                cells[1] += f" (canonical: {found['outcome']}!)"
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
