"""A game against the perfect player, one move at a time: the state behind the board widget.

:class:`Match` holds a position, whose turn it is and what has been played. The human
plays with :meth:`Match.play` (a move's text); the perfect player answers at once with
the solver's best move (as ``cgf play`` does), and :meth:`Match.state` is everything a
front end shows: the picture (``draw``, with the moves played marked), the legal moves, the
value of the position and who wins it, and a message. The notebook widget
(:mod:`cgframework.display.widget`) only displays this state, so it is tested without a browser.
"""

from __future__ import annotations

from typing import Any

from cgframework.display.notebook import symbols
from cgframework.display.play import NAMES, PerfectPlayer, PlayRecord, Repetitions
from cgframework.game import (
    Convention,
    Move,
    Outcome,
    Player,
    Position,
    Ruleset,
    Score,
    format_position,
    options,
    parse_position,
)
from cgframework.plugins import resolve_ruleset
from cgframework.solvers.dispatch import solve


class Match:
    """The human (``human``, Left by default) against the perfect player; ``first`` moves
    first (the human by default; if it is the perfect player, it moves at once).

    ``ruleset`` is a ruleset object or name, ``position`` a position or its text. Normal and
    misère play (who cannot move loses / wins) and scoring play (points are tallied; a player
    with no move passes or ends the game, as the ruleset says) are supported, on loopy
    rulesets too: there the perfect player wins a won position without going round a cycle,
    and the repetition rule ends a game that goes round one: the same position with the same
    player to move a third time is a draw, the game over and ``drawn`` true (the second time
    is announced in the message).
    """

    def __init__(
        self,
        ruleset: Ruleset | str,
        position: Position | str,
        *,
        human: Player = Player.LEFT,
        first: Player | None = None,
    ) -> None:
        ruleset = resolve_ruleset(ruleset)
        if ruleset.convention is Convention.CHEATING_ROBOT:
            raise ValueError("the board does not play cheating-robot rounds")
        self.ruleset = ruleset
        self.start = parse_position(ruleset, position) if isinstance(position, str) else position
        self.human = human
        self.first = human if first is None else first
        self.restart()

    def restart(self) -> None:
        """Back to the start position."""
        self.position: Position = self.start
        self.player = self.first
        self.margin: Score = 0  # Left's points minus Right's (scoring play)
        self.over = False
        self.drawn = False  # (over by the repetition rule)
        self.history: list[tuple[Player, str]] = []
        self.record = PlayRecord(self.ruleset, self.start)
        self._perfect = PerfectPlayer(self.ruleset)
        self._repetitions = Repetitions()
        self._passes = 0
        self._news: list[str] = []
        self._end = ""
        self._advance()

    @property
    def scoring(self) -> bool:
        return self.ruleset.convention is Convention.SCORING

    def legal_moves(self) -> list[Move]:
        """The human's moves now (none once the game is over)."""
        if self.over:
            return []
        return options(self.ruleset, self.position, self.player)

    def play(self, move_text: str) -> str | None:
        """Play the human's move (its text, as :meth:`legal_moves` writes it) and let the
        perfect player answer; returns the answer's text (``None``: no answer, the game is
        over or the perfect player had to pass). An illegal move raises ``ValueError``."""
        if self.over:
            raise ValueError(f"the game is over: {self._end}")
        moves = self.legal_moves()
        move = next((m for m in moves if m.text == move_text), None)
        if move is None:
            legal = ", ".join(m.text for m in moves[:20]) + (", ..." if len(moves) > 20 else "")
            raise ValueError(
                f"illegal move {move_text!r} for {NAMES[self.player]}: the legal moves are {legal}"
            )
        self._news = [f"You played {move.text}."]
        self._apply(move)
        return self._advance()

    def _apply(self, move: Move) -> None:
        self.record(self.player, move)
        self.history.append((self.player, move.text))
        self.margin += self.player.sign * move.points
        self.position = move.result
        self.player = self.player.opponent

    def _advance(self) -> str | None:
        """Let the perfect player move (and handle passes and the end) until it is the human's
        turn or the game is over; returns the perfect player's last move text."""
        reply = None
        while True:
            drawn, news = self._repetitions.see(self.position, self.player)
            if drawn:
                self.over = self.drawn = True
                self._end = news
                return reply
            if news:
                self._news.append(news)
            moves = options(self.ruleset, self.position, self.player)
            if not moves:
                name = NAMES[self.player]
                if self.scoring:
                    end = self.ruleset.end_score(self.position, self.player)
                    if (
                        end is None
                        and self._passes == 0
                        and options(self.ruleset, self.position, self.player.opponent)
                    ):
                        self._news.append(f"{name} has no move and passes.")
                        self._passes += 1
                        self.player = self.player.opponent
                        continue
                    self.margin += self.player.sign * (end or 0)
                    self._end = f"Game over. Left - Right = {self.margin}."
                else:
                    misere = self.ruleset.convention is Convention.MISERE
                    winner = self.player if misere else self.player.opponent
                    you = "you win" if winner is self.human else "the perfect player wins"
                    self._end = f"{name} cannot move: {NAMES[winner]} wins ({you})."
                self.over = True
                return reply
            self._passes = 0
            if self.player is self.human:
                return reply
            move = self._perfect.move(self.position, self.player, moves)
            self._news.append(f"{NAMES[self.player]} (perfect player) played {move.text}.")
            reply = move.text
            self._apply(move)

    def _verdict(self) -> tuple[str, str]:
        """The value of the position (the player to move first) and who wins it, in words."""
        solution = solve(self.ruleset, self.position, first=self.player)
        value = symbols(solution.value)
        if solution.value is None and "value_unknown" in solution.extra:  # (a loopy game)
            value = f"unknown: {solution.extra['value_unknown']}"
        mover = NAMES[self.player]
        if self.scoring:
            ahead = solution.value
            more = "more" if ahead >= 0 else "fewer"
            gain = f"gains {symbols(abs(ahead))} {more} points than the other player"
            return value, f"with best play from here, {mover} (to move) {gain}"
        words = {
            Outcome.L: "Left wins whoever moves first",
            Outcome.R: "Right wins whoever moves first",
            Outcome.N: f"the player to move ({mover}) wins",
            Outcome.P: f"the player to move ({mover}) loses",
            Outcome.D: "a draw",
        }
        return value, words.get(solution.outcome, "")

    def state(self) -> dict[str, Any]:
        """What a front end shows, as plain JSON-able data."""
        value, outcome = self._verdict()
        message = " ".join(self._news)
        message += " " + (self._end if self.over else f"Your move ({NAMES[self.player]}).")
        return {
            "ruleset": self.ruleset.name,
            "position": format_position(self.ruleset, self.position),
            "svg": self.record.picture(),
            "moves": [
                {"text": m.text, "player": NAMES[self.player], "points": str(m.points)}
                for m in self.legal_moves()
            ],
            "value": value,
            "outcome": outcome,
            "to_move": "" if self.over else NAMES[self.player],
            "margin": str(self.margin) if self.scoring else "",
            "message": message.strip(),
            "over": self.over,
            "history": [{"player": NAMES[p], "text": t} for p, t in self.history],
        }
