"""``cgf classic ...``: Grundy sequences of take-and-break games and their proven periods."""

from __future__ import annotations

import json
import sys
import time
from array import array
from collections.abc import Iterator
from typing import IO, Annotated, Any

import attrs
import typer

from cgframework.cli import HELP_OPTIONS
from cgframework_classic.engine import MAX_HEAPS, GrundySequence, TakeAndBreak
from cgframework_classic.heaps import OctalCode

HELP = """Nim, subtraction, octal and hexadecimal games, Grundy's game, Domineering.

\b
Examples:
  cgf classic sequence kayles --to 500
  cgf classic sequence octal 0.56 --to 1000000 --until-period
"""

classic_app = typer.Typer(
    help=HELP,
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
)

FIXED_CODES = {"kayles": "0.77", "dawsons-kayles": "0.07"}
FAMILIES = "kayles|dawsons-kayles|octal|hex|subtraction|grundys-game"
MAX_TO = MAX_HEAPS - 1
"""The largest ``--to``: G(0..MAX_TO) is MAX_HEAPS values (40 MB)."""

PERIOD_CHECK_GROWTH = 1.25
"""With ``--until-period``, the period is looked for each time the sequence grows by this."""

TEXT_CHUNK = 1 << 16
"""Values written per write call (text outputs are streamed, never built whole)."""


@attrs.frozen
class Game:
    """What ``cgf classic sequence`` computes: the moves, a label, and the code's length t
    for the octal periodicity theorem (None: no such theorem for this game)."""

    label: str
    rules: TakeAndBreak
    code_length: int | None


def _code_of(ruleset: str, spec: str | None) -> OctalCode:
    from cgframework.cli import fail

    if ruleset in FIXED_CODES:
        if spec:
            fail(f"{ruleset} has a fixed code; give no CODE")
        return OctalCode.parse(FIXED_CODES[ruleset])
    if not spec:
        fail(f"{ruleset} needs a CODE")
    if ruleset == "octal":
        return OctalCode.parse(spec)
    if ruleset == "hex":
        return _parse_hex(spec)
    body = spec.strip()
    if not (body.startswith("{") and body.endswith("}")):
        fail(f"subtraction set must look like {{1,2,3}}, got {spec!r}")
    members = []
    for token in body[1:-1].split(","):
        token = token.strip()
        if not (token.isascii() and token.isdigit()) or int(token) == 0:
            fail(f"subtraction set member {token[:40]!r} is not a positive integer")
        if len(token) > 12:
            fail(f"subtraction set member {token[:40]}... is too large")
        members.append(int(token))
    return OctalCode.subtraction(members)


def _parse_hex(spec: str) -> OctalCode:
    """A hexadecimal code (``0.F``, ``4.0F7``): digits 0-9, A-F (bit 8: leave three heaps)."""
    parse = getattr(OctalCode, "parse_hex", None)
    if parse is not None:
        return parse(spec)
    text = spec.strip()
    head, dot, tail = text.partition(".")
    if not dot:
        raise ValueError(f"hexadecimal code {text!r}: write it with a point, e.g. 0.F")
    head = head or "0"
    digits = []
    for ch in head + tail:
        if ch not in "0123456789abcdefABCDEF":
            raise ValueError(f"hexadecimal code {text!r}: digit {ch!r} is not 0-9 or A-F")
        digits.append(int(ch, 16))
    if len(head) != 1:
        raise ValueError(f"hexadecimal code {text!r}: one digit before the point")
    if not any(digits[1:]) and not digits[0] & 12:
        raise ValueError(f"hexadecimal code {text!r} allows no move")
    while len(digits) > 1 and not digits[-1]:
        digits.pop()
    return OctalCode(tuple(digits))


def _hex_text(code: OctalCode) -> str:
    digits = [f"{d:X}" for d in code.digits]  # type: ignore[union-attr]
    return f"{digits[0]}." + "".join(digits[1:])


