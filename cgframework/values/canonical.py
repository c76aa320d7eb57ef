"""Short partizan games in canonical form, interned, with cached operations.

A :class:`CanonicalGame` is the unique simplest form of its equivalence class (Siegel, CGT
II.2: no dominated and no reversible options), so equality is identity and every value is
built once. Numbers and nimbers are tagged for fast paths (simplest-number rule, number
translation, nim-sum).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from operator import attrgetter
from typing import Any

from cgframework.values.interned import Interned

_interned: dict[tuple[tuple[int, ...], tuple[int, ...]], CanonicalGame] = {}
_by_id: list[CanonicalGame] = []
_ge_memo: dict[tuple[int, int], bool] = {}
_add_memo: dict[tuple[int, int], CanonicalGame] = {}
_neg_memo: dict[int, CanonicalGame] = {}
_stats = {"ge_hits": 0, "ge_misses": 0, "add_hits": 0, "add_misses": 0}


class CanonicalGame(Interned):
    """An interned canonical form ``{left | right}``; compare with ``<=``/``>=``, add, negate.
    Canonical forms are unique, so equality is identity (:class:`Interned`)."""

    _makers = "game(), number(), nimber() or parse_value()"

    __slots__ = ("id", "left", "right", "number_value", "nim_value", "_key", "_ls", "_rs")

    id: int
    left: tuple[CanonicalGame, ...]
    right: tuple[CanonicalGame, ...]
    number_value: Fraction | None
    nim_value: int | None

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        from cgframework.values.notation import parse_value

        return (parse_value, (str(self),))

    # ---- predicates -------------------------------------------------------------------
    @property
    def is_number(self) -> bool:
        return self.number_value is not None

    @property
    def is_integer(self) -> bool:
        return self.number_value is not None and self.number_value.denominator == 1

    @property
    def is_nimber(self) -> bool:
        return self.nim_value is not None

    @property
    def is_infinitesimal(self) -> bool:
        """Between all negative and all positive numbers: both stops are 0."""
        return self.left_stop() == 0 and self.right_stop() == 0

    # ---- algebra ----------------------------------------------------------------------
    def __add__(self, other: CanonicalGame) -> CanonicalGame:
        if not isinstance(other, CanonicalGame):
            return NotImplemented
        return add(self, other)

    def __neg__(self) -> CanonicalGame:
        return negate(self)

    def __sub__(self, other: CanonicalGame) -> CanonicalGame:
        if not isinstance(other, CanonicalGame):
            return NotImplemented
        return add(self, negate(other))

    def __ge__(self, other: CanonicalGame) -> bool:
        return ge(self, other)

    def __le__(self, other: CanonicalGame) -> bool:
        return ge(other, self)

    def __gt__(self, other: CanonicalGame) -> bool:
        return self is not other and ge(self, other)

    def __lt__(self, other: CanonicalGame) -> bool:
        return self is not other and ge(other, self)

    def compare(self, other: CanonicalGame) -> str:
        """One of ``"="``, ``">"``, ``"<"``, ``"||"`` (confused, fuzzy)."""
        if self is other:
            return "="
        if ge(self, other):
            return ">"
        if ge(other, self):
            return "<"
        return "||"

    def fuzzy(self, other: CanonicalGame) -> bool:
        return self.compare(other) == "||"

    def outcome(self) -> str:
        """``L`` (> 0), ``R`` (< 0), ``P`` (= 0) or ``N`` (confused with 0)."""
        return {">": "L", "<": "R", "=": "P", "||": "N"}[self.compare(ZERO)]

    # ---- stops, thermography -------------------------------------------------------------
    def left_stop(self) -> Fraction:
        """Siegel CGT II.3: a number is its own stop; else the max of the options' right stops."""
        return _stops(self)[0]

    def right_stop(self) -> Fraction:
        return _stops(self)[1]

    def thermograph(self) -> Any:
        from cgframework.values.thermograph import thermograph

        return thermograph(self)

    def temperature(self) -> Fraction:
        return self.thermograph().temperature

    def mean(self) -> Fraction:
        return self.thermograph().mast

    def birthday(self) -> int:
        return _birthday(self)

    def __str__(self) -> str:
        from cgframework.values.notation import format_value

        return format_value(self)

    def __repr__(self) -> str:
        return f"CanonicalGame('{self}')"


