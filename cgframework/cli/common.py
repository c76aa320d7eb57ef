"""What every ``cgf`` command uses, the core's and a plugin's alike: the typer app, the
console, one-line errors (exit 2), the limit options, and readers of positions and stores.

A plugin's commands import these from :mod:`cgframework.cli` (which re-exports them). Errors in
what the user typed print one line on stderr and exit with code 2; nothing is written half-way.
"""

from __future__ import annotations

import os
import stat
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import attrs
import typer

from cgframework.game import Player, Ruleset, format_position, parse_position
from cgframework.plugins import (
    resolve_ruleset,
)
from cgframework.runtime import memory
from cgframework.runtime.budget import LimitExceeded
from cgframework.runtime.inputs import InputTextError, read_text_argument
from cgframework.solution import Solution
from cgframework.solvers.dispatch import SolverError, solve
from cgframework.store.errors import DEFAULT_TRUST, StoreError, trust_level

if TYPE_CHECKING:
    from cgframework.store.database import ValueStore

HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}
"""``context_settings`` of every ``cgf`` app and sub-app (plugins' too): ``-h`` is ``--help``."""

app = typer.Typer(
    name="cgf",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings=HELP_OPTIONS,
)


def _print_version(wanted: bool) -> None:
    """``cgf --version``: versions, compiled kernels, plugins (none of them imported)."""
    if wanted:
        from cgframework.cli.about import version_text

        print(version_text())
        raise typer.Exit()


@app.callback()
def cgf(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            is_eager=True,
            callback=_print_version,
            help="Print the versions, the compiled kernels in use and the plugins, and exit.",
        ),
    ] = False,
    max_memory: Annotated[
        str | None,
        typer.Option(
            envvar=memory.ENV_VAR,
            show_envvar=False,
            metavar="SIZE",
            help="Memory ceiling, e.g. 2G, 500M or none (default: half the machine's, or of "
            f"the container's limit; also ${memory.ENV_VAR}). Past it: exit 3.",
        ),
    ] = None,
) -> None:
    """cgframework: exact answers for combinatorial games.

    \b
    Examples:
      cgf solve nim 3,5,7
      cgf calc "{1|0} + *"
      cgf rulesets
      cgf --max-memory 2G calc "{1|-1} + {2|-2} + {3|-3}"
    """
    try:
        size = memory.default_limit() if max_memory is None else memory.parse_size(max_memory)
    except ValueError as exc:
        fail(f"--max-memory: {exc}")
    memory.set_limit(size)


class _LazyConsole:
    """rich's standard-output ``Console``, made on first use: importing rich costs ~20 ms of
    every start, and ``cgf solve --json`` prints no table."""

    def __init__(self) -> None:
        self._console: Any = None

    def __getattr__(self, name: str) -> Any:
        if self._console is None:
            from rich.console import Console

            self._console = Console(highlight=False, soft_wrap=True)
        return getattr(self._console, name)


out: Any = _LazyConsole()


def print_table(
    rows: Sequence[Sequence[str]],
    columns: Sequence[str] | None = None,
    title: str | None = None,
) -> None:
    """A table on standard output. On a terminal rich draws it (cells wrapped, not cut); piped
    or redirected it is plain text, one line per row (after a header line of ``columns``),
    cells separated by tabs: no width to fit, so nothing is cut, and scripts split on tabs."""
    rows = [[printable(str(cell)) for cell in row] for row in rows]
    if not stdout_is_terminal():
        if columns:
            print("\t".join(columns))
        for row in rows:
            print("\t".join(" ".join(cell.split()) for cell in row))
        return
    from rich.markup import escape
    from rich.table import Table

    if columns:
        table = Table(title=title)
    else:  # key and value lines
        table = Table(title=title, show_header=False, box=None)
        columns = [""] * max((len(row) for row in rows), default=0)
    for column in columns:
        table.add_column(column, overflow="fold")  # wrapped to the terminal, never cut
    for row in rows:
        table.add_row(*map(escape, row))  # (a cell is text, never rich markup)
    out.print(table)


def printable(text: str) -> str:
    """``text`` with what a terminal would act on or cannot encode escaped (control characters,
    lone surrogates): a cell may come from a file someone else wrote."""
    if text.isprintable():
        return text
    return "".join(
        c
        if c.isprintable() or c in "\t\n"
        else c.encode("unicode_escape", "backslashreplace").decode("ascii")
        for c in text
    )


