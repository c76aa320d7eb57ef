"""Misère quotients: CPU seconds, order and verification effort per code and --max-heap.

Usage: python benchmarks/quotients.py
"""

from __future__ import annotations

import time

from cgframework_classic.quotient import misere_quotient

CASES = [("0.3333", 12), ("0.75", 24), ("0.07", 14), ("0.137", 14), ("0.77", 10), ("0.77", 11)]


def main() -> None:
    print("| code | max heap | order | stabilised | sums searched | rounds | CPU s |")
    print("|---|---:|---:|---|---:|---:|---:|")
    for code, n in CASES:
        start = time.process_time()
        q = misere_quotient(code, n)
        cpu = time.process_time() - start
        stable = f"period {q.period} from {q.preperiod}" if q.stabilised else "no"
        print(
            f"| {code} | {n} | {q.order} | {stable} | {q.stats['sums_searched']} "
            f"| {q.stats['rounds']} | {cpu:.2f} |"
        )


if __name__ == "__main__":
    main()
