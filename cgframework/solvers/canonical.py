"""Partizan normal play: the canonical value of a position, components summed.

Each component's value is {values of Left's options | values of Right's options} reduced to
canonical form (Siegel, CGT II.2); a sum's value is the sum of its components' values.

A ruleset may also provide ``option_keys(key, player)``: for each option of the components
whose ``canonical_key`` is ``key``, the canonical keys of that option's components (parts
worth 0 may be left out, and so may options dominated by another one: the canonical form is
the same). The search then runs on keys alone, with no position objects and
a plain dict in front of the transposition table. A ruleset with a symmetry that swaps the
players (Domineering's transposition) may give, in place of a key, a token that stands for
minus the value of a key, if it also provides ``negated_key(token)``: that key, or ``None``
for a plain key; and ``search_key(component)``, the key or token ``option_keys`` gives for
the component (default: its ``canonical_key``). A ruleset with a faster way to value
many keys at once (a compiled search) may provide ``key_values(key, ctx)``: a mapping from
keys to values holding at least ``key`` and the keys of its options, or ``None`` to leave
the key to this search; it is asked once per component whose key is not yet known (nor in
the table, or a store behind it), its values are stored in the table as this search's are,
and it must charge what it searches to ``ctx.table.nodes`` (the search budget). The fast
path is used when no simplification is on and the method is not ``generic`` (which stays
the plain recursion over ``options``, the reference it is tested against).

Any other ruleset gets :func:`_position_search` (unless the method is ``generic``): option
positions and components are looked up as they are before ``components`` or
``canonical_key`` runs, and a ruleset that declares ``negative`` (a position of the negated
value, e.g. ``SwapLetters("TF", reverse=True)``) searches one of each such pair.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence

from cgframework.extensions import SolveContext
from cgframework.game import (
    BaseRuleset,
    Player,
    Position,
    Ruleset,
    Sum,
    SwapLetters,
    components,
    options,
)
from cgframework.runtime.cache import MISSING, PositionRepeats
from cgframework.solvers.common import IMPARTIAL_CHECKS, check_impartial, finish, simplified
from cgframework.values import ZERO, CanonicalGame, game
from cgframework.values.canonical import add, negate

OptionKeys = Callable[[Hashable, Player], Iterable[Sequence[Hashable]]]


def canonical_value(ruleset: Ruleset, position: Position, ctx: SolveContext) -> CanonicalGame:
    """Sum of the canonical values of the position's components."""
    option_keys = getattr(ruleset, "option_keys", None)
    table = ctx.table
    if (
        option_keys is not None
        and ctx.simplify is None
        and ctx.method != "generic"
        and table.enabled
    ):
        search = _KeySearch(ruleset, ctx, option_keys)
        key_of = getattr(ruleset, "search_key", ruleset.canonical_key)
        in_bulk = getattr(ruleset, "key_values", None)
        total = ZERO
        for comp in components(ruleset, position):
            if ruleset.impartial:  # (the check needs the key: not computed for nothing)
                check_impartial(ruleset, comp, ruleset.canonical_key(comp), ctx)
            key = key_of(comp)
            if in_bulk is not None and key not in search.known:
                _values_in_bulk(in_bulk, key, ctx, search.known)
            total = add(total, search.value(key))
        return total
    if ctx.method != "generic" and table.enabled:
        search = _position_search(ruleset, ctx)
        total = ZERO
        for comp in components(ruleset, position):
            total = add(total, search(simplified(ruleset, comp, ctx)))
        return total
    total = ZERO
    for comp in components(ruleset, position):
        total = total + _component_value(ruleset, simplified(ruleset, comp, ctx), ctx)
    return total


def _values_in_bulk(in_bulk, key: Hashable, ctx: SolveContext, known: dict) -> None:
    """``key``'s value from the table (a store may hold it), else from the ruleset's
    ``key_values`` (see the module docstring), whose values are stored in the table too
    (a store then keeps them, as it keeps the key search's)."""
    table = ctx.table
    value = table.lookup(("c", key))
    if value is not MISSING:
        known[key] = value
        return
    for k, v in (in_bulk(key, ctx) or {}).items():
        known[k] = table.store(("c", k), v)


