"""Short partizan games in canonical form, interned, with cached operations.

A :class:`CanonicalGame` is the unique simplest form of its equivalence class (Siegel, CGT
II.2: no dominated and no reversible options), so equality is identity and every value is
built once.

Values of any size. As in CGSuite, the *uptimals* ``x + n.^ + *m`` (a dyadic number x, n ups
or downs, a nimber *m; numbers and nimbers are the cases n = m = 0 and x = n = 0) are kept as
that payload, never as a tree: ``number(10**30)``, ``nimber(2**64)`` and ``up(10**6)`` are one
object each. Sums, negatives, comparisons, stops, birthday, temperature, mean, printing and
interning of uptimals are arithmetic on the payload (O(digits)). Their options (``left``,
``right``) are built on first access, one level at a time; ``*m`` and ``x + *m`` with more than
:data:`OPTION_LIST_LIMIT` options give a lazy sequence instead of a tuple. Every canonical form
that equals an uptimal is recognised when it is interned (the options of ``x + n.^ + *m`` follow
from ``n.^ + *m = {0 | (n-1).^ + *(m xor 1)}`` for n >= 1 except ``^* = {0, * | 0}``, and number
translation), so equality stays identity. A general game whose work would have to expand an
uptimal deeper than :data:`TREE_LIMIT` levels, or list more than :data:`OPTION_LIST_LIMIT`
options, raises :class:`ValueTooLarge` (a ``ValueError``) instead of running out of stack.

The value API follows one rule: *attributes* (properties) are stored facts, read in O(1):
``left``, ``right``, ``is_number``, ``is_integer``, ``is_nimber``, ``is_uptimal``,
``number_value``, ``nim_value``, ``uptimal``; *methods* compute, and are cached:
``outcome()`` (an :class:`~cgframework.game.Outcome`), ``left_stop()``, ``right_stop()``,
``birthday()``, ``temperature()``, ``mean()``, ``thermograph()``, ``compare()``. JSON: a value
is its CGSuite text (``cgframework.io.to_json(value)``, ``parse_value`` reads it back).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from operator import attrgetter
from typing import Any

from cgframework.game import Outcome
from cgframework.runtime import memory
from cgframework.runtime.compiled import load_kernel
from cgframework.values.hooks import provided
from cgframework.values.interned import Interned

OPTION_LIST_LIMIT = 4096
"""``*m`` (and ``x + *m``) with more options than this list them lazily (:class:`StarOptions`)."""
TREE_LIMIT = 2000
"""Deepest uptimal (birthday) that general-game algorithms expand as a tree."""

REPR_LENGTH = 10_000
"""``repr`` of a value whose text is longer gives its ends around ``...`` and its length
(that form does not parse): a notebook or a traceback never builds gigabytes of text."""

_MEMORY_CHECK_MASK = 255
"""Every 256 new forms, resident memory is compared with the ceiling (:func:`memory.check`,
~10 µs): a sum or a heat too big for ``--max-memory`` stops cleanly (exit 3)."""
_BUILDING = "building this canonical form"


class ValueTooLarge(ValueError):
    """A value whose game tree would have to be built, and is too large to build."""


_interned: dict[tuple[tuple[int, ...], tuple[int, ...]], CanonicalGame] = {}
_by_id: list[CanonicalGame] = []
_ge_memo: dict[tuple[int, int], bool] = {}
_add_memo: dict[tuple[int, int], CanonicalGame] = {}
_neg_memo: dict[int, CanonicalGame] = {}
_game_memo: dict[tuple[frozenset[int], frozenset[int]], CanonicalGame] = {}
"""game()'s answers by the ids of the options it was given (before canonicalising)."""
_stats = {"ge_hits": 0, "ge_misses": 0, "add_hits": 0, "add_misses": 0}

_kernel = load_kernel("cgframework.values._k_canonical", api_version=3)
"""The compiled kernel (``_k_canonical.c``), or None. It mirrors the intern table (each game
is registered as it is made) and runs :func:`game` (its memo, dominance, reversibility, new
general forms, and new small numbers and uptimals, made as :func:`_uptimal` makes them),
:func:`ge`, :func:`add` and :func:`negate` there. Whenever it answers None (a
game it does not model: a stop that is not an exact float, a payload beyond 64 bits, a lazy
uptimal's options; or too deep), the pure-Python twins here decide (``_game_py``, ``ge_py``,
``add_py``, ``negate_py``, ``_canonicalise_py``): they are the reference in the tests, and
``CGFRAMEWORK_PURE_PYTHON=1`` runs them alone."""
if _kernel is not None:
    _kernel.reset()  # an empty mirror for an empty intern table


