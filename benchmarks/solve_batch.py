"""Benchmark: many small positions in one process, against MCGS. 1,000 random small Clobber
boards, each program answering them all in one process and in one process a board (the per-board
cost measured on a sample and multiplied out), in CPU seconds (user + system of the child
processes, from ``resource.getrusage(RUSAGE_CHILDREN)``); the table is markdown.

- cgframework: ``cgf solve clobber --batch FILE`` (the canonical value, as a plain solve);
  ``--batch FILE --outcome --no-moves`` (who wins with each player first, what MCGS answers);
  one ``cgf solve clobber POSITION --json`` a board; and its start-up (an empty batch).
- MCGS (Folkersen, Du & Müller, ACG 2025; C++), the peer, built outside the project and given by
  ``--mcgs PATH`` or ``$MCGS_BIN`` (its rows are left out, with a note, when neither runs): all
  boards in one ``MCGS --file FILE``, one case ``[clobber] (BOARD) {B, W}`` a board (one-row
  boards as ``[clobber_1xn]``, as ``outcome.py``); one ``MCGS "[clobber] (BOARD) {B, W}"`` a
  board; and its start-up (an input with no case). Always ``--no-use-db`` (as ``outcome.py``),
  and both transposition tables at 2^BITS entries (``--mcgs-tt-bits``, 20 by default, ample for
  these boards): its default tables (2^28 and 2^26 entries, about 1.8 GB) are cleared at
  start-up, whose CPU seconds get a row of their own.

The boards (fixed seed): half are strips 1xN, N from 1 to 12; half are boards of 2 or 3 rows
and 2 to 4 columns; each square is x, o or empty with equal chances. MCGS's Black is our Left
(Black plays X, our ``x``). Checked, and the script exits 1 naming every disagreement: the
batch's answers against the separate calls' on the sample (every field but the statistics); the
``--outcome`` batch's outcomes against the canonical batch's; MCGS's outcome (from who wins with
Black first and with White first) against ours on every board; MCGS one process a board against
its own batch on the sample.

Run: python benchmarks/solve_batch.py [COUNT [SAMPLE]] [--mcgs PATH] [--mcgs-tt-bits BITS]
(default 1000 boards, a sample of 50)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
from collections.abc import Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from outcome import mcgs_binary, outcome_of  # noqa: E402

CGF = [sys.executable, "-m", "cgframework"]
SEED = 20250101
MCGS_VERSION = "{version 1.5}"


def random_boards(count: int, seed: int = SEED) -> list[str]:
    """``count`` Clobber positions, as the module docstring says."""
    chance = random.Random(seed)
    boards = []
    for i in range(count):
        rows, columns = (
            (1, chance.randint(1, 12))
            if i % 2 == 0
            else (
                chance.randint(2, 3),
                chance.randint(2, 4),
            )
        )
        boards.append(
            "|".join("".join(chance.choice("xo.") for _ in range(columns)) for _ in range(rows))
        )
    return boards


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measured(argv: Sequence[str], stdin: str | None = None) -> tuple[float, str]:
    """CPU seconds of one child process and its standard output (exit on a failure)."""
    before = children_cpu()
    done = subprocess.run(list(argv), input=stdin, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {done.returncode}: {done.stderr.strip()}")
    return children_cpu() - before, done.stdout


def run(args: list[str], stdin: str | None = None) -> tuple[float, str]:
    """CPU seconds of one ``cgf`` child and its standard output."""
    return measured([*CGF, *args], stdin)


def without_stats(answer: dict) -> dict:
    return {k: v for k, v in answer.items() if k not in ("stats", "line")}


# ---- MCGS --------------------------------------------------------------------------------
def mcgs_section(board: str) -> str:
    """MCGS's game for ``board``: ``clobber_1xn`` for one row, else ``clobber``."""
    return "clobber_1xn" if "|" not in board else "clobber"


def mcgs_case(board: str) -> str:
    """One MCGS case: ``board`` (ours: x, o, .) solved with Black first, then White first."""
    return f"[{mcgs_section(board)}] ({board.upper()}) {{B, W}}"


def parse_mcgs_output(text: str, boards: Sequence[str]) -> list[str]:
    """The outcome of each of ``boards`` from MCGS's report of their cases, in order: blocks
    of lines (``Test type``, the game, ``Player: B``, ``Got: Win``, ``Status``) with a blank
    line between blocks, Black's then White's for each board."""
    blocks = [block.splitlines() for block in text.strip().split("\n\n") if block.strip()]
    if len(blocks) != 2 * len(boards):
        raise SystemExit(f"MCGS answered {len(blocks)} cases, not {2 * len(boards)}")
    outcomes = []
    for i, board in enumerate(boards):
        wins = {}
        for lines in blocks[2 * i : 2 * i + 2]:
            fields = dict(line.split(": ", 1) for line in lines if ": " in line)
            game = next((line.strip() for line in lines if line.startswith("\t")), "")
            expected = f"{mcgs_section(board)}:{board.upper()}"
            if (
                game != expected
                or fields.get("Status") != "COMPLETED"
                or fields.get("Got") not in ("Win", "Loss")
            ):
                raise SystemExit(f"MCGS on {board}: unexpected report {lines}")
            wins[fields["Player"]] = fields["Got"] == "Win"
        outcomes.append(outcome_of(wins["B"], wins["W"]))
    return outcomes


def mcgs_options(tt_bits: int) -> list[str]:
    return [
        "--no-use-db",
        "--tt-sumgame-idx-bits",
        str(tt_bits),
        "--tt-imp-sumgame-idx-bits",
        str(tt_bits),
    ]


