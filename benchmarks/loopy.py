"""Benchmark: loopy games.

Retrograde outcomes (win/loss/draw with each player first) on the product graph of two
tokens on a random digraph, up to 10^6 reachable positions; the generalized Sprague-Grundy
function of every vertex of random digraphs up to 10^5 vertices. Each row runs in a fresh
process; time is the solve (graph building included, parsing excluded); peak RSS is the
child's maximum resident set size.

Sides: the onside and offside of one partizan token's game as stoppers
(values.loopy_sides), and sums of many partizan tokens by ``--method loopy-sides`` (each
token's sides, summed side by side) against ``retrograde`` on the product graph, and
``auto`` (sides for a large sum: solvers.sides.SIDES_FROM_STATES).

Run: python benchmarks/loopy.py [--quick] [--sides (only the sides rows)]
"""

from __future__ import annotations

import json
import random
import subprocess
import sys


def random_arcs(n: int, seed: int, labels: tuple[str, ...] = ("",), cycle: bool = True) -> str:
    """Vertices 0..n-1 with 0-2 arcs each to uniformly random vertices (0-3 without the
    cycle); with ``cycle``, also a Hamiltonian cycle u -> u+1 (every vertex reachable) and an
    arc from every 7th vertex to the dead end n."""
    rng = random.Random(seed)
    arcs = []

    def arc(u: int, v: int) -> None:
        label = rng.choice(labels)
        arcs.append(f"{u}>{v}" + (f":{label}" if label else ""))

    for u in range(n):
        if cycle:
            arc(u, (u + 1) % n)
            if u % 7 == 0:
                arc(u, n)
        for _ in range(rng.randint(0, 2 if cycle else 3)):
            arc(u, rng.randrange(n))
    return ",".join(arcs)


CHILD = r"""
import json, resource, sys, time
from cgframework import Player, SolveContext, get_registry, solve
from cgframework.solvers.retrograde import PositionGraph, generalized_grundy, solve_retrograde
kind, ruleset_name, text = sys.argv[1], sys.argv[2], sys.stdin.read()
rs = get_registry().ruleset(ruleset_name)
pos = rs.parse(text)
start = time.perf_counter()
if kind in ("sides", "method"):
    pass
elif kind == "retrograde":
    sol = solve_retrograde(rs, pos, SolveContext())
    states, result = sol.stats.nodes, sol.outcome.value
else:
    singles = [type(pos)(pos.graph, (v,)) for v in range(int(sys.argv[3]))]
    start = time.perf_counter()
    graph = PositionGraph(rs, singles, impartial=True)
    values = generalized_grundy(graph)
    states = graph.size
    infinite = sum(1 for v in values if not isinstance(v, int))
    result = f"max {max((v for v in values if isinstance(v, int)), default=None)}, {infinite} inf"
if kind == "sides":
    from cgframework.solvers.sides import position_game
    from cgframework.values.loopy.notation import sides_text
    from cgframework.values.loopy.sides import SidesLimit, offside, onside

    game = position_game(rs, pos)
    start = time.perf_counter()
    states = game.size
    try:
        result = sides_text(onside(game), offside(game))
    except SidesLimit as exc:
        result = "limit: " + str(exc).split(" stopped")[0].replace("the search for ", "")
elif kind == "method":
    sol = solve(rs, pos, method=sys.argv[3])
    states, result = sol.stats.nodes, f"{sol.value} ({sol.outcome.value})"
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
print(json.dumps({"states": states, "result": result, "seconds": seconds, "peak": peak}))
"""


def run(kind: str, ruleset: str, text: str, *extra: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, kind, ruleset, *extra],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def main() -> None:
    quick = "--quick" in sys.argv
    print("| case | reachable states | result | seconds | peak RSS MB |")
    print("| --- | ---: | --- | ---: | ---: |")
    if "--sides" not in sys.argv:
        outcomes_and_grundy(quick)
    sides(quick)


def outcomes_and_grundy(quick: bool) -> None:
    sizes = (100, 300) if quick else (100, 300, 1000, 1414)
    for n in sizes:
        text = random_arcs(n, seed=n) + ";0,1"
        row = run("retrograde", "digraph", text)
        print(
            f"| retrograde, digraph, 2 tokens, {n} vertices | {row['states']} | "
            f"{row['result']} | {row['seconds']:.2f} | {row['peak']} |"
        )
    for n in (100, 300) if quick else (100, 300, 700):
        text = random_arcs(n, seed=n, labels=("L", "R")) + ";0,1"
        row = run("retrograde", "partizan-digraph", text)
        print(
            f"| retrograde, partizan-digraph, 2 tokens, {n} vertices | {row['states']} | "
            f"{row['result']} | {row['seconds']:.2f} | {row['peak']} |"
        )
    for n in (10**3, 10**4) if quick else (10**3, 10**4, 10**5):
        text = random_arcs(n, seed=n, cycle=False) + ";0"
        row = run("grundy", "digraph", text, str(n))
        print(
            f"| generalized Sprague-Grundy, every vertex, {n} vertices | {row['states']} | "
            f"{row['result']} | {row['seconds']:.2f} | {row['peak']} |"
        )


def sides(quick: bool) -> None:
    for n in (20, 80) if quick else (20, 80, 150, 200):
        text = random_arcs(n, seed=n, labels=("L", "R")) + ";0"
        row = run("sides", "partizan-digraph", text)
        print(
            f"| sides as stoppers, one partizan token, {n} vertices | {row['states']} | "
            f"{row['result']} | {row['seconds']:.2f} | {row['peak']} |"
        )
    for k in (3, 5) if quick else (3, 4, 5, 6, 8):
        text = random_arcs(20, seed=20, labels=("L", "R")) + ";" + ",".join(map(str, range(k)))
        for method in ("auto", "loopy-sides", "retrograde"):
            row = run("method", "partizan-digraph", text, method)
            print(
                f"| {method}, partizan-digraph, {k} tokens, 20 vertices | {row['states']} | "
                f"{row['result']} | {row['seconds']:.2f} | {row['peak']} |"
            )


if __name__ == "__main__":
    main()
