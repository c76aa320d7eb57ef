"""Who wins: our outcome search, our canonical route and MCGS on the same instances.

``python benchmarks/outcome.py [--quick] [--only NAME] [--timeout T] [--mcgs PATH]`` prints a
markdown table of CPU seconds and node counts for each shared instance and each route:

- ``outcome``: ``cgf solve RULESET POS --outcome --json`` (skipped with a note while the flag
  does not exist);
- ``canonical``: ``cgf solve RULESET POS --json --timeout T`` (the full canonical value);
- ``MCGS``: the peer (Folkersen, Du & Müller, ACG 2025; C++), built outside the project, given
  by ``--mcgs PATH`` or ``$MCGS_BIN`` and skipped with a note when absent. It runs in its
  test-runner mode (``--run-tests`` on a one-case directory, ``--no-use-db``), which reports its
  node count per first player; it solves Black first and White first, as ``{B, W}``.

Each route runs in a fresh process; its CPU time is ``RUSAGE_CHILDREN`` around it (user +
system), so our rows include Python's start-up and plugin loading (the ``start-up`` line: ``cgf
solve clobber xo --json``); MCGS's include its own (mostly clearing its transposition table).
``--timeout T`` is in CPU seconds per route and instance (both first players together), set as
``RLIMIT_CPU`` so a busy machine does not cut a route short; a route past it shows ``> T s``.
Node counts are each program's own (ours: ``stats.nodes``; MCGS: the sum of its ``Node Count``
over both first players), so they compare search effort only loosely.

**Same game on both sides.** MCGS's Black is our Left: Black plays ``X`` in Clobber and Amazons
(our ``x``) and plays vertically in Domineering (``src/domineering.cpp``: "BLACK vertical"), as
our Left does; MCGS grids are row-major with ``|`` between rows, as ours. The rows do not rely on
this: the outcomes of all routes that ran must agree with each other and with the published
entry (``outcome_tables.py``), and the script exits 1 naming every disagreement. Checkerboards
are N or P whoever is Left, so published positions whose outcome is L or R (Clobber rows,
Amazons, Domineering with blocked cells) are in the table to catch a swapped colour or a
transposed board.

``--self-check`` runs in seconds without MCGS: the published tables' small entries against our
canonical values (in-process), one instance through each of our routes (subprocesses), MCGS's
result parser on a canned report, and the disagreement check on a forged row.
"""

from __future__ import annotations

import argparse
import csv
import fnmatch
import io
import json
import math
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence

import attrs

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import outcome_tables  # noqa: E402

#: A route's ``--timeout T`` is a limit on CPU seconds (``RLIMIT_CPU``: the machine may be
#: shared, and CPU seconds are what the table reports); its wall-clock allowance is
#: ``WALL_FACTOR * T`` (passed to the program's own timeout), and it is killed ``GRACE``
#: seconds after that.
WALL_FACTOR = 10
GRACE = 30.0


def wall_allowance(cpu_limit: float) -> float:
    """The wall-clock seconds a route limited to ``cpu_limit`` CPU seconds may take."""
    return WALL_FACTOR * cpu_limit


# ---- running one process -----------------------------------------------------------------
@attrs.frozen
class Run:
    """One finished (or stopped) process: exit code, output, its CPU seconds, and whether it
    was stopped by a limit of this script (wall clock, or ``RLIMIT_CPU``: SIGXCPU / SIGKILL)."""

    returncode: int
    stdout: str
    stderr: str
    cpu: float
    killed: bool = False


def _cpu_limiter(cpu_limit: float) -> Callable[[], None]:
    seconds = max(1, math.ceil(cpu_limit))

    def limit() -> None:  # in the child, before exec
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))

    return limit


