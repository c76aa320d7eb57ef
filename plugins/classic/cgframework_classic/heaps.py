"""Heap games: Nim, subtraction games, octal and hexadecimal games, Grundy's game.

A position is a tuple of heap sizes; each heap is an independent component. Octal codes
follow Guy & Smith (1956) and Winning Ways ch. 4: in ``0.d1d2d3...``, digit d_k says how k
tokens may be removed from a heap: bit 1, when they are the whole heap; bit 2, leaving one
non-empty heap; bit 4, leaving two non-empty heaps. The digit before the point (d0) allows,
with bit 4, splitting a heap in two without removing anything. A finite subtraction set S is
the octal game with d_k = 3 for k in S. Hexadecimal codes (digits 0-9, A-F; Howse & Nowakowski
2004) add bit 8: remove k tokens and leave three non-empty heaps.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

import attrs

from cgframework import BaseRuleset, Convention, Move, Player, Ruleset


@attrs.frozen
class Heaps:
    """Heap sizes, in the order written."""

    sizes: tuple[int, ...]


def parse_heaps(text: str) -> Heaps:
    """Comma-separated ASCII digits; empty heaps are dropped ("0" is the empty position)."""
    sizes = []
    for token in text.split(","):
        token = token.strip()
        if not (token.isascii() and token.isdigit()):
            raise ValueError(f"heap size {token[:40]!r} is not a non-negative integer")
        if int(token):
            sizes.append(int(token))
    return Heaps(tuple(sizes))


def format_heaps(position: Heaps) -> str:
    return ",".join(map(str, position.sizes)) or "0"


DENSE_LIMIT = 4096
"""Subtraction sets reaching beyond this keep their digits sparse (:class:`SparseDigits`)."""


@attrs.frozen
class SparseDigits:
    """The digits ``0.d1 d2 ...`` of a code with few non-zero digits and a huge length (a
    subtraction set such as {1, 10^9}): only the ``(k, d_k)`` with d_k != 0 are stored, so a
    move list skips the impossible removals instead of enumerating them."""

    terms: tuple[tuple[int, int], ...]
    size: int

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int | slice) -> int | tuple[int, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self.size)))  # type: ignore[misc]
        return dict(self.terms).get(index, 0)


@attrs.frozen
class OctalCode:
    """Digits d0, d1, ..., dt of an octal game."""

    digits: tuple[int, ...] | SparseDigits

    base: ClassVar[int] = 8
    kind: ClassVar[str] = "octal"

    @classmethod
    def parse(cls, text: str) -> OctalCode:
        """``0.77``, ``4.07``, ``.77`` (d0 = 0), or digits without a point ``77`` (= 0.77).
        Without a point a leading 0 is ambiguous (``077``: 0.77 with the point dropped, or
        0.077 with "0." dropped) and is refused. A digit 8-F (three heaps left) is refused
        with the hexadecimal form to use instead."""
        text = text.strip()
        head, dot, tail = text.partition(".")
        if dot and not head:
            head = "0"
        if not dot:
            if len(text) > 1 and text.startswith("0"):
                raise ValueError(
                    f"{cls.kind} code {text!r} is ambiguous without a point: write "
                    f"0.{text[1:]} or 0.{text}"
                )
            head, tail = "0", text
        allowed = "0123456789ABCDEF"[: cls.base]
        for ch in head + tail:
            if ch.upper() not in allowed:
                if cls.base == 8 and ch.upper() in "89ABCDEF":
                    raise ValueError(
                        f"octal code {text[:40]!r}: digit {ch!r} is not 0-7; a digit 8-F "
                        f"(bit 8: leave three heaps) is a hexadecimal code: "
                        f"hex {head}.{tail[:40]}"
                    )
                raise ValueError(
                    f"{cls.kind} code {text[:40]!r}: digit {ch!r} is not {allowed[0]}-{allowed[-1]}"
                )
        if len(head) != 1:
            raise ValueError(f"{cls.kind} code {text!r}: one digit before the point")
        if not tail.strip("0") and not int(head, 16) & 12:  # (d0: only splits, bits 4 and 8)
            raise ValueError(f"{cls.kind} code {text!r} allows no move")
        return cls((int(head, 16), *(int(ch, 16) for ch in tail.rstrip("0"))))

    @classmethod
    def subtraction(cls, subtraction_set: Sequence[int]) -> OctalCode:
        top = max(subtraction_set)
        if top > DENSE_LIMIT:
            terms = tuple((k, 3) for k in sorted(set(subtraction_set)))
            return cls(SparseDigits(terms, top + 1))
        members = set(subtraction_set)
        return cls((0, *(3 if k in members else 0 for k in range(1, top + 1))))

    def nonzero(self) -> Iterator[tuple[int, int]]:
        """(k, d_k) for every non-zero digit, k ascending."""
        if isinstance(self.digits, SparseDigits):
            return iter(self.digits.terms)
        return ((k, d) for k, d in enumerate(self.digits) if d)

    @property
    def length(self) -> int:
        """t, the largest number of tokens a move removes."""
        return len(self.digits) - 1

    @property
    def heaps_left(self) -> int:
        """The most non-empty heaps one move leaves (0-3): the periodicity theorem's bound
        depends on it (see :func:`cgframework_classic.periodicity.proof_length`)."""
        bits = 0
        for _, d in self.nonzero():
            bits |= d
        return 3 if bits & 8 else 2 if bits & 4 else 1 if bits & 2 else 0

    def __str__(self) -> str:
        if isinstance(self.digits, SparseDigits):
            shown = ", ".join(f"d{k}={d}" for k, d in self.digits.terms[:8])
            return f"0.(sparse, {len(self.digits) - 1} digits: {shown})"
        return f"{self.digits[0]:X}." + "".join(f"{d:X}" for d in self.digits[1:])

    def results(self, n: int) -> Iterator[tuple[int, tuple[int, ...]]]:
        """(tokens removed, heaps left) for every move from a heap of n."""
        return self.results_limited(n, n)

    def results_limited(self, n: int, split_limit: int) -> Iterator[tuple[int, tuple[int, ...]]]:
        """As :meth:`results`, with splits (a, rest - a) only for a <= split_limit."""
        for k, d in self.nonzero():
            if k > n:
                break
            rest = n - k
            if d & 1 and rest == 0 and k > 0:
                yield k, ()
            if d & 2 and rest > 0 and k > 0:
                yield k, (rest,)
            if d & 4:
                for a in range(1, min(rest // 2, split_limit) + 1):
                    yield k, (a, rest - a)
            if d & 8:  # three heaps a <= b <= c; split_limit bounds a only
                for a in range(1, min(rest // 3, split_limit) + 1):
                    for b in range(a, (rest - a) // 2 + 1):
                        yield k, (a, b, rest - a - b)


class HexCode(OctalCode):
    """A hexadecimal code ``0.d1d2...`` (digits 0-9, A-F): bit 8 of d_k allows removing k
    tokens and leaving three non-empty heaps (Howse & Nowakowski 2004). ``digits`` are ints
    0-15, so code that reads only the digits serves both kinds."""

    base: ClassVar[int] = 16
    kind: ClassVar[str] = "hex"


def heap_move(n: int, left: tuple[int, ...]) -> str:
    return f"{n}->" + ("+".join(map(str, left)) if left else "0")


def heap_marks(sizes: Sequence[int], move: Move) -> list[tuple[int, range]]:
    """``move_marks`` of a heap move (its text ``n->a+b``, :func:`heap_move`): the tokens it
    takes, as one key ``(i, range(a, b))``, tokens a to b - 1 (from 0 at the bottom) of the
    first heap i of size n. A split keeps its first heap at the bottom, then the tokens
    taken, the other heaps above them. A move that takes nothing (a split of Grundy's game)
    marks nothing. One key whatever the heap's size (a heap of 10^30 tokens)."""
    before, _, after = move.text.partition("->")
    n = int(before)
    parts = [int(k) for k in after.split("+")] if after != "0" else []
    kept = sum(parts)
    if n not in sizes or kept >= n:
        return []
    start = parts[0] if parts else 0
    return [(list(sizes).index(n), range(start, start + n - kept))]


def heap_click(
    ruleset: Ruleset, position: Heaps, picks: Sequence[Hashable], player: Player
) -> Move | None:
    """``move_at`` of a heap game (``cgf explore``, the widgets): a click on token ``k`` of
    heap ``i`` (``(i, k)``, from :func:`~cgframework_classic.pictures.heaps_svg`) takes that
    token and those above it, leaving ``k`` in that heap, if ``player`` may (a move that also
    splits the heap is not made by a click: pick it from the options)."""
    if len(picks) != 1 or not isinstance(picks[0], tuple) or len(picks[0]) != 2:
        return None
    i, k = picks[0]
    if type(i) is not int or type(k) is not int:
        return None
    sizes = position.sizes
    if not 0 <= i < len(sizes) or not 0 <= k < sizes[i]:
        return None
    left = (k,) if k else ()
    text = heap_move(sizes[i], left)
    if not any(m.text == text for m in ruleset.options(position, player)):
        return None
    return Move(attrs.evolve(position, sizes=sizes[:i] + left + sizes[i + 1 :]), text)


class HeapRuleset(BaseRuleset):
    """Shared parts of the heap games: heaps are components, keys are sorted heaps."""

    convention = Convention.NORMAL
    impartial = True
    family = "classic"

    def components(self, position: Heaps) -> Sequence[Heaps]:
        return [attrs.evolve(position, sizes=(n,)) for n in position.sizes if n]

    def canonical_key(self, position: Heaps) -> object:
        return (self.rules_key(position), tuple(sorted(n for n in position.sizes if n)))

    def rules_key(self, position: Heaps) -> object:
        return self.name

    def is_empty(self, position: Heaps) -> bool:
        return not any(position.sizes)

    def heap_results(self, position: Heaps, n: int) -> Iterator[tuple[int, ...]]:
        raise NotImplementedError

    marks_persist = False  # a heap that empties leaves the picture: later keys shift

    def draw(self, position: Heaps, marks: Mapping[Hashable, Any] | None = None) -> str:
        """The heaps as stacks of tokens, those in ``marks`` (:func:`heap_marks`) coloured."""
        from cgframework_classic.pictures import heaps_svg

        return heaps_svg(position.sizes, marks=marks)

    def move_marks(self, position: Heaps, move: Move) -> list[tuple[int, range]]:
        """The tokens ``move`` takes (:func:`heap_marks`)."""
        return heap_marks(position.sizes, move)

    def move_at(self, position: Heaps, picks: Sequence[Hashable], player: Player) -> Any:
        """A click on a token takes it and those above (:func:`heap_click`)."""
        return heap_click(self, position, picks, player)

    def options(self, position: Heaps, player: Player) -> Iterator[Move]:
        sizes = position.sizes
        seen = set()
        for i, n in enumerate(sizes):
            if n in seen:
                continue  # equal heaps give equal moves
            seen.add(n)
            for left in self.heap_results(position, n):
                result = attrs.evolve(position, sizes=sizes[:i] + left + sizes[i + 1 :])
                yield Move(result, heap_move(n, left))


class Nim(HeapRuleset):
    name = "nim"
    syntax = "heap sizes, e.g. 3,4,5"

    def parse(self, text: str) -> Heaps:
        return parse_heaps(text)

    def format(self, position: Heaps) -> str:
        return format_heaps(position)

    def heap_results(self, position: Heaps, n: int) -> Iterator[tuple[int, ...]]:
        return ((m,) if m else () for m in range(n - 1, -1, -1))

    def examples(self) -> list[str]:
        return ["3,4,5", "1,2,3"]


@attrs.frozen
class CodedHeaps(Heaps):
    """Heaps of an octal or subtraction game, with the game's code."""

    code: OctalCode = OctalCode((0, 3))
    label: str = ""


class OctalRuleset(HeapRuleset):
    """Any octal game: ``CODE:HEAPS``."""

    name = "octal"
    syntax = "octal code : heaps, e.g. 0.77:10,3 (Kayles) or 0.07:20 (Dawson's Kayles)"
    code_type: type[OctalCode] = OctalCode
    """How the code before the colon is read."""

    def parse(self, text: str) -> CodedHeaps:
        code, sep, heaps = text.partition(":")
        if not sep:
            raise ValueError(f"expected CODE:HEAPS, got {text!r}")
        return CodedHeaps(parse_heaps(heaps).sizes, self.code_type.parse(code), code.strip())

    def format(self, position: CodedHeaps) -> str:
        return f"{position.code}:{format_heaps(position)}"

    def rules_key(self, position: CodedHeaps) -> object:
        return position.code.digits

    def heap_results(self, position: CodedHeaps, n: int) -> Iterator[tuple[int, ...]]:
        return (left for _, left in position.code.results(n))

    def examples(self) -> list[str]:
        return ["0.137:9,5", "0.77:10"]


class HexRuleset(OctalRuleset):
    """Any hexadecimal game: ``CODE:HEAPS`` with digits 0-9, A-F (bit 8: leave three heaps)."""

    name = "hex"
    syntax = "hexadecimal code : heaps, e.g. 0.F:10,3 or 0.8:12 (bit 8 leaves three heaps)"

    code_type = HexCode

    def examples(self) -> list[str]:
        return ["0.F:10,3", "0.8:12"]


class FixedOctal(OctalRuleset):
    """An octal game with a fixed code; positions are just heaps."""

    code = OctalCode((0, 7, 7))

    def parse(self, text: str) -> CodedHeaps:
        return CodedHeaps(parse_heaps(text).sizes, self.code)

    def format(self, position: CodedHeaps) -> str:
        return format_heaps(position)


class Kayles(FixedOctal):
    """Kayles, octal 0.77: knock down one pin or two adjacent pins (Winning Ways ch. 4)."""

    name = "kayles"
    code = OctalCode((0, 7, 7))
    syntax = "rows of pins, e.g. 10,3 (octal 0.77)"

    def examples(self) -> list[str]:
        return ["10,3", "70"]


class DawsonsKayles(FixedOctal):
    """Dawson's Kayles, octal 0.07: knock down two adjacent pins (rows of n pins)."""

    name = "dawsons-kayles"
    code = OctalCode((0, 0, 7))
    syntax = "rows of pins, e.g. 12,5 (octal 0.07)"

    def examples(self) -> list[str]:
        return ["12,5", "51"]


MAX_SUBTRACTION_MEMBER = 10**18
"""The largest member of a subtraction set (the sequence engine indexes heaps by machine word;
a set such as {1, 10^9} is stored sparsely)."""


class Subtraction(OctalRuleset):
    """Subtraction game S: remove s in S tokens from a heap (``{1,2,3}:10,7``)."""

    name = "subtraction"
    syntax = "subtraction set : heaps, e.g. {1,2,3}:10,7"

    def parse(self, text: str) -> CodedHeaps:
        subset, sep, heaps = text.partition(":")
        subset = subset.strip()
        if not sep or not (subset.startswith("{") and subset.endswith("}")):
            raise ValueError(f"expected {{S}}:HEAPS such as {{1,2,3}}:10, got {text!r}")
        members = []
        for token in subset[1:-1].split(","):
            token = token.strip()
            if not (token.isascii() and token.isdigit()) or int(token) == 0:
                raise ValueError(f"subtraction set member {token!r} is not a positive integer")
            if int(token) > MAX_SUBTRACTION_MEMBER:  # (the sequence engine indexes by machine word)
                raise ValueError(
                    f"subtraction set member {token[:40]!r} is more than {MAX_SUBTRACTION_MEMBER}"
                )
            members.append(int(token))
        label = "{" + ",".join(map(str, sorted(set(members)))) + "}"
        return CodedHeaps(parse_heaps(heaps).sizes, OctalCode.subtraction(members), label)

    def format(self, position: CodedHeaps) -> str:
        return f"{position.label}:{format_heaps(position)}"

    def examples(self) -> list[str]:
        return ["{1,2,3}:10,7", "{2,5,7}:30"]


class GrundysGame(HeapRuleset):
    """Grundy's game: split a heap into two unequal non-empty heaps (Winning Ways ch. 4;
    OEIS A002188). Not a take-and-break code (the split must be unequal)."""

    name = "grundys-game"
    syntax = "heap sizes, e.g. 7,5"

    def parse(self, text: str) -> Heaps:
        return parse_heaps(text)

    def format(self, position: Heaps) -> str:
        return format_heaps(position)

    def heap_results(self, position: Heaps, n: int) -> Iterator[tuple[int, ...]]:
        return ((a, n - a) for a in range(1, (n + 1) // 2))

    def examples(self) -> list[str]:
        return ["7", "10,5"]
