"""The exact WAK search behind ``--method auto``: decomposition, reductions, closed forms and a
certificate-keyed cache.

For each component (Observation 3, L63-L64): a proven closed form if its shape is known, else
reduce it to a canonical graph (Proposition 1, L118-L119), split again, and look the pieces up
by their exact isomorphism certificate; a miss is expanded by the mex rule. A labelled cache
in front of the certificate skips reductions and canonical labelling for components seen
verbatim. Graphs are integer-packed (fastgraph.py). The certificate cache is the solve's
transposition table, so the core's value store (``--store``) shares and resumes it; its keys
are the generic solver's (``("g", certificate)``).
"""

from __future__ import annotations

from cgframework import TranspositionTable
from cgframework.values import mex
from cgframework_wak import fastgraph as fg
from cgframework_wak.formulas import octal_007
from cgframework_wak.graph import WakGraph


class Search:
    """Grundy values of WAK graphs. ``reductions=False`` turns Proposition 1 off,
    ``certificates=False`` keys the cache by the labelled graph and ``closed_forms=False``
    skips the formulas (ablations for tests and benchmarks)."""

    def __init__(
        self,
        table: TranspositionTable | None = None,
        reductions: bool = True,
        certificates: bool = True,
        closed_forms: bool = True,
    ) -> None:
        self.closed_forms = closed_forms
        self.table = table if table is not None else TranspositionTable()
        self.reductions = reductions
        self.use_certificates = certificates
        self.labelled: dict[fg.FG, int] = {}
        self.certificates = 0

    def grundy(self, graph: WakGraph) -> int:
        """Nim-sum of the values of the graph's components."""
        total = 0
        for comp in fg.split(*fg.from_graph(graph)):
            total ^= self.packed(comp)
        return total

    def component(self, graph: WakGraph) -> int:
        """Value of a connected live component (as WakGraph.split gives)."""
        return self.grundy(graph)

    def packed(self, comp: fg.FG) -> int:
        """Value of a connected live component (labelled cache, then :meth:`_component`)."""
        value = self.labelled.get(comp)
        if value is None:
            value = self._component(comp)
            self.labelled[comp] = value
        return value

    def _component(self, comp: fg.FG) -> int:
        # Arc-Kayles paths before reducing: reductions turn paths into looped graphs.
        if self.closed_forms and fg.is_ak_path(comp):
            return octal_007(len(comp[0]))
        if not self.reductions:
            return self._lookup(comp)
        parts = fg.reduce_fg(comp)
        if len(parts) == 1 and parts[0] is comp:
            return self._lookup(comp)
        total = 0
        for part in parts:
            total ^= self.canonical(part)
        return total

    def canonical(self, part: fg.FG) -> int:
        """Value of a reduced (canonical) component: labelled cache, then certificate."""
        value = self.labelled.get(part)
        if value is None:
            value = self._lookup(part)
            self.labelled[part] = value
        return value

    def _lookup(self, comp: fg.FG) -> int:
        value = fg.closed_form(comp) if self.closed_forms else None
        if value is not None:
            return value
        if not self.use_certificates:
            return self.table.memo(("labelled", comp), lambda: self._expand(comp))
        self.certificates += 1
        key = ("g", fg.certificate(comp))
        return self.table.memo(key, lambda: self._expand(comp))

    def _expand(self, comp: fg.FG) -> int:
        """mex of the options' values. With reductions on, ``comp`` is canonical and its
        options are reduced incrementally (fastgraph.reduced_child_parts)."""
        seen = set()
        if self.reductions:
            value, moves = self.canonical, fg.reduced_child_parts(comp)
        else:
            value, moves = self.packed, fg.child_parts(comp)
        for parts in moves:
            total = 0
            for part in parts:
                total ^= value(part)
            seen.add(total)
        return mex(seen)
