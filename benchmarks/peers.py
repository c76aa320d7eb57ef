"""Domineering canonical forms with the peers, pycgt (pure Python) and cgt-py (Rust).

Used by ``benchmarks/run.py``; on its own, ``python benchmarks/peers.py [--quick]`` prints the
peers' times and checks their values against ours.

Each peer solves each board in a fresh Python process (``python peers.py _child PEER R C T``)
whose solve gets T seconds (a timer; the parent kills the process ``GRACE`` seconds later);
a peer that is not installed (``-``), fails (``-``) or times out (``> T s``, and the ratio a
lower bound ``> T/ours``) never stops the run. The peer module is imported before the clock
starts, as the plugins are for our own timing.

**Comparing as games.** The child walks the peer's canonical form through its options
(pycgt: ``Game.left`` / ``Game.right``; cgt-py: ``CanonicalForm.left_options`` /
``right_options``) and prints it as a DAG of option lists. The parent rebuilds that DAG
bottom-up with the core's ``game(lefts, rights)`` (which canonicalises, so even a
non-canonical peer tree gives the right value) and compares with the core's equality
(interned canonical forms: equal values are the same object). Our own value is shipped and
rebuilt the same way, so no printer or parser sits between the two values.

**Orientation.** Ours: Left plays vertically (the ruleset docstring), a board ``RxC`` is R rows
of C cells, rows joined by ``|``. pycgt's ``domineering.rectangle(rows, cols)`` and cgt-py's
``Domineering("..|..")`` use the same orientation (CGSuite's: Left vertical, ``|`` between
rows). This is not assumed: each child also reports the peer's value of the 2x1 board (one
vertical domino), which is 1 when Left plays vertically and -1 when the peer's Left plays
horizontally; in the latter case the peer's values are negated before the comparison (a
transposed board swaps the players, so the same correction covers a row/column swap of a
rectangle). Both peers report 1, so no correction is applied today; the table says so.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

HERE = os.path.abspath(__file__)

#: The peers, by their PyPI names (import names ``pycgt`` and ``cgt_py``).
PEERS = ("pycgt", "cgt-py")

FULL_SIZES = [(2, n) for n in range(4, 13)] + [(3, 4), (4, 4), (4, 5), (4, 6), (5, 5)]
QUICK_SIZES = [(2, n) for n in range(4, 9)] + [(3, 4)]


def board(rows: int, cols: int) -> str:
    return "|".join("." * cols for _ in range(rows))


# ---- game trees as DAGs of option lists (shared with the plugins' peer tests) ------------
from cgframework.testing import Dag, core_dag, from_dag, to_dag  # noqa: E402,F401


# ---- the child: one peer, one board -------------------------------------------------------
def _pycgt_solve(rows: int, cols: int) -> tuple[Callable[[], Any], Callable[[Any], Dag]]:
    from pycgt.rulesets import domineering

    def run() -> Any:
        return domineering.rectangle(rows, cols)

    # pycgt.Game is a frozen dataclass of frozensets: hashable, so it keys itself
    return run, lambda g: to_dag(g, lambda x: (x.left, x.right), lambda x: x)


def _cgt_py_solve(rows: int, cols: int) -> tuple[Callable[[], Any], Callable[[Any], Dag]]:
    import cgt_py

    text = board(rows, cols)

    def run() -> Any:
        return cgt_py.Domineering(text).canonical_form

    # CanonicalForm is not hashable and each option access makes new objects; its repr is
    # the canonical form's text, unique per value, so it serves as the key.
    return run, lambda g: to_dag(g, lambda x: (x.left_options, x.right_options), repr)


def _native(value: Any) -> str:
    """The peer's own text for a value (cgt-py wraps it as ``CanonicalForm('...')``)."""
    text = str(value)
    prefix = "CanonicalForm('"
    if text.startswith(prefix) and text.endswith("')"):
        text = text[len(prefix) : -2]
    return text


class _SolveTimeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _SolveTimeout