def _intern(lefts: tuple[CanonicalGame, ...], rights: tuple[CanonicalGame, ...]) -> CanonicalGame:
    """The unique object for canonical options (sorted by id)."""
    key = (tuple([g.id for g in lefts]), tuple([g.id for g in rights]))
    found = _interned.get(key)
    if found is not None:
        return found
    g = object.__new__(CanonicalGame)
    put = object.__setattr__
    put(g, "id", len(_by_id))
    put(g, "left", lefts)
    put(g, "right", rights)
    put(g, "number_value", _number_of(lefts, rights))
    put(g, "nim_value", _nimber_of(lefts, rights))
    put(g, "_key", key)
    # the stops (float when exact, which dyadic stops nearly always are: float/float and
    # float/Fraction comparisons are exact, and much cheaper than Fraction/Fraction ones)
    if g.number_value is not None:
        ls = rs = g.number_value
    else:
        ls = max(x._rs for x in lefts)
        rs = min(x._ls for x in rights)
    put(g, "_ls", _fast_number(ls))
    put(g, "_rs", _fast_number(rs))
    _by_id.append(g)
    _interned[key] = g
    return g


def _fast_number(x: Fraction | float) -> Fraction | float:
    """``x`` as a float when that is exact, else unchanged."""
    try:
        f = float(x)
    except OverflowError:
        return x
    return f if f == x else x


def _number_of(
    lefts: tuple[CanonicalGame, ...], rights: tuple[CanonicalGame, ...]
) -> Fraction | None:
    """A canonical form is a number iff its options are numbers with max left < min right."""
    if any(g.number_value is None for g in lefts + rights):
        return None
    lo = max((g.number_value for g in lefts), default=None)
    hi = min((g.number_value for g in rights), default=None)
    if lo is not None and hi is not None and lo >= hi:
        return None
    return simplest_between(lo, hi)


def _nimber_of(lefts: tuple[CanonicalGame, ...], rights: tuple[CanonicalGame, ...]) -> int | None:
    if lefts != rights:
        return None
    values = sorted(g.nim_value if g.nim_value is not None else -1 for g in lefts)
    return len(values) if values == list(range(len(values))) else None


def simplest_between(lo: Fraction | None, hi: Fraction | None) -> Fraction:
    """The simplest number x with lo < x < hi (None: unbounded); Siegel CGT II.3."""
    if lo is None and hi is None:
        return Fraction(0)
    if lo is None:
        return Fraction(min(0, _ceil(hi) - 1))
    if hi is None:
        return Fraction(max(0, _floor(lo) + 1))
    if lo < 0 < hi:
        return Fraction(0)
    if hi <= 0:
        return -simplest_between(-hi, -lo)
    # 0 <= lo < hi: the smallest integer > lo if it is < hi, else the dyadic of least
    # denominator strictly between.
    n = _floor(lo) + 1
    if n < hi:
        return Fraction(n)
    denominator = 2
    while True:
        k = _floor(lo * denominator) + 1
        if Fraction(k, denominator) < hi:
            return Fraction(k, denominator)
        denominator *= 2


def _floor(x: Fraction) -> int:
    return x.numerator // x.denominator


