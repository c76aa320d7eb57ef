"""A proof's lemmas written on a Dask cluster: throughput with 1 and 2 workers.

Run: ``python benchmarks/certificate_cluster.py [RULESET POSITION DEPTH]`` (default: Clobber
3x7 at lemma depth 2, 50 lemmas). Writes the main file once, then its lemmas in this process
(``--jobs 1``) and on a Dask LocalCluster of 1 and of 2 worker processes (one thread each),
and checks that every run wrote the same files, byte for byte. Prints a Markdown table: wall
seconds, lemmas a minute (wall), CPU seconds (this process, scheduler included, and the
workers' processes: user and system) and CPU seconds a lemma. Wall time depends on what else
the machine runs; CPU time a lemma much less.
"""

from __future__ import annotations

import glob
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable

from cgframework.proofs.writer import build_certificate, save_certificate, write_lemmas


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def files(folder: str) -> dict[str, bytes]:
    return {os.path.basename(p): open(p, "rb").read() for p in glob.glob(f"{folder}/*.gz")}


def measure(write: Callable[[], None], workers_cpu: Callable[[], float]) -> tuple[float, float]:
    """Wall and CPU seconds (this process and the workers) of ``write()``."""
    started, cpu, others = time.perf_counter(), own_cpu(), workers_cpu()
    write()
    return time.perf_counter() - started, own_cpu() - cpu + workers_cpu() - others


def on_cluster(top: str, folder: str, workers: int) -> tuple[float, float]:
    import psutil
    from distributed import Client, LocalCluster

    with LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=50,
    ) as cluster:
        with Client(cluster) as client:
            processes = [psutil.Process(pid) for pid in client.run(os.getpid).values()]

        def workers_cpu() -> float:
            return sum(sum(p.cpu_times()[:2]) for p in processes)

        address = cluster.scheduler_address.replace("tcp://", "dask://")
        return measure(lambda: write_lemmas(top, folder, executor=address), workers_cpu)


def main(argv: list[str]) -> None:
    ruleset, position, depth = argv if len(argv) == 3 else ("clobber", "checker:3x7", "2")
    with tempfile.TemporaryDirectory() as work:
        top = os.path.join(work, "top.gz")
        save_certificate(top, build_certificate(ruleset, position, lemma_depth=int(depth)))
        runs: list[tuple[str, float, float, dict[str, bytes]]] = []
        folder = os.path.join(work, "here")
        wall, cpu = measure(lambda: write_lemmas(top, folder), lambda: 0.0)
        runs.append(("this process (--jobs 1)", wall, cpu, files(folder)))
        for workers in (1, 2):
            folder = os.path.join(work, f"cluster{workers}")
            wall, cpu = on_cluster(top, folder, workers)
            label = f"Dask LocalCluster, {workers} worker{'s' if workers > 1 else ''}"
            runs.append((label, wall, cpu, files(folder)))
    lemmas = len(runs[0][3])
    assert all(found == runs[0][3] for *_, found in runs), "the runs wrote other files"
    print(f"{ruleset} {position}, lemma depth {depth}: {lemmas} lemmas, the same files in each run")
    print(f"({os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end)\n")
    print("| writer | wall s | lemmas a minute | CPU s | CPU s a lemma |")
    print("|---|---:|---:|---:|---:|")
    for label, wall, cpu, _ in runs:
        rate = 60 * lemmas / wall
        print(f"| {label} | {wall:.1f} | {rate:.0f} | {cpu:.1f} | {cpu / lemmas:.2f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