def distinct_files(named: dict[str, str | None]) -> None:
    """Refuse (exit 2) two of these options (option name -> path; ``None`` or ``-`` not
    given) naming the same file, where writing one would replace the other: ``--store S
    --certificate S`` would leave a certificate where the store was. A device or a FIFO may be
    named twice (``/dev/null``)."""
    seen: dict[tuple[int, int] | str, str] = {}
    for option, path in named.items():
        if path is None or path == "-":
            continue
        try:
            info = os.stat(path)
        except OSError:
            key: tuple[int, int] | str = os.path.realpath(path)
        else:
            if not stat.S_ISREG(info.st_mode):
                continue
            key = (info.st_dev, info.st_ino)
        if key in seen:
            fail(f"{seen[key]} and {option} name the same file ({path!r})")
        seen[key] = option


def stdout_is_terminal() -> bool:
    """Standard output is a terminal (rich draws tables there; piped, plain lines)."""
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):  # replaced by an object without it, or closed
        return False


class InputError(Exception):
    """Something the user typed is wrong: reported on one line, exit code 2."""


MaxNodesOption = Annotated[
    int | None, typer.Option(min=0, help="Stop (exit 3) after expanding this many positions.")
]
TimeoutOption = Annotated[
    float | None, typer.Option(min=0, help="Stop (exit 3) after this many seconds.")
]
"""The search-limit options of ``cgf solve`` and ``calc``, for any command to reuse."""

TlsCaOption = Annotated[
    str | None,
    typer.Option("--tls-ca-file", "--tls-ca", help="CA certificate for a tls:// scheduler."),
]
TlsCertOption = Annotated[str | None, typer.Option(help="Client certificate (tls://).")]
TlsKeyOption = Annotated[str | None, typer.Option(help="Client private key (tls://).")]
InsecureOption = Annotated[
    bool,
    typer.Option(
        "--insecure",
        help="Accept a Dask scheduler off this machine without TLS client certificates: "
        "anyone who can reach it runs code as its workers' user and can forge results.",
    ),
]
"""The cluster-trust options of ``cgf sweep`` and ``cgf solve --outcome --executor``."""


def complete_ruleset(incomplete: str) -> list[str]:
    """Shell completion of a RULESET argument: the installed names and aliases it starts."""
    from cgframework.plugins import get_registry

    registry = get_registry()
    return sorted(n for n in [*registry.rulesets, *registry.aliases] if n.startswith(incomplete))


RulesetArgument = Annotated[
    str,
    typer.Argument(
        help="Ruleset name or alias (see `cgf rulesets`).", autocompletion=complete_ruleset
    ),
]
"""The RULESET argument of a command, with shell completion of the installed names."""


def output_option(help: str = "Write to this file.") -> Any:
    """``-o/--output FILE``, the one spelling of where a command writes its file (a picture,
    an export); ``help`` says what is written."""
    return typer.Option("--output", "-o", metavar="FILE", help=help)


OutputOption = Annotated[str | None, output_option()]
"""``-o/--output FILE``: where a command writes its file (a picture, an export)."""


def output_file(output: str | None, **old_names: str | None) -> str | None:
    """The ``-o/--output`` file, or the one given under an old name (``picture="x.svg"`` for
    ``--picture x.svg``: deprecated, hidden from the help, still working); both at once is
    refused."""
    given = {name: path for name, path in old_names.items() if path is not None}
    for name in given:
        if output is not None:
            fail(f"give -o/--output or --{name.replace('_', '-')}, not both")
    return output if output is not None else next(iter(given.values()), None)


def old_output_option(name: str) -> Any:
    """A hidden option ``--NAME FILE``: an old name of ``-o/--output`` (see :func:`output_file`)."""
    return typer.Option(f"--{name}", hidden=True, metavar="FILE")


def within_timeout(timeout: float, started: float, fn: Any, *args: Any) -> Any:
    """``fn(*args)`` within what is left of ``timeout`` seconds counted from ``started``
    (``time.monotonic()``); past it, :class:`~cgframework.runtime.budget.SearchStopped` naming the
    whole ``--timeout`` (exit 3)."""
    from cgframework.runtime.budget import SearchBudget, SearchStopped
    from cgframework.solvers.dispatch import run_deep

    left = SearchBudget(timeout=max(0.0, timeout - (time.monotonic() - started)))
    try:
        return run_deep(fn, *args, budget=left.start())
    except SearchStopped:
        raise SearchBudget(timeout=timeout).timed_out() from None


