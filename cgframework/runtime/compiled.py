"""Optional compiled kernels, each with the pure-Python path as fallback and reference.

``setup.py`` builds every ``_k_*.c`` of a package as an optional extension module. Code that
has a kernel asks for it here and keeps its pure-Python path for when the answer is ``None``:
the kernel was not built (no compiler on the machine), or ``CGFRAMEWORK_PURE_PYTHON=1`` is set
(the tests use that to run the reference path). Plugins may use this module: it is public API.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

PURE_PYTHON_ENV = "CGFRAMEWORK_PURE_PYTHON"


def pure_python() -> bool:
    """True when kernels are switched off by ``CGFRAMEWORK_PURE_PYTHON=1``."""
    return os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0")


def load_kernel(module: str, api_version: int | None = None) -> ModuleType | None:
    """The compiled module ``module`` (e.g. ``"cgframework.values._k_canonical"``), or
    ``None`` when it is not built, kernels are switched off, or (with ``api_version``) it is
    a stale build whose ``API_VERSION`` differs: an old ``.so`` left beside changed sources
    (a failed rebuild keeps the old one) must not break the import."""
    if pure_python():
        return None
    try:
        kernel = importlib.import_module(module)
    except ImportError:
        return None
    if api_version is not None and getattr(kernel, "API_VERSION", None) != api_version:
        return None
    return kernel