def _component_value(ruleset: Ruleset, component: Position, ctx: SolveContext) -> CanonicalGame:
    def values_of(player: Player) -> list[CanonicalGame]:
        return [canonical_value(ruleset, m.result, ctx) for m in ruleset.options(component, player)]

    key = ruleset.canonical_key(component)

    def form() -> CanonicalGame:
        check_impartial(ruleset, component, key, ctx)
        lefts = values_of(Player.LEFT)
        return game(lefts, lefts if ruleset.impartial else values_of(Player.RIGHT))

    return ctx.table.memo(("c", key), form)


def _position_search(ruleset: Ruleset, ctx: SolveContext) -> Callable[[Position], CanonicalGame]:
    """The generic search for a ruleset without ``option_keys`` (every plugin gets it): the
    plain recursion of :func:`_component_value` with its per-option costs cut. Returns the
    function from a (simplified) component to its value.

    - An option's position is looked up as it is, in a plain dict (position -> value), before
      any ``components``, simplification or ``canonical_key`` call: most options are
      positions met before.
    - A ruleset that declares ``negative`` (a function from a position to one of the negated
      value, e.g. :class:`~cgframework.game.SwapLetters`) has a component and its negative
      share one node: the one with the smaller ``canonical_key`` is searched, the other is
      its negation.

    The transposition table still holds every component key (counters, budget, value store,
    repeated-position check), so ``--method generic`` (the plain recursion) and this search
    fill it alike. The state lives in the closure's local variables: the inner loop runs once
    per option of every position searched, and reads no attribute of its own."""
    table = ctx.table
    known: dict[Position, CanonicalGame] = table.side("position-values")
    known_get = known.get
    entries = table.plain_dict()
    impartial = bool(ruleset.impartial)
    impartial_checked = table.side("impartial-check")  # check_impartial's, to skip the call
    negative = getattr(ruleset, "negative", None)
    swap = negative.table if isinstance(negative, SwapLetters) else None  # inline translate
    reverse = swap is not None and negative.reverse
    simplify = ctx.simplify
    simplify_part = getattr(simplify, "part", simplify)  # for a position that is not a Sum
    path: set[Hashable] = set()  # keys being searched: met again, a position repeats
    kind = type(ruleset)
    plain_keys = getattr(kind, "canonical_key", None) is BaseRuleset.canonical_key
    canonical_key = ruleset.canonical_key
    ruleset_options = ruleset.options
    add_node = table.add_node
    store = table.store if entries is None else entries.__setitem__
    str_keys = swap is not None and plain_keys  # the keys are the positions: strings
    # the default components() and is_empty() leave a position whole: skip the calls
    whole = (
        getattr(kind, "components", None) is BaseRuleset.components
        and getattr(kind, "is_empty", None) is BaseRuleset.is_empty
    )
    sides = (Player.LEFT,) if impartial else (Player.LEFT, Player.RIGHT)

    def value(position: Position) -> CanonicalGame:
        """The value of an option's position not in ``known`` (a sum of its components')."""
        if whole and not isinstance(position, Sum):
            comp = position if simplify is None else simplify_part(ruleset, position)
            if comp is position:
                return component(comp)  # (which remembers it in ``known``)
            total = known_get(comp)
            if total is None:
                total = component(comp)
            else:
                table.hits += 1
        else:
            total = ZERO
            for comp in components(ruleset, position):
                comp = comp if simplify is None else simplify(ruleset, comp)
                found = known_get(comp)
                if found is None:
                    found = component(comp)
                else:
                    table.hits += 1
                total = add(total, found)
        known[position] = total
        return total

    def component(comp: Position) -> CanonicalGame:
        """A component not in ``known``: from the table, as the negation of its
        ``negative`` (of the two, the one with the smaller key is searched), or searched."""
        key = comp if plain_keys else canonical_key(comp)
        entry = ("c", key)
        found = entries.get(entry) if entries is not None else table.lookup(entry)
        if found is not None and found is not MISSING:
            if entries is not None:
                table.hits += 1
            known[comp] = found
            return found
        if entries is not None:
            table.misses += 1
        if entry in path:
            raise PositionRepeats(entry)
        if negative is not None:
            if swap is not None:
                other = comp.translate(swap)
                if reverse:
                    other = other[::-1]
            else:
                other = negative(comp)
            other_key = other if plain_keys else canonical_key(other)
            if (other_key < key) if str_keys else (other_key != key and _first(other_key, key)):
                add_node()
                path.add(entry)
                found = known_get(other)
                if found is None:
                    found = component(other)
                else:
                    table.hits += 1
                found = known[comp] = negate(found)
                path.discard(entry)
                store(entry, found)
                return found
        add_node()
        path.add(entry)
        if impartial and len(impartial_checked) < IMPARTIAL_CHECKS:
            check_impartial(ruleset, comp, key, ctx)
        hits = 0
        forms = []
        for player in sides:
            values = []
            for move in ruleset_options(comp, player):
                found = known_get(move.result)
                if found is None:
                    found = value(move.result)
                else:
                    hits += 1
                values.append(found)
            forms.append(values)
        table.hits += hits
        path.discard(entry)
        found = known[comp] = game(forms[0], forms[-1])
        store(entry, found)
        return found

    def search(comp: Position) -> CanonicalGame:
        found = known_get(comp)
        if found is None:
            return component(comp)
        table.hits += 1
        return found

    return search