def solution_json(
    solution: Solution, full: bool, timeout: float | None, started: float
) -> dict[str, Any]:
    """The fields ``cgf solve --json`` prints for ``solution`` (one position or a
    ``--batch`` line): a large value as its summary, or whole with ``full`` (streamed by
    the printer, never built whole); the reduced form and atomic weight of a normal-play
    value, within what is left of ``timeout``."""
    import attrs

    from cgframework.game import Convention
    from cgframework.io import unstructure_solution
    from cgframework.values.functions import solution_facts
    from cgframework.values.summary import is_large

    value = solution.value
    large = is_large(value)
    if large and full:
        data = unstructure_solution(attrs.evolve(solution, value=None))
        data.update(value=value, value_kind="canonical")
    else:
        data = unstructure_solution(solution)  # a large value: its summary
    # (no value: who wins only; the reduced form of a big value takes minutes, of a
    # summarised one it is not computed)
    if value is not None and solution.convention is Convention.NORMAL and (full or not large):
        facts = (solution_facts, value, not full)
        data.update(
            facts[0](*facts[1:]) if timeout is None else within_timeout(timeout, started, *facts)
        )
    return data


def fail(message: str) -> NoReturn:
    raise InputError(message)


def draw_svg(draw: Any) -> str:
    """``draw()`` (SVG text), or one line if the position is too big to draw."""
    from cgframework.display.pictures import PictureTooBig

    try:
        return draw()
    except PictureTooBig as exc:
        fail(str(exc))


def write_picture(path: str, draw: Any) -> None:
    """Draw (``draw()`` returns SVG text) and write it to ``path`` whole, or fail with one
    line: a position too big to draw, or a path that cannot be written."""
    from cgframework.display.pictures import write_svg

    svg = draw_svg(draw)
    try:
        write_svg(path, svg)
    except OSError as exc:
        fail(f"cannot write {path!r}: {exc.strerror or exc}")


def read_position_text(text: str) -> str:
    """``@PATH`` reads the position from a file, ``-`` from standard input (size limit,
    strict UTF-8: :func:`cgframework.runtime.inputs.read_text_argument`); bad input exits with 2."""
    try:
        return read_text_argument(text, what="position")
    except InputTextError as exc:
        fail(str(exc))


VariantOption = Annotated[
    str | None,
    typer.Option(
        metavar="impartial|dicotic|twisted",
        help="Solve the ruleset's variant, as CGSuite defines it: impartial (either player "
        "makes Left's or Right's moves), dicotic (no move unless both players have one) or "
        "twisted (every move swaps the colours); the same as naming the ruleset "
        "VARIANT:RULESET.",
    ),
]
"""``--variant``: a variant of the RULESET argument (:mod:`cgframework.variants`)."""


def load_ruleset(name: str, variant: str | None = None) -> Ruleset:
    """The ruleset ``name`` (``VARIANT:NAME`` names a variant), or its ``variant`` (one
    name, or several joined by ``:``, outermost first); bad input exits with 2."""
    if variant is not None:
        from cgframework.variants import VARIANTS

        for kind in variant.split(":"):
            if kind not in VARIANTS:
                fail(f"unknown variant {kind!r} (choose from {', '.join(sorted(VARIANTS))})")
        name = f"{variant}:{name}"
    try:
        return resolve_ruleset(name)
    except KeyError as exc:
        fail(str(exc))


