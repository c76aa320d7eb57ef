"""The ``cgf`` command line (typer): the core's commands and the entry point. See DESIGN.md,
"CLI contract".

Errors in what the user typed (unknown ruleset, malformed position, bad option) print one line
on stderr and exit with code 2; nothing is written half-way.
"""

from __future__ import annotations

import atexit
import difflib
import gc
import importlib
import inspect
import json
import os
import re
import secrets
import sys
import time
import typing
from typing import Annotated, Any, NoReturn

import attrs
import typer

from cgframework.cli.common import (
    TRUST_HELP,
    InputError,
    InsecureOption,
    MaxNodesOption,
    RulesetArgument,
    TimeoutOption,
    TlsCaOption,
    TlsCertOption,
    TlsKeyOption,
    VariantOption,
    app,
    distinct_files,
    draw_svg,
    fail,
    load_position,
    load_ruleset,
    old_output_option,
    open_trusting_store,
    out,
    output_file,
    output_option,
    parse_player,
    print_table,
    read_position_text,
    shorten,
    solution_json,
    solve_misere_or_fail,
    solve_or_fail,
    stdout_is_terminal,
    value_text,
    within_timeout,
    write_picture,
)
from cgframework.extensions import holds, split_comparison
from cgframework.game import Convention, Ruleset, parse_position
from cgframework.io import unstructure_solution
from cgframework.plugins import (
    PluginError,
    broken_command,
    get_registry,
    register_commands,
    registry_with_universe,
    set_warning_handler,
)
from cgframework.runtime import memory
from cgframework.runtime.budget import LimitExceeded
from cgframework.runtime.cache import TranspositionTable
from cgframework.runtime.deep import (
    MAX_TEXT_NESTING,
    NestingError,
    call_deep,
    check_nesting,
    drop_unraisable,
)
from cgframework.runtime.outputs import OutputError, discard_stdout, flush_stdout, guard_stdout
from cgframework.solvers.dispatch import available_methods, solve
from cgframework.store.errors import DEFAULT_TRUST, StoreError
from cgframework.values.canonical import CanonicalGame
from cgframework.values.notation import MAX_LENGTH, elide, elided_text, iter_text, text_length
from cgframework.values.summary import is_large, summarise


