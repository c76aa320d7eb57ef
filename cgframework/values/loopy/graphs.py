"""Loopy partizan games as finite graphs, and stoppers (Winning Ways, 2nd ed., vol. 2, ch. 11;
Siegel, Combinatorial Game Theory (2013), ch. VI).

A loopy game is a finite graph whose nodes have Left and Right options, with a start node.
Written in CGSuite notation: ``{A,B|C}``, ``pass`` (the innermost enclosing game itself) and
labels ``a:{0|{a|*}}``; ``on = {pass|}``, ``off = {|pass}``, ``over = {0|pass}``,
``under = {pass|0}``, ``upon = {pass|*}``, ``dud = {pass|pass}``; integers, ``*``, ``*n``,
sums ``+`` and ``-``.

A *stopper* has no infinite alternating play from any position (Siegel VI.2). For stoppers
G and H: G >= H iff Left, playing second in G - H, survives (never finds herself without a
move; an infinite play is a survival) (Siegel VI.2; Winning Ways ch. 11). Sums of stoppers
need not be stoppers (``on + off`` is not). A general loopy game G = G^+ & G^- is known by
its onside and offside (Winning Ways ch. 11, Siegel VI, sides): G >= H iff G^+ >= H^+ and
G^- >= H^-. Each is decided here without building the sides, by Left's survival in G - H
where an infinite play counts for Left only if it moves infinitely often in the component
whose side favours her (G for the onsides, -H for the offsides), a Buchi game solved by
iterated attractors; for two stoppers both reduce to plain survival (tested). So ``on +
off == dud``, ``dud`` is incomparable with 0, and ``off < dud < on``. Stoppers are
simplified by :func:`simplify_stopper` (dominated options removed, reversible ones bypassed,
equal positions fused). The sides as explicit stoppers, and values written ``A & B``, are in
:mod:`cgframework.values.loopy.sides`; the notation, parser and printer, in
:mod:`cgframework.values.loopy.notation` (``str`` of a game goes there through
:mod:`cgframework.values.hooks`).
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Sequence

import attrs

from cgframework.runtime.budget import LimitExceeded
from cgframework.values.hooks import provided

MAX_NODES = 10_000
"""Largest graph an expression may build (a sum's graph is the product of its parts')."""


class LoopySyntaxError(ValueError):
    """A malformed loopy game expression."""


class LoopyTooLarge(LimitExceeded):
    """A sum or a comparison past its size limit (``cgf`` exit 3, one line)."""


@attrs.frozen(cache_hash=True)
class LoopyGame:
    """Node ``i`` has Left options ``left[i]`` and Right options ``right[i]`` (node numbers);
    the game is node ``start``. Nodes not reachable from ``start`` are dropped on building."""

    left: tuple[tuple[int, ...], ...]
    right: tuple[tuple[int, ...], ...]
    start: int = 0

    @classmethod
    def build(cls, left: list[list[int]], right: list[list[int]], start: int) -> LoopyGame:
        """Keep the nodes reachable from ``start``, renumbered breadth-first from 0."""
        return cls.build_numbered(left, right, start)[0]

    @classmethod
    def build_numbered(
        cls, left: list[list[int]], right: list[list[int]], start: int
    ) -> tuple[LoopyGame, dict[int, int]]:
        """As :meth:`build`, with the new number of every node kept."""
        number = {start: 0}
        order = [start]
        queue = deque([start])
        while queue:
            v = queue.popleft()
            for w in (*left[v], *right[v]):
                if w not in number:
                    number[w] = len(order)
                    order.append(w)
                    queue.append(w)
        game = cls(
            tuple(tuple(sorted({number[w] for w in left[v]})) for v in order),
            tuple(tuple(sorted({number[w] for w in right[v]})) for v in order),
            0,
        )
        return game, number

    @property
    def size(self) -> int:
        return len(self.left)

    def __neg__(self) -> LoopyGame:
        return LoopyGame(self.right, self.left, self.start)

    def __add__(self, other: LoopyGame) -> LoopyGame:
        if not isinstance(other, LoopyGame):
            return NotImplemented  # a value known by its sides (sides.SidedGame)
        return add(self, other)

    def __sub__(self, other: LoopyGame) -> LoopyGame:
        if not isinstance(other, LoopyGame):
            return NotImplemented
        return add(self, -other)

    def is_stopper(self) -> bool:
        return is_stopper(self)

    def __ge__(self, other: LoopyGame) -> bool:
        if not isinstance(other, LoopyGame):
            return NotImplemented
        return greater_equal(self, other)

    def __le__(self, other: LoopyGame) -> bool:
        if not isinstance(other, LoopyGame):
            return NotImplemented
        return greater_equal(other, self)

    def __str__(self) -> str:
        return provided("loopy.format")(self)


def add(g: LoopyGame, h: LoopyGame) -> LoopyGame:
    """The disjunctive sum: the product graph of the two games (reachable part)."""
    index: dict[tuple[int, int], int] = {(g.start, h.start): 0}
    pairs = [(g.start, h.start)]
    left: list[list[int]] = []
    right: list[list[int]] = []

    def node(pair: tuple[int, int]) -> int:
        if pair not in index:
            if len(pairs) >= MAX_NODES:
                raise LoopyTooLarge(f"the sum has more than {MAX_NODES} positions (a limit)")
            index[pair] = len(pairs)
            pairs.append(pair)
        return index[pair]

    i = 0
    while i < len(pairs):
        a, b = pairs[i]
        left.append([node((x, b)) for x in g.left[a]] + [node((a, y)) for y in h.left[b]])
        right.append([node((x, b)) for x in g.right[a]] + [node((a, y)) for y in h.right[b]])
        i += 1
    return LoopyGame.build(left, right, 0)


def is_stopper(g: LoopyGame) -> bool:
    """No infinite alternating play from any position: the graph of states (node, player to
    move), a move leading to the other player's state, has no cycle (Kahn's algorithm)."""
    n = g.size
    # state v: Left to move at v, its moves go to Right-to-move states w + n; and back.
    succ = [tuple(w + n for w in g.left[v]) for v in range(n)] + [g.right[v] for v in range(n)]
    indegree = [0] * (2 * n)
    for options in succ:
        for w in options:
            indegree[w] += 1
    queue = deque(s for s in range(2 * n) if indegree[s] == 0)
    seen = 0
    while queue:
        s = queue.popleft()
        seen += 1
        for w in succ[s]:
            indegree[w] -= 1
            if indegree[w] == 0:
                queue.append(w)
    return seen == 2 * n


def right_forces_stuck(left: Sequence[Sequence[int]], right: Sequence[Sequence[int]]) -> list[bool]:
    """For each node of a game graph: can Right, moving first there, force Left to be stuck
    in finitely many moves? (Else Left survives, an infinite play counting for her.)
    Retrograde from the nodes where Left has no move."""
    n = len(left)
    # Left-to-move node v is Right's win iff every Left option leads to a Right win
    # (vacuously: no Left option); Right-to-move node v iff some Right option does.
    pred_left: list[list[int]] = [[] for _ in range(n)]  # Right-to-move w <- Left state v
    pred_right: list[list[int]] = [[] for _ in range(n)]  # Left-to-move w <- Right state v
    for v in range(n):
        for w in left[v]:
            pred_left[w].append(v)
        for w in right[v]:
            pred_right[w].append(v)
    pending = [len(left[v]) for v in range(n)]
    right_wins_left_to_move = [False] * n
    right_wins_right_to_move = [False] * n
    queue = deque(v for v in range(n) if pending[v] == 0)
    for v in queue:
        right_wins_left_to_move[v] = True
    while queue:
        v = queue.popleft()  # Left to move at v is lost for Left
        for u in pred_right[v]:  # Right to move at u can move to v
            if not right_wins_right_to_move[u]:
                right_wins_right_to_move[u] = True
                for p in pred_left[u]:  # Left to move at p can move to u
                    if not right_wins_left_to_move[p]:
                        pending[p] -= 1
                        if pending[p] == 0:
                            right_wins_left_to_move[p] = True
                            queue.append(p)
    return right_wins_right_to_move


def stopper_order(g: LoopyGame) -> list[list[bool]]:
    """``ge[u][v]``: is node u >= node v, for all nodes of a stopper's graph at once (one
    survival pass over the graph of all differences u - v)."""
    n = g.size
    left = [[] for _ in range(n * n)]
    right = [[] for _ in range(n * n)]
    for u in range(n):
        for v in range(n):
            i = u * n + v  # u - v: Left moves u to u^L or v to v^R; Right the other way
            left[i] = [x * n + v for x in g.left[u]] + [u * n + y for y in g.right[v]]
            right[i] = [x * n + v for x in g.right[u]] + [u * n + y for y in g.left[v]]
    lost = right_forces_stuck(left, right)
    return [[not lost[u * n + v] for v in range(n)] for u in range(n)]


MAX_SIMPLIFY = 300
"""Largest stopper the printer simplifies (the order table has size^2 entries)."""


def simplify_stopper(g: LoopyGame) -> LoopyGame:
    """A stopper with dominated options removed, reversible options bypassed and equal
    positions fused (Siegel VI.3, simplification of stoppers; as for short games, Siegel
    II.2). Every step keeps each node's value, so one order table serves throughout."""
    ge = stopper_order(g)
    n = g.size
    left = [sorted(set(o)) for o in g.left]
    right = [sorted(set(o)) for o in g.right]
    for _ in range(4 * n * n + 4):  # a bound: each pass removes or rewires some option
        changed = False
        for v in range(n):
            for options, better in ((left, lambda a, b: ge[b][a]), (right, lambda a, b: ge[a][b])):
                kept = [
                    a
                    for a in options[v]
                    if not any(
                        b != a and better(a, b) and (not better(b, a) or b < a) for b in options[v]
                    )
                ]
                if kept != options[v]:
                    options[v] = kept
                    changed = True
            for mine, theirs, back in (
                (left, right, lambda r, v=v: ge[v][r]),
                (right, left, lambda r, v=v: ge[r][v]),
            ):
                for a in list(mine[v]):
                    reverser = next((r for r in theirs[a] if r != v and back(r)), None)
                    if reverser is not None:
                        mine[v] = sorted((set(mine[v]) - {a}) | set(mine[reverser]))
                        changed = True
                        break
        if not changed:
            break
    rep = [next(u for u in range(n) if ge[u][v] and ge[v][u]) for v in range(n)]
    fused_left = [[rep[w] for w in left[rep[v]]] for v in range(n)]
    fused_right = [[rep[w] for w in right[rep[v]]] for v in range(n)]
    return LoopyGame.build(fused_left, fused_right, rep[g.start])


