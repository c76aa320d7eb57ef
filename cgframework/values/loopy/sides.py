"""Onsides and offsides of loopy games as explicit stoppers (Winning Ways, 2nd ed., vol. 2,
ch. 11, "sidling"; Siegel, Combinatorial Game Theory (2013), ch. VI, sides).

A loopy game G is known by its onside G^+ (G played so that an infinite play is Left's win)
and its offside G^- (Right's win); G is *stopper-sided* when both are equal to stoppers, and
CGSuite writes it ``G^+ & G^-`` (``dud`` for ``on & off``). This module builds the sides as
simplified stoppers by guessing and checking, never by trusting the guess:

1. A stopper is its own onside and offside (simplified).
2. Otherwise, while the graph has an alternating cycle, delete one move lying on one (for
   the onside Right's moves are tried first, Right being the player an endless play hurts;
   for the offside Left's), keeping a deletion only when the smaller game still has the same
   side as G, decided by :func:`~cgframework.values.loopy.onside_ge` (resp.
   :func:`~cgframework.values.loopy.offside_ge`) both ways: the Buchi-game comparison of
   sides, computed independently of this module. A move that an endless play makes useless
   to its player is deleted this way (dud's passes, tis's and tisn's returning moves).
3. When no alternating cycle is left, the graph is a stopper equal (on that side) to G; it
   is simplified (:func:`~cgframework.values.loopy.simplify_stopper`) and returned.

When no deletion keeps the side, each such move is also tried *unravelled* (it leads into
a copy of the graph that lacks it: the move can be made once), which finds sides that are
not subgraphs of G (CGSuite unravels cycles similarly). If nothing keeps the side,
:class:`NotStopperSided` is raised with one line: the game may not be stopper-sided (Siegel
VI: not every loopy game is; CGSuite's own example ``a{0,{1|1,{*,{1+*|1+*,a}|*}}|0}`` is
refused here too), or its sides may need more unravelling than is tried. A wrong stopper is
never returned. Deleting or unravelling a Right move never hurts Left (a Left move never
helps her), so one comparison per trial decides, and a deletion found to change the side is
not tried again while only that player's moves are deleted. Everything is iterative; the
cost is a comparison (on at most 4|G|^2 states) per move tried, so graphs are limited to
:data:`MAX_SIDES_NODES` positions. On
2,400 random non-stopper graphs of 4 to 20 positions, none was refused.

Values written ``A & B`` (:class:`SidedGame`) have these sides and no game graph.
"""

from __future__ import annotations

import attrs

from cgframework.runtime.budget import LimitExceeded
from cgframework.values.hooks import provided
from cgframework.values.loopy.graphs import (
    MAX_SIMPLIFY,
    LoopyGame,
    compare_graphs,
    equal,
    first_player_results,
    greater_equal,
    is_stopper,
    minimized,
    minimized_numbered,
    offside_ge,
    onside_ge,
    simplify_stopper,
)

MAX_SIDES_NODES = 300
"""Largest graph (after merging equal positions) whose sides are computed."""
MAX_SIDES_WORK = 2_000_000
"""Most comparison states (summed over the checks) one side's search may use (about a
minute at worst; most games need far fewer)."""

LEFT, RIGHT = 0, 1


class NotStopperSided(ValueError):
    """No stopper side was found for a loopy game (see the module docstring)."""


class SidesLimit(LimitExceeded):
    """The search for a side hit :data:`MAX_SIDES_NODES` or its work limit (exit code 3)."""


def onside(g: LoopyValue, work: int = MAX_SIDES_WORK) -> LoopyGame:
    """G^+ as a simplified stopper: Left wins the infinite plays (Winning Ways ch. 11).
    Raises :class:`NotStopperSided` when none is found, :class:`SidesLimit` past ``work``."""
    return g.plus if isinstance(g, SidedGame) else _side(g, True, work)


def offside(g: LoopyValue, work: int = MAX_SIDES_WORK) -> LoopyGame:
    """G^- as a simplified stopper: Right wins the infinite plays (Winning Ways ch. 11)."""
    return g.minus if isinstance(g, SidedGame) else _side(g, False, work)


def onside_offside(g: LoopyValue, work: int = MAX_SIDES_WORK) -> tuple[LoopyGame, LoopyGame]:
    """(G^+, G^-), each search limited to ``work`` comparison states."""
    return onside(g, work), offside(g, work)


def _tidy(stopper: LoopyGame) -> LoopyGame:
    return simplify_stopper(stopper) if stopper.size <= MAX_SIMPLIFY else minimized(stopper)


