"""Interactive boards for Jupyter: play against the perfect player, or explore the game tree.

Both are `anywidget <https://anywidget.dev>`_ widgets (the optional ``notebook`` extra:
``pip install cgframework[notebook]``; the rest of cgframework never imports this module).

``BoardWidget(ruleset, position)``: the game is a :class:`~cgframework.display.match.Match`;
the widget mirrors its :meth:`~cgframework.display.match.Match.state` in synced traits and
the small front end below shows the picture, the value, and one button per legal move. A
ruleset with a ``move_at`` hook also takes clicks on the board (a cell, two cells, a vertex):
Python turns them into the move (:func:`cgframework.display.explorer.move_at`), plays it,
and the perfect player answers.

``ExplorerWidget(ruleset, position)``: ``cgf explore`` in a notebook: the position's picture,
value, outcome, temperature and thermograph, each side's options with their values
(dominated and reversible ones marked); click an option to go down, a step of the path to
come back, the board to move. The data are :mod:`cgframework.display.explorer`'s nodes: the
outline is shown first, then the outcome, then the values (each trait update reaches the
page at once), under a node budget and a deadline.
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

from cgframework.display import explorer
from cgframework.display.match import Match
from cgframework.game import Player, Position, Ruleset, format_position

PICK_OF = r"""
function pickOf(target) {
  const item = target.closest("[data-cell],[data-vertex],[data-edge]");
  if (!item) return null;
  const where = target.closest("[data-part]");
  const pick = item.dataset.cell !== undefined ? "cell:" + item.dataset.cell
    : item.dataset.vertex !== undefined ? "vertex:" + item.dataset.vertex
    : "edge:" + item.dataset.edge;
  return { pick, part: where ? Number(where.dataset.part) : null };
}
"""
"""What a click on a picture picked (``data-cell``, ``data-vertex`` or ``data-edge``, and the
sum's part it is in): both widgets send it to Python."""

ESM = (
    PICK_OF
    + r"""
function markPicks(picture, picks) {
  for (const pick of picks) {
    const at = pick.indexOf(":");
    const kind = pick.slice(0, at), key = pick.slice(at + 1);
    for (const e of picture.querySelectorAll("[data-" + kind + "]")) {
      if (e.dataset[kind] === key) e.classList.add("cgf-picked");
    }
  }
}

function render({ model, el }) {
  const part = (tag, name) => {
    const element = document.createElement(tag);
    element.className = "cgf-" + name;
    return element;
  };
  const root = part("div", "board");
  const picture = part("div", "picture");
  picture.addEventListener("click", (event) => {
    const found = pickOf(event.target);
    if (found) model.send({ kind: "pick", pick: found.pick, part: found.part });
  });
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
    markPicks(picture, model.get("picks"));
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
  for (const name of ["svg", "value", "outcome", "margin", "message", "moves", "picks"]) {
    model.on("change:" + name, update);
  }
  update();
}
export default { render };
"""
)

CSS = """
.cgf-board { font-family: sans-serif; font-size: 14px; }
.cgf-board .cgf-picture { margin-bottom: 6px; }
.cgf-board .cgf-value { font-weight: bold; margin: 4px 0; }
.cgf-board .cgf-message { margin: 4px 0 8px 0; }
.cgf-board .cgf-move { margin: 0 4px 4px 0; font-family: monospace; }
.cgf-board .cgf-restart { margin-top: 6px; }
.cgf-board .cgf-picture [data-cell], .cgf-board .cgf-picture [data-vertex] { cursor: pointer; }
.cgf-board .cgf-picked { stroke: #e0a800; stroke-width: 4px; }
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
    picks = traitlets.List([]).tag(sync=True)

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
        self.picks = []
        self._show()

    def pick(self, pick: str, part: int | None = None) -> str | None:
        """A click on the board (``cell:r,c``, ``vertex:v``, ``edge:i``; ``part``: the summand
        of a sum): when the clicks so far make one of the human's moves, it is played (and
        its text returned); when they begin one, they are kept (``picks``); else dropped,
        with a message."""
        picks = [*self.picks, pick]
        try:
            keys = [explorer.pick_key(p) for p in picks]
            found = explorer.move_at(
                self.match.ruleset, self.match.position, keys, self.match.player, part
            )
        except explorer.ExplorerError as error:
            self.picks, self.message = [], str(error)
            return None
        if found["status"] == "more":
            self.picks = picks
            self.message = "Picked " + ", ".join(picks) + ": pick again to finish the move."
            return None
        self.picks = []
        if found["status"] == "none" or self.match.over:
            self.message = "No move of yours there."
            return None
        self.play(found["move"])
        return found["move"]

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
        elif content.get("kind") == "pick":
            part = content.get("part")
            self.pick(str(content.get("pick", "")), part if isinstance(part, int) else None)


EXPLORER_ESM = (
    PICK_OF
    + r"""
const OUTCOMES = { L: "L (Left wins)", R: "R (Right wins)", N: "N (the first player wins)",
  P: "P (the second player wins)", D: "D (a draw)" };


