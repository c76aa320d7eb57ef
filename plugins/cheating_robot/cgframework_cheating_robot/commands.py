"""``cgf cr ...``: outcome, neg, compare, sh-solve, td (paper 002)."""

from __future__ import annotations

from typing import Annotated

import typer

from cgframework.cli import HELP_OPTIONS
from cgframework.runtime.deep import deep

HELP = """Cheating-robot games (Huggan & Nowakowski).

\b
Examples:
  cgf cr sh-solve "{6|0|-55}" "{10|0|-36}" --strategy
  cgf cr outcome "{10|8|-3}" "{5|-2|-4}" 2
"""

cr_app = typer.Typer(
    help=HELP,
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
)
GamesArgument = Annotated[
    list[str], typer.Argument(metavar="GAME", help="Games, summed; each may be @FILE or -.")
]


def _parts(texts: list[str]):
    """The summands of GAMES; each argument may be ``@FILE`` or ``-`` (stdin)."""
    from cgframework.cli import fail, read_position_text
    from cgframework_cheating_robot.games import parse_sum

    texts = [read_position_text(t) for t in texts]
    try:
        return tuple(p for t in texts for p in parse_sum(t))
    except ValueError as exc:
        fail(f"invalid cheating-robot game {' + '.join(texts)!r}: {exc}")


@cr_app.command()
@deep
def outcome(games: GamesArgument) -> None:
    """Outcome L, D or R of the sum of GAMES (round search).

    \b
    Examples:
      cgf cr outcome "{10|8|-3}" "{5|-2|-4}" 2
      cgf cr outcome "{1|0|-1}" -1
    """
    from cgframework_cheating_robot.games import outcome_sum

    typer.echo(outcome_sum(_parts(games)))


@cr_app.command()
@deep
def neg(games: GamesArgument) -> None:
    """Conjugate (Def 8) of each game.

    \b
    Examples:
      cgf cr neg "{10|8|-3}"
      cgf cr neg "{1,2|[[0,1],[1,0]]|-1,-2}"
    """
    from cgframework_cheating_robot.games import format_game
    from cgframework_cheating_robot.games import neg as conj

    for p in _parts(games):
        typer.echo(format_game(conj(p)))


@cr_app.command()
@deep
def compare(
    g: Annotated[str, typer.Argument(metavar="G", help="A game or a sum.")],
    h: Annotated[str, typer.Argument(metavar="H", help="A game or a sum.")],
    bound: Annotated[int, typer.Option(help="Search bound for a distinguishing X.")] = 3,
) -> None:
    """Compare G and H (each may be a sum).

    \b
    Examples:
      cgf cr compare "{2|0|-4}" "{1|0|-1} + 1"
      cgf cr compare "{6|0|-55}" -30 --bound 4
    """
    from cgframework_cheating_robot.compare import compare as cmp
    from cgframework_cheating_robot.games import add

    def one(t: str):
        ps = _parts([t])
        out = ps[0]
        for p in ps[1:]:
            out = add(out, p)
        return out

    c = cmp(one(g), one(h), bound)
    typer.echo(f"G {c.relation} H ({'exact' if c.exact else 'search'}: {c.reason})")
    for k, x in c.witnesses.items():
        typer.echo(f"  {k}: X = {x}")


@cr_app.command("sh-solve")
@deep
def sh_solve(
    games: GamesArgument,
    backend: Annotated[
        str, typer.Option(metavar="dp|networkx", help="Maximum-weight matching by.")
    ] = "dp",
    strategy: Annotated[
        bool, typer.Option("--strategy", help="Also print Left's order and Right's replies.")
    ] = False,
) -> None:
    """Value and outcome of simple hot games + integers (Thm 11).

    \b
    Examples:
      cgf cr sh-solve "{6|0|-55}" "{10|0|-36}" --strategy
      cgf cr sh-solve "{6|0|-55}" 2 -1
    """
    from cgframework.cli import fail
    from cgframework_cheating_robot.sh import solve_sh

    parts = _parts(games)
    try:
        r = solve_sh(parts, backend)
    except ValueError as exc:
        fail(str(exc))
    typer.echo(f"value {r.value}  outcome {r.outcome}")
    if strategy:
        typer.echo("Left plays, in order: " + " ".join(str(i + 1) for i in r.order))
        typer.echo(
            "Right answers (Left plays i -> Right plays j): "
            + (", ".join(f"{i + 1}->{j + 1}" for i, j in r.pairs) or "none; always locally")
        )


@cr_app.command()
@deep
def td(
    rows: Annotated[list[str], typer.Argument(metavar="ROW", help="p,q rows or B/W strings.")],
    explicit: Annotated[bool, typer.Option("--explicit", help="rows are B/W strings")] = False,
) -> None:
    """TD2 rows 'p,q' (B^p W^q) -> {p-1|p-q|1-q} (Lemma 7, valid in CR_SH) and solve;
    with --explicit, rows like BBWW played by the full toppling rules (round search).

    \b
    Examples:
      cgf cr td 3,2 2,4
      cgf cr td BBWW BWW --explicit
    """
    from cgframework.cli import fail

    if explicit:
        from cgframework_cheating_robot.games import outcome_sum
        from cgframework_cheating_robot.td import row_game

        if any(not r or set(r) - {"B", "W"} for r in rows):
            fail("an explicit toppling row is a non-empty string of B and W")
        typer.echo(outcome_sum(tuple(row_game(r) for r in rows)))
        return
    from cgframework_cheating_robot.games import td2
    from cgframework_cheating_robot.sh import solve_sh

    try:
        parts = tuple(td2(*map(int, r.strip("()").split(","))) for r in rows)
    except (ValueError, TypeError) as exc:
        fail(f"invalid TD2 row: {exc}")
    r = solve_sh(parts)
    typer.echo(f"value {r.value}  outcome {r.outcome}")
    typer.echo("matching: " + ", ".join(f"{rows[i]}-{rows[j]}" for i, j in r.pairs))