@app.command("solve")
def solve_cmd(
    ruleset: RulesetArgument,
    position: Annotated[
        str | None, typer.Argument(help="Position text, @FILE, or - for stdin.")
    ] = None,
    method: Annotated[
        str,
        typer.Option(
            help="auto (the best that applies), generic (the ruleset's convention's search: "
            "grundy, canonical, outcome, minimax...) or one by name; each ruleset's are in "
            "`cgf rulesets --json`, and an unknown one is refused with the list."
        ),
    ] = "auto",
    first: Annotated[str, typer.Option(help="Player to move first: L or R.")] = "L",
    output: Annotated[
        str | None,
        output_option(
            "Also write a picture of the position (SVG); with --batch, write the answers "
            "(JSON lines) here instead of to standard output."
        ),
    ] = None,
    picture: Annotated[str | None, old_output_option("picture")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    store: Annotated[
        str | None, typer.Option(help="sqlite value store to read from and write to.")
    ] = None,
    trust: Annotated[str, typer.Option(help=TRUST_HELP)] = DEFAULT_TRUST,
    board: Annotated[
        str | None,
        typer.Option(
            metavar="FILE", help="Read the position from this file (e.g. a JSON board) instead."
        ),
    ] = None,
    misere: Annotated[
        bool,
        typer.Option(
            "--misere",
            help="Misère play: who cannot move wins (impartial: also the misère Grundy value "
            "and the genus, whose work --max-nodes and --timeout count; with --outcome only "
            "who wins).",
        ),
    ] = False,
    full: Annotated[bool, typer.Option("--full", help="Print long values in full.")] = False,
    outcome_only: Annotated[
        bool,
        typer.Option(
            "--outcome",
            help="Only who wins (each player moving first) and the winning moves, by a search "
            "on the sum of components: no value, often far faster. With --misere: who wins "
            "in misère play (no misère Grundy value, no genus).",
        ),
    ] = False,
    no_moves: Annotated[
        bool,
        typer.Option(
            "--no-moves",
            help="With --outcome: only who wins, not every winning move (each needs a proof "
            "of its own, often more work than who wins).",
        ),
    ] = False,
    jobs: Annotated[
        int,
        typer.Option(
            help="With --outcome: split the first moves (or first two plies) across this many "
            "worker processes; --store shares what they prove."
        ),
    ] = 1,
    executor: Annotated[
        str | None,
        typer.Option(
            metavar="EXECUTOR",
            help="With --outcome: processes (the default with --jobs), dask://HOST:PORT or "
            "tls://HOST:PORT, trusted as by cgf sweep (--insecure, --tls-*).",
        ),
    ] = None,
    tls_ca_file: TlsCaOption = None,
    tls_cert: TlsCertOption = None,
    tls_key: TlsKeyOption = None,
    insecure: InsecureOption = False,
    max_nodes: MaxNodesOption = None,
    timeout: TimeoutOption = None,
    certificate: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="Also write a proof of who wins (Left first and Right first; normal play) "
            "that `cgf certificate check FILE` verifies without any solver.",
        ),
    ] = None,
    lemma_depth: Annotated[
        int,
        typer.Option(
            min=0,
            help="With --certificate: leave the positions this many moves from the start to "
            "lemmas, certificates of their own that `cgf certificate lemmas` writes (0: none).",
        ),
    ] = 0,
    variant: VariantOption = None,
    batch: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="Solve every position of FILE (- for stdin), one a line, in one process: a "
            "JSON line each, as it is answered (see above).",
        ),
    ] = None,
) -> None:
    """Solve a position: value, outcome, optimal moves, method and statistics.

    A partizan loopy ruleset's value is its onside & offside in CGSuite's notation (1, on,
    over, 1 & 0: what cgf calc --universe loopy reads), or "unknown: why" when the loopy
    algebra cannot give it; the outcome, with draws, is always there.

    With --batch FILE (- for stdin), solve many positions in one process (start-up costs
    far more than a small position), one a line. Each answer is written at once, one JSON
    line: the --json object with "line" (the line's number) first, or {"line", "position",
    "error", "exit"} for a line not answered (exit 2: refused; 3: a limit hit), and the
    batch goes on. Blank lines are skipped; there are no comment lines (# begins positions).
    --max-nodes and --timeout limit each line. The exit status is 0 if every line was
    answered, 2 if some line was refused, else 3 if some hit a limit. A line longer than
    CGF_MAX_INPUT_BYTES ends the batch (exit 2). -o FILE takes the answers instead of
    standard output (a regular file is written whole, at the end).

    \b
    Examples:
      cgf solve nim 3,4,5 --json
      cgf solve domineering "..|..|.." -o d.svg
      cgf solve kayles "10,3 + 7" --store values.sqlite
      cgf solve octal 0.07:40 --method generic
      cgf solve kayles 5 --misere
      cgf solve kayles 5,7,9 --misere --outcome
      cgf solve clobber checker:4x4 --outcome
      cgf solve nim @big-position.txt
      cgf solve clobber xoxoxoxo --certificate proof.gz
      cgf solve domineering "...|...|..." --variant impartial
      cgf solve clobber --batch boards.txt --outcome
    """
    if batch is not None:
        return _solve_batch_cmd(
            ruleset,
            position,
            board,
            batch,
            output,
            picture,
            store,
            trust,
            variant,
            method=method,
            first=first,
            misere=misere,
            outcome_only=outcome_only,
            no_moves=no_moves,
            full=full,
            max_nodes=max_nodes,
            timeout=timeout,
            refused={
                "--jobs": jobs != 1,
                "--executor": executor is not None,
                "--certificate": certificate is not None,
                "--lemma-depth": lemma_depth != 0,
            },
        )
    picture = output_file(output, picture=picture)
    distinct_files(
        {"--board": board, "-o": picture, "--store": store, "--certificate": certificate}
    )
    rs = load_ruleset(ruleset, variant)
    if (position is None) == (board is None):
        fail("give a POSITION or --board FILE (exactly one)")
    if certificate is not None:
        _check_certificate_wanted(rs, misere, certificate)
    elif lemma_depth:
        fail("--lemma-depth is for the certificate's file: add --certificate FILE")
    pos = load_position(rs, position if board is None else "@" + board)
    limits = {"max_nodes": max_nodes, "timeout": timeout}
    # (the certificate asks the solve's own search: its proven wins, losses and values)
    # (with --store, the solve's table keeps the store behind it: the writer searches anew)
    shared = None if certificate is None or store is not None else TranspositionTable()
    started = time.monotonic()
    if misere and (jobs != 1 or executor is not None):
        fail("--jobs and --executor split the normal-play outcome search: drop them or --misere")
    if no_moves and not outcome_only:
        fail("--no-moves is for the outcome search: add --outcome")
    if no_moves and (jobs != 1 or executor is not None):
        fail("--no-moves is for the serial outcome search: drop --jobs and --executor")
    if misere:
        solution = solve_misere_or_fail(
            rs,
            pos,
            method,
            parse_player(first),
            store,
            trust,
            outcome_only=outcome_only,
            winning_moves=not no_moves,
            **limits,
        )
    elif jobs != 1 or executor is not None:
        if not outcome_only:
            fail("--jobs and --executor split the outcome search: add --outcome")
        solution = _solve_outcome_parallel(
            rs,
            pos,
            method,
            parse_player(first),
            store,
            trust,
            jobs,
            executor or "processes",
            (tls_ca_file, tls_cert, tls_key),
            insecure,
            max_nodes,
            timeout,
        )
    elif outcome_only:
        solution = solve_or_fail(
            rs,
            pos,
            method,
            parse_player(first),
            store,
            trust,
            outcome_only=True,
            winning_moves=not no_moves,
            table=shared,
            **limits,
        )
    else:
        solution = solve_or_fail(rs, pos, method, parse_player(first), store, trust, **limits)
    proof = (
        None
        if certificate is None
        else _write_certificate(certificate, rs, pos, solution, limits, shared, lemma_depth)
    )
    value = solution.value
    if as_json:
        data = solution_json(solution, full, timeout, started)
        _write_position_picture(picture, rs, pos)
        if proof is not None:
            data["certificate"] = proof
        print_json_streaming(data)
        return
    data = unstructure_solution(attrs.evolve(solution, value=None))
    value_cell: Any
    summary_rows: list[tuple[str, str]] = []
    if isinstance(value, CanonicalGame) and text_length(value) > MAX_LENGTH:
        if full:
            value_cell = StreamedCell(value)
        else:
            summary = summarise(value)
            value_cell = summary.elided
            summary_rows = summary.facts()
    elif value is None and "value_unknown" in solution.extra:  # (never an outcome letter)
        value_cell = "unknown: " + str(solution.extra["value_unknown"])
    else:
        value_cell = elide(value_text(value), None if full else MAX_LENGTH)
    rows = [
        ("ruleset", solution.ruleset),
        ("position", solution.position),
        ("convention", solution.convention.value),
        ("value", value_cell),
        *summary_rows,
        ("outcome", solution.outcome.value if solution.outcome else "-"),
        ("first", solution.first.value),
        ("best moves", ", ".join(solution.best_moves) or "(none)"),
        ("method", solution.method),
    ]
    if solution.grundy is not None:
        rows.insert(4, ("grundy", str(solution.grundy)))
    for key in solution.extra:
        if key not in ("from_store", "value_unknown"):
            rows.append((key, json.dumps(data[key])))
    if store is not None:
        rows.append(("from store", "yes" if solution.extra.get("from_store") else "no"))
    if proof is not None:
        rows.append(
            ("certificate", f"{proof['path']} ({proof['nodes']} nodes, {proof['bytes']} bytes)")
        )
    s = solution.stats
    rows.append(("stats", f"{s.nodes} nodes, {s.cache_hits} cache hits, {s.seconds * 1000:.1f} ms"))
    _write_position_picture(picture, rs, pos)
    print_table_streaming(rows)


