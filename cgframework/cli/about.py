"""``cgf --version``: what is installed and running, in a few lines, without loading plugins.

Reports cgframework's version, the Python running it, whether each compiled kernel (every
``_k_*`` module of the core and of the installed plugins' packages) is on, and the installed
plugins. Plugins are found from their entry points and their packages' folders: none is
imported, so the answer stays as fast as ``cgf`` itself.
"""

from __future__ import annotations

import importlib.util
import os
import platform
import sys
from pathlib import Path

from cgframework.plugins import ENTRY_POINT_GROUP, installed_entry_points
from cgframework.runtime.compiled import PURE_PYTHON_ENV, load_kernel, pure_python
from cgframework.runtime.version import VERSION

KERNEL_PREFIX = "_k_"


def _package_folder(package: str) -> Path | None:
    """The folder of a top-level package, found without importing it."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def kernel_names(package: str) -> list[str]:
    """Dotted names of the compiled kernels of ``package``: each ``_k_*.c`` source or built
    extension module under its folder (a kernel whose source shipped but was not built counts:
    it is reported as such)."""
    folder = _package_folder(package)
    if folder is None:
        return []
    names = set()
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
        for file in files:
            if file.startswith(KERNEL_PREFIX) and file.endswith((".c", ".so", ".pyd")):
                relative = Path(root, file.split(".")[0]).relative_to(folder.parent)
                names.add(".".join(relative.parts))
    return sorted(names)


def kernel_state(module: str) -> str:
    """``on``, or ``not built`` (no compiler when installed, or a stale build)."""
    return "on" if load_kernel(module) is not None else "not built"


def plugin_packages() -> dict[str, str]:
    """Installed plugin names and the top-level package of each plugin's module."""
    return {
        ep.name: ep.value.partition(":")[0].strip().split(".")[0]
        for ep in installed_entry_points()[ENTRY_POINT_GROUP]
    }


def version_text() -> str:
    """The lines ``cgf --version`` prints."""
    python = f"{platform.python_implementation()} {platform.python_version()}"
    plugins = plugin_packages()
    packages = ["cgframework", *dict.fromkeys(plugins.values())]
    kernels = [name for package in packages for name in kernel_names(package)]
    short = [name.rsplit(".", 1)[-1].removeprefix(KERNEL_PREFIX) for name in kernels]
    if pure_python():
        states = f"off ({PURE_PYTHON_ENV}=1): {', '.join(short)}"
    else:
        states = ", ".join(f"{s} {kernel_state(k)}" for s, k in zip(short, kernels, strict=True))
    lines = [
        f"cgframework {VERSION}",
        f"Python {python} ({sys.executable})",
        f"compiled kernels: {states if kernels else 'none'}",
        f"plugins: {', '.join(sorted(plugins)) or 'none'}",
    ]
    return "\n".join(lines)
