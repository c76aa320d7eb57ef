"""``cgf explore`` under load (``benchmarks/explore_load.py``, on 127.0.0.1 only): 200
requests at once of mixed sizes and 300 half-open connections against a real ``cgf
explore`` with a one-second node deadline. Every answer is 200, 202, 400 or 503 (no reset,
no 500), none later than its deadline (its ``wait``, the node deadline and the worker's
grace) plus a second; afterwards ``/api/rulesets`` answers within a second, and the server
has closed every half-open connection."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _load_benchmark():
    spec = importlib.util.spec_from_file_location("explore_load", BENCHMARKS / "explore_load.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_200_requests_and_300_half_open_connections():
    bench = _load_benchmark()
    report = bench.run(requests=200, half_open=300, timeout=1.0, wait=1.0)
    statuses = {status for _, status, _ in report["results"]}
    assert statuses <= {200, 202, 400, 503}, statuses
    assert {200, 400} <= statuses  # (work was done, and bad parameters refused)
    late = [
        (target[:60], round(seconds, 2))
        for target, _, seconds in report["results"]
        if seconds > report["deadline"] + 1
    ]
    assert late == []
    status, seconds = report["rulesets_after"]
    assert status == 200 and seconds < 1
    assert None not in report["half_open_closed"]
    assert report["alive"]
