"""Certificates of who wins: size and CPU seconds to write and to check.

Run: ``python benchmarks/certificates.py`` (all rows) or with row names
(``python benchmarks/certificates.py xo10 dom4x4``). Prints a Markdown table: nodes (leaves
solved by the checker's brute force), compressed bytes, CPU seconds to build (the who-wins
search included) and to check (the independent checker alone).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

from cgframework.game import parse_position
from cgframework.plugins import resolve_ruleset
from cgframework.proofs import check_certificate, write_certificate
from cgframework.proofs.writer import default_oracle

ROWS = {
    **{f"xo{n}": ("clobber", "xo" * n) for n in range(6, 13)},
    "dom4x4": ("domineering", "....|....|....|...."),
    "dom5x5": ("domineering", "|".join(["....."] * 5)),
    "clobber3x4": ("clobber", "checker:3x4"),
}


def measure(name: str) -> str:
    ruleset_name, text = ROWS[name]
    ruleset = resolve_ruleset(ruleset_name)
    position = parse_position(ruleset, text)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "proof.gz")
        started = time.process_time()
        built = write_certificate(path, ruleset, position)
        build = time.process_time() - started
        started = time.process_time()
        report = check_certificate(path)
        check = time.process_time() - started
        size = os.path.getsize(path)
    assert report.outcome is built.outcome
    shown = text if len(text) <= 24 else text[:21] + "..."
    return (
        f"| {ruleset_name} {shown} | {report.outcome.value} | {report.nodes} ({report.leaves}) "
        f"| {size:,} | {build:.2f} | {check:.2f} |"
    )


def main(names: list[str]) -> None:
    from cgframework.extensions import SolveContext

    oracle = type(default_oracle(resolve_ruleset("clobber"), SolveContext())).__name__
    print(f"oracle: {oracle}")
    print("| position | outcome | nodes (leaves) | bytes (gzip) | build CPU s | check CPU s |")
    print("|---|---|---|---|---|---|")
    for name in names or list(ROWS):
        print(measure(name), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