class CanonicalGame(Interned):
    """An interned canonical form ``{left | right}``; compare with ``<=``/``>=``, add, negate.
    Canonical forms are unique, so equality is identity (:class:`Interned`)."""

    _makers = "game(), number(), nimber() or parse_value()"

    __slots__ = ("id", "left", "right", "number_value", "nim_value", "_key", "_ls", "_rs", "_up")

    id: int
    left: tuple[CanonicalGame, ...]
    right: tuple[CanonicalGame, ...]
    number_value: Fraction | None
    nim_value: int | None
    _up: tuple[Fraction, int, int] | None

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (provided("canonical.parse"), (provided("canonical.format")(self),))

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
    def is_uptimal(self) -> bool:
        """``x + n.^ + *m`` (numbers and nimbers included), kept symbolically."""
        return self._up is not None

    @property
    def uptimal(self) -> tuple[Fraction, int, int] | None:
        """``(x, n, m)`` for ``x + n.^ + *m``, else None."""
        return self._up

    @property
    def is_infinitesimal(self) -> bool:
        """Between all negative and all positive numbers: both stops are 0."""
        return self._ls == 0 and self._rs == 0

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

    def outcome(self) -> Outcome:
        """``Outcome.L`` (> 0), ``R`` (< 0), ``P`` (= 0) or ``N`` (confused with 0)."""
        return _OUTCOME_OF[self.compare(ZERO)]

    # ---- stops, thermography -------------------------------------------------------------
    def left_stop(self) -> Fraction:
        """Siegel CGT II.3: a number is its own stop; else the max of the options' right stops."""
        return _stops(self)[0]

    def right_stop(self) -> Fraction:
        return _stops(self)[1]

    def thermograph(self) -> Any:
        return provided("canonical.thermograph")(self)

    def temperature(self) -> Fraction:
        up = self._up
        if up is not None:  # numbers: -1/denominator (integers -1); other uptimals: 0
            x, n, m = up
            return Fraction(-1, x.denominator) if n == 0 == m else Fraction(0)
        return self.thermograph().temperature

    def mean(self) -> Fraction:
        if self._up is not None:
            return self._up[0]
        return self.thermograph().mast

    def birthday(self) -> int:
        return _birthday(self)

    def __str__(self) -> str:
        return provided("canonical.format")(self)

    def __repr__(self) -> str:
        text = provided("canonical.format")(self, REPR_LENGTH)  # (a huge text: elided)
        return f"CanonicalGame('{text}')"


_OUTCOME_OF = {">": Outcome.L, "<": Outcome.R, "=": Outcome.P, "||": Outcome.N}


def _intern(lefts: tuple[CanonicalGame, ...], rights: tuple[CanonicalGame, ...]) -> CanonicalGame:
    """The unique object for canonical options (sorted by id)."""
    key = (tuple([g.id for g in lefts]), tuple([g.id for g in rights]))
    found = _interned.get(key)
    if found is not None:
        return found
    found = _uptimal_of(lefts, rights)
    if found is not None:
        _interned[key] = found
        return found
    if not len(_by_id) & _MEMORY_CHECK_MASK:  # (before the tables change: they stay whole)
        memory.check(_BUILDING)
    g = object.__new__(CanonicalGame)
    put = object.__setattr__
    put(g, "id", len(_by_id))
    put(g, "left", lefts)
    put(g, "right", rights)
    put(g, "number_value", _number_of(lefts, rights))
    put(g, "nim_value", _nimber_of(lefts, rights))
    put(g, "_key", key)
    put(g, "_up", None)
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
    if _kernel is not None:
        _kernel.register(g.id, key[0], key[1], g._ls, g._rs, None, None)
    return g


def _fast_number(x: Fraction | float) -> Fraction | float:
    """``x`` as a float when that is exact, else unchanged: a dyadic ``n / 2^k`` with ``|n|``
    under 2^53 and ``k`` at most 1000 is a float exactly (read off the integers: comparing a
    float with a Fraction makes a Fraction of the float, and a new form's stops came here)."""
    if type(x) is float:
        return x
    n, d = x.numerator, x.denominator
    if d & (d - 1) == 0 and -_EXACT_FLOAT < n < _EXACT_FLOAT and d.bit_length() <= 1001:
        return n / d  # (true division of ints rounds once: exact here)
    return x


