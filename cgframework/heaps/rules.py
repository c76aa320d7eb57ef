"""The authoring base of heap games: a ruleset written as one method, ``heap_options(n)``.

A position is a row of heaps (:class:`Heaps`); a move changes one heap of n tokens into the
heaps an option of ``heap_options(n)`` lists (none: the heap is taken whole; one: tokens
taken; two or more: the heap is split). Each heap is then an independent component, and
everything else a ruleset provides follows from the one method: parsing and formatting
(``10,7``; a sum ``10,7 + 3``), components, canonical keys (the sorted heaps), the moves'
texts (``10->3+5``), a picture of stacks of tokens with what a move took marked, clicks on
a token, a ``heaps`` family for ``cgf sweep``, and examples. The core's table engine
(:mod:`cgframework.heaps.table`) computes the Grundy sequence of any such rule; ``cgf
sequence``, ``cgf quotient`` and ``cgf solve`` use it.

Every heap an option leaves must be smaller than the heap it came from (0 <= m < n): the
game is then finite and G(n) depends only on smaller heaps, which is what a table needs.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from cgframework.extensions import Family
from cgframework.game import BaseRuleset, Convention, Move, Player, Position
from cgframework.plugins import RulesetError


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


def heap_move(n: int, left: tuple[int, ...]) -> str:
    """A move's text: ``10->3+5`` (heap 10 leaves heaps 3 and 5), ``4->0`` (taken whole)."""
    return f"{n}->" + ("+".join(map(str, left)) if left else "0")


def heap_marks(sizes: Sequence[int], move: Move) -> list[tuple[int, range]]:
    """``move_marks`` of a heap move (its text ``n->a+b``, :func:`heap_move`): the tokens it
    takes, as one key ``(i, range(a, b))``, tokens a to b - 1 (from 0 at the bottom) of the
    first heap i of size n. A split keeps its first heap at the bottom, then the tokens
    taken, the other heaps above them. A move that takes nothing (a split of Grundy's game)
    marks nothing. One key whatever the heap's size (a heap of 10^30 tokens)."""
    before, _, after = move.text.rpartition(":")[2].partition("->")
    n = int(before)
    parts = [int(k) for k in after.split("+")] if after != "0" else []
    kept = sum(parts)
    if n not in sizes or kept >= n:
        return []
    start = parts[0] if parts else 0
    return [(list(sizes).index(n), range(start, start + n - kept))]


