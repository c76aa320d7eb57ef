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

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import ClassVar

import attrs

from cgframework import Family
from cgframework.heaps.rules import (
    HeapRuleset,
    Heaps,
    format_heaps,
    heap_click,
    heap_marks,
    heap_move,
    parse_heaps,
)

__all__ = [  # (the heap helpers are the core's: cgframework.heaps.rules)
    "CodedHeaps",
    "DawsonsKayles",
    "GrundysGame",
    "HeapRuleset",
    "Heaps",
    "HexCode",
    "HexRuleset",
    "Kayles",
    "Nim",
    "OctalCode",
    "OctalRuleset",
    "Subtraction",
    "code_rule",
    "format_heaps",
    "heap_click",
    "heap_marks",
    "heap_move",
    "parse_heaps",
]


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


class Nim(HeapRuleset):
    name = "nim"
    family = "classic"
    syntax = "heap sizes, e.g. 3,4,5"

    def heap_options(self, n: int) -> Iterator[tuple[int, ...]]:
        return ((m,) for m in range(n - 1, -1, -1))

    def examples(self) -> list[str]:
        return ["3,4,5", "1,2,3"]


@attrs.frozen
class CodedHeaps(Heaps):
    """Heaps of an octal or subtraction game, with the game's code."""

    code: OctalCode = OctalCode((0, 3))
    label: str = ""


class CodeRule(HeapRuleset):
    """The heap rule of one take-and-break code (what a ``CodedHeaps`` position's heaps
    follow): its options are the code's moves. One object per code (:func:`code_rule`), so
    the core's table of the code's values is kept while the code is in use."""

    family = "classic"

    def __init__(self, code: OctalCode) -> None:
        self.octal_code = code
        self.name = f"{code.kind} {code}"

    def heap_options(self, n: int) -> Iterator[tuple[int, ...]]:
        return (left for _, left in self.octal_code.results(n))

    def rule_key(self) -> object:
        return self.octal_code.digits

    def rule_label(self) -> str:
        return self.name


@lru_cache(maxsize=64)
def code_rule(code: OctalCode) -> CodeRule:
    """The rule of ``code`` (the same object for equal codes, the last 64 used)."""
    return CodeRule(code)


class OctalRuleset(HeapRuleset):
    """Any octal game: ``CODE:HEAPS``."""

    name = "octal"
    family = "classic"
    syntax = "octal code : heaps, e.g. 0.77:10,3 (Kayles) or 0.07:20 (Dawson's Kayles)"
    code_type: type[OctalCode] = OctalCode
    """How the code before the colon is read."""
    argument = "an octal code (heaps:0.137)"
    """What the ``heaps`` family's argument is."""

    def parse(self, text: str) -> CodedHeaps:
        code, sep, heaps = text.partition(":")
        if not sep:
            raise ValueError(f"expected CODE:HEAPS, got {text!r}")
        return CodedHeaps(parse_heaps(heaps).sizes, self.code_type.parse(code), code.strip())

    def format(self, position: CodedHeaps) -> str:  # type: ignore[override]
        return f"{position.code}:{format_heaps(position)}"

    def rule_of(self, position: CodedHeaps) -> HeapRuleset:  # type: ignore[override]
        return code_rule(position.code)

    def examples(self) -> list[str]:
        return ["0.137:9,5", "0.77:10"]

    def families(self) -> list[Family]:
        return [
            Family(
                "heaps",
                self.name,
                lambda code, n: f"{code}:{n}",
                "a single heap of size n",
                argument=self.argument,
            )
        ]


class HexRuleset(OctalRuleset):
    """Any hexadecimal game: ``CODE:HEAPS`` with digits 0-9, A-F (bit 8: leave three heaps)."""

    name = "hex"
    syntax = "hexadecimal code : heaps, e.g. 0.F:10,3 or 0.8:12 (bit 8 leaves three heaps)"
    code_type = HexCode
    argument = "a hexadecimal code (heaps:0.F)"

    def examples(self) -> list[str]:
        return ["0.F:10,3", "0.8:12"]


