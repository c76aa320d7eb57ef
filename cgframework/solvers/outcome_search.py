"""Who wins a normal-play position, without its full canonical value: a boolean negamax over
the position as a multiset of components.

Research questions often ask only who wins (is 5x6 Clobber a second-player win?), and the
canonical value of a big position can be far costlier than that answer. This search keeps
the position as a sum and splits it again after every move (only the component moved in
changes). A new component with at most :data:`VALUE_MOVES` moves is first valued exactly
with a small node allowance (:data:`VALUE_ALLOWANCE`); a component that has more moves, or
blows the allowance, or whose value grows past :data:`MAX_OPTIONS` options, is searched.
Numbers, nimbers and ups among the values are added into one term ``S`` (their sums stay
symbols); any other value stays an item of the state whose moves are its canonical options
(a canonical form has no dominated or reversible option, and replacing a component by an
equal game never changes who wins a sum), and two items of opposite values cancel.

- Nothing but ``S`` left: Left to move wins iff not ``S <= 0``; Right iff not ``S >= 0``.
- One valued item ``G`` and ``S``: ``G + S`` is compared with 0 as ``G`` with ``-S``
  (no sum is built).
- Else the mover tries each move in each distinct item (equal items are tried once), then
  each option of ``S``. Moves in ``S`` are tried last, but never pruned: number avoidance
  needs the rest not to equal a number, which an unvalued sum may well do.

States are remembered in a transposition table keyed by the sorted multiset of component
keys, the folded term and the player. Its size follows memory, not a count: the number of
states held when the process's resident memory first passes :data:`TABLE_SHARE` of the memory
ceiling (``--max-memory``) becomes the cap of it and of every cache (the older half of the
states is dropped at the cap). Moves are ordered middle of the move list first (a move in the
middle of a component tends to split it), in the component with the most moves first, except
that the move that last won in the same component (for the same player) is tried first. How
each component enters a state (folded, valued item, or searched) is decided once and
remembered. The garbage collector is off while the search runs (it makes no cycles; the
collector's passes over its tables took half the time), and what it made is then moved to
the collector's oldest generation without a pass over it.

Components are the ruleset's own: with ``option_keys`` (and ``search_key``/``negated_key``)
the search runs on keys alone, a negated key standing for minus its key's value (a component
and its negation in one state cancel; ``signed_option_keys(key, player)``, when the ruleset
has it, gives the options as ``(key, 1)`` / ``(key, -1)`` pairs at once); any other
ruleset is searched on positions, a component identified by its ``canonical_key``
(positions with equal keys have equal values, so one stands for all). Values found are
shared with the canonical search (the table's ``("c", key)`` entries, and a value store
behind the table).
"""

from __future__ import annotations

import functools
import gc
import itertools
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from cgframework.extensions import SolveContext
from cgframework.game import (
    BaseRuleset,
    Convention,
    Outcome,
    Player,
    Position,
    Ruleset,
    components,
    options,
)
from cgframework.runtime import memory
from cgframework.runtime.cache import MISSING
from cgframework.solvers.common import SolverError, check_impartial, finish
from cgframework.values import ZERO, CanonicalGame, game
from cgframework.values.canonical import add, ge, negate

METHOD = "outcome-search"

_LEFT = Player.LEFT  # (tables are keyed by ``player is _LEFT``: a bool hashes in C, a Player not)

VALUE_ALLOWANCE = 100
"""Positions a component's exact valuation may expand before it is given up and the
component searched instead (values of its sub-positions found so far are kept)."""

VALUE_MOVES = 8
"""Most moves (Left's and Right's together) a component may have for its valuation to be
tried: a bigger one is searched at once (its valuation would mostly blow the allowance)."""

MAX_OPTIONS = 6
"""Most options (Left's and Right's together) a component's value, or the value of any
position met while valuing it, may have in canonical form: past that, the component is
searched (see :meth:`_Components._check_size`)."""

