"""``cgf wak ...``: Grundy values with a winning move, sequences in one counter or a family
parameter (on the core's sweep runner), the unbounded family, rooks boards, Arc-Kayles."""

from __future__ import annotations

import json
import sys
import time
from typing import Annotated, Any, NoReturn

import typer

from cgframework import Family, SolverError, get_registry, parse_position, solve
from cgframework.cli import HELP_OPTIONS
from cgframework.io import converter
from cgframework_wak.convert import arc_kayles_size, to_arc_kayles
from cgframework_wak.families import unbounded, unbounded_arc_kayles
from cgframework_wak.graph import WakGraph
from cgframework_wak.parse import dump_json
from cgframework_wak.periodic import detect_period, proven_start

HELP = """Weighted Arc-Kayles and Arc-Kayles (Dailly, Gledel & Heinrich).

\b
Examples:
  cgf wak grundy 'path:3,1,4 + star:2;1,3'
  cgf wak family --to 5
"""

wak_app = typer.Typer(
    help=HELP,
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
)

AkOption = Annotated[
    bool, typer.Option("--arc-kayles", help="Read the graph as Arc-Kayles (sizes, no counters).")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
StoreOption = Annotated[
    str | None, typer.Option(help="sqlite value store: resume and share (keyed by certificate).")
]


def _fail(message: str) -> NoReturn:
    from cgframework.cli import fail

    fail(message)


def _graph(text: str, arc_kayles: bool = False) -> tuple[Any, Any]:
    """(ruleset, position) from text, @FILE or - (stdin); bad input ends with exit code 2."""
    from cgframework.cli import read_position_text

    rs = get_registry().ruleset("arc-kayles" if arc_kayles else "wak")
    text = read_position_text(text)
    try:
        return rs, parse_position(rs, text)
    except ValueError as exc:
        _fail(f"invalid {rs.name} graph {text[:60]!r}: {exc}")


def _solve(rs, position, method: str = "auto", store: str | None = None):
    from cgframework.cli import open_store

    try:
        if store is None:
            return solve(rs, position, method=method)
        with open_store(store) as handle:
            return solve(rs, position, method=method, store=handle)
    except SolverError as exc:
        _fail(str(exc))


@wak_app.command()
def grundy(
    graph: Annotated[str, typer.Argument(help="Graph: JSON, family (path:3,1,4), edges, @FILE, -")],
    arc_kayles: AkOption = False,
    method: Annotated[str, typer.Option(help="auto, generic, or a solver name.")] = "auto",
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """The Grundy value, the winning moves (to a P-position) and the method used.

    \b
    Examples:
      cgf wak grundy 'path:3,1,4 + star:2;1,3'
      cgf wak grundy grid:3x3 --arc-kayles --json
    """

    rs, position = _graph(graph, arc_kayles)
    solution = _solve(rs, position, method, store)
    if as_json:
        print(json.dumps(converter.unstructure(solution)))
        return
    kind = "P-position, no winning move" if solution.grundy == 0 else "N-position"
    print(f"G = {solution.grundy} ({kind})")
    if solution.best_moves:
        print("winning moves: " + ", ".join(solution.best_moves))
    s = solution.stats
    print(f"method: {solution.method}; {s.nodes} positions expanded, {s.seconds:.3f} s")


@wak_app.command()
def sequence(
    graph: Annotated[
        str | None, typer.Argument(help="Graph whose VERTEX counter varies (omit with --family)")
    ] = None,
    vertex: Annotated[int | None, typer.Option(help="The vertex whose counter varies.")] = None,
    family: Annotated[
        str | None, typer.Option(help="A registered family instead (see cgf rulesets --json).")
    ] = None,
    arc_kayles: AkOption = False,
    start: Annotated[int, typer.Option("--from", help="First parameter.")] = 0,
    to: Annotated[int, typer.Option(help="Last parameter (inclusive).")] = 30,
    store: StoreOption = None,
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    executor: Annotated[
        str, typer.Option(metavar="EXECUTOR", help="local, processes or dask://HOST:PORT.")
    ] = "local",
    progress: Annotated[bool | None, typer.Option(help="Progress bar (default: on a tty).")] = None,
    as_json: JsonOption = False,
) -> None:
    """Grundy values in one counter or a family parameter, with the period (Section 6).

    The counter of VERTEX (or the family parameter) runs FROM..TO on the core's sweep runner
    (resumable with --store); prints the detected preperiod and period and, for a counter,
    what is proven (L264-L298: outcome period 2 from 2*Omega for a looped vertex).

    \b
    Examples:
      cgf wak sequence '0-1,0-2,1-2,1-3;w=0,2,3,1;loops=0' --vertex 0 --to 40
      cgf wak sequence --family path --arc-kayles --to 200 --store ak.sqlite
    """
    registry = get_registry()
    rs_name = "arc-kayles" if arc_kayles else "wak"
    proven = None
    if family is not None:
        if graph is not None or vertex is not None:
            _fail("give either GRAPH with --vertex, or --family, not both")
        try:
            fam = registry.family(rs_name, family)
        except KeyError as exc:
            _fail(str(exc.args[0]))
    else:
        if graph is None or vertex is None:
            _fail("give GRAPH and --vertex V (or --family NAME)")
        if arc_kayles:
            _fail("a varying counter needs ruleset wak: drop --arc-kayles")
        _, base = _graph(graph)
        if not isinstance(base, WakGraph):
            _fail("GRAPH must be one graph, not a sum")
        if not 0 <= vertex < base.n:
            _fail(f"vertex {vertex} is not in 0..{base.n - 1}")
        fam = _vary(base, vertex)
        x0, what = proven_start(base, vertex)
        proven = {"from": x0, "statement": what}
    if start < 0 or to < start:
        _fail(f"bad range --from {start} --to {to}")
    values, stored = _run(rs_name, fam, start, to, store, jobs, executor, progress)
    found = detect_period(values)
    record: dict[str, Any] = {
        "ruleset": rs_name,
        "family": fam.name,
        "from": start,
        "to": to,
        "grundy": values,
        "preperiod": None if found is None else start + found[0],
        "period": None if found is None else found[1],
        "proven": proven,
        "from_store": stored,
    }
    if as_json:
        print(json.dumps(record))
        return
    print(f"{rs_name} {fam.description}: G({start}..{to})")
    for i in range(0, len(values), 20):
        print(f"{start + i:>6}: " + " ".join(f"{g:>2}" for g in values[i : i + 20]))
    if found is None:
        print("no period detected in this range")
    else:
        print(f"period {found[1]} from {start + found[0]} (detected in the computed range)")
    if proven is not None:
        print(f"proven from {proven['from']}: {proven['statement']}")


def _vary(base: WakGraph, vertex: int) -> Family:
    def generate(x: int) -> str:
        weights = list(base.weights)
        weights[vertex] = x
        return dump_json(base.with_weights(weights))

    return Family("vary", "wak", generate, f"counter of vertex {vertex} varying")


def _run(rs_name, fam, start, to, store_path, jobs, executor, progress) -> tuple[list[int], int]:
    """The core's sweep runner (resumable through the store) with a progress bar."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from cgframework.cli import open_store
    from cgframework.cli.sweep import warn
    from cgframework.sweep.runner import SweepError, sweep

    store = open_store(store_path) if store_path else None
    show = sys.stderr.isatty() if progress is None else progress
    values: list[int] = []
    stored = 0
    try:
        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            disable=not show,
        ) as bar:
            task = bar.add_task(f"{rs_name} {fam.name}", total=to - start + 1)
            for record in sweep(
                rs_name,
                fam,
                start,
                to,
                store=store,
                jobs=jobs,
                executor=executor,
                on_record=lambda _: bar.advance(task),
                warn=warn,
            ):
                values.append(record.solution.grundy)
                stored += record.stored
    except (SweepError, ValueError) as exc:
        _fail(str(exc))
    finally:
        if store is not None:
            store.close()
    return values, stored


@wak_app.command("family")
def family_cmd(
    to: Annotated[int, typer.Option(help="Last n.")] = 5,
    start: Annotated[int, typer.Option("--from", help="First n.")] = 1,
    arc_kayles: Annotated[
        bool, typer.Option("--arc-kayles", help="The Arc-Kayles forests T_n (Corollary 1).")
    ] = False,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """The unbounded-Grundy family G_n of Theorem 2 and its values.

    L307-L332: pairwise distinct values, 3^(n-1) vertices (2*3^(n-1) for the Arc-Kayles
    forests T_n of Corollary 1).

    \b
    Examples:
      cgf wak family --to 5
      cgf wak family --to 4 --arc-kayles --json
    """
    if start < 1 or to < start:
        _fail(f"bad range --from {start} --to {to} (n >= 1)")
    if to > 7:
        _fail(f"--to {to}: G_n has 3^(n-1) vertices; n <= 7 is the supported range")
    rs = get_registry().ruleset("arc-kayles" if arc_kayles else "wak")
    rows = []
    for n in range(start, to + 1):
        graph = unbounded_arc_kayles(n) if arc_kayles else unbounded(n)[0]
        began = time.perf_counter()
        solution = _solve(rs, graph, store=store)
        rows.append(
            {
                "n": n,
                "vertices": graph.n,
                "grundy": solution.grundy,
                "gray_code": n ^ (n >> 1),
                "seconds": round(time.perf_counter() - began, 3),
            }
        )
    if as_json:
        print(json.dumps(rows))
        return
    print(f"{'n':>3} {'vertices':>9} {'G':>3} {'gray(n)':>8} {'seconds':>8}")
    for row in rows:
        print(
            f"{row['n']:>3} {row['vertices']:>9} {row['grundy']:>3} "
            f"{row['gray_code']:>8} {row['seconds']:>8.3f}"
        )
    values = [row["grundy"] for row in rows]
    distinct = "pairwise distinct" if len(set(values)) == len(values) else "NOT distinct"
    print(f"values {distinct} (Theorem 2); gray(n) = n xor (n >> 1) is an observation only")


@wak_app.command()
def rooks(
    board: Annotated[str, typer.Argument(help="RxC, or rows like ..#./R.../.... (# hole, R rook)")],
    holes: Annotated[str | None, typer.Option(help="Holes r,c;r,c (with RxC).")] = None,
    show_graph: Annotated[bool, typer.Option("--graph", help="Print the WAK graph.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Non-attacking rooks with holes, solved as WAK (Section 3).

    L65-L91: the WAK graph of vertical and horizontal hole-free segments; winning moves are
    printed as squares (row, column).

    \b
    Examples:
      cgf wak rooks '..##./..##./...../.....'
      cgf wak rooks 4x5 --holes '0,2;0,3' --graph
    """
    from cgframework_wak.rooks import parse_board, to_wak

    try:
        parsed = parse_board(board, holes)
        graph, squares = to_wak(parsed)
    except ValueError as exc:
        _fail(f"invalid rooks board {board!r}: {exc}")
    rs = get_registry().ruleset("wak")
    solution = _solve(rs, graph)
    winning = []
    for text in solution.best_moves:
        u, v = (int(x) for x in text.split("-"))
        winning.append(list(squares[u, v]))
    record = {
        "rows": parsed.rows,
        "cols": parsed.cols,
        "grundy": solution.grundy,
        "outcome": solution.outcome.value if solution.outcome else None,
        "winning_squares": winning,
        "graph": dump_json(graph),
        "method": solution.method,
    }
    if as_json:
        print(json.dumps(record))
        return
    if show_graph:
        print(f"WAK graph: {record['graph']}")
    print(f"G = {solution.grundy}; winning squares (row, column): {winning or 'none'}")


@wak_app.command("to-arc-kayles")
def to_arc_kayles_cmd(
    graph: Annotated[str, typer.Argument(help="WAK graph (JSON, family, edges, @FILE, -)")],
    max_vertices: Annotated[int, typer.Option(help="Refuse larger outputs.")] = 5000,
    check: Annotated[bool, typer.Option(help="Solve both and compare (small graphs).")] = False,
    as_json: JsonOption = False,
) -> None:
    """The Arc-Kayles graph with the same Grundy value (Corollary 2).

    L161-L166: each vertex becomes w(v) copies, a loop a pendant of weight w(u); the size is
    the sum of the counters, exponential in their bits.

    \b
    Examples:
      cgf wak to-arc-kayles 'star:2;1,3' --check
    """
    rs, position = _graph(graph)
    if not isinstance(position, WakGraph):
        _fail("GRAPH must be one graph, not a sum")
    size = arc_kayles_size(position)
    if size > max_vertices:
        _fail(f"the Arc-Kayles graph would have {size} vertices (> --max-vertices {max_vertices})")
    result = to_arc_kayles(position)
    text = dump_json(result, arc_kayles=True)
    record: dict[str, Any] = {"arc_kayles": text, "vertices": result.n}
    if check:
        record["wak_grundy"] = _solve(rs, position).grundy
        ak = get_registry().ruleset("arc-kayles")
        record["arc_kayles_grundy"] = _solve(ak, result).grundy
    if as_json:
        print(json.dumps(record))
        return
    print(text)
    if check:
        print(
            f"WAK G = {record['wak_grundy']}, Arc-Kayles G = {record['arc_kayles_grundy']}",
            file=sys.stderr,
        )
