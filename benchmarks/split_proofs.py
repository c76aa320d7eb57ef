"""Proofs in several files against one file: nodes and CPU seconds to write and to check.

Run: ``python benchmarks/split_proofs.py [RULESET POSITION [DEPTH ...]]`` (default: Clobber
3x7, depths 0, 3 and 5; depth 0 is the proof in one file; each depth with lemmas twice, with
mirrored lemmas rewritten from their images and with ``--no-mirrors``). Each step is a whole
``cgf`` process (start-up included), timed by its CPU seconds (user and system): ``cgf solve
--outcome --no-moves --certificate top.gz --lemma-depth D``, then ``cgf certificate lemmas
top.gz lemmas/``, then ``cgf certificate check top.gz --lemmas lemmas/``. Prints a Markdown
table.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile


def run(*args: str) -> tuple[dict, float]:
    """``cgf ARGS --json``: its JSON answer and its CPU seconds."""
    process = subprocess.run(
        [sys.executable, "-m", "cgframework", *args, "--json"], capture_output=True, text=True
    )
    seconds = _children_seconds()
    if process.returncode:
        raise SystemExit(f"cgf {' '.join(args)}: exit {process.returncode}: {process.stderr}")
    return json.loads(process.stdout), seconds


_SPENT = [0.0]


def _children_seconds() -> float:
    """CPU seconds (user and system) of the children reaped since the last call."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = usage.ru_utime + usage.ru_stime
    spent, _SPENT[0] = total - _SPENT[0], total
    return spent


def measure(ruleset: str, position: str, depth: int, mirrors: bool = True) -> str:
    with tempfile.TemporaryDirectory() as folder:
        top = os.path.join(folder, "top.gz")
        lemmas = os.path.join(folder, "lemmas")
        solve = ["solve", ruleset, position, "--outcome", "--no-moves", "--certificate", top]
        solved, write_s = run(*solve, "--lemma-depth", str(depth))
        made = solved["certificate"]
        lemma_nodes, lemma_s, mirrored = 0, 0.0, "-"
        check = ["certificate", "check", top, "--max-nodes", "50000000"]
        if depth:
            mirroring = "--mirrors" if mirrors else "--no-mirrors"
            written, lemma_s = run("certificate", "lemmas", top, lemmas, mirroring)
            lemma_nodes, mirrored = written["nodes_written"], f"{written['mirrored']:,}"
            check += ["--lemmas", lemmas]
        report, check_s = run(*check)
    assert report["verified"] and report["outcome"] == solved["outcome"]
    return (
        f"| {depth or 'one file'} | {made['nodes']:,} | {made['lemma_leaves']:,} | {mirrored} "
        f"| {lemma_nodes:,} | {made['nodes'] + lemma_nodes:,} | {write_s:.1f} | {lemma_s:.1f} "
        f"| {check_s:.1f} | {report['outcome']} |"
    )


def main(argv: list[str]) -> None:
    ruleset, position = (argv[0], argv[1]) if len(argv) >= 2 else ("clobber", "checker:3x7")
    depths = [int(d) for d in argv[2:]] or [0, 3, 5]
    _children_seconds()
    print(f"{ruleset} {position}\n")
    print(
        "| lemma depth | main nodes | lemma leaves | mirrored | lemma nodes | all nodes "
        "| solve + main CPU s | lemmas CPU s | check CPU s | outcome |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for depth in depths:
        for mirrors in (True, False) if depth else (True,):
            print(measure(ruleset, position, depth, mirrors), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
