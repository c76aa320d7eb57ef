"""A deliberately naive canonical-form implementation, used only as a test reference.

Games are pairs of frozensets; no interning, no number fast paths: only the textbook
definitions (Siegel, CGT II.1-II.2): G >= H iff no G^R <= H and no H^L >= G; canonical form
by deleting dominated options and bypassing reversible ones until neither applies.
"""

from __future__ import annotations

from functools import cache

Ref = tuple[frozenset, frozenset]

ZERO: Ref = (frozenset(), frozenset())


@cache
def ge(g: Ref, h: Ref) -> bool:
    return not any(le(gr, h) for gr in g[1]) and not any(ge(hl, g) for hl in h[0])


def le(g: Ref, h: Ref) -> bool:
    return ge(h, g)


@cache
def add(g: Ref, h: Ref) -> Ref:
    lefts = {add(gl, h) for gl in g[0]} | {add(g, hl) for hl in h[0]}
    rights = {add(gr, h) for gr in g[1]} | {add(g, hr) for hr in h[1]}
    return canonical((frozenset(lefts), frozenset(rights)))


@cache
def neg(g: Ref) -> Ref:
    return (frozenset(neg(r) for r in g[1]), frozenset(neg(x) for x in g[0]))


def _undominated(options: set, better) -> set:
    kept: list = []
    for o in options:
        if any(better(k, o) for k in kept):
            continue
        kept = [k for k in kept if not better(o, k)]
        kept.append(o)
    return set(kept)


@cache
def canonical(g: Ref) -> Ref:
    lefts = {canonical(x) for x in g[0]}
    rights = {canonical(x) for x in g[1]}
    while True:
        lefts = _undominated(lefts, ge)
        rights = _undominated(rights, le)
        whole = (frozenset(lefts), frozenset(rights))
        new_lefts: set = set()
        changed = False
        for gl in lefts:
            reverse = next((glr for glr in gl[1] if le(glr, whole)), None)
            if reverse is None:
                new_lefts.add(gl)
            else:
                new_lefts |= set(reverse[0])
                changed = True
        new_rights: set = set()
        for gr in rights:
            reverse = next((grl for grl in gr[0] if ge(grl, whole)), None)
            if reverse is None:
                new_rights.add(gr)
            else:
                new_rights |= set(reverse[1])
                changed = True
        lefts, rights = new_lefts, new_rights
        if not changed:
            return (frozenset(lefts), frozenset(rights))
