"""``cgf classic ...``: Grundy sequences of heap games and their proven periods."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from cgframework import Family
from cgframework.cli import HELP_OPTIONS
from cgframework.cli.sweep import sweep_records
from cgframework_classic.heaps import OctalCode
from cgframework_classic.periodicity import find_period

HELP = """Nim, subtraction and octal games, Domineering.

\b
Examples:
  cgf classic sequence kayles --to 500
"""

classic_app = typer.Typer(
    help=HELP,
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
)

FIXED_CODES = {"kayles": "0.77", "dawsons-kayles": "0.07"}


def _code(ruleset: str, spec: str | None) -> OctalCode:
    from cgframework.cli import fail

    try:
        if ruleset in FIXED_CODES:
            if spec:
                fail(f"{ruleset} has a fixed code; give no CODE")
            return OctalCode.parse(FIXED_CODES[ruleset])
        if ruleset == "octal" and spec:
            return OctalCode.parse(spec)
        if ruleset == "subtraction" and spec:
            body = spec.strip()
            if not (body.startswith("{") and body.endswith("}")):
                fail(f"subtraction set must look like {{1,2,3}}, got {spec!r}")
            members = [int(x) for x in body[1:-1].split(",")]
            if any(m <= 0 for m in members):
                fail(f"subtraction set members must be positive, got {spec!r}")
            return OctalCode.subtraction(members)
    except ValueError as exc:
        fail(str(exc))
    fail(f"expected kayles, dawsons-kayles, 'octal CODE' or 'subtraction {{S}}', got {ruleset!r}")


@classic_app.command()
def sequence(
    ruleset: Annotated[
        str,
        typer.Argument(
            metavar="kayles|dawsons-kayles|octal|subtraction",
            help="The heap game (octal and subtraction take a CODE).",
        ),
    ],
    code: Annotated[str | None, typer.Argument(help="octal code (0.77) or set ({1,2,3})")] = None,
    to: Annotated[int, typer.Option(help="last heap size")] = 100,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    store: Annotated[str | None, typer.Option(help="sqlite value store")] = None,
    jobs: Annotated[int, typer.Option(help="worker processes")] = 1,
    executor: Annotated[str, typer.Option(help="local, processes or dask://HOST:PORT")] = "local",
) -> None:
    """Grundy values of heaps 0..TO and the period they prove (octal periodicity theorem).

    A thin wrapper over the core's sweep runner (family: single heaps of the code).

    \b
    Examples:
      cgf classic sequence kayles --to 500
      cgf classic sequence octal 0.137 --to 300 --json
      cgf classic sequence subtraction "{1,2,5}" --to 100
    """
    from cgframework.cli import fail

    if to < 0:
        fail(f"--to must be >= 0, got {to}")
    octal = _code(ruleset, code)
    family = Family("heaps", "octal", lambda n: f"{octal}:{n}", f"single heaps of {octal}")
    records = sweep_records("octal", family, 0, to, store_path=store, jobs=jobs, executor=executor)
    seq = [record.solution.grundy for record in records]
    period = find_period(seq, octal.length) if octal.digits[0] == 0 else None
    if as_json:
        record = {"code": str(octal), "grundy": seq, "period": None, "preperiod": None}
        if period:
            record.update(
                period=period.period,
                preperiod=period.preperiod,
                last_exception=period.last_exception,
            )
        print(json.dumps(record))
        return
    print(f"octal {octal}: G(0..{to})")
    for start in range(0, len(seq), 20):
        print(f"{start:>6}: " + " ".join(f"{g:>2}" for g in seq[start : start + 20]))
    if period is None:
        print("no period proven by these values (try a larger --to)")
    else:
        last = period.last_exception
        after = f"last exceptional value at heap {last}" if last is not None else "purely periodic"
        print(
            f"period {period.period}, pre-period {period.preperiod} ({after}); "
            "proven by the octal periodicity theorem"
        )
