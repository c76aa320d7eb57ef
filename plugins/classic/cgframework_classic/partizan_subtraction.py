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
from typing import Any

import attrs

from cgframework import BaseRuleset, Convention, Move, Player
from cgframework_classic.heaps import format_heaps, heap_click, heap_marks, heap_move, parse_heaps


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


class PartizanSubtraction(BaseRuleset):
    name = "partizan-subtraction"
    aliases = ("partizansubtraction",)
    convention = Convention.NORMAL
    impartial = False
    family = "classic"
    syntax = "{Left's set|Right's set}:heaps, e.g. {1,2|2,3}:7,5"

    def parse(self, text: str) -> PartizanHeaps:
        return parse_partizan(text)

    def format(self, position: PartizanHeaps) -> str:
        return f"{sets_label(position.left, position.right)}:{format_heaps(position)}"  # type: ignore[arg-type]

    def options(self, position: PartizanHeaps, player: Player) -> Iterator[Move]:
        sizes = position.sizes
        moves = position.left if player is Player.LEFT else position.right
        seen = set()
        for i, n in enumerate(sizes):
            if n in seen:
                continue
            seen.add(n)
            for s in moves:
                if s > n:
                    break
                rest = (n - s,) if n > s else ()
                yield Move(
                    attrs.evolve(position, sizes=sizes[:i] + rest + sizes[i + 1 :]),
                    heap_move(n, rest),
                )

    def components(self, position: PartizanHeaps) -> Sequence[PartizanHeaps]:
        return [attrs.evolve(position, sizes=(n,)) for n in position.sizes if n]

    def is_empty(self, position: PartizanHeaps) -> bool:
        smallest = min(position.left + position.right, default=None)
        return smallest is None or all(n < smallest for n in position.sizes)

    def canonical_key(self, position: PartizanHeaps) -> Hashable:
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

    marks_persist = False  # a heap that empties leaves the picture: later keys shift

    def draw(self, position: PartizanHeaps, marks: Mapping[Hashable, Any] | None = None) -> str:
        """The heaps as stacks of tokens (the sets are in the picture's title), those in
        ``marks`` (:func:`~cgframework_classic.heaps.heap_marks`) coloured."""
        from cgframework_classic.pictures import heaps_svg

        title = sets_label(position.left, position.right)
        return heaps_svg(position.sizes, title=title, marks=marks)

    def move_marks(self, position: PartizanHeaps, move: Move) -> list[tuple[int, range]]:
        """The tokens ``move`` takes."""
        return heap_marks(position.sizes, move)

    def move_at(self, position: PartizanHeaps, picks: Sequence[Hashable], player: Player) -> Any:
        """A click on a token takes it and those above, if the player's set allows."""
        return heap_click(self, position, picks, player)

    def examples(self) -> list[str]:
        return ["{1,2|2,3}:7,5", "{1|2}:9", "{2,3|1,4}:12"]
