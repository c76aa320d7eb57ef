"""Toads and Frogs as a cgframework ruleset.

A strip of squares holds Left's toads ``T``, Right's frogs ``F`` and empty squares ``.``.
A toad moves one square right into an empty square, or jumps right over one frog into an
empty square; frogs do the same leftwards. Normal play: who cannot move loses
(Berlekamp, Conway & Guy, Winning Ways, ch. 1).
"""

from __future__ import annotations

from collections.abc import Iterator

from cgframework import BaseRuleset, Convention, Move, Player, hookimpl


class ToadsAndFrogs(BaseRuleset):
    name = "toads-and-frogs"
    aliases = ("toads",)
    convention = Convention.NORMAL
    syntax = "a strip of T (Left's toads), F (Right's frogs) and . (empty), e.g. TT..FF"

    def parse(self, text: str) -> str:
        for i, ch in enumerate(text):
            if ch not in "TF.":
                raise ValueError(f"unexpected {ch!r} at column {i + 1} (use T, F or .)")
        return text

    def format(self, position: str) -> str:
        return position

    def options(self, position: str, player: Player) -> Iterator[Move]:
        me, other, step = ("T", "F", 1) if player is Player.LEFT else ("F", "T", -1)
        cells = list(position)
        for i, ch in enumerate(cells):
            if ch != me:
                continue
            for target, kind in ((i + step, "slide"), (i + 2 * step, "jump")):
                if not 0 <= target < len(cells) or cells[target] != ".":
                    continue
                if kind == "jump" and cells[i + step] != other:
                    continue
                after = cells.copy()
                after[i], after[target] = ".", me
                yield Move("".join(after), f"{i + 1}->{target + 1}")
                break  # a creature that can slide cannot also jump

    def examples(self) -> list[str]:
        return ["TT..FF", "T.F"]


@hookimpl
def register_rulesets(register):
    register(ToadsAndFrogs())