def run_measured(argv: Sequence[str], cpu_limit: float, cwd: str | None = None) -> Run:
    """Run ``argv`` with at most ``cpu_limit`` CPU seconds (rounded up to whole seconds) and
    ``wall_allowance(cpu_limit) + GRACE`` wall-clock seconds; return its output and the CPU
    seconds (user + system) it used, read from ``RUSAGE_CHILDREN`` before and after."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        done = subprocess.run(
            list(argv),
            capture_output=True,
            text=True,
            timeout=wall_allowance(cpu_limit) + GRACE,
            cwd=cwd,
            preexec_fn=_cpu_limiter(cpu_limit),
        )
        code, out, err = done.returncode, done.stdout, done.stderr
        killed = code in (-signal.SIGXCPU, -signal.SIGKILL)
    except subprocess.TimeoutExpired as stopped:  # run() killed and reaped the child
        out = stopped.stdout.decode() if isinstance(stopped.stdout, bytes) else stopped.stdout
        err = stopped.stderr.decode() if isinstance(stopped.stderr, bytes) else stopped.stderr
        code, out, err, killed = -signal.SIGKILL, out or "", err or "", True
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(code, out, err, cpu, killed)


def cgf_command() -> list[str]:
    """The ``cgf`` of this interpreter's environment (beside ``sys.executable``), else PATH's."""
    beside = os.path.join(os.path.dirname(sys.executable), "cgf")
    return [beside] if os.access(beside, os.X_OK) else [shutil.which("cgf") or "cgf"]


_HELP_CACHE: dict[str, str] = {}


def cgf_has_option(subcommand: Sequence[str], option: str) -> bool:
    """Whether ``cgf SUBCOMMAND --help`` lists ``option`` (routes skip flags not built yet)."""
    key = " ".join(subcommand)
    if key not in _HELP_CACHE:
        done = subprocess.run(
            [*cgf_command(), *subcommand, "--help"],
            capture_output=True,
            text=True,
            env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"},
        )
        _HELP_CACHE[key] = done.stdout if done.returncode == 0 else ""
    return option in _HELP_CACHE[key]


# ---- instances ---------------------------------------------------------------------------
@attrs.frozen
class Instance:
    """One shared instance: our ruleset and position, MCGS's section and game text, and the
    published outcome (with its source key in ``outcome_tables.SOURCES``) when there is one."""

    name: str
    ruleset: str
    position: str
    mcgs_section: str | None
    mcgs_game: str | None
    published: str | None = None
    source: str | None = None
    quick: bool = False


def _rows(rows: int, cols: int, cell: str = ".") -> str:
    return "|".join(cell * cols for _ in range(rows))


def _checker(rows: int, cols: int, x: str = "x", o: str = "o") -> str:
    return "|".join("".join(x if (r + c) % 2 == 0 else o for c in range(cols)) for r in range(rows))


def domineering(rows: int, cols: int, quick: bool = False) -> Instance:
    board = _rows(rows, cols)
    return Instance(
        f"domineering-{rows}x{cols}", "domineering", board, "domineering", board, quick=quick
    )


def clobber(rows: int, cols: int, quick: bool = False) -> Instance:
    published = outcome_tables.clobber_rectangle(rows, cols)
    outcome, source = published if published else (None, None)
    return Instance(
        f"clobber-{rows}x{cols}",
        "clobber",
        f"checker:{rows}x{cols}",
        "clobber",
        _checker(rows, cols, "X", "O"),
        outcome,
        source,
        quick,
    )


def xo(n: int, quick: bool = False) -> Instance:
    outcome, source = outcome_tables.xo_power(n)
    return Instance(f"xo-{n}", "clobber", "xo" * n, "clobber_1xn", "XO" * n, outcome, source, quick)


def cram(rows: int, cols: int, quick: bool = False) -> Instance:
    nim = outcome_tables.cram_nim_value(rows, cols)
    board = _rows(rows, cols)
    return Instance(
        f"cram-{rows}x{cols}",
        "cram",
        board,
        "impartial domineering",
        board,
        None if nim is None else ("P" if nim == 0 else "N"),
        None if nim is None else "cram-mcgs",
        quick,
    )


def sided(name: str, ruleset: str, position: str, outcome: str, source: str) -> Instance:
    """A published position whose outcome is L or R (``outcome_tables.SIDED_POSITIONS``); a
    one-row Clobber position goes to MCGS's ``clobber_1xn``."""
    section = "clobber_1xn" if ruleset == "clobber" and "|" not in position else ruleset
    mcgs_text = position.upper() if ruleset != "domineering" else position
    return Instance(name, ruleset, position, section, mcgs_text, outcome, source, quick=True)


