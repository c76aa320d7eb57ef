"""``cgf classic ...``: Grundy sequences of take-and-break games and their proven periods;
the value sequences of partizan subtraction games."""

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
from cgframework_classic.heaps import HexCode, OctalCode

HELP = """Nim, subtraction, octal and hexadecimal games, Grundy's game, Domineering; the
values of partizan subtraction games.

Both heap-game commands read a game the same way: an octal code (0.56, 4.07), hex:CODE
(hex:0.F), a subtraction set ({1,2,5}), kayles or dawsons-kayles (and, for sequence,
grundys-game).

\b
Examples:
  cgf classic sequence kayles --to 500
  cgf classic sequence 0.56 --to 1000000 --until-period
  cgf classic quotient 0.75 --max-heap 24
  cgf classic partizan-values "{1,2|2,3}" --to 20
"""

classic_app = typer.Typer(
    help=HELP,
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
)

FIXED_CODES = {"kayles": "0.77", "dawsons-kayles": "0.07"}
ALIAS_FAMILIES = ("octal", "hex", "subtraction")
"""The older ``cgf classic sequence FAMILY CODE`` spelling: the family named, then its code."""
CODE_FORMS = "an octal code (0.77, 4.07), hex:CODE (hex:0.F), a subtraction set ({1,2,3}), kayles"
CODE_HELP = f"{CODE_FORMS} or dawsons-kayles"
MAX_TO = MAX_HEAPS - 1
"""The largest ``--to``: G(0..MAX_TO) is MAX_HEAPS values (40 MB)."""

PERIOD_CHECK_GROWTH = 1.25
"""With ``--until-period``, the period is looked for each time the sequence grows by this."""

TEXT_CHUNK = 1 << 16
"""Values written per write call (text outputs are streamed, never built whole)."""


@attrs.frozen
class Game:
    """What ``cgf classic sequence`` computes: the moves, a label, and the code (None for
    Grundy's game, which has no periodicity theorem: its split must stay unequal)."""

    label: str
    rules: TakeAndBreak
    code: OctalCode | None


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
        return HexCode.parse(spec)
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


def game_of(ruleset: str, spec: str | None) -> Game:
    """The game named on the command line, as ``cgf classic quotient`` reads it
    (:func:`parse_code`, plus ``grundys-game``), or in the older two-word form ``octal
    CODE``, ``hex CODE``, ``subtraction SET`` (kept as an alias); bad input is one line
    (exit 2)."""
    from cgframework.cli import fail

    if spec is None and ruleset.strip() not in ALIAS_FAMILIES:
        if ruleset.strip() == "grundys-game":
            return Game("Grundy's game", TakeAndBreak.grundys_game(), None)
        code, _ = parse_code(ruleset, also=", or grundys-game")
        try:
            rules = TakeAndBreak.of_digits(code.nonzero())
        except ValueError as exc:
            fail(str(exc))
        return Game(f"{code.kind} {code}", rules, code)
    if ruleset == "grundys-game":
        if spec:
            fail("grundys-game takes no CODE")
        return Game("Grundy's game", TakeAndBreak.grundys_game(), None)
    if ruleset not in (*FIXED_CODES, *ALIAS_FAMILIES):
        fail(
            f"a second argument ({spec[:40]!r}) follows only octal, hex or subtraction (the "
            f"older spelling); got {ruleset[:40]!r}"
        )
    try:
        code = _code_of(ruleset, spec)
        rules = TakeAndBreak.of_digits(code.nonzero())
    except ValueError as exc:
        fail(str(exc))
    return Game(f"{code.kind} {code}", rules, code)


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
    """The sequence G(0..to) and the period it proves (None if none, or no theorem); with
    ``until_period``, stop as soon as a period is proven (looked for each time the sequence
    has grown by :data:`PERIOD_CHECK_GROWTH`: a linear pass each time)."""
    from cgframework_classic.periodicity import PeriodWatcher

    seq = GrundySequence(game.rules)
    deadline = None if timeout is None else time.monotonic() + timeout
    code = game.code
    watcher = None if code is None else PeriodWatcher(code.length, code.heaps_left)
    next_check = [64]

    def stop(current: GrundySequence) -> bool:
        if watcher is None:
            return False
        watcher.extend(current.values[len(watcher) : current.size])
        if not until_period or current.size < next_check[0]:
            return False
        next_check[0] = int(current.size * PERIOD_CHECK_GROWTH) + 1
        return watcher.proven is not None

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
    if watcher is None:
        return seq, None
    watcher.extend(seq.values[len(watcher) : seq.size])
    return seq, watcher.proven


