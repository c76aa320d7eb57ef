"""Benchmark: Grundy sequences of octal games, the sequence engine vs a plain Python loop vs a
naive C program (benchmarks/octal_naive.c, compiled here into a temporary folder).

Each measurement runs in a child process and is its CPU time (user + system, from
``RUSAGE_CHILDREN``), never wall time. Growth exponents come from two sizes (N/2 and N); a
baseline too slow to run at N is measured at smaller sizes and extrapolated with its fitted
exponent (marked ``~``).

Run: python benchmarks/octal.py            (0.127 to 10^5, 0.56 to 660,000, 0.007 to 10^6)
     python benchmarks/octal.py --huge     (also 0.007 to 10^7: long)
"""

from __future__ import annotations

import math
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

ENGINE = """
import sys
from cgframework_classic.engine import GrundySequence, TakeAndBreak
from cgframework_classic.heaps import OctalCode
from cgframework_classic.periodicity import find_period
code = OctalCode.parse(sys.argv[1])
seq = GrundySequence(TakeAndBreak.of_digits(code.nonzero()))
seq.extend(int(sys.argv[2]))
period = find_period(seq.computed, code.length, code.heaps_left) if sys.argv[3] == "1" else None
print(period.period if period else "-", period.last_exception if period else "-",
      "mask", seq.mask, "rare", seq._rare_count)
"""

PYTHON_LOOP = """
import sys
from cgframework_classic.heaps import OctalCode
from cgframework_classic.periodicity import grundy_sequence
grundy_sequence(OctalCode.parse(sys.argv[1]), int(sys.argv[2]))
"""

CASES = [
    # code, heaps, check the period, naive C sizes, Python loop sizes
    ("0.127", 100_000, True, (50_000, 100_000), (3_000, 6_000)),
    ("0.56", 660_000, True, (100_000, 200_000), (3_000, 6_000)),
    ("0.007", 1_000_000, False, (100_000, 200_000), (3_000, 6_000)),
]


def cpu_of(args: list[str]) -> tuple[float, str]:
    """CPU seconds (user + system) of a child process, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used, out.strip()


def exponent(n1: int, t1: float, n2: int, t2: float) -> float:
    if t1 <= 0.01 or t2 <= 0.01:
        return float("nan")
    return math.log(t2 / t1) / math.log(n2 / n1)


def extrapolate(sizes: tuple[int, int], times: tuple[float, float], n: int) -> tuple[float, float]:
    k = exponent(sizes[0], times[0], sizes[1], times[1])
    if math.isnan(k):
        k = 2.0
    return times[1] * (n / sizes[1]) ** k, k


def main() -> None:
    cases = list(CASES)
    if "--huge" in sys.argv:
        cases.append(("0.007", 10_000_000, False, (100_000, 200_000), (3_000, 6_000)))
    compiler = shutil.which("cc") or shutil.which("gcc")
    with tempfile.TemporaryDirectory() as tmp:
        naive = Path(tmp) / "octal_naive"
        if compiler:
            subprocess.run(
                [compiler, "-O2", "-o", str(naive), str(HERE / "octal_naive.c")], check=True
            )
        header = (
            "| code | heaps N | engine CPU s | engine growth | naive C CPU s | naive growth "
            "| Python loop CPU s | Python growth | proven |"
        )
        print(header)
        print("|" + "---|" * 9)
        for code, n, check, c_sizes, py_sizes in cases:
            half, _ = cpu_of([sys.executable, "-c", ENGINE, code, str(n // 2), "0"])
            full, said = cpu_of([sys.executable, "-c", ENGINE, code, str(n), "1" if check else "0"])
            engine_k = exponent(n // 2, half, n, full)
            if compiler:
                c_times = tuple(cpu_of([str(naive), code, str(m)])[0] for m in c_sizes)
                if c_sizes[1] >= n:
                    c_text, c_k = (
                        f"{c_times[1]:.2f}",
                        exponent(*c_sizes[:1], c_times[0], c_sizes[1], c_times[1]),
                    )
                else:
                    c_at_n, c_k = extrapolate(c_sizes, c_times, n)  # type: ignore[arg-type]
                    c_text = f"~{c_at_n:.0f}"
            else:
                c_text, c_k = "no compiler", float("nan")
            py_times = tuple(
                cpu_of([sys.executable, "-c", PYTHON_LOOP, code, str(m)])[0] for m in py_sizes
            )
            py_at_n, py_k = extrapolate(py_sizes, py_times, n)  # type: ignore[arg-type]
            period = said.split()[:2]
            proven = f"period {period[0]}, last exception {period[1]}" if check else said
            print(
                f"| {code} | {n:,} | {full:.2f} | {engine_k:.2f} | {c_text} | {c_k:.2f} "
                f"| ~{py_at_n:,.0f} | {py_k:.2f} | {proven} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
