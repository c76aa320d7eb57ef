"""Benchmarks: ``python benchmarks/run.py [--quick] [--only NAME] [--repeat K]``.

Each instance is solved in a fresh child process, forked from this one before it has loaded
any plugin or solved anything (so interned values and caches start cold), ``--repeat``
times (default 3; 1 with ``--quick``); the table shows the median time, the positions the solver
expanded, its transposition-table hits, and the child's peak RSS.

Domineering rows also run the peers (``benchmarks/peers.py``): pycgt and cgt-py, each in a
fresh process with a timeout (``--peer-timeout``), median of ``--repeat``; the table gives
their times, the ratios peer/ours (above 1: we are faster) and whether all values agree,
compared as games in the core's value algebra. ``--no-peers`` skips them.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import platform
import re
import statistics
import sys
import tempfile
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

import cgframework  # noqa: F401  (imported once here; every forked child inherits it)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402  (benchmarks/ is not a package)

#: A small position solved before the clock starts, for a ruleset whose plugin imports a
#: library on first use (Arc-Kayles: igraph, for the BLISS labelling of graphs with a cycle).
WARM_UP = {"arc-kayles": "cycle:3"}


def solve_in_child(ruleset: str, position: str, method: str, dag_from: str) -> dict:
    """One timed solve, run in a forked child (see :func:`measure`): the plugin is loaded and
    the position parsed before the clock starts."""
    import resource
    import time

    from cgframework import get_registry, parse_position, solve

    if position.startswith("@"):  # large positions come in a file
        with open(position[1:]) as handle:
            position = handle.read()
    rules = get_registry().ruleset(ruleset)  # plugin loading is not part of the timing
    parsed = parse_position(rules, position)
    if ruleset in WARM_UP:  # nor the imports a plugin makes on first use
        solve(rules, WARM_UP[ruleset], method=method)
    start = time.perf_counter()
    solution = solve(rules, parsed, method=method)
    seconds = time.perf_counter() - start
    value = str(solution.value)
    if len(value) > 60:  # a game form (e.g. a guaranteed scoring game): its size, and the score
        value = f"{value[:24]}... ({len(value)} chars)"
    if "score" in solution.extra:
        value = f"score {solution.extra['score']}: {value}"
    result = {
        "seconds": seconds,
        "value": value,
        "nodes": solution.stats.nodes,
        "hits": solution.stats.cache_hits,
        "method": solution.method,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    if dag_from:
        result["dag"] = peers.core_dag(solution.value)  # the value as a DAG, compared as games
    return result


def _child_main(connection, *arguments: str) -> None:
    try:
        connection.send(solve_in_child(*arguments))
    except BaseException as error:  # report it to the parent, which raises it
        connection.send({"error": f"{type(error).__name__}: {error}"})
    finally:
        connection.close()


def board(rows: int, cols: int) -> str:
    return "|".join("." * cols for _ in range(rows))


def domineering(quick: bool) -> list[tuple[str, str, str, str]]:
    """The peers' instances (peers.py): 2xn for n = 4..12, 3x4, 4x4, 4x5, 4x6, 5x5."""
    sizes = peers.QUICK_SIZES if quick else peers.FULL_SIZES
    return [(f"domineering {r}x{c}", "domineering", board(r, c), "auto") for r, c in sizes]


def pizza_text(n: int) -> str:
    """A deterministic pseudo-random pizza of n slices with weights 0..12."""
    return ",".join(str((i * 7919 + 3) % 13) for i in range(n))


def as_file(text: str) -> str:
    handle = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
    handle.write(text)
    handle.close()
    return "@" + handle.name


