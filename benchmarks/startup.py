"""Start-up and per-solve overhead: ``python benchmarks/startup.py``.

Start-up: each command runs ``--runs`` times in a fresh process; the table gives the median
and the minimum wall time. ``cgf solve nim 1 --json`` is compared with ``python -c "import
cgframework"`` (goal: under 0.15 s and under 2x the import). Per-solve overhead: tiny
positions solved in-process with ``cgframework.solve(ruleset, text)`` after a warm-up
(timeit, best of 5; goal: under 50 us).

``--base SRC`` adds a "before" column: the same commands run against another commit's
source, unpacked with ``git archive COMMIT | tar -x -C DIR`` and its packages linked into
``SRC`` (``cgframework`` and each ``cgframework_*`` plugin package); the editable install's
finder is left out in those processes so SRC's modules are imported.

The project's packages (and SRC's) are byte-compiled first, as ``pip install`` leaves them:
with ``PYTHONDONTWRITEBYTECODE`` set and no ``__pycache__``, every run would compile ~40
modules again (~0.05 s); ``--no-compile`` measures that case.
"""

from __future__ import annotations

import argparse
import compileall
import glob
import os
import shutil
import statistics
import subprocess
import sys
import time
import timeit

CGF = shutil.which("cgf") or "cgf"
COMMANDS: list[tuple[str, list[str]]] = [
    ('python -c "import cgframework"', [sys.executable, "-c", "import cgframework"]),
    ("cgf solve nim 1 --json", [CGF, "solve", "nim", "1", "--json"]),
    ("cgf solve pizza 3,1,4 --json", [CGF, "solve", "pizza", "3,1,4", "--json"]),
    ("cgf calc '{1|0} + *'", [CGF, "calc", "{1|0} + *"]),
    ("cgf --help (every plugin)", [CGF, "--help"]),
    ("cgf rulesets --json (every plugin)", [CGF, "rulesets", "--json"]),
]
TINY: list[tuple[str, str]] = [("nim", "1"), ("nim", "3+5"), ("domineering", "..|..")]


BASE_RUNNER = (
    "import sys; sys.meta_path = [f for f in sys.meta_path if 'editable' not in repr(f).lower()];"
    "sys.path.insert(0, {src!r}); "
)


def base_argv(argv: list[str], src: str) -> list[str]:
    """``argv`` run against the source tree ``src`` instead of the installed package."""
    runner = BASE_RUNNER.format(src=src)
    if argv[0] == CGF:
        code = runner + "from cgframework.cli.commands import main; main(sys.argv[1:])"
        return [sys.executable, "-c", code, *argv[1:]]
    return [sys.executable, "-c", runner + argv[-1]]


def per_solve_us_in(src: str, ruleset: str, text: str) -> float:
    call = f"cgframework.solve({ruleset!r}, {text!r})"
    code = BASE_RUNNER.format(src=src) + (
        f"import timeit, cgframework; {call}; "
        f"print(min(timeit.repeat(lambda: {call}, number=500, repeat=5)) / 500 * 1e6)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout)


def wall(argv: list[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return times


def per_solve_us(ruleset: str, text: str) -> float:
    import cgframework

    cgframework.solve(ruleset, text)  # warm-up: plugin loaded, caches and values interned
    number = 2000
    best = min(timeit.repeat(lambda: cgframework.solve(ruleset, text), number=number, repeat=5))
    return best / number * 1e6


def compile_packages(src: str | None) -> None:
    """Byte-compile cgframework and the plugin packages of this tree (or of ``src``)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    patterns = [f"{src}/cgframework*"] if src else [f"{root}/cgframework", f"{root}/plugins/*/cgf*"]
    for pattern in patterns:
        for path in glob.glob(pattern):
            compileall.compile_dir(os.path.realpath(path), quiet=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="fresh processes per command")
    parser.add_argument("--base", metavar="SRC", help="source tree of the 'before' commit")
    parser.add_argument("--no-compile", action="store_true", help="no byte-compiling first")
    args = parser.parse_args()
    if not args.no_compile:
        for src in [None, args.base] if args.base else [None]:
            compile_packages(src)
    dont_write = os.environ.get("PYTHONDONTWRITEBYTECODE") or "unset"
    compiled = "no" if args.no_compile else "yes"
    print(f"byte-compiled first: {compiled}, PYTHONDONTWRITEBYTECODE {dont_write}")
    print(f"nproc {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}, runs {args.runs}\n")
    before = " before median s | before / import |" if args.base else ""
    print(f"| command | median s | min s | median / import |{before}")
    print("| --- | ---: | ---: | ---: |" + (" ---: | ---: |" if args.base else ""))
    base = base_before = None
    for label, argv in COMMANDS:
        row = f"| `{label}` |"
        sources = [None, args.base] if args.base else [None]
        times_of: dict[str | None, list[float]] = {src: [] for src in sources}
        for _ in range(args.runs):  # interleaved: a change of load hits both columns
            for src in sources:
                times_of[src] += wall(argv if src is None else base_argv(argv, src), 1)
        for src, times in times_of.items():
            median = statistics.median(times)
            if src is None:
                base = base or median
                row += f" {median:.3f} | {min(times):.3f} | {median / base:.2f}x |"
            else:
                base_before = base_before or median
                row += f" {median:.3f} | {median / base_before:.2f}x |"
        print(row)
    before = " before |" if args.base else ""
    print(f"\n| in-process solve | us per solve (best of 5 x 2000) |{before}")
    print("| --- | ---: |" + (" ---: |" if args.base else ""))
    for ruleset, text in TINY:
        row = f"| `solve({ruleset!r}, {text!r})` | {per_solve_us(ruleset, text):.1f} |"
        if args.base:
            row += f" {per_solve_us_in(args.base, ruleset, text):.1f} |"
        print(row)


if __name__ == "__main__":
    main()
