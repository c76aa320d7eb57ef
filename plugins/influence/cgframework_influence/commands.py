"""``cgf influence table|check|explain|picture``."""

from __future__ import annotations

import json
import random
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from cgframework import Player, SolveContext, get_registry, parse_position
from cgframework.cli import HELP_OPTIONS, MaxNodesOption, TimeoutOption, output_option
from cgframework.runtime.budget import SearchBudget
from cgframework.runtime.deep import call_deep
from cgframework_influence.graph import (
    MAX_GENERATED_VERTICES,
    InfluenceGraph,
    bits,
    closure,
    forced,
    rmv,
    segment,
)
from cgframework_influence.lines import (
    Step,
    analyser_for,
    line,
    mirror_chooser,
    quasi_equal_chooser,
    totals,
)
from cgframework_influence.segments import SegmentComponents
from cgframework_influence.solvers import Analyser, as_graph, scores, solution

HELP = """INFLUENCE: the partizan scoring game on digraphs.

\b
Examples:
  cgf influence table --to 40 --format csv
  cgf influence explain segment:11 --strategy mirror
"""

influence_app = typer.Typer(
    help=HELP,
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
)

FIELDS = ("n", "s1L", "s2L", "s1R", "s2R", "Ls", "Rs")
MAX_CHECK_VERTICES = 16
"""check visits every subposition of each random digraph: exponential in its vertices."""


def _position(text: str) -> InfluenceGraph:
    from cgframework.cli import fail, read_position_text

    text = read_position_text(text)
    rules = get_registry().ruleset("influence")
    try:
        return as_graph(parse_position(rules, text))
    except ValueError as exc:
        fail(f"invalid influence position {text!r}: {exc}")


