"""The impartial, dicotic and twisted variants of a ruleset, as CGSuite defines them.

CGSuite (A. N. Siegel, ``lib/core/.../game/variant/*.cgs``: ``ImpartialVariantGame``,
``DicoticVariantGame``, ``TwistedVariantGame``; ``Ruleset.ImpartialVariant`` and friends)
turns any ruleset into a variant by rewriting the options of every position, recursively:

- impartial ``I(G)``: either player may move to ``I(G')`` for every Left *or* Right option
  ``G'`` of ``G`` (the same options for both players: an impartial game);
- dicotic ``D(G)`` (all-small): a player may move to ``D(G')`` for each of his options
  ``G'`` of ``G`` only if the *other* player also has an option in ``G``; so every position
  is dicotic (both or neither player can move) and every value is infinitesimal;
- twisted ``T(G)``: a player's options are ``-T(G')`` for each of his options ``G'`` of
  ``G``: every move also swaps the roles, so after a move each player makes the moves the
  other colour makes in the base game.

Which shortcuts stay valid (each checked against the plain search in
tests/test_variants.py):

- components: ``I(G + H) = I(G) + I(H)`` (a move in the sum is a move in one part, by either
  colour), so the impartial variant splits as its base does (CGSuite's ``Decomposition``).
  ``D(G + H)`` is not ``D(G) + D(H)`` (a part where Left has no move does not end the sum),
  nor is ``T(G + H)`` ``T(G) + T(H)`` (a move in ``G`` swaps the roles in ``H`` too): those
  two variants never split a position (CGSuite's do not either).
- cache keys: each variant is a function of the game tree, so a base ``canonical_key`` that
  is the same for positions with isomorphic game trees (the bundled rulesets' keys are:
  symmetries of a board, sorted heaps, canonical graph labellings) stays valid; a base key
  that merely stands for equal *values* would not, and such a ruleset's variants need
  ``trust_keys=False`` (the position itself is then the key).
- ``negative``: ``I(-G) = I(G)``, ``D(-G) = -D(G)``, ``T(-G) = -T(G)``, so the base's
  ``negative`` serves the impartial and dicotic variants; the twisted variant has its own
  (``-T(G)`` is a position of it anyway).
- the base's specialised solvers, simplifications and key searches (``option_keys``...) are
  for the base game and are not carried over: a variant is solved by the generic solvers.

A position of the impartial or dicotic variant is a position of the base ruleset, written as
the base writes it. A position of the twisted variant is a base position ``P`` (standing for
``T(P)``) or :class:`Negated` ``(P)`` (standing for ``-T(P)``, where a move from ``T(P)``
leads), written ``-(P)``. A ``+`` sum of variant positions is the disjunctive sum of the
variant games (``T(a) + T(b)``), as in CGSuite.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from cgframework.game import BaseRuleset, Convention, Move, Player, Position, Ruleset

VERSION = "variant-1"
"""Appended to the base's ``version`` (value stores keep a ruleset's values per version)."""


class VariantError(ValueError):
    """A variant that does not exist, or that is not defined for a ruleset."""


@attrs.frozen
class Negated:
    """A position of a twisted variant: ``-T(position)``, where every move of ``T(position)``
    leads (CGSuite's ``-TwistedVariantGame(g)``). Written ``-(P)``."""

    position: Position


class VariantRuleset(BaseRuleset):
    """A ruleset whose positions are its ``base``'s (see the module docstring). Only the
    protocol's methods are defined: nothing of the base is forwarded unasked (its key
    searches and fast paths know the base game, not the variant)."""

    kind = ""
    description = ""

    def __init__(self, base: Ruleset, *, trust_keys: bool = True) -> None:
        if base.convention not in (Convention.NORMAL, Convention.MISERE):
            raise VariantError(
                f"ruleset {base.name!r} is {base.convention.value} play: variants are "
                "defined for normal- and misere-play rulesets (moves without points)"
            )
        self.base = base
        self.trust_keys = trust_keys
        self.name = f"{self.kind}:{base.name}"
        self.convention = base.convention
        self.impartial = bool(base.impartial)
        self.family = getattr(base, "family", "") or ""
        self.version = f"{getattr(base, 'version', '1')}/{VERSION}"
        self.loopy = bool(getattr(base, "loopy", False))
        self.sum_separator = getattr(base, "sum_separator", "+")
        self.marks_persist = bool(getattr(base, "marks_persist", True))
        self.syntax = f"{self.description} of {base.name}: {base.syntax}"

    def __reduce__(self) -> tuple[Callable[..., VariantRuleset], tuple[Any, ...]]:
        return _rebuilt, (self.kind, self.base, self.trust_keys)

    # -- the protocol: the base's, position for position --------------------------------------
    def parse(self, text: str) -> Position:
        return self.base.parse(text)

    def format(self, position: Position) -> str:
        return self.base.format(position)

    def options(self, position: Position, player: Player) -> Iterable[Move]:
        raise NotImplementedError

    def canonical_key(self, position: Position) -> Hashable:
        """The base's key (see the module docstring), tagged with the variant."""
        if not self.trust_keys:
            return position
        return (self.kind, self.base.canonical_key(position))

    def is_empty(self, position: Position) -> bool:
        """No option for either player in the base: none in any variant either."""
        check = getattr(self.base, "is_empty", None)
        return bool(check and check(_unwrapped(position)))

    def examples(self) -> Sequence[str]:
        return tuple(self.base.examples())

    def describe(self) -> str:
        return self.syntax

    def draw(self, position: Position, marks: Mapping[Hashable, Any] | None = None) -> str:
        draw = getattr(self.base, "draw", None)
        if draw is None:
            return super().draw(position, marks)
        return draw(_unwrapped(position), marks)

    def move_marks(self, position: Position, move: Move) -> Iterable[Hashable]:
        marks = getattr(self.base, "move_marks", None)
        if marks is None:
            return ()
        return marks(_unwrapped(position), Move(_unwrapped(move.result), move.text, move.points))


class ImpartialVariant(VariantRuleset):
    """``I(G)``: both players have every Left and every Right option of ``G`` (CGSuite's
    ``ImpartialVariantGame``). Components split as the base's do."""

    kind = "impartial"
    description = "impartial variant (either player makes Left's or Right's moves)"

    def __init__(self, base: Ruleset, *, trust_keys: bool = True) -> None:
        super().__init__(base, trust_keys=trust_keys)
        self.impartial = True
        self.negative = getattr(base, "negative", None)  # I(-G) = I(G) = -I(G)

    def options(self, position: Position, player: Player) -> list[Move]:
        """Left's options, then Right's that lead elsewhere or are written otherwise; a Right
        move written as a Left move that leads elsewhere is written ``R:TEXT``."""
        base = self.base
        moves = list(base.options(position, Player.LEFT))
        if base.impartial:  # (the same options for both players already)
            return moves
        where = {m.text: m.result for m in moves}
        for move in base.options(position, Player.RIGHT):
            seen = where.get(move.text, _NOWHERE)
            if seen is _NOWHERE:
                moves.append(move)
                where[move.text] = move.result
            elif seen != move.result:
                moves.append(Move(move.result, f"R:{move.text}", move.points))
        return moves

    def components(self, position: Position) -> Sequence[Position]:
        """The base's components: ``I(G + H) = I(G) + I(H)``."""
        return self.base.components(position)

    def move_marks(self, position: Position, move: Move) -> Iterable[Hashable]:
        if move.text.startswith("R:"):
            text = move.text[2:]
            if any(
                m.text == text and m.result == move.result
                for m in self.base.options(position, Player.RIGHT)
            ):
                move = Move(move.result, text, move.points)
        return super().move_marks(position, move)


class DicoticVariant(VariantRuleset):
    """``D(G)``: a player may move only when both players have a move in ``G`` (CGSuite's
    ``DicoticVariantGame``). Never split into components."""

    kind = "dicotic"
    description = "dicotic (all-small) variant (no move unless both players have one)"

    def __init__(self, base: Ruleset, *, trust_keys: bool = True) -> None:
        super().__init__(base, trust_keys=trust_keys)
        self.negative = getattr(base, "negative", None)  # D(-G) = -D(G)

    def options(self, position: Position, player: Player) -> Iterable[Move]:
        base = self.base
        if next(iter(base.options(position, player.opponent)), None) is None:
            return ()
        return base.options(position, player)

    def components(self, position: Position) -> Sequence[Position]:
        """The whole position: ``D(G + H)`` is not ``D(G) + D(H)``."""
        return (position,)


class TwistedVariant(VariantRuleset):
    """``T(G)``: a player's options are ``-T(G')`` for his options ``G'`` of ``G`` (CGSuite's
    ``TwistedVariantGame``): from ``T(P)`` a move leads to ``-T(P')``, written ``-(P')``, where
    each player makes the moves of the other colour of the base and leads back to ``T(...)``.
    Never split into components."""

    kind = "twisted"
    description = "twisted variant (every move also swaps the colours; -(P) is -T(P))"

    def __init__(self, base: Ruleset, *, trust_keys: bool = True) -> None:
        super().__init__(base, trust_keys=trust_keys)
        self.negative = _negated  # -T(P) is a position of the variant

    def parse(self, text: str) -> Position:
        """``P`` is ``T(P)``; ``-(P)`` is ``-T(P)`` (and ``-(-(P))`` is ``T(P)`` again)."""
        negated = False
        text = text.strip()
        inner_twisted = _twisted_below(self.base)
        while _wrapped_in_minus(text):
            text = text[2:-1].strip()
            negated = not negated
            if inner_twisted:  # twisted:twisted:...: the rest is the inner variant's
                break
        position = self.base.parse(text)
        return Negated(position) if negated else position

    def format(self, position: Position) -> str:
        if isinstance(position, Negated):
            return f"-({self.base.format(position.position)})"
        return self.base.format(position)

    def options(self, position: Position, player: Player) -> Iterator[Move]:
        if isinstance(position, Negated):  # -T(P): the other colour's moves, to T(P')
            for move in self.base.options(position.position, player.opponent):
                yield Move(move.result, move.text, move.points)
        else:  # T(P): this colour's moves, to -T(P')
            for move in self.base.options(position, player):
                yield Move(Negated(move.result), move.text, move.points)

    def components(self, position: Position) -> Sequence[Position]:
        """The whole position: ``T(G + H)`` is not ``T(G) + T(H)``."""
        return (position,)

    def canonical_key(self, position: Position) -> Hashable:
        if not self.trust_keys:
            return position
        if isinstance(position, Negated):
            return ("twisted-", self.base.canonical_key(position.position))
        return ("twisted", self.base.canonical_key(position))


_NOWHERE = object()


def _twisted_below(ruleset: Ruleset) -> bool:
    """A twisted variant among the bases of ``ruleset`` (which then parses ``-(...)`` too)."""
    while isinstance(ruleset, VariantRuleset):
        if isinstance(ruleset, TwistedVariant):
            return True
        ruleset = ruleset.base
    return False


def _wrapped_in_minus(text: str) -> bool:
    """``text`` is ``-(...)`` with the bracket opened after ``-`` closed at its very end."""
    if not (text.startswith("-(") and text.endswith(")")):
        return False
    depth = 0
    for i in range(1, len(text)):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i == len(text) - 1
    return False


def _unwrapped(position: Position) -> Position:
    return position.position if isinstance(position, Negated) else position


def _negated(position: Position) -> Position:
    """``-T(P)`` for ``T(P)`` and back: the twisted variant's ``negative``."""
    return position.position if isinstance(position, Negated) else Negated(position)


VARIANTS: dict[str, type[VariantRuleset]] = {
    "impartial": ImpartialVariant,
    "dicotic": DicoticVariant,
    "twisted": TwistedVariant,
}
"""The variants by name (the prefix of a ruleset name like ``impartial:domineering``)."""

_made: dict[tuple[str, int, bool], tuple[Ruleset, VariantRuleset]] = {}
_made_lock = threading.Lock()


def variant(kind: str, ruleset: Ruleset, *, trust_keys: bool = True) -> VariantRuleset:
    """The ``kind`` variant (``impartial``, ``dicotic``, ``twisted``) of ``ruleset``: one
    object per ruleset object (so ``Game`` sums and caches see the same ruleset each time).
    An unknown ``kind``, or a ruleset with scoring or other conventions, is a
    :class:`VariantError`."""
    cls = VARIANTS.get(kind)
    if cls is None:
        raise VariantError(f"unknown variant {kind!r} (variants: {', '.join(sorted(VARIANTS))})")
    key = (kind, id(ruleset), trust_keys)
    with _made_lock:
        found = _made.get(key)
        if found is None:  # (the base is kept with it: its id is never reused meanwhile)
            found = _made[key] = (ruleset, cls(ruleset, trust_keys=trust_keys))
    return found[1]


def _rebuilt(kind: str, ruleset: Ruleset, trust_keys: bool) -> VariantRuleset:
    """Unpickling: the variant of the unpickled base."""
    return variant(kind, ruleset, trust_keys=trust_keys)


def impartial(ruleset: Ruleset, *, trust_keys: bool = True) -> VariantRuleset:
    """The impartial variant: either player may make any of Left's or Right's moves (CGSuite's
    ``ImpartialVariant``). ``impartial(domineering)`` is Cram."""
    return variant("impartial", ruleset, trust_keys=trust_keys)


def dicotic(ruleset: Ruleset, *, trust_keys: bool = True) -> VariantRuleset:
    """The dicotic (all-small) variant: no move unless both players have one (CGSuite's
    ``DicoticVariant``); every value is infinitesimal (Left and Right stops 0)."""
    return variant("dicotic", ruleset, trust_keys=trust_keys)


def twisted(ruleset: Ruleset, *, trust_keys: bool = True) -> VariantRuleset:
    """The twisted variant: each option is the negative of the twisted option (CGSuite's
    ``TwistedVariant``): every move also swaps the players' roles."""
    return variant("twisted", ruleset, trust_keys=trust_keys)


def split_name(name: str) -> tuple[list[str], str]:
    """``"twisted:impartial:domineering"`` -> ``(["twisted", "impartial"], "domineering")``:
    the leading variant names (outermost first) and the base ruleset's name."""
    kinds: list[str] = []
    while True:
        head, colon, rest = name.partition(":")
        if not colon or head not in VARIANTS:
            return kinds, name
        kinds.append(head)
        name = rest


def base_name(name: str) -> str:
    """The base ruleset's name in a variant's name (the name itself otherwise)."""
    return split_name(name)[1]


def of_name(kinds: Sequence[str], ruleset: Ruleset) -> Ruleset:
    """``ruleset`` wrapped in the variants ``kinds`` (outermost first, as in a name)."""
    for kind in reversed(kinds):
        ruleset = variant(kind, ruleset)
    return ruleset