TABLE_ENTRIES = 2_000_000
"""Most entries of each of the search's caches when the memory the process may use is
unknown (no ``--max-memory`` and no ``/proc/meminfo``); otherwise the cap is learnt from
memory (:data:`TABLE_SHARE`)."""

TABLE_SHARE = 0.5
"""The share of the memory ceiling (``--max-memory``; without one, of
:func:`cgframework.runtime.memory.default_limit`) the process may fill before the search
caps its tables at the number of states it then holds. What a state costs, with its share
of the component caches and values, differs by ruleset (170-200 bytes on Clobber (xo)^21-22,
2.2 KB on Domineering 6x6), hence a reading of memory rather than a count of bytes; the rest
of the ceiling is for the values and the interpreter."""

CHECK_EVERY = 1 << 16
"""New states between two readings of the resident memory while the cap is not known."""

MIN_ENTRIES = 1 << 16
"""The cap is never below this (a ceiling mostly taken by something else)."""


Comp = Hashable
"""A component as the search sees it (a key; see :class:`_KeyComponents`)."""


class _Default:
    """The type of :data:`_DEFAULT`: an argument left out (``None`` has a meaning there)."""


_DEFAULT = _Default()


class _Blown(Exception):
    """A valuation expanded more than its allowance."""


class _Components:
    """How the search sees components: their moves (each the components of the option) and
    their exact values. Subclasses work on keys (``option_keys``) or on positions."""

    values: dict[Any, CanonicalGame]

    def __init__(self, ruleset: Ruleset, ctx: SolveContext) -> None:
        self.ruleset = ruleset
        self.ctx = ctx
        self.table = ctx.table
        self.sides = (Player.LEFT,) if ruleset.impartial else (Player.LEFT, Player.RIGHT)
        self.moves_cache: dict[tuple[Comp, bool], list[tuple[Comp, ...]]] = {}
        self.spent = 0  # positions expanded by the valuation under way
        self.allowance = 0
        self.valuation_nodes = 0
        self.max_options = MAX_OPTIONS
        self.cap: float = TABLE_ENTRIES  # most entries of each cache (OutcomeSearch._room)

    def split(self, position: Position) -> list[Comp]:
        raise NotImplementedError

    def moves(self, comp: Comp, player: Player) -> list[tuple[Comp, ...]]:
        raise NotImplementedError

    def known(self, comp: Comp) -> CanonicalGame | None:
        raise NotImplementedError

    def _charge(self) -> None:
        self.spent += 1
        self.valuation_nodes += 1
        self.table.add_node()
        if self.spent > self.allowance:
            raise _Blown

    def _check_size(self, value: CanonicalGame) -> None:
        """Give the valuation up at a value with many options (not a number, nimber or
        uptimal, which stay symbols): adding and comparing such values costs more than
        searching the component."""
        if value.uptimal is None and len(value.left) + len(value.right) > self.max_options:
            raise _Blown

    def value(self, comp: Comp, allowance: int) -> CanonicalGame | None:
        """The exact value of ``comp``, or ``None`` if finding it takes more than
        ``allowance`` expanded positions."""
        found = self.known(comp)
        if found is not None:
            return found
        self.spent = 0
        self.allowance = allowance
        try:
            return self._value(comp)
        except _Blown:
            return None

    def _value(self, comp: Comp) -> CanonicalGame:
        raise NotImplementedError

    def _form(
        self,
        moves: Callable[[Player], Iterable[tuple[Any, ...]]],
        key: Hashable,
        value_of: Callable[[Any], CanonicalGame] | None = None,
    ) -> CanonicalGame:
        """{Left's options | Right's options}, each option the sum of its parts' values
        (Siegel, CGT II.2; a part's value is ``value_of(part)``, by default :meth:`known` else
        :meth:`_value`), kept under ``key`` in ``values`` and the table."""
        self._charge()
        value_of = value_of or self._part_value
        forms = []
        for player in self.sides:
            values = []
            for parts in moves(player):
                total = None
                for part in parts:
                    v = value_of(part)
                    total = v if total is None else add(total, v)
                values.append(ZERO if total is None else total)
            forms.append(values)
        found = game(forms[0], forms[-1])
        self.values[key] = self.table.store(("c", key), found)
        self._check_size(found)
        return found

    def _part_value(self, part: Comp) -> CanonicalGame:
        found = self.known(part)
        return self._value(part) if found is None else found