def pizza(quick: bool) -> list[tuple[str, str, str, str]]:
    """Brown & Brown: the plateau algorithm (slices) and the arc DP against the generic
    minimax on pizzas; the slice partition against the generic (interval) minimax on tes."""
    rows = []
    for n in (10, 20, 40) if quick else (10, 20, 40, 80):
        for method in ("generic", "slices", "arc-dp"):
            rows.append((f"pizza n={n} {method}", "pizza", pizza_text(n), method))
    for n in (200, 400) if quick else (200, 400, 1000):
        rows.append((f"pizza n={n} slices", "pizza", as_file(pizza_text(n)), "slices"))
    for n in (1000,) if quick else (1000, 3000, 10**4):
        rows.append((f"pizza n={n} arc-dp", "pizza", as_file(pizza_text(n)), "arc-dp"))
    for n in (10**4,) if quick else (10**4, 10**5, 10**6):
        tes = "tes(" + pizza_text(n) + ")"
        rows.append((f"tes n={n} slices", "pizza", as_file(tes), "slices"))
    for n in (50, 100) if quick else (100, 200, 400):
        tes = "tes(" + pizza_text(n) + ")"
        rows.append((f"tes n={n} generic", "pizza", tes, "generic"))
    return rows


def wak(quick: bool) -> list[tuple[str, str, str, str]]:
    """Arc-Kayles grids 3 x n and WAK paths: wak-search against the core's Grundy search."""
    rows = []
    for n in (4, 5, 6) if quick else (4, 5, 6, 7, 8):
        for method in ("generic", "wak-search"):
            rows.append((f"ak-grid-3xn n={n} {method}", "arc-kayles", f"grid:3x{n}", method))
    for n in (20, 40) if quick else (20, 40, 80, 160):
        for method in ("generic", "wak-search"):
            rows.append((f"ak-cycle n={n} {method}", "arc-kayles", f"cycle:{n}", method))
    return rows


def octal(quick: bool) -> list[tuple[str, str, str, str]]:
    """Kayles heaps: the periodic-octal solver against the Grundy search; below 4096 both
    compute the sequence (O(n^2)), beyond it the proven period (Guy-Smith: 12) answers."""
    rows = []
    for n in (125, 250) if quick else (250, 500, 1000, 2000):
        for method in ("generic", "periodic-octal"):
            rows.append((f"kayles n={n} {method}", "kayles", str(n), method))
    # past DIRECT_LIMIT (4096) a heap's value comes from the proven period: O(1) per heap
    for n in (10**4, 10**6) if quick else (10**4, 10**6, 10**9):
        rows.append(
            (f"kayles-past-period n={n} periodic-octal", "kayles", str(n), "periodic-octal")
        )
    return rows


def influence(quick: bool) -> list[tuple[str, str, str, str]]:
    """Influence segments S_n: the segment solver against the core's generic minimax."""
    rows = []
    for n in (12, 16, 20) if quick else (12, 16, 20, 24, 28, 32):
        for method in ("generic", "influence-segments"):
            rows.append((f"influence-segment n={n} {method}", "influence", f"segment:{n}", method))
    return rows


def guaranteed(quick: bool) -> list[tuple[str, str, str, str]]:
    """Sums of n pizzas (cycles of 5 slices): the GS values of the components added
    canonically (``--method guaranteed``) against the generic minimax on the whole board,
    which multiplies the positions of the parts."""
    rows = []
    for n in (1, 2, 3) if quick else (1, 2, 3, 4, 5, 6):
        text = " + ".join(f"cyc({pizza_text(5 + i)})" for i in range(n))
        for method in ("generic", "guaranteed"):
            if method == "guaranteed" or n <= (2 if quick else 4):  # generic: ~30x a pizza
                rows.append((f"pizza-sum n={n} {method}", "pizza", text, method))
    return rows


