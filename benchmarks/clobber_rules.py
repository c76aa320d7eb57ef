"""What each rule of the compiled Clobber who-wins search pays (``_k_masks.c``'s ``wins``).

``python benchmarks/clobber_rules.py [--only NAME]`` answers who wins each instance, Left
first and Right first, in one fresh kernel search per setting (in this process: no start-up,
no Python search) and prints a markdown table of nodes and CPU seconds per setting. The
settings add the rules one at a time (1 drop P components, 2 the static outcome rules,
4 drop a component good for the mover, 8 small components by a representative of their
value, 16 pairs of small components by one of their sum), then 32 small components by
their canonical values (to 10, 12 or 20 stones, sums of value parts to birthday 8) with
rules 1, 2 and 4, then the shipped ones
(``mask_keys.settings_for``). Every setting must give the same
answers (exit 1 if not). Needs the kernel (exit 2 without it).
"""

from __future__ import annotations

import argparse
import fnmatch
import resource
import sys
from collections.abc import Sequence

from cgframework.extensions import SolveContext
from cgframework.game import parse_position
from cgframework.plugins import get_registry
from cgframework.solvers.outcome_search import OutcomeSearch
from cgframework_grids import mask_keys

INSTANCES = {
    "clobber-4x5": "checker:4x5",
    "clobber-3x7": "checker:3x7",
    "clobber-2x12": "checker:2x12",
    "xo-22": "xo" * 22,
    "xo-24": "xo" * 24,
}

SETTINGS = {
    "none": (0, 16, 0, 0),
    "+P": (1, 16, 0, 0),
    "+static": (3, 16, 0, 0),
    "+drop": (7, 16, 0, 0),
    "+class 6": (15, 16, 6, 0),
    "+class 14": (15, 16, 14, 0),
    "+pairs 10": (31, 16, 14, 10),
    "values 10": (39, 16, 0, 0, 10, 8),
    "values 12": (39, 16, 0, 0, 12, 8),
    "values 20": (39, 16, 0, 0, 20, 8),
    "shipped": None,
}

STRIPS_ONLY = ("+class 14", "+pairs 10", "values 20")
"""Settings run on strips only: on rectangles they cost minutes (Clobber 4x5 with
representatives up to 10 stones and pairs: over 4 CPU minutes, against 0.4 s without)."""

BUDGET = 1 << 30
"""Bytes of tables per search (the CLI gives 40% of ``--max-memory``)."""


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", metavar="NAME", help="one instance or a glob")
    args = parser.parse_args(argv)
    kernel = mask_keys.KERNEL
    if kernel is None:
        print("the _k_masks kernel is not built", file=sys.stderr)
        return 2
    clobber = get_registry().ruleset("clobber")
    names = [n for n in INSTANCES if args.only is None or fnmatch.fnmatchcase(n, args.only)]
    if not names:
        print("no instance matches", file=sys.stderr)
        return 2
    print("| instance | " + " | ".join(SETTINGS) + " |")
    print("|---|" + "---:|" * len(SETTINGS))
    bad = False
    for name in names:
        position = parse_position(clobber, INSTANCES[name])
        comps = OutcomeSearch(clobber, SolveContext(), compiled=False).components_of(position)
        strips = all(key[0] == 1 for key, _ in comps)
        cells, answers = [], set()
        for label, setting in SETTINGS.items():
            if label in STRIPS_ONLY and not strips:
                cells.append("-")
                continue
            if setting is None:
                setting = mask_keys.settings_for(comps)
            search = kernel.searcher(BUDGET, *setting)
            start = cpu()
            answers.add(tuple(kernel.wins(search, comps, left, None, 1 << 40) for left in (1, 0)))
            spent = cpu() - start
            cells.append(f"{kernel.stats(search)[0]:,} / {spent:.2f}")
            del search
        bad |= len(answers) != 1
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    print("\nEach cell: nodes / CPU s (Left first and Right first, one search).")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
