"""Census of guaranteed scoring games born by a given day, with atoms from a given set,
grouped into equivalence classes.

Day 0 is the purely atomic ``<^a|^b>`` with ``a <= b``. A game born by day n is equivalent
to one whose options are canonical forms born by day n-1 (options may be replaced by
equivalent ones, and reduction never adds atoms or birthdays, digest 004 P18), so day n is
enumerated over the classes of day n-1: each side is an atom or a non-empty set of classes.
For day 1 the day-0 games are all canonical, so the forms counted are all the forms
(4117 with atoms {-1, 0, 1}, in 77 classes: digest 004 Section 5). Classes are told apart by
their canonical forms (unique by Thm 45).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

import attrs

from cgframework_guaranteed.canonical import canonical
from cgframework_guaranteed.games import Score, ScoringGame, atomic, exact, game


class CensusTooLarge(ValueError):
    """The census would enumerate more forms than the limit allows."""


@attrs.frozen
class EquivalenceClass:
    """One class: its canonical form and how many enumerated forms fall in it."""

    canonical: ScoringGame
    forms: int


@attrs.frozen
class Census:
    day: int
    atoms: tuple[Score, ...]
    forms: int
    """Guaranteed forms enumerated on the last day (options canonical, see module doc)."""
    classes: tuple[EquivalenceClass, ...]
    per_day: tuple[int, ...]
    """Number of classes born by day 0, 1, ..., ``day``."""


def form_count(classes: int, atoms: int) -> int:
    """Forms to enumerate for one day: (atoms + non-empty subsets of classes) squared."""
    return (atoms + 2**classes - 1) ** 2


def census(
    day: int,
    atoms: Sequence[Score],
    *,
    limit: int = 5_000_000,
    progress: Callable[[int, int], None] | None = None,
) -> Census:
    """Every guaranteed game born by ``day`` with atoms in ``atoms``, up to equivalence.

    ``progress(done, total)`` is called as the last day's forms are classified. Raises
    :class:`CensusTooLarge` when a day would need more than ``limit`` forms."""
    if day < 0:
        raise ValueError("the day must be at least 0")
    scores = tuple(sorted({exact(a) for a in atoms}))
    if not scores:
        raise ValueError("give at least one atom")
    previous = [atomic(a, b) for a in scores for b in scores if a <= b]
    counts = {g: 1 for g in previous}
    per_day = [len(previous)]
    forms = len(previous)
    for d in range(1, day + 1):
        total = form_count(len(previous), len(scores))
        if total > limit:
            raise CensusTooLarge(
                f"day {d} needs {total:,} forms ({len(previous)} classes born by day {d - 1}, "
                f"{len(scores)} atoms); the limit is {limit:,}"
            )
        subsets = [list(c) for k in range(1, len(previous) + 1) for c in combinations(previous, k)]
        sides: list[list[ScoringGame] | Score] = [*scores, *subsets]
        counts = {}
        forms = 0
        done = 0
        for left in sides:
            for right in sides:
                g = game(left, right)
                done += 1
                if g.guaranteed:
                    forms += 1
                    c = canonical(g)
                    counts[c] = counts.get(c, 0) + 1
            if progress is not None and d == day:
                progress(done, total)
        previous = sorted(counts, key=_order)
        per_day.append(len(previous))
    classes = tuple(EquivalenceClass(c, counts[c]) for c in sorted(counts, key=_order))
    return Census(day, scores, forms, classes, tuple(per_day))


def _order(g: ScoringGame) -> tuple[int, int, str]:
    text = str(g)
    return (g.birthday, len(text), text)