INSTANCES: tuple[Instance, ...] = (
    domineering(4, 5, quick=True),
    domineering(5, 6),
    domineering(6, 6),
    clobber(3, 4, quick=True),
    clobber(4, 4, quick=True),
    clobber(4, 5),
    *(xo(n, quick=n <= 12) for n in range(10, 23)),
    Instance("amazons-3x4", "amazons", "x...|....|...o", "amazons", "X...|....|...O", quick=True),
    cram(4, 5, quick=True),
    cram(5, 5),
    *(sided(*entry) for entry in outcome_tables.SIDED_POSITIONS),
)


def select(instances: Iterable[Instance], quick: bool, only: str | None) -> list[Instance]:
    """The instances to run: ``--only`` matches a name, a glob (``xo-1*``) or a prefix before a
    dash (``xo``, ``clobber``); ``--quick`` keeps the quick ones."""
    chosen = []
    for inst in instances:
        if only is not None:
            family = inst.name.split("-", 1)[0]
            if not (fnmatch.fnmatchcase(inst.name, only) or only == family):
                continue
        elif quick and not inst.quick:
            continue
        chosen.append(inst)
    return chosen


# ---- results -----------------------------------------------------------------------------
@attrs.frozen
class Result:
    """One route on one instance: the outcome (None when skipped, failed or out of time), CPU
    seconds, nodes, and a short note (``skipped: ...``, ``> 60 s``, an error line)."""

    route: str
    outcome: str | None
    cpu: float | None = None
    nodes: int | None = None
    note: str = ""


def outcome_of(left_first_wins: bool, right_first_wins: bool) -> str:
    """The outcome class from who wins moving first: Left first, Right first."""
    if left_first_wins and right_first_wins:
        return "N"
    if left_first_wins:
        return "L"
    if right_first_wins:
        return "R"
    return "P"


def out_of_time(timeout: float) -> str:
    """The note of a route stopped by its timeout (a wall-clock limit, in every route)."""
    return f"> {timeout:g} s"


def _timed_out(run: Run, timeout: float) -> Result | None:
    """A route killed, or stopped at a limit (exit 3: the time limit, or memory)."""
    if run.killed or (run.returncode == 3 and "timeout" in run.stderr):
        return Result("", None, run.cpu, None, out_of_time(timeout))
    if run.returncode == 3:
        last = (run.stderr.strip().splitlines() or ["limit"])[-1]
        return Result("", None, run.cpu, None, f"limit: {last}")
    return None


def _cgf_json(route: str, run: Run, timeout: float) -> Result:
    late = _timed_out(run, timeout)
    if late is not None:
        return attrs.evolve(late, route=route)
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or ["no output"])[-1]
        return Result(route, None, run.cpu, None, f"exit {run.returncode}: {last}")
    facts = json.loads(run.stdout)
    nodes = (facts.get("stats") or {}).get("nodes")
    return Result(route, facts["outcome"], run.cpu, nodes)


