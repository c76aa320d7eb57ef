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

Who wins alone (``--misere --outcome``) is a search that stops at the first winning move
(:func:`solve_misere_outcome`), for impartial and partizan rulesets alike: no ``G⁻`` (a mex
needs every option's value) and no genus. Every position expanded is a node of the budget
(``--max-nodes``, ``--timeout``), and so is every position of G plus heaps of 2 and 1 the
genus values.
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
    """Memoised misère (and, for the genus, normal) searches of one ruleset.

    The impartial searches run on keys (:func:`multiset_key`): a position's options are
    generated once, as the keys of its distinct options, so that the genus, which values
    each position with many sets of extra nim heaps, reads dictionaries only."""

    def __init__(self, ruleset: Ruleset, ctx: SolveContext) -> None:
        self.ruleset = ruleset
        self.ctx = ctx
        self.wins: dict[Hashable, bool] = {}
        self.grundy_minus: dict[Hashable, int] = {}
        self.grundy_plus: dict[Hashable, int] = {}
        self.heights: dict[Hashable, int] = {}
        self.with_heaps: dict[tuple[Hashable, int, int], int] = {}
        self.moves: dict[Hashable, list[Hashable]] = {}  # key -> its options' keys
        self.positions: dict[Hashable, Position] = {}  # key -> a position of that key

    def _key(self, position: Position) -> Hashable:
        return multiset_key(self.ruleset, position)

    def _enter(self, position: Position) -> Hashable:
        key = self._key(position)
        self.positions.setdefault(key, position)
        return key

    def _options(self, position: Position, player: Player) -> list[Position]:
        self.ctx.table.nodes += 1
        return [m.result for m in options(self.ruleset, position, player)]

    def mover_wins(self, position: Position, player: Player) -> bool:
        """Does ``player``, to move, win in misère play? (The search stops at the first
        winning move; in an impartial ruleset both players' answers are one.)"""
        impartial = self.ruleset.impartial
        if impartial:
            player = Player.LEFT
        key = (self._key(position), player)
        found = self.wins.get(key)
        if found is None:
            if impartial:
                check_impartial(self.ruleset, position, key[0], self.ctx)
            nexts = self._options(position, player)
            found = not nexts or any(not self.mover_wins(p, player.opponent) for p in nexts)
            self.wins[key] = found
        return found

    def winning_moves(self, position: Position, player: Player) -> list[str]:
        """The texts of ``player``'s moves after which the opponent, to move, loses."""
        return [
            m.text
            for m in options(self.ruleset, position, player)
            if not self.mover_wins(m.result, player.opponent)
        ]

    def _impartial_options(self, key: Hashable) -> list[Hashable]:
        found = self.moves.get(key)
        if found is None:
            position = self.positions[key]
            check_impartial(self.ruleset, position, key, self.ctx)
            nexts = self._options(position, Player.LEFT)
            found = self.moves[key] = list(dict.fromkeys(self._enter(p) for p in nexts))
        return found

    def misere_grundy(self, position: Position) -> int:
        """``G⁻``: 1 with no move, else the mex of the options' misère Grundy values."""
        return self._misere_grundy(self._enter(position))

    def _misere_grundy(self, key: Hashable) -> int:
        found = self.grundy_minus.get(key)
        if found is None:
            nexts = self._impartial_options(key)
            found = mex(self._misere_grundy(k) for k in nexts) if nexts else 1
            self.grundy_minus[key] = found
        return found

    def normal_grundy(self, position: Position) -> int:
        return self._normal_grundy(self._enter(position))

    def _normal_grundy(self, key: Hashable) -> int:
        found = self.grundy_plus.get(key)
        if found is None:
            found = mex(self._normal_grundy(k) for k in self._impartial_options(key))
            self.grundy_plus[key] = found
        return found

    def height(self, position: Position) -> int:
        """The length of the longest play (impartial)."""
        return self._height(self._enter(position))

    def _height(self, key: Hashable) -> int:
        found = self.heights.get(key)
        if found is None:
            nexts = self._impartial_options(key)
            found = 1 + max(self._height(k) for k in nexts) if nexts else 0
            self.heights[key] = found
        return found

    def misere_grundy_with_heaps(self, position: Position, twos: int, ones: int) -> int:
        """``G⁻`` of the position plus ``twos`` nim-heaps of 2 and ``ones`` heaps of 1."""
        return self._with_heaps(self._enter(position), twos, ones)

    def _with_heaps(self, key: Hashable, twos: int, ones: int) -> int:
        if not twos and not ones:
            return self._misere_grundy(key)
        state = (key, twos, ones)
        found = self.with_heaps.get(state)
        if found is None:
            self.ctx.table.add_node()  # (the genus's work: charged to the budget)
            values = [self._with_heaps(k, twos, ones) for k in self._impartial_options(key)]
            if twos:
                values.append(self._with_heaps(key, twos - 1, ones + 1))
                values.append(self._with_heaps(key, twos - 1, ones))
            if ones:
                values.append(self._with_heaps(key, twos, ones - 1))
            found = mex(values)  # (never empty: there is a heap to take)
            self.with_heaps[state] = found
        return found

    def genus(self, position: Position) -> tuple[int, list[int]]:
        """``(g, [γ0, ..., γ(t+1)])``: the normal Grundy value and the genus superscript up
        to the first two terms of the period-2 tail, which starts at ``t``.

        Terms are computed one by one until the last :data:`GENUS_WINDOW` of them each equal
        the term two places before, or ``height + GENUS_EXTRA_TERMS`` terms are reached."""
        key = self._enter(position)
        g = self._normal_grundy(key)
        last = self._height(key) + GENUS_EXTRA_TERMS
        gammas: list[int] = []
        for n in range(last + 1):
            gammas.append(self._with_heaps(key, n, 0))
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


def solve_misere_outcome(ruleset: Ruleset, position: Position, ctx: SolveContext) -> Solution:
    """Who wins in misère play, each player moving first, and ``ctx.first``'s winning moves
    (none listed when ``ctx.winning_moves`` is false), by a search that stops at the first
    winning move: the keys of the normal-play outcome search (``left_first``,
    ``right_first``; ``value`` None)."""
    search = MisereSearch(ruleset, ctx)
    left = search.mover_wins(position, Player.LEFT)
    right = left if ruleset.impartial else search.mover_wins(position, Player.RIGHT)
    player = ctx.first
    best = []
    if ctx.winning_moves and (left if player is Player.LEFT else right):
        best = search.winning_moves(position, player)
    solution = finish(
        ruleset,
        position,
        ctx,
        value=None,
        outcome=Outcome.from_wins(left, right),
        best_moves=best,
        method="misere-outcome",
        left_first="L" if left else "R",
        right_first="R" if right else "L",
        **({} if ctx.winning_moves else {"winning_moves": False}),
    )
    return attrs.evolve(solution, convention=Convention.MISERE)


PARTIZAN_MISERE_VALUE = (
    "a partizan game's misère value is not computed (its outcome is the answer; misère "
    "canonical forms: Siegel 2015)"
)
IMPARTIAL_MISERE_VALUE = (
    "the misère canonical form is not computed; misere_grundy and genus are given"
)
"""Why a misère solve has no value: never an outcome letter in its place."""


def solve_misere(
    ruleset: Ruleset, position: Position, ctx: SolveContext, genus: bool = True
) -> Solution:
    """Misère outcome class and ``ctx.first``'s winning moves; for impartial rulesets also the
    misère Grundy value and (unless ``genus`` is false: it costs the most) the genus (extra
    fields ``misere_grundy`` and ``genus``)."""
    search = MisereSearch(ruleset, ctx)
    player = ctx.first
    extra: dict[str, Any] = {}
    value = None
    if ruleset.impartial:
        grundy = search.misere_grundy(position)
        outcome = Outcome.N if grundy else Outcome.P
        best = [
            m.text
            for m in options(ruleset, position, player)
            if search.misere_grundy(m.result) == 0
        ]
        extra = {"misere_grundy": grundy, "value_unknown": IMPARTIAL_MISERE_VALUE}
        if genus:
            extra["genus"] = genus_text(*search.genus(position))
    else:
        left = search.mover_wins(position, Player.LEFT)
        right = search.mover_wins(position, Player.RIGHT)
        outcome = Outcome.from_wins(left, right)
        best = search.winning_moves(position, player)
        extra = {"value_unknown": PARTIZAN_MISERE_VALUE}
    solution = finish(
        ruleset,
        position,
        ctx,
        value=value,
        outcome=outcome,
        best_moves=best,
        method="misere",
        **extra,
    )
    return attrs.evolve(solution, convention=Convention.MISERE)
