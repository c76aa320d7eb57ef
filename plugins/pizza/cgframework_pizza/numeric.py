"""NumPy, imported on first use (extra ``fast``): the solvers that vectorise with it ask for
it when they run, so loading the plugin (``cgf solve pizza ...``) does not import it."""

from __future__ import annotations

from functools import cache
from types import ModuleType


@cache
def numpy_or_none() -> ModuleType | None:
    """The numpy module, or None when it is not installed (the pure-Python paths run)."""
    try:
        import numpy
    except ImportError:  # pragma: no cover - exercised where numpy is absent
        return None
    return numpy
