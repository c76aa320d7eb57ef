"""Sweep speed-up: ``python benchmarks/sweep_speedup.py [--to N] [--markdown]``.

Times ``cgf sweep kayles heaps --method generic`` (no store, so every member is computed)
in the executors: in-process, a pool of 2 processes, and a Dask LocalCluster of 2 worker
processes (if the ``dask`` extra is installed), and checks that all give the same records.
"""

from __future__ import annotations

import argparse
import json
import platform
import time

from cgframework import get_registry
from cgframework.sweep.runner import sweep


def run(executor: str, jobs: int, to: int) -> tuple[float, list[tuple]]:
    family = get_registry().family("kayles", "heaps")
    start = time.perf_counter()
    records = [
        (r.parameter, r.solution.grundy, r.solution.best_moves)
        for r in sweep("kayles", family, 0, to, executor=executor, jobs=jobs, method="generic")
    ]
    return time.perf_counter() - start, records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--to", type=int, default=200)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    rows = []
    base_time, base = run("local", 1, args.to)
    rows.append(("local, 1 process", base_time))
    seconds, records = run("processes", 2, args.to)
    assert records == base, "processes gave other records"
    rows.append(("processes, --jobs 2", seconds))
    try:
        from distributed import LocalCluster
    except ImportError:
        LocalCluster = None
    if LocalCluster is not None:
        with LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=50,
        ) as cluster:
            address = cluster.scheduler_address.replace("tcp://", "dask://")
            seconds, records = run(address, 1, args.to)
        assert records == base, "dask gave other records"
        rows.append(("Dask LocalCluster, 2 workers", seconds))
    title = f"kayles heaps 0..{args.to}, generic Grundy solver, Python {platform.python_version()}"
    if args.markdown:
        print(f"{title}\n\n| executor | wall s | speed-up |\n| --- | ---: | ---: |")
        for name, seconds in rows:
            print(f"| {name} | {seconds:.2f} | {base_time / seconds:.2f}x |")
    else:
        print(json.dumps({"title": title, "rows": rows}))


if __name__ == "__main__":
    main()
