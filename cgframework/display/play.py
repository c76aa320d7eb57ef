"""``cgf play``: a terminal game against the perfect player.

The human picks a move by its number or its text; illegal input is rejected with a message
and asked again. The computer plays an optimal move found by the dispatcher. Normal play:
who cannot move loses; misère: who cannot move wins; scoring: points are tallied and a
player with no move ends the game or passes, as the ruleset says.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.markup import escape

from cgframework.game import (
    Convention,
    Move,
    Player,
    Position,
    Ruleset,
    Score,
    Sum,
    format_position,
    options,
)
from cgframework.solvers.dispatch import solve

NAMES = {Player.LEFT: "Left", Player.RIGHT: "Right"}


def _ask(console: Console, moves: list[Move]) -> Move | None:
    """Read the human's move; ``None`` on quit or end of input."""
    while True:
        try:
            answer = input("your move (number or text, q to quit): ").strip()
        except (EOFError, RuntimeError):  # (no more input, or standard input closed)
            return None
        if answer.lower() in ("q", "quit", "exit"):
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(moves):
            return moves[int(answer) - 1]
        for move in moves:
            if move.text == answer:
                return move
        shown = escape(repr(answer))  # (what was typed is text, not markup)
        console.print(f"[red]illegal move {shown}[/red]: choose 1..{len(moves)} or a move text")


def perfect_move(ruleset: Ruleset, position: Position, player: Player, moves: list[Move]) -> Move:
    """The perfect player's move among ``moves``: the first optimal move the solver names
    (any move when every move loses)."""
    best = solve(ruleset, position, first=player).best_moves
    chosen = best[0] if best else moves[0].text  # losing anyway: any move
    return next(m for m in moves if m.text == chosen)


def play_game(
    ruleset: Ruleset,
    position: Position,
    *,
    human: Player,
    first: Player,
    console: Console,
    on_move: Callable[[Player, Move], None] | None = None,
) -> Any:
    """Play to the end; returns the winner (normal/misère) or Left's final margin (scoring).
    ``on_move(player, move)`` is told every move played (a plugin draws the game with it)."""
    player = first
    margin: Score = 0  # Left's points minus Right's
    scoring = ruleset.convention is Convention.SCORING
    misere = ruleset.convention is Convention.MISERE
    console.print(f"You are {NAMES[human]}; {NAMES[first]} moves first.")
    passes = 0
    while True:
        console.print(
            f"\nposition: [bold]{escape(format_position(ruleset, position))}[/bold]"
            + (f"   score (Left - Right): {margin}" if scoring else "")
        )
        moves = options(ruleset, position, player)
        if not moves:
            if scoring:
                end = ruleset.end_score(position, player)
                if end is None and passes == 0 and options(ruleset, position, player.opponent):
                    console.print(f"{NAMES[player]} has no move and passes.")
                    passes += 1
                    player = player.opponent
                    continue
                margin += player.sign * (end or 0)
                console.print(f"Game over. Left - Right = {margin}.")
                return margin
            winner = player if misere else player.opponent
            console.print(f"{NAMES[player]} cannot move: {NAMES[winner]} wins.")
            return winner
        passes = 0
        if player is human:
            for i, move in enumerate(moves, 1):
                console.print(f"  {i:>3}. {move.text}" + (f"  (+{move.points})" if scoring else ""))
            move = _ask(console, moves)
            if move is None:
                console.print("bye")
                return None
        else:
            move = perfect_move(ruleset, position, player, moves)
            console.print(f"{NAMES[player]} (computer) plays {move.text}")
        if on_move is not None:
            on_move(player, move)
        margin += player.sign * move.points
        position = move.result
        player = player.opponent


class PlayRecord:
    """An ``on_move`` callback recording who took what (the ruleset's ``move_marks``);
    ``picture()`` is the start position with those marks, or, for a ruleset without
    ``move_marks`` (or a sum, or marks that do not persist), the position reached."""

    def __init__(self, ruleset: Ruleset, position: Position) -> None:
        self.ruleset, self.start, self.position = ruleset, position, position
        self.marks: dict[Any, Player] = {}
        self.marked = False

    def __call__(self, player: Player, move: Move) -> None:
        marks_of = getattr(self.ruleset, "move_marks", None)
        persist = getattr(self.ruleset, "marks_persist", True)
        if marks_of is not None and persist and not isinstance(self.position, Sum):
            for key in marks_of(self.position, move):
                self.marks[key] = player
                self.marked = True
        self.position = move.result

    def picture(self) -> str:
        from cgframework.game import draw_position

        if self.marked:
            return draw_position(self.ruleset, self.start, self.marks)
        return draw_position(self.ruleset, self.position)
