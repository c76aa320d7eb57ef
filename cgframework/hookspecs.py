"""The plugin hooks. A plugin module implements any of them with ``@cgframework.hookimpl``.

Each hook receives a ``register`` callable and calls it once per object it contributes, so
the core knows which plugin registered what (duplicate names are reported with both
plugins named).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

hookspec = pluggy.HookspecMarker("cgframework")
hookimpl = pluggy.HookimplMarker("cgframework")


@hookspec
def register_rulesets(register: Callable[[Any], None]) -> None:
    """Register game rulesets: call ``register(ruleset)`` for each (a
    :class:`cgframework.BaseRuleset` subclass instance, or anything with the
    :class:`cgframework.Ruleset` protocol).

    Called once, by the core's :func:`cgframework.plugins.get_registry`, the first time any
    command or API call needs the list of rulesets. A ruleset name (or alias) already
    registered by another plugin is an error naming both plugins.
    """


@hookspec
def register_solvers(register: Callable[[Any], None]) -> None:
    """Register specialised solvers: call ``register(SolverSpec(...))`` for each.

    Called once when the registry is built. The dispatcher (``cgframework.solve`` and
    ``cgf solve --method auto``) runs the first registered solver whose ``rulesets`` (or
    ``conventions``) match and whose ``applies(ruleset, position)`` is true, else the core's
    generic solver. A solver marked ``generic=True`` is the reference for a convention the
    core has no generic solver for (e.g. cheating-robot rounds).
    """


@hookspec
def register_simplifications(register: Callable[[Any], None]) -> None:
    """Register value-preserving rewrites: call ``register(Simplification(...))`` for each.

    Called once when the registry is built. The generic solvers apply them in
    ``--method auto`` before looking a position up (never under ``--method generic``).
    Rewrites that preserve only the value are applied to whole positions, never inside sums;
    those that preserve equivalence are applied to every component.
    """


@hookspec
def register_families(register: Callable[[Any], None]) -> None:
    """Register named position families (``heaps``, ``segments``...): call
    ``register(Family(...))`` for each. Called once when the registry is built; ``cgf sweep``
    and the plugins' table commands map a solver over them.
    """


@hookspec
def register_commands(app: Any) -> None:
    """Add family-specific sub-commands to the ``cgf`` typer application
    (``app.add_typer(sub_app, name="pizza")``). Called once by ``cgframework.cli`` when the
    ``cgf`` command starts, after every plugin is loaded.
    """


@hookspec
def register_universes(register: Callable[[Any], None]) -> None:
    """Register value universes for ``cgf calc --universe NAME``: call
    ``register(Universe(...))`` for each. Called once when the registry is built; the core
    registers ``normal`` itself.
    """


@hookspec
def register_heap_engines(register: Callable[[Any], None]) -> None:
    """Register what a plugin knows about some heap rules: call
    ``register(HeapEngine(...))`` for each (:class:`cgframework.extensions.HeapEngine`).

    Called once when the registry is built. For a heap ruleset's rule (a
    :class:`cgframework.heaps.rules.HeapRuleset`), the core's table engine, ``cgf sequence``
    and ``cgf quotient`` ask each engine in registration order whether it serves the rule;
    the first that does lends its faster sequence engine, its periodicity theorem (periods
    then *proved*, not only observed) and its proof that a misère quotient is stable.
    """
