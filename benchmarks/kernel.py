"""What the compiled canonical-form kernel buys:
``python benchmarks/kernel.py [--repeat N] [--only GROUP] [--timeout S]``.

Each solve runs in a fresh process twice, back to back: with ``CGFRAMEWORK_PURE_PYTHON=1``
(the pure-Python value algebra) and without (``cgframework/values/_k_canonical.c``, when it
is built). The positions are those of ``generic_search.py`` (the tutorial Toads and Frogs,
plain Clobber and Cram, irregular Domineering), ``run.py``'s Domineering rectangles and
``grids.py``'s Fission boards. Library imported, ruleset loaded and a trivial position
solved before the clock starts; medians of ``--repeat`` runs; ``CPU pure/kernel`` is the ratio
of the processes' CPU seconds over the solve (steadier than wall time on a shared machine).
The values must be the same (compared as text).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.abspath(__file__)
sys.path.insert(0, os.path.dirname(HERE))

#: (group, ruleset, positions)
CASES: list[tuple[str, str, list[str]]] = [
    (
        "toads",
        "toads-tutorial",
        ["TTTT....FFFF", "TTT.T.F..FFF", "TTTT.....FFFF", "TTTTT....FFFFF"],
    ),
    ("clobber", "plain-clobber", ["xoxoxo|oxoxox", "xoxo|oxox|xoxo", "xoxoxox|oxoxoxo"]),
    ("cram", "plain-cram", ["....|....|....|....", "....#|.....|.....|....."]),
    (
        "domineering",
        "domineering",
        [
            "....|.#..|....|..#.|....",
            ".....|.....|..#..|.....",
            "#....|.....|.....|....#|.....",
            "......|......|......|......",
            ".....|.....|.....|.....|.....",
        ],
    ),
    (
        "fission",
        "fission",
        [
            ".....|.x...|.....|...x.|.....",
            ".....|.....|..x..|.....|.....",
            "....|.x..|....|..x.|....|....",
        ],
    ),
]
WARM_UP = {"fission": "x"}


def child(ruleset: str, text: str) -> None:
    """Print one JSON line: seconds, CPU seconds, the value's text, kernel on or off."""
    import generic_search

    from cgframework import parse_position, solve
    from cgframework.values import canonical

    rules = generic_search.our_ruleset(ruleset)
    method = generic_search.METHOD.get(ruleset, "auto")
    warm = WARM_UP.get(ruleset) or generic_search.WARM_UP[ruleset]
    solve(rules, warm, method=method)
    position = parse_position(rules, text)
    cpu, wall = time.process_time(), time.perf_counter()
    solution = solve(rules, position, method=method)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    info = {
        "seconds": wall,
        "cpu": cpu,
        "value": str(solution.value),
        "kernel": canonical._kernel is not None,
        "forms": canonical.cache_info()["interned"],
    }
    print(json.dumps(info))


def run(ruleset: str, text: str, pure: bool, timeout: float) -> dict:
    env = {**os.environ, "CGFRAMEWORK_PURE_PYTHON": "1" if pure else "0"}
    try:
        done = subprocess.run(
            [sys.executable, HERE, "_child", ruleset, text],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    lines = done.stdout.strip().splitlines()
    if done.returncode or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"status": "error", "error": tail}
    return {"status": "ok", **json.loads(lines[-1])}


def median(runs: list[dict]) -> dict:
    bad = [r for r in runs if r["status"] != "ok"]
    if bad:
        return bad[0]
    return {
        **runs[-1],
        "seconds": statistics.median(r["seconds"] for r in runs),
        "cpu": statistics.median(r["cpu"] for r in runs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default=None, help="toads, clobber, cram, domineering, fission")
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} at start")
    print(
        "| ruleset | position | forms | value | pure s | kernel s | pure/kernel "
        "| CPU pure s | CPU kernel s | CPU pure/kernel | same value |"
    )
    print("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---|")
    for group, ruleset, positions in CASES:
        if args.only and args.only != group:
            continue
        for text in positions:
            pure_runs, kernel_runs = [], []
            for _ in range(args.repeat):
                pure_runs.append(run(ruleset, text, True, args.timeout))
                kernel_runs.append(run(ruleset, text, False, args.timeout))
            pure, kernel = median(pure_runs), median(kernel_runs)
            if pure["status"] != "ok" or kernel["status"] != "ok":
                print(f"| {ruleset} | {text} | {pure['status']} / {kernel['status']} |")
                continue
            if not kernel["kernel"]:
                print("the kernel is not built: python setup.py build_ext --inplace")
                return
            value = kernel["value"]
            shown = value if len(value) <= 24 else value[:21] + "..."
            print(
                f"| {ruleset} | {text.replace('|', chr(92) + '|')} | {kernel['forms']} "
                f"| {shown.replace('|', chr(92) + '|')} "
                f"| {pure['seconds']:.3f} | {kernel['seconds']:.3f} "
                f"| {pure['seconds'] / kernel['seconds']:.2f}x "
                f"| {pure['cpu']:.3f} | {kernel['cpu']:.3f} | {pure['cpu'] / kernel['cpu']:.2f}x "
                f"| {'yes' if pure['value'] == value else 'NO'} |",
                flush=True,
            )
    print(f"load average {os.getloadavg()[0]:.1f} at end")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "_child":
        child(sys.argv[2], sys.argv[3])
    else:
        main()
