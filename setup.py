"""Optional compiled kernels.

Every C file named ``_k_*.c`` inside a package (the core's or a bundled plugin's, as mapped
in ``pyproject.toml``) is built as an extension module of that package, with the machine's C
compiler. Each is ``optional``: when it cannot be built (no compiler, no Python headers) the
install still succeeds and the pure-Python path runs (:mod:`cgframework.runtime.compiled`).
Everything else about the project is declared in ``pyproject.toml``.
"""

import tomllib
from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).parent
_SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
PACKAGE_DIRS = {
    package: _SETUPTOOLS.get("package-dir", {}).get(package, package.replace(".", "/"))
    for package in _SETUPTOOLS["packages"]
}
"""Each package's folder, as ``pyproject.toml`` maps it."""


def kernels() -> list[Extension]:
    found = []
    for package, folder in PACKAGE_DIRS.items():
        for source in sorted((ROOT / folder).glob("_k_*.c")):
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