def run_outcome_route(inst: Instance, timeout: float) -> Result:
    """``cgf solve ... --outcome --no-moves --json``: who wins with each player first, as MCGS
    answers (not every winning move; skipped while ``--outcome`` does not exist)."""
    if not cgf_has_option(["solve"], "--outcome"):
        return Result("outcome", None, note="skipped: no --outcome yet")
    argv = [*cgf_command(), "solve", inst.ruleset, inst.position, "--outcome", "--json"]
    if cgf_has_option(["solve"], "--no-moves"):  # who wins only, as MCGS answers
        argv.append("--no-moves")
    argv += ["--timeout", f"{wall_allowance(timeout):g}"]
    return _cgf_json("outcome", run_measured(argv, timeout), timeout)


def run_canonical_route(inst: Instance, timeout: float) -> Result:
    """``cgf solve ... --json --timeout T``: the outcome read off the canonical value."""
    argv = [*cgf_command(), "solve", inst.ruleset, inst.position, "--json"]
    argv += ["--timeout", f"{wall_allowance(timeout):g}"]
    return _cgf_json("canonical", run_measured(argv, timeout), timeout)


def mcgs_binary(given: str | None) -> str | None:
    """MCGS's executable: ``--mcgs PATH``, else ``$MCGS_BIN``; None when neither is runnable."""
    path = given or os.environ.get("MCGS_BIN")
    return path if path and os.access(path, os.X_OK) else None


def mcgs_test_file(inst: Instance) -> str:
    """A one-case MCGS input file: Black first, then White first."""
    return f"{{version 1.5}}\n[{inst.mcgs_section}]\n({inst.mcgs_game}) {{B, W}}\n"


def parse_mcgs_report(report: str) -> tuple[str | None, int | None, str]:
    """MCGS's ``--out-file`` CSV: (outcome, total node count, note). A case MCGS did not finish
    (``Result`` not win/loss) gives no outcome and the note says why."""
    wins: dict[str, bool] = {}
    nodes = 0
    for row in csv.DictReader(io.StringIO(report)):
        player, result = row["Player"].strip(), row["Result"].strip().lower()
        status = row.get("Status", "").strip()
        if status == "TIMEOUT":
            return None, None, "MCGS: timeout"
        if result not in ("win", "loss"):
            return None, None, f"MCGS: {player} {result} {status}"
        wins[player] = result == "win"
        count = row.get("Node Count", "").strip()
        nodes += int(count) if count.isdigit() else 0
    if set(wins) != {"B", "W"}:
        return None, None, "MCGS: no result for both players"
    return outcome_of(wins["B"], wins["W"]), nodes, ""


def run_mcgs_route(inst: Instance, timeout: float, binary: str | None) -> Result:
    """MCGS in its test-runner mode on a one-case directory (no database)."""
    if binary is None:
        return Result("MCGS", None, note="skipped: no MCGS (--mcgs PATH or MCGS_BIN)")
    if inst.mcgs_section is None:
        return Result("MCGS", None, note="skipped: not in MCGS")
    with tempfile.TemporaryDirectory(prefix="cgf-mcgs-") as work:
        cases = os.path.join(work, "cases")
        os.mkdir(cases)
        with open(os.path.join(cases, "case.test"), "w") as f:
            f.write(mcgs_test_file(inst))
        report = os.path.join(work, "out.csv")
        argv = [
            os.path.abspath(binary),
            "--run-tests",
            "--test-dir",
            cases,
            "--out-file",
            report,
            "--test-timeout",
            str(int(timeout * 1000)),
            "--no-use-db",
        ]
        run = run_measured(argv, timeout, cwd=work)
        if run.killed:
            return Result("MCGS", None, run.cpu, None, out_of_time(timeout))
        if run.returncode != 0 or not os.path.exists(report):
            last = ((run.stderr or run.stdout).strip().splitlines() or ["no output"])[-1]
            return Result("MCGS", None, run.cpu, None, f"exit {run.returncode}: {last}")
        with open(report) as f:
            outcome, nodes, note = parse_mcgs_report(f.read())
    if outcome is None and "timeout" in note.lower():
        note = out_of_time(timeout)
    return Result("MCGS", outcome, run.cpu, nodes, note)