def _solve_batch_cmd(
    ruleset: str,
    position: str | None,
    board: str | None,
    batch: str,
    output: str | None,
    picture: str | None,
    store: str | None,
    trust: str,
    variant: str | None,
    *,
    first: str,
    no_moves: bool,
    refused: dict[str, bool],
    **options: Any,
) -> None:
    """``cgf solve RULESET --batch FILE`` (:mod:`cgframework.cli.batch`)."""
    from cgframework.cli.batch import BatchOptions, solve_batch

    if position is not None or board is not None:
        fail("give a POSITION, --board FILE or --batch FILE (exactly one)")
    if picture is not None:
        fail("--picture draws one position: with --batch, -o FILE is where the answers go")
    for option, given in refused.items():
        if given:
            fail(f"{option} is for one position: drop it or --batch")
    distinct_files({"--batch": batch, "-o": output, "--store": store})
    rs = load_ruleset(ruleset, variant)
    settings = BatchOptions(first=parse_player(first), winning_moves=not no_moves, **options)
    solve_batch(
        rs,
        batch,
        settings,
        output=output,
        store=store,
        trust=trust,
        print_json=print_json_streaming,
    )


class StreamedCell:
    """A table cell or JSON string holding a canonical value's text, written in chunks as it
    is streamed (:func:`~cgframework.values.notation.iter_text`), never built whole."""

    def __init__(self, value: CanonicalGame) -> None:
        self.value = value

    def chunks(self) -> Any:
        return iter_text(self.value)


STREAM_ON_TERMINAL = 1 << 16
"""On a terminal, a ``--full`` value longer than this is printed below the table, streamed,
instead of in a cell rich would lay out (and hold) whole."""


def print_table_streaming(rows: list[tuple[str, Any]]) -> None:
    """:func:`print_table` of key-value rows, where a :class:`StreamedCell` is written as it
    is streamed: in place when piped (one tab-separated line per row, as ever), below the
    table on a terminal when it is long."""
    if not any(isinstance(cell, StreamedCell) for _, cell in rows):
        print_table(rows)
        return
    if stdout_is_terminal():
        below = [cell for _, cell in rows if isinstance(cell, StreamedCell)]
        if all(text_length(cell.value) <= STREAM_ON_TERMINAL for cell in below):
            print_table([(k, str(c.value) if c in below else c) for k, c in rows])
            return
        print_table(
            [
                (k, f"({text_length(c.value)} characters, below)" if c in below else c)
                for k, c in rows
            ]
        )
        for cell in below:
            for chunk in cell.chunks():
                sys.stdout.write(chunk)
            sys.stdout.write("\n")
        return
    for key, cell in rows:
        if isinstance(cell, StreamedCell):
            sys.stdout.write(key + "\t")
            for chunk in cell.chunks():
                sys.stdout.write(chunk)
            sys.stdout.write("\n")
        else:
            print_table([(key, cell)])


def print_json_streaming(data: dict[str, Any]) -> None:
    """``print(json.dumps(data))``, where each canonical value in ``data`` (a field, or an item
    of a list field) is written as a JSON string streamed from its text, never built whole."""
    streamed: list[CanonicalGame] = []
    token = secrets.token_hex(8)  # (no text the user gave can be taken for a mark)

    def mark(x: Any) -> Any:
        if isinstance(x, CanonicalGame):
            streamed.append(x)
            return f"\x00{token}-{len(streamed) - 1}\x00"
        return [mark(y) for y in x] if isinstance(x, list) else x

    text = json.dumps({k: mark(v) for k, v in data.items()})
    if not streamed:
        print(text)
        return
    for i, value in enumerate(streamed):
        before, text = text.split(json.dumps(f"\x00{token}-{i}\x00"), 1)
        sys.stdout.write(before + '"')
        for chunk in iter_text(value):
            sys.stdout.write(json.dumps(chunk)[1:-1])
        sys.stdout.write('"')
    sys.stdout.write(text + "\n")


def _solve_outcome_parallel(
    ruleset: Ruleset,
    position: Any,
    method: str,
    first: Any,
    store: str | None,
    trust: str,
    jobs: int,
    executor: str,
    tls: tuple[str | None, str | None, str | None],
    insecure: bool,
    max_nodes: int | None,
    timeout: float | None,
) -> Any:
    """``cgf solve --outcome --jobs N`` / ``--executor``: the outcome search with its root
    split across workers (:mod:`cgframework.sweep.roots`)."""
    from cgframework.solvers.common import SolverError
    from cgframework.sweep.executors import SweepError, TlsFiles
    from cgframework.sweep.roots import solve_outcome_parallel

    if method not in ("auto", "outcome-search"):
        fail(f"the outcome search is its own method, not {method!r}")
    if store is not None:
        open_trusting_store(store, trust).close()  # a bad store: one line, before any worker
    if executor not in ("local", "processes"):
        from cgframework.cli.sweep import quiet_cluster_client

        quiet_cluster_client()
    try:
        return solve_outcome_parallel(
            ruleset,
            position,
            first,
            jobs=jobs,
            executor=executor,
            store_path=store,
            tls=TlsFiles(*tls),
            insecure=insecure,
            max_nodes=max_nodes,
            timeout=timeout,
        )
    except (SweepError, SolverError, StoreError) as exc:
        fail(str(exc))


def _check_certificate_wanted(ruleset: Ruleset, misere: bool, path: str) -> None:
    """``--certificate`` proves normal-play outcomes of short games: refused otherwise, and
    refused on standard output (binary, it would mix with the answer)."""
    if path == "-":
        fail("--certificate needs a file: the proof is binary (gzip), not for standard output")
    if misere:
        fail("--certificate proves normal-play outcomes: drop --misere")
    loopy = getattr(ruleset, "loopy", False)
    if loopy or ruleset.convention is not Convention.NORMAL:
        kind = "loopy (positions repeat)" if loopy else f"{ruleset.convention.value} play"
        fail(f"--certificate proves normal-play outcomes of short games; {ruleset.name} is {kind}")


