"""Specialised solvers of the classic plugin, each checked against the generic Grundy solver."""

from __future__ import annotations

import threading
import time

from cgframework import Solution, SolveContext, finish_impartial
from cgframework.runtime.budget import LimitExceeded, SearchStopped
from cgframework.values import nim_sum
from cgframework_classic import engine
from cgframework_classic.engine import MAX_HEAPS, GrundySequence, TakeAndBreak
from cgframework_classic.heaps import CodedHeaps, Heaps, OctalCode, heap_move
from cgframework_classic.periodicity import Period, find_period


def _heaps_of(position) -> list[Heaps]:
    return list(getattr(position, "parts", (position,)))


def solve_nim(ruleset, position, ctx: SolveContext) -> Solution:
    """Bouton (1901): the value of Nim is the nim-sum s of the heaps; the winning moves take
    a heap n to n xor s whenever that is smaller. O(number of heaps), any heap size."""
    parts = _heaps_of(position)
    g = nim_sum(*(n for heaps in parts for n in heaps.sizes))
    best = []
    if g:
        for index, heaps in enumerate(parts, 1):
            seen = set()
            for n in heaps.sizes:
                target = n ^ g
                if n in seen or target >= n:
                    continue
                seen.add(n)
                text = heap_move(n, (target,) if target else ())
                best.append(text if len(parts) == 1 else f"{index}:{text}")
    return finish_impartial(ruleset, position, ctx, g, best, "nim-sum")


DIRECT_LIMIT = 4096
"""From heaps this large, ``best_moves`` lists one split per distinct pair of values."""

PERIOD_SEARCH = 1 << 17 if engine.compiled() else 1 << 12
"""For a heap past :data:`~cgframework_classic.engine.MAX_HEAPS`, the sequence is computed to
this many heaps (doubling, checking each time) looking for a proven period (fewer on the
pure-Python path, O(n^2) for a code without sparse space)."""


class OctalTable:
    """A Grundy sequence per code (the engine's, extended on demand) and its proven period
    once found, kept for the process: any heap of a periodic code is then O(1)."""

    def __init__(self) -> None:
        self.sequences: dict[tuple[int, ...], GrundySequence] = {}
        self.periods: dict[tuple[int, ...], Period | None] = {}
        self._lock = threading.RLock()  # (threads of one process share the table)

    def sequence(self, code: OctalCode) -> GrundySequence:
        key = code.digits
        found = self.sequences.get(key)
        if found is None:
            with self._lock:
                found = self.sequences.get(key)
                if found is None:
                    rules = TakeAndBreak.of_digits(code.nonzero())
                    found = self.sequences[key] = GrundySequence(rules)
        return found

    def period(self, code: OctalCode) -> Period | None:
        """The proven period, or None (not proven by the values computed so far)."""
        return self.periods.get(code.digits)

    def _extend(self, code: OctalCode, count: int, deadline: float | None = None) -> None:
        """Compute the sequence to ``count`` values, doubling, and look for the period at
        each doubling (the periodicity theorem for moves leaving up to ``heaps_left``
        heaps: :mod:`~cgframework_classic.periodicity`); stop early once it is proven.
        Past ``deadline`` (``time.monotonic``), :class:`SearchStopped` (what was computed
        is kept)."""
        seq = self.sequence(code)
        with self._lock:
            while seq.size < count and self.periods.get(code.digits) is None:
                seq.extend(min(count, max(64, 2 * seq.size)), deadline=deadline)
                found = find_period(seq.computed, code.length, code.heaps_left)
                self.periods[code.digits] = found

    def can_value(self, code: OctalCode, n: int, deadline: float | None = None) -> bool:
        if n < MAX_HEAPS or self.period(code) is not None:
            return True
        self._extend(code, PERIOD_SEARCH, deadline)
        return self.period(code) is not None

    def grundy(self, code: OctalCode, n: int, deadline: float | None = None) -> int:
        seq = self.sequence(code)
        if n < seq.size:
            return seq[n]
        period = self.period(code)
        if period is None:
            self._extend(code, n + 1 if n < MAX_HEAPS else PERIOD_SEARCH, deadline)
            if n < seq.size:
                return seq[n]
            period = self.period(code)
        if period is None:
            raise ValueError(f"octal {code}: no period proven, heap {n} too large")
        return seq[period.preperiod + (n - period.preperiod) % period.period]


TABLE = OctalTable()


def _deadline(ctx: SolveContext) -> float | None:
    """The solve's deadline (``time.monotonic``; ``None``: none), for the sequence engine to
    stop at: a long extension is many calls of the kernel, each a fraction of a second."""
    budget = ctx.table.budget
    return None if budget is None else budget.deadline


def _timed_out(ctx: SolveContext) -> SearchStopped:
    """The solve's own ``--timeout`` error for the engine's stop at its deadline."""
    budget = ctx.table.budget
    return budget.timed_out() if budget is not None else SearchStopped("the search timed out")


CHECK_MOVES = 1 << 14
"""Moves tried between two looks at the clock when a solver lists a big heap's winning
moves (millions of splits: seconds)."""


