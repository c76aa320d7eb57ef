"""Benchmark: Guaranteed Scoring Games (``guaranteed`` plugin): canonical forms and the Thm 44
comparison against game size, and incremental sums of pizza values.

Run: ``python benchmarks/guaranteed.py [--quick] [--markdown] [--limit S] [--pizzas K]``

1. ``canonical`` of random "hot" sums that barely simplify (digest 004 Section 5): raw sums of
   canonical random small guaranteed games (depth <= 2, 1-3 options a side, integer atoms in
   -5..5, Ls > Rs), from ~100 raw followers up by a factor ~sqrt(2) until one takes longer
   than the limit (60 s; ``--quick`` 1 s). Nodes = distinct followers (``size``); ``ge
   calls``/``ge misses`` are ``order.stats`` (misses = memoised pairs). Every measurement
   starts from cold memos (``clear_caches``; the interned games stay).
2. ``ge`` (Thm 44) on the same instances: the raw sum G against its canonical form C, both
   ways (both true), and G against a different raw sum D (the last summand replaced).
3. A sum of k random pizzas (cycles of 3-6 slices, weights 0..5): each pizza's GS value
   (``solve(..., method="guaranteed")``) added to the canonical running sum and reduced
   (``acc = canonical(acc + v)``); ``Ls`` and ``-Rs`` are checked against the pizza plugin's
   own solver (Left first, Right first) and the final sum against the GS plugin's value of
   the whole board (``scoring_value``; not ``solve(..., method="guaranteed")``, whose optimal
   moves build raw sums of the component values, exponential in k).
4. Fitted growth exponents (seconds ~ nodes^a) and the peak RSS.
"""

from __future__ import annotations

import argparse
import math
import random
import resource
import signal
import sys
import time

from cgframework import Player, get_registry, parse_position, solve
from cgframework.extensions import SolveContext
from cgframework_guaranteed import order
from cgframework_guaranteed.canonical import canonical, clear_caches
from cgframework_guaranteed.games import ZERO, ScoringGame, add, add_all, atomic, game, size
from cgframework_guaranteed.ruleset import scoring_value

ATOMS = (-5, 5)


def random_game(rng: random.Random, depth: int) -> ScoringGame:
    """A random form (digest 004 Section 3 settings); may be non-guaranteed."""
    lo, hi = ATOMS
    if depth == 0 or rng.random() < 0.15:
        a, b = sorted((rng.randint(lo, hi), rng.randint(lo, hi)))
        return atomic(a, b)

    def side():
        if rng.random() < 0.3:
            return rng.randint(lo, hi)
        return [random_game(rng, depth - 1) for _ in range(rng.randint(1, 3))]

    return game(side(), side())


def component(rng: random.Random) -> ScoringGame:
    """A canonical hot (Ls > Rs) guaranteed game with at least 3 followers."""
    while True:
        g = random_game(rng, 2)
        if not g.guaranteed:
            continue
        c = canonical(g)
        if size(c) >= 3 and c.stops.Ls > c.stops.Rs:
            return c


def hot_sum(target: int, rng: random.Random) -> tuple[ScoringGame, list[ScoringGame]]:
    """A raw sum of canonical components with about ``target`` followers: random summands
    while more than 19 (the largest component) are missing, each leaving a factor >= 3, then
    the one of 40 candidates whose size brings the product nearest the target."""
    acc, parts, n = ZERO, [], 1
    while target / n > 19:
        c = component(rng)
        if n * size(c) * 3 <= target:
            parts.append(c)
            acc = add(acc, c)
            n = size(acc)
    if target / n >= 2:
        pool = [component(rng) for _ in range(40)]
        c = min(pool, key=lambda x: abs(math.log(n * size(x) / target)))
        parts.append(c)
        acc = add(acc, c)
    return acc, parts


class Timeout(Exception):
    """Raised by the interval timer inside a measurement that ran too long."""


def _alarm(signum, frame):
    raise Timeout


def timed(fn, *args, cap: float):
    """(result, seconds, ge calls, ge misses) from cold memos; result ``None`` and seconds
    ``inf`` when the call is stopped after ``cap`` seconds (the memos stay consistent: an
    entry is written only when its computation finishes)."""
    clear_caches()
    order.stats.update(ge_calls=0, ge_misses=0)
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, cap)
    start = time.perf_counter()
    try:
        result = fn(*args)
        seconds = time.perf_counter() - start
    except Timeout:
        result, seconds = None, math.inf
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return result, seconds, order.stats["ge_calls"], order.stats["ge_misses"]


