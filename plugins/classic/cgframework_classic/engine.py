"""The Grundy-sequence engine of take-and-break games: G(0), ..., G(N - 1) to N = 10^7.

A code's digits d0 d1 ... dt say what removing k tokens from a heap may leave (octal codes,
Winning Ways ch. 4; hexadecimal codes, CGSuite's TakeAndBreak): bit 1, nothing (the heap was
exactly k); bit 2, one non-empty heap; bit 4, two; bit 8, three. d0 (k = 0) only splits.
Grundy's game (a heap split into two unequal non-empty heaps) is a mode of its own.

Values are kept in an ``array('I')`` (4 bytes a heap: 40 MB for 10^7 heaps). Each value is the
mex of its options', computed by the compiled kernel ``_k_octal`` when it is built, else by the
pure-Python loop here (the reference the tests compare the kernel with). Costs per heap n:
O(t) for take moves, O(n) for each two-heap digit (the plain scan), O(n^2) for each three-heap
digit (hexadecimal bit 8: only for small n).

The sparse-space method (Winning Ways ch. 4, "Sparse space spells speed"; Gangolli & Plambeck
1989; Flammenkamp's tables) makes most two-heap games O(rare heaps) a heap: for a mask m call a
value v *rare* when popcount(v & m) is even, *common* when odd. Parity is linear under xor, so a
split a + b gives a common value exactly when one of G(a), G(b) is rare. When almost every heap
is common, every common option is found by pairing each of the few rare heaps with its partner,
which bounds the mex by c, the least common value not reached; only the rare values below c
then need looking for among the splits, a scan that stops once each is found (it runs to the
end only when the heap's value is rare, which is rare). The answer is exact for any mask; the
engine picks the mask with the fewest rare heaps from a histogram of the values (a Walsh-
Hadamard transform over the values' bit width), re-picks it as the sequence doubles, and uses
the plain scan when no mask makes rare heaps scarce (or with three-heap splits).
"""

from __future__ import annotations

import time
from array import array
from collections import Counter
from collections.abc import Callable, Iterable

import attrs

from cgframework.heaps.table import GrowingSequence
from cgframework.runtime.budget import SearchStopped
from cgframework.runtime.compiled import load_kernel

MAX_HEAPS = 10_000_001
"""The most values the engine computes, G(0..10^7): 40 MB."""

MASK_BITS = 16
"""Masks are searched over values below 2^MASK_BITS; wider values get the plain scan."""

KERNEL_DIGITS = 4096
"""The kernel takes at most this many digits of each kind; a longer code runs in Python."""

RARE_FRACTION = 4
"""The sparse method runs when at most 1 / RARE_FRACTION of the heaps are rare."""

CHUNK_WORK = 30_000_000
"""Steps (one option of one heap) per call of the kernel: about 0.1 s, so a ``--timeout`` is
seen that often (:meth:`GrundySequence._chunk`)."""

_kernel = load_kernel("cgframework_classic._k_octal", api_version=1)


def compiled() -> bool:
    """Whether the compiled kernel is in use (built, and not switched off)."""
    return _kernel is not None


@attrs.frozen
class TakeAndBreak:
    """The moves of a take-and-break game, as the engine needs them (digit indices k)."""

    whole: tuple[int, ...] = ()
    """A heap of exactly k may be removed (bit 1, k > 0)."""
    leave_one: tuple[int, ...] = ()
    """k tokens may be removed leaving one non-empty heap (bit 2, k > 0)."""
    split_two: tuple[int, ...] = ()
    """k tokens (k = 0: none) may be removed leaving two non-empty heaps (bit 4)."""
    split_three: tuple[int, ...] = ()
    """k tokens may be removed leaving three non-empty heaps (bit 8)."""
    unequal_split: bool = False
    """Grundy's game: a heap may be split into two unequal non-empty heaps."""

    @classmethod
    def of_digits(cls, digits: Iterable[tuple[int, int]]) -> TakeAndBreak:
        """From the non-zero digits ``(k, d_k)``; d_k's bits 1 and 2 mean nothing at k = 0."""
        whole, leave, two, three = [], [], [], []
        for k, d in digits:
            if not 0 <= d <= 15:
                raise ValueError(f"digit {d} at position {k} is not 0-15")
            if k > 0 and d & 1:
                whole.append(k)
            if k > 0 and d & 2:
                leave.append(k)
            if d & 4:
                two.append(k)
            if d & 8:
                three.append(k)
        return cls(tuple(whole), tuple(leave), tuple(two), tuple(three))

    @classmethod
    def grundys_game(cls) -> TakeAndBreak:
        return cls(unequal_split=True)

    @property
    def splits_in_two(self) -> bool:
        return bool(self.split_two) or self.unequal_split


