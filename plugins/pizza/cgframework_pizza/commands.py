"""``cgf pizza ...``: slice partitions, shares, and searches for extremal pizzas."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from typing import Annotated

import typer

from cgframework import Family, get_registry, solve
from cgframework.sweep_cli import sweep_records
from cgframework_pizza.board import Board, fmt, parse_board, path_order
from cgframework_pizza.slices import st_decomposition, tes_slices

pizza_app = typer.Typer(
    help="Brown & Brown's graph games: pizzas, stacks, two-ended stacks.", no_args_is_help=True
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
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """The slices of each two-ended stack (U-shaped weights, Lemma 2.10(i)) and each stack
    (decreasing slices and an ev-sequence, Lemma 2.10(ii)): tes(a) ~ <s>, st(a) ~ <s> + ev(x)."""
    from cgframework.cli import fail

    b = _board(board)
    records = []
    for part in b.components():
        order = path_order(b, part)
        avail = b.available & part
        if order is None or not avail or len(avail - {order[0], order[-1]}):
            fail("partition needs stacks, two-ended stacks or lists (no unopened parts)")
        ws = [b.weight(v) for v in order]
        if len(order) == 1 or avail == {order[0], order[-1]}:
            slices = tes_slices(ws)
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
        d = st_decomposition(ws)
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
    (4.3, L827) for pizzas with non-negative weights."""
    b = _board(board)
    value = Fraction(solve(get_registry().ruleset("pizza"), b).value)
    size = sum(abs(Fraction(b.weight(v))) for v in b.present)
    first, second = (size + value) / 2, (size - value) / 2
    print(f"value {fmt(value)}; |g| = {fmt(size)}")
    print(f"Player One gets {fmt(first)}, Player Two gets {fmt(second)}")
    if size:
        print(
            f"Player One's share: {fmt(first / size)} (the 4/9 theorem guarantees at least "
            "4/9 on a pizza with non-negative weights)"
        )


def necklaces(n: int, k: int) -> list[tuple[int, ...]]:
    """All weight vectors in 0..k-1 of length n, one per rotation-and-reflection class."""
    out = []
    for w in itertools.product(range(k), repeat=n):
        images = [w[i:] + w[:i] for i in range(n)]
        images += [tuple(reversed(x)) for x in images]
        if w == min(images):
            out.append(w)
    return out


@pizza_app.command()
def search(
    n: Annotated[int, typer.Option("--n", help="number of slices")] = 9,
    weights: Annotated[int, typer.Option(help="weights 0..W-1")] = 2,
    store: Annotated[str | None, typer.Option(help="sqlite value store")] = None,
    jobs: Annotated[int, typer.Option(help="worker processes")] = 1,
    show: Annotated[int, typer.Option(help="how many extremal pizzas to print")] = 5,
) -> None:
    """The least value over all pizzas of N slices with weights 0..W-1 (up to rotation and
    reflection), through the core's sweep runner (resumable with --store)."""
    from cgframework.cli import fail

    if n < 1 or weights < 1 or weights**n > 5_000_000:
        fail("need n >= 1, weights >= 1 and at most 5,000,000 candidate pizzas")
    members = necklaces(n, weights)
    family = Family("necklaces", "pizza", lambda i: ",".join(map(str, members[i])))
    records = sweep_records("pizza", family, 0, len(members) - 1, store_path=store, jobs=jobs)
    least = min(Fraction(r.solution.value) for r in records)
    worst = [r.solution.position for r in records if r.solution.value == least]
    print(
        f"{len(members)} pizzas of {n} slices with weights 0..{weights - 1}: "
        f"least value {fmt(least)}, reached by {len(worst)}"
    )
    for text in worst[:show]:
        print(f"  {text}")


@pizza_app.command()
def play(
    board: Annotated[str, typer.Argument(help="a pizza or any board")],
    you: Annotated[str, typer.Option(help="1 (you move first) or 2")] = "1",
    svg: Annotated[str, typer.Option(help="write a picture of the game to this SVG file")] = (
        "pizza.svg"
    ),
) -> None:
    """Play against the perfect player; the picture shows who took which slice."""
    from cgframework.cli import fail, out
    from cgframework.game import Player
    from cgframework.play import play_game
    from cgframework_pizza.picture import pizza_svg

    if you not in ("1", "2"):
        fail(f"--you must be 1 or 2, got {you!r}")
    start = _board(board)
    taken_by: dict[int, int] = {}

    def record(player: Player, move) -> None:
        taken_by[int(move.text[1:]) - 1] = 1 if player is Player.LEFT else 2

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
        with open(svg, "w") as handle:
            handle.write(pizza_svg(start, taken_by, title))
    except OSError as exc:
        fail(f"cannot write {svg!r}: {exc.strerror}")
    out.print(f"picture written to {svg}")