def shorten(text: str, limit: int = 60) -> str:
    """``repr(text)``, cut to about ``limit`` characters: error messages quote what the user
    typed without echoing a whole file."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[: limit - 20]!r}...{text[-10:]!r} ({len(text)} characters)"


def load_position(ruleset: Ruleset, text: str) -> Any:
    text = read_position_text(text)
    if not text:
        fail(f"empty position for ruleset {ruleset.name!r}")
    try:
        return parse_position(ruleset, text)
    except (MemoryError, LimitExceeded):  # too big for --max-memory: exit 3, not bad input
        raise
    except RecursionError:
        fail(f"invalid {ruleset.name} position {shorten(text)}: nested too deeply")
    except Exception as exc:  # a plugin's parser may raise anything on bad text
        fail(f"invalid {ruleset.name} position {shorten(text)}: {exc}")


def parse_player(text: str) -> Player:
    try:
        return Player.parse(text)
    except ValueError as exc:
        fail(str(exc))


def solve_or_fail(
    ruleset: Ruleset,
    position: Any,
    method: str,
    first: Player,
    store_path: str | None = None,
    trust: str = DEFAULT_TRUST,
    **limits: Any,
) -> Solution:
    """Solve; ``limits`` are ``max_nodes`` / ``timeout`` (a stopped search is exit 3) and
    ``outcome_only``; ``trust`` says which store rows may answer (see
    :func:`open_trusting_store`)."""
    try:
        trust = trust_level(trust)
    except StoreError as exc:
        fail(str(exc))
    try:
        if store_path is None:
            return solve(ruleset, position, method=method, first=first, **limits)
        with open_trusting_store(store_path, trust) as store:
            return solve(ruleset, position, method=method, first=first, store=store, **limits)
    except (SolverError, StoreError) as exc:
        fail(str(exc))


def solve_misere_or_fail(
    ruleset: Ruleset,
    position: Any,
    method: str,
    first: Player,
    store_path: str | None = None,
    trust: str = DEFAULT_TRUST,
    **limits: Any,
) -> Solution:
    """``cgf solve --misere``: the misère search (never a normal-play shortcut); ``limits``
    may also hold ``outcome_only`` and ``winning_moves`` (``--outcome``, ``--no-moves``).
    With a store, a whole misère answer is read from its misère rows (the rows ``cgf sweep
    --misere`` writes, keyed apart from normal play), else computed and stored there."""
    from cgframework.solvers.dispatch import MISERE_METHODS, solve_misere_play
    from cgframework.store.database import position_key

    if method not in MISERE_METHODS:
        fail(f"--misere uses its own brute-force search: drop --method {method}")
    if store_path is not None and limits.get("outcome_only"):
        fail("--misere --outcome does not use the value store: drop --store or --outcome")
    try:
        trust = trust_level(trust)
    except StoreError as exc:
        fail(str(exc))
    try:
        if store_path is None:
            return solve_misere_play(ruleset, position, first=first, **limits)
        with open_trusting_store(store_path, trust) as store:
            key = position_key(ruleset, position, first, misere=True)
            found = store.get(ruleset, key, misere=True)
            if found is not None and found[0] == format_position(ruleset, position):
                return attrs.evolve(found[1], extra={**found[1].extra, "from_store": True})
            solution = solve_misere_play(ruleset, position, first=first, **limits)
            store.put(ruleset, key, solution)
            return solution
    except (SolverError, StoreError) as exc:
        fail(str(exc))


def open_store(path: str) -> ValueStore:
    """The value store at ``path`` at the default trust level (no unverified imports)."""
    return open_trusting_store(path, DEFAULT_TRUST)


TRUST_HELP = (
    "Store rows that may answer: verified (default: computed here, by another installation "
    "or a cluster, and verified imports), local (computed here only), or imported (also "
    "unverified imports; 'any' is an older spelling)."
)
"""The help of a ``--trust`` option (``cgf solve``, ``cgf sweep``)."""


def open_trusting_store(path: str, trust: str) -> ValueStore:
    """The value store at ``path``, read as ``trust`` allows (``verified``: every row but
    unverified imports; ``local``: only rows computed here; ``imported``/``any``: all);
    created if no file is there, refused in one line if the file is not a usable store or
    the trust level unknown. A store that cannot be written is read, with a warning."""
    from cgframework.store.database import ValueStore

    try:
        store = ValueStore(path, trust=trust)
    except StoreError as exc:
        fail(str(exc))
    if store.read_only:
        print(
            f"cgf: warning: value store {path!r} is read-only: reading it, new results are "
            "not stored",
            file=sys.stderr,
        )
    return store


def value_text(value: Any) -> str:
    if value is None:
        return "-"
    if hasattr(value, "numerator") and getattr(value, "denominator", 1) != 1:
        return f"{value.numerator}/{value.denominator}"
    return str(value)
