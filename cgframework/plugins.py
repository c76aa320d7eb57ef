"""The pluggy plugin manager: finds plugins, collects what they register.

Plugins are found through the entry-point group ``cgframework`` (bundled plugins exactly as
third-party ones), plus modules named in the ``CGFRAMEWORK_PLUGINS`` environment variable
(comma-separated) or passed to :func:`load_plugin` (for tests and for trying a plugin
before packaging it).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import threading
from collections.abc import Callable, Iterable
from typing import Any

import attrs
import pluggy

from cgframework import hookspecs
from cgframework.extensions import Family, Simplification, SolverSpec, Universe, core_universes
from cgframework.game import Ruleset

ENTRY_POINT_GROUP = "cgframework"
MANIFEST_GROUP = "cgframework.rulesets"
"""Optional manifest: entry points ``RULESET_NAME = "plugin.module"`` naming, for each ruleset
(and alias) a plugin registers, the module of its ``cgframework`` entry point. A plugin whose
module appears here is imported only when one of its rulesets is first used (or when the whole
registry is needed: ``cgf rulesets``, ``--help``...); a plugin without one is imported at start."""
COMMANDS_GROUP = "cgframework.commands"
"""Optional manifest of sub-commands: entry points ``COMMAND = "plugin.module"`` naming the
plugin that adds ``cgf COMMAND``; only that plugin's commands are then loaded."""
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
            raise UnknownRuleset(f"unknown ruleset {name!r} ({self._ruleset_hint(name)})") from None

    def _ruleset_hint(self, name: str) -> str:
        """``did you mean 'nim'?`` for a near miss among names and aliases, else the list."""
        from difflib import get_close_matches

        close = get_close_matches(name, [*self.rulesets, *self.aliases], n=1)
        if close:
            return f"did you mean {close[0]!r}?"
        return "installed: " + (", ".join(sorted(self.rulesets)) or "none")

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
_deferred: dict[str, Any] = {}
"""Entry points (by plugin name) of plugins with a manifest, not imported yet."""
_manifest: dict[str, str] = {}
"""Ruleset name or alias -> plugin name, from :data:`MANIFEST_GROUP`."""
_filled: set[str] = set()
"""Plugins whose hooks have been called into ``_registry``."""
_lock = threading.RLock()
"""Held while plugins load and the registry fills: threads never see half a registry."""
_command_manifest: dict[str, str] = {}
"""``cgf`` sub-command -> plugin name, from :data:`COMMANDS_GROUP`."""


@attrs.frozen
class EntryPoint:
    """An installed entry point (``name = value``, value ``module`` or ``module:attr``)."""

    name: str
    value: str

    def load(self) -> Any:
        """The object named; a plugin that cannot be loaded is a :class:`PluginError` (and the
        entry-point cache, which may be stale, is dropped so the next run scans again)."""
        module, _, attr = self.value.partition(":")
        try:
            obj = importlib.import_module(module.strip())
            for part in filter(None, attr.strip().split(".")):
                obj = getattr(obj, part)
        except (ImportError, AttributeError) as exc:
            with contextlib.suppress(OSError):
                os.remove(_entry_points_cache()[0])
            raise PluginError(f"cannot load plugin {self.name!r} ({self.value}): {exc}") from None
        return obj


GROUPS = (ENTRY_POINT_GROUP, MANIFEST_GROUP, COMMANDS_GROUP)


def _entry_points_cache() -> tuple[str, list[Any]]:
    """The cache file of this interpreter's entry points, and the key it is valid for: the
    modification times of the directories on ``sys.path`` (installing or removing a
    distribution adds or removes a ``*.dist-info`` there)."""
    import sys
    import zlib

    stamps: list[Any] = [sys.prefix, list(GROUPS)]
    for entry in sys.path:
        entry = entry or os.getcwd()
        try:
            stamps.append([entry, os.stat(entry).st_mtime_ns])
        except OSError:
            stamps.append([entry, None])
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    # one file per interpreter and sys.path, whatever the script's directory (sys.path[0])
    where = "\0".join([sys.prefix, *sys.path[1:]])
    name = f"entry-points-{zlib.crc32(where.encode()):08x}.json"
    return os.path.join(home, "cgframework", name), stamps