function render({ model, el }) {
  const part = (tag, name, text) => {
    const element = document.createElement(tag);
    element.className = "cgf-" + name;
    if (text !== undefined) element.textContent = text;
    return element;
  };
  const root = part("div", "explorer");
  const crumbs = part("div", "crumbs");
  const top = part("div", "top");
  const picture = part("div", "picture");
  const facts = part("div", "facts");
  const thermograph = part("div", "thermograph");
  const message = part("div", "message");
  const sides = part("div", "sides");
  top.append(picture, facts, thermograph);
  root.append(crumbs, top, message, sides);
  el.appendChild(root);
  picture.addEventListener("click", (event) => {
    const found = pickOf(event.target);
    if (found) model.send({ kind: "pick", pick: found.pick, part: found.part });
  });

  function update() {
    crumbs.replaceChildren();
    model.get("path").forEach((step, i, path) => {
      if (i) crumbs.appendChild(part("span", "sep", " \u203a "));
      const label = i === 0 ? "start" : (step.player === "L" ? "Left " : "Right ") + step.move;
      const item = part(i === path.length - 1 ? "b" : "a", "crumb", label);
      if (i < path.length - 1) {
        item.addEventListener("click", () => model.send({ kind: "back", depth: i }));
      }
      crumbs.appendChild(item);
    });
    picture.innerHTML = model.get("svg");
    facts.replaceChildren();
    const rows = [["Position", model.get("position")], ["Value", model.get("value")],
      ["Outcome", OUTCOMES[model.get("outcome")] || model.get("outcome")]];
    if (model.get("temperature")) rows.push(["Temperature", model.get("temperature")]);
    for (const [name, text] of rows) {
      const row = part("div", "fact");
      row.append(part("b", "name", name + ": "), part("code", "text", text));
      facts.appendChild(row);
    }
    thermograph.innerHTML = model.get("thermograph");
    message.textContent = model.get("message");
    sides.replaceChildren();
    for (const side of ["left", "right"]) {
      const column = part("div", "side");
      const title = side === "left" ? "Left's options" : "Right's options";
      column.appendChild(part("div", side + "-title", title));
      model.get(side).forEach((option, index) => {
        const card = part("div", "option");
        if (option.dominated) card.classList.add("cgf-dominated");
        if (option.reversible) card.classList.add("cgf-reversible");
        const small = part("div", "small");
        small.innerHTML = option.svg || "";
        const flags = ["dominated", "reversible"].filter((f) => option[f]).join(", ");
        card.append(small, part("code", "move", option.move),
          part("code", "value", option.value === undefined ? "\u2026" : String(option.value)),
          part("span", "flags", flags));
        card.addEventListener("click", () => model.send({ kind: "go", side, index }));
        column.appendChild(card);
      });
      sides.appendChild(column);
    }
  }
  for (const name of ["path", "svg", "position", "value", "outcome", "temperature",
                      "thermograph", "message", "left", "right"]) {
    model.on("change:" + name, update);
  }
  update();
}
export default { render };
"""
)

EXPLORER_CSS = """
.cgf-explorer { font-family: sans-serif; font-size: 14px; }
.cgf-explorer .cgf-crumbs { font-family: monospace; margin-bottom: 6px; }
.cgf-explorer .cgf-crumb { cursor: pointer; color: #2f6db5; }
.cgf-explorer .cgf-top { display: flex; gap: 16px; align-items: flex-start; flex-wrap: wrap; }
.cgf-explorer .cgf-thermograph svg { max-width: 260px; max-height: 200px; height: auto; }
.cgf-explorer .cgf-picture [data-cell] { cursor: pointer; }
.cgf-explorer .cgf-picture [data-vertex] { cursor: pointer; }
.cgf-explorer .cgf-sides { display: flex; gap: 16px; }
.cgf-explorer .cgf-side { flex: 1; display: flex; flex-wrap: wrap; gap: 6px;
  align-content: flex-start; }
.cgf-explorer .cgf-left-title, .cgf-explorer .cgf-right-title { width: 100%; font-weight: bold; }
.cgf-explorer .cgf-left-title { color: #2f6db5; }
.cgf-explorer .cgf-right-title { color: #d0443e; }
.cgf-explorer .cgf-option { border: 1px solid #ccc; border-radius: 5px; padding: 4px;
  cursor: pointer; display: flex; flex-direction: column; align-items: center; }
.cgf-explorer .cgf-small svg { max-width: 100px; max-height: 100px; height: auto; width: auto; }
.cgf-explorer .cgf-dominated { opacity: 0.55; }
.cgf-explorer .cgf-reversible { border: 2px dashed #8e44ad; }
.cgf-explorer .cgf-flags { font-size: 11px; color: #8e44ad; }
"""


class ExplorerWidget(anywidget.AnyWidget):
    """The game tree of ``position`` of ``ruleset`` in a notebook (see the module docstring).
    ``max_nodes`` and ``timeout`` limit each node's solves (a node past them says so);
    ``first`` is who moves first at the start (scoring play)."""

    _esm = EXPLORER_ESM
    _css = EXPLORER_CSS

    path = traitlets.List([]).tag(sync=True)
    svg = traitlets.Unicode("").tag(sync=True)
    position = traitlets.Unicode("").tag(sync=True)
    value = traitlets.Unicode("").tag(sync=True)
    outcome = traitlets.Unicode("").tag(sync=True)
    temperature = traitlets.Unicode("").tag(sync=True)
    thermograph = traitlets.Unicode("").tag(sync=True)
    left = traitlets.List([]).tag(sync=True)
    right = traitlets.List([]).tag(sync=True)
    components = traitlets.List([]).tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    picks = traitlets.List([]).tag(sync=True)

    def __init__(
        self,
        ruleset: Ruleset | str,
        position: Position | str,
        *,
        first: Player = Player.LEFT,
        max_nodes: int | None = explorer.DEFAULT_MAX_NODES,
        timeout: float | None = explorer.DEFAULT_TIMEOUT,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        rs, pos = explorer.resolve(ruleset, position)
        self.ruleset = rs
        self.limits = {"max_nodes": max_nodes, "timeout": timeout}
        self.path = [{"position": format_position(rs, pos), "first": first.value}]
        self.on_msg(self._on_message)
        self._show()

    @property
    def here(self) -> dict[str, Any]:
        """The node shown: its ``position`` text, ``first``, and the ``move`` that led here."""
        return self.path[-1]

    def go(self, side: str, index: int) -> None:
        """Go to the ``index``-th option of ``side`` (``"left"`` or ``"right"``)."""
        options = self.left if side == "left" else self.right
        if side not in ("left", "right") or not 0 <= index < len(options):
            raise ValueError(f"no option {index} of {side!r}")
        option = options[index]
        first = ("R" if side == "left" else "L") if explorer.scoring(self.ruleset) else "L"
        self._push(option["move"], side[0].upper(), option["position"], first)

    def back(self, depth: int = -2) -> None:
        """Back to the node at ``depth`` on the path (0: the start; -2: one step up)."""
        if len(self.path) < 2 and depth == -2:
            return
        keep = depth + 1 if depth >= 0 else len(self.path) + depth + 1
        self.path = self.path[: max(1, keep)]
        self._show()

    def pick(self, pick: str, part: int | None = None) -> str | None:
        """A click on the board: when the clicks so far make a move (Left's if they can,
        else Right's), go to it and return its text; when they begin one, keep them."""
        picks = [*self.picks, pick]
        try:
            keys = [explorer.pick_key(p) for p in picks]
            found = explorer.move_at(self.ruleset, self.here["position"], keys, None, part)
        except explorer.ExplorerError as error:
            self.picks, self.message = [], str(error)
            return None
        if found["status"] == "more":
            self.picks, self.message = picks, "Pick again to finish the move."
            return None
        self.picks = []
        if found["status"] == "none":
            self.message = "No move there."
            return None
        first = ("R" if found["player"] == "L" else "L") if explorer.scoring(self.ruleset) else "L"
        self._push(found["move"], found["player"], found["position"], first)
        return found["move"]

    def _push(self, move: str, player: str, position: str, first: str) -> None:
        step = {"move": move, "player": player, "position": position, "first": first}
        self.path = [*self.path, step]
        self._show()

    def _show(self) -> None:
        """The outline at once, then the outcome, then the values: each reaches the page as
        soon as it is set."""
        step = self.here
        first = Player(step["first"])
        outline = explorer.outline(self.ruleset, step["position"], first)
        with self.hold_sync():
            self.picks = []
            self.svg, self.position = outline["svg"], outline["position"]
            self.value, self.outcome = "computing\u2026", "computing\u2026"
            self.temperature = self.thermograph = self.message = ""
            self.left, self.right = outline["left"], outline["right"]
            self.components = outline["components"]
        quick = explorer.outcome(self.ruleset, step["position"], first, **self.limits)
        if quick.get("outcome"):
            self.outcome = quick["outcome"]
        node = explorer.node(self.ruleset, step["position"], first, **self.limits)
        with self.hold_sync():
            value = node["value"]
            if isinstance(value, dict):  # a long value's summary (cgf solve --json's)
                value = f"{value['elided']} ({value['characters']} characters)"
            self.value = "" if value is None else str(value)
            if value is None and node.get("value_unknown"):  # (a loopy value out of reach)
                self.value = f"unknown: {node['value_unknown']}"
            self.outcome = node["outcome"] or self.outcome
            if node["status"] != "ok":
                self.value = self.value or "too large (limit)"
                self.message = node.get("message", "")
            self.temperature = str(node.get("temperature", ""))
            self.thermograph = node.get("thermograph", "")
            self.left, self.right = node["left"], node["right"]
            self.components = node["components"]

    def _on_message(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        kind = content.get("kind")
        try:
            if kind == "go":
                self.go(str(content.get("side")), int(content.get("index", -1)))
            elif kind == "back":
                self.back(int(content.get("depth", -2)))
            elif kind == "pick":
                part = content.get("part")
                self.pick(str(content.get("pick", "")), part if isinstance(part, int) else None)
        except (ValueError, TypeError) as error:
            self.message = str(error)
