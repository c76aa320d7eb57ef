"""Specialised solvers of the classic plugin, each checked against the generic Grundy solver."""

from __future__ import annotations

from cgframework import Solution, SolveContext, finish_impartial
from cgframework.values import nim_sum
from cgframework_classic.heaps import CodedHeaps, Heaps, OctalCode, heap_move
from cgframework_classic.periodicity import Period, grundy_sequence, proven_period


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
"""Heaps below this are valued by extending the Grundy sequence (O(n^2) mex recursion);
larger heaps need the code's period, proven from at most this many values."""


class OctalTable:
    """A Grundy sequence per code, extended on demand, and its proven period if known."""

    def __init__(self) -> None:
        self.sequences: dict[tuple[int, ...], list[int]] = {}
        self.periods: dict[tuple[int, ...], Period | None] = {}

    def period(self, code: OctalCode) -> Period | None:
        if code.digits not in self.periods:
            if code.digits[0] != 0:
                self.periods[code.digits] = None  # theorem stated for codes 0.d1d2...
            else:
                seq, found = proven_period(code, limit=DIRECT_LIMIT)
                self.sequences[code.digits] = seq
                self.periods[code.digits] = found
        return self.periods[code.digits]

    def can_value(self, code: OctalCode, n: int) -> bool:
        return n < DIRECT_LIMIT or self.period(code) is not None

    def grundy(self, code: OctalCode, n: int) -> int:
        seq = self.sequences.setdefault(code.digits, [])
        if n < len(seq):
            return seq[n]
        if n < DIRECT_LIMIT:
            return grundy_sequence(code, n + 1, seq)[n]
        period = self.period(code)
        if period is None:
            raise ValueError(f"octal {code}: no period proven, heap {n} too large")
        seq = self.sequences[code.digits]
        return seq[period.preperiod + (n - period.preperiod) % period.period]


TABLE = OctalTable()


def _coded_heaps(position) -> list[CodedHeaps]:
    return _heaps_of(position)  # type: ignore[return-value]


def octal_applies(ruleset, position) -> bool:
    """Heaps of an octal code, each small or of a code whose period is proven."""
    parts = _heaps_of(position)
    return all(isinstance(h, CodedHeaps) for h in parts) and all(
        TABLE.can_value(h.code, n) for h in parts for n in h.sizes
    )


def _candidate_results(code: OctalCode, n: int):
    """Moves from a heap of n: all of them for small heaps; for huge heaps of a periodic
    game, every move except splits (a, rest - a) with a beyond one pre-period plus one
    period, which repeat the values of smaller a (both parts are then in the periodic
    range)."""
    period = TABLE.period(code) if n >= DIRECT_LIMIT else None
    if period is None:
        return code.results(n)
    return code.results_limited(n, period.preperiod + period.period)


def solve_octal(ruleset, position, ctx: SolveContext) -> Solution:
    """Grundy values of heaps from the code's Grundy sequence (computed once, O(n^2) mex
    recursion), and for heaps past the proven pre-period from the period (octal periodicity
    theorem), so any heap size is O(1) once the period is proven. For heaps of 4096 or more,
    ``best_moves`` lists one split per distinct pair of values rather than every split."""

    def grundy(heaps: list[CodedHeaps]) -> int:
        return nim_sum(*(TABLE.grundy(h.code, n) for h in heaps for n in h.sizes))

    parts = _coded_heaps(position)
    g = grundy(parts)
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
                for _, left in _candidate_results(code, n):
                    if nim_sum(*(TABLE.grundy(code, m) for m in left)) == target:
                        text = heap_move(n, left)
                        best.append(text if len(parts) == 1 else f"{index}:{text}")
    return finish_impartial(ruleset, position, ctx, g, best, "periodic-octal")