def heap_click(
    ruleset: Any, position: Heaps, picks: Sequence[Hashable], player: Player
) -> Move | None:
    """``move_at`` of a heap game (``cgf explore``, the widgets): a click on token ``k`` of
    heap ``i`` (``(i, k)``, from :func:`~cgframework.display.pictures.heaps_svg`) takes that
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


def checked_option(rule: Any, n: int, option: Any) -> tuple[int, ...]:
    """One option of ``rule.heap_options(n)`` as the heaps it leaves, zeros dropped (a bare
    int is one heap); a :class:`~cgframework.RulesetError` naming the ruleset unless every
    heap is an int with 0 <= m < n."""
    if type(option) is int:
        option = (option,)
    try:
        left = tuple(option)
    except TypeError:
        left = None
    if left is None or any(type(m) is not int or not 0 <= m < n for m in left):
        raise RulesetError(
            f"ruleset {getattr(rule, 'name', rule)!r}: heap_options({n}) gave {option!r:.80}; "
            f"an option is a tuple of the heaps left, each an int from 0 to {n - 1} "
            "(smaller than the heap: the game must end)"
        )
    return tuple(m for m in left if m)


def heap_results(
    rule: Any, n: int, options_of: Callable[[int], Iterable[Any]]
) -> Iterator[tuple[int, ...]]:
    """The distinct options of a heap of ``n`` (``options_of(n)``, checked and with zeros
    dropped by :func:`checked_option`), in the order the rule gives them, one by one (a heap
    of 10^30 has that many options: only those looked at are made)."""
    if n <= 0:
        return
    seen = set()
    for option in options_of(n):
        left = checked_option(rule, n, option)
        if left not in seen:
            seen.add(left)
            yield left


class HeapRuleset(BaseRuleset):
    """A heap game written as one method: subclass, set ``name``, write ``heap_options``.

    ``heap_options(n)`` yields each option of a single heap of n tokens as a tuple of the
    heaps left (``()``: the heap is gone; zeros may be kept or dropped); each must be smaller
    than n. Impartial and normal play by default. A partizan heap game sets
    ``impartial = False`` and writes ``left_heap_options`` and ``right_heap_options``.

    Derived: ``parse``/``format`` (``10,7``; ``10,7 + 3`` is a sum), ``components`` (each heap),
    ``canonical_key`` (the sorted heaps), moves written ``n->a+b``, ``draw`` (stacks of
    tokens), ``move_marks`` and ``move_at`` (a click on a token takes it and those above),
    a ``heaps`` family (``cgf sweep NAME heaps``), ``examples``; and from the core's table,
    ``cgf solve`` of big heaps, ``cgf sequence``, ``cgf quotient``.

    ``take_and_break``: the take-and-break code the rule is, if it is one (``"0.77"``,
    ``"hex:0.F"``, a subtraction set ``"{1,2,3}"``): a plugin's heap engine that knows such
    codes (the classic plugin: its compiled kernel, and the periodicity theorem that proves
    periods) then serves the rule, after checking the code against ``heap_options``.

    A ruleset whose positions carry a parameter (an octal code, a subtraction set) returns,
    from ``rule_of(position)``, the rule of that position's heaps: a ``HeapRuleset`` whose
    ``heap_options`` are that parameter's (default: the ruleset itself).
    """

    convention = Convention.NORMAL
    impartial = True
    syntax = "heap sizes, e.g. 3,4,5 (a sum: 3,4 + 5)"
    take_and_break: str | None = None
    """The take-and-break code this rule is (``"0.77"``, ``"hex:0.F"``, ``"{1,2,3}"``), if any."""
    marks_persist = False  # a heap that empties leaves the picture: later keys shift

    def heap_options(self, n: int) -> Iterable[Any]:
        """Each option of a single heap of ``n`` (n >= 1) as a tuple of the heaps left."""
        raise NotImplementedError(f"ruleset {self.name!r} writes no heap_options")

    def left_heap_options(self, n: int) -> Iterable[Any]:
        """Left's options of a heap of ``n`` (a partizan heap game); default ``heap_options``."""
        return self.heap_options(n)

    def right_heap_options(self, n: int) -> Iterable[Any]:
        """Right's options of a heap of ``n`` (a partizan heap game); default ``heap_options``."""
        return self.heap_options(n)

    def rule_of(self, position: Heaps) -> HeapRuleset:
        """The rule ``position``'s heaps follow (default: this ruleset)."""
        return self

    def rule_key(self) -> Hashable:
        """What tells this rule apart in canonical keys (default: the ruleset's name)."""
        return self.name

    def rule_label(self) -> str:
        """How outputs name the rule (default: the ruleset's name)."""
        return self.name

    def parse(self, text: str) -> Heaps:
        return parse_heaps(text)

    def format(self, position: Heaps) -> str:
        return format_heaps(position)

    def components(self, position: Heaps) -> Sequence[Heaps]:
        return [attrs.evolve(position, sizes=(n,)) for n in position.sizes if n]

    def canonical_key(self, position: Heaps) -> Hashable:
        rule = self.rule_of(position)
        return (rule.rule_key(), tuple(sorted(n for n in position.sizes if n)))

    def is_empty(self, position: Heaps) -> bool:
        return not any(position.sizes)

    def options(self, position: Heaps, player: Player) -> Iterator[Move]:
        rule = self.rule_of(position)
        if self.impartial:
            options_of = rule.heap_options
        elif player is Player.LEFT:
            options_of = rule.left_heap_options
        else:
            options_of = rule.right_heap_options
        sizes = position.sizes
        seen = set()
        for i, n in enumerate(sizes):
            if n in seen:
                continue  # equal heaps give equal moves
            seen.add(n)
            for left in heap_results(rule, n, options_of):
                result = attrs.evolve(position, sizes=sizes[:i] + left + sizes[i + 1 :])
                yield Move(result, heap_move(n, left))

    def draw(self, position: Heaps, marks: Mapping[Hashable, Any] | None = None) -> str:
        """The heaps as stacks of tokens, those in ``marks`` (:func:`heap_marks`) coloured."""
        from cgframework.display.pictures import heaps_svg

        return heaps_svg(position.sizes, marks=marks)

    def move_marks(self, position: Heaps, move: Move) -> list[tuple[int, range]]:
        """The tokens ``move`` takes (:func:`heap_marks`)."""
        return heap_marks(position.sizes, move)

    def move_at(self, position: Heaps, picks: Sequence[Hashable], player: Player) -> Any:
        """A click on a token takes it and those above (:func:`heap_click`)."""
        return heap_click(self, position, picks, player)

    def examples(self) -> Sequence[str]:
        return ["3,4,5", "10"]

    def families(self) -> Sequence[Family]:
        """``heaps``: member n is a single heap of n."""
        return [Family("heaps", self.name, str, "a single heap of size n")]


def single_heap(ruleset: Any, like: Position, n: int) -> Position:
    """A position of ``ruleset`` that is one heap of ``n`` with the parameters of ``like``
    (its code, its sets): the heap's ``sizes`` replaced."""
    return attrs.evolve(like, sizes=(n,) if n else ())
