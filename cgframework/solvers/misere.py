"""Misère play of any normal-play ruleset (``cgf solve RULESET POS --misere``).

Under misère play the player who cannot move wins. Sums do not decompose as in normal play,
so the whole position is searched (its components as a multiset, so that the order of the
summands does not matter). Memo keys are the positions themselves, never the ruleset's
``canonical_key``: that key may identify positions of equal *normal-play* value, which can
differ in misère play. Registered simplifications and specialised solvers are normal-play
facts and are not used.

For impartial rulesets the answer adds (Winning Ways ch. 13, "Survival in the Lost World";
Conway, On Numbers and Games ch. 12):

- the *misère Grundy value* ``G⁻``: 1 for a position with no move, else the mex of the
  options' values; the position is a second-player win in misère play iff ``G⁻ = 0``;
- the *genus* ``g^{γ0 γ1 γ2 ...}``: ``g`` the normal-play Grundy value and ``γn`` the misère
  Grundy value of G plus n nim-heaps of size 2. The sequence ends up alternating with period
  two; it is written up to the first two terms of that tail, e.g. ``0^120`` for the empty
  game, ``1^031`` for ``*1``, ``2^20`` for ``*2`` (Winning Ways ch. 13). The genus says
  more than ``G⁻`` alone about how a game plays in misère sums (with nim heaps, at least).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from typing import Any

import attrs

from cgframework.extensions import SolveContext
from cgframework.game import Convention, Outcome, Player, Position, Ruleset, components, options
from cgframework.solution import Solution
from cgframework.solvers.common import check_impartial, finish
from cgframework.values import mex

GENUS_WINDOW = 4
"""The genus sequence is taken to have reached its period-2 tail once this many consecutive
terms each equal the term two places before."""
GENUS_EXTRA_TERMS = 4
"""At most this many terms past the height of the game (its longest play) are computed.
Neither bound is a theorem: on nim, kayles and octal positions the tail starts within two
terms, and ``tests/test_misere.py`` checks that longer computations give the same genus."""


def multiset_key(ruleset: Ruleset, position: Position) -> Hashable:
    """The multiset of the position's non-empty components (sums commute in misère play)."""
    return frozenset(Counter(components(ruleset, position)).items())