def _write_certificate(
    path: str,
    ruleset: Ruleset,
    position: Any,
    solution: Any,
    limits: dict[str, Any],
    table: TranspositionTable | None = None,
    lemma_depth: int = 0,
) -> dict[str, Any]:
    """``cgf solve --certificate FILE``: the proof of who wins, written whole (after the solve,
    within the same ``--max-nodes`` / ``--timeout``, counted afresh), asking the outcome
    search the solve left on ``table`` (with ``--outcome``) rather than searching again."""
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from cgframework.proofs.writer import build_certificate, save_certificate
    from cgframework.runtime.budget import SearchBudget

    budget = SearchBudget.of(limits["max_nodes"], limits["timeout"])
    show = sys.stderr.isatty()
    with Progress(
        SpinnerColumn(),
        TextColumn("certificate: {task.completed:,} nodes written"),
        TimeElapsedColumn(),
        console=Console(stderr=True, highlight=False),
        transient=True,
        disable=not show,
    ) as bar:
        task = bar.add_task("certificate", total=None)

        def advance(nodes: int) -> None:
            bar.update(task, completed=nodes)

        built = build_certificate(
            ruleset,
            position,
            budget=budget,
            table=table,
            progress=advance if show else None,
            lemma_depth=lemma_depth,
        )
    if solution.outcome is not None and solution.outcome is not built.outcome:
        raise RuntimeError(
            f"the certificate proves outcome {built.outcome.value}, the solve found "
            f"{solution.outcome.value}"
        )
    save_certificate(path, built)
    return {
        "path": path,
        "nodes": built.nodes,
        "bytes": built.size,
        "lemma_leaves": built.header["lemma_leaves"],
    }


def _write_position_picture(path: str | None, ruleset: Ruleset, position: Any) -> None:
    """``cgf solve -o FILE``: the position's picture, written whole (after the search)."""
    if path is not None:
        from cgframework.game import draw_position

        write_picture(path, lambda: draw_position(ruleset, position))


@app.command()
def rulesets(
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
) -> None:
    """List every installed ruleset with its family, convention, syntax and solvers.

    Piped or redirected, the table is plain lines with tab-separated cells.

    \b
    Examples:
      cgf rulesets
      cgf rulesets --json
      cgf rulesets | cut -f1
    """
    registry = get_registry()
    records = []
    for name in sorted(registry.rulesets):
        rs = registry.rulesets[name]
        solvers = [
            {"name": s.name, "proven": s.proven, "description": s.description}
            for s in registry.solvers
            if s.serves(rs)
        ]
        records.append(
            {
                "name": rs.name,
                "aliases": list(getattr(rs, "aliases", ())),
                "family": getattr(rs, "family", "") or registry.plugin_of(name),
                "plugin": registry.plugin_of(name),
                "convention": rs.convention.value,
                "impartial": rs.impartial,
                "syntax": rs.describe() if hasattr(rs, "describe") else rs.syntax,
                "examples": list(rs.examples()) if hasattr(rs, "examples") else [],
                "methods": available_methods(rs, registry),
                "families": sorted(f for r, f in registry.families if r == rs.name),
                "solvers": solvers,
            }
        )
    if as_json:
        print(json.dumps(records, indent=2))
        return
    rows = []
    for r in records:
        name = r["name"] + (f" ({', '.join(r['aliases'])})" if r["aliases"] else "")
        conv = r["convention"] + (", impartial" if r["impartial"] else "")
        solvers = ", ".join(
            s["name"] + ("" if s["proven"] else " (empirical)") for s in r["solvers"]
        )
        rows.append((name, r["family"], conv, r["syntax"], solvers or "generic"))
    columns = ("ruleset", "family", "convention", "syntax", "solvers")
    print_table(rows, columns, title="installed rulesets")


@app.command()
def demo() -> None:
    """Solve one example of every installed ruleset and print a table.

    \b
    Examples:
      cgf demo
      cgf demo | cut -f1,3
    """
    registry = get_registry()
    rows = []
    for name in sorted(registry.rulesets):
        rs = registry.rulesets[name]
        examples = list(rs.examples()) if hasattr(rs, "examples") else []
        if not examples:
            continue
        solution = solve(rs, parse_position(rs, examples[0]))
        rows.append(
            (
                name,
                solution.position,
                value_text(solution.value),
                solution.best_moves[0] if solution.best_moves else "-",
                solution.method,
                f"{solution.stats.seconds * 1000:.1f} ms",
            )
        )
    columns = ("ruleset", "position", "value", "best move", "method", "time")
    print_table(rows, columns, title="cgframework demo: one example per ruleset")


