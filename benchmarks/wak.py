"""Arc-Kayles and WAK: the auto solver (specialised solvers, Proposition 1 reductions,
components, certificate cache) against ``--method generic`` (the core's Grundy search:
components and the certificate key, no reductions) and the plain memoised brute force (no
canonical key, no decomposition: the wak plugin's oracle).

``python benchmarks/wak.py [--quick] [--timeout S]`` prints a markdown table: for each
instance and method the value, seconds and positions (auto/generic: positions expanded,
i.e. cache misses; plain: labelled positions memoised), and the speed-up of auto. Each run
is a fresh process (cold caches) killed after the timeout.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time

METHODS = ("auto", "generic", "plain")


def random_tree(n: int, seed: int, max_w: int = 4) -> str:
    """A WAK tree of n vertices (random parent, random counters 1..max_w), as JSON."""
    rng = random.Random(seed)
    edges = [[rng.randrange(v), v] for v in range(1, n)]
    weights = [rng.randint(1, max_w) for _ in range(n)]
    return json.dumps({"n": n, "edges": edges, "loops": [], "weights": weights})


def instances(quick: bool) -> list[tuple[str, str, str]]:
    """(label, ruleset, position text)."""
    grids3 = range(4, 8) if quick else range(4, 11)
    grids4 = range(4, 6) if quick else range(4, 8)
    out = [(f"grid 3x{c}", "arc-kayles", f"grid:3x{c}") for c in grids3]
    out += [(f"grid 4x{c}", "arc-kayles", f"grid:4x{c}") for c in grids4]
    if not quick:
        out += [("grid 5x5", "arc-kayles", "grid:5x5"), ("grid 5x6", "arc-kayles", "grid:5x6")]
    out += [
        (f"cycle C_{n}", "arc-kayles", f"cycle:{n}") for n in ((20, 40) if quick else (20, 40, 80))
    ]
    out += [
        (f"wheel W_{n}", "arc-kayles", f"wheel:{n}") for n in ((12, 20) if quick else (12, 20, 30))
    ]
    trees = [(12, 1), (16, 2)] if quick else [(12, 1), (16, 2), (20, 3), (24, 4)]
    out += [(f"WAK tree n={n} (seed {s})", "wak", random_tree(n, s)) for n, s in trees]
    out += [
        ("WAK G_4 (27 vertices)", "wak", "@unbounded:4"),
        ("WAK G_5 (81)", "wak", "@unbounded:5"),
    ]
    return out


def _position(ruleset: str, text: str):
    from cgframework import get_registry, parse_position
    from cgframework_wak.families import unbounded

    if text.startswith("@unbounded:"):
        return unbounded(int(text.split(":")[1]))[0]
    return parse_position(get_registry().ruleset(ruleset), text)


def run_one(method: str, ruleset: str, text: str) -> dict:
    """Solve once in this process; seconds exclude plugin loading and parsing."""
    from cgframework import solve
    from cgframework_wak.oracle import Oracle

    position = _position(ruleset, text)
    solve(ruleset, "path:2")  # load the plugins and warm the imports
    start = time.perf_counter()
    if method == "plain":
        oracle = Oracle(position)
        value = oracle.value()
        positions = len(oracle.memo)
        used = "plain memo"
    else:
        solution = solve(ruleset, position, method=method)
        value, positions, used = solution.grundy, solution.stats.nodes, solution.method
    return {
        "value": value,
        "seconds": time.perf_counter() - start,
        "positions": positions,
        "method": used,
    }


def measure(method: str, ruleset: str, text: str, timeout: float) -> dict | None:
    cmd = [sys.executable, __file__, "--one", method, ruleset, text]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small instances, 10 s timeout")
    parser.add_argument("--timeout", type=float, default=None, help="seconds per baseline run")
    parser.add_argument(
        "--auto-timeout", type=float, default=None, help="seconds per auto run (default 120)"
    )
    parser.add_argument(
        "--one", nargs=3, metavar=("METHOD", "RULESET", "TEXT"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(*args.one)))
        return
    timeout = args.timeout or (10.0 if args.quick else 60.0)
    print(
        f"baselines stopped after {timeout:g} s; positions: auto/generic expanded, plain memoised\n"
    )
    print(
        "| instance | G | auto s | auto positions | auto method | generic s | generic positions "
        "| plain s | plain positions | generic/auto | plain/auto |"
    )
    print("| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for label, ruleset, text in instances(args.quick):
        limit = {"auto": args.auto_timeout or (10.0 if args.quick else 120.0)}
        results = {m: measure(m, ruleset, text, limit.get(m, timeout)) for m in METHODS}
        print(row(label, results, timeout), flush=True)


def row(label: str, results: dict[str, dict | None], timeout: float) -> str:
    """One markdown row; the methods must agree on the value."""
    auto = results["auto"]
    values = {r["value"] for r in results.values() if r is not None}
    if len(values) > 1:
        raise SystemExit(f"{label}: methods disagree: {results}")

    def cell(m: str, key: str) -> str:
        r = results[m]
        if r is None:
            return f"> {timeout:g}" if key == "seconds" else "-"
        return f"{r[key]:.3f}" if key == "seconds" else str(r[key])

    def ratio(m: str) -> str:
        r = results[m]
        if auto is None:
            return "-"
        if r is None:
            return f"> {timeout / max(auto['seconds'], 1e-6):.0f}x"
        return f"{r['seconds'] / max(auto['seconds'], 1e-6):.1f}x"

    value = next(iter(values)) if values else "?"
    return (
        f"| {label} | {value} | {cell('auto', 'seconds')} | {cell('auto', 'positions')} "
        f"| {cell('auto', 'method')} | {cell('generic', 'seconds')} "
        f"| {cell('generic', 'positions')} | {cell('plain', 'seconds')} "
        f"| {cell('plain', 'positions')} | {ratio('generic')} | {ratio('plain')} |"
    )


if __name__ == "__main__":
    main()
