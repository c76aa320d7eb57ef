"""Cutcake, Maundy Cake, Wythoff and partizan subtraction: each specialised solver against the
generic one, in CPU seconds of a fresh ``cgf solve`` process (start-up included, about 0.3 s).

    python benchmarks/classic_rulesets.py            # prints a Markdown table
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys

CASES = [
    ("cutcake", "64x100 + 33x17", "cutcake-table"),
    ("cutcake", "1000x1000000", "cutcake-table"),
    ("maundy-cake", "360x720 + 96x64", "maundy-factors"),
    ("maundy-cake", "720720x1000000", "maundy-factors"),
    ("wythoff", "40,60", "wythoff-table"),
    ("wythoff", "120,160", "wythoff-table"),
    ("wythoff", "1500,2000", "wythoff-table"),
    ("wythoff", ";".join(f"{n},{n}" for n in range(1, 19)), "wythoff-table"),
    ("partizan-subtraction", "{1,2|2,3}:400", "value-sequence"),
    ("partizan-subtraction", "{2,5|1,4}:100000", "value-sequence"),
]
GENERIC_LIMIT = 120.0
"""Seconds after which the generic solver is stopped (shown as ``> limit``)."""


def run(ruleset: str, position: str, method: str) -> tuple[str, str]:
    """(CPU seconds, value) of one ``cgf solve`` in a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = [sys.executable, "-c", "from cgframework.cli.commands import main; main()"]
    cmd += ["solve", ruleset, position]
    cmd += ["--method", method, "--json", "--timeout", str(GENERIC_LIMIT)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode == 3:
        return f"> {GENERIC_LIMIT:g}", "-"
    if done.returncode:
        return "error", done.stderr.strip()[:60]
    return f"{cpu:.2f}", str(json.loads(done.stdout)["value"])


def main() -> None:
    run("nim", "1", "auto")  # warm-up: byte-code caches written before the first timing
    print("| ruleset, position | value | generic CPU s | specialised CPU s (solver) |")
    print("| --- | --- | ---: | ---: |")
    for ruleset, position, method in CASES:
        fast, value = run(ruleset, position, method)
        slow, _ = run(ruleset, position, "generic")
        print(f"| {ruleset} `{position}` | `{value}` | {slow} | {fast} ({method}) |")


if __name__ == "__main__":
    main()
