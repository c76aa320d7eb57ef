"""Load on ``cgf explore``: ``python benchmarks/explore_load.py [--requests 200]
[--half-open 300] [--timeout 1] [--wait 1]``.

Starts ``cgf explore`` (a real subprocess on 127.0.0.1, ``--timeout T``), opens H half-open
connections (connected, nothing sent), then sends R requests at once, of mixed sizes: the
ruleset list, small nodes, outlines and clicks, nodes past the deadline (Nim of 10^30,
Hackenbush of 3000 edges, a complete WAK graph, Domineering 6x6), and bad parameters. Every
request but the ruleset list says ``wait=W``: its deadline is W (waiting for a worker) + T
(the work) + the worker's grace. Prints a table: requests, statuses, p50 and p99 latency,
the most any answer came past its deadline, and the CPU seconds of the server (its process
and its workers); then how long ``/api/rulesets`` takes afterwards and how long the server
took to close the half-open connections.

:func:`run` is what ``tests/test_explore_load.py`` checks (with sizes that run in seconds).
"""

from __future__ import annotations

import argparse
import http.client
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from urllib.parse import urlencode

GRACE = 0.5
"""The worker's grace past a call's deadline (``cgframework.display.worker.GRACE``)."""


def mix(count: int, wait: float) -> list[str]:
    """``count`` request targets of mixed sizes (most distinct: the server's cache does not
    answer them all)."""
    hackenbush = ",".join(f"{i}-{i + 1}:{'BRG'[i % 3]}" for i in range(3000))
    kinds = [
        lambda i: ("rulesets", {}),
        lambda i: ("node", {"ruleset": "nim", "position": f"3,4,{i}"}),
        lambda i: ("outline", {"ruleset": "domineering", "position": "..|" * (i % 4) + ".."}),
        lambda i: ("node", {"ruleset": "nim", "position": str(10**30 + i)}),
        lambda i: ("node", {"ruleset": "hackenbush", "position": hackenbush}),
        lambda i: ("node", {"ruleset": "wak", "position": "complete:" + ",".join(["1"] * 40)}),
        lambda i: ("node", {"ruleset": "domineering", "position": "|".join(["." * 6] * 6)}),
        lambda i: ("outcome", {"ruleset": "clobber", "position": f"checker:3x{3 + i % 3}"}),
        lambda i: ("move_at", {"ruleset": "nim", "position": "5,6", "picks": f"cell:0,{i % 5}"}),
        lambda i: ("node", {"ruleset": "nim", "position": "not a heap"}),
        lambda i: ("node", {"ruleset": "nim", "position": "3", "wait": "inf"}),
    ]
    targets = []
    for i in range(count):
        name, query = kinds[i % len(kinds)](i)
        if name != "rulesets" and "wait" not in query:
            query = {**query, "wait": f"{wait:g}"}
        targets.append(f"/api/{name}?{urlencode(query)}")
    return targets


def start_server(timeout: float) -> tuple[subprocess.Popen, int]:
    """``cgf explore`` on a free port of 127.0.0.1, and that port."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cgframework", "explore", "nim", "3,4,5", "--port", "0"]
        + ["--no-browser", "--timeout", f"{timeout:g}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    line = process.stdout.readline()  # type: ignore[union-attr]
    if not line.startswith("cgf explore: http://127.0.0.1:"):
        process.kill()
        raise RuntimeError(f"cgf explore did not start: {line!r} {process.stderr.read()!r}")  # type: ignore[union-attr]
    port = int(line.split(":")[3].split("/")[0])
    for name in ("node", "outline"):  # its two workers ready
        get(port, f"/api/{name}?ruleset=nim&position=1&wait=10", 60)
    return process, port


def get(port: int, target: str, seconds: float) -> tuple[int | str, float]:
    """One GET: its status (or the error's name) and its latency in seconds."""
    began = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=seconds)
    try:
        connection.request("GET", target)
        response = connection.getresponse()
        response.read()
        status: int | str = response.status
    except (OSError, http.client.HTTPException) as exc:
        status = type(exc).__name__
    finally:
        connection.close()
    return status, time.monotonic() - began