def timed_call(run: Callable[[], Any], timeout: float) -> tuple[Any, float | None]:
    """``run()``'s result and its seconds, or (None, None) past ``timeout`` seconds (a timer
    interrupts pure Python; a compiled peer sees the signal only when it returns)."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    start = time.perf_counter()
    try:
        value = run()
        seconds = time.perf_counter() - start
        signal.setitimer(signal.ITIMER_REAL, 0)
    except _SolveTimeout:
        return None, None
    return (value, seconds) if seconds < timeout else (None, None)


def child(peer: str, rows: int, cols: int, timeout: float) -> None:
    """Print one JSON line: seconds, the peer's own text, the value DAG, probe, peak RSS.

    The solve itself (not the start-up) gets ``timeout`` seconds: a timer interrupts it
    (pure-Python peers) and the parent kills the process a grace period later (compiled
    peers may not see the signal until they return)."""
    setup = {"pycgt": _pycgt_solve, "cgt-py": _cgt_py_solve}[peer]
    try:
        run, dag = setup(rows, cols)
        probe, probe_dag = setup(2, 1)  # one vertical domino: 1 iff Left plays vertically
    except ImportError as error:
        print(json.dumps({"status": "missing", "error": str(error)}))
        return
    value, seconds = timed_call(run, timeout)
    if seconds is None:
        print(json.dumps({"status": "timeout", "timeout": timeout}))
        return
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    text = _native(value)
    print(
        json.dumps(
            {
                "status": "ok",
                "seconds": seconds,
                "native": text if len(text) <= 200 else text[:197] + "...",
                "dag": dag(value),
                "probe_2x1": probe_dag(probe()),
                "rss_mb": rss_mb,
            }
        )
    )


def run_child(script: str, args: list[str], timeout: float) -> dict:
    """Run ``python SCRIPT _child ARGS...`` and parse its last stdout line as JSON; a process
    still running ``timeout`` seconds later is killed (``timeout`` status), one that fails
    gives an ``error`` status with the last line of its stderr."""
    command = [sys.executable, script, "_child", *args]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"status": "error", "error": tail}
    return json.loads(lines[-1])


# ---- the parent ---------------------------------------------------------------------------
#: Seconds the parent allows on top of the solve's timeout (start-up, import, the DAG).
GRACE = 30.0


def measure_peer(peer: str, rows: int, cols: int, repeat: int, timeout: float) -> dict:
    """Median seconds over ``repeat`` fresh processes, or a status: ``missing``, ``timeout``
    (the solve of the first run exceeded ``timeout`` seconds; no further runs) or ``error``.
    A process still running ``GRACE`` seconds after its solve's timeout is killed."""
    runs = []
    for _ in range(repeat):
        command = [sys.executable, HERE, "_child", peer, str(rows), str(cols), str(timeout)]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout + GRACE)
        except subprocess.TimeoutExpired:
            return {"status": "timeout", "timeout": timeout}
        lines = done.stdout.strip().splitlines()
        if done.returncode != 0 or not lines:
            tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
            return {"status": "error", "error": tail}
        result = json.loads(lines[-1])
        if result["status"] != "ok":
            return result
        runs.append(result)
    result = dict(runs[-1])
    result["seconds"] = statistics.median(r["seconds"] for r in runs)
    return result


def orientation(result: dict) -> int:
    """+1 if the peer's Left plays vertically (its 2x1 board is 1), -1 if horizontally."""
    from cgframework.values import ONE

    probe = from_dag(result["probe_2x1"])
    if probe == ONE:
        return 1
    if probe == -ONE:
        return -1
    raise ValueError(f"the peer's 2x1 board is {probe}: cannot tell its orientation")


def peer_value(result: dict) -> Any:
    """The peer's value as our ``CanonicalGame``, negated if its Left plays horizontally."""
    value = from_dag(result["dag"])
    return value if orientation(result) == 1 else -value


def agreement(ours: Any, results: dict[str, dict]) -> str:
    """``yes (3/3)``-style summary: ours against every peer that produced a value."""
    compared = []
    differs = []
    for peer, result in results.items():
        if result.get("status") != "ok":
            continue
        try:
            same = peer_value(result) == ours
        except ValueError:
            same = False
        compared.append(peer)
        if not same:
            differs.append(peer)
    if differs:
        return "NO: " + ",".join(differs)
    if not compared:
        return "- (no peer value)"
    return f"yes ({len(compared) + 1}/{len(results) + 1})"


def time_cell(result: dict) -> str:
    status = result.get("status")
    if status == "ok":
        seconds = result["seconds"]
        return f"{seconds:.3f}" if seconds >= 0.01 else f"{seconds:.4f}"
    if status == "timeout":
        return f"> {result['timeout']:g} s"
    return "-"


def ratio_cell(result: dict, ours: float) -> str:
    """Peer time over ours (above 1: we are faster)."""
    status = result.get("status")
    if status == "ok":
        return f"{result['seconds'] / ours:.2f}x" if ours > 0 else "-"
    if status == "timeout":
        return f"> {result['timeout'] / ours:.3g}x" if ours > 0 else "-"
    return "-"


def orientation_notes(results: Iterable[dict[str, dict]]) -> list[str]:
    """One line per peer: the 2x1 probe and whether values were negated."""
    seen: dict[str, str] = {}
    for row in results:
        for peer, result in row.items():
            if result.get("status") == "ok" and peer not in seen:
                try:
                    sign = orientation(result)
                except ValueError as error:
                    seen[peer] = str(error)
                    continue
                seen[peer] = (
                    "2x1 board = 1: Left plays vertically as in ours; values compared as they are"
                    if sign == 1
                    else "2x1 board = -1: Left plays horizontally; values negated before comparing"
                )
    return [f"{peer}: {note}" for peer, note in seen.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    from cgframework import solve

    rows = []
    for r, c in QUICK_SIZES if args.quick else FULL_SIZES:
        ours = solve("domineering", board(r, c)).value
        results = {p: measure_peer(p, r, c, args.repeat, args.timeout) for p in PEERS}
        rows.append(results)
        cells = "  ".join(f"{p} {time_cell(x)}" for p, x in results.items())
        print(f"{r}x{c}: {ours}  {cells}  agree: {agreement(ours, results)}", flush=True)
    for line in orientation_notes(rows):
        print(line)


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "_child":
        child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]))
    else:
        main()
