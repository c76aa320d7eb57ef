"""The pluggy plugin manager: finds plugins, collects what they register.

Plugins are found through the entry-point group ``cgframework`` (bundled plugins exactly as
third-party ones), plus modules named in the ``CGFRAMEWORK_PLUGINS`` environment variable
(comma-separated) or passed to :func:`load_plugin` (for tests and for trying a plugin
before packaging it).

An installed plugin that fails to load (its module raises on import, it defines no hook, a
hook raises or registers something that is not what the hook takes, or it registers a name
another plugin has) is left out and reported once (:func:`set_warning_handler`); every other
plugin works. ``CGFRAMEWORK_BUNDLED_ONLY=1`` loads only the plugins bundled with cgframework
(the project's tests pin it, so plugins installed next to it cannot change what they see).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
import threading
import warnings
from collections.abc import Callable, Iterable
from typing import Any

import attrs
import pluggy

from cgframework import hookspecs
from cgframework.extensions import (
    Family,
    HeapEngine,
    Simplification,
    SolverSpec,
    Universe,
    core_universes,
)
from cgframework.game import Convention, Ruleset

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
BUNDLED_ONLY_ENV = "CGFRAMEWORK_BUNDLED_ONLY"
"""Set (non-empty, not ``0``): only entry points of the ``cgframework`` distribution itself
(the bundled plugins) are loaded; modules named in :data:`PLUGINS_ENV` still are."""
BUNDLED_DISTRIBUTION = "cgframework"


class PluginError(Exception):
    """A plugin could not be loaded, or two plugins clash."""


class RulesetError(PluginError):
    """A plugin's ruleset breaks the protocol (float points, an ``impartial`` ruleset whose
    players' options differ): a bug in the plugin, reported on one line naming the ruleset
    and the move or position (``cgf`` exit code 2, as for every :class:`PluginError`)."""


class PluginWarning(UserWarning):
    """An installed plugin failed to load and was left out (the default report)."""


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
    brought: set[tuple[str, str]] = attrs.field(factory=set)
    """The families a ruleset brought itself (``families()``): a plugin's own replaces one."""
    heap_engines: list[HeapEngine] = attrs.field(factory=list)
    universes: dict[str, Universe] = attrs.field(factory=dict)
    plugins: list[str] = attrs.field(factory=list)
    broken: dict[str, str] = attrs.field(factory=dict)
    """Plugins left out because they failed to load: name -> ``"ImportError: ..."``."""

    def ruleset(self, name: str) -> Ruleset:
        """The ruleset of that name or alias; ``VARIANT:NAME`` (``impartial:domineering``,
        ``twisted:dicotic:clobber``) is that variant of it (:mod:`cgframework.variants`)."""
        key = self.aliases.get(name, name)
        try:
            return self.rulesets[key]
        except KeyError:
            pass
        from cgframework.variants import VariantError, of_name, split_name

        kinds, base = split_name(name)
        if not kinds:
            raise UnknownRuleset(self._unknown(name)) from None
        try:
            return of_name(kinds, self.ruleset(base))
        except VariantError as exc:
            raise UnknownRuleset(f"no ruleset {name!r}: {exc}") from None

    def _unknown(self, name: str) -> str:
        """Why ``name`` is not here: a broken plugin that provides it (by its manifest), or
        no plugin at all (then the nearest name, or the list; and the broken plugins are
        named: one of them may have had it); ``WORD:RULESET`` names no variant."""
        head, colon, rest = name.partition(":")
        if colon and (rest in self.rulesets or rest in self.aliases):
            from cgframework.variants import VARIANTS

            return (
                f"unknown variant {head!r} in ruleset name {name!r} "
                f"(variants: {', '.join(sorted(VARIANTS))})"
            )
        owner = _manifest.get(name)
        if owner in self.broken:
            return (
                f"ruleset {name!r} is provided by plugin {owner!r}, which failed to load: "
                f"{self.broken[owner]}"
            )
        hint = self._ruleset_hint(name)
        if self.broken:  # (their errors were reported as they failed)
            hint += f"; plugins that failed to load: {', '.join(sorted(self.broken))}"
        return f"unknown ruleset {name!r} ({hint})"

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
        if ruleset not in self.rulesets and ruleset not in self.aliases:
            from cgframework.variants import base_name  # a variant: its base's families

            ruleset = base_name(ruleset)
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
        if ruleset_name not in self.rulesets and ruleset_name not in self.aliases:
            from cgframework.variants import base_name

            ruleset_name = base_name(ruleset_name)
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
_broken: dict[str, str] = {}
"""Plugins that failed to load (left out): name -> ``"ExceptionType: message"``."""
_reported: set[str] = set()
_warning_handler: Callable[[str], None] | None = None