def disagreements(inst: Instance, results: Sequence[Result]) -> list[str]:
    """Every pair that disagrees: a route against the published entry, routes among themselves."""
    found = []
    done = [r for r in results if r.outcome is not None]
    if inst.published is not None:
        for r in done:
            if r.outcome != inst.published:
                found.append(
                    f"{inst.name}: {r.route} says {r.outcome}, published {inst.published} "
                    f"({inst.source})"
                )
    for i, a in enumerate(done):
        for b in done[i + 1 :]:
            if a.outcome != b.outcome:
                found.append(f"{inst.name}: {a.route} says {a.outcome}, {b.route} {b.outcome}")
    return found


# ---- the table ---------------------------------------------------------------------------
ROUTES = ("outcome", "canonical", "MCGS")


def _cell_time(r: Result) -> str:
    """CPU seconds, ``> T s`` past the limit, ``memory`` past the memory limit."""
    if r.outcome is None:
        if r.note.startswith("limit:") and "memory" in r.note:
            return "memory"
        return r.note if r.note.startswith(">") else "-"
    return f"{r.cpu:.2f}" if r.cpu is not None else "-"


def _cell_nodes(r: Result) -> str:
    return f"{r.nodes:,}" if r.outcome is not None and r.nodes is not None else "-"


def table_header() -> str:
    cells = ["instance", "position", "published"]
    for route in ROUTES:
        cells += [f"{route}", f"{route} CPU s", f"{route} nodes"]
    return "| " + " | ".join(cells) + " |\n|" + "---|" * 3 + "---|---:|---:|" * len(ROUTES)


def table_row(inst: Instance, results: Sequence[Result]) -> str:
    position = inst.position if len(inst.position) <= 24 else inst.position[:21] + "..."
    cells = [inst.name, position.replace("|", "\\|"), inst.published or "-"]
    for r in results:
        cells += [r.outcome or "-", _cell_time(r), _cell_nodes(r)]
    return "| " + " | ".join(cells) + " |"


def run_instance(
    inst: Instance, timeout: float, binary: str | None, routes: Sequence[str] = ROUTES
) -> list[Result]:
    """Every route on one instance, in ``ROUTES`` order; a route left out by ``--routes`` is a
    skipped result."""
    runners = {
        "outcome": lambda: run_outcome_route(inst, timeout),
        "canonical": lambda: run_canonical_route(inst, timeout),
        "MCGS": lambda: run_mcgs_route(inst, timeout, binary),
    }
    return [
        runners[route]() if route in routes else Result(route, None, note="skipped: --routes")
        for route in ROUTES
    ]


@attrs.frozen
class Certified:
    """One certified solve (``clobber_table.py``, ``xo_scan.py``): our outcome and its method,
    the solve's CPU seconds and nodes, the certificate's size and the independent check's CPU
    seconds and verdict (``checked`` None when no certificate was written)."""

    solved: Result
    method: str
    certificate_bytes: int | None = None
    check_cpu: float | None = None
    checked: bool | None = None
    check_note: str = ""