_EXACT_FLOAT = 1 << 53


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


# ---- uptimals: x + n.^ + *m as a payload ------------------------------------------------------
Payload = tuple[Fraction, int, int]
_uptimals: dict[tuple[int, int, int, int], CanonicalGame] = {}
"""The uptimals made, by (x's numerator, x's denominator, n, m): ints hash in C, a Fraction's
hash is Python code (the kernel makes uptimals too, and enters them here)."""
_SLOT_LEFT = CanonicalGame.__dict__["left"]
_SLOT_RIGHT = CanonicalGame.__dict__["right"]


class StarOptions(Sequence):
    """The options ``x, x + *, ..., x + *(m-1)`` of ``x + *m``, made one at a time."""

    __slots__ = ("x", "m")

    def __init__(self, x: Fraction, m: int) -> None:
        self.x, self.m = x, m

    def __len__(self) -> int:
        return self.m  # OverflowError past sys.maxsize, as for range()

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.m))]
        i = index + self.m if index < 0 else index
        if not 0 <= i < self.m:
            raise IndexError(index)
        return _uptimal(self.x, 0, i)

    def __iter__(self) -> Iterator[CanonicalGame]:
        return (_uptimal(self.x, 0, i) for i in range(self.m))

    def __contains__(self, g: object) -> bool:
        up = getattr(g, "_up", None)
        return up is not None and up[0] == self.x and up[1] == 0 and up[2] < self.m

    def __repr__(self) -> str:
        return f"StarOptions(x={self.x}, m={self.m})"


def _uptimal_options(x: Fraction, n: int, m: int) -> tuple[Any, Any]:
    """The canonical options of ``x + n.^ + *m`` (Siegel CGT II.4; number translation)."""
    if n == 0 and m == 0:
        d = x.denominator
        if d != 1:
            return (_uptimal(x - Fraction(1, d), 0, 0),), (_uptimal(x + Fraction(1, d), 0, 0),)
        if x > 0:
            return (_uptimal(x - 1, 0, 0),), ()
        if x < 0:
            return (), (_uptimal(x + 1, 0, 0),)
        return (), ()
    if n == 0:
        if m > OPTION_LIST_LIMIT:
            side: Any = StarOptions(x, m)
        else:
            side = _sorted(_uptimal(x, 0, j) for j in range(m))
        return side, side
    base = _uptimal(x, 0, 0)
    if n == 1 and m == 1:
        return _sorted((base, _uptimal(x, 0, 1))), (base,)
    if n == -1 and m == 1:
        return (base,), _sorted((base, _uptimal(x, 0, 1)))
    if n > 0:
        return (base,), (_uptimal(x, n - 1, m ^ 1),)
    return (_uptimal(x, n + 1, m ^ 1),), (base,)


class _Uptimal(CanonicalGame):
    """An uptimal: its payload is the value; ``left``/``right`` are built on first access."""

    __slots__ = ()

    def _options(self) -> None:
        lefts, rights = _uptimal_options(*self._up)  # type: ignore[misc]
        _SLOT_LEFT.__set__(self, lefts)
        _SLOT_RIGHT.__set__(self, rights)
        if _kernel is not None and type(lefts) is tuple and type(rights) is tuple:
            _kernel.register_options(self.id, [g.id for g in lefts], [g.id for g in rights])


def _lazy_side(slot: Any) -> property:
    """A property reading ``slot``, filled by ``_options()`` on first access."""

    def get(self: _Uptimal) -> Any:
        try:
            return slot.__get__(self)
        except AttributeError:
            self._options()
            return slot.__get__(self)

    return property(get)


_Uptimal.left = _lazy_side(_SLOT_LEFT)  # type: ignore[assignment,misc]
_Uptimal.right = _lazy_side(_SLOT_RIGHT)  # type: ignore[assignment,misc]


EAGER_BIRTHDAY = 64
"""Uptimals born by this day get their options at once (plain slots: the searches' hot loops
read options of small numbers and stars constantly); later ones are :class:`_Uptimal`."""
_huge_ids: set[int] = set()
"""Ids of the uptimals that a sum with a general game must not expand (see
:func:`_tree_depth_check`): born after TREE_LIMIT, or with more than OPTION_LIST_LIMIT options."""
_wide_ids: set[int] = set()
"""Ids of the uptimals with more than OPTION_LIST_LIMIT options (no option list for game())."""


