"""``cgf classic ...``: the value sequences of partizan subtraction games; and, as aliases of
the core's ``cgf sequence`` and ``cgf quotient``, Grundy sequences and misère quotients of
take-and-break codes named in one word (``0.137``, ``hex:0.F``, ``{1,2,5}``, ``kayles``)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from cgframework.cli import HELP_OPTIONS
from cgframework_classic.heaps import FIXED_CODES, HexCode, OctalCode, code_of_text

HELP = """Nim, subtraction, octal and hexadecimal games, Grundy's game, Domineering; the
values of partizan subtraction games.

`sequence` and `quotient` are the core's `cgf sequence` and `cgf quotient` (which take any
heap ruleset), reading the game as one word: an octal code (0.56, 4.07), hex:CODE (hex:0.F),
a subtraction set ({1,2,5}), kayles or dawsons-kayles (and, for sequence, grundys-game).

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

ALIAS_FAMILIES = ("octal", "hex", "subtraction")
"""The older ``cgf classic sequence FAMILY CODE`` spelling: the family named, then its code."""
CODE_FORMS = "an octal code (0.77, 4.07), hex:CODE (hex:0.F), a subtraction set ({1,2,3}), kayles"
CODE_HELP = f"{CODE_FORMS} or dawsons-kayles"
MAX_TO = 10_000_000
"""The largest ``--to`` (the core's table limit)."""


def parse_code(spec: str, also: str = "") -> tuple[OctalCode, str]:
    """A take-and-break code written as ``cgf classic quotient`` and ``sequence`` read it,
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
        return code_of_text(text)
    except ValueError as exc:
        fail(str(exc))


def _as_ruleset(code: OctalCode, text: str) -> tuple[str, str]:
    """The core ruleset and argument of a parsed code: octal, hex or subtraction."""
    if text.startswith("{"):
        return "subtraction", text
    if isinstance(code, HexCode):
        return "hex", str(code)
    return "octal", str(code)


def game_words(ruleset: str, spec: str | None) -> tuple[str, str | None]:
    """The ruleset and argument of the core commands for the game named here: one word read
    as ``cgf classic quotient`` reads it (:func:`parse_code`, plus ``grundys-game``), or the
    older two words ``octal CODE``, ``hex CODE``, ``subtraction SET`` (kept as an alias)."""
    from cgframework.cli import fail

    word = ruleset.strip()
    if spec is None and word not in ALIAS_FAMILIES:
        if word == "grundys-game":
            return "grundys-game", None
        code, _ = parse_code(word, also=", or grundys-game")
        return _as_ruleset(code, word)
    if word == "grundys-game":
        if spec:
            fail("grundys-game takes no CODE")
        return "grundys-game", None
    if word in FIXED_CODES:
        if spec:
            fail(f"{word} has a fixed code; give no CODE")
        return "octal", FIXED_CODES[word]
    if word not in ALIAS_FAMILIES:
        fail(
            f"a second argument ({str(spec)[:40]!r}) follows only octal, hex or subtraction "
            f"(the older spelling); got {ruleset[:40]!r}"
        )
    if not spec:
        fail(f"{word} needs a CODE")
    text = spec.strip()
    if word == "subtraction" and not (text.startswith("{") and text.endswith("}")):
        fail(f"subtraction set must look like {{1,2,3}}, got {spec[:40]!r}")
    try:
        code, _ = code_of_text(f"hex:{text}" if word == "hex" else text)
    except ValueError as exc:
        fail(str(exc))
    if word == "octal" and text.startswith("{"):
        fail(f"octal code {text[:40]!r}: give the subtraction set as subtraction {text[:40]}")
    return _as_ruleset(code, text)


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
    """Grundy values of heaps 0..TO and the period they prove (octal periodicity theorem):
    `cgf sequence` for a code written in one word.

    CODE is read as `cgf classic quotient` reads it: an octal code (0.137, 4.07), hex:CODE
    (hex:0.F), a subtraction set ({1,2,5}), kayles, dawsons-kayles, or grundys-game. The
    older spellings `octal CODE`, `hex CODE` and `subtraction SET` are kept as aliases.
    Computed by the sequence engine (compiled when built; the sparse-space method when the
    values allow it), up to 10^7 heaps. A progress bar is shown on stderr when it is a
    terminal. -o and --plot must name different files.

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
    from cgframework.cli.sequences import heap_game, run_sequence

    name, argument = game_words(ruleset, code)
    run_sequence(
        heap_game(name, argument),
        to,
        until_period=until_period,
        as_json=as_json,
        output=output,
        plot=plot,
        timeout=timeout,
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
    """The misère quotient of the sums of heaps 1..N (Plambeck & Siegel 2008): `cgf
    quotient` for a code written in one word.

    Prints its order, a presentation (generators a, b, c, ... are heaps whose image is new),
    the P-portion and every heap's image, and whether the quotient is proved to be that of
    the whole game (stabilised) or only observed up to N. Exact: each candidate is verified
    for every sum of heaps before it is printed.

    \b
    Examples:
      cgf classic quotient 0.75 --max-heap 24
      cgf classic quotient kayles --max-heap 10 --json
    """
    from cgframework.cli.sequences import heap_game, run_quotient

    parsed, label = parse_code(code)
    name, argument = _as_ruleset(parsed, code.strip())
    run_quotient(
        heap_game(name, argument, label=label),
        max_heap,
        as_json=as_json,
        max_order=max_order,
        timeout=timeout,
    )