def certified_solve(
    ruleset: str, position: str, timeout: float, workdir: str, certify: bool = True
) -> Certified:
    """``cgf solve RULESET POS --outcome --no-moves --certificate FILE --json``, then ``cgf
    certificate check FILE --json`` on the file (``certify=False``: no certificate, who wins
    only). While ``--outcome`` does not exist the canonical route solves (``method`` says
    which), and while ``--certificate`` does not, no check is made."""
    outcome_flag = cgf_has_option(["solve"], "--outcome")
    method = "outcome" if outcome_flag else "canonical"
    argv = [*cgf_command(), "solve", ruleset, position, "--json"]
    argv += ["--timeout", f"{wall_allowance(timeout):g}"]
    argv += ["--outcome"] if outcome_flag else []
    if outcome_flag and cgf_has_option(["solve"], "--no-moves"):  # the proof has its moves
        argv.append("--no-moves")
    path = os.path.join(workdir, "proof.cert")
    certify = certify and cgf_has_option(["solve"], "--certificate")
    if not certify:
        solved = _cgf_json(method, run_measured(argv, timeout), timeout)
        return Certified(solved, method, check_note="not written")
    if certify:
        argv += ["--certificate", path]
        if os.path.exists(path):
            os.unlink(path)
    solved = _cgf_json(method, run_measured(argv, timeout), timeout)
    if not certify or solved.outcome is None:
        return Certified(solved, method)
    if not os.path.exists(path):
        return Certified(solved, method, checked=False, check_note="no certificate written")
    size = os.path.getsize(path)
    check = run_measured([*cgf_command(), "certificate", "check", path, "--json"], 10 * timeout)
    note = ""
    checked: bool | None = check.returncode == 0
    if check.killed or check.returncode == 3:  # the checker's own limit: neither way
        checked, note = None, "check stopped at a limit"
    elif checked:
        try:
            report = json.loads(check.stdout)
            verified = report.get("outcome")
        except (ValueError, AttributeError):
            report, verified = {}, None
        if verified is not None and verified != solved.outcome:
            checked, note = False, f"checker verified {verified}, solve said {solved.outcome}"
        elif isinstance(report.get("nodes"), int):  # the proof's size, its value leaves
            note = (
                f"verified: {report['nodes']:,} nodes, {report.get('value_leaves', 0):,} by values"
            )
    else:
        note = ((check.stderr or check.stdout).strip().splitlines() or ["no output"])[-1]
    return Certified(solved, method, size, check.cpu, checked, note)


def certified_row(label: str, published: str | None, source: str | None, c: Certified) -> str:
    """A row of ``clobber_table.py`` / ``xo_scan.py`` (see ``CERTIFIED_HEADER``)."""
    r = c.solved
    if r.outcome is None or published is None:
        agrees = "-"
    else:
        agrees = "yes" if r.outcome == published else "NO"
    size = "-" if c.certificate_bytes is None else f"{c.certificate_bytes / 1024:.1f}"
    checked = {None: c.check_note or "-", True: c.check_note or "verified", False: "REFUSED"}[
        c.checked
    ]
    check_cpu = "-" if c.check_cpu is None else f"{c.check_cpu:.2f}"
    cells = [
        label,
        f"{published or '-'} ({source or '-'})",
        r.outcome or "-",
        agrees,
        c.method,
        _cell_time(r),
        _cell_nodes(r),
        size,
        check_cpu,
        checked,
    ]
    return "| " + " | ".join(cells) + " |"


CERTIFIED_HEADER = (
    "| position | published (source) | ours | agrees | method | CPU s | nodes | certificate KiB "
    "| check CPU s | check |\n|---|---|---|---|---|---:|---:|---:|---:|---|"
)


def certified_problems(label: str, published: str | None, c: Certified) -> list[str]:
    """What makes a certified row fail the run: a disagreement or a refused certificate."""
    found = []
    if c.solved.outcome is not None and published is not None and c.solved.outcome != published:
        found.append(f"{label}: ours {c.solved.outcome}, published {published}")
    if c.checked is False:
        found.append(f"{label}: certificate refused: {c.check_note}")
    if c.solved.outcome is None and c.solved.note and not c.solved.note.startswith(">"):
        found.append(f"{label}: {c.solved.note}")
    return found


