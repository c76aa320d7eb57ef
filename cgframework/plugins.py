"""The pluggy plugin manager: finds plugins, collects what they register.

Plugins are found through the entry-point group ``cgframework`` (bundled plugins exactly as
third-party ones), plus modules named in the ``CGFRAMEWORK_PLUGINS`` environment variable
(comma-separated) or passed to :func:`load_plugin` (for tests and for trying a plugin
before packaging it).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterable
from typing import Any

import attrs
import pluggy

from cgframework import hookspecs
from cgframework.extensions import Family, Simplification, SolverSpec
from cgframework.game import Ruleset
from cgframework.universes import Universe, core_universes

ENTRY_POINT_GROUP = "cgframework"
PLUGINS_ENV = "CGFRAMEWORK_PLUGINS"


class PluginError(Exception):
    """A plugin could not be loaded, or two plugins clash."""


class RulesetError(PluginError):
    """A plugin's ruleset breaks the protocol (float points, an ``impartial`` ruleset whose
    players' options differ): a bug in the plugin, reported on one line naming the ruleset
    and the move or position (``cgf`` exit code 2, as for every :class:`PluginError`)."""


class UnknownRuleset(KeyError):
    """No installed plugin registers a ruleset of that name."""

    def __str__(self) -> str:
        return str(self.args[0])


@attrs.define
class Registry:
    """Everything the loaded plugins registered, with the plugin each came from."""

    rulesets: dict[str, Ruleset] = attrs.field(factory=dict)
    aliases: dict[str, str] = attrs.field(factory=dict)
    origin: dict[str, str] = attrs.field(factory=dict)
    solvers: list[SolverSpec] = attrs.field(factory=list)
    simplifications: list[Simplification] = attrs.field(factory=list)
    families: dict[tuple[str, str], Family] = attrs.field(factory=dict)
    universes: dict[str, Universe] = attrs.field(factory=dict)
    plugins: list[str] = attrs.field(factory=list)

    def ruleset(self, name: str) -> Ruleset:
        key = self.aliases.get(name, name)
        try:
            return self.rulesets[key]
        except KeyError:
            known = ", ".join(sorted(self.rulesets)) or "none"
            raise UnknownRuleset(f"unknown ruleset {name!r} (installed: {known})") from None

    def family(self, ruleset: str, name: str) -> Family:
        """A family by name; ``NAME:ARG`` binds the argument of a family that takes one."""
        base, colon, arg = name.partition(":")
        key = (self.aliases.get(ruleset, ruleset), base)
        if key not in self.families:
            known = ", ".join(sorted(f for r, f in self.families if r == key[0])) or "none"
            raise KeyError(f"ruleset {ruleset!r} has no family {base!r} (families: {known})")
        family = self.families[key]
        if family.argument and not colon:
            raise KeyError(f"family {base!r} of {ruleset!r} needs {family.argument}: {base}:ARG")
        if colon and not family.argument:
            raise KeyError(f"family {base!r} of {ruleset!r} takes no argument (drop :{arg})")
        return family.with_argument(arg) if colon else family

    def universe(self, name: str) -> Universe:
        if name not in self.universes:
            known = ", ".join(sorted(self.universes))
            raise KeyError(f"unknown universe {name!r} (installed: {known})")
        return self.universes[name]

    def plugin_of(self, ruleset_name: str) -> str:
        return self.origin.get(self.aliases.get(ruleset_name, ruleset_name), "?")

    def _add_ruleset(self, plugin: str, ruleset: Ruleset) -> None:
        for name in (ruleset.name, *getattr(ruleset, "aliases", ())):
            owner = self.origin.get(self.aliases.get(name, name))
            if owner is not None:
                raise PluginError(
                    f"ruleset name {name!r} is registered by both plugin {owner!r} "
                    f"and plugin {plugin!r}"
                )
        if not getattr(ruleset, "family", ""):
            try:
                ruleset.family = plugin  # type: ignore[misc]
            except AttributeError:
                pass
        self.rulesets[ruleset.name] = ruleset
        self.origin[ruleset.name] = plugin
        for alias in getattr(ruleset, "aliases", ()):
            self.aliases[alias] = ruleset.name


_manager: pluggy.PluginManager | None = None
_registry: Registry | None = None
_extra_modules: list[str] = []


def plugin_manager() -> pluggy.PluginManager:
    """The process-wide plugin manager, with entry-point and environment plugins loaded."""
    global _manager
    if _manager is None:
        pm = pluggy.PluginManager("cgframework")
        pm.add_hookspecs(hookspecs)
        pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
        names = [m.strip() for m in os.environ.get(PLUGINS_ENV, "").split(",") if m.strip()]
        for module_name in [*names, *_extra_modules]:
            _register_module(pm, module_name)
        _manager = pm
    return _manager


def _register_module(pm: pluggy.PluginManager, module_name: str) -> None:
    """Register a module once: a module already registered (under its entry-point name, when
    it is both pip-installed and named in ``CGFRAMEWORK_PLUGINS``) is not registered again."""
    if pm.has_plugin(module_name):
        return
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise PluginError(f"cannot import plugin module {module_name!r}: {exc}") from None
    if pm.is_registered(module):
        return
    pm.register(module, name=module_name)


def load_plugin(module_name: str) -> None:
    """Load a plugin module by its import name (in addition to the installed ones)."""
    global _registry
    if module_name not in _extra_modules:
        _extra_modules.append(module_name)
    if _manager is not None:
        _register_module(_manager, module_name)
    _registry = None


def reset() -> None:
    """Forget loaded plugins and the registry (tests)."""
    global _manager, _registry
    _manager = None
    _registry = None
    _extra_modules.clear()


def _call_each(
    pm: pluggy.PluginManager, hook_name: str, register_for: Callable[[str], Callable[[Any], None]]
) -> None:
    """Call one hook plugin by plugin, each with a ``register`` that knows the plugin."""
    hook = getattr(pm.hook, hook_name)
    for impl in reversed(hook.get_hookimpls()):
        impl.function(register=register_for(impl.plugin_name))


def get_registry() -> Registry:
    """Build (once) and return the registry of everything the plugins registered."""
    global _registry
    if _registry is not None:
        return _registry
    pm = plugin_manager()
    registry = Registry()
    registry.plugins = sorted(name for name, _ in pm.list_name_plugin())
    _call_each(pm, "register_rulesets", lambda plugin: lambda r: registry._add_ruleset(plugin, r))
    _call_each(pm, "register_solvers", lambda plugin: registry.solvers.append)
    _call_each(pm, "register_simplifications", lambda plugin: registry.simplifications.append)

    def add_family(plugin: str) -> Callable[[Family], None]:
        def add(family: Family) -> None:
            key = (registry.aliases.get(family.ruleset, family.ruleset), family.name)
            if key in registry.families:
                raise PluginError(f"family {family.name!r} of {family.ruleset!r} registered twice")
            registry.families[key] = family

        return add

    _call_each(pm, "register_families", add_family)
    for universe in core_universes():
        registry.universes[universe.name] = universe

    def add_universe(plugin: str) -> Callable[[Universe], None]:
        def add(universe: Universe) -> None:
            if universe.name in registry.universes:
                raise PluginError(f"universe {universe.name!r} registered twice (by {plugin!r})")
            registry.universes[universe.name] = universe

        return add

    _call_each(pm, "register_universes", add_universe)
    _registry = registry
    return registry


_commands_added: dict[int, set[str]] = {}


def register_commands(app: Any) -> None:
    """Let every plugin add its typer sub-commands to ``app`` (each plugin once per app)."""
    done = _commands_added.setdefault(id(app), set())
    for impl in plugin_manager().hook.register_commands.get_hookimpls():
        if impl.plugin_name not in done:
            impl.function(app=app)
            done.add(impl.plugin_name)


def rulesets() -> Iterable[Ruleset]:
    return get_registry().rulesets.values()