@influence_app.command()
def table(
    start: Annotated[int, typer.Option("--from", help="First n.")] = 1,
    stop: Annotated[int, typer.Option("--to", help="Last n.")] = 38,
    kind: Annotated[str, typer.Option(help="Odd segments: C- (Table 1) or C+.")] = "C-",
    fmt: Annotated[
        str, typer.Option("--format", metavar="csv|json", help="Rows as CSV or one JSON list.")
    ] = "csv",
    as_json: Annotated[bool, typer.Option("--json", help="The same as --format json.")] = False,
    store: Annotated[
        str | None, typer.Option(help="sqlite store: finished n are kept and reused.")
    ] = None,
    progress: Annotated[bool | None, typer.Option(help="Progress bar on stderr.")] = None,
) -> None:
    """Scores of the segments S_n (Table 1, L836), by the segment solver.

    \b
    Examples:
      cgf influence table --to 40 --format csv
      cgf influence table --to 40 --store s.sqlite
      cgf influence table --from 5 --to 9 --json
    """
    from cgframework.cli import fail, open_store
    from cgframework.store.database import position_key

    if as_json:
        fmt = "json"

    if fmt not in ("csv", "json"):
        fail(f"unknown format {fmt!r} (csv or json)")
    if kind not in ("C-", "C+"):
        fail(f"unknown segment type {kind!r} (C- or C+)")
    if start < 1 or stop < start:
        fail(f"bad range {start}..{stop}")
    if stop > MAX_GENERATED_VERTICES:
        fail(f"--to {stop}: segments have at most {MAX_GENERATED_VERTICES} vertices")
    rules = get_registry().ruleset("influence")
    analyser = Analyser(SegmentComponents())
    db = open_store(store) if store else None
    rows = []
    show = sys.stderr.isatty() if progress is None else progress
    if fmt == "csv":
        print(",".join(FIELDS))
    try:
        with Progress(
            TextColumn("influence segments"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            disable=not show,
        ) as bar:
            task = bar.add_task("table", total=stop - start + 1)
            for n in range(start, stop + 1):
                g = segment(n, kind if n % 2 else None)
                found = None
                if db is not None:
                    key = position_key(rules, g, Player.LEFT)
                    found = db.get(rules, key)
                if found is not None and "scores" in found[1].extra:
                    record = found[1].extra["scores"]
                else:  # not stored, or stored by a solver without scores (--method generic)
                    ls, rs = analyser.ls_rs(g)
                    record = scores(ls, rs, n)
                    if db is not None:
                        sol = solution(rules, g, SolveContext(), analyser, "influence-segments")
                        db.put(rules, key, sol)
                row = {"n": n, **record}
                rows.append(row)
                if fmt == "csv":
                    print(",".join(str(row[f]) for f in FIELDS), flush=True)
                bar.advance(task)
    finally:
        if db is not None:
            db.close()
    if fmt == "json":
        print(json.dumps(rows))


def _random_graph(rnd: random.Random, n: int, dag: bool) -> InfluenceGraph:
    colors = "".join(rnd.choice("LR") for _ in range(n))
    arcs = {
        (u, v)
        for u in range(n)
        for v in range(n)
        if u != v and (not dag or u < v) and rnd.random() < 1.5 / n
    }
    return InfluenceGraph(colors, tuple(sorted(arcs)))


def _subpositions(g: InfluenceGraph) -> set[int]:
    """Every vertex set reachable by play from g under the original rules."""
    succ, pred, left = g.succ_masks(), g.pred_masks(), g.colour_mask("L")
    seen = {g.full}
    todo = [g.full]
    while todo:
        alive = todo.pop()
        for v in bits(alive):
            taken = closure(succ if left >> v & 1 else pred, 1 << v, alive)
            rest = alive & ~taken
            if rest not in seen:
                seen.add(rest)
                todo.append(rest)
    return seen


MAX_CHECK_GRAPHS = 1_000_000
"""check's most random digraphs (its analysers' caches grow with each: no run without end)."""


@influence_app.command()
def check(
    count: Annotated[int, typer.Option("--random", help="How many random digraphs.")] = 200,
    max_n: Annotated[int, typer.Option(help="Most vertices.")] = 8,
    seed: Annotated[int, typer.Option(help="Random seed.")] = 1,
    dag: Annotated[bool, typer.Option(help="Only acyclic digraphs.")] = False,
) -> None:
    """Nonzugzwang (Cor. 12), parity (Lemma 5) and monotonicity (Lemma 11) on every
    subposition of random digraphs; exit 1 on a counterexample.

    \b
    Examples:
      cgf influence check --random 200 --max-n 8
      cgf influence check --random 50 --dag --seed 7
    """
    from cgframework.cli import fail, out

    if not 0 <= count <= MAX_CHECK_GRAPHS:
        fail(f"--random must be in 0..{MAX_CHECK_GRAPHS}, got {count}")
    if not 1 <= max_n <= MAX_CHECK_VERTICES:
        fail(f"--max-n must be in 1..{MAX_CHECK_VERTICES}, got {max_n}")
    rnd = random.Random(seed)
    checked = {"graphs": 0, "subpositions": 0, "moves": 0}
    for _ in range(count):
        g = _random_graph(rnd, rnd.randint(1, max_n), dag)
        analyser = analyser_for(g)
        checked["graphs"] += 1
        for alive in _subpositions(g):
            sub = g.induced(alive)
            ls, rs = analyser.ls_rs(sub)
            checked["subpositions"] += 1
            bad = None
            if ls < rs:
                bad = f"nonzugzwang fails: Ls={ls} < Rs={rs}"
            elif (ls - sub.n) % 2 or (rs - sub.n) % 2:
                bad = f"parity fails: Ls={ls}, Rs={rs}, |V|={sub.n}"
            else:
                bad = _monotone(sub, analyser, checked)
            if bad:
                out.print(f"counterexample {sub.colors}:{sub.arcs}: {bad}")
                raise typer.Exit(1)
    out.print(
        f"ok: {checked['graphs']} digraphs, {checked['subpositions']} subpositions, "
        f"{checked['moves']} relevant moves: nonzugzwang, parity, monotonicity hold"
    )


def _monotone(g: InfluenceGraph, analyser: Analyser, checked: dict) -> str | None:
    """Lemma 11 (L372-L437) on a relevant graph: Right's move never raises Left's scores,
    Left's move never raises Right's."""
    succ, pred, left = g.succ_masks(), g.pred_masks(), g.colour_mask("L")
    fl, fr = forced(succ, pred, left, g.full)
    if fl | fr:
        return None
    s = scores(*analyser.ls_rs(g), g.n)
    for v in bits(g.full):
        after = g.induced(g.full & ~rmv(succ, pred, left, g.full, v))
        t = scores(*analyser.ls_rs(after), after.n)
        checked["moves"] += 1
        who = "L" if left >> v & 1 else "R"
        other = "R" if who == "L" else "L"
        for i in ("1", "2"):
            if t[f"s{i}{other}"] > s[f"s{i}{other}"]:
                return f"monotonicity fails at vertex {v}: s{i}{other} rises"
    return None


def _chooser(strategy: str, g: InfluenceGraph, player: Player):
    from cgframework.cli import fail

    if strategy == "optimal":
        return None
    try:
        if strategy == "mirror":
            return mirror_chooser(g, player)
        if strategy == "quasi-equal":
            return quasi_equal_chooser(g, player)
    except ValueError as exc:
        fail(str(exc))
    fail(f"unknown strategy {strategy!r} (optimal, mirror, quasi-equal)")


def _line(
    position: str,
    first: str,
    strategy: str,
    strategist: str,
    max_nodes: int | None = None,
    timeout: float | None = None,
):
    """The position, its analyser and the line of play, searched within the limits (the
    search is exponential in the worst case: ``cycle:200`` would run for hours)."""
    from cgframework.cli import parse_player

    g = _position(position)
    who = parse_player(first)
    player = parse_player(strategist)
    chooser = _chooser(strategy, g, player)
    analyser = analyser_for(g, SearchBudget.of(max_nodes, timeout))
    return g, analyser, call_deep(line, g, who, analyser, chooser, player)


@influence_app.command()
def explain(
    position: Annotated[str, typer.Argument(help="Position text, @FILE or -.")],
    first: Annotated[str, typer.Option(help="Who starts: L or R.")] = "L",
    strategy: Annotated[
        str,
        typer.Option(
            metavar="optimal|mirror|quasi-equal",
            help="optimal, mirror (H + -H, S_n n=3 mod 4) or quasi-equal.",
        ),
    ] = "optimal",
    strategist: Annotated[str, typer.Option(help="Who follows --strategy.")] = "L",
    as_json: Annotated[bool, typer.Option("--json")] = False,
    max_nodes: MaxNodesOption = None,
    timeout: TimeoutOption = None,
) -> None:
    """A line of play: the strategist follows the strategy, the other plays optimally.

    \b
    Examples:
      cgf influence explain segment:11 --strategy mirror
      cgf influence explain segment:14 --strategy quasi-equal --json
    """
    from cgframework.cli import out

    g, analyser, steps = _line(position, first, strategy, strategist, max_nodes, timeout)
    ls, rs = analyser.ls_rs(g)
    total = totals(steps)
    optimum = ls if first.upper().startswith("L") else rs
    if as_json:
        record = {
            "moves": [
                {"player": s.player.value, "vertex": s.vertex, "taken": s.taken} for s in steps
            ],
            "totals": total,
            "difference": total["L"] - total["R"],
            "optimal_difference": optimum,
        }
        print(json.dumps(record))
        return
    running = {"L": 0, "R": 0}
    for i, s in enumerate(steps, 1):
        running[s.player.value] += len(s.taken)
        out.print(
            f"{i:3d}. {s.player.value} plays {s.vertex}, takes {len(s.taken)} "
            f"({', '.join(s.taken)})   L {running['L']} : R {running['R']}"
        )
    out.print(
        f"result L-R = {total['L'] - total['R']} ({strategy}); optimal "
        f"{'Ls' if first.upper().startswith('L') else 'Rs'} = {optimum}"
    )


def dot(g: InfluenceGraph, steps: list[Step]) -> str:
    """Graphviz text: black/white shapes by colour, filled by who took the vertex, labelled
    with the move that took it."""
    taker = {}
    for i, s in enumerate(steps, 1):
        for name in s.taken:
            taker[name] = (s.player.value, i)
    lines = ["digraph influence {", "  node [style=filled];"]
    for v in range(g.n):
        name = g.names[v]
        who, i = taker.get(name, ("-", 0))
        shape = "box" if g.colors[v] == "L" else "ellipse"
        fill = "gray30" if who == "L" else "white"
        font = "white" if who == "L" else "black"
        lines.append(
            f'  "{name}" [shape={shape}, fillcolor={fill}, fontcolor={font}, '
            f'label="{name}\\n{who}{i}"];'
        )
    for u, v in g.arcs:
        lines.append(f'  "{g.names[u]}" -> "{g.names[v]}";')
    lines.append("}")
    return "\n".join(lines)


@influence_app.command()
def picture(
    position: Annotated[str, typer.Argument(help="Position text, @FILE or -.")],
    first: Annotated[str, typer.Option(help="Who starts: L or R.")] = "L",
    strategy: Annotated[
        str, typer.Option(metavar="optimal|mirror|quasi-equal", help="The strategist's play.")
    ] = "optimal",
    strategist: Annotated[str, typer.Option(help="Who follows --strategy.")] = "L",
    format: Annotated[
        str, typer.Option("--format", metavar="svg|dot", help="svg (drawn here) or dot.")
    ] = "svg",
    output: Annotated[
        str | None,
        output_option("Write to this file, not stdout."),
    ] = None,
    max_nodes: MaxNodesOption = None,
    timeout: TimeoutOption = None,
) -> None:
    """The digraph after a line of play: SVG (Left's vertices squares, Right's circles,
    filled blue/red by who took them) or Graphviz dot (Left boxes, Right ellipses, filled
    dark if Left took the vertex, labelled with the move number).

    \b
    Examples:
      cgf influence picture segment:9 -o s9.svg
      cgf influence picture segment:9 --format dot | dot -Tsvg > s9.svg
    """
    from cgframework.cli import draw_svg, fail, write_picture

    if format not in ("svg", "dot"):
        fail(f"--format must be svg or dot, got {format!r}")
    g, _, steps = _line(position, first, strategy, strategist, max_nodes, timeout)
    if format == "dot":
        text = dot(g, steps) + "\n"
    else:
        marks = {name: s.player for s in steps for name in s.taken}
        text = draw_svg(lambda: get_registry().ruleset("influence").draw(g, marks))
    if output is None:
        print(text, end="")
    else:
        write_picture(output, lambda: text)