@app.command()
def calc(
    expression: Annotated[str, typer.Argument(help='e.g. "{1|0} + *" or "^ >= 0".')],
    universe: Annotated[str, typer.Option(help="Value universe (normal, ...).")] = "normal",
    output: Annotated[
        str | None,
        output_option("Write the thermograph to this SVG file (a sum: each part and the sum)."),
    ] = None,
    thermograph: Annotated[str | None, old_output_option("thermograph")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Value with stops etc. as JSON.")] = False,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="For scripts: print nothing, exit 0 if the comparison holds, 1 if not "
            "(2 if EXPRESSION is not a comparison).",
        ),
    ] = False,
    full: Annotated[bool, typer.Option("--full", help="Print long values in full.")] = False,
    timeout: TimeoutOption = None,
) -> None:
    """Evaluate a value expression (sum, difference) or a comparison (<=, >=, ==, <, >, ||).

    Functions: rcf cool heat overheat freeze aw norton upnth incentives (see README); G : H.

    \b
    Examples:
      cgf calc "{1|0} + *"
      cgf calc "^ || *"
      cgf calc "{3|1}" --json
      cgf calc "cool({3|-1}, 1)"
      cgf calc --universe loopy "on + off == dud"
      cgf calc "{3|1} + {4|{2|-2}}" -o t.svg
      cgf calc --check "^ > 0" && echo positive
    """
    thermograph = output_file(output, thermograph=thermograph)
    expression = read_position_text(expression)
    try:  # megabytes of brackets: refused in one quick pass, before any splitting or parsing
        check_nesting(expression, MAX_TEXT_NESTING, prefixes="-~")
    except NestingError:
        fail(
            f"invalid expression {shorten(expression)}: nesting deeper than {MAX_TEXT_NESTING} "
            "levels (the limit)"
        )
    loopy_words = r"\b(on|off|over|under|upon|dud|pass|onside|offside)\b|&"
    if universe == "normal" and re.search(loopy_words, expression):
        universe = "loopy"  # loopy literals: short games have none of these words, nor &
    try:
        uni = registry_with_universe(universe).universe(universe)
    except KeyError as exc:
        fail(str(exc.args[0]))
    left, op, right = split_comparison(expression)
    if check and op is None:
        fail('--check needs a comparison (<=, >=, ==, <, >, ||), e.g. "^ > 0"')

    def evaluate(text: str) -> Any:
        try:
            if timeout is not None:  # e.g. norton() of a number born on day 3000: minutes
                return within_timeout(timeout, time.monotonic(), uni.parse, text)
            return call_deep(uni.parse, text)
        except (LimitExceeded, MemoryError, SystemError):  # the machine's limits, not the text
            raise
        except RecursionError:
            fail(f"invalid {uni.name} expression {shorten(text)}: nested too deeply")
        except Exception as exc:
            fail(f"invalid {uni.name} expression {shorten(text)}: {exc}")

    started = time.monotonic()

    def limited(fn: Any, *args: Any) -> Any:
        """``fn(*args)`` within what is left of --timeout (comparing or printing a loopy
        value can take longer than building it: ``*128 + *64``)."""
        return fn(*args) if timeout is None else within_timeout(timeout, started, fn, *args)

    a = evaluate(left)
    if thermograph is not None:
        _write_thermograph(thermograph, uni, left, a, op)
    if op is not None:
        b = evaluate(right)
        try:
            result = limited(holds, uni, a, op, b)
        except ValueError as exc:
            fail(str(exc))
        if check:
            raise typer.Exit(0 if result else 1)
        print(json.dumps({"result": result}) if as_json else str(result).lower())
        return
    if isinstance(a, CanonicalGame) and full:  # streamed, never built whole
        if as_json:
            print_json_streaming({"value": a, **limited(uni.describe, a, False)})
        else:
            for chunk in iter_text(a):
                sys.stdout.write(chunk)
            sys.stdout.write("\n")
    elif isinstance(a, CanonicalGame) and as_json and is_large(a):
        summary = limited(summarise, a)
        facts = {k: v for k, v in summary.to_json().items() if k in _CALC_SUMMARY_FACTS}
        print(json.dumps({"value": summary.to_json(), "value_kind": "summary", **facts}))
    elif isinstance(a, CanonicalGame) and not as_json:
        print(limited(elided_text, a, MAX_LENGTH))
    elif as_json:
        print(limited(lambda: json.dumps({"value": str(a), **uni.describe(a)})))
    else:
        print(elide(limited(str, a), None if full else MAX_LENGTH))


_CALC_SUMMARY_FACTS = ("outcome", "left_stop", "right_stop", "mean", "temperature", "birthday")
"""The ``cgf calc --json`` fields a summarised value still has (its reduced form, atomic
weight and incentives, as long as it, are left out)."""


def _write_thermograph(path: str, uni: Any, text: str, value: Any, op: str | None) -> None:
    """``cgf calc --thermograph``: one chart; for a sum ``A + B + ...`` (up to 5 parts) each
    part's thermograph and the sum's."""
    from cgframework.display.thermograph import thermograph_svg
    from cgframework.game import top_level_split
    from cgframework.values.canonical import CanonicalGame

    if op is not None or not isinstance(value, CanonicalGame):
        fail("a thermograph needs a short game value (no comparison, universe normal)")
    parts = [p.strip() for p in top_level_split(text, "+")]
    games, labels = [value], [text.strip()]
    if 1 < len(parts) <= 5 and all(parts):
        try:
            values = [uni.parse(p) for p in parts]
        except Exception:  # not a plain sum of parts (e.g. "{1|0}+-1"): the value alone
            values = []
        if values and all(isinstance(v, CanonicalGame) for v in values):
            games, labels = [*values, value], [*parts, "sum"]
    write_picture(path, lambda: thermograph_svg(games, labels))


@app.command()
def tree(
    ruleset: RulesetArgument,
    position: Annotated[str, typer.Argument(help="Position text, @FILE, or - for stdin.")],
    output: Annotated[str, output_option("The SVG file to write.")],
    depth: Annotated[int, typer.Option(help="How many moves deep (0 to 8).")] = 3,
    variant: VariantOption = None,
) -> None:
    """Draw the game tree (Left's options down-left in blue, Right's down-right in red).

    \b
    Examples:
      cgf tree domineering "...|..." --depth 2 -o t.svg
      cgf tree nim 2,3 -o nim.svg
      cgf tree domineering "..|.." --variant impartial -o cram.svg
    """
    from cgframework.display.tree import MAX_DEPTH, tree_svg

    rs = load_ruleset(ruleset, variant)
    pos = load_position(rs, position)
    if not 0 <= depth <= MAX_DEPTH:
        fail(f"--depth must be between 0 and {MAX_DEPTH}, got {depth}")
    write_picture(output, lambda: tree_svg(rs, pos, depth))
    if output != "-":  # (on standard output, the picture alone)
        out.print(f"tree written to {output}")