def certified_table(
    rows: Iterable[tuple[str, str, str | None, str]],
    timeout: float,
    prefix: str,
    stop_after_timeout: bool = False,
    certify: Callable[[str], bool] = lambda label: True,
) -> int:
    """Print a certified table of clobber positions, ``(label, position, published, source)``
    each, then the sources cited and every problem (on stderr): exit 1 on any problem.
    ``stop_after_timeout`` ends the table at the first position not solved in time;
    ``certify(label)`` says whether a row writes and checks a certificate."""
    print(CERTIFIED_HEADER, flush=True)
    problems: list[str] = []
    sources: set[str] = set()
    with tempfile.TemporaryDirectory(prefix=prefix) as work:
        for label, position, published, source in rows:
            sources.add(source)
            result = certified_solve("clobber", position, timeout, work, certify(label))
            print(certified_row(label, published, source, result), flush=True)
            problems += certified_problems(label, published, result)
            if stop_after_timeout and result.solved.note.startswith(">"):
                break
    for key in sorted(sources):
        print(f"{key}: {outcome_tables.SOURCES[key]}")
    for problem in problems:
        print(f"PROBLEM: {problem}", file=sys.stderr)
    return 1 if problems else 0


def startup_cpu() -> float:
    """CPU seconds of ``cgf solve clobber xo --json``: our fixed cost per process."""
    return run_measured([*cgf_command(), "solve", "clobber", "xo", "--json"], 60).cpu


def mcgs_startup_cpu(binary: str) -> float:
    """CPU seconds of MCGS's route on ``xo``: its fixed cost per process (mostly clearing its
    transposition table, 2^28 entries by default)."""
    return run_mcgs_route(xo(1), 60, binary).cpu or 0.0


def main_table(args: argparse.Namespace) -> int:
    binary = mcgs_binary(args.mcgs)
    chosen = select(INSTANCES, args.quick, args.only)
    if not chosen:
        print(f"no instance matches {args.only!r}", file=sys.stderr)
        return 2
    notes = []
    if "outcome" in args.routes and not cgf_has_option(["solve"], "--outcome"):
        notes.append("outcome route skipped: `cgf solve --outcome` does not exist yet")
    if "MCGS" in args.routes and binary is None:
        notes.append("MCGS route skipped: give --mcgs PATH or set MCGS_BIN")
    print(f"start-up (`cgf solve clobber xo --json`): {startup_cpu():.2f} CPU s per process")
    if binary is not None and "MCGS" in args.routes:
        print(f"MCGS start-up (its route on xo): {mcgs_startup_cpu(binary):.2f} CPU s per process")
    print(table_header(), flush=True)
    problems = []
    for inst in chosen:
        results = run_instance(inst, args.timeout, binary, args.routes)
        print(table_row(inst, results), flush=True)
        for r in results:
            if r.outcome is None and r.note and not r.note.startswith(("skipped", ">")):
                notes.append(f"{inst.name} {r.route}: {r.note}")
        problems += disagreements(inst, results)
    for note in notes:
        print(f"note: {note}")
    for problem in problems:
        print(f"DISAGREEMENT: {problem}", file=sys.stderr)
    return 1 if problems else 0


