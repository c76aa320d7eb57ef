"""Slow reference implementations of loopy-game algorithms, kept for the tests to check the
fast ones against."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from cgframework.values.loopy import LoopyGame


def survives_second_reference(a: LoopyGame, b: LoopyGame, favoured: int | None) -> bool:
    """Does Left, Right moving first in ``a + b``, survive? A player who cannot move loses.
    An infinite play is a survival for Left when ``favoured`` is None, else only when it makes
    infinitely many moves in component ``favoured`` (0: ``a``, 1: ``b``). A Buchi game on the
    states (node of a, node of b, player to move, was the last move in the favoured part),
    solved by the classical iterated attractors over the whole state space (the version
    before the fast one in cgframework.values.loopy)."""
    na, nb = a.size, b.size
    n = 4 * na * nb

    def state(x: int, y: int, mover: int, flag: int) -> int:
        return ((x * nb + y) * 2 + mover) * 2 + flag

    succ: list[list[int]] = [[] for _ in range(n)]
    pred: list[list[int]] = [[] for _ in range(n)]
    for x in range(na):
        for y in range(nb):
            for mover, (a_opts, b_opts) in enumerate(
                ((a.left[x], b.left[y]), (a.right[x], b.right[y]))
            ):
                targets = [state(x2, y, 1 - mover, int(favoured != 1)) for x2 in a_opts]
                targets += [state(x, y2, 1 - mover, int(favoured != 0)) for y2 in b_opts]
                for flag in (0, 1):
                    s = state(x, y, mover, flag)
                    succ[s] = targets
                    for t in targets:
                        pred[t].append(s)
    left_stuck = [s for s in range(n) if not succ[s] and (s >> 1) & 1 == 0]
    accepting = bytearray(n)
    for s in range(n):
        if (s & 1 or favoured is None) and (succ[s] or (s >> 1) & 1):
            accepting[s] = 1
    for s in left_stuck:
        accepting[s] = 0
    alive = bytearray([1]) * n

    def attractor(player: int, target: Iterable[int]) -> bytearray:
        inside = bytearray(n)
        queue = deque()
        for s in target:
            if alive[s] and not inside[s]:
                inside[s] = 1
                queue.append(s)
        count = [0] * n
        for s in range(n):
            if alive[s] and (s >> 1) & 1 != player:
                count[s] = sum(1 for t in succ[s] if alive[t])
                if count[s] == 0 and not inside[s]:
                    inside[s] = 1
                    queue.append(s)
        while queue:
            t = queue.popleft()
            for p in pred[t]:
                if not alive[p] or inside[p]:
                    continue
                if (p >> 1) & 1 == player:
                    inside[p] = 1
                    queue.append(p)
                else:
                    count[p] -= 1
                    if count[p] == 0:
                        inside[p] = 1
                        queue.append(p)
        return inside

    while True:
        reach = attractor(0, (s for s in range(n) if accepting[s]))
        trap = [s for s in range(n) if alive[s] and not reach[s]]
        if not trap:
            break
        lost = attractor(1, trap)
        for s in range(n):
            if lost[s]:
                alive[s] = 0
    return bool(alive[state(a.start, b.start, 1, 0)])


def minimized_classes_reference(g: LoopyGame) -> list[int]:
    """The coarsest stable partition by plain rounds (every node's signature recomputed each
    round until the number of classes stops growing): the version before the incremental
    one in cgframework.values.loopy."""
    cls = [0] * g.size
    count = 1
    while True:
        signatures: dict[tuple, int] = {}
        new = []
        for v in range(g.size):
            sig = (
                cls[v],
                frozenset(cls[w] for w in g.left[v]),
                frozenset(cls[w] for w in g.right[v]),
            )
            new.append(signatures.setdefault(sig, len(signatures)))
        if len(signatures) == count:
            return cls
        cls, count = new, len(signatures)
