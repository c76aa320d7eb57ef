"""Impartial normal play by the Lemoine-Viennot search: nimbers found by outcome searches of
sums, not by the mex over every option.

Lemoine and Viennot (Sprouts; "Nimbers are inevitable", Theoretical Computer Science 462,
2012) decide whether a sum ``G1 + ... + Gm + *k`` is a P-position by searching the sum
itself: after a move the moved-in component is split again, the components whose nimbers
are known (or cheap: ``small`` of them are valued by the mex rule and kept) are nim-added
into the heap ``*k``, and two equal components cancel (``G + G = 0``). The nimber of a
component ``G`` is the first ``k`` for which ``G + *k`` is a P-position: a test that stops at
the first winning move it meets, where the mex rule needs the exact value of every option.
Testing ``k = 0, 1, 2, ...`` in turn, the heap's own moves (to ``G + *j``, ``j < k``) are
known losers and are never tried.

The search is generic over a :class:`ComponentGame`: component keys (symmetry-folded by the
ruleset), each key's options as the keys of the parts they split into, and a size. It is
built from any impartial ruleset (:func:`component_game`): the ruleset's own
``impartial_game(position)`` when it has one (bit-mask searches), else its key search
(``search_key``/``option_keys``, as Cram's), else ``options``/``components``/
``canonical_key``. Sums are memoised in a transposition table keyed by the sorted multiset of
their keys and the heap, bounded by ``table_limit`` entries (the oldest half is dropped when
it is full); component nimbers go through the solve's table, so a value store keeps them.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from itertools import islice
from typing import Any, Protocol

from cgframework.extensions import SolveContext
from cgframework.game import Outcome, Player, Position, Ruleset, components, options
from cgframework.runtime import memory
from cgframework.runtime.cache import MISSING, PositionRepeats
from cgframework.solution import Solution
from cgframework.solvers.common import check_impartial, finish, finish_impartial, simplified
from cgframework.values import mex

Key = Hashable

TABLE_LIMIT = 1 << 20
"""Sums (with their heap) remembered before the oldest half of the table is dropped."""

OPTIONS_LIMIT = 1 << 17
"""Components whose ordered option lists are kept before that cache is cleared."""

MEMORY_CHECK_NODES = 4096
"""Every this many sums searched, resident memory is compared with the ceiling (``cgf
--max-memory``): past :data:`SHRINK_FRACTION` of it the oldest half of the sums and every
option list are dropped; past ``memory.CHECK_FRACTION`` the search stops (exit 3)."""

SHRINK_FRACTION = 0.7

SMALL_COMPONENT = 12
"""Default: components with at most this many options are valued by the mex rule (their
nimbers kept), larger ones stay in the searched sums."""


class ComponentGame(Protocol):
    """What the search needs of a ruleset: keys of components and their options."""

    shared_keys: bool
    """True when the keys are the ruleset's ``canonical_key`` values (then nimbers are
    stored in the solve's table as the ``grundy`` solver's, ``("g", key)``)."""

    def parts(self, position: Position) -> list[Key]:
        """The keys of the position's live components."""
        ...

    def option_parts(self, key: Key) -> Sequence[tuple[Key, ...]]:
        """For each option of the component ``key``: the keys of the parts it leaves."""
        ...