def _ceil(x: Fraction) -> int:
    return -((-x.numerator) // x.denominator)


# ---- constructors ---------------------------------------------------------------------------
ZERO = _intern((), ())


_by_id_key = attrgetter("id")


def _sorted(games: Iterable[CanonicalGame]) -> tuple[CanonicalGame, ...]:
    return tuple(sorted(set(games), key=_by_id_key))


_number_memo: dict[Fraction, CanonicalGame] = {Fraction(0): ZERO}


def number(x: int | Fraction | str) -> CanonicalGame:
    """The canonical form of a dyadic rational (2 = {1|}, 3/4 = {1/2|1})."""
    x = Fraction(x)
    found = _number_memo.get(x)
    if found is not None:
        return found
    d = x.denominator
    if d & (d - 1):
        raise ValueError(f"{x} is not a dyadic rational: not a short game")
    if d == 1:
        if x > 0:
            g = _intern((number(x - 1),), ())
        else:
            g = _intern((), (number(x + 1),))
    else:
        step = Fraction(1, d)
        g = _intern((number(x - step),), (number(x + step),))
    _number_memo[x] = g
    return g


_nimber_memo: list[CanonicalGame] = [ZERO]


def nimber(n: int) -> CanonicalGame:
    """*n = {0, *, ..., *(n-1) | 0, *, ..., *(n-1)}."""
    if n < 0:
        raise ValueError(f"nimber index must be >= 0, not {n}")
    while len(_nimber_memo) <= n:
        opts = tuple(_nimber_memo)
        _nimber_memo.append(_intern(opts, opts))
    return _nimber_memo[n]


def game(lefts: Iterable[CanonicalGame], rights: Iterable[CanonicalGame]) -> CanonicalGame:
    """The canonical form of ``{lefts | rights}`` (options already canonical).

    Numbers are totally ordered, so among the number options only the largest Left one and
    the smallest Right one can survive domination. With number options alone the result is
    the simplest number in between, or, when there is none, ``{x | y}`` (x >= y), which is
    canonical: x's Right options exceed x = L(G), so they exceed G and do not reverse x;
    likewise for y. Anything else goes through :func:`_canonicalise`.
    """
    ls = _sorted(lefts)
    rs = _sorted(rights)
    found = _interned.get((tuple([g.id for g in ls]), tuple([g.id for g in rs])))
    if found is not None:
        return found
    best_left = best_right = None
    other_lefts = [g for g in ls if g.number_value is None]
    if len(other_lefts) < len(ls):
        best_left = max((g for g in ls if g.number_value is not None), key=_by_stop)
    other_rights = [g for g in rs if g.number_value is None]
    if len(other_rights) < len(rs):
        best_right = min((g for g in rs if g.number_value is not None), key=_by_stop)
    if not other_lefts and not other_rights:
        lo = None if best_left is None else best_left.number_value
        hi = None if best_right is None else best_right.number_value
        if lo is None or hi is None or lo < hi:
            return number(simplest_between(lo, hi))
        return _intern((best_left,), (best_right,))
    if best_left is not None and len(other_lefts) < len(ls) - 1:
        ls = _sorted(other_lefts + [best_left])
    if best_right is not None and len(other_rights) < len(rs) - 1:
        rs = _sorted(other_rights + [best_right])
    return _canonicalise(ls, rs)


def _by_stop(g: CanonicalGame) -> Fraction | float:
    return g._ls


def _canonicalise(ls: tuple[CanonicalGame, ...], rs: tuple[CanonicalGame, ...]) -> CanonicalGame:
    """Delete dominated options and bypass reversible ones until neither applies."""
    while True:
        ls = _maximal(ls)
        rs = _minimal(rs)
        changed = False
        new_ls: list[CanonicalGame] = []
        for gl in ls:
            # G^L is reversible through G^LR if G^LR <= G: replace it by G^LRL's.
            for x in gl.right:
                if _le_raw(x, ls, rs):
                    new_ls.extend(x.left)
                    changed = True
                    break
            else:
                new_ls.append(gl)
        new_rs: list[CanonicalGame] = []
        for gr in rs:
            for x in gr.left:
                if _ge_raw(x, ls, rs):
                    new_rs.extend(x.right)
                    changed = True
                    break
            else:
                new_rs.append(gr)
        if not changed:
            return _intern(ls, rs)
        ls, rs = _sorted(new_ls), _sorted(new_rs)


def _maximal(options: tuple[CanonicalGame, ...]) -> tuple[CanonicalGame, ...]:
    """Left options not dominated by another (G^L1 <= G^L2 removes G^L1)."""
    if len(options) < 2:
        return options
    kept = []
    for g in options:
        low, high = g._ls, g._rs
        for h in options:
            # h >= g needs L(h) >= L(g) and R(h) >= R(g) (as in ge, without the call)
            if h._ls >= low and h._rs >= high and h is not g and ge(h, g):
                break
        else:
            kept.append(g)
    return tuple(kept)


def _minimal(options: tuple[CanonicalGame, ...]) -> tuple[CanonicalGame, ...]:
    if len(options) < 2:
        return options
    kept = []
    for g in options:
        low, high = g._ls, g._rs
        for h in options:
            if h._ls <= low and h._rs <= high and h is not g and ge(g, h):
                break
        else:
            kept.append(g)
    return tuple(kept)


def _le_raw(x: CanonicalGame, ls: tuple[CanonicalGame, ...], rs: tuple[CanonicalGame, ...]) -> bool:
    """x <= G for the not-yet-canonical G = {ls | rs}: no G^R <= x and no x^L >= G."""
    for gr in rs:
        if ge(x, gr):
            return False
    for xl in x.left:
        if _ge_raw(xl, ls, rs):
            return False
    return True


def _ge_raw(x: CanonicalGame, ls: tuple[CanonicalGame, ...], rs: tuple[CanonicalGame, ...]) -> bool:
    """x >= G for G = {ls | rs}: no x^R <= G and no G^L >= x."""
    for gl in ls:
        if ge(gl, x):
            return False
    for xr in x.right:
        if _le_raw(xr, ls, rs):
            return False
    return True


def le(g: CanonicalGame, h: CanonicalGame) -> bool:
    return ge(h, g)


def ge(g: CanonicalGame, h: CanonicalGame) -> bool:
    """G >= H iff no G^R <= H and no H^L >= G (Siegel CGT II.1), memoised.

    The stops decide many pairs first (Siegel CGT II.3): G >= H implies L(G) >= L(H) and
    R(G) >= R(H); and R(G) > L(H) implies G > H, since R(G - H) >= R(G) - L(H) > 0. Two
    numbers are always decided there (equal numbers are the same object).
    """
    if g is h:
        return True
    if g._ls < h._ls or g._rs < h._rs:
        return False
    if g._rs > h._ls:
        return True
    key = (g.id, h.id)
    found = _ge_memo.get(key)
    if found is not None:
        _stats["ge_hits"] += 1
        return found
    _stats["ge_misses"] += 1
    result = True
    for gr in g.right:
        if ge(h, gr):
            result = False
            break
    else:
        for hl in h.left:
            if ge(hl, g):
                result = False
                break
    _ge_memo[key] = result
    return result


def ge_by_definition(g: CanonicalGame, h: CanonicalGame) -> bool:
    """G >= H by the definition alone: no stops, no memo (the reference for :func:`ge`)."""
    return not any(ge_by_definition(h, gr) for gr in g.right) and not any(
        ge_by_definition(hl, g) for hl in h.left
    )


def negate(g: CanonicalGame) -> CanonicalGame:
    found = _neg_memo.get(g.id)
    if found is not None:
        return found
    if g.number_value is not None:
        result = number(-g.number_value)
    elif g.nim_value is not None:
        result = g
    else:
        result = _intern(_sorted(negate(r) for r in g.right), _sorted(negate(x) for x in g.left))
    _neg_memo[g.id] = result
    _neg_memo[result.id] = g
    return result


def add(g: CanonicalGame, h: CanonicalGame) -> CanonicalGame:
    """G + H, canonical, memoised on the pair of ids."""
    if g is ZERO:
        return h
    if h is ZERO:
        return g
    if g.id > h.id:
        g, h = h, g
    key = (g.id, h.id)
    found = _add_memo.get(key)
    if found is not None:
        _stats["add_hits"] += 1
        return found
    _stats["add_misses"] += 1
    gn, hn = g.number_value, h.number_value
    if gn is not None and hn is not None:
        result = number(gn + hn)
    elif g.nim_value is not None and h.nim_value is not None:
        result = nimber(g.nim_value ^ h.nim_value)
    elif gn is not None or hn is not None:
        # Number translation (Siegel CGT II.3): G + x = {G^L + x | G^R + x}, G not a number.
        x, other = (g, h) if gn is not None else (h, g)
        result = game((add(o, x) for o in other.left), (add(o, x) for o in other.right))
    else:
        lefts = [add(gl, h) for gl in g.left] + [add(g, hl) for hl in h.left]
        rights = [add(gr, h) for gr in g.right] + [add(g, hr) for hr in h.right]
        result = game(lefts, rights)
    _add_memo[key] = result
    return result


_stops_memo: dict[int, tuple[Fraction, Fraction]] = {}


def _stops(g: CanonicalGame) -> tuple[Fraction, Fraction]:
    """(left stop, right stop) as Fractions (computed when ``g`` was interned)."""
    found = _stops_memo.get(g.id)
    if found is None:
        found = (Fraction(g._ls), Fraction(g._rs))
        _stops_memo[g.id] = found
    return found


_birthday_memo: dict[int, int] = {}


def _birthday(g: CanonicalGame) -> int:
    found = _birthday_memo.get(g.id)
    if found is None:
        found = 1 + max((_birthday(x) for x in g.left + g.right), default=-1)
        _birthday_memo[g.id] = found
    return found


def up(n: int = 1) -> CanonicalGame:
    """n.up (negative: downs): up = {0|*}."""
    one = _intern((ZERO,), (nimber(1),))
    total = ZERO
    for _ in range(abs(n)):
        total = add(total, one)
    return total if n >= 0 else negate(total)


def cache_info() -> dict[str, int]:
    """Sizes of the intern table and operation caches, and their hit counts."""
    return {
        "interned": len(_by_id),
        "ge_cached": len(_ge_memo),
        "add_cached": len(_add_memo),
        **_stats,
    }


STAR = nimber(1)
ONE = number(1)
UP = up(1)
DOWN = negate(UP)