@app.command()
def explore(
    ruleset: RulesetArgument,
    position: Annotated[str, typer.Argument(help="Position text, @FILE, or - for stdin.")],
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free one).")] = 8765,
    host: Annotated[
        str,
        typer.Option(help="Address to serve on (default loopback only; another one warns)."),
    ] = "127.0.0.1",
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Print the address; open no browser.")
    ] = False,
    max_nodes: Annotated[
        int | None,
        typer.Option(min=0, help="Positions expanded per solve at most (default 500000)."),
    ] = None,
    timeout: Annotated[
        float | None,
        typer.Option(min=0, help="Seconds per node at most (default 10): past it, 'limit'."),
    ] = None,
    variant: VariantOption = None,
) -> None:
    """Explore the game tree in the browser: the position's picture, value, outcome and
    thermograph, each side's options with their values; click an option to go down, the
    path to come back, the board to move. Ctrl-C stops the server.

    Each node is worked out in a worker process under --timeout and --max-memory (stopped
    past them); a request waits 10 s at most for its worker, then the page is told the
    server is busy and asks again. Idle connections are closed after 5 s.

    \b
    Examples:
      cgf explore domineering "...|...|..."
      cgf explore clobber xoxo|oxox --port 9000 --no-browser
    """
    from cgframework.display import explorer as ex
    from cgframework.display.server import page_url, start
    from cgframework.game import format_position

    rs = load_ruleset(ruleset, variant)
    pos = load_position(rs, position)
    if not host.strip():
        fail("--host is empty: name an address (127.0.0.1, or 0.0.0.0 for every interface)")
    text = format_position(rs, pos)
    try:
        server, thread = start(
            host,
            port,
            ex.DEFAULT_MAX_NODES if max_nodes is None else max_nodes,
            ex.DEFAULT_TIMEOUT if timeout is None else timeout,
            home=(rs.name, text),
        )
    except OSError as exc:
        reason = "busy" if exc.errno in (98, 48, 10048) else (exc.strerror or str(exc))
        fail(f"cannot serve on {host}:{port}: {reason} (choose another --port, or 0)")
    if host not in ("127.0.0.1", "localhost", "::1"):  # (once it serves: one line on a refusal)
        _warn(
            f"serving on {host}: anyone who can reach this machine there can use the explorer "
            "(and its CPU); there is no password"
        )
    url = page_url(server, rs.name, text)
    print(f"cgf explore: {url}  (Ctrl-C to stop)", flush=True)
    if not no_browser:
        import webbrowser

        try:
            webbrowser.open(url)
        except Exception:  # no browser here: the address is printed above
            pass
    try:
        while thread.is_alive():
            thread.join(0.5)
    except KeyboardInterrupt:
        print("cgf explore: stopped", file=sys.stderr)
    finally:
        server.shutdown()
        server.server_close()


@app.command()
def play(
    ruleset: RulesetArgument,
    position: Annotated[str, typer.Argument(help="Position text, @FILE, or - for stdin.")],
    you: Annotated[str, typer.Option(help="Your side: L or R.")] = "L",
    first: Annotated[str, typer.Option(help="Who moves first: L or R.")] = "L",
    output: Annotated[
        str | None,
        output_option("At the end, write the board with who took what to this SVG file."),
    ] = None,
    picture: Annotated[str | None, old_output_option("picture")] = None,
    variant: VariantOption = None,
) -> None:
    """Play against the perfect player in the terminal.

    Type a move as the menu writes it, or its number in the menu; when some move is written
    as a number (a heap size), a bare number is that move and menu item N is #N. q (or the
    end of input) quits. Positions may repeat in a loopy ruleset: the same position with the
    same player to move a third time ends the game as a draw (the second time is announced).
    A line longer than CGF_MAX_INPUT_BYTES (16 MiB) ends the game (exit 2).

    \b
    Examples:
      cgf play domineering "...|...|..."
      cgf play nim 3,5,7 --you R
      cgf play domineering "..|..|.." -o game.svg
      cgf play clobber "xox|oxo" --variant dicotic
      cgf play partizan-digraph "0>1:L,1>0:R;0"
    """
    from cgframework.display.play import PlayRecord, play_game
    from cgframework.runtime.inputs import InputTextError

    picture = output_file(output, picture=picture)
    rs = load_ruleset(ruleset, variant)
    if rs.convention is Convention.CHEATING_ROBOT:
        fail("cgf play does not support cheating-robot rounds yet")
    pos = load_position(rs, position)
    record = PlayRecord(rs, pos)
    if picture is not None:
        draw_svg(record.picture)  # too big to draw: refused before the game starts
    try:
        play_game(
            rs, pos, human=parse_player(you), first=parse_player(first), console=out, on_move=record
        )
    except InputTextError as exc:  # a line too long, or not text: the game ends here
        fail(str(exc))
    if picture is not None:
        write_picture(picture, record.picture)
        if picture != "-":
            out.print(f"picture written to {picture}")


CORE_GROUPS = {
    "store": "cgframework.cli.store",
    "sweep": "cgframework.cli.sweep",
    "certificate": "cgframework.cli.certificate",
    "sequence": "cgframework.cli.sequences",
    "quotient": "cgframework.cli.sequences",
}
"""The core's sub-command groups (and commands of their own module) and the modules that add
them to ``app``: imported when ``cgf store ...`` / ``cgf sequence ...`` runs, or when every
command is listed."""


def add_core_groups(first_word: str | None = None) -> None:
    """Import the module of core group ``first_word`` (``None``: all of them)."""
    for name, module in CORE_GROUPS.items():
        if first_word is None or first_word == name:
            importlib.import_module(module)


def _click_exceptions(command: Any) -> Any:
    """The exceptions module of the click that typer uses (``click``, or the copy typer
    vendors as ``typer._click`` in recent releases)."""
    for cls in type(command).__mro__:
        package = cls.__module__.rsplit(".", 1)[0]
        try:
            module = importlib.import_module(f"{package}.exceptions")
        except ImportError:
            continue
        if hasattr(module, "ClickException"):
            return module
    raise RuntimeError("cannot find click's exceptions behind typer")


def is_option_word(word: str, short_options: Any) -> bool:
    """The argument rule: a word is an option only if it starts with ``--`` or is exactly one
    of the command's short options (``-o``, ``-h``); any other word (``-1``, ``-3/4``,
    ``"-1 + *"``, ``-v``, ``-over``, ``-`` for stdin) is a value for a positional argument.
    ``--`` makes the next word a value whatever it looks like; options may still follow."""
    return word.startswith("--") or word in short_options


def accept_values_starting_with_minus(command: Any) -> Any:
    """Apply :func:`is_option_word` to ``command`` and every sub-command (plugins' too), by
    replacing the option loop of each command's click parser: one rule for every command."""
    make_parser = command.make_parser

    def make_values_parser(ctx: Any) -> Any:
        parser = make_parser(ctx)

        def process_words(state: Any) -> None:
            while state.rargs:
                word = state.rargs.pop(0)
                if word == "--":
                    if state.rargs:
                        state.largs.append(state.rargs.pop(0))
                elif is_option_word(word, parser._short_opt):
                    parser._process_opts(word, state)
                elif parser.allow_interspersed_args:
                    state.largs.append(word)
                else:  # a group: the rest belongs to its sub-command
                    state.rargs.insert(0, word)
                    return

        parser._process_args_for_options = process_words
        return parser

    command.make_parser = make_values_parser
    for sub in getattr(command, "commands", {}).values():
        accept_values_starting_with_minus(sub)
    return command


