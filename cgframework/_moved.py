"""Old import paths of modules that moved into the core's folders, kept for one release, and
the packages that still hand out the names of the module they were before.

``import cgframework.pictures`` (or ``from cgframework.pictures import grid_svg``) still works:
a finder on ``sys.meta_path`` answers the old name with a small module that forwards every
attribute to the module's new home and warns once (``DeprecationWarning``) that the path goes
in the next release. The guide (``docs/writing-a-plugin.md``) names the new paths.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec

MOVED: dict[str, tuple[str, ...]] = {
    "cgframework.budget": ("cgframework.runtime.budget",),
    "cgframework.cache": ("cgframework.runtime.cache",),
    "cgframework.compiled": ("cgframework.runtime.compiled",),
    "cgframework.deep": ("cgframework.runtime.deep",),
    "cgframework.inputs": ("cgframework.runtime.inputs",),
    "cgframework.store_errors": ("cgframework.store.errors",),
    "cgframework.store_check": ("cgframework.store.check",),
    "cgframework.store_cli": ("cgframework.cli.store",),
    "cgframework.sweep_cli": ("cgframework.cli.sweep",),
    "cgframework.pictures": ("cgframework.display.pictures", "cgframework.game"),
    "cgframework.notebook": ("cgframework.display.notebook",),
    "cgframework.universes": ("cgframework.extensions",),
    "cgframework.widget": ("cgframework.display.widget",),
    "cgframework.game_tree": ("cgframework.display.tree",),
    "cgframework.play": ("cgframework.display.play",),
    "cgframework.values.thermograph_svg": ("cgframework.display.thermograph",),
    "cgframework.values.loopy_sides": ("cgframework.values.loopy.sides",),
}
"""Each old module name and where its names live now (looked up in that order)."""


class MovedModule(types.ModuleType):
    """A module that forwards every attribute to the modules its names moved to."""

    homes: tuple[types.ModuleType, ...] = ()

    def __getattr__(self, name: str) -> Any:
        for home in self.homes:
            try:
                return getattr(home, name)
            except AttributeError:
                continue
        raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")

    def __dir__(self) -> list[str]:
        return sorted({name for home in self.homes for name in dir(home)})


class MovedFinder:
    """Finds the old names of :data:`MOVED` and loads them (a meta path finder and loader;
    ``importlib.abc`` is not imported: it costs every start ``importlib.resources``); every
    other import is left to the other finders."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: ModuleSpec) -> types.ModuleType:
        return MovedModule(spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        names = MOVED[module.__name__]
        warnings.warn(
            f"{module.__name__} moved to {names[0]}; the old path is removed in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        module.homes = tuple(importlib.import_module(name) for name in names)  # type: ignore[attr-defined]
        module.__doc__ = f"Moved to :mod:`{names[0]}` (this old path warns and forwards)."


def names_of(package: str, module: str) -> Callable[[str], Any]:
    """A package's ``__getattr__`` (PEP 562) that hands out ``module``'s names on first use,
    so ``from cgframework.store import ValueStore`` keeps working without importing sqlite3
    when only ``cgframework.store.errors`` is needed."""

    def __getattr__(name: str) -> Any:
        if not name.startswith("__"):
            try:
                return getattr(importlib.import_module(module), name)
            except AttributeError:
                pass
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedFinder())
