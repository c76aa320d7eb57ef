"""An interactive board for Jupyter: play against the perfect player, see the value after
each move.

``BoardWidget(ruleset, position)`` is an `anywidget <https://anywidget.dev>`_ widget (the
optional ``notebook`` extra: ``pip install cgframework[notebook]``; the rest of cgframework
never imports this module). The game itself is a :class:`~cgframework.display.match.Match`;
the widget mirrors its :meth:`~cgframework.display.match.Match.state` in synced traits
and the small front end below shows the picture, the value, and one button per legal move
(buttons rather than clicks on the picture: every ruleset's moves have a text, not every
picture has a cell per move). A click sends the move; Python plays it, the perfect player
answers, and the traits are updated.
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

from cgframework.display.match import Match
from cgframework.game import Player, Position, Ruleset

ESM = r"""
function render({ model, el }) {
  const part = (tag, name) => {
    const element = document.createElement(tag);
    element.className = "cgf-" + name;
    return element;
  };
  const root = part("div", "board");
  const picture = part("div", "picture");
  const value = part("div", "value");
  const message = part("div", "message");
  const moves = part("div", "moves");
  const restart = part("button", "restart");
  restart.textContent = "New game";
  restart.addEventListener("click", () => model.send({ kind: "restart" }));
  root.append(picture, value, message, moves, restart);
  el.appendChild(root);

  function update() {
    picture.innerHTML = model.get("svg");
    const margin = model.get("margin");
    value.textContent = "Value: " + model.get("value") +
      (model.get("outcome") ? " \u2014 " + model.get("outcome") : "") +
      (margin ? " (score so far, Left \u2212 Right: " + margin + ")" : "");
    message.textContent = model.get("message");
    moves.replaceChildren();
    for (const move of model.get("moves")) {
      const button = part("button", "move");
      const points = move.points && move.points !== "0" ? " (+" + move.points + ")" : "";
      button.textContent = move.text + points;
      button.title = move.player + " plays " + move.text;
      button.addEventListener("click", () => model.send({ kind: "play", move: move.text }));
      moves.appendChild(button);
    }
  }
  for (const name of ["svg", "value", "outcome", "margin", "message", "moves"]) {
    model.on("change:" + name, update);
  }
  update();
}
export default { render };
"""

CSS = """
.cgf-board { font-family: sans-serif; font-size: 14px; }
.cgf-board .cgf-picture { margin-bottom: 6px; }
.cgf-board .cgf-value { font-weight: bold; margin: 4px 0; }
.cgf-board .cgf-message { margin: 4px 0 8px 0; }
.cgf-board .cgf-move { margin: 0 4px 4px 0; font-family: monospace; }
.cgf-board .cgf-restart { margin-top: 6px; }
"""


class BoardWidget(anywidget.AnyWidget):
    """A board to play ``position`` of ``ruleset`` against the perfect player in a notebook
    (the arguments are those of :class:`~cgframework.display.match.Match`)."""

    _esm = ESM
    _css = CSS

    svg = traitlets.Unicode("").tag(sync=True)
    moves = traitlets.List([]).tag(sync=True)
    value = traitlets.Unicode("").tag(sync=True)
    outcome = traitlets.Unicode("").tag(sync=True)
    to_move = traitlets.Unicode("").tag(sync=True)
    margin = traitlets.Unicode("").tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    over = traitlets.Bool(False).tag(sync=True)

    def __init__(
        self,
        ruleset: Ruleset | str,
        position: Position | str,
        *,
        human: Player = Player.LEFT,
        first: Player | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.match = Match(ruleset, position, human=human, first=first)
        self._show()
        self.on_msg(self._on_message)

    def play(self, move_text: str) -> str | None:
        """Play a move from Python (what a click does); an illegal move is shown in the
        message and raises ``ValueError``."""
        try:
            reply = self.match.play(move_text)
        except ValueError as error:
            self.message = str(error)
            raise
        self._show()
        return reply

    def restart(self) -> None:
        self.match.restart()
        self._show()

    def _show(self) -> None:
        state = self.match.state()
        with self.hold_sync():
            for name in ("svg", "moves", "value", "outcome", "to_move", "margin", "message"):
                setattr(self, name, state[name])
            self.over = state["over"]

    def _on_message(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        if content.get("kind") == "restart":
            self.restart()
        elif content.get("kind") == "play":
            try:
                self.play(str(content.get("move", "")))
            except ValueError:
                pass  # already shown in the message
