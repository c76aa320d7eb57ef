"""Hypothesis strategies for position texts of the grid and strip rulesets, shared by tests."""

from __future__ import annotations

from hypothesis import strategies as st


def row(letters: str, low: int, high: int) -> st.SearchStrategy[str]:
    """A row of ``low`` to ``high`` cells drawn from ``letters`` (repeat a letter to weight it)."""
    return st.text(st.sampled_from(letters), min_size=low, max_size=high)


def board(letters: str, rows: int, cols: int) -> st.SearchStrategy[str]:
    """A rectangle of at most ``rows`` x ``cols`` cells, rows joined by ``|``."""
    return st.integers(1, rows).flatmap(
        lambda r: st.integers(1, cols).flatmap(
            lambda c: st.lists(row(letters, c, c), min_size=r, max_size=r).map("|".join)
        )
    )
