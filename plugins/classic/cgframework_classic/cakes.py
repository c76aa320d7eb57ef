"""Cake games (Winning Ways ch. 2; CGSuite's ``GenCutcake``): a position is a set of
rectangular cakes of ``rows x columns`` unit squares. Left works on the columns of one cake,
Right on its rows, each by a heap rule applied to that count; the cakes a move leaves are
independent components.

- **Cutcake**: Left cuts a cake along a vertical line into two (columns a + b), Right along a
  horizontal line (rows a + b). Winning Ways ch. 2 ("Cutcake").
- **Maundy Cake**: a player cuts a cake into k >= 2 equal pieces (Left: k pieces of
  columns / k columns each; Right likewise with rows). Winning Ways ch. 2 ("Maundy Cake").
- **Eatcake**: Left eats one whole column, which may leave two cakes; Right eats a row.
  CGSuite's ``Eatcake`` (``GenCutcake`` with the heap rule octal 0.7 for both players).

The players' rules are the same heap rule on the other axis, so transposing every cake swaps
the players and negates the value (``negative``); it is the only symmetry used (a cake
``m x n`` is *not* worth what ``n x m`` is: it is worth minus that).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from cgframework import BaseRuleset, Convention, Move, Player

MAX_SIDE = 10**6
"""Longest side read: a cake's move list is linear in its side (a 10^6-wide Cutcake has
500000 cuts), so larger cakes could not even be listed."""

Piece = tuple[int, int]  # (rows, columns)


@attrs.frozen
class Cakes:
    """The cakes, each ``(rows, columns)``, in the order written."""

    pieces: tuple[Piece, ...]


def parse_cakes(text: str) -> Cakes:
    """``RxC`` cakes joined by commas (``3x4``, ``2x5,1x3``); ``0`` is no cake at all."""
    text = text.strip()
    if text == "0":
        return Cakes(())
    pieces = []
    for token in text.split(","):
        token = token.strip()
        rows, x, cols = token.lower().partition("x")
        rows, cols = rows.strip(), cols.strip()
        if not x or not all(s.isascii() and s.isdigit() for s in (rows, cols)):
            raise ValueError(f"cake {token[:40]!r} is not ROWSxCOLUMNS such as 3x4")
        r, c = int(rows), int(cols)
        if not r or not c:
            raise ValueError(f"cake {token!r} has no squares (use 0 for no cake)")
        if max(r, c) > MAX_SIDE:
            raise ValueError(f"cake {token[:40]!r}: a side over {MAX_SIDE} is not read")
        pieces.append((r, c))
    return Cakes(tuple(pieces))


def format_cakes(position: Cakes) -> str:
    return ",".join(f"{r}x{c}" for r, c in position.pieces) or "0"


def cake_move(piece: Piece, left: Sequence[Piece]) -> str:
    """``3x4->3x1+3x3``: the cake and what the move leaves of it (``0``: nothing); k >= 3
    equal pieces are written ``k*RxC`` (a Maundy cut into 1000 strips stays short)."""
    return counted_move(piece, Counter(left))


def counted_move(piece: Piece, left: Mapping[Piece, int]) -> str:
    """:func:`cake_move` from the pieces left and how many of each (in the order cut)."""
    if len(left) == 1 and (count := next(iter(left.values()))) >= 3:
        ((r, c),) = left
        shown = f"{count}*{r}x{c}"
    else:
        shown = "+".join(f"{r}x{c}" for (r, c), k in left.items() for _ in range(k)) or "0"
    return f"{piece[0]}x{piece[1]}->{shown}"


class CakeRuleset(BaseRuleset):
    """A cake game: ``splits(n)`` lists what one move leaves of a count n (columns for Left,
    rows for Right), as tuples of counts."""

    convention = Convention.NORMAL
    impartial = False
    family = "classic"

    def splits(self, n: int) -> Iterator[tuple[int, ...]]:
        raise NotImplementedError

    def cut_sizes(self, n: int) -> Iterator[dict[int, int]]:
        """:meth:`splits` as counts: each move's sizes left -> how many of each."""
        return (Counter(split) for split in self.splits(n))

    def parse(self, text: str) -> Cakes:
        return parse_cakes(text)

    def format(self, position: Cakes) -> str:
        return format_cakes(position)

    def options(self, position: Cakes, player: Player) -> Iterator[Move]:
        pieces = position.pieces
        seen = set()
        for i, (r, c) in enumerate(pieces):
            if (r, c) in seen:
                continue  # equal cakes give equal moves
            seen.add((r, c))
            if player is Player.LEFT:
                results = [tuple((r, b) for b in left) for left in self.splits(c)]
            else:
                results = [tuple((a, c) for a in left) for left in self.splits(r)]
            for left in results:
                after = pieces[:i] + left + pieces[i + 1 :]
                yield Move(Cakes(after), cake_move((r, c), left))

    def components(self, position: Cakes) -> Sequence[Cakes]:
        return [Cakes((p,)) for p in position.pieces if not self.dead(p)]

    def dead(self, piece: Piece) -> bool:
        """True for a cake neither player can move on (worth 0, dropped from sums)."""
        return not any(self.splits(piece[0])) and not any(self.splits(piece[1]))

    def is_empty(self, position: Cakes) -> bool:
        return all(self.dead(p) for p in position.pieces)

    def canonical_key(self, position: Cakes) -> Hashable:
        return (self.name, tuple(sorted(p for p in position.pieces if not self.dead(p))))

    @staticmethod
    def negative(position: Cakes) -> Cakes:
        """Every cake transposed: the players swap roles, so the value is negated."""
        return Cakes(tuple((c, r) for r, c in position.pieces))

    def draw(self, position: Cakes, marks: Mapping[Hashable, Any] | None = None) -> str:
        """The cakes side by side, scored into unit squares (``marks`` are not used)."""
        from cgframework_classic.pictures import cakes_svg

        return cakes_svg(position.pieces)