def _side(g: LoopyGame, onside: bool, work: int) -> LoopyGame:
    g = minimized(g)
    if is_stopper(g):
        return _tidy(g)
    name = "onside" if onside else "offside"
    if g.size > MAX_SIDES_NODES:
        raise SidesLimit(
            f"the {name} of a game of {g.size} positions is not computed "
            f"(at most {MAX_SIDES_NODES}: a limit)"
        )
    side_ge = onside_ge if onside else offside_ge
    spent = 0

    def spend(states: int) -> None:
        nonlocal spent
        spent += states
        if spent > work:
            raise SidesLimit(
                f"the search for the {name} of a game of {g.size} positions stopped after "
                f"{work} comparison states (a limit)"
            )

    def keeps_side(player: int, trial: LoopyGame, current: LoopyGame) -> bool:
        """Has ``trial`` (``current`` with a move of ``player`` deleted or unravelled) the
        side of ``current``, i.e. of G? Deleting or unravelling a Right move never makes a
        game worse for Left on either side (Left mirrors Right's moves, so an endless play
        moves in both parts; tested), so one comparison decides; a Left move, the other."""
        spend(4 * current.size * trial.size)
        if player == RIGHT:
            return side_ge(current, trial)
        return side_ge(trial, current)

    first = RIGHT if onside else LEFT  # the player an endless play hurts on this side
    current = g
    seen = {g}  # graphs already visited: each step goes to a new one, so the loop ends
    # Moves whose deletion changed the side. Deleting more moves of the same player keeps
    # it changed (the mirror argument above), so they are not tried again until a move of
    # the other player is deleted; node numbers are carried through each new graph.
    failed: set[tuple[int, int, int]] = set()
    while not is_stopper(current):
        cyclic = sorted(alternating_cycle_moves(current), key=lambda m: (m[0] != first, m))
        step = None
        for move in cyclic:
            if move in failed:
                continue
            trial, number = minimized_numbered(_without_move(current, *move))
            if trial in seen:
                continue
            if keeps_side(move[0], trial, current):
                step = move, trial, number
                break
            failed.add(move)
        if step is not None:
            (player, v, w), trial, number = step
            failed = {
                (p, number[x], number[y])
                for p, x, y in failed
                if p == player and x in number and y in number
            }
        elif current.size * 2 <= MAX_SIDES_NODES:
            unravelled = ((m, minimized(_unravelled(current, *m))) for m in cyclic)
            step = next(
                (
                    (m, t, {})
                    for m, t in unravelled
                    if t not in seen and keeps_side(m[0], t, current)
                ),
                None,
            )
            failed = set()
        if step is None:
            raise NotStopperSided(
                f"no stopper {name} found: deleting or unravelling any move left on an "
                "alternating cycle changes it (the game may not be stopper-sided)"
            )
        current = step[1]
        seen.add(current)
    result = _tidy(current)
    spend(8 * g.size * result.size)
    if not (side_ge(result, g) and side_ge(g, result)):  # a guard: each step was checked
        raise NotStopperSided(f"internal check failed for the {name}")
    return result


def alternating_cycle_moves(g: LoopyGame) -> list[tuple[int, int, int]]:
    """The moves ``(player, v, w)`` (player 0 Left, 1 Right, from node v to node w) that lie on
    an alternating cycle: in the graph of states (node, player to move), both ends of the move
    are in one strongly connected part (networkx finds the parts iteratively)."""
    import networkx as nx  # (not needed to import this module: loopy solving starts faster)

    n = g.size
    states = nx.DiGraph()
    states.add_nodes_from(range(2 * n))
    for v in range(n):
        states.add_edges_from((v, w + n) for w in g.left[v])  # Left moves, then Right to move
        states.add_edges_from((v + n, w) for w in g.right[v])
    part: dict[int, int] = {}
    for i, component in enumerate(nx.strongly_connected_components(states)):
        for s in component:
            part[s] = i
    moves = [(LEFT, v, w) for v in range(n) for w in g.left[v] if part[v] == part[w + n]]
    moves += [(RIGHT, v, w) for v in range(n) for w in g.right[v] if part[v + n] == part[w]]
    return moves


def _without_move(g: LoopyGame, player: int, v: int, w: int) -> LoopyGame:
    """G without the move v -> w; the nodes keep their numbers (some may be unreachable), so
    that the search can follow moves into the next graph (:func:`minimized_numbered`)."""
    options = list(g.left if player == LEFT else g.right)
    options[v] = tuple(x for x in options[v] if x != w)
    if player == LEFT:
        return LoopyGame(tuple(options), g.right, g.start)
    return LoopyGame(g.left, tuple(options), g.start)


def _unravelled(g: LoopyGame, player: int, v: int, w: int) -> LoopyGame:
    """G with the move v -> w leading into a copy of G that lacks that move: the move may be
    made once (then only in the copy's other moves)."""
    n = g.size
    left = [list(o) for o in g.left] + [[x + n for x in o] for o in g.left]
    right = [list(o) for o in g.right] + [[x + n for x in o] for o in g.right]
    options = left if player == LEFT else right
    options[v][options[v].index(w)] = w + n
    options[v + n].remove(w + n)
    return LoopyGame.build(left, right, g.start)


# --- values known by their sides: A & B ------------------------------------------------