def plain_value(rules: TakeAndBreak, g: array | list[int], n: int) -> int:
    """G(n) as the mex of every option's value (G(0..n-1) known): the reference."""
    seen = {0} if n in rules.whole else set()
    seen.update(g[n - k] for k in rules.leave_one if k < n)
    for k in rules.split_two:
        rest = n - k
        seen.update(g[a] ^ g[rest - a] for a in range(1, rest // 2 + 1))
    if rules.unequal_split:
        seen.update(g[a] ^ g[n - a] for a in range(1, (n + 1) // 2))
    for k in rules.split_three:
        rest = n - k
        for a in range(1, rest // 3 + 1):
            seen.update(g[a] ^ g[b] ^ g[rest - a - b] for b in range(a, (rest - a) // 2 + 1))
    value = 0
    while value in seen:
        value += 1
    return value


def _rare(value: int, mask: int) -> bool:
    return not (value & mask).bit_count() & 1


def sparse_value(
    rules: TakeAndBreak, g: array | list[int], n: int, rare: list[int], mask: int
) -> int:
    """G(n) by the sparse-space method (module docstring): ``rare`` lists, ascending, every
    heap 1..n-1 whose value is rare under ``mask`` (non-zero); no three-heap splits."""
    seen = {0} if n in rules.whole else set()
    seen.update(g[n - k] for k in rules.leave_one if k < n)
    sources = [(n - k, (n - k) // 2, False) for k in rules.split_two]
    if rules.unequal_split:
        sources.append((n, (n - 1) // 2, True))
    for rest, _, unequal in sources:
        for r in rare:
            if r >= rest:
                break
            if not (unequal and 2 * r == rest):
                seen.add(g[r] ^ g[rest - r])
    common = 0
    while _rare(common, mask) or common in seen:
        common += 1
    wanted = {v for v in range(common) if v not in seen}
    for rest, last, _ in sources:
        if not wanted:
            break
        for a in range(1, last + 1):
            v = g[a] ^ g[rest - a]
            if v in wanted:
                wanted.discard(v)
                if not wanted:
                    break
    return min(wanted) if wanted else common


def best_mask(counts: Counter[int]) -> tuple[int, int]:
    """The mask (over the values' bit width, at most :data:`MASK_BITS`) leaving the fewest
    rare values, and that number: rare(m) = (total + W(m)) / 2 where W is the Walsh-Hadamard
    transform of the values' histogram. (0, total) when the values are too wide."""
    total = sum(counts.values())
    width = max(counts, default=0).bit_length()
    if width == 0 or width > MASK_BITS:
        return 0, total
    size = 1 << width
    w = [0] * size
    for value, count in counts.items():
        w[value] = count
    step = 1
    while step < size:
        for base in range(0, size, 2 * step):
            for i in range(base, base + step):
                x, y = w[i], w[i + step]
                w[i], w[i + step] = x + y, x - y
        step *= 2
    mask = min(range(1, size), key=lambda m: (w[m], m))
    return mask, (total + w[mask]) // 2


class GrundySequence(GrowingSequence):
    """G(0), G(1), ... of one take-and-break game, extended on demand (:meth:`extend`).

    ``compiled=None`` uses the kernel when it is built, ``False`` never, ``True`` requires
    it; ``sparse=False`` forces the plain scan (both for the tests' comparisons)."""

    def __init__(
        self, rules: TakeAndBreak, *, compiled: bool | None = None, sparse: bool = True
    ) -> None:
        super().__init__()
        if compiled and _kernel is None:
            raise RuntimeError("the compiled kernel _k_octal is not built")
        self.rules = rules
        self.kernel = None if compiled is False else _kernel
        kinds = (rules.whole, rules.leave_one, rules.split_two, rules.split_three)
        if max(map(len, kinds)) > KERNEL_DIGITS:
            if compiled:
                raise ValueError(f"the kernel takes at most {KERNEL_DIGITS} digits of a kind")
            self.kernel = None
        self.sparse = sparse and not rules.split_three and rules.splits_in_two
        self.mask = 0
        self._counts: Counter[int] = Counter()
        self._rare: list[int] = []
        self._rare_count = 0
        self._mask_checked = (0, 0)

    def _fill(
        self,
        count: int,
        progress: Callable[[int], None] | None,
        deadline: float | None,
        stop: Callable[[GrundySequence], bool] | None,
    ) -> None:
        while self.size < count:
            if deadline is not None and time.monotonic() > deadline:
                raise SearchStopped("the sequence hit the time limit (--timeout)")
            self._choose_mask()
            start = self.size
            end = min(count, start + self._chunk(start))
            if self.kernel is not None:
                self._rare_count = self.kernel.extend(
                    self.values,
                    start,
                    end,
                    self.rules.whole,
                    self.rules.leave_one,
                    self.rules.split_two,
                    self.rules.split_three,
                    self.rules.unequal_split,
                    self.mask,
                )
            else:
                self._extend_python(start, end)
                self._rare_count = len(self._rare)
            self.size = end
            self._counts.update(self.values[start:end])
            if progress is not None:
                progress(self.size)
            if stop is not None and stop(self):
                return

    def _chunk(self, start: int) -> int:
        """Heaps per call: about the same work each, :data:`CHUNK_WORK` steps (a fraction of
        a second), so the deadline and progress are seen often whatever a heap costs; but
        at least as much work as the pass over the values (their maximum, the rare heaps)
        each call of the kernel starts with, so that pass never dominates. (A floor of 1/64
        of the heaps so far made a call of an O(N^2) or O(N^3) code last seconds: a
        ``--timeout`` overshot by that much.)"""
        per_heap = len(self.rules.whole) + len(self.rules.leave_one) + 1
        if self.mask:
            per_heap += 2 * self._rare_count + 64
        else:
            splits = len(self.rules.split_two) + self.rules.unequal_split
            per_heap += splits * start // 2 + len(self.rules.split_three) * start * start // 12
        if self.kernel is None:
            return max(1, min(300_000 // per_heap, max(256, start // 8)))
        return max(1, min(CHUNK_WORK // per_heap, max(256, start // 8)), start // per_heap)

    def _choose_mask(self) -> None:
        """Re-pick the mask when the values widened or doubled in number since last time."""
        if not self.sparse:
            return
        width = max(self._counts, default=0).bit_length()
        checked_size, checked_width = self._mask_checked
        if self.size < 64 or (width == checked_width and self.size < 2 * checked_size):
            return
        self._mask_checked = (self.size, width)
        counts = Counter(self._counts)
        counts[0] -= 1  # heap 0 is in no split
        mask, rare = best_mask(+counts)
        if rare * RARE_FRACTION > self.size:
            mask = 0
        if mask != self.mask:
            self.mask = mask
            self._rare_count = rare
            if self.kernel is None:  # the kernel lists the rare heaps itself
                g = self.values
                self._rare = [n for n in range(1, self.size) if mask and _rare(g[n], mask)]

    def _extend_python(self, start: int, end: int) -> None:
        g, rules, mask, rare = self.values, self.rules, self.mask, self._rare
        for n in range(start, end):
            if mask:
                value = sparse_value(rules, g, n, rare, mask)
                if _rare(value, mask):
                    rare.append(n)
            else:
                value = plain_value(rules, g, n)
            g[n] = value


def grundy_values(rules: TakeAndBreak, count: int, **options: object) -> array:
    """G(0..count-1) as an ``array('I')`` (``options`` as :class:`GrundySequence` takes)."""
    seq = GrundySequence(rules, **options)  # type: ignore[arg-type]
    seq.extend(count)
    return seq.values[: seq.size]
