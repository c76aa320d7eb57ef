"""The ``wak`` plugin of cgframework: Weighted Arc-Kayles and Arc-Kayles.

Public helpers for Python users (positions are :class:`WakGraph`; pass them to
``cgframework.solve("wak", graph)``).
"""

from cgframework_wak.certificate import certificate
from cgframework_wak.convert import to_arc_kayles
from cgframework_wak.families import unbounded, unbounded_arc_kayles
from cgframework_wak.graph import WakGraph, disjoint_union, make_graph
from cgframework_wak.parse import from_networkx, parse_graph, to_networkx
from cgframework_wak.reductions import reduce_graph

__all__ = [
    "WakGraph",
    "certificate",
    "disjoint_union",
    "from_networkx",
    "make_graph",
    "parse_graph",
    "reduce_graph",
    "to_arc_kayles",
    "to_networkx",
    "unbounded",
    "unbounded_arc_kayles",
]
