"""Small rulesets defined only for the core's tests (no plugin involved)."""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from cgframework import BaseRuleset, Convention, Move, Player


@attrs.frozen
class Tree:
    """An explicit game tree {lefts | rights}: the most general short game."""

    lefts: tuple[Tree, ...] = ()
    rights: tuple[Tree, ...] = ()


def tree_sum(g: Tree, h: Tree) -> Tree:
    """The disjunctive sum built as one tree (no decomposition left for a solver to use)."""
    return Tree(
        tuple(tree_sum(gl, h) for gl in g.lefts) + tuple(tree_sum(g, hl) for hl in h.lefts),
        tuple(tree_sum(gr, h) for gr in g.rights) + tuple(tree_sum(g, hr) for hr in h.rights),
    )


class TreeRuleset(BaseRuleset):
    name = "tree"
    convention = Convention.NORMAL
    syntax = "explicit game trees (tests only)"

    def options(self, position: Tree, player: Player) -> Iterable[Move]:
        opts = position.lefts if player is Player.LEFT else position.rights
        return [Move(o, f"{player.value}{i}") for i, o in enumerate(opts)]


class ImpartialTreeRuleset(TreeRuleset):
    name = "itree"
    impartial = True

    def options(self, position: Tree, player: Player) -> Iterable[Move]:
        return [Move(o, str(i)) for i, o in enumerate(position.lefts)]


class MisereTreeRuleset(TreeRuleset):
    name = "mtree"
    convention = Convention.MISERE


@attrs.frozen
class Tokens:
    """Weighted tokens owned by L or R: a player removes one of his own and scores its weight."""

    items: tuple[tuple[str, int], ...]


class TokensRuleset(BaseRuleset):
    """Scoring play with passing: a player with no token passes until the board is empty."""

    name = "tokens"
    convention = Convention.SCORING
    syntax = "L3,R2,L1 (owner and weight)"

    def parse(self, text: str) -> Tokens:
        items = []
        for tok in text.split(","):
            tok = tok.strip()
            if not tok or tok[0] not in "LR":
                raise ValueError(f"bad token {tok!r}")
            items.append((tok[0], int(tok[1:])))
        return Tokens(tuple(items))

    def format(self, position: Tokens) -> str:
        return ",".join(f"{o}{w}" for o, w in position.items)

    def options(self, position: Tokens, player: Player) -> Iterable[Move]:
        items = position.items
        for i, (owner, weight) in enumerate(items):
            if owner == player.value:
                yield Move(Tokens(items[:i] + items[i + 1 :]), f"take {i}", weight)

    def end_score(self, position: Tokens, player: Player) -> int | None:
        return 0 if not position.items else None


@attrs.frozen
class Row:
    values: tuple[int, ...]


class EndsRuleset(BaseRuleset):
    """Impartial scoring play: take a number from either end of a row, score it."""

    name = "ends"
    convention = Convention.SCORING
    impartial = True
    syntax = "3,1,4,1,5"

    def parse(self, text: str) -> Row:
        return Row(tuple(int(x) for x in text.split(",")))

    def format(self, position: Row) -> str:
        return ",".join(map(str, position.values))

    def options(self, position: Row, player: Player) -> Iterable[Move]:
        v = position.values
        if not v:
            return []
        moves = [Move(Row(v[1:]), "left", v[0])]
        if len(v) > 1:
            moves.append(Move(Row(v[:-1]), "right", v[-1]))
        return moves