class _LazyCoercion:
    """typer (0.2x) validates every parsed value with a pydantic adapter, and importing pydantic
    costs ~0.1 s at each start. A missing value, a string for a plain ``str`` parameter, or
    a flag's or number's own default (``--jobs 1``), needs no validator; any other value goes
    through typer's own, built on first use."""

    def __init__(self, param: Any) -> None:
        self.param = param
        self.real: Any = None

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        multi = param.multiple or param.nargs == -1
        if value is None:
            return () if multi else None
        default = getattr(param, "default", None)
        if type(value) in (bool, int) and type(value) is type(default) and value == default:
            return value
        info = self.param.type_descriptor.parameter_info
        plain = getattr(info, "parser", None) is None and getattr(info, "click_type", None) is None
        if not multi and plain and self.param.type_descriptor.annotation is str:
            if isinstance(value, str):
                return value
        if self.real is None:
            self.param._runtime_param = None
            self.real = self.param.get_runtime_param()
            self.param._runtime_param = self
        return self.real.coerce(value, param=param, ctx=ctx)


def coerce_lazily(command: Any) -> Any:
    """Install :class:`_LazyCoercion` on ``command``'s parameters and its sub-commands' (when
    typer has the lazily built coercion it replaces; otherwise nothing changes)."""

    def install(param: Any) -> Any:
        if getattr(param, "_runtime_param", False) is None and hasattr(param, "type_descriptor"):
            param._runtime_param = _LazyCoercion(param)
        return param

    for param in getattr(command, "params", ()):
        install(param)
    get_help_option = getattr(command, "get_help_option", None)
    if get_help_option is not None:  # ``--help`` is made per context
        command.get_help_option = lambda ctx: install(get_help_option(ctx))
    for sub in getattr(command, "commands", {}).values():
        coerce_lazily(sub)
    return command


METAVARS = {
    "store": "FILE",
    "output": "FILE",
    "picture": "FILE",
    "thermograph": "FILE",
    "tls_ca_file": "FILE",
    "tls_cert": "FILE",
    "tls_key": "FILE",
    "source": "FILE",
    "path": "STORE",
    "timeout": "SECONDS",
    "first": "L|R",
    "you": "L|R",
    "strategist": "L|R",
    "trust": "any|local",
    "method": "METHOD",
    "fmt": "FORMAT",
    "format": "FORMAT",
    "universe": "UNIVERSE",
}
"""Metavars by parameter name, shared by every command (plugins' too); an explicit
``metavar=`` wins. Other values are ``N`` (an integer), ``X`` (a number) or the parameter's
name in capitals."""


def polish_help(command: Any) -> Any:
    """Help as it should read, for ``command`` and its sub-commands (plugins' too): every
    parameter gets a real metavar (``RULESET``, ``FILE``, ``N``) instead of typer's type names
    (``<str>``), flags none; and the text is laid out (see :func:`lay_out_help`)."""
    if getattr(command, "help", None):
        command.help = lay_out_help(command.help)
    for param in getattr(command, "params", ()):
        _name_value(param)
    get_help_option = getattr(command, "get_help_option", None)
    if get_help_option is not None:  # ``--help`` is made per context

        def help_option(ctx: Any) -> Any:
            option = get_help_option(ctx)
            if option is not None:
                _name_value(option)
            return option

        command.get_help_option = help_option
    for sub in getattr(command, "commands", {}).values():
        polish_help(sub)
    return command


