"""Certificates of who wins: size and CPU seconds to write and to check.

Run: ``python benchmarks/certificates.py`` (the default rows; ``--brute`` builds with the
brute-force who-wins search instead of the outcome search) or with row names
(``python benchmarks/certificates.py xo10 dom4x4``; ``xo14 xo16 dom5x6`` run only when named).
Prints a Markdown table: nodes (leaves solved by the checker's brute force), compressed bytes,
CPU seconds to build (the who-wins search included) and to check (the checker alone).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

from cgframework.extensions import SolveContext
from cgframework.game import parse_position
from cgframework.plugins import resolve_ruleset
from cgframework.proofs import check_certificate, write_certificate
from cgframework.proofs.writer import BruteForceOracle, default_oracle

ROWS = {
    **{f"xo{n}": (f"(XO)^{n}", "clobber", "xo" * n) for n in range(6, 13)},
    "dom4x4": ("Domineering 4x4", "domineering", "|".join(["...."] * 4)),
    "dom5x5": ("Domineering 5x5", "domineering", "|".join(["....."] * 5)),
    "clobber3x4": ("Clobber 3x4", "clobber", "checker:3x4"),
}
DEFAULT = list(ROWS)
ROWS.update(
    {
        "xo14": ("(XO)^14", "clobber", "xo" * 14),
        "xo16": ("(XO)^16", "clobber", "xo" * 16),
        "dom5x6": ("Domineering 5x6", "domineering", "|".join(["......"] * 5)),
    }
)
"""Bigger rows, run only when named."""


def measure(name: str, brute: bool) -> str:
    label, ruleset_name, text = ROWS[name]
    ruleset = resolve_ruleset(ruleset_name)
    position = parse_position(ruleset, text)
    ctx = SolveContext()
    oracle = BruteForceOracle(ruleset, ctx) if brute else default_oracle(ruleset, ctx)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "proof.gz")
        started = time.process_time()
        built = write_certificate(path, ruleset, position, oracle)
        build = time.process_time() - started
        started = time.process_time()
        report = check_certificate(path)
        check = time.process_time() - started
        size = os.path.getsize(path)
    assert report.outcome is built.outcome
    return (
        f"| {label} | {report.outcome.value} | {report.nodes} ({report.leaves}) "
        f"| {size:,} | {build:.2f} | {check:.2f} |"
    )


def main(words: list[str]) -> None:
    brute = "--brute" in words
    names = [w for w in words if w != "--brute"] or DEFAULT
    oracle = default_oracle(resolve_ruleset("clobber"), SolveContext())
    print(f"who-wins search: {'BruteForceOracle' if brute else type(oracle).__name__}")
    print("| position | outcome | nodes (leaves) | bytes (gzip) | build CPU s | check CPU s |")
    print("|---|---|---|---|---|---|")
    for name in names:
        print(measure(name, brute), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