def _uptimal(x: Fraction, n: int, m: int) -> CanonicalGame:
    """The one object for ``x + n.^ + *m`` (x a dyadic Fraction, m >= 0)."""
    found = _uptimals.get((x.numerator, x.denominator, n, m))
    if found is not None:
        return found
    key = (x, n, m)
    born = _uptimal_birthday(x, n, m)
    eager = born <= EAGER_BIRTHDAY
    g = object.__new__(CanonicalGame if eager else _Uptimal)
    put = object.__setattr__
    put(g, "id", len(_by_id))
    put(g, "number_value", x if n == 0 == m else None)
    put(g, "nim_value", m if n == 0 and x == 0 else None)
    put(g, "_key", None)
    put(g, "_up", key)
    stop = _fast_number(x)
    put(g, "_ls", stop)
    put(g, "_rs", stop)
    _by_id.append(g)
    _uptimals[x.numerator, x.denominator, n, m] = g
    if born > TREE_LIMIT or m > OPTION_LIST_LIMIT:
        _huge_ids.add(g.id)
        if m > OPTION_LIST_LIMIT:
            _wide_ids.add(g.id)
    if eager:  # options are born earlier, so this recursion is at most EAGER_BIRTHDAY deep
        lefts, rights = _uptimal_options(x, n, m)
        put(g, "left", lefts)
        put(g, "right", rights)
        option_key = (tuple([o.id for o in lefts]), tuple([o.id for o in rights]))
        put(g, "_key", option_key)
        _interned[option_key] = g
        if _kernel is not None:
            _kernel.register(g.id, option_key[0], option_key[1], stop, stop, n, m)
    elif _kernel is not None:  # options not listed: the kernel compares it by its payload only
        _kernel.register(g.id, None, None, stop, stop, n, m)
    return g


def _uptimal_of(
    lefts: tuple[CanonicalGame, ...], rights: tuple[CanonicalGame, ...]
) -> CanonicalGame | None:
    """The uptimal whose canonical options these are, or None (see the module docstring)."""
    nl, nr = len(lefts), len(rights)
    if nl > 2 and lefts is not rights and lefts != rights:
        return None
    for g in lefts:
        if g._up is None:
            return None
    for g in rights:
        if g._up is None:
            return None
    if nl <= 1 and nr <= 1:
        x = _number_of(lefts, rights)
        if x is not None:
            return _uptimal(x, 0, 0)
    if lefts == rights:  # x + *m: options x + *j, j < m
        x = lefts[0]._up[0]  # type: ignore[index]
        stars = set()
        for g in lefts:
            gx, gn, gm = g._up  # type: ignore[misc]
            if gx != x or gn != 0:
                return None
            stars.add(gm)
        if stars == set(range(nl)):
            return _uptimal(x, 0, nl)
        return None
    if nl == 1 and nr == 1:
        (ax, an, am), (bx, bn, bm) = lefts[0]._up, rights[0]._up  # type: ignore[misc]
        if ax != bx:
            return None
        if an == 0 == am and bn >= 0 and (bn, bm) != (0, 0):
            return _uptimal(ax, bn + 1, bm ^ 1)
        if bn == 0 == bm and an <= 0 and (an, am) != (0, 0):
            return _uptimal(ax, an - 1, am ^ 1)
        return None
    if nl == 2 and nr == 1 or nl == 1 and nr == 2:
        single, pair = (rights[0], lefts) if nl == 2 else (lefts[0], rights)
        x, sn, sm = single._up  # type: ignore[misc]
        if sn == 0 == sm and {g._up for g in pair} == {(x, 0, 0), (x, 0, 1)}:
            return _uptimal(x, 1 if nl == 2 else -1, 1)
    return None


def _uptimal_sign(x: Fraction, n: int, m: int) -> str:
    """``x + n.^ + *m`` compared with 0: ``>``, ``<``, ``=`` or ``||`` (Siegel CGT II.4:
    ``^*`` is confused with 0; ``n.^ + *m > 0`` for n >= 2, and for n = 1 unless m = 1)."""
    if x:
        return ">" if x > 0 else "<"
    if n == 0:
        return "=" if m == 0 else "||"
    if m == 1 and (n == 1 or n == -1):
        return "||"
    return ">" if n > 0 else "<"


