"""``cgf guaranteed ...``: canon, stops, add, conj, compare, invertible, embed, census."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from cgframework.cli import HELP_OPTIONS
from cgframework.runtime.budget import LimitExceeded
from cgframework.runtime.deep import deep

HELP = """Guaranteed scoring games (Larsson, Neto, Nowakowski, Santos): exact, canonical.

\b
Examples:
  cgf guaranteed canon "<<2|2,<2|2>>,<1|1>|<<<^4|4>|<4|^4>>|-5>>"
  cgf guaranteed census --day 1 --atoms=-1,0,1
"""

guaranteed_app = typer.Typer(
    help=HELP,
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
)

JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
GameArgument = Annotated[
    str, typer.Argument(metavar="GAME", help="A scoring game, e.g. <^-3|<2|1>>; @FILE or -.")
]


def _game(text: str, *, need_guaranteed: bool = True):
    """Parse a game (``@FILE`` and ``-`` read it), failing with one line on bad input."""
    from cgframework.cli import fail, read_position_text, shorten
    from cgframework_guaranteed.games import violation
    from cgframework_guaranteed.notation import parse_game

    text = read_position_text(text)
    try:
        g = parse_game(text)
    except ValueError as exc:
        fail(f"invalid scoring game {shorten(text)}: {exc}")
    if need_guaranteed:
        why = violation(g)
        if why is not None:
            fail(f"{shorten(text)} is not a guaranteed scoring game: {why}")
    return g


def _facts(g) -> dict[str, Any]:
    from cgframework_guaranteed.canonical import is_invertible
    from cgframework_guaranteed.games import size
    from cgframework_guaranteed.ruleset import stops_json

    return {
        "value": str(g),
        "stops": stops_json(g.stops),
        "invertible": is_invertible(g),
        "birthday": g.birthday,
        "nodes": size(g),
    }


def _emit(as_json: bool, data: dict[str, Any], text: str) -> None:
    typer.echo(json.dumps(data) if as_json else text)


@guaranteed_app.command()
@deep
def canon(game: GameArgument, as_json: JsonOption = False) -> None:
    """Canonical (reduced) form of GAME (Thm 45, Cor 46).

    \b
    Examples:
      cgf guaranteed canon "<<2|2,<2|2>>,<1|1>|<<<^4|4>|<4|^4>>|-5>>"
      cgf guaranteed canon "<1|<0|^1>>" --json
    """
    from cgframework_guaranteed.canonical import canonical

    c = canonical(_game(game))
    _emit(as_json, {"input": game, **_facts(c)}, str(c))


@guaranteed_app.command()
@deep
def stops(game: GameArgument, as_json: JsonOption = False) -> None:
    """Ls, Rs (Def. 8) and the pass-allowed stops (Def. 22) of GAME.

    \b
    Examples:
      cgf guaranteed stops "<^-5|<<10|1>|3>>" --json
    """
    from cgframework_guaranteed.ruleset import stops_json

    g = _game(game, need_guaranteed=False)
    data = stops_json(g.stops)
    if not g.guaranteed:  # Def. 22's recursions hold only in GS
        data = {"Ls": data["Ls"], "Rs": data["Rs"], "guaranteed": False}
    _emit(as_json, data, "  ".join(f"{k}={v}" for k, v in data.items()))


@guaranteed_app.command()
@deep
def add(
    games: Annotated[
        list[str], typer.Argument(metavar="GAME", help="Games to add (each may be @FILE or -).")
    ],
    raw: Annotated[bool, typer.Option("--raw", help="The sum as a form, not reduced.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Sum of GAMES (Def. 5), in canonical form unless --raw.

    \b
    Examples:
      cgf guaranteed add "<^-3|<2|1>>" "<-3|^0>"
      cgf guaranteed add "<^-3|<2|1>>" "<-3|^0>" --raw
    """
    from cgframework_guaranteed.canonical import canonical_sum
    from cgframework_guaranteed.games import add_all

    parts = [_game(g, need_guaranteed=not raw) for g in games]
    total = add_all(parts) if raw else canonical_sum(parts)
    _emit(as_json, {"games": games, "raw": raw, "sum": str(total)}, str(total))


