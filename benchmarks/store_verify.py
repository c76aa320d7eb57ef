"""Store verification speed: ``python benchmarks/store_verify.py [--records N] [--markdown]``.

Builds a value store of N records (half Kayles sums of heaps, half Domineering boards up to
4x4 with blocked squares, both players first; all distinct positions, through ``solve``
with the store, so the memo rows are there too), then times ``cgf store verify --all``
(every record checked and recomputed by its ruleset's solver on fresh tables, every memo row
the recomputation reaches compared) and ``cgf store verify`` (the default sample), each in a
fresh process, and an export/import round trip with ``--verify all``.
"""

from __future__ import annotations

import argparse
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cgframework import Player, get_registry, parse_position, solve
from cgframework.store.database import ValueStore, position_key


def kayles_positions(count: int, rng: random.Random) -> list[str]:
    ruleset = get_registry().ruleset("kayles")
    seen: set[str] = set()
    texts: list[str] = []
    while len(texts) < count:
        heaps = sorted(rng.randint(1, 60) for _ in range(rng.randint(1, 4)))
        text = ",".join(map(str, heaps))
        key = position_key(ruleset, parse_position(ruleset, text), Player.LEFT)
        if key not in seen:
            seen.add(key)
            texts.append(text)
    return texts


def domineering_positions(count: int, rng: random.Random) -> list[tuple[str, Player]]:
    ruleset = get_registry().ruleset("domineering")
    seen: set[str] = set()
    found: list[tuple[str, Player]] = []
    while len(found) < count:
        rows, cols = rng.randint(2, 4), rng.randint(2, 4)
        board = "|".join(
            "".join("#" if rng.random() < 0.2 else "." for _ in range(cols)) for _ in range(rows)
        )
        first = rng.choice([Player.LEFT, Player.RIGHT])
        key = position_key(ruleset, parse_position(ruleset, board), first)
        if key not in seen:
            seen.add(key)
            found.append((board, first))
    return found


def build(path: Path, records: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    with ValueStore(path) as store:
        for text in kayles_positions(records // 2, rng):
            solve("kayles", text, store=store)
        for board, first in domineering_positions(records - records // 2, rng):
            solve("domineering", board, first=first, store=store)
    return time.perf_counter() - start


def cgf(*args: str) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "cgframework", *args], capture_output=True, text=True
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"cgf {' '.join(args)} failed: {done.stderr.strip()}")
    return seconds, done.stderr.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite"
        built = build(path, args.records, args.seed)
        with ValueStore(path, read_only=True) as store:
            entries, memo = len(store), store.memo_size()
        rows = [(f"build the store ({entries} records, {memo} memo rows)", built, "")]
        rows.append(("cgf store verify --all", *cgf("store", "verify", str(path), "--all")))
        rows.append(("cgf store verify (sample of 16)", *cgf("store", "verify", str(path))))
        dump = str(Path(folder) / "dump.jsonl")
        rows.append(("cgf store export", *cgf("store", "export", str(path), "-o", dump)))
        fresh = str(Path(folder) / "fresh.sqlite")
        rows.append(
            (
                "cgf store import --verify all",
                *cgf("store", "import", fresh, dump, "--verify", "all"),
            )
        )
    title = (
        f"value store of {entries} Kayles and Domineering records, "
        f"Python {platform.python_version()}"
    )
    if args.markdown:
        print(f"{title}\n\n| step | wall s | summary |\n| --- | ---: | --- |")
        for name, seconds, summary in rows:
            print(f"| {name} | {seconds:.2f} | {summary} |")
    else:
        print(title)
        for name, seconds, summary in rows:
            print(f"{name:<55} {seconds:8.2f} s  {summary}")


if __name__ == "__main__":
    main()
