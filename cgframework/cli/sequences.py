"""``cgf sequence`` and ``cgf quotient``: the Grundy sequence (or the misère genus sequence)
and the misère quotient of any impartial heap ruleset, bundled or a plugin's
(:class:`~cgframework.heaps.rules.HeapRuleset`).

A ruleset whose heaps carry a parameter (``octal``: a code) takes it as the second word
(``cgf sequence octal 0.137``), as its ``heaps`` family does (``heaps:0.137``). Periods are
*proved* where a heap engine knows a theorem for the rule (a take-and-break code, through the
classic plugin), else reported as observed over the heaps computed.
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from array import array
from collections.abc import Callable, Iterator
from typing import IO, Annotated, Any

import attrs
import typer

from cgframework.cli.common import (
    MaxNodesOption,
    RulesetArgument,
    app,
    distinct_files,
    fail,
    load_ruleset,
    shorten,
    write_picture,
)
from cgframework.extensions import Family, KnownHeapRule
from cgframework.game import parse_position
from cgframework.heaps.rules import HeapRuleset
from cgframework.heaps.table import MAX_HEAPS, HeapTable, known_rule, rule_label
from cgframework.plugins import get_registry
from cgframework.runtime.budget import LimitExceeded, SearchStopped

MAX_TO = MAX_HEAPS - 1
"""The largest ``--to``: G(0..MAX_TO) is MAX_HEAPS values (40 MB)."""
MAX_MISERE_TO = 100_000
"""The largest ``--to`` with ``--misere`` (the search's memory grows with it)."""
PERIOD_CHECK_GROWTH = 1.25
"""With ``--until-period``, the period is looked for each time the sequence grows by this."""
TEXT_CHUNK = 1 << 16
"""Values written per write call (text outputs are streamed, never built whole)."""

ArgumentArgument = Annotated[
    str | None,
    typer.Argument(
        metavar="[ARGUMENT]",
        help="For a ruleset whose heaps carry a parameter, that parameter, as its heaps family "
        "takes it: octal 0.137, hex 0.F, subtraction {1,2,5}.",
    ),
]
TimeoutSeconds = Annotated[
    float | None, typer.Option(metavar="SECONDS", help="Give up after this long (exit 3).")
]


@attrs.frozen
class HeapGame:
    """What ``cgf sequence`` and ``cgf quotient`` compute on: the ruleset, the rule its heaps
    follow, its ``heaps`` family (member n: one heap of n), what a heap engine knows of the
    rule, and how outputs name it."""

    ruleset: Any
    rule: Any
    family: Family
    known: KnownHeapRule | None
    label: str

    def heap(self, n: int) -> Any:
        """The position of one heap of ``n``."""
        return parse_position(self.ruleset, self.family.generate(n))

    @property
    def code(self) -> str | None:
        return None if self.known is None else self.known.code


def heap_game(name: str, argument: str | None, label: str | None = None) -> HeapGame:
    """The heap game named on the command line (a ruleset, and the argument of its ``heaps``
    family if it takes one); one line and exit 2 for anything else."""
    ruleset = load_ruleset(name)
    if not isinstance(ruleset, HeapRuleset):
        fail(
            f"{ruleset.name!r} is not a heap ruleset (a HeapRuleset, whose moves are "
            "heap_options): cgf sequence and cgf quotient take one"
        )
    if not ruleset.impartial:
        fail(f"{ruleset.name!r} is partizan: Grundy values and misère quotients are impartial")
    families = get_registry().families
    plain = families.get((ruleset.name, "heaps"))
    if plain is None:
        fail(f"{ruleset.name!r} has no heaps family (one heap of n for each n)")
    if plain.argument and argument is None:
        fail(f"{ruleset.name} needs an ARGUMENT, {plain.argument.replace('heaps:', '')}")
    if not plain.argument and argument is not None:
        fail(f"{ruleset.name} takes no ARGUMENT (its rule is fixed); got {shorten(argument)!r}")
    family = plain.with_argument(argument) if argument is not None else plain
    try:
        position = parse_position(ruleset, family.generate(1))
    except ValueError as exc:
        fail(f"{ruleset.name} {shorten(argument or '')}: {exc}")
    rule = ruleset.rule_of(position)
    if label is None:
        label = rule_label(rule)
        if argument is None and label != ruleset.name:
            label = f"{ruleset.name} ({label})"  # kayles (octal 0.77)
    return HeapGame(ruleset, rule, family, known_rule(rule), label)


def _progress() -> Any:
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


@contextlib.contextmanager
def _bar(total: int) -> Iterator[Callable[[int], None]]:
    """A function to report heaps done to: a progress bar on a terminal, else nothing."""
    bar = _progress()
    if bar is None:
        yield lambda done: None
        return
    with bar:
        task = bar.add_task("heaps", total=total)
        yield lambda done: bar.update(task, completed=done)


def compute(
    game: HeapGame,
    to: int,
    until_period: bool,
    timeout: float | None,
    max_nodes: int | None = None,
) -> tuple[Any, Any]:
    """G(0..to) in a new table (the heap engine's, else the core's) and the period the values
    prove (None if none, or no theorem); with ``until_period``, stop as soon as a period is
    proven (looked for each time the sequence has grown by :data:`PERIOD_CHECK_GROWTH`: a
    linear pass each time). Each heap computed is a node of ``max_nodes``."""
    known = game.known
    seq = known.sequence() if known is not None else None
    if seq is None:
        seq = HeapTable(game.rule)
    deadline = None if timeout is None else time.monotonic() + timeout
    watcher = known.period_watcher() if known is not None else None
    next_check = [64]

    def stop(current: Any) -> bool:
        if max_nodes is not None and current.size > max_nodes + 1:
            raise SearchStopped(f"the sequence took more than {max_nodes} heaps (--max-nodes)")
        if watcher is None:
            return False
        watcher.extend(current.values[len(watcher) : current.size])
        if not until_period or current.size < next_check[0]:
            return False
        next_check[0] = int(current.size * PERIOD_CHECK_GROWTH) + 1
        return watcher.proven is not None

    bar = _progress()
    try:
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
    except SearchStopped as exc:
        if "--timeout" in str(exc):
            raise SearchStopped(
                f"the sequence took more than --timeout {timeout:g} seconds"
            ) from None
        raise
    except OverflowError as exc:  # values past a kernel's range
        raise LimitExceeded(f"{game.label}: {exc}") from None
    if watcher is None:
        return seq, None
    watcher.extend(seq.values[len(watcher) : seq.size])
    return seq, watcher.proven


def _chunks(values: memoryview) -> Iterator[memoryview]:
    for start in range(0, len(values), TEXT_CHUNK):
        yield values[start : start + TEXT_CHUNK]


def write_values(path: str, values: memoryview) -> None:
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


def _write_json(out: IO[str], head: dict[str, Any], values: memoryview, tail: dict) -> None:
    """The JSON record, its ``grundy`` list streamed (10^7 values never make one string)."""
    out.write(json.dumps(head)[:-1] + ', "grundy": [')
    for index, chunk in enumerate(_chunks(values)):
        out.write(("," if index else "") + ",".join(map(str, chunk)))
    out.write("], " + json.dumps(tail)[1:] + "\n")


def _check_common(timeout: float | None, output: str | None, plot: str | None) -> None:
    if timeout is not None and not timeout > 0:
        fail(f"--timeout must be positive, got {timeout}")
    distinct_files({"-o": output, "--plot": plot})


def run_sequence(
    game: HeapGame,
    to: int,
    *,
    until_period: bool = False,
    as_json: bool = False,
    output: str | None = None,
    plot: str | None = None,
    timeout: float | None = None,
    max_nodes: int | None = None,
) -> None:
    """``cgf sequence`` in normal play (and ``cgf classic sequence``): the values, the
    proved or observed period, the saltus."""
    from cgframework.heaps.periods import find_saltus, observed_period

    if to < 0 or to > MAX_TO:
        fail(f"--to must be between 0 and {MAX_TO} (the table's limit), got {to}")
    _check_common(timeout, output, plot)
    known = game.known
    theorem = known.theorem if known is not None else ""
    if until_period and not theorem:
        fail(
            f"--until-period: no periodicity theorem for {game.label} (only a take-and-break "
            "code has one); give --to only"
        )
    seq, period = compute(game, to, until_period, timeout, max_nodes)
    values = seq.computed
    if output is not None:
        write_values(output, values)
    if plot is not None:
        from cgframework.display.plots import sequence_svg

        write_picture(plot, lambda: sequence_svg(values, f"{game.label}: G(0..{len(values) - 1})"))
    if output == "-" and not as_json:
        return  # the values went to standard output, one per line
    observed = observed_period(values) if period is None else None
    saltus = None
    if period is None and observed is None and (known is None or known.saltus_possible()):
        saltus = find_saltus(values)
    if as_json:
        head = {"ruleset": game.ruleset.name, "rule": game.label, "code": game.code}
        tail: dict[str, Any] = {
            "period": None if period is None else period.period,
            "preperiod": None if period is None else period.preperiod,
            "last_exception": None if period is None else period.last_exception,
            "theorem": theorem or None,
            "observed": None if observed is None else attrs.asdict(observed),
            "saltus": None if saltus is None else attrs.asdict(saltus),
        }
        _write_json(sys.stdout, head, values, tail)
        return
    last_heap = len(values) - 1
    print(f"{game.label}: G(0..{last_heap})")
    for start in range(0, len(values), 20):
        row = values[start : start + 20]
        print(f"{start:>6}: " + " ".join(f"{g:>2}" for g in row))
    if period is not None:
        print(f"{_pattern(period)}; proven by {theorem}")
        return
    if theorem:
        print("no period proven by these values (try a larger --to)")
    else:
        print(f"no periodicity theorem for {game.label}: periods are observed, not proven")
    if observed is not None:
        print(f"observed over heaps 0..{observed.observed_to}: {_pattern(observed)}")
    if saltus is not None:
        print(
            f"observed (not proven): G(n + {saltus.period}) = G(n) + {saltus.saltus} "
            f"for {saltus.preperiod} <= n <= {saltus.observed_to - saltus.period}"
        )


def _pattern(period: Any) -> str:
    last = period.last_exception
    after = f"last exceptional value at heap {last}" if last is not None else "purely periodic"
    return f"period {period.period}, pre-period {period.preperiod} ({after})"


def run_genus_sequence(
    game: HeapGame,
    to: int,
    *,
    as_json: bool = False,
    output: str | None = None,
    plot: str | None = None,
    timeout: float | None = None,
    max_nodes: int | None = None,
) -> None:
    """``cgf sequence --misere``: each heap's misère Grundy value and genus."""
    from cgframework.heaps.genus import genus_sequence

    if to < 0 or to > MAX_MISERE_TO:
        fail(f"--to must be between 0 and {MAX_MISERE_TO} with --misere, got {to}")
    _check_common(timeout, output, plot)
    try:
        with _bar(to + 1) as advance:
            rows = genus_sequence(
                game.ruleset,
                game.heap,
                to,
                max_nodes=max_nodes,
                timeout=timeout,
                progress=advance,
            )
    except SearchStopped as exc:
        if "--timeout" in str(exc) and timeout is not None:
            raise SearchStopped(
                f"the misère sequence took more than --timeout {timeout:g} seconds"
            ) from None
        raise
    if output is not None:
        from cgframework.runtime.outputs import write_output

        write_output(output, "".join(f"{row.genus}\n" for row in rows))
    if plot is not None:
        from cgframework.display.plots import sequence_svg

        minus = [row.misere_grundy for row in rows]
        title = f"{game.label}, misère: G⁻(0..{to})"
        write_picture(plot, lambda: sequence_svg(minus, title, y_label="G⁻(n)"))
    if output == "-" and not as_json:
        return
    if as_json:
        record = {
            "ruleset": game.ruleset.name,
            "rule": game.label,
            "code": game.code,
            "convention": "misere",
            "grundy": [row.grundy for row in rows],
            "misere_grundy": [row.misere_grundy for row in rows],
            "genus": [row.genus for row in rows],
        }
        print(json.dumps(record))
        return
    print(f"{game.label}, misère play: genus of heaps 0..{to} (g^γ0γ1...: Winning Ways ch. 13)")
    for start in range(0, len(rows), 8):
        row = rows[start : start + 8]
        print(f"{start:>6}: " + " ".join(f"{r.genus:>8}" for r in row))


@app.command("sequence")
def sequence_cmd(
    ruleset: RulesetArgument,
    argument: ArgumentArgument = None,
    to: Annotated[int, typer.Option(help=f"Last heap size (at most {MAX_TO}).")] = 100,
    until_period: Annotated[
        bool,
        typer.Option(
            "--until-period",
            help="Stop as soon as the values prove a period (before --to): for a rule with a "
            "periodicity theorem (a take-and-break code).",
        ),
    ] = False,
    misere: Annotated[
        bool,
        typer.Option(
            "--misere",
            help=f"Misère play: each heap's misère Grundy value and genus (heaps up to "
            f"{MAX_MISERE_TO}; the search's work is counted by --max-nodes and --timeout).",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            metavar="FILE",
            help="Write the values: one per line, or raw little-endian uint32 if FILE ends in "
            ".bin (with --misere: the genus, one per line).",
        ),
    ] = None,
    plot: Annotated[
        str | None, typer.Option(metavar="FILE.svg", help="Draw value against heap (SVG).")
    ] = None,
    max_nodes: MaxNodesOption = None,
    timeout: TimeoutSeconds = None,
) -> None:
    """Grundy values of heaps 0..TO of any heap ruleset, and their period: proven where the
    rule is a take-and-break code (by the periodicity theorem), else observed.

    RULESET is any impartial heap ruleset (a HeapRuleset: bundled, or a plugin's); one whose
    heaps carry a parameter takes it as ARGUMENT (octal 0.137, hex 0.F, subtraction {1,2,5}).
    Each heap's options are asked once and the values read from a table (4 bytes a heap, to
    10^7 heaps); a take-and-break code runs on the classic plugin's compiled engine. A period
    is proven only by a theorem for the rule; any other is "observed over heaps 0..TO", and so
    is a saltus (G(n + p) = G(n) + s). --max-nodes counts heaps computed (with --misere,
    positions searched). A progress bar is shown on stderr when it is a terminal. -o and
    --plot must name different files; neither replaces a device, a FIFO or a link's target.

    \b
    Examples:
      cgf sequence kayles --to 500
      cgf sequence octal 0.137 --to 300 --json
      cgf sequence octal 0.56 --to 1000000 --until-period
      cgf sequence grundys-game --to 100000 -o grundy.bin --plot grundy.svg
      cgf sequence subtraction "{1,2,5}" --to 100
      cgf sequence kayles --misere --to 20
    """
    game = heap_game(ruleset, argument)
    if misere:
        if until_period:
            fail("--until-period is for normal play: drop it or --misere")
        run_genus_sequence(
            game,
            to,
            as_json=as_json,
            output=output,
            plot=plot,
            timeout=timeout,
            max_nodes=max_nodes,
        )
        return
    run_sequence(
        game,
        to,
        until_period=until_period,
        as_json=as_json,
        output=output,
        plot=plot,
        timeout=timeout,
        max_nodes=max_nodes,
    )


def quotient_text(q: Any, label: str) -> str:
    """The text report of a misère quotient."""
    lines = [f"misère quotient of {label}, heaps 1..{q.max_heap}: order {q.order}"]
    lines.append(f"  presentation  {q.presentation()}")
    portion = ", ".join(q.word(x) for x in sorted(q.p_portion, key=q.word))
    lines.append(f"  P-portion     {{{portion}}}")
    if q.stabilised:
        lines.append(
            f"  stabilised    proved: images periodic (period {q.period} from heap "
            f"{q.preperiod}); this is the quotient of every heap size"
        )
    else:
        lines.append(f"  stabilised    not proved stable, observed up to heap {q.max_heap}")
    lines.append("  heap images")
    for start in range(1, q.max_heap + 1, 10):
        row = range(start, min(start + 10, q.max_heap + 1))
        lines.append(f"  {start:>5}: " + " ".join(f"{q.word(q.images[h]):>6}" for h in row))
    return "\n".join(lines) + "\n"


def run_quotient(
    game: HeapGame,
    max_heap: int,
    *,
    as_json: bool = False,
    max_order: int = 1000,
    timeout: float | None = None,
    max_nodes: int | None = None,
    output: str | None = None,
    plot: str | None = None,
) -> None:
    """``cgf quotient`` (and ``cgf classic quotient``)."""
    from cgframework.heaps.quotient import MAX_HEAP, misere_quotient

    if not 1 <= max_heap <= MAX_HEAP:
        fail(f"--max-heap must be between 1 and {MAX_HEAP}, got {max_heap}")
    if max_order < 1:
        fail(f"--max-order must be positive, got {max_order}")
    _check_common(timeout, output, plot)
    with _bar(max_heap) as advance:
        q = misere_quotient(
            game.rule,
            max_heap,
            max_order=max_order,
            timeout=timeout,
            max_nodes=max_nodes,
            label=game.code or game.label,
            progress=advance,
        )
    if as_json:
        record = q.to_json()
        record["game"] = game.label
        text = json.dumps(record) + "\n"
    else:
        text = quotient_text(q, game.label)
    if plot is not None:
        from cgframework.display.plots import sequence_svg

        images = list(q.images)
        title = f"misère quotient of {game.label}: heap images (element numbers)"
        write_picture(plot, lambda: sequence_svg(images, title, y_label="element"))
    if output is None or output == "-":
        sys.stdout.write(text)
    else:
        from cgframework.runtime.outputs import write_output

        write_output(output, text)


@app.command("quotient")
def quotient_cmd(
    ruleset: RulesetArgument,
    argument: ArgumentArgument = None,
    max_heap: Annotated[int, typer.Option(help="The heaps 1..N whose sums are quotiented.")] = 12,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    max_order: Annotated[
        int, typer.Option(help="Give up (exit 3) past this many elements.")
    ] = 1000,
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", metavar="FILE", help="Write the report here instead."),
    ] = None,
    plot: Annotated[
        str | None,
        typer.Option(metavar="FILE.svg", help="Draw each heap's image against the heap (SVG)."),
    ] = None,
    max_nodes: MaxNodesOption = None,
    timeout: TimeoutSeconds = None,
) -> None:
    """The misère quotient of the sums of heaps 1..N of any heap ruleset (Plambeck & Siegel
    2008).

    Prints its order, a presentation (generators a, b, c, ... are heaps whose image is new),
    the P-portion and every heap's image, and whether the quotient is proved to be that of
    the whole game (stabilised: a take-and-break code's, by the classic plugin's theorem) or
    only observed up to N. Exact: each candidate is verified for every sum of heaps before
    it is printed. --max-nodes counts the sums searched and the pairs verified.

    \b
    Examples:
      cgf quotient octal 0.75 --max-heap 24
      cgf quotient kayles --max-heap 10 --json
      cgf quotient subtraction "{1,2,3}" --max-heap 12 --plot images.svg
    """
    run_quotient(
        heap_game(ruleset, argument),
        max_heap,
        as_json=as_json,
        max_order=max_order,
        timeout=timeout,
        max_nodes=max_nodes,
        output=output,
        plot=plot,
    )
