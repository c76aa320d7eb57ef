"""Benchmark: many small positions in one process. ``cgf solve clobber --batch FILE`` on
1,000 random small Clobber boards against 1,000 separate ``cgf solve clobber POSITION --json``
calls (the per-call cost measured on a sample and multiplied out), in CPU seconds (user +
system of the child processes, from ``resource.getrusage(RUSAGE_CHILDREN)``).

The boards (fixed seed): half are strips 1xN, N from 1 to 12; half are boards of 2 or 3 rows
and 2 to 4 columns; each square is x, o or empty with equal chances. The batch's answers are
checked against the separate calls' on the sample (every field but the statistics).

Run: python benchmarks/solve_batch.py [COUNT [SAMPLE]]   (default 1000 boards, a sample of 50)
"""

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
import tempfile

CGF = [sys.executable, "-m", "cgframework"]
SEED = 20250101


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


def run(args: list[str], stdin: str | None = None) -> tuple[float, str]:
    """CPU seconds of one ``cgf`` child and its standard output."""
    before = children_cpu()
    done = subprocess.run([*CGF, *args], input=stdin, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"cgf {' '.join(args)}: exit {done.returncode}: {done.stderr}")
    return children_cpu() - before, done.stdout


def without_stats(answer: dict) -> dict:
    return {k: v for k, v in answer.items() if k not in ("stats", "line")}


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    sample = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    boards = random_boards(count)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "boards.txt")
        with open(path, "w") as handle:
            handle.write("\n".join(boards) + "\n")
        batch_cpu, out = run(["solve", "clobber", "--batch", path])
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == count and all("error" not in a for a in answers)
    single_cpu = 0.0
    for board, answer in zip(boards[:sample], answers[:sample], strict=True):
        cpu, text = run(["solve", "clobber", board, "--json"])
        single_cpu += cpu
        assert without_stats(json.loads(text)) == without_stats(answer), board
    per_call = single_cpu / sample
    empty_cpu, _ = run(["solve", "clobber", "--batch", "-"], stdin="")
    print(f"{count} random small Clobber boards (seed {SEED}; strips 1x1..1x12, boards 2x2..3x4)")
    print("how\tCPU s in all\tCPU ms a board")
    print(f"one process, --batch\t{batch_cpu:.2f}\t{1000 * batch_cpu / count:.2f}")
    print(f"  of which start-up (empty batch)\t{empty_cpu:.2f}\t")
    print(
        f"a process a board (sample of {sample}, times {count})\t{per_call * count:.1f}\t"
        f"{1000 * per_call:.0f}"
    )


if __name__ == "__main__":
    main()