def secs(seconds: float, cap: float) -> str:
    return f"> {cap:g}" if seconds == math.inf else f"{seconds:.3f}"


def fit(ns, ts) -> float:
    """Least-squares slope of log t against log n (finite points with t > 1 ms)."""
    pts = [(math.log(n), math.log(t)) for n, t in zip(ns, ts, strict=True) if 1e-3 < t < math.inf]
    if len(pts) < 2:
        return float("nan")
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sxx if sxx else float("nan")


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def table(headers: list[str], rows: list[list], markdown: bool) -> None:
    cells = [[str(c) for c in r] for r in rows]
    if markdown:
        print("| " + " | ".join(headers) + " |")
        print("| " + " | ".join("---:" if i else "---" for i in range(len(headers))) + " |")
        for r in cells:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
        print("  ".join(h.rjust(w) for h, w in zip(headers, widths, strict=True)))
        for r in cells:
            print("  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)))
    print(flush=True)


def bench_canonical(args, rng: random.Random) -> list[dict]:
    """Part 1: rows of raw/canonical sizes and times, up to the first one over the limit
    (each run is stopped after three times the limit)."""
    out: list[dict] = []
    target = 100.0
    while True:
        g, parts = hot_sum(round(target), rng)
        c, seconds, calls, misses = timed(canonical, g, cap=3 * args.limit)
        row = {"g": g, "c": c, "parts": parts, "raw": size(g), "s": seconds}
        row.update(canon=size(c) if c is not None else "-", calls=calls, misses=misses)
        row.update(birthday=g.birthday, rss=peak_rss_mb())
        out.append(row)
        print(
            f"  canonical: raw {row['raw']}, canonical {row['canon']}, {seconds:.3f} s",
            file=sys.stderr,
            flush=True,
        )
        if seconds > args.limit:
            return out
        target = max(target * math.sqrt(2), row["raw"] * 1.2)


def bench_ge(args, rows: list[dict], rng: random.Random) -> list[dict]:
    """Part 2: G >= C, C >= G and G vs D (G with its last summand replaced by another of the
    same size when the pool has one), each from cold memos and stopped after the limit."""
    out: list[dict] = []
    for row in rows:
        g, c, parts = row["g"], row["c"], row["parts"]
        if c is None:
            break
        n = size(parts[-1])
        pool = [x for x in (component(rng) for _ in range(40)) if x is not parts[-1]]
        d = add_all([*parts[:-1], min(pool, key=lambda x: abs(size(x) - n))])
        res = {"raw": row["raw"], "canon": row["canon"], "other": size(d)}
        for key, x, y in (("gc", g, c), ("cg", c, g), ("gd", g, d), ("dg", d, g)):
            value, seconds, _, misses = timed(order.ge, x, y, cap=args.limit)
            res[key] = (value, seconds, misses)
        assert res["gc"][0] is not False and res["cg"][0] is not False, "G = C must hold"
        out.append(res)
        print(
            f"  ge: raw {row['raw']}, G>=C {res['gc'][1]:.3f} s, C>=G {res['cg'][1]:.3f} s",
            file=sys.stderr,
            flush=True,
        )
        if max(res["gc"][1], res["cg"][1]) > args.limit / 2:
            break
    return out


def random_pizza(rng: random.Random) -> str:
    return "cyc(" + ",".join(str(rng.randint(0, 5)) for _ in range(rng.randint(3, 6))) + ")"


def bench_pizzas(args, rng: random.Random) -> list[list]:
    """Part 3: the incremental canonical sum of k pizzas, checked against the pizza plugin."""
    solve("pizza", "1,2,3", method="guaranteed")  # load the plugins
    clear_caches()
    rows: list[list] = []
    acc, pieces = ZERO, []
    for k in range(1, args.pizzas + 1):
        piece = random_pizza(rng)
        pieces.append(piece)
        start = time.perf_counter()
        v = solve("pizza", piece, method="guaranteed").value
        t_value = time.perf_counter() - start
        raw = add(acc, v)
        start = time.perf_counter()
        acc = canonical(raw)
        t_step = time.perf_counter() - start
        text = " + ".join(pieces)
        start = time.perf_counter()
        left = solve("pizza", text).value
        right = solve("pizza", text, first=Player.RIGHT).value
        t_pizza = time.perf_counter() - start
        assert acc.stops.Ls == left, f"{text}: Ls {acc.stops.Ls} != pizza value {left}"
        assert -acc.stops.Rs == right, f"{text}: -Rs {-acc.stops.Rs} != pizza value {right}"
        rows.append(
            [k, piece, size(v), f"{t_value:.3f}", size(raw), size(acc), f"{t_step:.3f}"]
            + [acc.stops.Ls, left, f"{t_pizza:.3f}"]
        )
        print(f"  pizzas: k={k} step {t_step:.3f} s", file=sys.stderr, flush=True)
    # the plugin's own value of the whole board (its canonical_sum of the components)
    board = parse_position(get_registry().ruleset("pizza"), " + ".join(pieces))
    assert scoring_value(get_registry().ruleset("pizza"), board, SolveContext()) is acc
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1 s limit, 6 pizzas (< 30 s)")
    parser.add_argument("--markdown", action="store_true", help="markdown tables")
    parser.add_argument("--limit", type=float, default=None, help="seconds (default 60)")
    parser.add_argument("--pizzas", type=int, default=None, help="summands (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.limit = args.limit or (1.0 if args.quick else 60.0)
    args.pizzas = args.pizzas or (6 if args.quick else 10)
    sys.setrecursionlimit(100_000)
    rng = random.Random(args.seed)
    total = time.perf_counter()

    print(f"1. canonical form of random hot sums (cold memos; stop after {args.limit:g} s)\n")
    rows = bench_canonical(args, rng)
    cap = 3 * args.limit
    table(
        ["raw nodes", "summands", "birthday", "canonical nodes", "seconds", "ge calls"]
        + ["ge misses", "peak RSS MB"],
        [
            [r["raw"], len(r["parts"]), r["birthday"], r["canon"], secs(r["s"], cap)]
            + [r["calls"], r["misses"], f"{r['rss']:.0f}"]
            for r in rows
        ],
        args.markdown,
    )
    big = [r for r in rows if r["raw"] >= 1000 and r["s"] < math.inf] or rows
    a_canon = fit([r["raw"] for r in big], [r["s"] for r in big])
    within = [r for r in rows if r["s"] <= args.limit]
    reached = max((r["raw"] for r in within), default=0)
    print(f"fitted exponent canonical (seconds ~ raw nodes^a, raw >= 1000): {a_canon:.2f}")
    a_pairs = fit([r["raw"] for r in big], [r["misses"] for r in big])
    print(f"fitted exponent memoised pairs (ge misses ~ raw nodes^a): {a_pairs:.2f}")
    print(f"largest raw size canonicalised within {args.limit:g} s: {reached} nodes")
    if within and a_canon == a_canon:
        last = max(within, key=lambda r: r["raw"])
        est = last["raw"] * (args.limit / last["s"]) ** (1 / a_canon)
        print(f"size for exactly {args.limit:g} s by the fit: about {est:.0f} raw nodes")
    print(f"peak RSS after the largest instance: {rows[-1]['rss']:.0f} MB\n")

    print("2. Thm 44 comparison (cold memos): G raw, C = canonical(G), D a different raw sum")
    print("   cells: seconds (result, memoised pairs)\n")
    ges = bench_ge(args, rows, random.Random(args.seed + 1))

    def cell(res, key):
        value, seconds, misses = res[key]
        result = "?" if value is None else "T" if value else "F"
        return f"{secs(seconds, args.limit)} ({result}, {misses})"

    table(
        ["raw nodes G", "nodes C", "nodes D", "G>=C", "C>=G", "G>=D", "D>=G"],
        [
            [r["raw"], r["canon"], r["other"], cell(r, "gc"), cell(r, "cg")]
            + [cell(r, "gd"), cell(r, "dg")]
            for r in ges
        ],
        args.markdown,
    )
    for key, label in (("gc", "G>=C"), ("cg", "C>=G")):
        big = [r for r in ges if r["raw"] >= 1000 and r[key][1] < math.inf] or ges
        a = fit([r["raw"] for r in big], [r[key][1] for r in big])
        print(f"fitted exponent {label} (seconds ~ raw nodes^a, raw >= 1000): {a:.2f}")
    print()

    print(f"3. incremental canonical sum of k random pizzas (k = 1..{args.pizzas})\n")
    pizza_rows = bench_pizzas(args, random.Random(args.seed + 2))
    table(
        ["k", "added pizza", "its GS nodes", "value s", "raw sum nodes", "canonical nodes"]
        + ["step s", "Ls", "pizza value", "pizza solver s"],
        pizza_rows,
        args.markdown,
    )
    print("Ls = pizza value (Left first) and -Rs = pizza value (Right first) at every k.\n")
    print(f"peak RSS {peak_rss_mb():.0f} MB; total {time.perf_counter() - total:.1f} s")


if __name__ == "__main__":
    main()