class LemoineViennot:
    """One search's state: component nimbers, sum outcomes, ordered option lists.

    ``small``: a component with at most this many options is valued by the mex rule;
    ``table_limit``: sums remembered (see the module docstring)."""

    def __init__(
        self,
        game: ComponentGame,
        ctx: SolveContext,
        *,
        small: int | None = None,
        table_limit: int = TABLE_LIMIT,
    ) -> None:
        self.game = game
        self.ctx = ctx
        self.table = ctx.table
        self.small = getattr(game, "small", SMALL_COMPONENT) if small is None else small
        self.table_limit = max(2, table_limit)
        self.nimbers: dict[Key, int] = ctx.table.side("lv-nimbers")
        self.floors: dict[Key, int] = ctx.table.side("lv-floors")
        self.outcomes: dict[tuple, bool] = {}
        self.moves: dict[Key, list] = {}  # key -> [options made, the rest's iterator]
        self.on_path: set = set()
        self.order = _sort_key(game)
        self.game_size = getattr(game, "size", None)
        self.unchecked = MEMORY_CHECK_NODES
        self.ordered = getattr(game, "ordered_option_parts", None)

    def mind_memory(self) -> None:
        """The memory budget (see :data:`MEMORY_CHECK_NODES`)."""
        self.unchecked = MEMORY_CHECK_NODES
        ceiling = memory.limit()
        if ceiling is None:
            return
        if memory.resident_bytes() > SHRINK_FRACTION * ceiling:
            _drop_oldest_half(self.outcomes)
            self.moves.clear()
        memory.check("the Lemoine-Viennot search's tables")

    # ---- components ---------------------------------------------------------------------
    def options_of(self, key: Key) -> list[tuple[Key, ...]]:
        """All the options' parts, middle first (see :meth:`lazy_options`)."""
        return list(self.lazy_options(key))

    def lazy_options(self, key: Key) -> Iterator[tuple[Key, ...]]:
        """The options' parts, middle first, made as they are asked for and kept: a game
        with ``ordered_option_parts`` (an iterator already in its order) is asked no
        further than a search goes (most searches stop at the first winning move); for
        the others every option is made at once, and with a ``size`` the moves whose
        largest part is smallest (those that split the component evenly) are put first."""
        entry = self.moves.get(key)
        if entry is None:
            if len(self.moves) >= OPTIONS_LIMIT:
                self.moves.clear()
            ordered = self.ordered
            if ordered is not None:
                entry = [[], ordered(key)]
            else:
                found = list(self.game.option_parts(key))
                size = self.game_size
                if size is not None:  # (counting the parts' own options would expand them)
                    found.sort(key=lambda parts: max(map(size, parts), default=0))
                entry = [found, None]
            self.moves[key] = entry
        made = entry[0]
        i = 0
        while True:
            if i < len(made):
                yield made[i]
                i += 1
                continue
            more = entry[1]
            if more is None:
                return
            parts = next(more, None)
            if parts is None:
                entry[1] = None
                return
            made.append(parts)

    def _size(self, key: Key) -> int:
        """The game's ``size`` of a component, else its number of options."""
        size = self.game_size
        if size is not None:
            return size(key)
        return len(self.options_of(key))

    def is_small(self, key: Key) -> bool:
        """Valued by the mex rule (and kept) rather than searched in sums."""
        size = self.game_size
        if size is not None:
            return size(key) <= self.small
        return len(self.options_of(key)) <= self.small

    def known_nimber(self, key: Key) -> int | None:
        """The nimber of a component already found (here or in the solve's table)."""
        found = self.nimbers.get(key)
        if found is None and self.game.shared_keys:
            value = self.table.lookup(("g", key))
            if value is not MISSING:
                found = self.nimbers[key] = value
        return found

    def nimber(self, key: Key) -> int:
        """The nimber of one component: the mex rule for a small one, else the first heap
        ``k`` for which ``key + *k`` is a P-position."""
        found = self.known_nimber(key)
        if found is not None:
            return found
        if key in self.on_path:
            raise PositionRepeats(key)
        self.on_path.add(key)
        try:
            if self.is_small(key):
                self.table.add_node()
                seen = set()
                for parts in self.options_of(key):
                    total = 0
                    for part in parts:
                        total ^= self.nimber(part)
                    seen.add(total)
                value = mex(seen)
            else:
                value = self.floors.get(key, 0)
                while self._search((key,), value):
                    value += 1
                    self.floors[key] = value
                self.floors.pop(key, None)
        finally:
            self.on_path.discard(key)
        return self._remember(key, value)

    def _remember(self, key: Key, value: int) -> int:
        if len(self.nimbers) >= self.table_limit:
            _drop_oldest_half(self.nimbers)
        self.nimbers[key] = value
        if self.game.shared_keys:
            self.table.store(("g", key), value)
        return value

    # ---- sums ---------------------------------------------------------------------------
    def wins(self, parts: Iterable[Key], heap: int = 0) -> bool:
        """Does the player to move win the sum of the components ``parts`` and ``*heap``?"""
        rest, heap = self.reduce(parts, heap)
        if not rest:
            return heap != 0
        return self._search(rest, heap)

    def reduce(self, parts: Iterable[Key], heap: int) -> tuple[tuple[Key, ...], int]:
        """The components of unknown nimber (sorted, equal pairs cancelled) and the heap with
        the known and small ones' nimbers added."""
        if not isinstance(parts, list):
            parts = list(parts)
        if len(parts) > 1:  # G + G = 0: equal pairs go before anything is valued
            parts.sort(key=self.order)
            paired: list[Key] = []
            for part in parts:
                if paired and paired[-1] == part:
                    paired.pop()
                else:
                    paired.append(part)
            parts = paired
        rest = []
        known = self.known_nimber
        for part in parts:
            value = known(part)
            if value is None and self.is_small(part):
                value = self.nimber(part)
            if value is None:
                rest.append(part)
            else:
                heap ^= value
        return tuple(rest), heap

    def _search(self, rest: tuple[Key, ...], heap: int) -> bool:
        """``wins`` for a reduced sum: memoised; a move in a component (re-split), or in the
        heap (to a smaller one, except to those known to be losers)."""
        state = (rest, heap)
        found = self.outcomes.get(state)
        if found is not None:
            self.table.hits += 1
            return found
        if state in self.on_path:
            raise PositionRepeats(state)
        self.table.misses += 1
        self.table.add_node()
        self.unchecked -= 1
        if not self.unchecked:
            self.mind_memory()
        self.on_path.add(state)
        try:
            result = self._expand(rest, heap)
        finally:
            self.on_path.discard(state)
        if len(self.outcomes) >= self.table_limit:
            _drop_oldest_half(self.outcomes)
        self.outcomes[state] = result
        return result

    def _surely_wins(self, state: tuple[tuple[Key, ...], int]) -> bool:
        """A lone component ``G`` with a heap below the nimbers ``G + *j`` was already
        shown to be N for (``floors``): a loser to move to, no search needed."""
        rest, heap = state
        return len(rest) == 1 and heap < self.floors.get(rest[0], 0)

    def _expand(self, rest: tuple[Key, ...], heap: int) -> bool:
        outcomes = self.outcomes
        # a first pass through the table: an option already known to be a P-position
        candidates = []
        for i, key in enumerate(rest):
            others = rest[:i] + rest[i + 1 :]
            for parts in self.lazy_options(key):
                child = self.reduce(others + parts, heap)
                if not child[0]:
                    if child[1] == 0:
                        return True
                    continue  # a lone heap: N, a loser
                known = outcomes.get(child)
                if known is False:
                    return True
                if known is None and not self._surely_wins(child):
                    candidates.append(child)
        floor = self.floors.get(rest[0], 0) if len(rest) == 1 else 0
        for lower in range(heap - 1, floor - 1, -1):
            child = (rest, lower)
            if outcomes.get(child) is False:
                return True
            candidates.append(child)
        for child_rest, child_heap in candidates:
            if not self._search(child_rest, child_heap):
                return True
        return False