def game_of(ruleset: str, spec: str | None) -> Game:
    """The game named on the command line; bad input is one line (exit 2)."""
    from cgframework.cli import fail

    if ruleset == "grundys-game":
        if spec:
            fail("grundys-game takes no CODE")
        return Game("Grundy's game", TakeAndBreak.grundys_game(), None)
    if ruleset not in (*FIXED_CODES, "octal", "hex", "subtraction"):
        fail(f"expected one of {FAMILIES.replace('|', ', ')}, got {ruleset!r}")
    try:
        code = _code_of(ruleset, spec)
        rules = TakeAndBreak.of_digits(code.nonzero())
    except ValueError as exc:
        fail(str(exc))
    label = f"hex {_hex_text(code)}" if ruleset == "hex" else f"octal {code}"
    # the theorem is stated for codes 0.d1d2... (no split of a whole heap: d0 = 0)
    return Game(label, rules, code.length if code.digits[0] == 0 else None)


def _period(values: Any, game: Game) -> Any:
    from cgframework_classic.periodicity import find_period

    if game.code_length is None or game.rules.split_three:
        return None
    return find_period(values, game.code_length)


def _progress(total: int) -> Any:
    """A rich progress bar on stderr when stderr is a terminal, else nothing."""
    if not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    return Progress(
        "heaps",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )


def compute(
    game: Game, to: int, until_period: bool, timeout: float | None
) -> tuple[GrundySequence, Any]:
    """The sequence G(0..to) (or less, with ``until_period``, once a period is proven)."""
    seq = GrundySequence(game.rules)
    deadline = None if timeout is None else time.monotonic() + timeout
    found: list[Any] = [None]
    next_check = [64]

    def stop(current: GrundySequence) -> bool:
        if not until_period or current.size < next_check[0]:
            return False
        next_check[0] = int(current.size * PERIOD_CHECK_GROWTH) + 1
        found[0] = _period(current.computed, game)
        return found[0] is not None

    bar = _progress(to + 1)
    if bar is None:
        seq.extend(to + 1, deadline=deadline, stop=stop)
    else:
        with bar:
            task = bar.add_task("heaps", total=to + 1)
            seq.extend(
                to + 1,
                deadline=deadline,
                stop=stop,
                progress=lambda size: bar.update(task, completed=size),
            )
    period = found[0] if until_period and found[0] is not None else _period(seq.computed, game)
    return seq, period


def _saltus(values: Any, game: Game) -> Any:
    from cgframework_classic import periodicity

    find = getattr(periodicity, "find_saltus", None)
    if find is None or game.code_length is None:
        return None
    return find(values, game.code_length)


def _chunks(values: memoryview) -> Iterator[memoryview]:
    for start in range(0, len(values), TEXT_CHUNK):
        yield values[start : start + TEXT_CHUNK]


def _write_values(path: str, values: memoryview) -> None:
    """``.bin``: raw little-endian uint32, G(0) first; else text, one value per line."""
    from cgframework.runtime.outputs import open_output

    binary = path.endswith(".bin")
    with open_output(path, binary=binary) as out:
        for chunk in _chunks(values):
            if binary:
                part = array("I", chunk)
                if sys.byteorder == "big":
                    part.byteswap()
                out.write(part.tobytes())
            else:
                out.write("".join(f"{g}\n" for g in chunk))


def _write_json(out: IO[str], record: dict[str, Any], values: memoryview) -> None:
    """The JSON record, its ``grundy`` list streamed (10^7 values never make one string)."""
    head = json.dumps({"code": record.pop("code")})[:-1]
    out.write(head + ', "grundy": [')
    for index, chunk in enumerate(_chunks(values)):
        out.write(("," if index else "") + ",".join(map(str, chunk)))
    out.write("], " + json.dumps(record)[1:] + "\n")