# ---- self-check --------------------------------------------------------------------------
def self_check() -> int:
    """Small, fast checks of the tables and of each route's plumbing (no MCGS needed)."""
    from cgframework import solve

    failures = []

    def expect(what: str, got: object, want: object) -> None:
        if got != want:
            failures.append(f"{what}: got {got!r}, want {want!r}")

    # the published tables' small entries against our canonical values, in-process
    for (rows, cols), (outcome, _) in outcome_tables.CLOBBER_RECTANGLES.items():
        if rows * cols <= 10:
            got = solve("clobber", f"checker:{rows}x{cols}").outcome.value
            expect(f"clobber {rows}x{cols}", got, outcome)
    for n in range(1, 9):
        expect(f"(xo)^{n}", solve("clobber", "xo" * n).outcome.value, outcome_tables.xo_power(n)[0])
    from cgframework.values import UP

    for n in range(1, 10):
        value, k = solve("clobber", "xo" * n).value, outcome_tables.xo_up_bound(n)
        if k is not None:
            bound = UP if k == 1 else UP + UP
            expect(f"-{k}.up < (xo)^{n} < {k}.up", (-bound < value < bound), True)
            if k == 2:
                expect(f"(xo)^{n} confused with up", (value < UP, value >= UP), (False, False))
    for cols in range(3, 7):
        value = str(solve("cram", _rows(3, cols)).value)
        nim = outcome_tables.cram_nim_value(3, cols)
        expect(f"cram 3x{cols}", value, "0" if nim == 0 else "*" if nim == 1 else f"*{nim}")
    expect("cram 4x4", str(solve("cram", _rows(4, 4)).value), "0")
    # one instance through each of our routes, as subprocesses
    tiny = clobber(2, 3)
    canonical = run_canonical_route(tiny, 60)
    expect("canonical route on clobber 2x3", canonical.outcome, "P")
    expect("canonical route reports nodes", isinstance(canonical.nodes, int), True)
    flagged = run_outcome_route(tiny, 60)
    if not flagged.note.startswith("skipped"):
        expect("outcome route on clobber 2x3", flagged.outcome, "P")
    # a certified solve (clobber_table.py, xo_scan.py): the certificate is written and verified
    with tempfile.TemporaryDirectory(prefix="cgf-self-check-") as work:
        certified = certified_solve("clobber", "xo" * 3, 60, work)
    expect("certified solve of (xo)^3", certified.solved.outcome, "P")
    if cgf_has_option(["solve"], "--certificate"):
        expect("certificate of (xo)^3 checked", certified.checked, True)
    # MCGS's report parser on a canned report (its CSV columns), and the test file it reads
    canned = (
        '"File","Case","Games","Player","Expected Result","Result","Time (ms)","Status",'
        '"Comments","Type","Node Count"\n'
        '"c.test","0","XO","B","N/A","Win","0.1","COMPLETED","","Solve BW","3"\n'
        '"c.test","1","XO","W","N/A","Loss","0.1","COMPLETED","","Solve BW","4"\n'
    )
    expect("MCGS report", parse_mcgs_report(canned), ("L", 7, ""))
    late = canned.replace('"Loss","0.1","COMPLETED"', '"N/A","0.1","TIMEOUT"')
    expect("MCGS report with a timeout", parse_mcgs_report(late), (None, None, "MCGS: timeout"))
    expect("MCGS test file", mcgs_test_file(xo(2)), "{version 1.5}\n[clobber_1xn]\n(XOXO) {B, W}\n")
    expect("MCGS clobber board", clobber(2, 3).mcgs_game, "XOX|OXO")
    # a disagreement is found, both against the published entry and between routes
    forged = [Result("outcome", "N"), Result("canonical", "P"), Result("MCGS", None)]
    expect("forged disagreement", len(disagreements(tiny, forged)), 2)
    expect("agreement", disagreements(tiny, [Result("canonical", "P")]), [])
    for failure in failures:
        print(f"self-check FAILED: {failure}", file=sys.stderr)
    if not failures:
        print("self-check passed")
    return 1 if failures else 0


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the quick instances only")
    parser.add_argument("--only", metavar="NAME", help="one instance, a glob or a family")
    parser.add_argument(
        "--timeout", type=float, default=60.0, help="CPU seconds per route and instance (60)"
    )
    parser.add_argument("--mcgs", metavar="PATH", help="MCGS's executable (else $MCGS_BIN)")
    parser.add_argument(
        "--routes",
        default=",".join(ROUTES),
        help=f"comma-separated routes to run (default {','.join(ROUTES)})",
    )
    parser.add_argument("--self-check", action="store_true", help="fast checks, no MCGS")
    args = parser.parse_args(argv)
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    args.routes = [r.strip() for r in args.routes.split(",") if r.strip()]
    unknown = sorted(set(args.routes) - set(ROUTES))
    if unknown or not args.routes:
        parser.error(f"--routes: choose among {', '.join(ROUTES)} (got {args.routes})")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    return self_check() if args.self_check else main_table(args)


if __name__ == "__main__":
    raise SystemExit(main())