def _saltus(values: Any, game: Game) -> Any:
    from cgframework_classic.periodicity import find_saltus

    if game.code is None:
        return None
    return find_saltus(values, code=game.code)


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
            metavar="CODE",
            help=f"The game: {CODE_FORMS}, dawsons-kayles or grundys-game, read as `cgf "
            "classic quotient` reads codes.",
        ),
    ],
    code: Annotated[
        str | None,
        typer.Argument(
            metavar="ALIAS_CODE",
            help="Only after octal, hex or subtraction: the older two-word spelling, kept as "
            "an alias (octal 0.77, hex 0.F, subtraction {1,2,3}).",
        ),
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
            help="write the values: one per line, or raw little-endian uint32 if FILE ends in "
            ".bin (not the --plot file)",
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

    CODE is read as `cgf classic quotient` reads it: an octal code (0.137, 4.07), hex:CODE
    (hex:0.F), a subtraction set ({1,2,5}), kayles, dawsons-kayles, or grundys-game. The
    older spellings `octal CODE`, `hex CODE` and `subtraction SET` are kept as aliases.
    Computed by the sequence engine (compiled when built; the sparse-space method when the
    values allow it), up to 10^7 heaps. A progress bar is shown on stderr when it is a
    terminal.

    \b
    Examples:
      cgf classic sequence kayles --to 500
      cgf classic sequence 0.137 --to 300 --json
      cgf classic sequence 0.56 --to 1000000 --until-period
      cgf classic sequence hex:0.F --to 200
      cgf classic sequence grundys-game --to 100000 -o grundy.bin
      cgf classic sequence "{1,2,5}" --to 100
      cgf classic sequence octal 0.137 --to 300   # the older spelling, an alias
    """
    from cgframework.cli import distinct_files, fail
    from cgframework.runtime.budget import LimitExceeded, SearchStopped

    distinct_files({"-o": output, "--plot": plot})
    if to < 0 or to > MAX_TO:
        fail(f"--to must be between 0 and {MAX_TO} (the engine's limit), got {to}")
    if timeout is not None and not timeout > 0:
        fail(f"--timeout must be positive, got {timeout}")
    game = game_of(ruleset, code)
    if until_period and game.code is None:
        fail(f"--until-period: no periodicity theorem for {game.label}; give --to only")
    try:
        seq, period = compute(game, to, until_period, timeout)
    except SearchStopped:
        raise SearchStopped(f"the sequence took more than --timeout {timeout:g} seconds") from None
    except OverflowError as exc:  # values past the kernel's 2^30
        raise LimitExceeded(f"{game.label}: {exc}") from None
    values = seq.computed
    if output is not None:
        _write_values(output, values)
    if plot is not None:
        from cgframework.cli.common import write_picture
        from cgframework_classic.pictures import sequence_svg

        write_picture(plot, lambda: sequence_svg(values, game.label))
    if output == "-" and not as_json:
        return  # the values went to standard output, one per line
    saltus = _saltus(values, game) if period is None else None
    if as_json:
        record: dict[str, Any] = {
            "code": str(game.code) if game.code is not None else "grundys-game",
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
            record["saltus"] = attrs.asdict(saltus)
        _write_json(sys.stdout, record, values)
        return
    last_heap = len(values) - 1
    print(f"{game.label}: G(0..{last_heap})")
    for start in range(0, len(values), 20):
        row = values[start : start + 20]
        print(f"{start:>6}: " + " ".join(f"{g:>2}" for g in row))
    if period is None:
        if game.code is None:
            print("no periodicity theorem for this game")
        else:
            print("no period proven by these values (try a larger --to)")
        if saltus is not None:
            print(
                f"observed (not proven): G(n + {saltus.period}) = G(n) + {saltus.saltus} "
                f"for {saltus.preperiod} <= n <= {saltus.observed_to - saltus.period}"
            )
    else:
        last = period.last_exception
        after = f"last exceptional value at heap {last}" if last is not None else "purely periodic"
        print(
            f"period {period.period}, pre-period {period.preperiod} ({after}); "
            "proven by the periodicity theorem"
        )


@classic_app.command("partizan-values")
def partizan_values(
    sets: Annotated[
        str, typer.Argument(metavar="{SL|SR}", help="Left's and Right's subtraction sets")
    ],
    to: Annotated[int, typer.Option(help="last heap size (at most 200000)")] = 30,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Canonical values of the heaps 0..TO of a partizan subtraction game (Left subtracts a
    member of SL, Right of SR), built heap by heap as ``cgf solve partizan-subtraction`` does.

    \b
    Examples:
      cgf classic partizan-values "{1,2|2,3}" --to 20
      cgf classic partizan-values "{2,5|1,4}" --to 100 --json
    """
    from cgframework.cli import fail
    from cgframework_classic.closed_forms import MAX_SEQUENCE, value_sequence
    from cgframework_classic.partizan_subtraction import parse_partizan, sets_label

    try:
        game = parse_partizan(f"{sets}:0")
    except ValueError as exc:
        fail(f"bad sets {sets[:60]!r}: {exc}")
    if not 0 <= to <= MAX_SEQUENCE:
        fail(f"--to {to}: give 0 to {MAX_SEQUENCE}")
    seq = value_sequence(game.left, game.right)
    values = [str(seq[n]) for n in range(to + 1)]
    label = sets_label(game.left, game.right)
    if as_json:
        print(json.dumps({"sets": label, "values": values}))
        return
    print(f"partizan subtraction {label}: values of heaps 0..{to}")
    for n, value in enumerate(values):
        print(f"{n}\t{value}")


def parse_code(spec: str, also: str = "") -> tuple[OctalCode, str]:
    """A take-and-break game written as ``cgf classic quotient`` and ``sequence`` read it,
    and its label: ``0.75`` or ``4.07`` (octal), ``kayles``, ``dawsons-kayles``, ``hex:0.F``
    or a subtraction set ``{1,2,3}``; bad input is one line (exit 2), naming ``also`` among
    what is expected."""
    from cgframework.cli import fail

    text = spec.strip()
    if text == "grundys-game":
        fail("grundys-game is not a take-and-break code (its split must be unequal)")
    if text in ALIAS_FAMILIES:
        fail(f"{text} is a family, not a code: give the code itself ({CODE_HELP})")
    if text[:1].isalpha() and text not in FIXED_CODES and not text.lower().startswith("hex:"):
        fail(f"expected {CODE_HELP}{also}; got {text[:40]!r}")
    try:
        if text in FIXED_CODES:
            return OctalCode.parse(FIXED_CODES[text]), f"{text} (octal {FIXED_CODES[text]})"
        if text.startswith("{"):
            return _code_of("subtraction", text), f"subtraction {text}"
        if text.lower().startswith("hex:"):
            code = HexCode.parse(text[4:])
            return code, f"hex {code}"
        code = OctalCode.parse(text)
        return code, f"octal {code}"
    except ValueError as exc:
        fail(str(exc))


@classic_app.command()
def quotient(
    code: Annotated[
        str,
        typer.Argument(metavar="CODE", help=f"The game: {CODE_HELP}."),
    ],
    max_heap: Annotated[int, typer.Option(help="the heaps 1..N whose sums are quotiented")] = 12,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    max_order: Annotated[int, typer.Option(help="give up (exit 3) past this many elements")] = 1000,
    timeout: Annotated[
        float | None, typer.Option(metavar="SECONDS", help="give up after this long (exit 3)")
    ] = None,
) -> None:
    """The misère quotient of the sums of heaps 1..N (Plambeck & Siegel 2008).

    Prints its order, a presentation (generators a, b, c, ... are heaps whose image is new),
    the P-portion and every heap's image, and whether the quotient is proved to be that of
    the whole game (stabilised) or only observed up to N. Exact: each candidate is verified
    for every sum of heaps before it is printed.

    \b
    Examples:
      cgf classic quotient 0.75 --max-heap 24
      cgf classic quotient kayles --max-heap 10 --json
    """
    from cgframework.cli import fail
    from cgframework_classic.quotient import MAX_HEAP, misere_quotient

    if not 1 <= max_heap <= MAX_HEAP:
        fail(f"--max-heap must be between 1 and {MAX_HEAP}, got {max_heap}")
    if max_order < 1:
        fail(f"--max-order must be positive, got {max_order}")
    if timeout is not None and not timeout > 0:
        fail(f"--timeout must be positive, got {timeout}")
    game, label = parse_code(code)
    q = misere_quotient(game, max_heap, max_order=max_order, timeout=timeout, label=str(game))
    if as_json:
        record = q.to_json()
        record["game"] = label
        print(json.dumps(record))
        return
    print(f"misère quotient of {label}, heaps 1..{max_heap}: order {q.order}")
    print(f"  presentation  {q.presentation()}")
    print(f"  P-portion     {{{', '.join(q.word(x) for x in sorted(q.p_portion, key=q.word))}}}")
    if q.stabilised:
        print(
            f"  stabilised    proved: images periodic (period {q.period} from heap "
            f"{q.preperiod}); this is the quotient of every heap size"
        )
    else:
        print(f"  stabilised    not proved stable, observed up to heap {max_heap}")
    print("  heap images")
    for start in range(1, max_heap + 1, 10):
        row = range(start, min(start + 10, max_heap + 1))
        print(f"  {start:>5}: " + " ".join(f"{q.word(q.images[h]):>6}" for h in row))