class FixedOctal(OctalRuleset):
    """An octal game with a fixed code; positions are just heaps."""

    code = OctalCode((0, 7, 7))

    def parse(self, text: str) -> CodedHeaps:
        return CodedHeaps(parse_heaps(text).sizes, self.code)

    def format(self, position: CodedHeaps) -> str:  # type: ignore[override]
        return format_heaps(position)

    def families(self) -> list[Family]:
        return [Family("heaps", self.name, str, f"a single {self.name} heap of size n")]


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


def subtraction_code(subset: str) -> tuple[OctalCode, str]:
    """A subtraction set ``{1,2,3}`` as its code and its label (sorted members)."""
    subset = subset.strip()
    if not (subset.startswith("{") and subset.endswith("}")):
        raise ValueError(f"subtraction set must look like {{1,2,3}}, got {subset[:40]!r}")
    members = []
    for token in subset[1:-1].split(","):
        token = token.strip()
        if not (token.isascii() and token.isdigit()) or int(token) == 0:
            raise ValueError(f"subtraction set member {token[:40]!r} is not a positive integer")
        if len(token) > 19 or int(token) > MAX_SUBTRACTION_MEMBER:  # (the sequence engine
            raise ValueError(  # indexes heaps by machine word)
                f"subtraction set member {token[:40]!r} is more than {MAX_SUBTRACTION_MEMBER}"
            )
        members.append(int(token))
    label = "{" + ",".join(map(str, sorted(set(members)))) + "}"
    return OctalCode.subtraction(members), label


class Subtraction(OctalRuleset):
    """Subtraction game S: remove s in S tokens from a heap (``{1,2,3}:10,7``)."""

    name = "subtraction"
    syntax = "subtraction set : heaps, e.g. {1,2,3}:10,7"
    argument = "a subtraction set (heaps:1,2,5)"

    def parse(self, text: str) -> CodedHeaps:
        subset, sep, heaps = text.partition(":")
        subset = subset.strip()
        if not sep or not (subset.startswith("{") and subset.endswith("}")):
            raise ValueError(f"expected {{S}}:HEAPS such as {{1,2,3}}:10, got {text!r}")
        code, label = subtraction_code(subset)
        return CodedHeaps(parse_heaps(heaps).sizes, code, label)

    def format(self, position: CodedHeaps) -> str:  # type: ignore[override]
        return f"{position.label}:{format_heaps(position)}"

    def examples(self) -> list[str]:
        return ["{1,2,3}:10,7", "{2,5,7}:30"]

    def families(self) -> list[Family]:
        return [
            Family(
                "heaps",
                self.name,
                lambda members, n: "{" + members.strip("{}") + "}:" + str(n),
                "a single heap of size n",
                argument=self.argument,
            )
        ]


class GrundysGame(HeapRuleset):
    """Grundy's game: split a heap into two unequal non-empty heaps (Winning Ways ch. 4;
    OEIS A002188). Not a take-and-break code (the split must be unequal)."""

    name = "grundys-game"
    family = "classic"
    syntax = "heap sizes, e.g. 7,5"

    def heap_options(self, n: int) -> Iterator[tuple[int, ...]]:
        return ((a, n - a) for a in range(1, (n + 1) // 2))

    def examples(self) -> list[str]:
        return ["7", "10,5"]


CODE_TEXT = (
    "an octal code (0.77, 4.07), hex:CODE (hex:0.F), a subtraction set ({1,2,3}), kayles "
    "or dawsons-kayles"
)
FIXED_CODES = {"kayles": "0.77", "dawsons-kayles": "0.07"}


def code_of_text(text: str) -> tuple[OctalCode, str]:
    """A take-and-break code written as ``cgf classic quotient`` reads it, and its label:
    ``0.75`` or ``4.07`` (octal), ``kayles``, ``dawsons-kayles``, ``hex:0.F`` or a
    subtraction set ``{1,2,3}``; ``ValueError`` naming what is wrong otherwise."""
    text = text.strip()
    if text in FIXED_CODES:
        return OctalCode.parse(FIXED_CODES[text]), f"{text} (octal {FIXED_CODES[text]})"
    if text.startswith("{"):
        code, label = subtraction_code(text)
        return code, f"subtraction {label}"
    if text.lower().startswith("hex:"):
        code = HexCode.parse(text[4:])
        return code, f"hex {code}"
    if text[:1].isalpha():
        raise ValueError(f"expected {CODE_TEXT}; got {text[:40]!r}")
    code = OctalCode.parse(text)
    return code, f"octal {code}"
