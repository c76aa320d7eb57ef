"""The passing variants of §5 (L996-L1046) as rulesets ``pizza-p``, ``pizza-a``, ``pizza-s``.

- p-rules (L1000): a player may pass; two consecutive passes end the game.
  val_p(g) = max(0, max_v(wt(v) - val_p(g minus v))).
- a-rules (L1010): as p-rules, but passing only when an even number of vertices remains.
- s-rules (L1040): passing allowed, but not twice in a row: val_s(g) = |val_sm(g)| with
  val_sm(g) = max_v(wt(v) - val_s(g minus v)).

The position is the board plus whether the previous move was a pass, so the core's generic
minimax plays these games exactly (and ``cgf play`` offers the pass).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from typing import Any

import attrs

from cgframework import BaseRuleset, Convention, Move, Player
from cgframework_pizza.board import Board, format_board, parse_board
from cgframework_pizza.ruleset import Pizza


@attrs.frozen
class Passing:
    """A board, whether the last move was a pass, and whether the game is over."""

    board: Board
    passed: bool = False
    over: bool = False


class PassingPizza(BaseRuleset):
    convention = Convention.SCORING
    impartial = True
    family = "pizza"
    sum_separator = None
    rules = "p"

    def __init__(self) -> None:
        self._plain = Pizza()

    def parse(self, text: str) -> Passing:
        """A board, optionally followed by the state ``format`` prints after it."""
        text = text.strip()
        state = {}
        for suffix, flag in ((" (over)", "over"), (" (after a pass)", "passed")):
            if text.endswith(suffix):
                text, state[flag] = text[: -len(suffix)], True
        return Passing(parse_board(text), **state)

    def format(self, position: Passing) -> str:
        text = format_board(position.board)
        return (
            text
            + (" (after a pass)" if position.passed else "")
            + (" (over)" if position.over else "")
        )

    def draw(self, position: Passing, marks: Mapping[Hashable, Any] | None = None) -> str:
        return self._plain.draw(position.board, marks)

    def may_pass(self, position: Passing) -> bool:
        if position.over or not position.board.present:
            return False
        if self.rules == "s":
            return not position.passed
        if self.rules == "a":
            return len(position.board.present) % 2 == 0
        return True

    def options(self, position: Passing, player: Player) -> Iterator[Move]:
        if position.over:
            return
        board = position.board
        for v in board.legal_moves():
            yield Move(Passing(board.remove(v)), f"#{v + 1}", board.weight(v))
        if self.may_pass(position):
            ends = position.passed and self.rules in ("p", "a")
            yield Move(attrs.evolve(position, passed=True, over=ends), "pass", 0)

    def canonical_key(self, position: Passing) -> Hashable:
        return (self._plain.canonical_key(position.board), position.passed, position.over)

    def examples(self) -> list[str]:
        return ["<5,-3,2,1>", "tes(4,3,6,5)"]


class PizzaP(PassingPizza):
    name = "pizza-p"
    rules = "p"
    syntax = "a pizza board (as for pizza); Go-style passing, two passes end the game (L1000)"


class PizzaA(PassingPizza):
    name = "pizza-a"
    rules = "a"
    syntax = "a pizza board; passing only when an even number of vertices remains (L1010)"


class PizzaS(PassingPizza):
    name = "pizza-s"
    rules = "s"
    syntax = "a pizza board; passing allowed but never twice in a row (L1040)"