def _check(deadline: float | None, ctx: SolveContext) -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise _timed_out(ctx)


def _coded_heaps(position) -> list[CodedHeaps]:
    return _heaps_of(position)  # type: ignore[return-value]


def octal_applies(ruleset, position) -> bool:
    """Heaps of an octal code (a heap too large for the engine, of a code without a proven
    period, is refused by :func:`solve_octal` as a limit: no other solver could do it)."""
    return all(isinstance(h, CodedHeaps) for h in _heaps_of(position))


def _candidate_results(code: OctalCode, n: int):
    """Moves from a heap of n: all of them for small heaps; for larger ones, one split per
    distinct pair of values (a heap of a periodic code past one pre-period plus one period
    repeats the values of smaller ones, so those splits are not even looked at)."""
    if n < DIRECT_LIMIT:
        return code.results(n)
    period = TABLE.period(code)
    limit = n if period is None else period.preperiod + period.period
    return _distinct_splits(code, n, limit)


def _distinct_splits(code: OctalCode, n: int, limit: int):
    seen = set()
    for k, left in code.results_limited(n, limit):
        if len(left) < 2:
            yield k, left
            continue
        pair = (k, *sorted(TABLE.grundy(code, m) for m in left))
        if pair not in seen:
            seen.add(pair)
            yield k, left


def solve_octal(ruleset, position, ctx: SolveContext) -> Solution:
    """Grundy values of heaps from the code's Grundy sequence (the sequence engine, to 10^7
    heaps), and for heaps past the proven pre-period from the period (octal periodicity
    theorem, proven as the sequence grows), so any heap size is O(1) once the period is
    proven. For heaps of 4096 or more, ``best_moves`` lists one split per distinct pair of
    values rather than every split."""

    def grundy(heaps: list[CodedHeaps]) -> int:
        return nim_sum(*(TABLE.grundy(h.code, n, deadline) for h in heaps for n in h.sizes))

    deadline = _deadline(ctx)
    parts = _coded_heaps(position)
    try:
        for part in parts:
            for n in part.sizes:
                if not TABLE.can_value(part.code, n, deadline):
                    raise LimitExceeded(
                        f"octal {part.code}: no period proven by {PERIOD_SEARCH} heaps, and "
                        f"heap {n} is past the {MAX_HEAPS - 1} the sequence engine computes"
                    )
        g = grundy(parts)
    except SearchStopped:
        raise _timed_out(ctx) from None
    best: list[str] = []
    if g:
        for index, part in enumerate(parts, 1):
            code = part.code
            seen = set()
            for n in part.sizes:
                if n in seen:
                    continue
                seen.add(n)
                target = g ^ TABLE.grundy(code, n)
                for tried, (_, left) in enumerate(_candidate_results(code, n)):
                    if tried % CHECK_MOVES == 0:
                        _check(deadline, ctx)
                    if nim_sum(*(TABLE.grundy(code, m) for m in left)) == target:
                        text = heap_move(n, left)
                        best.append(text if len(parts) == 1 else f"{index}:{text}")
    return finish_impartial(ruleset, position, ctx, g, best, "periodic-octal")


GRUNDYS_GAME = GrundySequence(TakeAndBreak.grundys_game())
"""Grundy's game's sequence, extended on demand (no period is known: every heap to 10^7 is
computed, O(n) a heap with the sparse-space method)."""


def solve_grundys_game(ruleset, position, ctx: SolveContext) -> Solution:
    """Grundy's game from its Grundy sequence (the sequence engine): the nim-sum of the heaps'
    values; the winning moves split a heap n into a + b (a < b) with G(a) ^ G(b) equal to
    G(n) xor the total. Heaps up to 10^7."""
    parts = _heaps_of(position)
    sizes = [n for heaps in parts for n in heaps.sizes]
    top = max(sizes, default=0)
    if top >= MAX_HEAPS:
        raise LimitExceeded(
            f"grundys-game: heap {top} is past the {MAX_HEAPS - 1} the sequence engine computes"
        )
    deadline = _deadline(ctx)
    try:
        GRUNDYS_GAME.extend(max(top + 1, GRUNDYS_GAME.size), deadline=deadline)
    except SearchStopped:
        raise _timed_out(ctx) from None
    g = GRUNDYS_GAME.values  # (no view: another thread may grow it meanwhile)
    total = nim_sum(*(g[n] for n in sizes))
    best: list[str] = []
    if total:
        for index, heaps in enumerate(parts, 1):
            seen = set()
            for n in heaps.sizes:
                if n in seen:
                    continue
                seen.add(n)
                target = total ^ g[n]
                for a in range(1, (n + 1) // 2):
                    if a % CHECK_MOVES == 0:
                        _check(deadline, ctx)
                    if g[a] ^ g[n - a] == target:
                        text = heap_move(n, (a, n - a))
                        best.append(text if len(parts) == 1 else f"{index}:{text}")
    return finish_impartial(ruleset, position, ctx, total, best, "grundy-sequence")