def _uptimal_birthday(x: Fraction, n: int, m: int) -> int:
    """Birthday of ``x + n.^ + *m``: b(x) plus that of the infinitesimal part, where
    b(m/2^j) = floor(|x|) + j + 1 off the integers, b(*m) = m, b(^) = b(^*) = 2,
    b(^*m) = 1 + (m xor 1) (m >= 2), b(n.^*m) = 1 + b((n-1).^*(m xor 1))."""
    d = x.denominator
    j = d.bit_length() - 1
    born = abs(x.numerator) // d + (j + 1 if j else 0)
    k = abs(n)
    if k == 0:
        return born + m
    if (k - 1) & 1:
        m ^= 1
    return born + (k - 1) + (2 if m <= 1 else 1 + (m ^ 1))


def _tree_depth_check(*games: CanonicalGame, ids: set[int] = _huge_ids) -> None:
    """Refuse to expand an uptimal too deep or too wide for a tree algorithm: adding it to a
    general game recurses once per level (``_huge_ids``); as an option of a general game its
    options may be listed (``_wide_ids``). Comparisons need neither: they descend the general
    game's tree and only O(1) levels of an uptimal's."""
    for g in games:
        if g.id in ids:
            text = provided("canonical.format")(g, max_length=60)
            raise ValueTooLarge(
                f"{text} is too large to expand into a game tree here"
                f" (birthday {_birthday(g)}; limits: {TREE_LIMIT} levels,"
                f" {OPTION_LIST_LIMIT} options)"
            )


# ---- constructors ---------------------------------------------------------------------------
ZERO = _uptimal(Fraction(0), 0, 0)


_by_id_key = attrgetter("id")


def _sorted(games: Iterable[CanonicalGame]) -> tuple[CanonicalGame, ...]:
    return tuple(sorted(set(games), key=_by_id_key))


def number(x: int | Fraction | str) -> CanonicalGame:
    """The canonical form of a dyadic rational (2 = {1|}, 3/4 = {1/2|1}), any size."""
    if type(x) is not Fraction:
        x = Fraction(x)
    found = _uptimals.get((x.numerator, x.denominator, 0, 0))
    if found is not None:
        return found
    d = x.denominator
    if d & (d - 1):
        raise ValueError(f"{x} is not a dyadic rational: not a short game")
    return _uptimal(x, 0, 0)


def nimber(n: int) -> CanonicalGame:
    """*n = {0, *, ..., *(n-1) | 0, *, ..., *(n-1)}, any size."""
    if n < 0:
        raise ValueError(f"nimber index must be >= 0, not {n}")
    return _uptimal(_FRACTION_ZERO, 0, int(n))


_FRACTION_ZERO = Fraction(0)


def uptimal(x: int | Fraction | str = 0, ups: int = 0, star: int = 0) -> CanonicalGame:
    """``x + ups.^ + *star`` (x dyadic; negative ``ups`` are downs)."""
    base = number(x)
    if star < 0:
        raise ValueError(f"nimber index must be >= 0, not {star}")
    return _uptimal(base._up[0], int(ups), int(star))  # type: ignore[index]


def game(lefts: Iterable[CanonicalGame], rights: Iterable[CanonicalGame]) -> CanonicalGame:
    """The canonical form of ``{lefts | rights}`` (options already canonical).

    Numbers are totally ordered, so among the number options only the largest Left one and
    the smallest Right one can survive domination. With number options alone the result is
    the simplest number in between, or, when there is none, ``{x | y}`` (x >= y), which is
    canonical: x's Right options exceed x = L(G), so they exceed G and do not reverse x;
    likewise for y. Anything else goes through :func:`_canonicalise`. Memoised on the sets of
    option ids given (in any order, with repeats): searches meet the same lists again.
    The compiled kernel does all this when it is loaded (see :data:`_kernel`).
    """
    if _kernel is not None:
        return _kernel.game(lefts, rights)
    return _game_py(lefts, rights)


def _game_py(lefts: Iterable[CanonicalGame], rights: Iterable[CanonicalGame]) -> CanonicalGame:
    """:func:`game` in pure Python."""
    key = (frozenset(map(_by_id_key, lefts)), frozenset(map(_by_id_key, rights)))
    found = _game_memo.get(key)
    if found is None:
        lids, rids = tuple(sorted(key[0])), tuple(sorted(key[1]))
        found = _interned.get((lids, rids))
        if found is None:
            by_id = _by_id
            found = _game(tuple([by_id[i] for i in lids]), tuple([by_id[i] for i in rids]))
        _game_memo[key] = found
    return found


