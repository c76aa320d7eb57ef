"""Scoring game forms ``<L | R>``, interned, with exact scores (Larsson, Neto, Nowakowski,
Santos, "Guaranteed Scoring Games", Def. 2-8).

Each side is a non-empty set of games or an atom ``^s`` (that player has no move; if it is
his turn the game ends with score ``s``). A :class:`ScoringGame` is built once per form
(hash-consing), so equality is identity and memo keys are integer ids. Everything that is a
bottom-up function of the options is computed when the form is made: birthday, the least and
greatest score, the guaranteed flag (Def. 3) and the six stops (Def. 8, Def. 22 via the
recursions of digest 004 Section 1.8), so each costs O(1) afterwards.

Scores are ``int`` or ``Fraction``, never floats: the reductions test stops for equality
(Thm 34).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from typing import Any, NamedTuple

from cgframework.values import Interned

Score = int | Fraction

# The operations recurse once per level of the game tree (a few frames each), and waiting
# moves n^ are n levels deep: deep work runs under cgframework.runtime.deep.call_deep (a large stack
# and a raised recursion limit); the commands and the ruleset's searches do.


def exact(x: Any) -> Score:
    """An exact score: ``int`` when integral, else ``Fraction``; floats and bools refused."""
    if isinstance(x, bool) or isinstance(x, float):
        raise TypeError(f"scores must be exact (int or Fraction), not {x!r}")
    x = Fraction(x)
    return int(x) if x.denominator == 1 else x


class NotGuaranteedError(ValueError):
    """An operation that is only sound on guaranteed games got a game that is not."""


class Stops(NamedTuple):
    """The stops of a game (Def. 8) and the pass-allowed stops (Def. 22).

    ``Ls_under``: Left first, Right may pass; ``Rs_under``: Right first, Right may pass;
    ``Ls_over``/``Rs_over``: Left may pass."""

    Ls: Score
    Rs: Score
    Ls_under: Score
    Rs_under: Score
    Ls_over: Score
    Rs_over: Score


_interned: dict[tuple[Any, ...], ScoringGame] = {}


class ScoringGame(Interned):
    """An interned scoring game form. Make one with :func:`game`, :func:`number`,
    :func:`atomic`, :func:`waiting` or ``parse``; never directly.

    ``left``/``right`` are the option tuples (sorted by id, empty on an atomic side);
    ``left_atom``/``right_atom`` the atom's score, or ``None`` when that side has options.
    """

    _makers = "game(), number(), atomic() or parse_game()"

    __slots__ = (
        "id",
        "left",
        "right",
        "left_atom",
        "right_atom",
        "birthday",
        "min_score",
        "max_score",
        "guaranteed",
        "stops",
        "number_value",
        "_text",
    )

    id: int
    left: tuple[ScoringGame, ...]
    right: tuple[ScoringGame, ...]
    left_atom: Score | None
    right_atom: Score | None
    birthday: int
    min_score: Score
    max_score: Score
    guaranteed: bool
    stops: Stops
    number_value: Score | None
    """s for the number ``<^s|^s>``, else ``None``."""

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (_text_form["parse"], (str(self),))

    @property
    def is_number(self) -> bool:
        """``<^s|^s>``: the game ends with score s whoever is to move."""
        return self.number_value is not None

    @property
    def is_left_atomic(self) -> bool:
        return self.left_atom is not None

    @property
    def is_right_atomic(self) -> bool:
        return self.right_atom is not None

    @property
    def is_purely_atomic(self) -> bool:
        return self.left_atom is not None and self.right_atom is not None

    # operators: + is the disjunctive sum; ~ the conjugate (an inverse only when one exists)
    def __add__(self, other: ScoringGame) -> ScoringGame:
        return add(self, other)

    def __invert__(self) -> ScoringGame:
        return conjugate(self)

    def __str__(self) -> str:
        return _text_form["format"](self)

    def __repr__(self) -> str:
        return f"ScoringGame({str(self)!r})"

    def _repr_html_(self) -> str:
        """In a notebook: the form, its stops (Def. 8), whether it is guaranteed (Def. 3)."""
        from cgframework.display.notebook import value_html

        return value_html(
            str(self),
            {
                "stops Ls, Rs": f"{self.stops.Ls}, {self.stops.Rs}",
                "guaranteed": "yes" if self.guaranteed else "no",
                "birthday": self.birthday,
            },
        )


_text_form: dict[str, Callable[..., Any]] = {}
"""``"format"`` and ``"parse"``: the printer and the parser that ``str`` and pickling of a
game use. They live in :mod:`cgframework_guaranteed.notation`, which builds games and so
stands above this module: it installs them here when imported, and the package ``__init__``
imports it, so a game never finds them missing."""


def install_text_form(
    format_game: Callable[[ScoringGame], str], parse_game: Callable[[str], ScoringGame]
) -> None:
    """Make ``format_game`` the printer of ``str(g)`` and ``parse_game`` the reader of a
    pickled game (its text)."""
    _text_form["format"] = format_game
    _text_form["parse"] = parse_game


def _set(obj: ScoringGame, name: str, value: Any) -> None:
    object.__setattr__(obj, name, value)


def _make(
    left: tuple[ScoringGame, ...],
    left_atom: Score | None,
    right: tuple[ScoringGame, ...],
    right_atom: Score | None,
) -> ScoringGame:
    """The interned game with these (already sorted, deduplicated) sides."""
    key = (left_atom, tuple(g.id for g in left), right_atom, tuple(g.id for g in right))
    found = _interned.get(key)
    if found is not None:
        return found
    g = object.__new__(ScoringGame)
    for name, value in (
        ("id", len(_interned)),
        ("left", left),
        ("right", right),
        ("left_atom", left_atom),
        ("right_atom", right_atom),
        ("number_value", left_atom if left_atom is not None and left_atom == right_atom else None),
        ("_text", None),
    ):
        _set(g, name, value)
    _derive(g)
    _interned[key] = g
    return g


def _derive(g: ScoringGame) -> None:
    """Birthday, score range, guaranteed flag (Def. 3) and stops (Def. 8, 22) from the options."""
    left, right, la, ra = g.left, g.right, g.left_atom, g.right_atom
    opts = left + right
    atoms = [a for a in (la, ra) if a is not None]
    lo = min([*atoms, *(o.min_score for o in opts)])
    hi = max([*atoms, *(o.max_score for o in opts)])
    ok = all(o.guaranteed for o in opts)
    if ok:
        if la is not None and ra is not None:
            ok = la <= ra
        elif la is not None:
            ok = all(la <= o.min_score for o in right)
        elif ra is not None:
            ok = all(o.max_score <= ra for o in left)
    ls = la if la is not None else max(o.stops.Rs for o in left)
    rs = ra if ra is not None else min(o.stops.Ls for o in right)
    ls_under = la if la is not None else max(o.stops.Rs_under for o in left)
    rs_under = min([ls_under, *(o.stops.Ls_under for o in right)])
    rs_over = ra if ra is not None else min(o.stops.Ls_over for o in right)
    ls_over = max([rs_over, *(o.stops.Rs_over for o in left)])
    _set(g, "birthday", 1 + max(o.birthday for o in opts) if opts else 0)
    _set(g, "min_score", lo)
    _set(g, "max_score", hi)
    _set(g, "guaranteed", ok)
    _set(g, "stops", Stops(ls, rs, ls_under, rs_under, ls_over, rs_over))


Side = Iterable[ScoringGame] | int | Fraction


def _side(side: Side) -> tuple[tuple[ScoringGame, ...], Score | None]:
    if isinstance(side, (int, Fraction)) and not isinstance(side, bool):
        return (), exact(side)
    options = tuple(sorted(set(side), key=lambda g: g.id))
    if not options:
        raise ValueError("an option set must be non-empty (write an atom ^s for 'no move')")
    for o in options:
        if not isinstance(o, ScoringGame):
            raise TypeError(f"not a scoring game: {o!r}")
    return options, None


def game(left: Side, right: Side) -> ScoringGame:
    """``<left | right>``: each side an iterable of games (a set: repeats merge) or a number,
    which is that side's atom."""
    lo, la = _side(left)
    ro, ra = _side(right)
    return _make(lo, la, ro, ra)


