"""Linear Clobber (xo)^n: who wins, with a checked certificate, for n in a range.

``python benchmarks/xo_scan.py [--from A] [--to B] [--quick] [--timeout T] [--certify-to M]``
solves ``cgf solve clobber xoxo...xo --outcome --no-moves --certificate FILE --json`` for
n = A..B (default 1..22; ``--quick`` 1..12; past M without ``--certificate``: who wins
only), checks each certificate with ``cgf certificate check FILE --json`` and
prints a markdown table against the published outcome: N for every n != 3, P for n = 3
(Albert, Grossman, Nowakowski & Wolfe 2005, conjectured; Chen et al. 2025, proved). Until
``--outcome`` and ``--certificate`` exist, the rows fall back to the canonical route. Exit 1 if
any n disagrees or a certificate is refused; ``--stop-after-timeout`` ends the scan at the first
n out of time (larger n are harder).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import outcome_tables  # noqa: E402
from outcome import certified_table  # noqa: E402


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--from", dest="start", type=int, default=1, metavar="A")
    parser.add_argument("--to", dest="stop", type=int, default=None, metavar="B")
    parser.add_argument("--quick", action="store_true", help="n = A..12")
    parser.add_argument("--timeout", type=float, default=60.0, help="CPU seconds per n (60)")
    parser.add_argument("--stop-after-timeout", action="store_true")
    parser.add_argument(
        "--certify-to",
        type=int,
        default=None,
        metavar="M",
        help="write and check certificates for n <= M only (default: every n)",
    )
    args = parser.parse_args(argv)
    stop = args.stop if args.stop is not None else 12 if args.quick else 22
    if args.start < 1 or stop < args.start:
        parser.error("need 1 <= --from <= --to")
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    rows = (
        (f"(xo)^{n}", "xo" * n, *outcome_tables.xo_power(n)) for n in range(args.start, stop + 1)
    )
    limit = stop if args.certify_to is None else args.certify_to
    certified = {f"(xo)^{n}" for n in range(args.start, limit + 1)}
    return certified_table(
        rows, args.timeout, "cgf-xo-", args.stop_after_timeout, certified.__contains__
    )


if __name__ == "__main__":
    raise SystemExit(main())