def did_you_mean(word: str, known: Any) -> str:
    """`` (did you mean 'solve'?)`` for a near miss among ``known`` names, else ``""``."""
    close = difflib.get_close_matches(word, sorted(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def suggest_commands(command: Any) -> Any:
    """An unknown sub-command of ``command`` (or of its groups) is refused in the house style
    with the nearest names: ``no such command 'slove' (did you mean 'solve'?)``."""
    resolve = getattr(command, "resolve_command", None)
    if resolve is None or not hasattr(command, "commands"):
        return command

    def resolve_or_suggest(ctx: Any, args: list[str]) -> Any:
        try:
            return resolve(ctx, args)
        except _click_exceptions(command).UsageError as exc:
            name = args[0] if args else ""
            if name and command.get_command(ctx, name) is None and not name.startswith("-"):
                exc.message = f"no such command {name!r}" + did_you_mean(name, command.commands)
            raise

    command.resolve_command = resolve_or_suggest
    for sub in command.commands.values():
        suggest_commands(sub)
    return command


def lay_out_help(text: str) -> str:
    """A command's help as typer's rich layout shows it well: the paragraphs after the first
    become one line each (rich wraps them to the terminal; typer would keep the docstring's
    line breaks), and a paragraph marked ``\\b`` (click's "keep as written", used for the
    Examples) keeps its lines, without the mark."""
    first, *rest = inspect.cleandoc(text).split("\n\n")
    paragraphs = [first if first.startswith("\b") else " ".join(first.split())]
    for paragraph in rest:
        if paragraph.startswith("\b\n"):  # (first after the summary: typer dedents it, unless
            # it starts with a newline)
            paragraphs.append(("\n" if len(paragraphs) == 1 else "") + paragraph[2:])
        elif not paragraph.startswith("\b"):
            paragraphs.append(" ".join(paragraph.split()))
        else:
            paragraphs.append(paragraph)
    return "\n\n".join(paragraphs)


def _name_value(param: Any) -> None:
    """One parameter's metavar (see :func:`polish_help`)."""
    if getattr(param, "param_type_name", "") == "argument":  # its name says it all
        param.display_type_rich = lambda ctx: None
    if param.metavar is None:
        if getattr(param, "is_flag", False) or getattr(param, "count", False):
            param.metavar = ""
        else:
            param.metavar = _metavar(param)


def _metavar(param: Any) -> str:
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    kinds = {annotation, *typing.get_args(annotation)}
    if param.name in METAVARS:
        return METAVARS[param.name]
    if int in kinds:
        return "N"
    if float in kinds:
        return "X"
    return (param.name or "value").upper()


_built: dict[tuple[int, int, int], Any] = {}


def _click_command() -> Any:
    """The click command of ``app`` (with the argument rule), built once per set of
    registered commands: building it reads every command's signature (~0.3 s)."""
    key = (id(app), len(app.registered_commands), len(app.registered_groups))
    if key not in _built:
        _built.clear()
        command = accept_values_starting_with_minus(typer.main.get_command(app))
        _built[key] = suggest_commands(polish_help(coerce_lazily(command)))
    return _built[key]


def _core_command(argv: list[str]) -> bool:
    """True when ``argv`` runs one of the core's own commands (``cgf solve ...``): plugins'
    sub-commands (and so their modules) are then not loaded. ``cgf pizza ...`` loads the
    pizza plugin's (:func:`~cgframework.plugins.register_commands`); ``--help``, ``rulesets``
    and ``demo`` load them all."""
    if argv and argv[0] == "--version":
        return True
    if not argv or argv[0] in ("rulesets", "demo"):
        return False
    names = {c.name or c.callback.__name__ for c in app.registered_commands if c.callback}
    names.update(g.name for g in app.registered_groups if g.name)
    return argv[0] in names or argv[0] in CORE_GROUPS


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``cgf`` console script: one-line errors, exit code 2."""
    if argv is None:  # the console script: the process ends with the command, and the
        # interpreter's last collection need not walk every object the command left (after
        # a search, the tables: a quarter of Amazons 3x4 --outcome's CPU time)
        atexit.register(gc.freeze)
    set_warning_handler(_warn)  # a plugin that fails to load: one line, the rest works
    # (out of memory, generators finalised on the way out raise MemoryError where Python can
    # only print "Exception ignored in ..."; the one line that ends the command says it all)
    drop_unraisable(MemoryError)
    try:
        words = sys.argv[1:] if argv is None else argv
        if not _core_command(words):
            add_core_groups()
            register_commands(app, words[0] if words else None)
            missing = broken_command(words[0]) if words else None
            if missing is not None:
                _die(missing, 2)
        elif words[0] in CORE_GROUPS:
            add_core_groups(words[0])
    except PluginError as exc:
        _die(str(exc), 2)
    command = _click_command()
    if os.environ.get("CGF_DEBUG"):
        command.main(args=argv, prog_name="cgf")
        return
    errors = _click_exceptions(command)
    aborts = tuple(e for e in (getattr(errors, "Abort", None), typer.Abort) if e)
    exits = tuple(e for e in (getattr(errors, "Exit", None), typer.Exit) if e)
    ceiling = memory.limit()  # the command's ceiling ends with it (main() may run in-process)
    out_of_memory = False
    said = ""
    guard_stdout()  # a full disk under standard output: one line, exit 2, from any write
    try:
        status = command.main(args=argv, prog_name="cgf", standalone_mode=False)
        flush_stdout()  # inside the guard: a write that fails only when flushed is caught too
        if status == 130:  # typer turns Ctrl-C into this exit status
            _die("interrupted", 130)
        if isinstance(status, int) and status:
            sys.exit(status)
    except OutputError as exc:
        if exc.path == "-":
            discard_stdout()
        _die(str(exc), 2)
    except (InputError, PluginError, StoreError) as exc:
        _die(str(exc), 2)
    except LimitExceeded as exc:  # a search budget, an output size...
        _die(str(exc), 3)
    except (*aborts, KeyboardInterrupt):
        _die("interrupted", 130)
    except errors.ClickException as exc:
        if type(exc).__name__ == "NoArgsIsHelpError" and getattr(exc, "ctx", None):
            print(exc.ctx.get_help())
            sys.exit(0)
        _die(exc.format_message().replace("\n", " "), 2)
    except exits as exc:
        sys.exit(exc.exit_code)
    except BrokenPipeError:  # the reader of standard output went away: nothing to report
        discard_stdout()
        sys.exit(0)
    except SystemExit as exc:  # click turns a broken pipe into a silent exit 1: the same case
        if exc.code == 1 and isinstance(exc.__context__, BrokenPipeError):
            discard_stdout()
            sys.exit(0)
        raise
    except ValueError as exc:
        if "Exceeds the limit" in str(exc) and "digits" in str(exc):
            # int <-> str conversion of a huge number (sys.get_int_max_str_digits)
            _die(f"a number has more than {sys.get_int_max_str_digits()} digits (limit)", 3)
        _die(f"internal error: ValueError: {exc} (set CGF_DEBUG=1 for a traceback)", 1)
    except MemoryError as exc:  # past --max-memory (or the machine's): a search too big for it
        out_of_memory = True
        said = str(exc)  # (compiled code may say which of its tables is full)
    except SystemError as exc:
        if "without exception set" not in str(exc):
            _die(f"internal error: SystemError: {exc} (set CGF_DEBUG=1 for a traceback)", 1)
        # compiled code whose allocation failed without saying so: seen only under a
        # system memory limit (ulimit -v) tighter than --max-memory
        out_of_memory = True
    except RecursionError:
        _die("internal error: recursion too deep (set CGF_DEBUG=1 for a traceback)", 1)
    except Exception as exc:  # a bug: still one line, with a way to see the traceback
        _die(f"internal error: {type(exc).__name__}: {exc} (set CGF_DEBUG=1 for a traceback)", 1)
    finally:
        message = memory.exhausted_message()
        memory.set_limit(ceiling)
    if said.startswith("out of memory"):
        message = said
    if out_of_memory:  # (out of the handler: what the failed work held is freed by now)
        _die(message, 3)


MAX_MESSAGE = 300
"""Characters of an error message printed at most (a message may quote user input)."""


def _warn(message: str) -> None:
    message = " ".join(message.split())
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 30] + f"... ({len(message)} characters)"
    print(f"cgf: warning: {message}", file=sys.stderr)


def _die(message: str, code: int) -> NoReturn:
    message = " ".join(message.split())
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 30] + f"... ({len(message)} characters)"
    print(f"cgf: error: {message}", file=sys.stderr)
    sys.exit(code)


__all__ = ["app", "main"]