MAX_STATES = 400_000
"""Largest comparison game (4 x the product of the two graphs' sizes) decided."""
COMPARISON_MEMO = 1024
"""Comparisons remembered (the sides search and sums ask the same ones again)."""
_comparisons: dict[tuple[LoopyGame, LoopyGame, int | None], bool] = {}


def _predecessors(g: LoopyGame) -> tuple[list[list[int]], list[list[int]]]:
    """``pred[m][w]``: the nodes from which the player ``m`` (0 Left, 1 Right) moves to w."""
    pred: tuple[list[list[int]], list[list[int]]] = (
        [[] for _ in range(g.size)],
        [[] for _ in range(g.size)],
    )
    for m, options in enumerate((g.left, g.right)):
        for v, targets in enumerate(options):
            for w in targets:
                pred[m][w].append(v)
    return pred


def survives_second(a: LoopyGame, b: LoopyGame, favoured: int | None) -> bool:
    """Does Left, Right moving first in ``a + b``, survive? A player who cannot move loses.
    An infinite play is a survival for Left when ``favoured`` is None, else only when it makes
    infinitely many moves in component ``favoured`` (0: ``a``, 1: ``b``).

    A Buchi game whose accepting *edges* are the moves in the favoured component, on the
    states (node of a, node of b, player to move) reachable from the start, solved by the
    classical iterated attractors: Left's attractor of the accepting moves; the states
    outside it form a trap for Right, whose attractor is removed; until no trap is left
    (e.g. Gradel, Thomas and Wilke, Automata, Logics, and Infinite Games, ch. 2). The graph
    of states is never built: moves and predecessors come from the two games' graphs, and
    the counts of live moves shrink incrementally as states are removed. Results are
    memoised (the sides search repeats comparisons)."""
    key = (a, b, favoured)
    if key in _comparisons:
        return _comparisons[key]
    na, nb = a.size, b.size
    if 4 * na * nb > MAX_STATES:
        raise LoopyTooLarge(
            f"comparison needs {4 * na * nb} states (more than {MAX_STATES}: a limit)"
        )
    result = _survives_second(a, b, favoured)
    if len(_comparisons) >= COMPARISON_MEMO:
        _comparisons.clear()
    _comparisons[key] = result
    return result