@guaranteed_app.command()
@deep
def conj(game: GameArgument, as_json: JsonOption = False) -> None:
    """Conjugate ~GAME: the players switched (an inverse only if GAME is invertible).

    \b
    Examples:
      cgf guaranteed conj "<-1|<^5|10>>"
    """
    from cgframework_guaranteed.games import conjugate

    c = conjugate(_game(game, need_guaranteed=False))
    _emit(as_json, {"input": game, "conjugate": str(c)}, str(c))


@guaranteed_app.command()
@deep
def compare(
    g: Annotated[str, typer.Argument(metavar="G", help="A scoring game, e.g. <1|<0|^1>>.")],
    h: Annotated[str, typer.Argument(metavar="H", help="A scoring game.")],
    as_json: JsonOption = False,
) -> None:
    """Relation of G to H (Thm 44): equal, greater, less or incomparable, with a
    distinguishing game X (a witness that G >= H or H >= G fails) when one is found.

    \b
    Examples:
      cgf guaranteed compare 1/2 "<0|^0>" --json
      cgf guaranteed compare "<^-3|-2>" -5
    """
    from cgframework_guaranteed.order import compare as relation
    from cgframework_guaranteed.order import distinguishing_game, witnesses_not_ge

    a, b = _game(g), _game(h)
    rel = relation(a, b)
    data: dict[str, Any] = {"G": str(a), "H": str(b), "relation": rel.value}
    lines = [f"G {rel.symbol} H ({rel.value})"]
    for name, (x, y) in {"not G >= H": (a, b), "not H >= G": (b, a)}.items():
        if rel.value in ("equal", "greater" if name == "not G >= H" else "less"):
            continue
        w = distinguishing_game(x, y)
        key = "witness_not_ge" if name == "not G >= H" else "witness_not_le"
        data[key] = None if w is None else {"X": str(w), "stop": witnesses_not_ge(x, y, w)}
        lines.append(
            f"  {name}: "
            + ("no small witness found" if w is None else f"X = {w} ({witnesses_not_ge(x, y, w)})")
        )
    _emit(as_json, data, "\n".join(lines))


@guaranteed_app.command()
@deep
def invertible(game: GameArgument, as_json: JsonOption = False) -> None:
    """Whether GAME has an inverse, and the inverse (the conjugate, Thm 48).

    \b
    Examples:
      cgf guaranteed invertible "<0|<0|^1>>"
    """
    from cgframework_guaranteed.canonical import canonical, inverse

    g = canonical(_game(game))
    inv = inverse(g)
    data = {
        "value": str(g),
        "invertible": inv is not None,
        "inverse": None if inv is None else str(inv),
    }
    _emit(
        as_json,
        data,
        f"invertible: {str(inv is not None).lower()}" + (f"  inverse {inv}" if inv else ""),
    )


