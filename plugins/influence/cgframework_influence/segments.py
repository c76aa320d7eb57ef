"""Sums of segments and alternating cycles (paper §4, L507-L829; digest §2.4-§2.6).

A segment S_m (Definition 16, L520-L534) is an alternating path whose Left vertices point
to their neighbours; it is known by its size and first colour (even sizes up to reversal:
one type; odd sizes C+ with Left ends, C- with Right ends). ``-S`` swaps the colours
(Cor. 15), so even segments and cycles are their own negatives. A Left move on position i
takes i-1..i+1 and any piece of one vertex left over (it is forced, Definition 7).
Cycles (Cor. 24, L825-L829): every move takes 3 vertices and leaves C+_{m-3}, so
Ls(cycle_m) = 3 + Rs(C+_{m-3}) (the paper prints 3 - Rs, L829: a sign error).
"""

from __future__ import annotations

from cgframework_influence.engine import Components, Move
from cgframework_influence.graph import InfluenceGraph, bits

OTHER = {"L": "R", "R": "L"}


def seg_key(m: int, first: str) -> tuple:
    return ("S", m, "L" if m % 2 == 0 else first)


class SegmentComponents(Components):
    """Segments ("S", m, first colour) and alternating cycles ("C", m). With
    ``closed_forms`` the two-segment sums of Lemma 23 are answered without search."""

    def __init__(self, closed_forms: bool = True) -> None:
        super().__init__()
        self.closed_forms = closed_forms

    def closed_form(self, state: tuple[int, ...]) -> int | None:
        """Lemma 23 (L741-L801), as Ls of a two-component state (Ls(G) = -Rs(-G)):
        point 3, S_2k + S_2k+2: Rs = -2 = -Ls (self-negative);
        point 4, S_2k + C+_2k+1: Rs = -1, so Ls(S_2k + C-_2k+1) = 1.
        (Points 1-2, H + (-H), are cancelled before; point 5 is only a bound.)"""
        if not self.closed_forms:
            return None
        a, b = (self.keys[c] for c in state)
        if a[0] != "S" or b[0] != "S":
            return None
        (ma, ta), (mb, tb) = sorted(((a[1], a[2]), (b[1], b[2])))
        if ma % 2 == 0 and mb == ma + 2:
            return 2
        if ma % 2 == 0 and mb == ma + 1 and tb == "R":
            return 1
        return None

    def segment(self, m: int, first: str) -> int:
        return self.intern(seg_key(m, first), m)

    def cycle(self, m: int) -> int:
        return self.intern(("C", m), m)

    def negate(self, cid: int) -> int:
        key = self.keys[cid]
        if key[0] == "C":
            return cid
        return self.segment(key[1], OTHER[key[2]])

    def _pieces(self, m: int, first: str, lo: int, hi: int) -> tuple[int, list[int]]:
        """Gain and ids after removing positions lo..hi of segment (m, first) by Left."""
        gain = hi - lo + 1
        ids = []
        if lo > 0:  # positions 0..lo-1, starting with `first`
            if lo == 1:
                gain += 1
            else:
                ids.append(self.segment(lo, first))
        if hi < m - 1:
            length = m - 1 - hi
            if length == 1:
                gain += 1
            else:
                start = first if (hi + 1) % 2 == 0 else OTHER[first]
                ids.append(self.segment(length, start))
        return gain, ids

    def left_moves(self, cid: int) -> list[Move]:
        key = self.keys[cid]
        out = set()
        if key[0] == "C":
            m = key[1]
            if m - 3 == 1:
                return [(m, ())]
            return [(3, (self.neg(self.segment(m - 3, "L")),))]
        m, first = key[1], key[2]
        for i in range(m):
            colour = first if i % 2 == 0 else OTHER[first]
            if colour != "L":
                continue
            if (i == 0 or i == m - 1) and m >= 4:
                continue  # Cor. 13: the end lies in Rmv of the move two steps in
            gain, ids = self._pieces(m, first, max(i - 1, 0), min(i + 1, m - 1))
            out.add((gain, tuple(sorted(self.neg(c) for c in ids))))
        return sorted(out)

    def recognise(self, g: InfluenceGraph, mask: int) -> int | None:
        """The id of the weak component ``mask`` of ``g`` if it is a segment (>= 2 vertices)
        or an alternating cycle, else None."""
        verts = list(bits(mask))
        m = len(verts)
        nbrs: dict[int, list[int]] = {v: [] for v in verts}
        count = 0
        for u, v in g.arcs:
            if mask >> u & 1:
                if g.colors[u] != "L" or g.colors[v] != "R":
                    return None
                nbrs[u].append(v)
                nbrs[v].append(u)
                count += 1
        if m < 2 or any(len(x) > 2 for x in nbrs.values()):
            return None
        if count == m:
            return self.cycle(m) if m >= 4 else None
        if count != m - 1:
            return None
        end = next(v for v in verts if len(nbrs[v]) == 1)
        return self.segment(m, g.colors[end])