MAX_ERROR = 240
"""Characters of a plugin's error quoted at most (a traceback's message can be long)."""


def set_warning_handler(handler: Callable[[str], None] | None) -> None:
    """Report plugins that fail to load with ``handler(message)`` (``cgf`` prints
    ``cgf: warning: ...``); ``None``: as a :class:`PluginWarning` (the default)."""
    global _warning_handler
    _warning_handler = handler


def broken_plugins() -> dict[str, str]:
    """The plugins left out because they failed to load, with their errors."""
    return dict(_broken)


def _error_text(exc: BaseException) -> str:
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text if len(text) <= MAX_ERROR else text[: MAX_ERROR - 3] + "..."


def _mark_broken(
    pm: pluggy.PluginManager | None, name: str, error: str, report: bool = True
) -> None:
    """Leave plugin ``name`` out (unregistered, blocked) and report it once per process
    (unless ``report`` is false: the caller turns the failure into its own error)."""
    _broken.setdefault(name, error)
    _deferred.pop(name, None)
    if pm is not None:
        if pm.has_plugin(name):
            pm.unregister(name=name)
        pm.set_blocked(name)
    if name in _reported or not report:
        return
    _reported.add(name)
    message = f"plugin {name!r} failed to load: {error}; its rulesets are unavailable"
    if _warning_handler is not None:
        _warning_handler(message)
    else:
        warnings.warn(message, PluginWarning, stacklevel=2)


def broken_command(command: str) -> str | None:
    """Why ``cgf COMMAND`` does not exist when the plugin its manifest names failed to load
    (``None`` otherwise)."""
    plugin = _command_manifest.get(command)
    if plugin is None or plugin not in _broken:
        return None
    error = _broken[plugin]
    return f"command {command!r} is provided by plugin {plugin!r}, which failed to load: {error}"


@attrs.frozen
class EntryPoint:
    """An installed entry point (``name = value``, value ``module`` or ``module:attr``)."""

    name: str
    value: str
    distribution: str = ""
    """The distribution that declares it (``cgframework`` for the bundled plugins)."""

    def load(self) -> Any:
        """The object named; a plugin that cannot be loaded (whatever its module raises on
        import) is a :class:`PluginError` whose message is the error (and the entry-point
        cache, which may be stale, is dropped so the next run scans again)."""
        module, _, attr = self.value.partition(":")
        try:
            obj = importlib.import_module(module.strip())
            for part in filter(None, attr.strip().split(".")):
                obj = getattr(obj, part)
        except (Exception, SystemExit) as exc:  # a plugin's import may raise anything
            with contextlib.suppress(OSError):
                os.remove(_entry_points_cache()[0])
            raise PluginError(_error_text(exc)) from None
        return obj

    @property
    def bundled(self) -> bool:
        return _normal_name(self.distribution) == BUNDLED_DISTRIBUTION


def _normal_name(distribution: str) -> str:
    return distribution.lower().replace("-", "_").replace(".", "_")


