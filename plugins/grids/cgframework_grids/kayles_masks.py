"""The core's vertex-mask component game (:mod:`cgframework.solvers.vertex_masks`) for a graph
of this plugin: the host's automorphisms (``graphs.automorphisms``) fold the keys when the
graph is not a grid strip."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cgframework.solvers.vertex_masks import KaylesMasks, as_strip
from cgframework_grids.graph_masks import AUTOMORPHISM_LIMIT
from cgframework_grids.graphs import TintedGraph, automorphisms


def kayles_masks(
    g: TintedGraph,
    edges: bool,
    alive: Sequence[int] | None = None,
    name: Callable[..., str] | None = None,
) -> KaylesMasks:
    """Node-Kayles (``edges`` False) or Arc-Kayles moves on the graph ``g``."""
    perms = () if as_strip(g.order, g.edges) else automorphisms(g, AUTOMORPHISM_LIMIT)[1:]
    extra = {} if name is None else {"name": name}
    return KaylesMasks(g.order, g.edges, edges, alive, automorphisms=perms, **extra)
