"""The same positions in the peers, cgt-py (Rust) and pycgt (pure Python), for the tests'
cross-checks and ``benchmarks/grids.py``.

``PEER_RULESETS`` says which peer ships which of our rulesets. ``peer_game(peer, ruleset,
text)`` builds the peer's position from our canonical position text and ``peer_dag`` turns
its value into a DAG of option lists (``cgframework.testing.to_dag``), which
``cgframework.testing.from_dag`` rebuilds as our ``CanonicalGame``: values are compared as
games, never as strings. The peers are imported only when called.

Letters: both peers write ``x`` for Left's stones and ``o`` for Right's, rows joined by
``|`` (pycgt's grid games want newlines), Toads and Frogs in lower case (``t``, ``f``).
Graphs: pycgt colours vertices and keeps them in the graph; cgt-py marks a vertex blue
(only Left may colour it) or red (only Right). Our tints (which player's earlier move
touched a vertex) map to a pendant vertex of that player's colour in pycgt, and to the
colour that may still be played there in cgt-py (Snort: the tinting player's; Col: the
other player's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cgframework.testing import Dag, to_dag

#: Which peer ships which of our rulesets.
PEER_RULESETS: dict[str, tuple[str, ...]] = {
    "pycgt": ("clobber", "cram", "toads-frogs", "snort", "col"),
    "cgt-py": ("konane", "fission", "amazons", "snort", "col"),
}


def peer_solver(peer: str, ruleset: str, text: str) -> Callable[[], Any]:
    """A function that computes the peer's value of our position ``text`` (built here, so
    that timing the returned call times the solve alone)."""
    if peer == "pycgt":
        return _pycgt(ruleset, text)
    if peer == "cgt-py":
        return _cgt_py(ruleset, text)
    raise ValueError(f"unknown peer {peer!r}")


def peer_dag(peer: str, value: Any) -> Dag:
    """A peer's value as a DAG of option lists."""
    if peer == "pycgt":  # a frozen dataclass of frozensets: it keys itself
        return to_dag(value, lambda g: (g.left, g.right), lambda g: g)
    # cgt-py's CanonicalForm is not hashable; its repr is its canonical text, unique per value
    return to_dag(value, lambda g: (g.left_options, g.right_options), repr)


def _graph_parts(text: str, ruleset: str) -> tuple[int, list[tuple[int, int]], str]:
    from cgframework_grids.graphs import parse_graph

    graph = parse_graph(text)
    return graph.order, list(graph.edges), graph.tints


def _pycgt(ruleset: str, text: str) -> Callable[[], Any]:
    if ruleset == "clobber":
        from pycgt.rulesets import clobber

        board = clobber.board(text)
        return lambda: clobber.value(board)
    if ruleset == "cram":
        from pycgt.rulesets import cram, grid

        position = grid.Position.parse(text.replace("|", "\n"))
        return lambda: grid.value(position, cram.CRAM)
    if ruleset == "toads-frogs":
        from pycgt.rulesets import toads_and_frogs

        word = text.lower()
        return lambda: toads_and_frogs.value(word)
    if ruleset in ("snort", "col"):
        from pycgt.rulesets import graphs

        order, edges, tints = _graph_parts(text, ruleset)
        left, right = set(), set()
        for v, tint in enumerate(tints):
            if tint in "LR":  # a coloured pendant vertex tints v
                (left if tint == "L" else right).add(order)
                edges.append((v, order))
                order += 1
        position = graphs.Colouring(
            graphs.Graph.of(order, edges), frozenset(left), frozenset(right)
        )
        rule = graphs.SNORT if ruleset == "snort" else graphs.COL
        return lambda: graphs.value(position, rule)
    raise ValueError(f"pycgt has no {ruleset}")


def _cgt_py(ruleset: str, text: str) -> Callable[[], Any]:
    import cgt_py

    if ruleset in ("konane", "fission", "amazons"):
        make = {"konane": cgt_py.Konane, "fission": cgt_py.Fission, "amazons": cgt_py.Amazons}
        return lambda: make[ruleset](text).canonical_form
    if ruleset in ("snort", "col"):
        order, edges, tints = _graph_parts(text, ruleset)
        own = "L" if ruleset == "snort" else "R"  # the tint whose vertex only Left may colour
        blue = [v for v, t in enumerate(tints) if t == own]
        red = [v for v, t in enumerate(tints) if t in "LR" and t != own]
        make = cgt_py.Snort if ruleset == "snort" else cgt_py.Col
        return lambda: make(order, edges, blue=blue, red=red).canonical_form
    raise ValueError(f"cgt-py has no {ruleset}")