def _first(a: Hashable, b: Hashable) -> bool:
    """``a`` before ``b`` in a fixed order of keys (their own order, else their texts)."""
    try:
        return bool(a < b)  # type: ignore[operator]
    except TypeError:
        return repr(a) < repr(b)


class _KeySearch:
    """The search on canonical keys (see the module docstring)."""

    def __init__(self, ruleset: Ruleset, ctx: SolveContext, option_keys: OptionKeys) -> None:
        self.known: dict[Hashable, CanonicalGame] = ctx.table.side("canonical")
        self.table = ctx.table
        self.option_keys = option_keys
        self.negated_key = getattr(ruleset, "negated_key", None)
        self.sides = (Player.LEFT,) if ruleset.impartial else (Player.LEFT, Player.RIGHT)

    def value(self, key: Hashable) -> CanonicalGame:
        """The value for a key or token, counted as one transposition-table look-up."""
        value = self.known.get(key)
        if value is not None:
            self.table.hits += 1
            return value
        if self.negated_key is not None:
            plain = self.negated_key(key)
            if plain is not None:  # a token for minus the value of ``plain``
                value = self.known.get(plain)
                if value is None:
                    value = self._expand(plain)
                else:
                    self.table.hits += 1
                value = self.known[key] = negate(value)
                return value
        return self._expand(key)

    def _expand(self, key: Hashable) -> CanonicalGame:
        """The value of a key missing from ``known``: from the table, or searched."""
        known, table, option_keys = self.known, self.table, self.option_keys
        value = table.lookup(("c", key))
        if value is MISSING:
            table.nodes += 1
            forms = []
            hits = 0
            for player in self.sides:
                values = []
                for parts in option_keys(key, player):
                    total = ZERO
                    for part in parts:
                        v = known.get(part)
                        if v is None:
                            v = self.value(part)
                        else:
                            hits += 1
                        total = v if total is ZERO else add(total, v)
                    values.append(total)
                forms.append(values)
            table.hits += hits
            value = table.store(("c", key), game(forms[0], forms[-1]))
        known[key] = value
        return value


def winning_moves(
    ruleset: Ruleset, position: Position, player: Player, ctx: SolveContext
) -> list[str]:
    """Moves after which ``player`` wins going second: to G^L >= 0 for Left, G^R <= 0 for Right."""
    best = []
    for m in options(ruleset, position, player):
        v = canonical_value(ruleset, m.result, ctx)
        if (v >= ZERO) if player is Player.LEFT else (v <= ZERO):
            best.append(m.text)
    return best


def solve_canonical(ruleset: Ruleset, position: Position, ctx: SolveContext):
    """Canonical value, its outcome class and ``ctx.first``'s winning moves."""
    value = canonical_value(ruleset, position, ctx)
    best = winning_moves(ruleset, position, ctx.first, ctx)
    nim = value.nim_value
    return finish(
        ruleset,
        position,
        ctx,
        value=value,
        outcome=value.outcome(),
        best_moves=best,
        method="canonical",
        grundy=nim if ruleset.impartial else None,
    )