class MisereSearch:
    """Memoised misère (and, for the genus, normal) searches of one ruleset."""

    def __init__(self, ruleset: Ruleset, ctx: SolveContext) -> None:
        self.ruleset = ruleset
        self.ctx = ctx
        self.wins: dict[Hashable, bool] = {}
        self.grundy_minus: dict[Hashable, int] = {}
        self.grundy_plus: dict[Hashable, int] = {}
        self.heights: dict[Hashable, int] = {}
        self.with_heaps: dict[tuple[Hashable, int, int], int] = {}
        self.moves: dict[Hashable, list[Position]] = {}

    def _key(self, position: Position) -> Hashable:
        return multiset_key(self.ruleset, position)

    def _options(self, position: Position, player: Player) -> list[Position]:
        self.ctx.table.nodes += 1
        return [m.result for m in options(self.ruleset, position, player)]

    def mover_wins(self, position: Position, player: Player) -> bool:
        """Does ``player``, to move, win in misère play?"""
        key = (self._key(position), player)
        found = self.wins.get(key)
        if found is None:
            nexts = self._options(position, player)
            found = not nexts or any(not self.mover_wins(p, player.opponent) for p in nexts)
            self.wins[key] = found
        return found

    def _impartial_options(self, position: Position) -> list[Position]:
        key = self._key(position)
        found = self.moves.get(key)
        if found is None:
            check_impartial(self.ruleset, position, key, self.ctx)
            found = self.moves[key] = self._options(position, Player.LEFT)
        return found

    def misere_grundy(self, position: Position) -> int:
        """``G⁻``: 1 with no move, else the mex of the options' misère Grundy values."""
        key = self._key(position)
        found = self.grundy_minus.get(key)
        if found is None:
            nexts = self._impartial_options(position)
            found = mex(self.misere_grundy(p) for p in nexts) if nexts else 1
            self.grundy_minus[key] = found
        return found

    def normal_grundy(self, position: Position) -> int:
        key = self._key(position)
        found = self.grundy_plus.get(key)
        if found is None:
            found = mex(self.normal_grundy(p) for p in self._impartial_options(position))
            self.grundy_plus[key] = found
        return found

    def height(self, position: Position) -> int:
        """The length of the longest play (impartial)."""
        key = self._key(position)
        found = self.heights.get(key)
        if found is None:
            nexts = self._impartial_options(position)
            found = 1 + max(self.height(p) for p in nexts) if nexts else 0
            self.heights[key] = found
        return found

    def misere_grundy_with_heaps(self, position: Position, twos: int, ones: int) -> int:
        """``G⁻`` of the position plus ``twos`` nim-heaps of 2 and ``ones`` heaps of 1."""
        key = (self._key(position), twos, ones)
        found = self.with_heaps.get(key)
        if found is None:
            nexts = self._impartial_options(position)
            values = [self.misere_grundy_with_heaps(p, twos, ones) for p in nexts]
            if twos:
                values.append(self.misere_grundy_with_heaps(position, twos - 1, ones + 1))
                values.append(self.misere_grundy_with_heaps(position, twos - 1, ones))
            if ones:
                values.append(self.misere_grundy_with_heaps(position, twos, ones - 1))
            found = mex(values) if values else 1
            self.with_heaps[key] = found
        return found

    def genus(self, position: Position) -> tuple[int, list[int]]:
        """``(g, [γ0, ..., γ(t+1)])``: the normal Grundy value and the genus superscript up
        to the first two terms of the period-2 tail, which starts at ``t``.

        Terms are computed one by one until the last :data:`GENUS_WINDOW` of them each equal
        the term two places before, or ``height + GENUS_EXTRA_TERMS`` terms are reached."""
        g = self.normal_grundy(position)
        last = self.height(position) + GENUS_EXTRA_TERMS
        gammas: list[int] = []
        for n in range(last + 1):
            gammas.append(self.misere_grundy_with_heaps(position, n, 0))
            if n >= GENUS_WINDOW + 1 and all(
                gammas[k] == gammas[k - 2] for k in range(n - GENUS_WINDOW + 1, n + 1)
            ):
                break
        start = len(gammas) - 3
        while start > 0 and gammas[start - 1] == gammas[start + 1]:
            start -= 1
        return g, gammas[: start + 2]


def genus_text(g: int, superscript: list[int]) -> str:
    """CGSuite's notation: ``0^120``; terms of two or more digits are bracketed, ``10^[10][8]``."""
    terms = "".join(str(x) if x < 10 else f"[{x}]" for x in superscript)
    return f"{g}^{terms}"


def solve_misere(
    ruleset: Ruleset, position: Position, ctx: SolveContext, genus: bool = True
) -> Solution:
    """Misère outcome class and ``ctx.first``'s winning moves; for impartial rulesets also the
    misère Grundy value and (unless ``genus`` is false: it costs the most) the genus (extra
    fields ``misere_grundy`` and ``genus``)."""
    search = MisereSearch(ruleset, ctx)
    player = ctx.first
    extra: dict[str, Any] = {}
    if ruleset.impartial:
        value = search.misere_grundy(position)
        outcome = Outcome.N if value else Outcome.P
        best = [
            m.text
            for m in options(ruleset, position, player)
            if search.misere_grundy(m.result) == 0
        ]
        extra = {"misere_grundy": value}
        if genus:
            extra["genus"] = genus_text(*search.genus(position))
    else:
        left = search.mover_wins(position, Player.LEFT)
        right = search.mover_wins(position, Player.RIGHT)
        outcome = Outcome.from_wins(left, right)
        best = [
            m.text
            for m in options(ruleset, position, player)
            if not search.mover_wins(m.result, player.opponent)
        ]
    solution = finish(
        ruleset,
        position,
        ctx,
        value=outcome.value,
        outcome=outcome,
        best_moves=best,
        method="misere",
        **extra,
    )
    return attrs.evolve(solution, convention=Convention.MISERE)
