"""``cgf play``: a terminal game against the perfect player.

The human picks a move by its text or its place in the menu (:func:`read_choice` says which
is which); illegal input is rejected with a message and asked again. Every line read is
bounded (``CGF_MAX_INPUT_BYTES``): a longer one ends the game with
:class:`~cgframework.runtime.inputs.InputTextError`. The computer plays an optimal move
(:class:`PerfectPlayer`). Normal play: who cannot move loses; misère: who cannot move wins;
scoring: points are tallied and a player with no move ends the game or passes, as the
ruleset says. Positions may repeat in a loopy ruleset: the same position with the same
player to move a third time ends the game as a draw (:class:`Repetitions`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import attrs
from rich.console import Console
from rich.markup import escape

from cgframework.game import (
    Convention,
    Move,
    Outcome,
    Player,
    Position,
    Ruleset,
    Score,
    Sum,
    format_position,
    options,
)
from cgframework.runtime.inputs import MAX_INPUT_ENV, InputTextError, max_input_bytes
from cgframework.solvers.dispatch import solve

NAMES = {Player.LEFT: "Left", Player.RIGHT: "Right"}

QUIT_WORDS = ("q", "quit", "exit")

DRAW_AT = 3
"""The repetition rule: a position occurring for the third time with the same player to move
ends the game as a draw (its second time is announced)."""


def read_line(prompt: str) -> str | None:
    """One line typed by the user (without its end of line); ``None`` at end of input or
    with standard input closed. On a terminal, ``input()`` (with line editing: the terminal
    bounds a line at a few KiB); otherwise at most ``CGF_MAX_INPUT_BYTES`` bytes are read, and
    a longer line, or one not in UTF-8, raises :class:`InputTextError`."""
    stdin = sys.stdin
    try:
        terminal = stdin.isatty()
    except (AttributeError, OSError, ValueError):  # no standard input, or it is closed
        return None
    if terminal:
        try:
            return input(prompt)
        except UnicodeDecodeError as exc:
            raise InputTextError(f"what was typed is not text ({exc.reason})") from None
        except (EOFError, OSError, ValueError):
            return None
    limit = max_input_bytes()
    sys.stdout.write(prompt)
    sys.stdout.flush()
    try:
        buffer = getattr(stdin, "buffer", None)
        if buffer is None:  # a text stream without bytes underneath (tests)
            data = stdin.readline(limit + 1).encode("utf-8", "surrogatepass")
        else:
            data = buffer.readline(limit + 1)
    except (OSError, ValueError):  # unreadable or closed: as at the end of input
        return None
    line = data.rstrip(b"\n")
    if len(line) > limit:
        raise InputTextError(
            f"a line of standard input is longer than the input limit of {limit} bytes "
            f"(set {MAX_INPUT_ENV})"
        )
    if not data:
        return None
    try:
        return line.decode("utf-8").rstrip("\r")
    except UnicodeDecodeError as exc:
        raise InputTextError(
            f"a line of standard input is not UTF-8 text (byte {exc.start})"
        ) from None


def numeric_names(moves: list[Move]) -> bool:
    """Some move's text is a number: a bare number typed is then that text, never a menu
    index (menu items are ``#N``)."""
    return any(m.text.isascii() and m.text.isdigit() for m in moves)


def read_choice(answer: str, moves: list[Move]) -> Move | None:
    """The move ``answer`` names, or ``None``. The rule: a move's own text always names that
    move; ``#N`` names item N of the menu; a bare number ``N`` names item N only when no
    move's text is a number (with numeric move names, ``1`` is the move written ``1``,
    illegal if there is none, never the first item)."""
    for move in moves:
        if move.text == answer:
            return move
    index = answer[1:] if answer.startswith("#") else answer
    if answer == index and numeric_names(moves):
        return None
    if index.isascii() and index.isdigit() and 1 <= int(index) <= len(moves):
        return moves[int(index) - 1]
    return None


def prompt_for(moves: list[Move]) -> str:
    """The prompt, saying how a move is named (see :func:`read_choice`)."""
    if numeric_names(moves):
        return "your move (its text, or #N for item N; q to quit): "
    return "your move (number or text, q to quit): "


def _ask(console: Console, moves: list[Move]) -> Move | None:
    """Read the human's move; ``None`` on quit or end of input."""
    while True:
        answer = read_line(prompt_for(moves))
        if answer is None:
            return None
        answer = answer.strip()
        if answer.lower() in QUIT_WORDS:
            return None
        move = read_choice(answer, moves)
        if move is not None:
            return move
        shown = escape(repr(answer[:80]))  # (what was typed is text, not markup)
        items = f"#1..#{len(moves)}" if numeric_names(moves) else f"1..{len(moves)}"
        console.print(f"[red]illegal move {shown}[/red]: choose {items} or a move text")


class PerfectPlayer:
    """The perfect player's moves in one game of ``ruleset``. In a ruleset that ends, the
    first optimal move the solver names (any move when every move loses). In a loopy one
    (normal or misère play), :class:`~cgframework.solvers.loopy_strategy.LoopyStrategy`:
    a won game is won without repeating a position (the solver's winning moves may go round
    a cycle for ever), a drawn one kept drawn; its graph is built at the first move and kept
    for the game."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.loopy = getattr(ruleset, "loopy", False) and ruleset.convention in (
            Convention.NORMAL,
            Convention.MISERE,
        )
        self._strategy: Any = None

    def move(self, position: Position, player: Player, moves: list[Move]) -> Move:
        """``player``'s move among ``moves`` (the options of ``position``, not empty)."""
        if self.loopy:
            from cgframework.solvers.loopy_strategy import LoopyStrategy

            if self._strategy is None:
                self._strategy = LoopyStrategy(self.ruleset, position)
            return self._strategy.choose(position, player, moves)
        best = solve(self.ruleset, position, first=player).best_moves
        chosen = best[0] if best else moves[0].text  # losing anyway: any move
        return next(m for m in moves if m.text == chosen)


def perfect_move(ruleset: Ruleset, position: Position, player: Player, moves: list[Move]) -> Move:
    """The perfect player's move among ``moves`` (see :class:`PerfectPlayer`)."""
    return PerfectPlayer(ruleset).move(position, player, moves)


@attrs.define
class Repetitions:
    """How often each position has occurred with each player to move, and the repetition
    rule (:data:`DRAW_AT`): :meth:`see` counts an occurrence and says what to announce."""

    seen: dict[tuple[Position, Player], int] = attrs.field(factory=dict)

    def see(self, position: Position, player: Player) -> tuple[bool, str]:
        """Count ``position`` with ``player`` to move: (the game is drawn, the message to
        announce or ``""``)."""
        key = (position, player)
        count = self.seen[key] = self.seen.get(key, 0) + 1
        name = NAMES[player]
        if count >= DRAW_AT:
            return True, f"The position has occurred a third time with {name} to move: a draw."
        if count == DRAW_AT - 1:
            return False, (
                f"This position has occurred before with {name} to move (a third time is a draw)."
            )
        return False, ""


def play_game(
    ruleset: Ruleset,
    position: Position,
    *,
    human: Player,
    first: Player,
    console: Console,
    on_move: Callable[[Player, Move], None] | None = None,
) -> Any:
    """Play to the end; returns the winner (normal/misère), Left's final margin (scoring),
    :attr:`Outcome.D <cgframework.game.Outcome.D>` for a draw by repetition (the same
    position with the same player to move a third time: :class:`Repetitions`), or ``None``
    when the human quits. ``on_move(player, move)`` is told every move played (a plugin
    draws the game with it)."""
    player = first
    margin: Score = 0  # Left's points minus Right's
    scoring = ruleset.convention is Convention.SCORING
    misere = ruleset.convention is Convention.MISERE
    perfect = PerfectPlayer(ruleset)
    repetitions = Repetitions()
    console.print(f"You are {NAMES[human]}; {NAMES[first]} moves first.")
    passes = 0
    while True:
        console.print(
            f"\nposition: [bold]{escape(format_position(ruleset, position))}[/bold]"
            + (f"   score (Left - Right): {margin}" if scoring else "")
        )
        drawn, news = repetitions.see(position, player)
        if news:
            console.print(news)
        if drawn:
            return Outcome.D
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
            numbered = numeric_names(moves)
            for i, move in enumerate(moves, 1):
                label = f"#{i}" if numbered else str(i)
                points = f"  (+{move.points})" if scoring else ""
                console.print(f"  {label:>3}. {escape(move.text)}{points}")
            move = _ask(console, moves)
            if move is None:
                console.print("bye")
                return None
        else:
            move = perfect.move(position, player, moves)
            console.print(f"{NAMES[player]} (computer) plays {escape(move.text)}")
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