def _survives_second(a: LoopyGame, b: LoopyGame, favoured: int | None) -> bool:
    nb = b.size
    n = 2 * a.size * nb  # state ((x * nb + y) << 1) | m: m = 0 Left to move, 1 Right
    a_opts, b_opts = (a.left, a.right), (b.left, b.right)
    # Moves into a state: the mover's state is  offset + ((y << 1) | m)  for a move in a,
    # offset + ((x * nb << 1) | m)  for a move in b (x, y: the target's nodes).
    a_into = [[[(x0 * nb) << 1 for x0 in sources] for sources in p] for p in _predecessors(a)]
    b_into = [[[y0 << 1 for y0 in sources] for sources in p] for p in _predecessors(b)]
    a_acc, b_acc = favoured != 1, favoured != 0  # are moves in a (in b) accepting?
    start = ((a.start * nb + b.start) << 1) | 1
    alive = bytearray(n)  # reachable and not (yet) known lost for Left
    alive[start] = 1
    states = [start]
    for s in states:  # (grows while read: breadth-first)
        m = s & 1
        x, y = divmod(s >> 1, nb)
        other = 1 - m
        for x2 in a_opts[m][x]:
            t = ((x2 * nb + y) << 1) | other
            if not alive[t]:
                alive[t] = 1
                states.append(t)
        for y2 in b_opts[m][y]:
            t = ((x * nb + y2) << 1) | other
            if not alive[t]:
                alive[t] = 1
                states.append(t)
    # Left states: moves into live states, accepting ones among them. Right states: moves
    # that are not accepting (an accepting one leads on to a live state, always good).
    live_moves = [0] * n
    accepting_live = [0] * n
    plain_moves = [0] * n
    for s in states:
        x, y = divmod(s >> 1, nb)
        if s & 1:
            plain_moves[s] = (0 if a_acc else len(a.right[x])) + (0 if b_acc else len(b.right[y]))
        else:
            live_moves[s] = len(a.left[x]) + len(b.left[y])
            accepting_live[s] = (len(a.left[x]) if a_acc else 0) + (len(b.left[y]) if b_acc else 0)

    def moves_into(t: int, m: int) -> tuple[tuple[list[int], int, bool], ...]:
        """The moves of player m into state t: (offsets, base, accepting) for each part."""
        x, y = divmod(t >> 1, nb)
        return (a_into[m][x], (y << 1) | m, a_acc), (b_into[m][y], ((x * nb) << 1) | m, b_acc)

    while True:
        # Left's attractor of the accepting moves, within the live states.
        attracted = bytearray(n)
        need = plain_moves[:]
        queue = [s for s in states if (not need[s] if s & 1 else accepting_live[s])]
        for s in queue:
            attracted[s] = 1
        while queue:
            t = queue.pop()
            m = 1 - (t & 1)
            for into, base, accepting in moves_into(t, m):
                for offset in into:
                    p = base + offset
                    if not alive[p] or attracted[p]:
                        continue
                    if m:
                        if accepting:
                            continue  # counted as good from the start
                        need[p] -= 1
                        if need[p]:
                            continue
                    attracted[p] = 1
                    queue.append(p)
        trap = [s for s in states if not attracted[s]]
        if not trap:
            return True
        # Right keeps the play in the trap with no accepting move: remove his attractor.
        for s in trap:
            alive[s] = 0
        while trap:
            t = trap.pop()
            m = 1 - (t & 1)
            for into, base, accepting in moves_into(t, m):
                for offset in into:
                    p = base + offset
                    if not alive[p]:
                        continue
                    if not m:
                        live_moves[p] -= 1
                        if accepting:
                            accepting_live[p] -= 1
                        if live_moves[p]:
                            continue
                    alive[p] = 0
                    trap.append(p)
        if not alive[start]:
            return False
        states = [s for s in states if alive[s]]


