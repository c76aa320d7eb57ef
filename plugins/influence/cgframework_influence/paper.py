"""Numbers printed in the paper, for tests and the benchmark."""

from __future__ import annotations

TABLE_1: list[tuple[int, int]] = [
    (-1, -1), (2, -2), (3, -3), (4, -4), (1, -5), (2, -2), (3, -1), (2, -2), (1, -3), (2, -2),
    (3, -1), (2, -2), (1, -3), (4, -4), (3, -3), (2, -2), (1, -3), (2, -2), (3, -3), (2, -2),
    (1, -5), (4, -4), (3, -3), (2, -2), (1, -3), (2, -2), (3, -3), (2, -2), (1, -5), (4, -4),
    (3, -3), (2, -2), (1, -3), (2, -2), (3, -3), (2, -2), (1, -5), (2, -2),
]  # fmt: skip
"""Table 1 (L836): (Ls(S_n), Rs(S_n)) for n = 1..38, odd n in C-. The text conversion lost
the minus signs of the Rs row; Rs < 0 for every segment (Cor. 21, L698-L702)."""
