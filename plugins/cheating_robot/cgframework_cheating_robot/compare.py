"""Comparison G >= H in CR (Def 6, L151-L170): exact where the paper gives a finite test,
otherwise a search for a distinguishing game X that never claims a proof."""

from __future__ import annotations

import itertools

import attrs

from cgframework_cheating_robot.games import (
    ORDER,
    STAR,
    ZERO,
    CRGame,
    as_integer,
    hot,
    integer,
    outcome_sum,
)


@attrs.frozen
class Comparison:
    """``relation`` in {'=', '>', '<', '||'} when ``exact``; otherwise the relation not
    refuted by the search. ``witnesses`` maps 'G>H' / 'H>G' to an X showing o differs."""

    relation: str
    exact: bool
    reason: str
    witnesses: dict[str, CRGame] = attrs.field(factory=dict)


def universe(bound: int = 3) -> list[CRGame]:
    """Day-1 games, integers |n| <= bound+1, {a|b|c} with entries in [-bound, bound]."""
    xs = [ZERO, STAR] + [integer(n) for n in range(-bound - 1, bound + 2) if n]
    rng = range(-bound, bound + 1)
    xs += [hot(a, b, c) for a, b, c in itertools.product(rng, rng, rng)]
    return list(dict.fromkeys(xs))


def _is_dicot(g: CRGame) -> bool:
    return (bool(g.left) == bool(g.right)) and all(
        _is_dicot(x) for x in (*g.left, *g.right, *(y for r in g.table for y in r))
    )


def compare(g: CRGame, h: CRGame, bound: int = 3) -> Comparison:
    """Compare two games: integers (Thm 9), against 0 (Thm 8, Cor 1, Lemma 3), else search."""
    a, b = as_integer(g), as_integer(h)
    if a is not None and b is not None:
        rel = "=" if a == b else (">" if a > b else "<")
        return Comparison(rel, True, "integers (Thm 9, L372-L376)")
    for x, y, flip in ((g, h, False), (h, g, True)):
        if y is ZERO and x is not ZERO:
            if x.left and not x.right:
                rel = ">"
                why = "Thm 8 (L332)"
            elif _is_dicot(x):
                rel = "<"
                why = "Lemma 3 (L362)"
            else:
                break
            if flip:
                rel = {">": "<", "<": ">"}[rel]
            return Comparison(rel, True, why)
    wit: dict[str, CRGame] = {}
    xs = universe(bound)
    for x in xs:
        og, oh = ORDER[outcome_sum((g, x))], ORDER[outcome_sum((h, x))]
        if og > oh:
            wit.setdefault("G>H", x)
        elif og < oh:
            wit.setdefault("H>G", x)
        if len(wit) == 2:
            return Comparison("||", True, "witnesses both ways", wit)
    if g is h:
        return Comparison("=", True, "identical")
    if "G>H" in wit:
        rel = ">"
    elif "H>G" in wit:
        rel = "<"
    else:
        rel = "="
    note = f"no counterexample found among {len(xs)} games X (bound {bound})"
    if rel != "=":
        note = f"differ (witness given); not-{'<' if rel == '>' else '>'} unrefuted: " + note
    return Comparison(rel, False, note, wit)
