"""Strategies a user can watch: optimal play, the mirror strategy, the quasi-equal cut.

* Mirror (Cor. 15, L496-L505; Lemma 23.1-23.2): in H + (-H) the second player answers
  each move with its image in the other copy, so the sum is worth 0 to both starters.
  For S_n, n = 3 (mod 4), Left first takes the centre, leaving two even segments of size
  (n-3)/2 that form H + (-H), then mirrors (Theorem 20.2 proof, L811-L813; digest §2.4a).
* Quasi-equal cut (Theorem 20 proof, L803-L819; digest §2.4b): on a single segment, the first
  move is the cut closest to the centre; afterwards the player plays optimally. It
  guarantees the bound of Theorem 20 but is not always optimal: on S_14 it gets 2, the
  optimum is 4 (reached only at vertex 10).

A line of play is computed on the graph with its vertex names; the opponent of a strategy
plays optimally (the exact solver), so the line shows what the strategy guarantees.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from cgframework import Player
from cgframework.runtime.budget import SearchBudget
from cgframework_influence.engine import GraphComponents, canonical_labelling
from cgframework_influence.graph import (
    InfluenceGraph,
    bits,
    negate,
    taken_by_move,
    weak_components,
)
from cgframework_influence.segments import SegmentComponents
from cgframework_influence.solvers import Analyser


@attrs.frozen
class Step:
    """One move of a line: who moved, the vertex name, the names taken."""

    player: Player
    vertex: str
    taken: tuple[str, ...]


def play_move(g: InfluenceGraph, v: int) -> tuple[InfluenceGraph, tuple[str, ...]]:
    taken = taken_by_move(g, v)
    return g.induced(g.full & ~taken), tuple(g.names[i] for i in bits(taken))


def optimal_vertex(g: InfluenceGraph, player: Player, analyser: Analyser) -> int:
    """The first optimal move (by vertex order) of ``player``."""
    best, best_v = None, -1
    for v in bits(g.colour_mask(player.value)):
        rest, taken = play_move(g, v)
        value = len(taken) - analyser.value(rest, player.opponent)
        if best is None or value > best:
            best, best_v = value, v
    return best_v


Chooser = Callable[[InfluenceGraph, Player, list[Step]], int | None]
"""Picks the strategy player's vertex, or None to play optimally."""


def mirror_map(g: InfluenceGraph) -> dict[str, str] | None:
    """For g = H + (-H) (its weak components pair off, each with the negative of the other),
    the map between corresponding vertex names (both ways), else None."""
    parts = [g.induced(p) for p in weak_components(g.succ_masks(), g.pred_masks(), g.full)]
    labels = [canonical_labelling(p) for p in parts]
    negs = [canonical_labelling(negate(p)) for p in parts]
    pairs: dict[str, str] = {}
    free = list(range(len(parts)))
    while free:
        i = free.pop(0)
        j = next((j for j in free if negs[j][0] == labels[i][0]), None)
        if j is None:
            return None
        free.remove(j)
        for u, v in zip(labels[i][1], negs[j][1], strict=True):
            pairs[parts[i].names[u]] = parts[j].names[v]
            pairs[parts[j].names[v]] = parts[i].names[u]
    return pairs


def mirror_chooser(start: InfluenceGraph, player: Player) -> Chooser:
    """The mirror strategy for ``player`` (see the module docstring)."""
    pairs = mirror_map(start)
    centre = segment_centre(start) if pairs is None else None
    if centre is not None:
        pairs = mirror_map(play_move(start, start.names.index(centre))[0])
    if pairs is None:
        raise ValueError("the mirror strategy needs H + (-H) or a segment S_n with n = 3 (mod 4)")

    def choose(g: InfluenceGraph, who: Player, history: list[Step]) -> int | None:
        if not history:
            return None if centre is None else g.names.index(centre)
        if history[-1].player is who:
            return None
        target = pairs.get(history[-1].vertex)
        if target in g.names and g.colors[g.names.index(target)] == who.value:
            return g.names.index(target)
        return None

    return choose


def segment_centre(g: InfluenceGraph) -> str | None:
    """The centre of a lone C- segment S_n with n = 3 (mod 4), as generated."""
    n = g.n
    if n % 4 != 3 or g.colors != "RL" * (n // 2) + "R":
        return None
    return g.names[(n - 1) // 2]


def quasi_equal_cut(n: int, kind: str | None = None) -> int | None:
    """Left's cut closest to the centre of S_n (C- for odd n, as generated), L803-L819:
    n = 3 (mod 4) the centre; n = 1: pieces 2k, 2k+2; n = 0: 2k, C+_{2k+1}; n = 2: 2k,
    C+_{2k-1}. None below size 7 (no cutting move)."""
    if n < 7 or kind == "C+":
        return None
    if n % 4 == 3:
        return (n - 1) // 2
    k = {1: (n - 5) // 4, 0: (n - 4) // 4, 2: (n - 2) // 4}[n % 4]
    return 2 * k + 1


def quasi_equal_chooser(start: InfluenceGraph, player: Player) -> Chooser:
    if player is not Player.LEFT or not start.colors.startswith("R"):
        raise ValueError("the quasi-equal cut is Left's first move on a segment S_n (n >= 7)")
    cut = quasi_equal_cut(start.n)
    if cut is None or start.colors != ("RL" * start.n)[: start.n]:
        raise ValueError("the quasi-equal cut needs a segment S_n with n >= 7")
    name = start.names[cut]

    def choose(g: InfluenceGraph, who: Player, history: list[Step]) -> int | None:
        return g.names.index(name) if not history else None

    return choose


def line(
    g: InfluenceGraph,
    first: Player,
    analyser: Analyser,
    chooser: Chooser | None = None,
    strategist: Player = Player.LEFT,
) -> list[Step]:
    """The line of play from ``g``, ``first`` to move; ``strategist`` uses ``chooser`` (when
    it gives a vertex), every other move is optimal. The waiting rule (L20) applies."""
    history: list[Step] = []
    who = first
    while g.n:
        if not g.colour_mask(who.value):
            who = who.opponent
        v = chooser(g, who, history) if chooser is not None and who is strategist else None
        if v is None:
            v = optimal_vertex(g, who, analyser)
        name = g.names[v]
        g, taken = play_move(g, v)
        history.append(Step(who, name, taken))
        who = who.opponent
    return history


def totals(history: list[Step]) -> dict[str, int]:
    out = {"L": 0, "R": 0}
    for step in history:
        out[step.player.value] += len(step.taken)
    return out


def analyser_for(g: InfluenceGraph, budget: SearchBudget | None = None) -> Analyser:
    """The segment solver when g is a sum of segments and cycles, else the graph solver;
    both stop (exit 3) when the ``budget`` is spent."""
    fast = Analyser(SegmentComponents(), budget)
    return fast if fast.state(g) is not None else Analyser(GraphComponents(), budget)
