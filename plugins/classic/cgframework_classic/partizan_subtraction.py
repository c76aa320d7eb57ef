"""Partizan subtraction games (Fraenkel & Kotzig, "Partizan octal games: partizan
subtraction games", IJGT 16, 1987; CGSuite's ``PartizanSubtraction``): heaps of tokens; Left
removes s in S_L tokens from one heap, Right s in S_R. Each heap is a component.

Syntax as CGSuite writes a game's options: ``{1,2|2,3}:7,5`` is the sum of heaps 7 and 5 with
S_L = {1, 2} and S_R = {2, 3}. Swapping the two sets swaps the players (``negative``).

A heap's value depends only on smaller heaps (n - s), so the specialised solver builds the
canonical values of heaps 0, 1, 2, ... in a loop (no recursion however large the heap):
G(n) = { G(n - s), s in S_L | G(n - s), s in S_R }.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

import attrs

from cgframework import Family, HeapRuleset
from cgframework.heaps.rules import format_heaps, parse_heaps


@attrs.frozen
class PartizanHeaps:
    """Heap sizes, and the two subtraction sets (sorted, distinct)."""

    sizes: tuple[int, ...]
    left: tuple[int, ...]
    right: tuple[int, ...]


MAX_MEMBER = 10**6
"""Largest subtraction-set member read."""


def _members(text: str, side: str) -> tuple[int, ...]:
    members = set()
    for token in text.split(","):
        token = token.strip()
        if not token:
            continue
        if not (token.isascii() and token.isdigit()) or not 0 < int(token) <= MAX_MEMBER:
            raise ValueError(
                f"{side} subtraction set member {token[:40]!r} is not an integer 1-{MAX_MEMBER}"
            )
        members.add(int(token))
    return tuple(sorted(members))


def parse_partizan(text: str) -> PartizanHeaps:
    """``{SL|SR}:HEAPS``, e.g. ``{1,2|2,3}:7,5`` (a set may be empty: ``{|1}:4``)."""
    sets, sep, heaps = text.partition(":")
    sets = sets.strip()
    if not sep or not (sets.startswith("{") and sets.endswith("}")) or sets.count("|") != 1:
        raise ValueError(f"expected {{SL|SR}}:HEAPS such as {{1,2|2,3}}:7, got {text[:60]!r}")
    left, _, right = sets[1:-1].partition("|")
    return PartizanHeaps(
        parse_heaps(heaps).sizes, _members(left, "Left's"), _members(right, "Right's")
    )


def sets_label(left: Sequence[int], right: Sequence[int]) -> str:
    return "{" + ",".join(map(str, left)) + "|" + ",".join(map(str, right)) + "}"


class PartizanRule(HeapRuleset):
    """The heap rule of one pair of sets: Left subtracts a member of ``left``, Right of
    ``right`` (one object per pair: :func:`partizan_rule`)."""

    impartial = False

    def __init__(self, left: tuple[int, ...], right: tuple[int, ...]) -> None:
        self.left, self.right = left, right
        self.name = f"partizan-subtraction {sets_label(left, right)}"

    def left_heap_options(self, n: int) -> Iterator[tuple[int, ...]]:
        return _subtract(self.left, n)

    def right_heap_options(self, n: int) -> Iterator[tuple[int, ...]]:
        return _subtract(self.right, n)

    def rule_key(self) -> Hashable:
        return ("partizan-subtraction", self.left, self.right)


def _subtract(members: tuple[int, ...], n: int) -> Iterator[tuple[int, ...]]:
    for s in members:  # (sorted: the members past n are never looked at)
        if s > n:
            return
        yield (n - s,)


@lru_cache(maxsize=64)
def partizan_rule(left: tuple[int, ...], right: tuple[int, ...]) -> PartizanRule:
    return PartizanRule(left, right)


class PartizanSubtraction(HeapRuleset):
    """Heaps, moves, components, pictures and clicks are the heap base's (``HeapRuleset``);
    the two sets travel with the position (:meth:`rule_of`)."""

    name = "partizan-subtraction"
    aliases = ("partizansubtraction",)
    impartial = False
    family = "classic"
    syntax = "{Left's set|Right's set}:heaps, e.g. {1,2|2,3}:7,5"

    def parse(self, text: str) -> PartizanHeaps:  # type: ignore[override]
        return parse_partizan(text)

    def format(self, position: PartizanHeaps) -> str:  # type: ignore[override]
        return f"{sets_label(position.left, position.right)}:{format_heaps(position)}"  # type: ignore[arg-type]

    def rule_of(self, position: PartizanHeaps) -> HeapRuleset:  # type: ignore[override]
        return partizan_rule(position.left, position.right)

    def is_empty(self, position: PartizanHeaps) -> bool:  # type: ignore[override]
        smallest = min(position.left + position.right, default=None)
        return smallest is None or all(n < smallest for n in position.sizes)

    def canonical_key(self, position: PartizanHeaps) -> Hashable:  # type: ignore[override]
        return (
            "partizan-subtraction",
            position.left,
            position.right,
            tuple(sorted(n for n in position.sizes if n)),
        )

    @staticmethod
    def negative(position: PartizanHeaps) -> PartizanHeaps:
        """The sets swapped: the players swap roles, so the value is negated."""
        return attrs.evolve(position, left=position.right, right=position.left)

    def draw(self, position: PartizanHeaps, marks: Mapping[Hashable, Any] | None = None) -> str:  # type: ignore[override]
        """The heaps as stacks of tokens (the sets are in the picture's title), those in
        ``marks`` (:func:`~cgframework.heaps.rules.heap_marks`) coloured."""
        from cgframework.display.pictures import heaps_svg

        title = sets_label(position.left, position.right)
        return heaps_svg(position.sizes, title=title, marks=marks)

    def examples(self) -> list[str]:
        return ["{1,2|2,3}:7,5", "{1|2}:9", "{2,3|1,4}:12"]

    def families(self) -> list[Family]:
        return [
            Family(
                "heaps",
                self.name,
                lambda sets, n: "{" + sets.strip("{}") + "}:" + str(n),
                "a single heap of size n",
                argument="the two sets, Left's|Right's (heaps:1,2|2,3)",
            )
        ]
