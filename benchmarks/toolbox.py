"""Reduced canonical form and cooling on Domineering values and long sums, ours against cgt-py.

``python benchmarks/toolbox.py [--repeat N]`` prints a markdown table. Each (tool, instance)
runs in a fresh process: the value is built first (not timed: Domineering solves are
``benchmarks/run.py``'s business), then ``reduced`` and ``cool`` by 1/2 and by 1 are timed,
each on its first call (its cache cold). Results are compared as games: cgt-py's answers are
walked through their options and rebuilt with the core's ``game()`` (``benchmarks/peers.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from peers import board, core_dag, from_dag, to_dag  # noqa: E402

HERE = os.path.abspath(__file__)
OPERATIONS = ("reduced", "cool 1/2", "cool 1")

#: name -> (rectangles added up, extra value texts added)
INSTANCES: dict[str, tuple[list[tuple[int, int]], list[str]]] = {
    "domineering 4x4": ([(4, 4)], []),
    "domineering 4x5": ([(4, 5)], []),
    "domineering 4x6": ([(4, 6)], []),
    "domineering 5x5": ([(5, 5)], []),
    "sum 2x4 + ... + 2x12 + 3x4 + 4x4": ([(2, n) for n in range(4, 13)] + [(3, 4), (4, 4)], []),
    "sum 4x4 + 4x6 + ^* + {2|^*} + {1|0}": ([(4, 4), (4, 6)], ["^*", "{2|^*}", "{1|0}"]),
}


def _ours(name: str) -> tuple[Any, dict[str, Any], Any]:
    from cgframework import solve
    from cgframework.values import cool, parse_value, reduced

    rects, extras = INSTANCES[name]
    value = parse_value("0")
    for r, c in rects:
        value = value + solve("domineering", board(r, c)).value
    for text in extras:
        value = value + parse_value(text)
    ops = {
        "reduced": lambda: reduced(value),
        "cool 1/2": lambda: cool(value, "1/2"),
        "cool 1": lambda: cool(value, 1),
    }
    return value, ops, core_dag


def _cgt_py(name: str) -> tuple[Any, dict[str, Any], Any]:
    import cgt_py

    rects, extras = INSTANCES[name]
    value = cgt_py.CanonicalForm("0")
    for r, c in rects:
        value = value + cgt_py.Domineering(board(r, c)).canonical_form
    for text in extras:
        value = value + cgt_py.CanonicalForm(text)
    ops = {
        "reduced": lambda: value.reduced,
        "cool 1/2": lambda: value.cool("1/2"),
        "cool 1": lambda: value.cool(1),
    }
    return value, ops, lambda g: to_dag(g, lambda x: (x.left_options, x.right_options), repr)


def child(tool: str, name: str) -> None:
    """One JSON line: seconds and the result DAG of each operation, and the value's DAG."""
    try:
        value, ops, dag = {"ours": _ours, "cgt-py": _cgt_py}[tool](name)
    except ImportError as error:
        print(json.dumps({"status": "missing", "error": str(error)}))
        return
    out: dict[str, Any] = {"status": "ok", "value": dag(value), "ops": {}}
    for op, run in ops.items():
        start = time.perf_counter()
        result = run()
        out["ops"][op] = {"seconds": time.perf_counter() - start, "dag": dag(result)}
    print(json.dumps(out))


def measure(tool: str, name: str, repeat: int) -> dict:
    runs = []
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, HERE, "_child", tool, name], capture_output=True, text=True
        )
        lines = done.stdout.strip().splitlines()
        if done.returncode != 0 or not lines:
            return {"status": "error", "error": (done.stderr.strip().splitlines() or ["?"])[-1]}
        result = json.loads(lines[-1])
        if result["status"] != "ok":
            return result
        runs.append(result)
    merged = dict(runs[-1])
    for op in OPERATIONS:
        merged["ops"][op]["seconds"] = statistics.median(r["ops"][op]["seconds"] for r in runs)
    return merged


def _seconds(x: float) -> str:
    return f"{x:.3f}" if x >= 0.01 else f"{x:.4f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    head = ["instance", "value birthday", *(f"ours {op} s" for op in OPERATIONS)]
    head += [f"cgt-py {op} s" for op in OPERATIONS] + ["agree"]
    print("| " + " | ".join(head) + " |")
    print("| --- | ---: |" + " ---: |" * (2 * len(OPERATIONS)) + " --- |")
    for name in INSTANCES:
        ours = measure("ours", name, args.repeat)
        peer = measure("cgt-py", name, args.repeat)
        if ours["status"] != "ok":
            print(f"| {name} | ours failed: {ours.get('error')} |")
            continue
        value = from_dag(ours["value"])
        cells = [name.replace("|", "\\|"), str(value.birthday())]
        cells += [_seconds(ours["ops"][op]["seconds"]) for op in OPERATIONS]
        if peer["status"] == "ok":
            cells += [_seconds(peer["ops"][op]["seconds"]) for op in OPERATIONS]
            same = from_dag(peer["value"]) is value and all(
                from_dag(peer["ops"][op]["dag"]) is from_dag(ours["ops"][op]["dag"])
                for op in OPERATIONS
            )
            cells.append("yes" if same else "NO")
        else:
            cells += ["-"] * len(OPERATIONS) + ["- (cgt-py " + peer["status"] + ")"]
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "_child":
        child(sys.argv[2], sys.argv[3])
    else:
        main()