def installed_entry_points() -> dict[str, list[EntryPoint]]:
    """The entry points of the plugin groups, by group. Scanning the installed distributions
    costs ~20 ms at start (importlib.metadata and ~280 ``entry_points.txt``), so the result is
    kept in a cache file (``$XDG_CACHE_HOME/cgframework``) and read back while ``sys.path``'s
    directories are unchanged; ``CGFRAMEWORK_NO_CACHE=1`` always scans."""
    import json

    path, stamps = _entry_points_cache()
    use_cache = not os.environ.get("CGFRAMEWORK_NO_CACHE") and os.path.isabs(path)
    if use_cache:
        try:
            with open(path, encoding="utf-8") as file:
                cached = json.load(file)
            if cached["key"] == stamps:
                found = {g: [EntryPoint(*ep) for ep in cached["groups"][g]] for g in GROUPS}
                every = [x for eps in found.values() for ep in eps for x in (ep.name, ep.value)]
                if all(isinstance(x, str) for x in every):  # (else damaged: scan)
                    return found
        except (OSError, ValueError, KeyError, TypeError):
            pass  # no cache, another interpreter's, or damaged: scan
    from importlib.metadata import entry_points

    every = entry_points()  # one scan of the installed distributions
    groups = {g: [[ep.name, ep.value] for ep in every.select(group=g)] for g in GROUPS}
    if use_cache:
        temp = f"{path}.{os.getpid()}.tmp"
        try:  # whole or not at all: written aside, then renamed over
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(temp, "w", encoding="utf-8") as file:
                json.dump({"key": stamps, "groups": groups}, file)
            os.replace(temp, path)
        except OSError:  # a read-only home: no cache, no harm
            with contextlib.suppress(OSError):
                os.remove(temp)
    return {g: [EntryPoint(*ep) for ep in groups[g]] for g in GROUPS}


def _lazy_manager() -> pluggy.PluginManager:
    """The process-wide plugin manager, with the plugins that give no manifest (and the
    environment's) loaded; plugins with a manifest wait in ``_deferred``."""
    global _manager
    if _manager is None:
        pm = pluggy.PluginManager("cgframework")
        pm.add_hookspecs(hookspecs)
        every = installed_entry_points()
        plugin_eps = every[ENTRY_POINT_GROUP]
        by_module = {ep.value: ep.name for ep in plugin_eps}
        for ep in every[MANIFEST_GROUP]:
            if ep.value in by_module:
                _manifest.setdefault(ep.name, by_module[ep.value])
        for ep in every[COMMANDS_GROUP]:
            if ep.value in by_module:
                _command_manifest.setdefault(ep.name, by_module[ep.value])
        for ep in plugin_eps:
            if pm.has_plugin(ep.name) or pm.is_blocked(ep.name):
                continue
            if ep.name in _manifest.values():
                _deferred[ep.name] = ep
            else:
                pm.register(ep.load(), name=ep.name)
        names = [m.strip() for m in os.environ.get(PLUGINS_ENV, "").split(",") if m.strip()]
        for module_name in [*names, *_extra_modules]:
            _register_module(pm, module_name)
        _manager = pm
    return _manager


def _load_deferred(pm: pluggy.PluginManager, name: str) -> None:
    ep = _deferred.pop(name, None)
    if ep is not None:
        module = ep.load()
        if not pm.is_registered(module):
            pm.register(module, name=name)


def plugin_manager() -> pluggy.PluginManager:
    """The process-wide plugin manager, with every entry-point and environment plugin loaded."""
    pm = _lazy_manager()
    for name in list(_deferred):
        _load_deferred(pm, name)
    return pm


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
    _filled.clear()


def reset() -> None:
    """Forget loaded plugins and the registry (tests)."""
    global _manager, _registry
    _manager = None
    _registry = None
    _extra_modules.clear()
    _deferred.clear()
    _manifest.clear()
    _command_manifest.clear()
    _filled.clear()


def _call_each(
    pm: pluggy.PluginManager,
    hook_name: str,
    register_for: Callable[[str], Callable[[Any], None]],
    plugins: set[str],
) -> None:
    """Call one hook plugin by plugin (those in ``plugins``), each with a ``register`` that
    knows the plugin."""
    hook = getattr(pm.hook, hook_name)
    for impl in reversed(hook.get_hookimpls()):
        if impl.plugin_name in plugins:
            impl.function(register=register_for(impl.plugin_name))


