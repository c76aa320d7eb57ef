"""Fixtures shared by the pizza tests."""

from __future__ import annotations

import pytest

from cgframework_pizza import arcdp, exhaustive, sums


@pytest.fixture(params=["numpy", "python"])
def kernel(request, monkeypatch):
    """Run a test with the NumPy kernels (used at every size), and again with the
    pure-Python fallbacks (NumPy treated as absent)."""
    if request.param == "numpy":
        pytest.importorskip("numpy")
        monkeypatch.setattr(arcdp, "NUMPY_FROM", 0)
        monkeypatch.setattr(sums, "NUMPY_FROM", 0)
    else:
        monkeypatch.setattr(arcdp, "numpy_or_none", lambda: None)
        monkeypatch.setattr(sums, "numpy_or_none", lambda: None)
        monkeypatch.setattr(exhaustive, "np", None)
    return request.param