GROUPS = (ENTRY_POINT_GROUP, MANIFEST_GROUP, COMMANDS_GROUP)
CACHE_FORMAT = "name-value-distribution"
"""Part of the cache's key: a cache written in another layout is scanned again."""


def _entry_points_cache() -> tuple[str, list[Any]]:
    """The cache file of this interpreter's entry points, and the key it is valid for: the
    modification times of the directories on ``sys.path`` (installing or removing a
    distribution adds or removes a ``*.dist-info`` there)."""
    import zlib

    stamps: list[Any] = [sys.prefix, list(GROUPS), CACHE_FORMAT]
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
                every = [x for eps in found.values() for ep in eps for x in attrs.astuple(ep)]
                if all(isinstance(x, str) for x in every):  # (else damaged: scan)
                    return found
        except (OSError, ValueError, KeyError, TypeError):
            pass  # no cache, another interpreter's, or damaged: scan
    from importlib.metadata import entry_points

    every = entry_points()  # one scan of the installed distributions
    groups = {
        g: [[ep.name, ep.value, _distribution(ep)] for ep in every.select(group=g)] for g in GROUPS
    }
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


def _distribution(entry_point: Any) -> str:
    dist = getattr(entry_point, "dist", None)
    return str(getattr(dist, "name", "") or "")


def bundled_only() -> bool:
    """True when :data:`BUNDLED_ONLY_ENV` asks for the bundled plugins alone."""
    return os.environ.get(BUNDLED_ONLY_ENV, "") not in ("", "0")


def plugin_entry_points() -> dict[str, list[EntryPoint]]:
    """:func:`installed_entry_points`, without the other distributions' under
    :data:`BUNDLED_ONLY_ENV`."""
    every = installed_entry_points()
    if not bundled_only():
        return every
    return {group: [ep for ep in eps if ep.bundled] for group, eps in every.items()}


def _register_entry_point(pm: pluggy.PluginManager, ep: EntryPoint, report: bool = True) -> None:
    """Import and register an installed plugin; one that fails is left out and reported."""
    try:
        plugin = ep.load()
        if not pm.is_registered(plugin):
            pm.register(plugin, name=ep.name)
            if not pm.get_hookcallers(plugin):
                raise PluginError(f"{ep.value} defines no hook (such as register_rulesets)")
    except (Exception, SystemExit) as exc:  # pluggy's validation errors too
        error = str(exc) if isinstance(exc, PluginError) else _error_text(exc)
        _mark_broken(pm, ep.name, error, report)


def _lazy_manager() -> pluggy.PluginManager:
    """The process-wide plugin manager, with the plugins that give no manifest (and the
    environment's) loaded; plugins with a manifest wait in ``_deferred``."""
    global _manager
    if _manager is None:
        pm = pluggy.PluginManager("cgframework")
        pm.add_hookspecs(hookspecs)
        every = plugin_entry_points()
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
                _register_entry_point(pm, ep)
        names = [m.strip() for m in os.environ.get(PLUGINS_ENV, "").split(",") if m.strip()]
        for module_name in [*names, *_extra_modules]:
            _register_module(pm, module_name)
        _manager = pm
    return _manager


def _load_deferred(pm: pluggy.PluginManager, name: str, report: bool = True) -> None:
    ep = _deferred.pop(name, None)
    if ep is not None:
        _register_entry_point(pm, ep, report)


def plugin_manager() -> pluggy.PluginManager:
    """The process-wide plugin manager, with every entry-point and environment plugin loaded."""
    pm = _lazy_manager()
    for name in list(_deferred):
        _load_deferred(pm, name)
    return pm