def onside_ge(g: LoopyGame, h: LoopyGame) -> bool:
    """G^+ >= H^+: Left survives G - H playing second, an infinite play counting for her
    when it moves infinitely often in G (whose onside favours her)."""
    return survives_second(g, -h, 0)


def offside_ge(g: LoopyGame, h: LoopyGame) -> bool:
    """G^- >= H^-: as :func:`onside_ge`, with infinitely many moves in -H (-(H^-) is the
    onside of -H)."""
    return survives_second(g, -h, 1)


def greater_equal(g: LoopyGame, h: LoopyGame) -> bool:
    """G >= H: for stoppers, Left survives G - H playing second (Siegel VI.2, infinite play
    counting as survival); in general, G^+ >= H^+ and G^- >= H^- (Siegel VI, sides). Games
    with the same graph (after merging positions with the same options) are equal."""
    if minimized(g) == minimized(h):
        return True
    if is_stopper(g) and is_stopper(h):
        return survives_second(g, -h, None)
    return onside_ge(g, h) and offside_ge(g, h)


def first_player_results(g: LoopyGame) -> tuple[str, str]:
    """Who wins G with Left moving first, and with Right moving first: ``L``, ``R`` or ``D``
    (a draw), read off the sides: Left, second, survives iff G^+ >= 0 and wins outright iff
    G^- >= 0; Right, second, survives iff G^- <= 0 and wins outright iff G^+ <= 0."""
    zero = LoopyGame(((),), ((),), 0)
    if not offside_ge(zero, g):
        left_first = "L"
    else:
        left_first = "D" if not onside_ge(zero, g) else "R"
    if not onside_ge(g, zero):
        right_first = "R"
    else:
        right_first = "D" if not offside_ge(g, zero) else "L"
    return left_first, right_first