def _fill(pm: pluggy.PluginManager) -> Registry:
    """Call the hooks of every registered plugin not yet in the registry."""
    global _registry
    if _registry is None:
        _registry = Registry()
        for universe in core_universes():
            _registry.universes[universe.name] = universe
    registry = _registry
    loaded = {name for name, _ in pm.list_name_plugin()}
    new = loaded - _filled
    if not new:
        return registry
    _filled.update(new)
    registry.plugins = sorted(loaded)
    try:
        _call_each(
            pm, "register_rulesets", lambda plugin: lambda r: registry._add_ruleset(plugin, r), new
        )
        _call_each(pm, "register_solvers", lambda plugin: registry.solvers.append, new)
        _call_each(
            pm, "register_simplifications", lambda plugin: registry.simplifications.append, new
        )

        def add_family(plugin: str) -> Callable[[Family], None]:
            def add(family: Family) -> None:
                key = (registry.aliases.get(family.ruleset, family.ruleset), family.name)
                if key in registry.families:
                    raise PluginError(
                        f"family {family.name!r} of {family.ruleset!r} registered twice"
                    )
                registry.families[key] = family

            return add

        _call_each(pm, "register_families", add_family, new)

        def add_universe(plugin: str) -> Callable[[Universe], None]:
            def add(universe: Universe) -> None:
                if universe.name in registry.universes:
                    raise PluginError(
                        f"universe {universe.name!r} registered twice (by {plugin!r})"
                    )
                registry.universes[universe.name] = universe

            return add

        _call_each(pm, "register_universes", add_universe, new)
    except BaseException:
        _registry = None  # a half-built registry is not kept
        _filled.clear()
        raise
    return registry


def get_registry() -> Registry:
    """Build (once) and return the registry of everything the plugins registered."""
    with _lock:
        return _fill(plugin_manager())


def resolve_ruleset(ruleset: str | Ruleset) -> Ruleset:
    """``ruleset`` itself, or the ruleset of that name or alias, importing only the plugin
    that serves it (:func:`registry_for`); an unknown name raises :class:`UnknownRuleset`."""
    return registry_for(ruleset).ruleset(ruleset) if isinstance(ruleset, str) else ruleset


def registry_for(ruleset: str | Ruleset) -> Registry:
    """A registry holding at least ``ruleset`` (a name or alias, or a ruleset) with everything
    that serves it: when a manifest names its plugin, only that plugin (and those without a
    manifest) is imported; otherwise every plugin is (:func:`get_registry`)."""
    name = ruleset if isinstance(ruleset, str) else ruleset.name
    with _lock:
        pm = _lazy_manager()
        plugin = _manifest.get(name)
        if plugin is None:
            return get_registry()
        _load_deferred(pm, plugin)
        registry = _fill(pm)
        if registry.aliases.get(name, name) not in registry.rulesets:
            return get_registry()  # the manifest named a ruleset its plugin does not register
        return registry


def registry_with_universe(name: str) -> Registry:
    """A registry holding the universe ``name``: the core's own (``normal``, ``loopy``) need
    no deferred plugin; any other name loads every plugin (:func:`get_registry`)."""
    with _lock:
        registry = _fill(_lazy_manager())
        return registry if name in registry.universes else get_registry()


_commands_added: dict[int, set[str]] = {}


def register_commands(app: Any, command: str | None = None) -> None:
    """Let every plugin add its typer sub-commands to ``app`` (each plugin once per app). With
    ``command`` (``cgf COMMAND ...``) named in a commands manifest, only the plugin adding it
    (and the plugins already imported) is asked."""
    done = _commands_added.setdefault(id(app), set())
    with _lock:
        pm = _lazy_manager()
        plugin = _command_manifest.get(command) if command is not None else None
        if plugin is None:
            pm = plugin_manager()
        else:
            _load_deferred(pm, plugin)
    for impl in pm.hook.register_commands.get_hookimpls():
        if impl.plugin_name not in done:
            impl.function(app=app)
            done.add(impl.plugin_name)


def rulesets() -> Iterable[Ruleset]:
    return get_registry().rulesets.values()
