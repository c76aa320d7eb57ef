"""The certificate checker's own canonical values of short games, for ``"values"`` leaves.

A ``"values"`` leaf of a certificate is closed by the canonical value of each of its live
components: the checker builds each component's game from the ruleset's ``options`` alone,
puts it in canonical form (remove dominated options, bypass reversible ones), adds the values
in two halves A and B and reads who wins the sum G = A + B: Left, moving first, wins iff NOT
``G <= 0``, that is NOT ``A <= -B``; Right, moving first, iff NOT ``G >= 0``, NOT ``-B <= A``
(Siegel, *Combinatorial Game Theory*, AMS 2013, ch. II: the order of games II.1, canonical
forms II.2, sums and negatives II.1). Two sums of half the components cost far less than the
canonical form of all of them.

This code is independent of the core's canonical solver (``cgframework.values`` and
``cgframework.solvers``) **on purpose**: the checker must not trust the code it checks. It is
a small, plain implementation of the definitions: a game is a hash-consed pair of sorted
option tuples (an ``int``; 0 is the game ``{|}``); ``<=`` is the recursive definition,
memoised; sums are computed option by option and put in canonical form. No numbers, nimbers
or ups are special-cased: short, and slow only where nothing needs it to be fast.

Limits, so that a hostile file cannot keep the checker busy: each component may expand at most
``budget`` positions not yet known (the positions are memoised by component text across the
whole check, so an honest file's component costs at most the number of distinct positions it
reaches, which the writer counts); a position whose moves already name more new positions
than that is refused as it is listed, before any of them is expanded (a 60-byte leaf, a nim
heap of 10^30, is refused after ``budget`` moves, not two million). Past its budget:
:class:`ValueTooBig`. The value code's own limits, whatever a file asks: a game's birthday may
not pass :data:`MAX_BIRTHDAY` (so recursion stays shallow); one leaf may do at most
:data:`MAX_WORK` new comparisons, sums, expansions and moves together. Past one:
:class:`ValueTooCostly`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from cgframework.game import Player

MAX_BIRTHDAY = 120
"""Birthday of a game (a value, or a sum while it is added) at most: keeps the recursion of
``<=`` and sums within some 500 Python frames."""

MAX_WORK = 2_000_000
"""New comparisons, sums and position expansions of one leaf at most (a few seconds)."""

MEMO = 4_000_000
"""Entries of each memo at most before it is cleared (memory, not correctness)."""

ZERO = 0


class ValueTooBig(Exception):
    """A component needs more positions than its budget, or is not a short game."""


class ValueTooCostly(ValueTooBig):
    """A component or a sum passed one of the value code's own limits (work, birthday,
    memory): past what this code spends on one leaf, not a fault of the leaf."""


class Values:
    """Canonical forms of short games, and the values of a ruleset's components (by text).

    ``parts_of`` gives a component's moves as sorted live components
    (``component_moves((text, component), player) -> [(move text, [(text, component), ...])]``:
    the checker's :class:`~cgframework.proofs.checker.Parts`)."""

    def __init__(self, parts_of: Any) -> None:
        self.parts_of = parts_of
        self.ruleset = parts_of.ruleset
        self.lefts: list[tuple[int, ...]] = [()]
        self.rights: list[tuple[int, ...]] = [()]
        self.birthdays: list[int] = [0]
        self.ids: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {((), ()): ZERO}
        self.le_memo: dict[tuple[int, int], bool] = {}
        self.sum_memo: dict[tuple[int, int], int] = {}
        self.neg_memo: dict[int, int] = {ZERO: ZERO}
        self.value_memo: dict[str, int] = {}
        self.work = 0
        self.work_limit = MAX_WORK
        self.expanded = 0
        """Positions expanded by :meth:`value` in all."""
        self.generation = getattr(self, "generation", -1) + 1
        """How many times the memos were started afresh (:meth:`start_leaf`): a game's number
        holds within one generation only."""

    # ---- games -------------------------------------------------------------------------------

    def game(self, lefts: Iterable[int], rights: Iterable[int]) -> int:
        """The game ``{lefts | rights}`` as it stands (not simplified), interned."""
        key = (tuple(sorted(set(lefts))), tuple(sorted(set(rights))))
        found = self.ids.get(key)
        if found is None:
            birthday = 1 + max((self.birthdays[g] for g in key[0] + key[1]), default=-1)
            if birthday > MAX_BIRTHDAY:
                raise ValueTooCostly(f"a value of birthday more than {MAX_BIRTHDAY}")
            if len(self.ids) >= MEMO:
                raise ValueTooCostly(f"more than {MEMO} distinct games in one leaf")
            found = len(self.lefts)
            self.lefts.append(key[0])
            self.rights.append(key[1])
            self.birthdays.append(birthday)
            self.ids[key] = found
        return found

    def _spend(self) -> None:
        self.work += 1
        if self.work > self.work_limit:
            raise ValueTooCostly(f"more than {self.work_limit} steps of value arithmetic")

    def le(self, g: int, h: int) -> bool:
        """``G <= H``: no Left option of G is ``>= H`` and no Right option of H is ``<= G``."""
        if g == h:
            return True
        key = (g, h)
        memo = self.le_memo
        known = memo.get(key)
        if known is None:
            self._spend()
            le = self.le
            known = True
            for gl in self.lefts[g]:  # (loops, not any() of a generator: the hot path)
                if le(h, gl):
                    known = False
                    break
            else:
                for hr in self.rights[h]:
                    if le(hr, g):
                        known = False
                        break
            if len(memo) >= MEMO:
                memo.clear()
            memo[key] = known
        return known

    def canonical(self, lefts: Iterable[int], rights: Iterable[int]) -> int:
        """The canonical form of ``{lefts | rights}``, whose options are canonical: remove
        dominated options and bypass reversible ones until neither applies (Siegel II.2; in
        whichever order, the form reached is the one canonical form). Dominated ones go
        first, so fewer are tried for reversibility."""
        left, right = set(lefts), set(rights)
        le = self.le
        while True:
            left = {a for a in left if not any(b != a and le(a, b) for b in left)}
            right = {a for a in right if not any(b != a and le(b, a) for b in right)}
            g = self.game(left, right)
            for options, is_left in ((left, True), (right, False)):
                found = self._reversible(options, g, is_left)
                if found is not None:
                    option, replacements = found
                    options.discard(option)
                    options.update(replacements)
                    break
            else:
                return g

    def _reversible(
        self, options: Iterable[int], g: int, is_left: bool
    ) -> tuple[int, tuple[int, ...]] | None:
        """A reversible option of G's Left (``is_left``) or Right ``options`` and what takes
        its place, or None: Left's A reverses through A^R <= G, its place going to A^RL;
        Right's B through B^L >= G, its place to B^LR."""
        for option in options:
            for through in self.rights[option] if is_left else self.lefts[option]:
                if self.le(through, g) if is_left else self.le(g, through):
                    return option, self.lefts[through] if is_left else self.rights[through]
        return None

    def add(self, g: int, h: int) -> int:
        """The canonical form of ``G + H`` (both canonical)."""
        if g == ZERO:
            return h
        if h == ZERO:
            return g
        if g > h:
            g, h = h, g
        found = self.sum_memo.get((g, h))
        if found is None:
            if self.birthdays[g] + self.birthdays[h] > MAX_BIRTHDAY:
                raise ValueTooCostly(f"a sum of birthday more than {MAX_BIRTHDAY}")
            self._spend()
            found = self.canonical(
                [self.add(gl, h) for gl in self.lefts[g]]
                + [self.add(g, hl) for hl in self.lefts[h]],
                [self.add(gr, h) for gr in self.rights[g]]
                + [self.add(g, hr) for hr in self.rights[h]],
            )
            if len(self.sum_memo) >= MEMO:
                self.sum_memo.clear()
            self.sum_memo[(g, h)] = found
        return found

    def total(self, games: Iterable[int]) -> int:
        out = ZERO
        for g in games:
            out = self.add(out, g)
        return out

    def negative(self, g: int) -> int:
        """``-G``: each side's options negated and swapped (canonical if G is)."""
        found = self.neg_memo.get(g)
        if found is None:
            self._spend()
            found = self.game(
                [self.negative(gr) for gr in self.rights[g]],
                [self.negative(gl) for gl in self.lefts[g]],
            )
            if len(self.neg_memo) >= MEMO:
                self.neg_memo.clear()
            self.neg_memo[g] = found
        return found

    def mover_wins(self, g: int, player: Player) -> bool:
        """Does ``player``, moving first in G, win? Left iff NOT G <= 0, Right iff NOT G >= 0."""
        return not self.le(g, ZERO) if player is Player.LEFT else not self.le(ZERO, g)

    # ---- components --------------------------------------------------------------------------

    def value(self, text: str, component: Any, budget: int) -> int:
        """The canonical value of one live component (its text and position), expanding at
        most ``budget`` positions not already known (iterative: no deep recursion).

        Every position a move names that is not known yet will be expanded: counted as the
        moves are listed (``promised``), past ``budget`` the component is refused at once."""
        known = self.value_memo.get(text)
        if known is not None:
            return known
        on_stack: set[str] = set()
        promised = {text}  # (each position of this component expanded, or to be)
        stack: list[list[Any]] = []

        def enter(text: str, component: Any) -> None:
            self.expanded += 1
            self._spend()
            sides: list[dict[tuple[str, ...], list[tuple[str, Any]]]] = [{}, {}]
            for side, player in zip(sides, (Player.LEFT, Player.RIGHT), strict=True):
                for _, after in self.parts_of.component_moves((text, component), player):
                    self._spend()  # (a heap of 10^30 has as many moves: each one counts)
                    for part_text, _ in after:
                        if part_text not in promised and part_text not in self.value_memo:
                            promised.add(part_text)
                            if len(promised) > budget:
                                raise ValueTooBig(f"a component of more than {budget} positions")
                    side.setdefault(tuple(part_text for part_text, _ in after), after)
            on_stack.add(text)
            waiting = [part for side in sides for result in side.values() for part in result]
            stack.append([text, sides, waiting])

        enter(text, component)
        while stack:
            top = stack[-1]
            waiting = top[2]
            while waiting and waiting[-1][0] in self.value_memo:
                waiting.pop()
            if waiting:
                child_text, child = waiting.pop()
                if child_text in on_stack:
                    raise ValueTooBig(f"position {child_text!r} repeats: not a short game")
                enter(child_text, child)
                continue
            stack.pop()
            on_stack.discard(top[0])
            memo = self.value_memo
            lefts, rights = (
                [self.total(memo[t] for t in result) for result in side] for side in top[1]
            )
            memo[top[0]] = self.canonical(lefts, rights)
        return self.value_memo[text]

    def start_leaf(self) -> None:
        """Count the work of one leaf (or rewrite) from 0; start the memos afresh when they
        are full (memory, not correctness: :attr:`generation` says so)."""
        self.work = 0
        if len(self.ids) >= MEMO // 2 or len(self.value_memo) >= MEMO:
            kept = self.work_limit, self.expanded
            self.__init__(self.parts_of)  # type: ignore[misc]
            self.work_limit, self.expanded = kept

    def equal(self, g: int, h: int) -> bool:
        """``G = H``: ``G <= H`` and ``H <= G`` (any forms, canonical or not)."""
        return self.le(g, h) and self.le(h, g)

    def sum_wins(
        self,
        parts: Sequence[tuple[str, Any]],
        player: Player,
        budget: int,
        terms: Sequence[int] = (),
        start: bool = True,
    ) -> bool:
        """Does ``player``, to move in the sum of ``parts`` (live components: text and
        position) and of the games ``terms``, win? Each component within ``budget`` new
        positions; the whole leaf within :attr:`work_limit` steps (:class:`ValueTooBig` past
        either). ``start``: :meth:`start_leaf` first (the caller did, else: ``terms`` are
        numbers of this generation)."""
        if start:
            self.start_leaf()
        values = [self.value(text, component, budget) for text, component in parts]
        values += terms
        values.sort(key=self.birthdays.__getitem__)
        first, second = self.total(values[0::2]), self.total(values[1::2])
        # G = A + B <= 0 iff A <= -B: two sums of half the size, not one of all of them
        if player is Player.LEFT:
            return not self.le(first, self.negative(second))
        return not self.le(self.negative(second), first)


__all__ = ["MAX_BIRTHDAY", "MAX_WORK", "ValueTooBig", "ValueTooCostly", "Values"]
