"""Concatenations of lists, stacks and two-ended stacks: the value and *every* optimal move
in O(n log n) (Brown & Brown Thm 2.11 with (1.3)-(1.4), L284-L352).

The board is <S> + ev(x) with S the slice weights of all parts (tes(a) ~ <s>, st(a) ~ <s> +
ev(x)); its value is the alternating sum of S sorted decreasingly, plus x for an odd rest and
minus x for an even one. A move changes one part only: a list entry leaves S, an end of a
stack or two-ended stack re-partitions that part alone (O(its length)). The alternating sum
of the changed multiset comes from prefix sums of the sorted S in O(changes * log |S|):
between two changed ranks the old elements keep their order and only their sign can flip.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction

import attrs

from cgframework_pizza.chains import Part
from cgframework_pizza.slices import st_decomposition, tes_slice_weights, tes_weights_and_ends


@attrs.frozen
class OpenedPart:
    """One opened part (``kind`` ``list``, ``st`` or ``tes``, see ``chains.Part``) with its
    slice weights and ev-weight; a list's slice weights are its entries."""

    part: Part
    weights: tuple
    x: Fraction
    after_ends: tuple = ()  # a tes: the slice weights without its left end, without its right


def part_weights(kind: str, seq: Sequence[Fraction]) -> tuple[tuple[Fraction, ...], Fraction]:
    """Slice weights and ev-weight of ``seq`` played as ``kind`` (Thm 2.11)."""
    if not seq:
        return (), 0
    if kind == "list":
        return tuple(seq), 0
    if kind == "tes" or len(seq) == 1:
        return tuple(tes_slice_weights(seq)), 0
    d = st_decomposition(seq)
    return tuple(s.weight for s in d.slices), d.x


def opened_parts(parts: Sequence[Part]) -> list[OpenedPart] | None:
    """Every part with its slice weights, or None if one is unopened."""
    if any(p.unopened for p in parts):
        return None
    opened = []
    for p in parts:
        if p.kind == "tes":
            whole, left, right = tes_weights_and_ends(p.weights)
            opened.append(OpenedPart(p, tuple(whole), 0, (tuple(left), tuple(right))))
        else:
            opened.append(OpenedPart(p, *part_weights(p.kind, p.weights)))
    return opened


class SortedAlternating:
    """A multiset S, sorted decreasingly, with prefix alternating sums, so the alternating
    sum of S minus some elements plus others costs O(changes * log |S|)."""

    def __init__(self, values: Sequence[Fraction]) -> None:
        self.desc = sorted(values, reverse=True)
        self.neg = [-v for v in self.desc]  # ascending, for bisect
        prefix = [0]
        for i, v in enumerate(self.desc):
            prefix.append(prefix[-1] + (v if i % 2 == 0 else -v))
        self.prefix = prefix

    def __len__(self) -> int:
        return len(self.desc)

    def alternating_after(self, removed: Sequence[Fraction], added: Sequence[Fraction]) -> Fraction:
        """Alternating sum of sorted(S - removed + added), decreasing; ``removed`` must be
        a sub-multiset of S."""
        events: list[tuple[int, int, Fraction]] = []  # (rank, 0 insert / 1 delete, value)
        for value, count in Counter(removed).items():
            first = bisect_left(self.neg, -value)
            events += [(first + j, 1, value) for j in range(count)]
        for value in added:
            events.append((bisect_right(self.neg, -value), 0, value))
        events.sort(key=lambda e: (e[0], e[1], -e[2]))  # inserts at one rank: decreasing
        total = 0
        cur = shift = 0
        for rank, kind, value in events:
            total += self._segment(cur, rank, shift)
            cur = rank
            if kind == 0:
                total += value if (rank + shift) % 2 == 0 else -value
                shift += 1
            else:
                cur = rank + 1
                shift -= 1
        return total + self._segment(cur, len(self.desc), shift)

    def _segment(self, start: int, stop: int, shift: int) -> Fraction:
        if stop <= start:
            return 0
        part = self.prefix[stop] - self.prefix[start]
        return part if shift % 2 == 0 else -part


def every_move_outcome(parts: list[OpenedPart]) -> Iterator[tuple[int, Fraction]]:
    """(vertex, outcome of taking it) for every legal move, and first the board's value
    under the key -1."""
    all_weights = [w for p in parts for w in p.weights]
    sums = SortedAlternating(all_weights)
    x = sum(p.x for p in parts)
    size = len(sums)
    yield -1, sums.alternating_after((), ()) + (x if size % 2 else -x)
    even_x = x if (size - 1) % 2 else -x  # one list entry fewer
    for opened in parts:
        part = opened.part
        if part.kind == "list":
            outcome: dict = {}
            for v, w in zip(part.vertices, part.weights, strict=True):
                if w not in outcome:
                    outcome[w] = w - (sums.alternating_after((w,), ()) + even_x)
                yield v, outcome[w]
            continue
        ends = (0,) if part.kind == "st" else (0, len(part.weights) - 1)
        for end in ends:
            # what is left of a tes is a tes, of a stack a stack (its next element on top)
            if opened.after_ends:
                weights, new_x = opened.after_ends[0 if end == 0 else 1], 0
            else:
                rest = part.weights[1:] if end == 0 else part.weights[:-1]
                weights, new_x = part_weights(part.kind, rest)
            child_size = size - len(opened.weights) + len(weights)
            core = sums.alternating_after(opened.weights, weights)
            child_x = x - opened.x + new_x
            child = core + (child_x if child_size % 2 else -child_x)
            yield part.vertices[end], part.weights[end] - child