class Cutcake(CakeRuleset):
    """Cutcake (Winning Ways ch. 2): Left cuts vertically, Right horizontally."""

    name = "cutcake"
    syntax = "cakes ROWSxCOLUMNS, e.g. 3x4 or 2x5,1x3; Left cuts vertically (columns)"

    def splits(self, n: int) -> Iterator[tuple[int, ...]]:
        return ((a, n - a) for a in range(1, n // 2 + 1))

    def examples(self) -> list[str]:
        return ["3x5", "4x4,1x3", "2x9"]


class MaundyCake(CakeRuleset):
    """Maundy Cake (Winning Ways ch. 2): cut a cake into k >= 2 equal pieces, Left
    vertically (its columns), Right horizontally (its rows)."""

    name = "maundy-cake"
    aliases = ("maundycake",)
    syntax = "cakes ROWSxCOLUMNS, e.g. 5x6 or 3x4,2x2; Left cuts vertically into equal pieces"

    def splits(self, n: int) -> Iterator[tuple[int, ...]]:
        return ((n // k,) * k for k in divisors(n) if k > 1)

    def cut_sizes(self, n: int) -> Iterator[dict[int, int]]:
        return ({n // k: k} for k in divisors(n) if k > 1)

    def dead(self, piece: Piece) -> bool:
        return piece == (1, 1)

    def examples(self) -> list[str]:
        return ["5x6", "3x4,2x2", "2x12"]


class Eatcake(CakeRuleset):
    """Eatcake (CGSuite's ``Eatcake``): Left eats a whole column, Right a whole row; eating
    an inner one leaves two cakes."""

    name = "eatcake"
    syntax = "cakes ROWSxCOLUMNS, e.g. 3x4 or 2x5,1x3; Left eats a column, Right a row"

    def splits(self, n: int) -> Iterator[tuple[int, ...]]:
        if n == 1:
            yield ()
            return
        yield (n - 1,)
        for a in range(1, (n - 1) // 2 + 1):
            yield (a, n - 1 - a)

    def dead(self, piece: Piece) -> bool:
        return False

    def examples(self) -> list[str]:
        return ["3x4", "2x3,3x2", "2x5"]


# ---- closed forms ------------------------------------------------------------------------


def cutcake_value(rows: int, cols: int) -> int:
    """The value of a ``rows x cols`` Cutcake (Winning Ways ch. 2, the Cutcake table): with
    2^i <= rows < 2^(i+1), Left's strips are worth floor(cols / 2^i) - 1 moves, and the same
    for Right with the axes swapped; at most one of the two is non-zero."""
    left = (cols >> (rows.bit_length() - 1)) - 1
    right = (rows >> (cols.bit_length() - 1)) - 1
    return max(left, 0) - max(right, 0)


def maundy_moves(n: int) -> int:
    """The number of moves a player gets from a strip of n on its own axis in Maundy Cake:
    a(1) = 0, a(n) = p a(n/p) + 1 for the largest prime p dividing n (Winning Ways ch. 2; OEIS
    A006022 states it and its equivalent forms). Trial division, n <= 10^6 here."""
    total, multiplier = 0, 1
    for p in reversed(prime_factors(n)):
        total += multiplier
        multiplier *= p
    return total


def prime_factors(n: int) -> list[int]:
    """The prime factors of n with repetition, ascending (trial division)."""
    out, p = [], 2
    while p * p <= n:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1 if p == 2 else 2
    if n > 1:
        out.append(n)
    return out


def maundy_value(rows: int, cols: int) -> int:
    """The value of a ``rows x cols`` Maundy Cake: with Omega(n) the number of prime factors
    of n (with repetition) and n|j what is left of n once its j smallest prime factors are
    divided out, the value is a(cols|Omega(rows)) - a(rows|Omega(cols)), a = :func:`maundy_moves`
    (at most one term is non-zero). The 1 x n case is Winning Ways ch. 2 (OEIS A006022); the
    two-dimensional form is checked against the brute force on every cake to 30 x 30 in the
    tests (``test_cakes.py``), not taken from a source."""
    row_primes, col_primes = prime_factors(rows), prime_factors(cols)
    return maundy_moves(_without_smallest(col_primes, len(row_primes))) - maundy_moves(
        _without_smallest(row_primes, len(col_primes))
    )


def divisors(n: int) -> list[int]:
    """The divisors of n, ascending (from its prime factors)."""
    out = [1]
    for p in sorted(set(factors := prime_factors(n))):
        power, more = 1, []
        for _ in range(factors.count(p)):
            power *= p
            more += [d * power for d in out]
        out += more
    return sorted(out)


def _without_smallest(primes: list[int], count: int) -> int:
    """The product of ``primes`` (ascending) less the first ``count`` of them."""
    out = 1
    for p in primes[count:]:
        out *= p
    return out