class _KeyComponents(_Components):
    """Components as ``(key, sign)``: the ruleset's plain key, and -1 when the component is
    minus that key's value (a ``negated_key`` token)."""

    def __init__(self, ruleset: Ruleset, ctx: SolveContext) -> None:
        super().__init__(ruleset, ctx)
        self.option_keys = ruleset.option_keys  # type: ignore[attr-defined]
        self.negated_key = getattr(ruleset, "negated_key", None)
        self.search_key = getattr(ruleset, "search_key", ruleset.canonical_key)
        self.signed_option_keys = getattr(ruleset, "signed_option_keys", None)
        self.values: dict[Hashable, CanonicalGame] = ctx.table.side("canonical")
        self.plain_cache: dict[Hashable, tuple[Hashable, int]] = {}
        self.negated_cache: dict[tuple[Hashable, bool], list[tuple[Comp, ...]]] = {}

    def _plain(self, token: Hashable) -> tuple[Hashable, int]:
        found = self.plain_cache.get(token)
        if found is None:
            plain = None if self.negated_key is None else self.negated_key(token)
            found = (token, 1) if plain is None else (plain, -1)
            if len(self.plain_cache) >= self.cap:
                self.plain_cache.clear()
            self.plain_cache[token] = found
        return found

    def split(self, position: Position) -> list[Comp]:
        ruleset = self.ruleset
        out = []
        for comp in components(ruleset, position):
            if ruleset.impartial:
                check_impartial(ruleset, comp, ruleset.canonical_key(comp), self.ctx)
            out.append(self._plain(self.search_key(comp)))
        return out

    def _plain_moves(self, key: Hashable, player: Player) -> list[tuple[Comp, ...]]:
        cache = self.moves_cache
        found = cache.get((key, player is _LEFT))
        if found is None:
            if self.signed_option_keys is not None:
                found = self.signed_option_keys(key, player)
            else:
                plain = self._plain
                found = [tuple(plain(p) for p in parts) for parts in self.option_keys(key, player)]
            if len(cache) >= self.cap:
                cache.clear()
            cache[(key, player is _LEFT)] = found
        return found

    def moves(self, comp: Comp, player: Player) -> list[tuple[Comp, ...]]:
        key, sign = comp
        if sign == 1:
            return self._plain_moves(key, player)
        cache = self.negated_cache
        found = cache.get((key, player is _LEFT))
        if found is None:
            found = [
                tuple([(k, -s) for k, s in parts])
                for parts in self._plain_moves(key, player.opponent)
            ]
            if len(cache) >= self.cap:
                cache.clear()
            cache[(key, player is _LEFT)] = found
        return found

    def _plain_value(self, key: Hashable) -> CanonicalGame | None:
        found = self.values.get(key)
        if found is None:
            found = self.table.lookup(("c", key))
            if found is MISSING:
                return None
            self.values[key] = found
        return found

    def known(self, comp: Comp) -> CanonicalGame | None:
        key, sign = comp
        found = self._plain_value(key)
        if found is None or sign == 1:
            return found
        return negate(found)

    def _value(self, comp: Comp) -> CanonicalGame:
        key, sign = comp
        found = self._plain_value(key)
        if found is None:
            found = self._key_form(key)
        return found if sign == 1 else negate(found)

    def _key_form(self, key: Hashable) -> CanonicalGame:
        """:meth:`_Components._form` on keys: each option's parts are ``(key, sign)`` tokens,
        read by :meth:`_token_value` (a dict read, the valuation's inner loop)."""
        return self._form(lambda player: self._plain_moves(key, player), key, self._token_value)

    def _token_value(self, part: tuple[Hashable, int]) -> CanonicalGame:
        part_key, sign = part
        v = self.values.get(part_key)
        if v is None:
            v = self._plain_value(part_key)
            if v is None:
                v = self._key_form(part_key)
        return v if sign == 1 else negate(v)


