"""``cgf pizza ...``: slice partitions, shares, and searches for extremal pizzas."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from typing import Annotated

import typer
from rich.console import Console

from cgframework import Family, dump_number, get_registry, solve
from cgframework.cli import HELP_OPTIONS, old_output_option, output_option
from cgframework.cli.sweep import sweep_records
from cgframework_pizza.board import (
    Board,
    cycle_order,
    fmt,
    parse_board,
    parse_weights,
    path_order,
)
from cgframework_pizza.exhaustive import MAX_WEIGHTINGS, class_representative, least_pizzas
from cgframework_pizza.slices import (
    paper_st_decomposition,
    paper_tes_slices,
    st_decomposition,
    tes_slices,
)

HELP = """Brown & Brown's graph games: pizzas, stacks, two-ended stacks.

\b
Examples:
  cgf pizza share 0,1,0,1,0,0,1,0,2,0,0,2,0,2,0
  cgf pizza search --n 15 --weights 3
"""

pizza_app = typer.Typer(
    help=HELP,
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
)


def _board(text: str) -> Board:
    from cgframework.cli import fail, read_position_text

    text = read_position_text(text)
    try:
        return parse_board(text)
    except ValueError as exc:
        fail(f"invalid pizza board {text!r}: {exc}")


def _show(weights, slices) -> str:
    return "".join(
        "[" + ",".join(fmt(Fraction(w)) for w in weights[s.start : s.stop]) + "]" for s in slices
    )


@pizza_app.command()
def partition(
    board: Annotated[str, typer.Argument(help="tes(...), st(...) or a sum of them")],
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
    algorithm: Annotated[
        str,
        typer.Option(
            metavar="condensation|paper",
            help="condensation (stack of weak local maxima, O(n)) or paper (Algorithm 2.17 "
            "as printed, L358-L372); the weights are the same, the partitions may differ",
        ),
    ] = "condensation",
) -> None:
    """The slices of each two-ended stack (U-shaped weights, Lemma 2.10(i)) and each stack
    (decreasing slices and an ev-sequence, Lemma 2.10(ii)): tes(a) ~ <s>, st(a) ~ <s> + ev(x).

    \b
    Examples:
      cgf pizza partition "tes(1,2,1,2,5,2)"
      cgf pizza partition "st(5,1,4) + tes(2,3)" --json
    """
    from cgframework.cli import fail

    b = _board(board)
    if algorithm not in ("condensation", "paper"):
        fail(f"unknown algorithm {algorithm!r} (condensation or paper)")
    tes_split = paper_tes_slices if algorithm == "paper" else tes_slices
    st_split = paper_st_decomposition if algorithm == "paper" else st_decomposition
    records = []
    for part in b.components():
        order = path_order(b, part)
        avail = b.available & part
        if order is None or not avail or len(avail - {order[0], order[-1]}):
            fail("partition needs stacks, two-ended stacks or lists (no unopened parts)")
        ws = [b.weight(v) for v in order]
        if len(order) == 1 or avail == {order[0], order[-1]}:
            slices = tes_split(ws)
            records.append(
                {
                    "kind": "tes",
                    "partition": _show(ws, slices),
                    "weights": [fmt(Fraction(s.weight)) for s in slices],
                    "x": "0",
                }
            )
            continue
        if order[0] not in avail:
            ws = ws[::-1]
        d = st_split(ws)
        ev = ws[d.ev_start :]
        records.append(
            {
                "kind": "st",
                "partition": _show(ws, d.slices)
                + ("(" + ",".join(fmt(Fraction(w)) for w in ev) + ")" if ev else ""),
                "weights": [fmt(Fraction(s.weight)) for s in d.slices],
                "x": fmt(Fraction(d.x)),
            }
        )
    if as_json:
        print(json.dumps(records))
        return
    for r in records:
        ev = f" + ev({r['x']})" if r["kind"] == "st" else ""
        print(f"{r['kind']}: {r['partition']}  ~ <{','.join(r['weights'])}>{ev}")


@pizza_app.command()
def share(board: Annotated[str, typer.Argument(help="a pizza or any board")]) -> None:
    """Each player's share under optimal play, (|g| +- val)/2 (L887), and the 4/9 bound
    (4.3, L827) for pizzas with non-negative weights.

    \b
    Examples:
      cgf pizza share 0,1,0,1,0,0,1,0,2,0,0,2,0,2,0
    """
    b = _board(board)
    value = Fraction(solve(get_registry().ruleset("pizza"), b).value)
    size = sum(abs(Fraction(b.weight(v))) for v in b.present)
    first, second = (size + value) / 2, (size - value) / 2
    print(f"value {fmt(value)}; |g| = {fmt(size)}")
    print(f"Player One gets {fmt(first)}, Player Two gets {fmt(second)}")
    if size:
        print(f"Player One's share: {fmt(first / size)} " + _four_ninths_note(b))


def _four_ninths_note(b: Board) -> str:
    """The 4/9 theorem (4.3, L827) holds for a pizza (one cycle) with non-negative weights;
    other boards get no guarantee (with negative weights Player One may get less)."""
    parts = b.components()
    pizza = len(parts) == 1 and cycle_order(b, parts[0]) is not None
    if pizza and all(b.weight(v) >= 0 for v in b.present):
        return "(the 4/9 theorem guarantees at least 4/9 on this pizza)"
    why = "negative weights" if any(b.weight(v) < 0 for v in b.present) else "not a pizza"
    return f"(no 4/9 guarantee: {why}; the theorem is for pizzas with non-negative weights)"


def necklaces(n: int, k: int) -> list[tuple[int, ...]]:
    """All weight vectors in 0..k-1 of length n, one per rotation-and-reflection class."""
    return [w for w in itertools.product(range(k), repeat=n) if w == class_representative(w)]


def _alphabet(weights: int, alphabet: str | None) -> list:
    from cgframework.cli import fail

    if alphabet is None:
        if weights < 1:
            fail(f"--weights must be at least 1, got {weights}")
        return list(range(weights))
    try:
        values = parse_weights(alphabet)
    except ValueError as exc:
        fail(f"invalid --alphabet {alphabet!r}: {exc}")
    if not values:
        fail("--alphabet needs at least one weight")
    return values


@pizza_app.command()
def search(
    n: Annotated[int, typer.Option("--n", help="number of slices")] = 9,
    weights: Annotated[int, typer.Option(help="weights 0..W-1")] = 2,
    alphabet: Annotated[
        str | None, typer.Option(help="the weights to use instead, e.g. '-1,1' or '0,1/2,1'")
    ] = None,
    engine: Annotated[
        str,
        typer.Option(
            metavar="table|sweep",
            help="table: every weighting at once by the tes-value tables (fast, exhaustive); "
            "sweep: each necklace through the solver on the core's sweep runner (--store, --jobs)",
        ),
    ] = "table",
    store: Annotated[str | None, typer.Option(help="sqlite value store (sweep engine)")] = None,
    jobs: Annotated[int, typer.Option(help="worker processes (sweep engine)")] = 1,
    show: Annotated[int, typer.Option(help="how many extremal pizzas to print")] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """The least value over all pizzas of N slices with the given weights, and the pizzas
    (up to rotation and reflection) that reach it.

    \b
    Examples:
      cgf pizza search --n 15 --weights 3
      cgf pizza search --n 21 --alphabet=-1,1 --json
      cgf pizza search --n 9 --engine sweep --store p.sqlite
    """
    from cgframework.cli import fail

    if not 1 <= n <= MAX_SEARCH_SLICES:
        fail(f"--n must be in 1..{MAX_SEARCH_SLICES}, got {n}")
    if alphabet is None:
        _check_weightings(weights, n)
    values = _alphabet(weights, alphabet)
    _check_weightings(len(set(map(Fraction, values))), n)
    if engine == "table":
        least, classes, count = _search_table(values, n)
    elif engine == "sweep":
        least, classes, count = _search_sweep(values, n, store, jobs)
    else:
        fail(f"unknown engine {engine!r} (table or sweep)")
    names = ",".join(fmt(Fraction(w)) for w in sorted(set(map(Fraction, values))))
    if as_json:
        print(
            json.dumps(
                {
                    "n": n,
                    "weights": names.split(","),
                    "weightings": count,
                    "least": dump_number(least),
                    "classes": len(classes),
                    "pizzas": classes[:show],
                }
            )
        )
        return
    print(
        f"{count} weightings of {n} slices with weights {{{names}}}: least value "
        f"{fmt(least)}, reached by {len(classes)} up to rotation and reflection"
    )
    for text in classes[:show]:
        print(f"  {text}")


MAX_SEARCH_SLICES = 64
"""With two weights the weighting limit allows 25 slices; one weight is cheap but not free."""


def _check_weightings(k: int, n: int) -> None:
    """Refuse k^n weightings above the search limit before counting or building them."""
    from cgframework.cli import fail

    if k > 1 and (k > MAX_WEIGHTINGS or n >= MAX_WEIGHTINGS.bit_length() or k**n > MAX_WEIGHTINGS):
        fail(f"{k}^{n} weightings is more than the search limit of {MAX_WEIGHTINGS:,}")


def _search_table(values: list, n: int) -> tuple[Fraction, list[str], int]:
    from rich.progress import Progress

    from cgframework.cli import fail

    console = Console(stderr=True)
    with Progress(console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task(f"{len(set(values))}^{n} pizzas", total=2 * n - 1)
        try:
            result = least_pizzas(values, n, lambda done, total: bar.update(task, completed=done))
        except ValueError as exc:
            fail(str(exc))
    texts = [",".join(fmt(w) for w in c) for c in result.classes]
    return result.least, texts, result.weightings


def _search_sweep(values: list, n: int, store, jobs) -> tuple[Fraction, list[str], int]:
    from cgframework.cli import fail

    ordered = sorted(set(map(Fraction, values)))
    k = len(ordered)
    if k**n > 5_000_000:
        fail("the sweep engine takes at most 5,000,000 candidate pizzas; use --engine table")
    members = necklaces(n, k)

    def member(i: int) -> str:
        return ",".join(fmt(ordered[d]) for d in members[i])

    family = Family("necklaces", "pizza", member)
    records = sweep_records("pizza", family, 0, len(members) - 1, store_path=store, jobs=jobs)
    least = min(Fraction(r.solution.value) for r in records)
    worst = [member(r.parameter) for r in records if r.solution.value == least]
    return least, worst, k**n


@pizza_app.command()
def play(
    board: Annotated[str, typer.Argument(help="a pizza or any board")],
    you: Annotated[str, typer.Option(metavar="1|2", help="1 (you move first) or 2")] = "1",
    output: Annotated[
        str | None,
        output_option("write a picture of the game to this SVG file [default: pizza.svg]"),
    ] = None,
    svg: Annotated[str | None, old_output_option("svg")] = None,
) -> None:
    """Play against the perfect player; the picture shows who took which slice.

    \b
    Examples:
      cgf pizza play 3,1,4,1,5
      cgf pizza play 0,1,0,1,0,0,1 --you 2 -o game.svg
    """
    from cgframework.cli import fail, out, output_file
    from cgframework.display.pictures import write_svg
    from cgframework.display.play import play_game
    from cgframework.game import Player
    from cgframework_pizza.picture import pizza_svg

    svg = output_file(output, svg=svg) or "pizza.svg"
    if you not in ("1", "2"):
        fail(f"--you must be 1 or 2, got {you!r}")
    start = _board(board)
    taken_by: dict[int, Player] = {}

    def record(player: Player, move) -> None:
        taken_by[int(move.text[1:]) - 1] = player

    human = Player.LEFT if you == "1" else Player.RIGHT
    margin = play_game(
        get_registry().ruleset("pizza"),
        start,
        human=human,
        first=Player.LEFT,
        console=out,
        on_move=record,
    )
    title = "" if margin is None else f"Player One minus Player Two: {fmt(Fraction(margin))}"
    try:
        write_svg(svg, pizza_svg(start, taken_by, title))
    except OSError as exc:
        fail(f"cannot write {svg!r}: {exc.strerror}")
    if svg != "-":  # (on standard output, the picture alone)
        out.print(f"picture written to {svg}")