def grids(quick: bool) -> list[tuple[str, str, str, str]]:
    """The classic rulesets of the grids plugin, each through its default solver;
    ``benchmarks/grids.py`` runs them against the peers."""
    boards = [
        ("clobber", "checker:2x4" if quick else "checker:3x4"),
        ("konane", "xoxo|o.ox|xoxo|oxo." if quick else "xoxox|o.ox.|xoxox|oxoxo"),
        ("cram", "rect:3x4" if quick else "rect:4x5"),
        ("fission", "....|.x..|..x.|...." if quick else ".....|.x...|.....|...x.|....."),
        ("amazons", "x...|...o" if quick else "x..|...|..o"),
        ("toads-and-frogs", "TTT...FFF" if quick else "TTTT....FFFF"),
        ("snort", "path:8" if quick else "grid:3x4"),
        ("col", "cycle:10" if quick else "grid:3x4"),
        ("hackenbush", "BRRBGGRB + GGGRB + BRBRBRBR"),
    ]
    return [(f"{ruleset} {position}", ruleset, position, "auto") for ruleset, position in boards]


def cheating_robot(quick: bool) -> list[tuple[str, str, str, str]]:
    """Cheating robot: sums of n switches {a|b|c}, the Thm 11 matching solver against the
    round search (exponential in n)."""
    rows = []
    for n in (4, 6, 8) if quick else (4, 6, 8, 10):
        text = " + ".join(f"{{{3 + i % 4}|{i % 3}|{-1 - i % 5}}}" for i in range(n))
        for method in ("rounds", "matching"):
            rows.append((f"cr-switches n={n} {method}", "cheating-robot", text, method))
    return rows


def loopy(quick: bool) -> list[tuple[str, str, str, str]]:
    """Loopy digraphs: k tokens on a cycle of n vertices with chords and a dead
    end; the generalized Sprague-Grundy route against retrograde analysis of the product
    graph of the tokens (``benchmarks/loopy.py`` goes to 10^6 positions)."""
    rows = []
    for n in (30, 60) if quick else (30, 60, 120):
        arcs = ",".join(f"{u}>{(u + 1) % n},{u}>{(u * 7 + 3) % n}" for u in range(n))
        text = f"{arcs},0>{n};1,{n // 3},{2 * n // 3}"
        for method in ("retrograde", "loopy-grundy"):
            rows.append((f"digraph-3-tokens n={n} {method}", "digraph", text, method))
    return rows


def growth(rows: list[tuple[str, ...]], seconds: list[float]) -> list[str]:
    """Least-squares exponent k of time ~ n^k for each series ``"<family> n=<n> <method>"``
    with at least two sizes (instances under 5 ms are too noisy to fit and are skipped)."""
    series: dict[str, list[tuple[float, float]]] = {}
    for row, t in zip(rows, seconds, strict=True):
        match = re.fullmatch(r"(\S+) n=(\d+) (\S+)", row[0])
        if match and t >= 0.005:
            key = f"{match[1]} {match[3]}"
            series.setdefault(key, []).append((math.log(int(match[2])), math.log(t)))
    return [
        f"{key}: time ~ n^{fit_exponent(points):.2f} over {len(points)} sizes"
        for key, points in series.items()
        if len(points) >= 2
    ]


