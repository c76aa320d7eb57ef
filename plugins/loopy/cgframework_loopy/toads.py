"""Backsliding Toads and Frogs (Winning Ways, 2nd ed., vol. 2, ch. 11 "Games Eternal -
Games Entailed"): Toads and Frogs, where a creature may also step one square back into an
empty square, so positions repeat (a loopy game; draws are possible).

Left's toads ``T`` move right, Right's frogs ``F`` move left: a creature slides one square
forward into an empty square, or jumps forward over one opposing creature into the empty
square beyond it, or (the backsliding rule) steps one square back into an empty square.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from cgframework import BaseRuleset, Convention, Move, Player, SwapLetters


class BackslidingToadsAndFrogs(BaseRuleset):
    name = "backsliding-toads-and-frogs"
    aliases = ("backsliding-toads",)
    family = "loopy"
    convention = Convention.NORMAL
    loopy = True
    version = "2"  # stored solutions hold the loopy value, no longer an outcome letter
    negative = SwapLetters("TF", reverse=True)  # toads and frogs swapped, the strip reversed
    syntax = (
        "a strip of T (Left's toads, moving right), F (Right's frogs, moving left) and . "
        "(empty), e.g. T..F; a creature may also step one square back"
    )

    def parse(self, text: str) -> str:
        text = text.strip()
        for i, ch in enumerate(text):
            if ch not in "TF.":
                raise ValueError(f"unexpected {ch!r} at column {i + 1} (use T, F or .)")
        return text

    def options(self, position: str, player: Player) -> Iterator[Move]:
        me, other, step = ("T", "F", 1) if player is Player.LEFT else ("F", "T", -1)
        n = len(position)
        for i, ch in enumerate(position):
            if ch != me:
                continue
            targets = [i + step, i - step]
            if 0 <= i + step < n and position[i + step] == other:
                targets.append(i + 2 * step)
            for target in targets:
                if 0 <= target < n and position[target] == ".":
                    cells = list(position)
                    cells[i], cells[target] = ".", me
                    yield Move("".join(cells), f"{i + 1}->{target + 1}")

    def draw(self, position: str, marks: object = None) -> str:
        """The strip: one ``cell`` per square, toads blue (Left's), frogs red (Right's)."""
        from cgframework.display.pictures import FREE_COLOUR, LEFT_COLOUR, RIGHT_COLOUR, grid_svg

        colours = {"T": LEFT_COLOUR, "F": RIGHT_COLOUR, ".": FREE_COLOUR}
        return grid_svg(
            1,
            len(position),
            lambda r, c: colours[position[c]],
            label=lambda r, c: position[c].replace(".", ""),
        )

    def examples(self) -> Sequence[str]:
        return ["T.F", "T..F"]