def run_mcgs_file(binary: str, options: list[str], cases: Sequence[str]) -> tuple[float, str]:
    """CPU seconds and output of one MCGS process reading ``cases`` from a file."""
    with tempfile.TemporaryDirectory(prefix="cgf-mcgs-") as folder:
        path = os.path.join(folder, "boards.test")
        with open(path, "w") as handle:
            handle.write("\n".join([MCGS_VERSION, *cases]) + "\n")
        return measured([binary, *options, "--file", path])


# ---- the table ---------------------------------------------------------------------------
def row(program: str, how: str, cpu: float, per_board: float | None) -> str:
    """A table row: CPU s in all and CPU ms a board (fewer decimals past 10 and 100)."""
    total = f"{cpu:.1f}" if cpu >= 10 else f"{cpu:.2f}"
    per = ""
    if per_board is not None:
        ms = 1000 * per_board
        per = f"{ms:.0f}" if ms >= 100 else f"{ms:.1f}" if ms >= 10 else f"{ms:.2f}"
    return f"| {program} | {how} | {total} | {per} |"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", nargs="?", type=int, default=1000, help="boards (1000)")
    parser.add_argument(
        "sample", nargs="?", type=int, default=50, help="boards run one a process (50)"
    )
    parser.add_argument("--mcgs", metavar="PATH", help="MCGS's executable (else $MCGS_BIN)")
    parser.add_argument(
        "--mcgs-tt-bits",
        type=int,
        default=20,
        metavar="BITS",
        help="MCGS's transposition tables: 2^BITS entries each (20)",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.sample <= args.count:
        parser.error("need 1 <= SAMPLE <= COUNT")
    if not 1 <= args.mcgs_tt_bits <= 32:
        parser.error("--mcgs-tt-bits: from 1 to 32")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    count, sample = args.count, args.sample
    boards = random_boards(count)
    problems: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "boards.txt")
        with open(path, "w") as handle:
            handle.write("\n".join(boards) + "\n")
        batch_cpu, out = run(["solve", "clobber", "--batch", path])
        outcome_cpu, outcome_out = run(
            ["solve", "clobber", "--batch", path, "--outcome", "--no-moves"]
        )
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == count and all("error" not in a for a in answers)
    ours = [a["outcome"] for a in answers]
    searched = [json.loads(line)["outcome"] for line in outcome_out.splitlines()]
    assert len(searched) == count
    for board, canonical, outcome in zip(boards, ours, searched, strict=True):
        if canonical != outcome:
            problems.append(f"{board}: canonical value says {canonical}, --outcome {outcome}")
    single_cpu = 0.0
    for board, answer in zip(boards[:sample], answers[:sample], strict=True):
        cpu, text = run(["solve", "clobber", board, "--json"])
        single_cpu += cpu
        if without_stats(json.loads(text)) != without_stats(answer):
            problems.append(f"{board}: the separate call and the batch answer differently")
    per_call = single_cpu / sample
    empty_cpu, _ = run(["solve", "clobber", "--batch", "-"], stdin="")
    rows = [
        row("cgframework", "one process, `--batch`", batch_cpu, batch_cpu / count),
        row(
            "cgframework",
            "one process, `--batch --outcome --no-moves`",
            outcome_cpu,
            outcome_cpu / count,
        ),
        row(
            "cgframework",
            f"a process a board (sample of {sample}, times {count})",
            per_call * count,
            per_call,
        ),
        row("cgframework", "start-up (an empty batch)", empty_cpu, None),
    ]
    notes = []
    binary = mcgs_binary(args.mcgs)
    if binary is None:
        notes.append("MCGS rows left out: give --mcgs PATH or set MCGS_BIN")
    else:
        binary = os.path.abspath(binary)
        options = mcgs_options(args.mcgs_tt_bits)
        cases = [mcgs_case(board) for board in boards]
        mcgs_cpu, mcgs_out = run_mcgs_file(binary, options, cases)
        theirs = parse_mcgs_output(mcgs_out, boards)
        for board, our, their in zip(boards, ours, theirs, strict=True):
            if our != their:
                problems.append(f"{board}: cgframework says {our}, MCGS {their}")
        mcgs_single_cpu = 0.0
        for board, their in zip(boards[:sample], theirs[:sample], strict=True):
            cpu, text = measured([binary, *options, mcgs_case(board)])
            mcgs_single_cpu += cpu
            alone = parse_mcgs_output(text, [board])[0]
            if alone != their:
                problems.append(f"{board}: MCGS says {alone} alone, {their} in its batch")
        mcgs_per_call = mcgs_single_cpu / sample
        mcgs_empty_cpu, _ = run_mcgs_file(binary, options, [])
        default_empty_cpu, _ = run_mcgs_file(binary, ["--no-use-db"], [])
        rows += [
            row("MCGS", "one process, `--file`", mcgs_cpu, mcgs_cpu / count),
            row(
                "MCGS",
                f"a process a board (sample of {sample}, times {count})",
                mcgs_per_call * count,
                mcgs_per_call,
            ),
            row("MCGS", "start-up (an input with no case)", mcgs_empty_cpu, None),
            row("MCGS", "start-up, its default tables (2^28, 2^26)", default_empty_cpu, None),
        ]
    print(f"{count} random small Clobber boards (seed {SEED}; strips 1x1..1x12, boards 2x2..3x4)")
    if binary is not None:
        print(f"MCGS: {binary}, {' '.join(mcgs_options(args.mcgs_tt_bits))}")
    print()
    print("| program | how | CPU s in all | CPU ms a board |")
    print("|---|---|---:|---:|")
    for line in rows:
        print(line)
    for note in notes:
        print(f"note: {note}")
    if binary is not None and not problems:
        print(f"\nMCGS and cgframework agree on all {count} outcomes.")
    for problem in problems:
        print(f"DISAGREEMENT: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