def _game(ls: tuple[CanonicalGame, ...], rs: tuple[CanonicalGame, ...]) -> CanonicalGame:
    """:func:`game` for option lists met the first time (sorted by id, no repeats)."""
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
            if (lo is None or lo.denominator == 1) and (hi is None or hi.denominator == 1):
                return _simplest_integer(lo, hi)
            return number(simplest_between(lo, hi))
        return _intern((best_left,), (best_right,))
    if best_left is not None and len(other_lefts) < len(ls) - 1:
        ls = _sorted(other_lefts + [best_left])
    if best_right is not None and len(other_rights) < len(rs) - 1:
        rs = _sorted(other_rights + [best_right])
    if _wide_ids:
        _tree_depth_check(*other_lefts, *other_rights, ids=_wide_ids)
    return _canonicalise(ls, rs)


def _simplest_integer(lo: Fraction | None, hi: Fraction | None) -> CanonicalGame:
    """The simplest number strictly between integers ``lo < hi`` (None: unbounded), as
    :func:`simplest_between` gives it: 0 if it lies between, else the integer next to the
    bound nearer to 0 (Siegel CGT II.3), or the half in between when no integer does."""
    if lo is not None and hi is not None and hi - lo == 1:
        return number(simplest_between(lo, hi))  # a half: the general rule
    if lo is not None and lo >= 0:
        x = lo.numerator + 1
    elif hi is not None and hi <= 0:
        x = hi.numerator - 1
    else:
        x = 0
    found = _uptimals.get((x, 1, 0, 0))
    return found if found is not None else number(x)


def _by_stop(g: CanonicalGame) -> Fraction | float:
    return g._ls


def _canonicalise(ls: tuple[CanonicalGame, ...], rs: tuple[CanonicalGame, ...]) -> CanonicalGame:
    """Delete dominated options and bypass reversible ones until neither applies: the
    compiled kernel when it models every game met, else :func:`_canonicalise_py`."""
    if _kernel is not None:
        found = _kernel.canonicalise([g.id for g in ls], [g.id for g in rs])
        if found is not None:
            return _intern(*found)
    return _canonicalise_py(ls, rs)


def _canonicalise_py(ls: tuple[CanonicalGame, ...], rs: tuple[CanonicalGame, ...]) -> CanonicalGame:
    """:func:`_canonicalise` in pure Python (options sorted by id): the reference."""
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
            if h._ls >= low and h._rs >= high and h is not g and ge_py(h, g):
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
            if h._ls <= low and h._rs <= high and h is not g and ge_py(g, h):
                break
        else:
            kept.append(g)
    return tuple(kept)


def _le_raw(x: CanonicalGame, ls: tuple[CanonicalGame, ...], rs: tuple[CanonicalGame, ...]) -> bool:
    """x <= G for the not-yet-canonical G = {ls | rs}: no G^R <= x and no x^L >= G."""
    for gr in rs:
        if ge_py(x, gr):
            return False
    for xl in x.left:
        if _ge_raw(xl, ls, rs):
            return False
    return True


def _ge_raw(x: CanonicalGame, ls: tuple[CanonicalGame, ...], rs: tuple[CanonicalGame, ...]) -> bool:
    """x >= G for G = {ls | rs}: no x^R <= G and no G^L >= x."""
    for gl in ls:
        if ge_py(gl, x):
            return False
    for xr in x.right:
        if _le_raw(xr, ls, rs):
            return False
    return True


def le(g: CanonicalGame, h: CanonicalGame) -> bool:
    return ge(h, g)


def ge(g: CanonicalGame, h: CanonicalGame) -> bool:
    """G >= H iff no G^R <= H and no H^L >= G (Siegel CGT II.1), memoised: the compiled
    kernel when it models both games, else :func:`ge_py`."""
    if _kernel is not None:
        found = _kernel.ge(g.id, h.id)
        if found is not None:
            return found
    return ge_py(g, h)