def _drop_oldest_half(table: dict) -> None:
    """The replacement rule: the first-inserted half of the entries goes."""
    for key in list(islice(table, len(table) // 2)):
        del table[key]


def _sort_key(game: ComponentGame):
    """``None`` (the keys' own order) for a game whose keys compare (``comparable_keys``),
    else an order by type then value, or by ``repr`` for keys that do not compare."""
    return None if getattr(game, "comparable_keys", False) else _plain_or_repr


def _plain_or_repr(key: Key) -> Any:
    return (type(key).__name__, key) if isinstance(key, int | str | tuple) else (repr(key),)


# ---- component games from rulesets ---------------------------------------------------------
class KeyedGame:
    """A ruleset with the key search's protocol (``search_key`` and ``option_keys``, as
    Cram's): the keys are its canonical keys, options never build a position."""

    shared_keys = True
    comparable_keys = False

    def __init__(self, ruleset: Ruleset, ctx: SolveContext) -> None:
        self.ruleset = ruleset
        self.ctx = ctx

    def parts(self, position: Position) -> list[Key]:
        key_of = self.ruleset.search_key
        return [
            key_of(simplified(self.ruleset, c, self.ctx))
            for c in components(self.ruleset, position)
        ]

    def option_parts(self, key: Key) -> Sequence[tuple[Key, ...]]:
        return self.ruleset.option_keys(key, Player.LEFT)


class PositionGame:
    """Any impartial ruleset: keys are ``canonical_key`` values, each with a position of it
    kept to list its options (``options`` and ``components``)."""

    shared_keys = True

    def __init__(self, ruleset: Ruleset, ctx: SolveContext) -> None:
        self.ruleset = ruleset
        self.ctx = ctx
        self.positions: dict[Key, Position] = {}

    def key(self, component: Position) -> Key:
        component = simplified(self.ruleset, component, self.ctx)
        key = self.ruleset.canonical_key(component)
        if key not in self.positions:
            check_impartial(self.ruleset, component, key, self.ctx)
            self.positions[key] = component
        return key

    def parts(self, position: Position) -> list[Key]:
        return [self.key(c) for c in components(self.ruleset, position)]

    def option_parts(self, key: Key) -> Sequence[tuple[Key, ...]]:
        position = self.positions[key]
        return [
            tuple(self.parts(move.result)) for move in self.ruleset.options(position, Player.LEFT)
        ]


def component_game(ruleset: Ruleset, position: Position, ctx: SolveContext) -> ComponentGame:
    """The search's view of the ruleset (see the module docstring)."""
    own = getattr(ruleset, "impartial_game", None)
    if own is not None:
        found = own(position, ctx)
        if found is not None:
            return found
    negated = getattr(ruleset, "negated_key", None)
    if (
        getattr(ruleset, "option_keys", None) is not None
        and getattr(ruleset, "search_key", None) is not None
        and negated is None
    ):
        return KeyedGame(ruleset, ctx)
    return PositionGame(ruleset, ctx)


def _refuse_partizan(ruleset: Ruleset) -> None:
    if not ruleset.impartial:
        from cgframework.solvers.common import SolverError

        raise SolverError(
            f"the Lemoine-Viennot search is for impartial rulesets, not {ruleset.name!r}"
        )


def lv_grundy(ruleset: Ruleset, position: Position, ctx: SolveContext) -> int:
    """The nimber of a position (a sum's: the nim-sum of its components')."""
    search = searcher(ruleset, position, ctx)
    total = 0
    for key in search.game.parts(position):
        total ^= search.nimber(key)
    return total


def searcher(ruleset: Ruleset, position: Position, ctx: SolveContext) -> LemoineViennot:
    """The search of this solve (one per table and ruleset: its caches live with the table)."""
    _refuse_partizan(ruleset)
    holder = ctx.table.side("lv-search")
    search = holder.get((ruleset.name, position))
    if search is None or search.ctx is not ctx:
        game = component_game(ruleset, position, ctx)
        search = holder[(ruleset.name, position)] = LemoineViennot(game, ctx)
    return search


def first_player_wins(ruleset: Ruleset, position: Position, ctx: SolveContext) -> bool:
    """N (True) or P (False), without the nimber: one outcome search of the sum."""
    search = searcher(ruleset, position, ctx)
    return search.wins(search.game.parts(position), 0)


def winning_moves(ruleset: Ruleset, position: Position, ctx: SolveContext) -> list[str]:
    """The moves to P-positions (each a P-test, no nimber); a game with ``root_options``
    lists the position's moves itself (a mask search whose keys name no position)."""
    search = searcher(ruleset, position, ctx)
    own = getattr(search.game, "root_options", None)
    if own is not None:  # (in the ruleset's order of its moves, as every solver lists them)
        good = {text for text, parts in own() if not search.wins(parts, 0)}
        return [m.text for m in options(ruleset, position, ctx.first) if m.text in good]
    return [
        m.text
        for m in options(ruleset, position, ctx.first)
        if not search.wins(search.game.parts(m.result), 0)
    ]


def solve_impartial_outcome(ruleset: Ruleset, position: Position, ctx: SolveContext) -> Solution:
    """``--outcome`` (``solve(..., outcome_only=True)``) for an impartial ruleset: P or N
    by one P-test of the position, and the moves to P-positions; no nimber is found. The
    keys are the outcome search's (``left_first``, ``right_first``; ``value`` None)."""
    wins = first_player_wins(ruleset, position, ctx)
    best = winning_moves(ruleset, position, ctx) if wins and ctx.winning_moves else []
    search = searcher(ruleset, position, ctx)
    return finish(
        ruleset,
        position,
        ctx,
        value=None,
        outcome=Outcome.N if wins else Outcome.P,
        best_moves=best,
        method="lemoine-viennot",
        left_first="L" if wins else "R",
        right_first="R" if wins else "L",
        search={"sums": len(search.outcomes), "nimbers": len(search.nimbers)},
        **({} if ctx.winning_moves else {"winning_moves": False}),
    )


def solve_lemoine_viennot(ruleset: Ruleset, position: Position, ctx: SolveContext) -> Solution:
    """The nimber (as ``grundy`` and ``value``) and the moves to zero, by the search."""
    g = lv_grundy(ruleset, position, ctx)
    best = winning_moves(ruleset, position, ctx) if g else []
    return finish_impartial(ruleset, position, ctx, g, best, "lemoine-viennot")