def atomic(left_atom: Score, right_atom: Score) -> ScoringGame:
    """The purely atomic game ``<^left_atom | ^right_atom>``."""
    return _make((), exact(left_atom), (), exact(right_atom))


def number(x: Score | str) -> ScoringGame:
    """The number ``x = <^x|^x>``."""
    s = exact(Fraction(x))
    return _make((), s, (), s)


ZERO = number(0)


def waiting(n: int, base: Score = 0) -> ScoringGame:
    """``base + n^``: ``n`` waiting moves for Left (``n < 0``: ``-n`` for Right) at score
    ``base``. ``n^ = <(n-1)^ | ^0>``; ``-n^ = <^0 | -(n-1)^>`` (Section 1.7 of digest 004)."""
    s = exact(base)
    g = number(s)
    for _ in range(abs(n)):
        g = game([g], s) if n > 0 else game(s, [g])
    return g


# ---- sum and conjugate -------------------------------------------------------------------

_add_memo: dict[tuple[int, int], ScoringGame] = {}
_conj_memo: dict[int, ScoringGame] = {}


def add(g: ScoringGame, h: ScoringGame) -> ScoringGame:
    """The disjunctive sum (Def. 5): a side is atomic only when it is atomic in both
    components, and then its atom is the sum of the atoms. Memoised on the unordered pair."""
    if g.id > h.id:
        g, h = h, g
    key = (g.id, h.id)
    found = _add_memo.get(key)
    if found is not None:
        return found
    if g.is_number:
        result = _translate(h, g.left_atom)
    elif h.is_number:
        result = _translate(g, h.left_atom)
    else:
        result = _add_sides(g, h)
    _add_memo[key] = result
    return result