def _register_module(pm: pluggy.PluginManager, module_name: str) -> None:
    """Register a module once: a module already registered (under its entry-point name, when
    it is both pip-installed and named in ``CGFRAMEWORK_PLUGINS``) is not registered again.
    A module named on purpose that fails (whatever its import raises) is a :class:`PluginError`."""
    if pm.has_plugin(module_name):
        return
    try:
        module = importlib.import_module(module_name)
        if not pm.is_registered(module):
            pm.register(module, name=module_name)
    except (Exception, SystemExit) as exc:  # pluggy's validation errors too
        error = _error_text(exc)
        raise PluginError(f"cannot import plugin module {module_name!r}: {error}") from None


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
    """Forget loaded plugins, the registry and the warning handler (tests)."""
    global _manager, _registry, _warning_handler
    _warning_handler = None
    _manager = None
    _registry = None
    _extra_modules.clear()
    _deferred.clear()
    _manifest.clear()
    _command_manifest.clear()
    _filled.clear()
    _broken.clear()
    _reported.clear()


def _is_ruleset(item: Any) -> bool:
    return (
        isinstance(getattr(item, "name", None), str)
        and bool(item.name)
        and isinstance(getattr(item, "convention", None), Convention)
        and callable(getattr(item, "parse", None))
        and callable(getattr(item, "options", None))
    )


