"""Grundy sequence analysis at 10^7 values: period search, saltus, the plot.

``python benchmarks/sequences.py [--size N]`` prints a Markdown table of CPU seconds
(``time.process_time``) for :func:`find_period`, :class:`PeriodWatcher` fed in chunks of
1/8 of its length, :func:`find_saltus` and :func:`sequence_svg` on synthetic sequences
shaped like real ones (values from a compiled engine would be the input in practice), and
the former quadratic search on a 1/500 slice, to show its growth.
"""

from __future__ import annotations

import argparse
import random
import time
from array import array

from cgframework_classic.periodicity import (
    Period,
    PeriodWatcher,
    find_period,
    find_saltus,
    proof_length,
)
from cgframework_classic.pictures import sequence_svg


def quadratic_find_period(seq, code_length: int) -> Period | None:
    size = len(seq)
    for p in range(1, size):
        i = size - p
        while i > 0 and seq[i - 1] == seq[i - 1 + p]:
            i -= 1
        if proof_length(i, p, code_length) <= size:
            return Period(i, p)
    return None


def cpu(call):
    start = time.process_time()
    result = call()
    return time.process_time() - start, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=10**7)
    size = parser.parse_args().size
    rng = random.Random(1)
    block = array("q", (rng.randrange(16) for _ in range(34)))
    periodic = (array("q", (rng.randrange(64) for _ in range(1000))) + block * (size // 34 + 1))[
        :size
    ]
    noise = array("q", (rng.randrange(64) for _ in range(size)))
    sparse = array("q", bytes(8 * size))
    for k in range(0, size - 400, 997):
        sparse[k + rng.randrange(331)] = 1
    arithmetic = array("q", (n // 3 * 4 + n % 3 for n in range(size)))

    def watch():
        watcher = PeriodWatcher(2)
        done, step = 0, 4096
        while done < size:
            watcher.extend(periodic[done : done + step])
            done = len(watcher)
            if watcher.proven is None:
                step = max(4096, done // 8)
            else:
                step = size  # the engine would stop here; read once more at the end
        return watcher.proven

    rows = [
        ("find_period, period 34 after 1000 values", lambda: find_period(periodic, 2)),
        ("find_period, random values (no period)", lambda: find_period(noise, 2)),
        ("find_period, sparse ones (no period)", lambda: find_period(sparse, 2)),
        ("PeriodWatcher, chunks of 1/8, period 34", watch),
        ("find_saltus, G(3k + r) = 4k + r", lambda: find_saltus(arithmetic)),
        ("find_saltus, random values", lambda: find_saltus(noise)),
        ("sequence_svg, random values", lambda: len(sequence_svg(noise, "noise"))),
    ]
    small = size // 500
    rows.append(
        (
            f"former quadratic search, sparse ones, n = {small}",
            lambda: quadratic_find_period(sparse[:small], 2),
        )
    )
    print(f"| call (n = {size}) | CPU s | result |\n| --- | ---: | --- |")
    for label, call in rows:
        seconds, result = cpu(call)
        print(f"| {label} | {seconds:.2f} | {result} |")


if __name__ == "__main__":
    main()