class _PositionComponents(_Components):
    """Components as their ``canonical_key``, each standing for the first position met with
    that key (equal keys, equal values). The positions are kept for the whole search:
    emptied with the other caches, a component still on the search's stack would have no
    position left (a ``KeyError`` once the cap was reached)."""

    def __init__(self, ruleset: Ruleset, ctx: SolveContext) -> None:
        super().__init__(ruleset, ctx)
        self.positions: dict[Comp, Position] = {}
        self.values: dict[Comp, CanonicalGame] = ctx.table.side("outcome-search-values")
        simplify = ctx.simplify
        self.simplify_part = getattr(simplify, "part", simplify)
        kind = type(ruleset)
        self.plain_keys = getattr(kind, "canonical_key", None) is BaseRuleset.canonical_key

    def split(self, position: Position) -> list[Comp]:
        ruleset = self.ruleset
        simplify = self.simplify_part
        out = []
        for comp in components(ruleset, position):
            if simplify is not None:
                comp = simplify(ruleset, comp)
            key = comp if self.plain_keys else ruleset.canonical_key(comp)
            if key not in self.positions:  # (never emptied: the states and the search's
                self.positions[key] = comp  # stack name components by these keys)
            out.append(key)
        return out

    def moves(self, comp: Comp, player: Player) -> list[tuple[Comp, ...]]:
        cache = self.moves_cache
        found = cache.get((comp, player is _LEFT))
        if found is None:
            position = self.positions[comp]
            if self.ruleset.impartial:
                check_impartial(self.ruleset, position, comp, self.ctx)
            found = [tuple(self.split(m.result)) for m in self.ruleset.options(position, player)]
            if len(cache) >= self.cap:
                cache.clear()
            cache[(comp, player is _LEFT)] = found
        return found

    def known(self, comp: Comp) -> CanonicalGame | None:
        found = self.values.get(comp)
        if found is None:
            found = self.table.lookup(("c", comp))
            if found is MISSING:
                return None
            self.values[comp] = found
        return found

    def _value(self, comp: Comp) -> CanonicalGame:
        found = self.known(comp)
        if found is None:
            found = self._form(lambda player: self.moves(comp, player), comp)
        return found


@functools.cache
def _middle_first(n: int) -> tuple[int, ...]:
    """0..n-1, the middle first, then alternately outwards (MCGS's play-in-the-middle)."""
    mid = n // 2
    order = [mid]
    for d in range(1, n):
        if mid - d >= 0:
            order.append(mid - d)
        if mid + d < n:
            order.append(mid + d)
        if len(order) >= n:
            break
    return tuple(order)