class _Filling:
    """What the plugins being filled add to a registry, plugin by plugin, so that a plugin
    whose hook raises or registers garbage can be taken out again whole."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.undo: dict[str, list[Callable[[], None]]] = {}

    def adder(self, hook_name: str, plugin: str) -> Callable[[Any], None]:
        """The ``register`` argument of ``hook_name`` for ``plugin``."""
        add = getattr(self, hook_name)
        steps = self.undo.setdefault(plugin, [])

        def register(item: Any) -> None:
            add(plugin, item, steps)

        return register

    def take_out(self, plugin: str) -> None:
        for step in reversed(self.undo.pop(plugin, [])):
            step()

    def register_rulesets(self, plugin: str, item: Any, steps: list) -> None:
        if not _is_ruleset(item):
            raise PluginError(f"register_rulesets got {_what(item)}, not a ruleset")
        registry = self.registry
        registry._add_ruleset(plugin, item)

        def undo() -> None:
            registry.rulesets.pop(item.name, None)
            registry.origin.pop(item.name, None)
            for alias in getattr(item, "aliases", ()):
                if registry.aliases.get(alias) == item.name:
                    del registry.aliases[alias]

        steps.append(undo)
        brings = getattr(item, "families", None)
        for family in brings() if callable(brings) else ():
            self._add_family(plugin, family, steps, brought=True)

    def _append(self, kind: type, where: list, hook_name: str, item: Any, steps: list) -> None:
        if not isinstance(item, kind):
            raise PluginError(f"{hook_name} got {_what(item)}, not a {kind.__name__}")
        where.append(item)
        steps.append(lambda: where.remove(item))

    def register_solvers(self, plugin: str, item: Any, steps: list) -> None:
        self._append(SolverSpec, self.registry.solvers, "register_solvers", item, steps)

    def register_simplifications(self, plugin: str, item: Any, steps: list) -> None:
        where = self.registry.simplifications
        self._append(Simplification, where, "register_simplifications", item, steps)

    def register_families(self, plugin: str, family: Any, steps: list) -> None:
        self._add_family(plugin, family, steps)

    def _add_family(self, plugin: str, family: Any, steps: list, brought: bool = False) -> None:
        """A family registered by a plugin, or ``brought`` by a ruleset (``families()``): a
        plugin's replaces a ruleset's of the same name; two of one kind are refused."""
        if not isinstance(family, Family):
            what = "a ruleset's families()" if brought else "register_families"
            raise PluginError(f"{what} got {_what(family)}, not a Family")
        registry = self.registry
        key = (registry.aliases.get(family.ruleset, family.ruleset), family.name)
        if key in registry.families and (brought or key not in registry.brought):
            raise PluginError(f"family {family.name!r} of {family.ruleset!r} registered twice")
        replaced = registry.families.get(key)
        registry.families[key] = family
        if brought:
            registry.brought.add(key)
        else:
            registry.brought.discard(key)

        def undo() -> None:
            if registry.families.get(key) is not family:
                return
            if replaced is not None and not brought:  # the ruleset's own again
                registry.families[key] = replaced
                registry.brought.add(key)
            else:
                del registry.families[key]
                registry.brought.discard(key)

        steps.append(undo)

    def register_heap_engines(self, plugin: str, item: Any, steps: list) -> None:
        self._append(HeapEngine, self.registry.heap_engines, "register_heap_engines", item, steps)

    def register_universes(self, plugin: str, universe: Any, steps: list) -> None:
        if not isinstance(universe, Universe):
            raise PluginError(f"register_universes got {_what(universe)}, not a Universe")
        registry = self.registry
        if universe.name in registry.universes:
            raise PluginError(f"universe {universe.name!r} registered twice (by {plugin!r})")
        registry.universes[universe.name] = universe
        steps.append(lambda: registry.universes.pop(universe.name, None))


def _what(item: Any) -> str:
    return f"{type(item).__name__} {item!r}"[:80]


FILL_HOOKS = (
    "register_rulesets",
    "register_solvers",
    "register_simplifications",
    "register_families",
    "register_universes",
    "register_heap_engines",
)
"""The registering hooks, in the order they are called (rulesets first: families and
solvers name them)."""


def _fill(pm: pluggy.PluginManager) -> Registry:
    """Call the hooks of every registered plugin not yet in the registry, hook by hook, each
    plugin in registration order. A plugin whose hook raises or registers something else than
    the hook takes is taken out of the registry whole and reported (:func:`_mark_broken`)."""
    global _registry
    if _registry is None:
        _registry = Registry(broken=_broken)
        for universe in core_universes():
            _registry.universes[universe.name] = universe
    registry = _registry
    loaded = {name for name, plugin in pm.list_name_plugin() if plugin is not None}  # (blocked)
    new = loaded - _filled
    if not new:
        return registry
    _filled.update(new)
    filling = _Filling(registry)
    failed: dict[str, str] = {}
    try:
        for hook_name in FILL_HOOKS:
            for impl in reversed(getattr(pm.hook, hook_name).get_hookimpls()):
                plugin = impl.plugin_name
                if plugin not in new or plugin in failed:
                    continue
                try:
                    impl.function(register=filling.adder(hook_name, plugin))
                except Exception as exc:
                    filling.take_out(plugin)
                    failed[plugin] = str(exc) if isinstance(exc, PluginError) else _error_text(exc)
    except BaseException:
        _registry = None  # a half-built registry is not kept (an interrupt)
        _filled.clear()
        raise
    for plugin, error in failed.items():
        _mark_broken(pm, plugin, error)
    registry.plugins = sorted(loaded - set(failed))
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
    if name not in _manifest:
        from cgframework.variants import base_name

        name = base_name(name)  # a variant's base serves it
    with _lock:
        pm = _lazy_manager()
        plugin = _manifest.get(name)
        if plugin is None:
            return get_registry()
        _load_deferred(pm, plugin, report=False)  # failing, it is the error of ruleset()
        registry = _fill(pm)
        if plugin in _broken:  # the ruleset's plugin failed: ruleset() says so, nothing more
            return registry  # is imported
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
            _load_deferred(pm, plugin, report=False)  # failing: the caller's error
    for impl in pm.hook.register_commands.get_hookimpls():
        if impl.plugin_name not in done:
            done.add(impl.plugin_name)
            commands, groups = len(app.registered_commands), len(app.registered_groups)
            try:
                impl.function(app=app)
            except Exception as exc:  # the plugin's commands are left out, whole
                del app.registered_commands[commands:], app.registered_groups[groups:]
                with _lock:
                    _mark_broken(pm, impl.plugin_name, _error_text(exc))


def rulesets() -> Iterable[Ruleset]:
    return get_registry().rulesets.values()