@classic_app.command()
def sequence(
    ruleset: Annotated[
        str,
        typer.Argument(
            metavar=FAMILIES,
            help="The game (octal, hex and subtraction take a CODE).",
        ),
    ],
    code: Annotated[
        str | None, typer.Argument(help="octal code (0.77), hex code (0.F) or set ({1,2,3})")
    ] = None,
    to: Annotated[int, typer.Option(help=f"last heap size (at most {MAX_TO})")] = 100,
    until_period: Annotated[
        bool,
        typer.Option(
            "--until-period", help="stop as soon as the values prove a period (before --to)"
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            metavar="FILE",
            help="write the values: one per line, or raw little-endian uint32 if FILE ends in .bin",
        ),
    ] = None,
    plot: Annotated[
        str | None, typer.Option(metavar="FILE.svg", help="draw value against heap (SVG)")
    ] = None,
    timeout: Annotated[
        float | None, typer.Option(metavar="SECONDS", help="give up after this long (exit 3)")
    ] = None,
) -> None:
    """Grundy values of heaps 0..TO and the period they prove (octal periodicity theorem).

    Computed by the sequence engine (compiled when built; the sparse-space method when the
    values allow it), up to 10^7 heaps. A progress bar is shown on stderr when it is a
    terminal.

    \b
    Examples:
      cgf classic sequence kayles --to 500
      cgf classic sequence octal 0.137 --to 300 --json
      cgf classic sequence octal 0.56 --to 1000000 --until-period
      cgf classic sequence hex 0.F --to 200
      cgf classic sequence grundys-game --to 100000 -o grundy.bin
      cgf classic sequence subtraction "{1,2,5}" --to 100
    """
    from cgframework.cli import fail
    from cgframework.runtime.budget import SearchStopped

    if to < 0 or to > MAX_TO:
        fail(f"--to must be between 0 and {MAX_TO} (the engine's limit), got {to}")
    if timeout is not None and not timeout > 0:
        fail(f"--timeout must be positive, got {timeout}")
    game = game_of(ruleset, code)
    if until_period and game.code_length is None:
        fail(f"--until-period: no periodicity theorem for {game.label}; give --to only")
    if plot is not None:
        from cgframework_classic import pictures

        if not hasattr(pictures, "sequence_svg"):
            fail("--plot is not available in this version")
    try:
        seq, period = compute(game, to, until_period, timeout)
    except SearchStopped:
        raise SearchStopped(f"the sequence took more than --timeout {timeout:g} seconds") from None
    except OverflowError as exc:
        fail(f"{game.label}: {exc}")
    values = seq.computed
    if output is not None:
        _write_values(output, values)
    if plot is not None:
        from cgframework.cli.common import write_picture
        from cgframework_classic.pictures import sequence_svg

        write_picture(plot, lambda: sequence_svg(values, game.label))
    saltus = _saltus(values, game) if period is None else None
    if as_json:
        record: dict[str, Any] = {
            "code": game.label.split(" ", 1)[-1]
            if game.code_length is not None
            else "grundys-game",
            "period": None,
            "preperiod": None,
            "last_exception": None,
            "saltus": None,
        }
        if period:
            record.update(
                period=period.period,
                preperiod=period.preperiod,
                last_exception=period.last_exception,
            )
        if saltus is not None:
            record["saltus"] = attrs.asdict(saltus) if attrs.has(type(saltus)) else saltus
        _write_json(sys.stdout, record, values)
        return
    last_heap = len(values) - 1
    print(f"{game.label}: G(0..{last_heap})")
    for start in range(0, len(values), 20):
        row = values[start : start + 20]
        print(f"{start:>6}: " + " ".join(f"{g:>2}" for g in row))
    if period is None:
        if game.code_length is None or game.rules.split_three:
            print("no periodicity theorem for this game")
        else:
            print("no period proven by these values (try a larger --to)")
    else:
        last = period.last_exception
        after = f"last exceptional value at heap {last}" if last is not None else "purely periodic"
        print(
            f"period {period.period}, pre-period {period.preperiod} ({after}); "
            "proven by the octal periodicity theorem"
        )
