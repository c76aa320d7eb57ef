"""Benchmark: the outcome search, serial against its root split over worker processes
(``cgf solve clobber (xo)^n --outcome [--jobs 2]``), each in a fresh process (a pool forked
from a process that already searched would inherit its tables). CPU seconds of the serial
run; of the split run, the whole run's (parent and workers, getrusage), the workers' task
CPU summed and the busiest worker's, and the wall time. The machine is shared: the wall time
is reported, not trusted.

Run: python benchmarks/outcome_roots.py [N ...]   (default 10 12 14 16)
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys

CGF = [sys.executable, "-c", "import sys; from cgframework.cli.commands import main; main()"]


def run(args: list[str]) -> tuple[dict, float]:
    """The JSON answer of ``cgf solve ... --json`` and the CPU seconds of its whole run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([*CGF, *args, "--json"], capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return json.loads(out.stdout), cpu


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [10, 12, 14, 16]
    print("n\toutcome\tserial CPU s\t--jobs 2: run CPU s\tworkers' tasks (each)\twall s")
    for n in sizes:
        serial, serial_cpu = run(["solve", "clobber", "xo" * n, "--outcome"])
        split, split_cpu = run(["solve", "clobber", "xo" * n, "--outcome", "--jobs", "2"])
        assert (split["outcome"], set(split["best_moves"])) == (
            serial["outcome"],
            set(serial["best_moves"]),
        )
        p = split["parallel"]
        each = ", ".join(f"{v:.2f}" for v in p["cpu_seconds_per_worker"].values())
        print(
            f"{n}\t{serial['outcome']}\t{serial_cpu:.2f}\t{split_cpu:.2f}\t"
            f"{p['cpu_seconds_workers']:.2f} ({each})\t{p['wall_seconds']:.2f}"
        )


if __name__ == "__main__":
    main()