def fit_exponent(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of log(time) against log(n)."""
    mx = statistics.mean(x for x, _ in points)
    my = statistics.mean(y for _, y in points)
    return sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)


GROUPS: dict[str, Callable[[bool], list[tuple[str, str, str, str]]]] = {
    "domineering": domineering,
    "pizza": pizza,
    "wak": wak,
    "octal": octal,
    "influence": influence,
    "guaranteed": guaranteed,
    "grids": grids,
    "cheating-robot": cheating_robot,
    "loopy": loopy,
}


def measure(ruleset: str, position: str, method: str, repeat: int, dag: bool = False) -> dict:
    """Median over ``repeat`` fresh children; with ``dag``, the value also comes back as a
    DAG of option lists (``peers.core_dag``) for comparing with the peers as games.

    Each child is forked from this process, which has imported ``cgframework`` but solved
    nothing and loaded no plugin: its interned values and caches start as cold as in a new
    interpreter, without paying the interpreter's start-up for every run (that start-up was
    most of ``--quick``'s time)."""
    context = multiprocessing.get_context("fork")
    runs = []
    for _ in range(repeat):
        receiver, sender = context.Pipe(duplex=False)
        child = context.Process(
            target=_child_main, args=(sender, ruleset, position, method, "yes" if dag else "")
        )
        child.start()
        sender.close()
        result = receiver.recv()
        child.join()
        if "error" in result:
            raise RuntimeError(f"{ruleset} {position[:60]!r} --method {method}: {result['error']}")
        runs.append(result)
    result = dict(runs[-1])
    result["seconds"] = statistics.median(r["seconds"] for r in runs)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small instances, < 1 minute")
    parser.add_argument("--only", choices=sorted(GROUPS), help="run one group")
    parser.add_argument(
        "--repeat", type=int, help="runs per instance, median (default 3, --quick 1)"
    )
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--no-peers", action="store_true", help="skip pycgt and cgt-py")
    parser.add_argument(
        "--peer-timeout",
        type=float,
        help="seconds per peer run before it counts as '> T s' (default 120, --quick 10)",
    )
    args = parser.parse_args()
    peer_timeout = args.peer_timeout or (10.0 if args.quick else 120.0)
    if args.repeat is None:
        args.repeat = 1 if args.quick else 3
    with_peers = not args.no_peers
    columns = ["instance", "value", "method", "median s", "nodes", "cache hits", "peak RSS MB"]
    if with_peers:
        columns += [f"{p} s" for p in peers.PEERS] + [f"{p}/ours" for p in peers.PEERS]
        columns += ["agree"]
    table = Table(title=f"cgframework benchmarks ({platform.python_version()})")
    for col in columns:
        table.add_column(col, justify="left" if col in ("instance", "value", "method") else "right")
    console = Console(width=200)
    progress = Console(stderr=True)  # keeps stdout to the table (--markdown > FILE)
    rows: list[tuple[str, ...]] = []
    seconds: list[float] = []
    peer_rows: list[dict[str, dict]] = []
    for group, make in GROUPS.items():
        if args.only and group != args.only:
            continue
        for label, ruleset, position, method in make(args.quick):
            size = re.fullmatch(r"domineering (\d+)x(\d+)", label)
            compare = with_peers and ruleset == "domineering" and size is not None
            r = measure(ruleset, position, method, args.repeat, dag=compare)
            row = (
                label,
                r["value"],
                r["method"],
                f"{r['seconds']:.3f}",
                str(r["nodes"]),
                str(r["hits"]),
                f"{r['rss_mb']:.0f}",
            )
            if compare:
                rc = int(size[1]), int(size[2])
                found = {
                    p: peers.measure_peer(p, *rc, args.repeat, peer_timeout) for p in peers.PEERS
                }
                peer_rows.append(found)
                ours = peers.from_dag(r["dag"])
                row += tuple(peers.time_cell(found[p]) for p in peers.PEERS)
                row += tuple(peers.ratio_cell(found[p], r["seconds"]) for p in peers.PEERS)
                row += (peers.agreement(ours, found),)
            elif with_peers:
                row += ("",) * (2 * len(peers.PEERS) + 1)
            rows.append(row)
            seconds.append(r["seconds"])
            table.add_row(*row)
            progress.print(f"done {label}: {r['seconds']:.3f} s", style="dim")
    fits = growth(rows, seconds)
    notes = peers.orientation_notes(peer_rows)
    if not args.markdown:
        console.print(table)
        for line in fits + notes:
            console.print(line)
        return
    print("| " + " | ".join(columns) + " |")
    align = {"instance", "value", "method", "agree"}
    print("| " + " | ".join("---" if c in align else "---:" for c in columns) + " |")
    for row in rows:
        print("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
    print()
    for line in fits + notes:
        print(f"- {line}")


if __name__ == "__main__":
    main()
