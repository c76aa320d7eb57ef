"""``run_deep`` raises the cyclic collector's thresholds while a search runs, and only then."""

from __future__ import annotations

import gc

from cgframework.solvers.dispatch import SEARCH_GC_THRESHOLD, run_deep


def test_search_raises_the_gc_thresholds_and_restores_them():
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        during = run_deep(gc.get_threshold)
        assert during == SEARCH_GC_THRESHOLD  # each above the default
        assert gc.get_threshold() == (700, 10, 10)
        gc.set_threshold(0, 10, 10)  # automatic collection off: a search leaves it off
        assert run_deep(gc.get_threshold) == (0, 10, 10)
    finally:
        gc.set_threshold(*before)


def test_thresholds_are_restored_after_a_failing_search():
    before = gc.get_threshold()

    def boom() -> None:
        raise RuntimeError("search failed")

    try:
        run_deep(boom)
    except RuntimeError:
        pass
    assert gc.get_threshold() == before