class OutcomeSearch:
    """Who wins a position of a normal-play ruleset (see the module docstring): build it once
    per ruleset and context, then ask :meth:`wins` as often as needed; its tables (component
    values, states) are shared by every call. ``allowance`` (:data:`VALUE_ALLOWANCE`) and
    ``value_moves`` (:data:`VALUE_MOVES`) say which new components are valued (an allowance
    of 0 values nothing that is not already known; ``value_moves=None``: any number of
    moves); left out, they are the ruleset's ``outcome_value_allowance`` and
    ``outcome_value_moves`` if it has them (a hint: Amazons' components are cheaper valued
    than searched), else those defaults. A ruleset's compiled search
    (``compiled_outcome_search``) answers on its keys unless ``compiled`` is false."""

    def __init__(
        self,
        ruleset: Ruleset,
        ctx: SolveContext | None = None,
        allowance: int | None = None,
        value_moves: int | None | _Default = _DEFAULT,
        compiled: bool = True,
    ) -> None:
        check_outcome_ruleset(ruleset)
        if allowance is None:
            allowance = getattr(ruleset, "outcome_value_allowance", VALUE_ALLOWANCE)
        if isinstance(value_moves, _Default):
            value_moves = getattr(ruleset, "outcome_value_moves", VALUE_MOVES)
        self.ruleset = ruleset
        self.ctx = ctx if ctx is not None else SolveContext()
        table = self.ctx.table
        use_keys = (
            getattr(ruleset, "option_keys", None) is not None
            and self.ctx.simplify is None
            and table.enabled
        )
        self.parts: _Components = (
            _KeyComponents(ruleset, self.ctx)
            if use_keys
            else _PositionComponents(ruleset, self.ctx)
        )
        self.states: dict[Hashable, bool] = table.side("outcome-search")
        self.budget = table_budget()
        if self.budget is not None:
            self.parts.cap = float("inf")
        self.next_check = min(len(self.states) + CHECK_EVERY, self.parts.cap)
        self.impartial = bool(ruleset.impartial)
        self.search_nodes = 0
        self.components_valued = 0
        self.components_searched = 0
        self.unvalued: set[Comp] = set()
        self.valued: dict[int, _Valued] = table.side("outcome-search-valued")
        self.allowance = allowance
        self.value_moves = value_moves
        self.killers: dict[tuple[Comp, bool], int] = {}
        self.signed = isinstance(self.parts, _KeyComponents)  # (components are (key, sign))
        self.status: dict[Comp, CanonicalGame | _Valued | None] = {}
        self.compiled = _compiled_search(ruleset, self.ctx) if compiled and self.signed else None

    # -- the public questions ------------------------------------------------------------------
    def wins(self, position: Position, player: Player) -> bool:
        """Does ``player``, to move in ``position``, win with perfect play?

        The garbage collector is off meanwhile: the search makes millions of tuples and no
        cycles, and the collector's passes over the growing tables took half its time; what
        it made is then moved to the collector's oldest generation unwalked
        (:func:`_to_oldest_generation`)."""
        return self.wins_components(self.parts.split(position), player)

    def components_of(self, position: Position) -> list[Comp]:
        """The search's components of ``position`` (a caller asking about many sums of the
        same components, as the certificate writer does, splits each once and joins them)."""
        return self.parts.split(position)

    @property
    def components_are_keys(self) -> bool:
        """Do components stand for themselves (keys of the ruleset's ``option_keys``)? Then
        :meth:`components_of` of equal positions may be reused for ever; otherwise they name
        positions the search remembers only for a while."""
        return self.signed

    def wins_components(self, comps: Sequence[Comp], player: Player) -> bool:
        """:meth:`wins` of the sum of ``comps`` (from :meth:`components_of`); the ruleset's
        compiled search answers when it has one and takes the question."""
        if self.compiled is not None:
            found = self.compiled.wins(comps, player)
            if found is not None:
                return found
        collecting = gc.isenabled()
        gc.disable()
        try:
            rest, folded = self._fold(comps, ZERO)
            return self._wins(rest, folded, player)
        finally:
            if collecting:
                _to_oldest_generation()
                gc.enable()

    def outcome(self, position: Position) -> Outcome:
        """The outcome class of ``position``."""
        left = self.wins(position, Player.LEFT)
        right = left if self.impartial else self.wins(position, Player.RIGHT)
        return Outcome.from_wins(left, right)

    def winning_moves(self, position: Position, player: Player) -> list[str]:
        """Every move of ``player`` after which the opponent, to move, loses."""
        return [
            m.text
            for m in options(self.ruleset, position, player)
            if not self.wins(m.result, player.opponent)
        ]

    def stats(self) -> dict[str, int]:
        """The search's own counters (the table's are in ``Solution.stats``)."""
        found = {
            "search_nodes": self.search_nodes,
            "valuation_nodes": self.parts.valuation_nodes,
            "components_valued": self.components_valued,
            "components_searched": self.components_searched,
            "states": len(self.states),
        }
        if self.compiled is not None:
            found["compiled_nodes"] = self.compiled.nodes
        return found

    # -- the search ------------------------------------------------------------------------------
    def _item(self, value: CanonicalGame) -> _Valued:
        found = self.valued.get(value.id)
        if found is None:
            found = self.valued[value.id] = _Valued(value)
        return found

    def _fold(
        self, comps: Sequence[Comp], folded: CanonicalGame
    ) -> tuple[list[Comp], CanonicalGame]:
        """Split ``comps`` into the items of a state (unvalued components, and valued ones
        that are not uptimal, as :class:`_Valued`) and ``folded`` plus the uptimal values
        (numbers, nimbers, ups: their sums stay symbols)."""
        rest = []
        status = self.status
        for comp in comps:
            found = status.get(comp, MISSING)
            if found is MISSING:
                found = self._status(comp)
            if found is None:
                rest.append(comp)
            elif type(found) is _Valued:
                rest.append(found)
            elif found is not ZERO:
                folded = add(folded, found)
        return rest, folded

    def _status(self, comp: Comp) -> CanonicalGame | _Valued | None:
        """How ``comp`` enters a state, remembered: its uptimal value (folded), its item
        (valued, not uptimal), or None (searched)."""
        if type(comp) is _Valued:
            value = comp.value
        else:
            value = self.parts.known(comp)
            if value is None and comp not in self.unvalued:
                value = self._try_value(comp)
                if value is None:
                    self.unvalued.add(comp)
                    self.components_searched += 1
                else:
                    self.components_valued += 1
        if value is None:
            found: CanonicalGame | _Valued | None = None
        elif value.uptimal is not None:
            found = value
        else:
            found = self._item(value)
        status = self.status
        if len(status) >= self.parts.cap:
            status.clear()
        status[comp] = found
        return found

    def _try_value(self, comp: Comp) -> CanonicalGame | None:
        """The value of a component new to the search, if it has at most ``value_moves``
        moves (both players'; :data:`VALUE_MOVES` by default) and is valued within the
        allowance."""
        parts = self.parts
        most = self.value_moves
        if most is not None:
            for player in parts.sides:  # (past ``most`` already: the other side is not listed)
                most -= len(parts.moves(comp, player))
                if most < 0:
                    return None
        return parts.value(comp, self.allowance)

    def _cancel(self, rest: list[Comp]) -> list[Comp]:
        """``rest`` without pairs of opposite items (G + -G = 0): valued items of opposite
        values, and unvalued components ``(key, 1)`` and ``(key, -1)`` (a negated token)."""
        if len(rest) < 2:
            return rest
        if self.signed:
            for comp in list(rest):
                if type(comp) is not _Valued and comp in rest:
                    minus = (comp[0], -comp[1])
                    if minus in rest:
                        rest.remove(comp)
                        rest.remove(minus)
        values = {item.value.id: item for item in rest if type(item) is _Valued}
        if len(values) < 2:
            return rest
        for item in list(values.values()):
            minus = negate(item.value).id
            if minus in values and minus != item.value.id and item in rest:
                other = values[minus]
                if other in rest:
                    rest.remove(item)
                    rest.remove(other)
        return rest

    def known_components(self, comps: Sequence[Comp], player: Player) -> bool | None:
        """What the search knows of :meth:`wins_components` without searching: its tables'
        answer (or the values', where they decide the sum), else ``None``."""
        if self.compiled is not None:  # (the sums it takes are never in the tables below)
            return self.compiled.known(comps, player)
        rest, folded = self._fold(comps, ZERO)
        rest = self._cancel(rest)
        decided = self._decided(rest, folded, player)
        if decided is not None:
            return decided
        return self.states.get(self._state(rest, folded, player))

    @staticmethod
    def _decided(rest: list[Comp], folded: CanonicalGame, player: Player) -> bool | None:
        """The answer where values alone decide (no part left to search, or one valued part
        against the folded value), else ``None``."""
        if not rest:
            if player is Player.LEFT:
                return not ge(ZERO, folded)
            return not ge(folded, ZERO)
        if len(rest) == 1 and type(rest[0]) is _Valued:  # G + S vs 0: compare G with -S
            value, minus = rest[0].value, negate(folded)
            if player is Player.LEFT:
                return not ge(minus, value)
            return not ge(value, minus)
        return None

    def _wins(self, rest: list[Comp], folded: CanonicalGame, player: Player) -> bool:
        rest = self._cancel(rest)
        decided = self._decided(rest, folded, player)
        if decided is not None:
            return decided
        state = self._state(rest, folded, player)
        states = self.states
        found = states.get(state)
        table = self.ctx.table
        if found is not None:
            table.hits += 1
            return found
        table.misses += 1
        table.add_node()
        self.search_nodes += 1
        result = self._expand(rest, folded, Player.LEFT if self.impartial else player)
        states[state] = result
        if len(states) >= self.next_check:
            self._room()
        return result

    def _room(self) -> None:
        """Keep the tables inside their share of memory (:data:`TABLE_SHARE` of the memory
        ceiling): every :data:`CHECK_EVERY` new states, read the resident memory; the first
        time it passes the share, the number of states then becomes the cap of every table
        (``parts.cap``; each component cache is emptied when it reaches it). At the cap,
        half the states go (:meth:`_evict`)."""
        states = self.states
        count = len(states)
        if self.budget is not None and count < self.parts.cap:
            if memory.resident_bytes() <= self.budget:
                self.next_check = min(count + CHECK_EVERY, self.parts.cap)
                return
            self.parts.cap = max(count, MIN_ENTRIES)
            self.budget = None  # (learnt: from now on the cap rules)
            if count < MIN_ENTRIES:
                self.next_check = MIN_ENTRIES
                return
        self._evict()
        self.next_check = self.parts.cap

    def _evict(self) -> None:
        """Drop the older half of the states (in chunks: no list of every key). Tried and
        left: dropping the states whose proofs took the fewest nodes (Clobber (xo)^22 under
        a cap of 40 thousand states: 489 thousand nodes against 390 thousand)."""
        states = self.states
        goal = len(states) // 2
        chunk = max(CHECK_EVERY, goal // 8)
        while goal > 0:
            old = list(itertools.islice(states, min(chunk, goal)))
            for key in old:
                del states[key]
            goal -= len(old)

    def _state(self, rest: list[Comp], folded: CanonicalGame, player: Player) -> Hashable:
        """The table's key of a state (``rest`` sorted in place; impartial: Left moves)."""
        rest.sort(key=hash)
        return (tuple(rest), folded.id, self.impartial or player is _LEFT)

    def _expand(self, rest: list[Comp], folded: CanonicalGame, player: Player) -> bool:
        opponent = player.opponent
        parts = self.parts
        left = player is Player.LEFT
        tried = set()
        candidates = []
        for i, comp in enumerate(rest):
            if comp in tried:
                continue
            tried.add(comp)
            if type(comp) is _Valued:
                moves = [(self._item(o),) for o in (comp.value.left if left else comp.value.right)]
            else:
                moves = parts.moves(comp, player)
            if moves:
                candidates.append((len(moves), i, moves))
        candidates.sort(key=lambda c: -c[0])
        killers = self.killers
        for _, i, moves in candidates:
            comp = rest[i]
            others = rest[:i] + rest[i + 1 :]
            order = _middle_first(len(moves))
            killer = killers.get((comp, left))
            if killer is not None and killer < len(moves):
                order = (killer, *(j for j in order if j != killer))
            for j in order:
                after, term = self._fold(moves[j], folded)
                if not self._wins(others + after, term, opponent):
                    if killer != j:
                        if len(killers) >= self.parts.cap:
                            killers.clear()
                        killers[(comp, left)] = j
                    return True
        for option in folded.left if left else folded.right:
            if not self._wins(list(rest), option, opponent):
                return True
        return False


def _to_oldest_generation() -> None:
    """Move every object the collector tracks to its oldest generation, without a pass over
    them (``gc.freeze`` then ``gc.unfreeze``: permanent, then back into the oldest).

    The search leaves hundreds of thousands of new tuples in the youngest generation; the
    collector's first pass after it would walk them all (0.27 CPU s after Amazons 3x4), and
    again on each promotion. They are long-lived, as the oldest generation's objects are.
    Skipped when the caller has frozen objects of its own (unfreezing would release them)."""
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


class _Valued:
    """A valued component that is not uptimal, in a state: its moves are its value's
    canonical options (one object per value: identity is equality)."""

    __slots__ = ("value",)

    def __init__(self, value: CanonicalGame) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"_Valued({self.value})"


COMPILED_MEMORY_FRACTION = 0.4
"""The share of the memory ceiling (:func:`cgframework.runtime.memory.ceiling`) a ruleset's
compiled search may use for its tables (of 2 GiB when the ceiling is unknown)."""


def _compiled_search(ruleset: Ruleset, ctx: SolveContext) -> Any:
    """The ruleset's optional compiled who-wins search on its keys, or None: its
    ``compiled_outcome_search(ctx, memory)`` returns an object whose ``wins(comps, player)``
    answers for a list of ``(key, sign)`` components (None: declined, this search answers)
    and whose ``nodes`` counts its expansions (charged to ``ctx.table`` as it goes)."""
    hook = getattr(ruleset, "compiled_outcome_search", None)
    if hook is None:
        return None
    ceiling = memory.ceiling()
    return hook(ctx, int((2 << 30 if ceiling is None else ceiling) * COMPILED_MEMORY_FRACTION))


SHARED = "outcome-search-instances"
"""The table's side dict where each solve leaves its search, by ruleset name, so that a
certificate written after it (:func:`shared_search`) asks the same search and tables."""


def table_budget() -> int | None:
    """Resident bytes past which the search caps its tables (:data:`TABLE_SHARE` of the
    memory ceiling), or None when the memory the process may use is unknown."""
    size = memory.ceiling()
    return None if size is None else int(size * TABLE_SHARE)


def shared_search(ruleset: Ruleset, table: Any) -> OutcomeSearch | None:
    """The outcome search a solve on ``table`` left for ``ruleset``, or ``None``."""
    found = table.side(SHARED).get(ruleset.name)
    return found if isinstance(found, OutcomeSearch) and found.ruleset is ruleset else None


def check_outcome_ruleset(ruleset: Ruleset) -> None:
    """Refuse, with a :class:`SolverError`, a ruleset the outcome search cannot answer for:
    it needs normal play and a game that ends (no loopy ruleset)."""
    if ruleset.convention is not Convention.NORMAL:
        raise SolverError(
            f"the outcome search needs a normal-play ruleset; {ruleset.name!r} is "
            f"{ruleset.convention.value}"
        )
    if getattr(ruleset, "loopy", False):
        raise SolverError(
            f"the outcome search cannot solve the loopy ruleset {ruleset.name!r} "
            "(positions may repeat): use the ruleset's own methods"
        )


def solve_outcome_search(ruleset: Ruleset, position: Position, ctx: SolveContext) -> Any:
    """Who wins ``position`` (each player moving first) and ``ctx.first``'s winning moves;
    ``value`` is ``None``."""
    search = OutcomeSearch(ruleset, ctx)
    ctx.table.side(SHARED)[ruleset.name] = search  # (a certificate after the solve: its oracle)
    left = search.wins(position, Player.LEFT)
    right = left if ruleset.impartial else search.wins(position, Player.RIGHT)
    best = search.winning_moves(position, ctx.first) if ctx.winning_moves else []
    listed = {} if ctx.winning_moves else {"winning_moves": False}
    return finish(
        ruleset,
        position,
        ctx,
        value=None,
        outcome=Outcome.from_wins(left, right),
        best_moves=best,
        method=METHOD,
        left_first="L" if left else "R",
        right_first="R" if right else "L",
        search=search.stats(),
        **listed,
    )