@guaranteed_app.command()
@deep
def embed(
    normal: Annotated[
        str | None, typer.Option("--normal", help='A normal-play value, e.g. "{1|0}".')
    ] = None,
    check_day: Annotated[
        int | None,
        typer.Option(help="Check Thm 17 on all pairs of normal-play values born by this day."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """The GS image of a normal-play game (Def. 16: empty side -> ^0), or with --check-day a
    check that the embedding preserves order (Thm 17).

    \b
    Examples:
      cgf guaranteed embed --normal "{1|0}"
      cgf guaranteed embed --check-day 2
    """
    from cgframework.cli import fail, shorten
    from cgframework.values import parse_value
    from cgframework_guaranteed.embed import embed as image
    from cgframework_guaranteed.embed import normal_games_born_by, order_violations

    if (normal is None) == (check_day is None):
        fail("give --normal VALUE or --check-day N (exactly one)")
    if check_day is not None:
        if not 0 <= check_day <= 2:
            fail("--check-day must be 0, 1 or 2 (day 3 has 1474 values and 2 million pairs)")
        values = normal_games_born_by(check_day)
        bad = order_violations(values)
        data = {
            "day": check_day,
            "values": len(values),
            "pairs": len(values) ** 2,
            "violations": [[str(g), str(h)] for g, h in bad],
        }
        _emit(
            as_json,
            data,
            f"{len(values) ** 2} pairs of the {len(values)} values born by day {check_day}: "
            + ("order preserved" if not bad else f"{len(bad)} violations"),
        )
        return
    try:
        value = parse_value(normal)
    except ValueError as exc:
        fail(f"invalid normal-play value {shorten(normal)}: {exc}")
    if value.birthday() > MAX_EMBED_BIRTHDAY:
        raise LimitExceeded(
            f"{shorten(normal)} is born on day {value.birthday()}: its image would be a game "
            f"nested that deep (limit: day {MAX_EMBED_BIRTHDAY})"
        )
    g = image(value)
    _emit(as_json, {"normal": str(value), **_facts(g)}, str(g))


MAX_EMBED_BIRTHDAY = 20_000
"""The deepest normal-play value ``embed --normal`` builds (the image of the integer n is n
forms deep; printing day 44444 would already be 5e9 characters, refused anyway)."""


@guaranteed_app.command()
@deep
def census(
    day: Annotated[int, typer.Option(help="Birthday: games born by this day.")] = 1,
    atoms: Annotated[str, typer.Option(help="Comma-separated atom scores.")] = "-1,0,1",
    limit: Annotated[int, typer.Option(help="Refuse days that need more forms.")] = 5_000_000,
    as_json: JsonOption = False,
    progress: Annotated[bool | None, typer.Option(help="Progress bar on stderr.")] = None,
) -> None:
    """All guaranteed games born by DAY with atoms in ATOMS, in equivalence classes.

    \b
    Examples:
      cgf guaranteed census --day 1 --atoms=-1,0,1
      cgf guaranteed census --day 1 --atoms=0 --json
    """
    import sys
    from fractions import Fraction

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from cgframework.cli import fail, print_table
    from cgframework_guaranteed.census import CensusTooLarge
    from cgframework_guaranteed.census import census as run_census

    try:
        scores = [Fraction(a.strip()) for a in atoms.split(",") if a.strip()]
    except (ValueError, ZeroDivisionError) as exc:
        fail(f"invalid --atoms {atoms!r}: {exc}")
    if day < 0:
        fail("--day must be at least 0")
    if not scores:
        fail("--atoms needs at least one score")
    err = Console(stderr=True)
    show = sys.stderr.isatty() if progress is None else progress
    with Progress(
        "census",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=not show,
    ) as bar:
        task = bar.add_task("forms", total=None)
        try:
            result = run_census(
                day,
                scores,
                limit=limit,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
        except CensusTooLarge as exc:
            fail(str(exc))
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "day": day,
                    "atoms": [str(a) for a in result.atoms],
                    "forms": result.forms,
                    "classes_per_day": list(result.per_day),
                    "classes": [
                        {"canonical": str(c.canonical), "forms": c.forms} for c in result.classes
                    ],
                }
            )
        )
        return
    rows = []
    for i, c in enumerate(result.classes, 1):
        s = c.canonical.stops
        rows.append(
            (
                str(i),
                str(c.canonical),
                str(c.canonical.birthday),
                str(c.forms),
                str(s.Ls),
                str(s.Rs),
            )
        )
    print_table(
        rows,
        ("#", "canonical form", "born", "forms", "Ls", "Rs"),
        title=f"{result.forms} guaranteed forms born by day {day}, {len(result.classes)} classes",
    )
