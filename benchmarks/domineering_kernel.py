"""What the compiled kernels buy on Domineering:
``python benchmarks/domineering_kernel.py [--repeat N] [--timeout S] [--rectangles]
[--max-cells N]``.

For each irregular board of ``generic_search.py`` (and, with ``--rectangles``, the 4x5, 4x6
and 5x5 boards), three fresh processes back to back, ``--repeat`` times: ours with the
compiled kernels, ours with ``CGFRAMEWORK_PURE_PYTHON=1`` (the pure-Python path), and
cgt-py. Medians of wall and CPU seconds (the solve only, as in ``generic_search.py``), the
kernel's gain (pure / kernel) and cgt-py over ours with kernels. ``agree``: the pure-Python
value / cgt-py's against ours with kernels, rebuilt with the core's ``game()``, as games.
"""

from __future__ import annotations

import argparse
import os

from generic_search import GROUPS, measure, median_of, size
from grids import agrees, md

from cgframework.runtime.compiled import PURE_PYTHON_ENV

RECTANGLES = ["|".join(["." * c] * r) for r, c in ((4, 5), (4, 6), (5, 5))]


def run(who: str, text: str, timeout: float, pure: bool = False) -> dict:
    saved = os.environ.get(PURE_PYTHON_ENV)
    os.environ[PURE_PYTHON_ENV] = "1" if pure else "0"
    try:
        return measure(who, "domineering", text, timeout)
    finally:
        if saved is None:
            del os.environ[PURE_PYTHON_ENV]
        else:
            os.environ[PURE_PYTHON_ENV] = saved


def seconds(result: dict, key: str) -> str:
    return f"{result[key]:.3f}" if result["status"] == "ok" else result["status"]


def gain(slow: dict, fast: dict, key: str) -> str:
    if slow["status"] != "ok" or fast["status"] != "ok":
        return "-"
    return f"{slow[key] / max(fast[key], 1e-6):.2f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--rectangles", action="store_true")
    parser.add_argument("--max-cells", type=int, help="skip boards with more empty cells")
    args = parser.parse_args()
    from cgframework.testing import from_dag

    boards = next(positions for group, _, _, positions in GROUPS if group == "domineering")
    if args.rectangles:
        boards = RECTANGLES + boards
    print(
        "| position | size | nodes | pure s | kernel s | gain | pure CPU | kernel CPU | CPU gain"
        " | cgt-py s | cgt-py CPU | cgt-py/ours | CPU cgt-py/ours | agree |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for text in boards:
        if args.max_cells is not None and text.count(".") > args.max_cells:
            continue
        kernel_runs, pure_runs, peer_runs = [], [], []
        for _ in range(args.repeat):  # back to back, so all three see the same load
            kernel_runs.append(run("ours", text, args.timeout))
            pure_runs.append(run("ours", text, args.timeout, pure=True))
            peer_runs.append(run("cgt-py", text, args.timeout))
        kernel, pure, peer = map(median_of, (kernel_runs, pure_runs, peer_runs))
        value = from_dag(kernel["dag"]) if kernel["status"] == "ok" else None
        agree = f"{agrees(pure, value)} / {agrees(peer, value)}"
        print(
            f"| {md(text)} | {size('domineering', text)} | {kernel.get('nodes', '-')} | "
            f"{seconds(pure, 'seconds')} | {seconds(kernel, 'seconds')} | "
            f"{gain(pure, kernel, 'seconds')} | {seconds(pure, 'cpu')} | "
            f"{seconds(kernel, 'cpu')} | {gain(pure, kernel, 'cpu')} | "
            f"{seconds(peer, 'seconds')} | {seconds(peer, 'cpu')} | "
            f"{gain(peer, kernel, 'seconds')} | {gain(peer, kernel, 'cpu')} | {agree} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
