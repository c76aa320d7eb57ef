"""Helpers for plugin authors' tests (pytest), and for comparing values with other CGT
programs as games: a game tree is numbered as a DAG of option lists (:func:`to_dag`) and
rebuilt bottom-up with the core's ``game()`` (:func:`from_dag`), which canonicalises, so no
printer or parser sits between two values compared."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

from cgframework.cli.commands import main


def run_cli(capsys: Any, *args: str) -> tuple[int, str, str]:
    """Run ``cgf ARGS`` in-process under pytest's ``capsys``: (exit code, stdout, stderr)."""
    capsys.readouterr()
    try:
        main(list(args))
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


Dag = list[list[list[int]]]  # node i = [left option ids, right option ids]; root is last


def to_dag(
    root: Any,
    options: Callable[[Any], tuple[Iterable[Any], Iterable[Any]]],
    key: Callable[[Any], Hashable],
) -> Dag:
    """Number the distinct subgames of ``root`` (children before parents); ``options(g)``
    gives (Left's options, Right's options), ``key(g)`` tells equal subgames apart."""
    ids: dict[Hashable, int] = {}
    nodes: Dag = []
    # iterative post-order, so deep games cannot hit the recursion limit
    stack: list[tuple[Any, Hashable, list[Any] | None]] = [(root, key(root), None)]
    while stack:
        node, k, kids = stack.pop()
        if k in ids:
            continue
        if kids is None:
            lefts, rights = options(node)
            kids = [list(lefts), list(rights)]
            stack.append((node, k, kids))
            for child in kids[0] + kids[1]:
                ck = key(child)
                if ck not in ids:
                    stack.append((child, ck, None))
            continue
        ids[k] = len(nodes)
        nodes.append([[ids[key(c)] for c in kids[0]], [ids[key(c)] for c in kids[1]]])
    return nodes


def from_dag(nodes: Dag) -> Any:
    """The core's canonical value of a DAG made by :func:`to_dag`."""
    from cgframework.values import game

    built: list[Any] = []
    for lefts, rights in nodes:
        built.append(game([built[i] for i in lefts], [built[i] for i in rights]))
    return built[-1]


def core_dag(value: Any) -> Dag:
    """Our own canonical value as a DAG (``CanonicalGame`` has ``left``/``right`` tuples)."""
    return to_dag(value, lambda g: (g.left, g.right), lambda g: g.id)
