"""Checkerboard Clobber rectangles: who wins, with a checked certificate, against the table.

``python benchmarks/clobber_table.py [--quick] [--only RxC] [--max-area N] [--timeout T]
[--certify-max-area N]`` solves every board of ``outcome_tables.CLOBBER_RECTANGLES`` (2xn to
17, 3xn to 10, 4x4-4x7, 5x5, 5x6; x top-left) smallest first with ``cgf solve clobber
checker:RxC --outcome --no-moves --certificate FILE --json`` (boards past
``--certify-max-area``: without ``--certificate``, who wins only), checks each certificate
with ``cgf certificate check FILE --json`` (an independent brute-force checker), and prints a
markdown table: our outcome, whether it agrees with the published entry (and where that entry
was published), CPU seconds and node count of the solve, certificate size, CPU seconds of the
check. Until ``--outcome`` and ``--certificate`` exist, the rows fall back to the canonical
route without a certificate.
Exit 1 if any row disagrees with its published entry or a certificate is refused.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import sys
from collections.abc import Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import outcome_tables  # noqa: E402
from outcome import certified_table  # noqa: E402

QUICK_AREA = 16


def boards(quick: bool, only: str | None, max_area: int | None) -> list[tuple[int, int]]:
    """The rectangles to solve, smallest area first (``--only`` a board ``2x7`` or a glob)."""
    chosen = []
    for rows, cols in sorted(outcome_tables.CLOBBER_RECTANGLES, key=lambda b: (b[0] * b[1], b)):
        if only is not None and not fnmatch.fnmatchcase(f"{rows}x{cols}", only):
            continue
        limit = max_area if max_area is not None else QUICK_AREA if quick and only is None else None
        if limit is not None and rows * cols > limit:
            continue
        chosen.append((rows, cols))
    return chosen


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"boards of area <= {QUICK_AREA}")
    parser.add_argument("--only", metavar="RxC", help="one board (2x7) or a glob (3x*)")
    parser.add_argument("--max-area", type=int, metavar="N", help="boards of area <= N")
    parser.add_argument("--timeout", type=float, default=60.0, help="CPU seconds per board (60)")
    parser.add_argument(
        "--certify-max-area",
        type=int,
        metavar="N",
        help="write and check certificates for boards of area <= N only (default: all)",
    )
    args = parser.parse_args(argv)
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    chosen = boards(args.quick, args.only, args.max_area)
    if not chosen:
        print("no board matches", file=sys.stderr)
        return 2
    rows = (
        (f"checker:{r}x{c}", f"checker:{r}x{c}", *outcome_tables.CLOBBER_RECTANGLES[(r, c)])
        for r, c in chosen
    )
    cap = args.certify_max_area
    certified = {f"checker:{r}x{c}" for r, c in chosen if cap is None or r * c <= cap}
    return certified_table(rows, args.timeout, "cgf-clobber-", certify=certified.__contains__)


if __name__ == "__main__":
    raise SystemExit(main())