def ge_py(g: CanonicalGame, h: CanonicalGame) -> bool:
    """:func:`ge` in pure Python (the reference): G >= H iff no G^R <= H and no H^L >= G.

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
    gu, hu = g._up, h._up
    if gu is not None:
        if hu is not None:  # both uptimals: the sign of the difference
            sign = _uptimal_sign(gu[0] - hu[0], gu[1] - hu[1], gu[2] ^ hu[2])
            result = sign == ">" or sign == "="
            _ge_memo[key] = result
            return result
    result = True
    for gr in g.right:
        if ge_py(h, gr):
            result = False
            break
    else:
        for hl in h.left:
            if ge_py(hl, g):
                result = False
                break
    _ge_memo[key] = result
    return result


def ge_by_definition(g: CanonicalGame, h: CanonicalGame) -> bool:
    """G >= H by the definition alone: no stops, no memo, no uptimal rules (the reference
    for :func:`ge`; recursive, for small games)."""
    return not any(ge_by_definition(h, gr) for gr in g.right) and not any(
        ge_by_definition(hl, g) for hl in h.left
    )


def negate(g: CanonicalGame) -> CanonicalGame:
    """-G = {-G^R | -G^L}, memoised: the compiled kernel when it models G, else
    :func:`negate_py`."""
    if _kernel is not None:
        found = _kernel.negate(g)
        if found is not None:
            return found
    return negate_py(g)


def negate_py(g: CanonicalGame) -> CanonicalGame:
    """:func:`negate` in pure Python (the reference)."""
    found = _neg_memo.get(g.id)
    if found is not None:
        return found
    up = g._up
    if up is not None:
        result = _uptimal(-up[0], -up[1], up[2])
    else:
        result = _intern(
            _sorted(negate_py(r) for r in g.right), _sorted(negate_py(x) for x in g.left)
        )
    _neg_memo[g.id] = result
    _neg_memo[result.id] = g
    return result


def add(g: CanonicalGame, h: CanonicalGame) -> CanonicalGame:
    """G + H, canonical, memoised on the pair of ids: the compiled kernel when it models G
    and H, else :func:`add_py`."""
    if _kernel is not None:
        found = _kernel.add(g, h)
        if found is not None:
            return found
    return add_py(g, h)


def add_py(g: CanonicalGame, h: CanonicalGame) -> CanonicalGame:
    """:func:`add` in pure Python (the reference)."""
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
    gu, hu = g._up, h._up
    if gu is not None and hu is not None:
        result = _uptimal(gu[0] + hu[0], gu[1] + hu[1], gu[2] ^ hu[2])
    elif gn is not None or hn is not None:
        # Number translation (Siegel CGT II.3): G + x = {G^L + x | G^R + x}, G not a number.
        x, other = (g, h) if gn is not None else (h, g)
        result = game((add_py(o, x) for o in other.left), (add_py(o, x) for o in other.right))
    else:
        if _huge_ids:
            _tree_depth_check(g, h)
        lefts = [add_py(gl, h) for gl in g.left] + [add_py(g, hl) for hl in h.left]
        rights = [add_py(gr, h) for gr in g.right] + [add_py(g, hr) for hr in h.right]
        result = game(lefts, rights)
    _add_memo[key] = result
    return result


def _tick() -> None:
    """Called by the kernel every few hundred new forms: a bytecode, so a pending deadline
    exception or Ctrl-C reaches a long add() in C, and other threads get the GIL; and the
    memory ceiling is checked (:func:`memory.check`)."""
    memory.check(_BUILDING)


if _kernel is not None:  # what the kernel hands back to Python
    _kernel.init(_by_id, _interned, _intern, _game, _game_py, CanonicalGame, add_py, negate_py)
    _kernel.set_tick(_tick)
    _kernel.init_numbers(_uptimals, Fraction)


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
    if g._up is not None:
        return _uptimal_birthday(*g._up)
    found = _birthday_memo.get(g.id)
    if found is None:
        found = 1 + max((_birthday(x) for x in g.left + g.right), default=-1)
        _birthday_memo[g.id] = found
    return found


def up(n: int = 1) -> CanonicalGame:
    """n.up (negative: downs): up = {0|*}, any n."""
    return _uptimal(_FRACTION_ZERO, int(n), 0)


def cache_info() -> dict[str, int]:
    """Sizes of the intern table and operation caches, and their hit counts."""
    return {
        "interned": len(_by_id),
        "ge_cached": len(_ge_memo),
        "add_cached": len(_add_memo),
        "game_cached": len(_game_memo),
        **_stats,
        **({f"kernel_{k}": v for k, v in _kernel.info().items()} if _kernel is not None else {}),
    }


STAR = nimber(1)
ONE = number(1)
UP = up(1)
DOWN = negate(UP)