@attrs.frozen
class SidedGame:
    """The loopy game value with onside ``plus`` and offside ``minus`` (simplified stoppers,
    plus >= minus, plus != minus), written ``plus & minus`` (CGSuite's StopperSidedValue;
    Siegel VI: a game is known by its sides). A value only: no game graph with these sides
    is built (we know no construction we could check), so it is not an option inside braces.
    Sums, negation, comparison and the sides work on the sides: (G + H)^+ = (G^+ + H^+)^+."""

    plus: LoopyGame
    minus: LoopyGame

    def __str__(self) -> str:
        return provided("sided.format")(self)

    def __neg__(self) -> SidedGame:
        return SidedGame(-self.minus, -self.plus)

    def __add__(self, other: LoopyValue) -> LoopyValue:
        return add_sided(self, other)

    def __radd__(self, other: LoopyValue) -> LoopyValue:
        return add_sided(other, self)

    def __sub__(self, other: LoopyValue) -> LoopyValue:
        return add_sided(self, -other)

    def __rsub__(self, other: LoopyValue) -> LoopyValue:
        return add_sided(other, -self)

    def __ge__(self, other: LoopyValue) -> bool:
        return compare_sided(self, other) in (">", "=")

    def __le__(self, other: LoopyValue) -> bool:
        return compare_sided(self, other) in ("<", "=")


LoopyValue = LoopyGame | SidedGame


ON = LoopyGame.build([[0]], [[]], 0)
"""``on = {pass|}``."""
OFF = LoopyGame.build([[]], [[0]], 0)
"""``off = {|pass}``."""


def sided(a: LoopyValue, b: LoopyValue) -> LoopyValue:
    """``A & B``: the value whose onside is A^+ and offside B^- (A's onside, B's offside, so
    stoppers stand for themselves); refused unless A^+ >= B^-. Equal sides give the stopper."""
    plus, minus = onside(a), offside(b)
    if not greater_equal(plus, minus):
        raise ValueError("A & B needs A >= B (an onside is at least its offside)")
    return plus if equal(plus, minus) else SidedGame(plus, minus)


def normalised(value: LoopyValue) -> LoopyValue:
    """The value by its sides, as solvers give it: a simplified stopper when both sides are
    equal (a stopper is its own sides), else ``plus & minus``. Equal stoppers simplify to
    the same graph up to the numbering of its nodes (Siegel VI, simplest forms of stoppers).
    Raises :class:`NotStopperSided` or :class:`SidesLimit` as :func:`onside` does."""
    if isinstance(value, SidedGame):
        return value
    if is_stopper(value):
        return _tidy(minimized(value))
    return sided(value, value)


def add_sided(a: LoopyValue, b: LoopyValue) -> LoopyValue:
    """A sum with a value known by its sides: onside (A^+ + B^+)^+, offside (A^- + B^-)^-."""
    if isinstance(a, LoopyGame) and isinstance(b, LoopyGame):
        return a + b
    return sided(onside(onside(a) + onside(b)), offside(offside(a) + offside(b)))


_ZERO = LoopyGame(((),), ((),), 0)


def side_results(plus: LoopyGame, minus: LoopyGame) -> tuple[str, str]:
    """Who wins the game with onside ``plus`` and offside ``minus`` (stoppers), with Left
    first and with Right first: ``L``, ``R`` or ``D`` (a draw). Left, moving second,
    survives iff G^+ >= 0 and wins outright iff G^- >= 0; Right, moving second, survives iff
    G^- <= 0 and wins outright iff G^+ <= 0 (Siegel VI, sides; Winning Ways ch. 11)."""
    ge = greater_equal
    left_first = "L" if not ge(_ZERO, minus) else "R" if ge(_ZERO, plus) else "D"
    right_first = "R" if not ge(plus, _ZERO) else "L" if ge(minus, _ZERO) else "D"
    return left_first, right_first


def first_results(value: LoopyValue) -> tuple[str, str]:
    """(with Left first, with Right first) of any loopy value: ``L``, ``R`` or ``D``. Equal
    values have equal results (G = H means G + X and H + X have the same outcome for every
    X, X = 0 among them), so these may key a hash consistent with equality."""
    if isinstance(value, SidedGame):
        return side_results(value.plus, value.minus)
    return first_player_results(value)


def compare(g: LoopyValue, h: LoopyValue) -> str:
    """One of ``<``, ``>``, ``=``, ``||``; either may be a value known by its sides
    (:class:`SidedGame`)."""
    if isinstance(g, LoopyGame) and isinstance(h, LoopyGame):
        return compare_graphs(g, h)
    return compare_sided(g, h)


def compare_sided(a: LoopyValue, b: LoopyValue) -> str:
    """``<``, ``>``, ``=`` or ``||``: G >= H iff G^+ >= H^+ and G^- >= H^- (Siegel VI); a game
    graph stands for its own sides (decided by the Buchi comparison, not built)."""

    def ge(x: LoopyValue, y: LoopyValue) -> bool:
        on_x, on_y = (v.plus if isinstance(v, SidedGame) else v for v in (x, y))
        off_x, off_y = (v.minus if isinstance(v, SidedGame) else v for v in (x, y))
        return onside_ge(on_x, on_y) and offside_ge(off_x, off_y)

    forward, backward = ge(a, b), ge(b, a)
    return "=" if forward and backward else ">" if forward else "<" if backward else "||"
