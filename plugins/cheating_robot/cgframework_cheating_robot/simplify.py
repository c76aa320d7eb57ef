"""Equality-preserving reductions (Thm 5, Thm 7; Thm 6 only with the digest's fix), applied
where the comparisons needed are decidable (integer options, or identical options)."""

from __future__ import annotations

from cgframework_cheating_robot.games import CRGame, as_integer, game


def ge(x: CRGame, y: CRGame) -> bool:
    """x >= y when provable: identical games, or integers (Thm 9, L372-L376)."""
    if x is y:
        return True
    a, b = as_integer(x), as_integer(y)
    return a is not None and b is not None and a >= b


def thm5(g: CRGame) -> CRGame | None:
    """Thm 5 (L286-L296): delete Left move j if some i != j has G^{i,.} >= G^{j,.} and
    for all r there is s with G^{i,r} >= G^{j,s}."""
    m, n = len(g.left), len(g.right)
    for j in range(m):
        for i in range(m):
            if i != j and ge(g.left[i], g.left[j]):
                if all(any(ge(g.table[i][r], g.table[j][s]) for s in range(n)) for r in range(n)):
                    keep = [k for k in range(m) if k != j]
                    rows = [g.table[k] for k in keep] if g.table else []  # no Right move: no table
                    return game([g.left[k] for k in keep], rows, g.right)
    return None


def thm6_fixed(g: CRGame) -> CRGame | None:
    """Thm 6 (L306) with the extra hypothesis of digest 4.7: delete Right move n if for every
    i some j_i != n has G^{i,n} >= G^{i,j_i}, AND some j != n has G^{.,n} >= G^{.,j}.
    Without the second condition the theorem is false ({1|[[0,2]]|-1,-5}, X={2|0|-4})."""
    m, n = len(g.left), len(g.right)
    for c in range(n):
        others = [j for j in range(n) if j != c]
        if not others or not any(ge(g.right[c], g.right[j]) for j in others):
            continue
        if all(any(ge(g.table[i][c], g.table[i][j]) for j in others) for i in range(m)):
            return game(
                g.left, [[row[j] for j in others] for row in g.table], [g.right[j] for j in others]
            )
    return None


def thm7(g: CRGame) -> CRGame | None:
    """Thm 7 (L318): if G^{i,a} >= G^{i,b}, replace the entry G^{i,a} by G^{i,b}."""
    for i, row in enumerate(g.table):
        for a in range(len(row)):
            for b in range(len(row)):
                if row[a] is not row[b] and ge(row[a], row[b]):
                    new = list(g.table)
                    r = list(row)
                    r[a] = row[b]
                    new[i] = tuple(r)
                    return game(g.left, new, g.right)
    return None


def simplify(g: CRGame) -> CRGame:
    """Apply the reductions at the top level until none applies."""
    while True:
        for rule in (thm7, thm5, thm6_fixed):
            h = rule(g)
            if h is not None:
                g = h
                break
        else:
            return g
