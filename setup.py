"""Optional compiled kernels.

Every C file named ``_k_*.c`` inside a package (the core's or a bundled plugin's, as mapped
in ``pyproject.toml``) is built as an extension module of that package, with the machine's C
compiler. Each is ``optional``: when it cannot be built (no compiler, no Python headers) the
install still succeeds and the pure-Python path runs (:mod:`cgframework.runtime.compiled`).
``CGFRAMEWORK_PURE_PYTHON=1`` at build time builds none: a pure-Python wheel (``py3-none-any``,
for Pyodide: ``try/build.py``). Everything else about the project is declared in
``pyproject.toml``.

pip runs this file before it reads ``requires-python`` from the metadata, so on a Python
older than the project supports it must still reach ``setup()``: pip then refuses that
Python in one line instead of showing this file's traceback.
"""

import os
import sys
from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).parent
SUPPORTED = (3, 11)
"""The oldest Python the project runs on (``requires-python`` in ``pyproject.toml``)."""


def package_dirs() -> dict[str, Path]:
    """Each package's folder, as ``pyproject.toml`` maps it."""
    import tomllib  # Python >= 3.11: imported only where the project runs

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapped = config.get("package-dir", {})
    return {
        package: ROOT / mapped.get(package, package.replace(".", "/"))
        for package in config["packages"]
    }


def kernels() -> list[Extension]:
    """One optional extension per ``_k_*.c``; none on a Python the project does not support,
    nor with ``CGFRAMEWORK_PURE_PYTHON=1`` (the value :mod:`cgframework.runtime.compiled`
    reads to switch the kernels off at run time)."""
    if sys.version_info < SUPPORTED:
        return []
    if os.environ.get("CGFRAMEWORK_PURE_PYTHON", "") not in ("", "0"):
        return []
    found = []
    for package, folder in package_dirs().items():
        for source in sorted(folder.glob("_k_*.c")):
            found.append(
                Extension(
                    f"{package}.{source.stem}",
                    [str(source.relative_to(ROOT))],
                    extra_compile_args=["-O2"],
                    optional=True,
                )
            )
    return found


setup(ext_modules=kernels())