def _add_sides(g: ScoringGame, h: ScoringGame) -> ScoringGame:
    left, la = _sum_side(g, h, g.left, h.left, g.left_atom, h.left_atom)
    right, ra = _sum_side(g, h, g.right, h.right, g.right_atom, h.right_atom)
    return _make(left, la, right, ra)


def _sum_side(g, h, g_opts, h_opts, g_atom, h_atom) -> tuple[tuple[ScoringGame, ...], Score | None]:
    """One side of G + H: the atoms' sum when both are atomic there, else the options
    G' + H and G + H' (Def. 5)."""
    if g_atom is not None and h_atom is not None:
        return (), exact(g_atom + h_atom)
    options = {*(add(x, h) for x in g_opts), *(add(g, y) for y in h_opts)}
    return tuple(sorted(options, key=_id)), None


def _id(g: ScoringGame) -> int:
    return g.id


_translate_memo: dict[tuple[int, Score], ScoringGame] = {}


def _translate(g: ScoringGame, x: Score) -> ScoringGame:
    """``g + x`` for a number x: every atom shifts by x, the tree is unchanged (Obs. 7)."""
    if x == 0:
        return g
    key = (g.id, x)
    found = _translate_memo.get(key)
    if found is None:
        left = tuple(sorted({_translate(o, x) for o in g.left}, key=_id))
        right = tuple(sorted({_translate(o, x) for o in g.right}, key=_id))
        la = None if g.left_atom is None else exact(g.left_atom + x)
        ra = None if g.right_atom is None else exact(g.right_atom + x)
        found = _translate_memo[key] = _make(left, la, right, ra)
    return found


def add_all(games: Iterable[ScoringGame]) -> ScoringGame:
    """The raw sum of several games (``0`` for none)."""
    total = ZERO
    for g in games:
        total = add(total, g)
    return total


def conjugate(g: ScoringGame) -> ScoringGame:
    """``~G``: switch the players; atoms change sign and side (digest 004 Section 1.4).
    An additive inverse only when G is invertible (Thm 48)."""
    found = _conj_memo.get(g.id)
    if found is None:
        left = tuple(sorted((conjugate(o) for o in g.right), key=_id))
        right = tuple(sorted((conjugate(o) for o in g.left), key=_id))
        la = None if g.right_atom is None else exact(-g.right_atom)
        ra = None if g.left_atom is None else exact(-g.left_atom)
        found = _make(left, la, right, ra)
        _conj_memo[g.id] = found
        _conj_memo[found.id] = g
    return found


# ---- structure -----------------------------------------------------------------------------


def followers(g: ScoringGame) -> Iterator[ScoringGame]:
    """Every follower of ``g`` once (``g`` itself first), depth first."""
    seen = {g.id}
    stack = [g]
    while stack:
        x = stack.pop()
        yield x
        for o in x.left + x.right:
            if o.id not in seen:
                seen.add(o.id)
                stack.append(o)


def size(g: ScoringGame) -> int:
    """The number of distinct followers (the nodes of the game's DAG)."""
    return sum(1 for _ in followers(g))


def width(g: ScoringGame) -> int:
    """The largest number of options on one side of any follower."""
    return max(max(len(x.left), len(x.right)) for x in followers(g))


def violation(g: ScoringGame) -> str | None:
    """Why ``g`` is not guaranteed (Def. 3): the first offending atomic follower and the score
    that breaks the condition, or ``None`` when ``g`` is guaranteed."""
    if g.guaranteed:
        return None
    for x in followers(g):
        if x.guaranteed or not all(o.guaranteed for o in x.left + x.right):
            continue
        la, ra = x.left_atom, x.right_atom
        if la is not None and ra is not None:
            return f"follower {x}: left atom {la} > right atom {ra}"
        if la is not None:
            bad = min(o.min_score for o in x.right)
            return f"follower {x}: left atom {la} > score {bad} below it"
        bad = max(o.max_score for o in x.left)
        return f"follower {x}: right atom {ra} < score {bad} below it"
    raise AssertionError("unreachable: a non-guaranteed game has a first offender")


def require_guaranteed(*games: ScoringGame) -> None:
    """Raise :class:`NotGuaranteedError` naming the offender when a game is not in GS."""
    for g in games:
        why = violation(g)
        if why is not None:
            raise NotGuaranteedError(f"{g} is not a guaranteed scoring game: {why}")


def cache_info() -> dict[str, int]:
    """Sizes of the intern table and operation memos (for ``Solution.stats``)."""
    return {"games": len(_interned), "sums": len(_add_memo), "conjugates": len(_conj_memo)}