@functools.lru_cache(maxsize=64)
def minimized(g: LoopyGame) -> LoopyGame:
    """The quotient graph by the coarsest partition in which two nodes of a class have Left
    options in the same classes and Right options in the same classes (partition refinement,
    as for automata): the same game, fewer nodes, so identical games get identical graphs
    more often (``over + over`` has two copies of ``over`` in its product graph). Memoised:
    comparisons and the printer ask for the same graph's quotient many times."""
    return minimized_numbered(g)[0]


def minimized_numbered(g: LoopyGame) -> tuple[LoopyGame, dict[int, int]]:
    """As :func:`minimized`, with the new node of every old node reachable in the quotient.

    Refinement by signatures (a node's class and the sets of classes of its Left and of its
    Right options), incremental: class numbers are kept when a class splits (the part whose
    signature is unchanged keeps it), so a round only recomputes the predecessors of the
    nodes that changed class. A chain of n positions (the integer n) splits one node per
    round: O(n) work in all, where recomputing every node each round was O(n^2) (``{8000 |
    pass}`` took 55 s). The result is the same coarsest stable partition (checked against
    the plain rounds in tests/loopy_reference.py)."""
    n = g.size
    preds: list[list[int]] = [[] for _ in range(n)]
    for v in range(n):
        for w in g.left[v]:
            preds[w].append(v)
        for w in g.right[v]:
            preds[w].append(v)
    cls = [0] * n
    members: dict[int, set[int]] = {0: set(range(n))}
    reference: dict[int, tuple] = {}  # the signature every up-to-date member of a class has
    fresh = 1
    dirty = set(range(n))
    while dirty:
        by_class: dict[int, list[int]] = {}
        for v in dirty:
            by_class.setdefault(cls[v], []).append(v)
        changed = []
        for c, nodes in by_class.items():
            groups: dict[tuple, list[int]] = {}
            for v in nodes:
                sig = (
                    frozenset(cls[w] for w in g.left[v]),
                    frozenset(cls[w] for w in g.right[v]),
                )
                groups.setdefault(sig, []).append(v)
            whole = len(nodes) == len(members[c])
            if whole:  # every member recomputed: the largest group keeps the number
                keep = max(groups, key=lambda sig: len(groups[sig]))
                reference[c] = keep
            else:  # the members not recomputed still have the class's signature
                keep = reference[c]
            for sig, group in groups.items():
                if sig == keep:
                    continue
                members[c].difference_update(group)
                members[fresh] = set(group)
                reference[fresh] = sig
                for v in group:
                    cls[v] = fresh
                changed.extend(group)
                fresh += 1
        dirty = {u for v in changed for u in preds[v]}
    number_of = {c: i for i, c in enumerate(sorted(set(cls)))}
    cls = [number_of[c] for c in cls]
    count = len(number_of)
    left: list[list[int]] = [[] for _ in range(count)]
    right: list[list[int]] = [[] for _ in range(count)]
    for v in range(g.size):
        left[cls[v]] = [cls[w] for w in g.left[v]]
        right[cls[v]] = [cls[w] for w in g.right[v]]
    game, number = LoopyGame.build_numbered(left, right, cls[g.start])
    return game, {v: number[cls[v]] for v in range(g.size) if cls[v] in number}


def equal(g: LoopyGame, h: LoopyGame) -> bool:
    return greater_equal(g, h) and greater_equal(h, g)


def compare_graphs(g: LoopyGame, h: LoopyGame) -> str:
    """One of ``<``, ``>``, ``=``, ``||`` for two game graphs (any loopy value:
    :func:`cgframework.values.loopy.sides.compare`)."""
    ge, le = greater_equal(g, h), greater_equal(h, g)
    return "=" if ge and le else ">" if ge else "<" if le else "||"