def cpu_seconds(pid: int) -> float:
    """CPU seconds of ``pid`` and every process under it (with the children they reaped)."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = sum(int(x) for x in fields[11:15]) / tick
    total, todo = 0.0, [pid]
    while todo:
        here = todo.pop()
        total += times.get(here, 0.0)
        todo += [child for child, parent in parents.items() if parent == here]
    return total


def run(requests: int, half_open: int, timeout: float, wait: float) -> dict:
    """The load, against a ``cgf explore`` of its own: what each request got and when."""
    process, port = start_server(timeout)
    held: list[socket.socket] = []
    try:
        for _ in range(half_open):
            held.append(socket.create_connection(("127.0.0.1", port), timeout=30))
        opened = time.monotonic()
        targets = mix(requests, wait)
        results: list[tuple[str, int | str, float]] = [("", "", 0.0)] * len(targets)
        go = threading.Barrier(len(targets) + 1)

        def one(i: int) -> None:
            go.wait()
            deadline = wait + timeout + GRACE
            results[i] = (targets[i], *get(port, targets[i], deadline + 30))

        threads = [threading.Thread(target=one, args=(i,)) for i in range(len(targets))]
        for thread in threads:
            thread.start()
        began = time.monotonic()
        go.wait()
        for thread in threads:
            thread.join()
        spent = time.monotonic() - began
        after = get(port, "/api/rulesets", 10)
        closed = _closed_within(held, 30)
        cpu = cpu_seconds(process.pid)
        return {
            "results": results,
            "deadline": wait + timeout + GRACE,
            "seconds": spent,
            "rulesets_after": after,
            "half_open_closed": [None if c is None else c - opened for c in closed],
            "server_cpu": cpu,
            "alive": process.poll() is None,
        }
    finally:
        for sock in held:
            sock.close()
        process.send_signal(signal.SIGINT)
        try:
            process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()


def _closed_within(held: list[socket.socket], seconds: float) -> list[float | None]:
    """When the server closed each connection (``None``: not within ``seconds``)."""
    stop = time.monotonic() + seconds
    closed: list[float | None] = []
    for sock in held:
        sock.settimeout(max(0.01, stop - time.monotonic()))
        try:
            data = sock.recv(1024)
            closed.append(time.monotonic() if not data or b"HTTP/1.1" in data else None)
        except ConnectionResetError:
            closed.append(time.monotonic())
        except OSError:
            closed.append(None)
    return closed


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--half-open", type=int, default=300)
    parser.add_argument("--timeout", type=float, default=1.0, help="cgf explore --timeout")
    parser.add_argument("--wait", type=float, default=1.0, help="each request's wait=")
    args = parser.parse_args()
    report = run(args.requests, args.half_open, args.timeout, args.wait)
    results = report["results"]
    statuses: dict[object, int] = {}
    for _, status, _ in results:
        statuses[status] = statuses.get(status, 0) + 1
    latencies = [seconds for _, _, seconds in results]
    late = max(seconds - report["deadline"] for seconds in latencies)
    closed = [c for c in report["half_open_closed"] if c is not None]
    deadline = report["deadline"]
    print(f"cgf explore --timeout {args.timeout:g}, wait={args.wait:g}: deadline {deadline:g} s")
    print()
    columns = ["requests", "half-open", "statuses", "p50 s", "p99 s", "max s"]
    columns += ["past deadline s", "server CPU s"]
    print("| " + " | ".join(columns) + " |")
    print("| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    shown = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items(), key=str))
    print(
        f"| {len(results)} | {len(report['half_open_closed'])} | {shown} | "
        f"{percentile(latencies, 0.5):.3f} | {percentile(latencies, 0.99):.3f} | "
        f"{max(latencies):.3f} | {max(late, 0):.3f} | {report['server_cpu']:.2f} |"
    )
    print()
    status, seconds = report["rulesets_after"]
    print(f"afterwards /api/rulesets: {status} in {seconds:.3f} s")
    print(
        f"half-open connections closed by the server: {len(closed)} of "
        f"{len(report['half_open_closed'])}, the last after {max(closed, default=0):.1f} s"
    )
    print(f"all requests answered in {report['seconds']:.2f} s; server alive: {report['alive']}")


if __name__ == "__main__":
    main()
