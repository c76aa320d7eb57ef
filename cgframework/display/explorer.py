"""The game-tree explorer's data: a position, its value, and each side's options with
theirs, as plain JSON-able dicts (``cgf explore``'s web page and the notebook's
:class:`~cgframework.display.widget.ExplorerWidget` only display these).

As in CGSuite's Explorer: the position's picture (the ruleset's ``draw``), value, outcome,
temperature and thermograph; Left's and Right's options, each with its picture and value,
dominated and reversible ones marked; a sum (or a position the ruleset splits) component by
component. Values come from :func:`cgframework.solve` (so they are what ``cgf solve`` says),
each under a node budget and a deadline: a node too large shows what was found and says
which limit stopped it.

Marks (normal-play canonical values only; Siegel, *Combinatorial Game Theory*, II.2): a
Left option ``G^L1`` is *dominated* when another Left option ``G^L2 >= G^L1`` (of two equal
ones, the later one is marked); *reversible* when the canonical form of ``G^L1`` has a Right
option ``<= G`` (Right's options alike, with the inequalities turned round).

Clicks: :func:`pick_key` reads what the page sends (``cell:r,c``, ``vertex:v``,
``edge:i``, the picture's ``data-`` attributes) and :func:`move_at` asks the ruleset's
optional ``move_at`` hook; :func:`edit_cell` is the position editor of rulesets that
declare ``cell_states``.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator, Sequence
from itertools import islice
from typing import Any

from cgframework.display.pictures import PictureTooBig
from cgframework.game import (
    PICK_MORE,
    Convention,
    Move,
    Player,
    Position,
    Ruleset,
    Sum,
    components,
    draw_position,
    dump_number,
    format_position,
    parse_position,
)
from cgframework.io import unstructure_solution
from cgframework.runtime.budget import LimitExceeded, SearchStopped
from cgframework.solvers.dispatch import solve, solve_loopy_outcome
from cgframework.values.canonical import CanonicalGame

MAX_OPTIONS = 60
"""Options listed per side at most (a nim heap of 10^30 has 10^30 of them); the node says
how many more there are, up to ``COUNT_LIMIT``."""
COUNT_LIMIT = 10_000
MAX_COMPONENTS = 16
"""Components shown one by one at most."""
DEFAULT_MAX_NODES = 500_000
DEFAULT_TIMEOUT = 10.0
"""A node's limits by default: positions expanded per solve, and seconds for the whole node
(its value, then its options', then its components')."""


class ExplorerError(ValueError):
    """A request the explorer cannot answer: an unknown ruleset, a malformed position, a
    click that is no move (the web page shows the message; HTTP 400)."""


def resolve(ruleset: Ruleset | str, position: Position | str) -> tuple[Ruleset, Position]:
    """The ruleset and the position (parsed from its text); bad input is an
    :class:`ExplorerError` with one line."""
    from cgframework.plugins import resolve_ruleset

    try:
        rs = resolve_ruleset(ruleset)
    except KeyError as exc:
        raise ExplorerError(str(exc.args[0] if exc.args else exc)) from None
    if not isinstance(position, str):
        return rs, position
    if not position.strip():
        raise ExplorerError(f"empty position for ruleset {rs.name!r}")
    try:
        return rs, parse_position(rs, position)
    except (MemoryError, LimitExceeded):
        raise
    except Exception as exc:  # a plugin's parser may raise anything on bad text
        text = position if len(position) <= 60 else position[:50] + "..."
        raise ExplorerError(f"invalid {rs.name} position {text!r}: {exc}") from None


def scoring(ruleset: Ruleset) -> bool:
    """Whose turn it is matters (scoring play, cheating-robot rounds): nodes carry ``first``."""
    return ruleset.convention in (Convention.SCORING, Convention.CHEATING_ROBOT)


def picture(ruleset: Ruleset, position: Position) -> str:
    """The position's SVG, or a short note when it is too big to draw."""
    try:
        return draw_position(ruleset, position)
    except PictureTooBig as exc:
        from cgframework.display.pictures import text_svg

        return text_svg(str(exc))


def _moves(ruleset: Ruleset, position: Position, player: Player) -> Iterator[Move]:
    """Options one at a time (:func:`cgframework.game.options` builds the whole list)."""
    if not isinstance(position, Sum):
        yield from ruleset.options(position, player)
        return
    parts = position.parts
    for i, part in enumerate(parts):
        for move in ruleset.options(part, player):
            rest = parts[:i] + (move.result,) + parts[i + 1 :]
            text = move.text if len(parts) == 1 else f"{i + 1}:{move.text}"
            yield Move(Sum(rest), text, move.points)


def _side(ruleset: Ruleset, position: Position, player: Player) -> tuple[list[Move], int]:
    """The first ``MAX_OPTIONS`` moves of ``player`` and how many more there are (counted up
    to ``COUNT_LIMIT``)."""
    moves = _moves(ruleset, position, player)
    shown = list(islice(moves, MAX_OPTIONS))
    more = sum(1 for _ in islice(moves, COUNT_LIMIT)) if len(shown) == MAX_OPTIONS else 0
    return shown, more


def outline(
    ruleset: Ruleset | str,
    position: Position | str,
    first: Player = Player.LEFT,
    pictures: bool = True,
) -> dict[str, Any]:
    """What a node shows before anything is solved: the position's text and picture, each
    side's options (``move``, ``position``, ``points``, picture), the components, and what
    the picture takes (``clickable``: the ruleset has ``move_at``; ``cell_states``)."""
    rs, pos = resolve(ruleset, position)
    node: dict[str, Any] = {
        "ruleset": rs.name,
        "position": format_position(rs, pos),
        "convention": rs.convention.value,
        "impartial": bool(rs.impartial),
        "clickable": getattr(rs, "move_at", None) is not None,
        "cell_states": getattr(rs, "cell_states", "") or "",
    }
    if scoring(rs):
        node["first"] = first.value
    if pictures:
        node["svg"] = picture(rs, pos)
    for player, name in ((Player.LEFT, "left"), (Player.RIGHT, "right")):
        moves, more = _side(rs, pos, player)
        node[name] = [_option(rs, pos, player, move, pictures) for move in moves]
        node[f"more_{name}"] = more
    parts = components(rs, pos)
    node["components"] = [
        {"position": format_position(rs, part), **({"svg": picture(rs, part)} if pictures else {})}
        for part in parts[:MAX_COMPONENTS]
    ]
    node["more_components"] = max(0, len(parts) - MAX_COMPONENTS)
    return node


def _option(
    ruleset: Ruleset, parent: Position, player: Player, move: Move, pictures: bool
) -> dict[str, Any]:
    """An option before it is solved; its picture is the position after the move, with what
    the move took (``move_marks``) in the mover's colour."""
    out: dict[str, Any] = {"move": move.text, "position": format_position(ruleset, move.result)}
    if move.points:
        out["points"] = dump_number(move.points)
    if pictures:
        marks = None
        marker = getattr(ruleset, "move_marks", None)
        if marker is not None and not isinstance(parent, Sum):
            try:
                marks = {key: player for key in marker(parent, move)}
            except Exception:  # a courtesy: the plain picture is still right
                marks = None
        try:
            out["svg"] = draw_position(ruleset, move.result, marks)
        except PictureTooBig:
            out["svg"] = picture(ruleset, move.result)
    return out


class _Clock:
    """One node's limits: ``max_nodes`` per solve, ``timeout`` seconds for them all."""

    def __init__(self, max_nodes: int | None, timeout: float | None) -> None:
        self.max_nodes = max_nodes
        self.timeout = timeout
        self.deadline = None if timeout is None else time.monotonic() + timeout

    def solve(self, ruleset: Ruleset, position: Position, using: Any = solve, **kwargs: Any) -> Any:
        timeout = None
        if self.deadline is not None:
            timeout = max(0.0, self.deadline - time.monotonic())
        try:
            return using(ruleset, position, max_nodes=self.max_nodes, timeout=timeout, **kwargs)
        except SearchStopped as exc:
            if self.deadline is not None and time.monotonic() >= self.deadline:
                raise SearchStopped(f"search stopped after {self.timeout:g} s (--timeout)") from exc
            raise


def outcome(
    ruleset: Ruleset | str,
    position: Position | str,
    first: Player = Player.LEFT,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> dict[str, Any]:
    """Who wins, found first (a value may take far longer): the outcome search for a
    normal-play ruleset that is not loopy, the retrograde analysis alone for a loopy one (its
    value's sides may take seconds), else the ordinary solve. ``status`` is ``ok``,
    ``limit`` (a limit stopped it: ``message`` says which) or ``error``."""
    rs, pos = resolve(ruleset, position)
    clock = _Clock(max_nodes, timeout)
    loopy = getattr(rs, "loopy", False)
    fast = rs.convention is Convention.NORMAL and not loopy
    out: dict[str, Any] = {"ruleset": rs.name, "position": format_position(rs, pos)}
    try:
        if loopy:
            solution = clock.solve(rs, pos, using=solve_loopy_outcome, first=first)
        else:
            solution = clock.solve(rs, pos, first=first, outcome_only=fast)
    except Exception as exc:
        return {**out, **_failure(exc)}
    out.update(status="ok", outcome=None if solution.outcome is None else solution.outcome.value)
    return out


def _failure(exc: BaseException) -> dict[str, Any]:
    """A solve that did not finish, as a node's ``status`` and one-line ``message``."""
    if isinstance(exc, LimitExceeded | MemoryError):
        return {"status": "limit", "message": str(exc) or "out of memory"}
    message = " ".join(str(exc).split())[:300]
    return {"status": "error", "message": f"{type(exc).__name__}: {message}"}


def _value_fields(solution: Any) -> dict[str, Any]:
    """``value``, ``outcome`` (and ``grundy``) as ``cgf solve --json`` writes them: a loopy
    value as its text (``1 & 0``); none, with ``value_unknown`` saying why, where the loopy
    algebra cannot give it (the outcome is there all the same)."""
    data = unstructure_solution(solution)
    out = {"value": data["value"], "outcome": data["outcome"]}
    for key in ("grundy", "value_unknown"):
        if key in data:
            out[key] = data[key]
    return out


def node(
    ruleset: Ruleset | str,
    position: Position | str,
    first: Player = Player.LEFT,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    timeout: float | None = DEFAULT_TIMEOUT,
    pictures: bool = True,
) -> dict[str, Any]:
    """A node of the game tree with values: :func:`outline`, plus ``value``, ``outcome``
    (and ``grundy``, ``value_unknown``, ``temperature``, ``mean``, ``thermograph``) of the
    position, each
    option's ``value`` and ``outcome`` with its ``dominated`` and ``reversible`` marks, and
    each component's value. ``first`` is who moves first at this node (it matters in
    scoring play; an option is solved with the other player first). The node's ``status``
    is ``ok``, ``limit`` or ``error`` (``message`` says why): what was found is kept."""
    rs, pos = resolve(ruleset, position)
    out = outline(rs, pos, first, pictures)
    clock = _Clock(max_nodes, timeout)
    out.update(status="ok", value=None, outcome=None)
    value = None
    try:
        solution = clock.solve(rs, pos, first=first)
        value = solution.value
        out.update(_value_fields(solution))
        out["method"] = solution.method
    except Exception as exc:  # the options may still be within reach: go on
        out.update(_failure(exc))
    if isinstance(value, CanonicalGame) and not _large(value):
        out.update(_temperature(value, pictures))
    sides: dict[str, list[Any]] = {}
    for player, name in ((Player.LEFT, "left"), (Player.RIGHT, "right")):
        moves, _ = _side(rs, pos, player)
        values: list[Any] = []
        for entry, move in zip(out[name], moves, strict=True):
            child_first = player.opponent if scoring(rs) else Player.LEFT
            try:
                child = clock.solve(rs, move.result, first=child_first)
            except Exception as exc:
                entry.update(value=None, outcome=None, **_failure(exc))
                values.append(None)
                if out["status"] == "ok":
                    out.update(
                        status=entry["status"], message=f"option {move.text}: " + entry["message"]
                    )
                continue
            entry.update(_value_fields(child))
            if scoring(rs):
                entry["first"] = child_first.value
            values.append(child.value)
        sides[name] = values
    if isinstance(value, CanonicalGame):
        _mark(out["left"], sides["left"], value, Player.LEFT)
        _mark(out["right"], sides["right"], value, Player.RIGHT)
    parts = components(rs, pos)
    if len(parts) > 1 or isinstance(pos, Sum):
        for entry, part in zip(out["components"], parts, strict=False):
            try:
                entry.update(_value_fields(clock.solve(rs, part, first=first)))
            except Exception as exc:
                entry.update(value=None, **_failure(exc))
    return out


def _large(value: CanonicalGame) -> bool:
    from cgframework.values.summary import is_large

    return is_large(value)


def _temperature(value: CanonicalGame, pictures: bool) -> dict[str, Any]:
    """Temperature, mean and (with ``pictures``) the thermograph's SVG of a canonical value."""
    out: dict[str, Any] = {}
    try:
        out["temperature"] = dump_number(value.temperature())
        out["mean"] = dump_number(value.mean())
    except (ArithmeticError, ValueError, LimitExceeded):
        return out
    if pictures and not value.is_number:  # (a number's thermograph is a bare mast)
        from cgframework.display.thermograph import thermograph_svg

        try:
            out["thermograph"] = thermograph_svg(value)
        except (PictureTooBig, ArithmeticError, ValueError):
            pass
    return out


def _mark(
    entries: list[dict[str, Any]], values: list[Any], g: CanonicalGame, player: Player
) -> None:
    """Set each option's ``dominated`` and ``reversible`` (see the module docstring); an
    option without a canonical value is marked neither."""
    better = (lambda a, b: a >= b) if player is Player.LEFT else (lambda a, b: a <= b)
    for i, (entry, v) in enumerate(zip(entries, values, strict=True)):
        if not isinstance(v, CanonicalGame):
            entry.update(dominated=False, reversible=False)
            continue
        dominated = False
        for j, w in enumerate(values):
            if j == i or not isinstance(w, CanonicalGame):
                continue
            if better(w, v) and (not better(v, w) or j < i):  # strictly better, or equal earlier
                dominated = True
                break
        if player is Player.LEFT:
            reversible = any(r <= g for r in v.right)
        else:
            reversible = any(lo >= g for lo in v.left)
        entry.update(dominated=dominated, reversible=reversible)


# ---- clicks and the editor -------------------------------------------------------------------
def pick_key(text: str) -> Hashable:
    """A click as a ``draw`` key: ``cell:r,c`` -> ``(r, c)``, ``vertex:v`` -> ``v`` (an int
    when it is one), ``edge:i`` -> ``("edge", i)``."""
    kind, _, rest = text.partition(":")
    try:
        if kind == "cell":
            r, c = (int(x) for x in rest.split(","))
            return (r, c)
        if kind == "vertex":
            return int(rest) if rest.lstrip("-").isdigit() else rest
        if kind == "edge":
            return ("edge", int(rest))
    except ValueError:
        pass
    raise ExplorerError(f"unknown pick {text[:40]!r} (cell:R,C, vertex:V or edge:I)")


def move_at(
    ruleset: Ruleset | str,
    position: Position | str,
    picks: Sequence[Hashable],
    player: Player | None = None,
    part: int | None = None,
) -> dict[str, Any]:
    """What the clicks ``picks`` (draw keys, in order) make: ``{"status": "move", "move",
    "player", "position"}``, ``{"status": "more"}`` (they begin a move) or ``{"status":
    "none"}``. ``player`` ``None``: Left's move if the clicks make one, else Right's. In a
    sum, ``part`` is the summand clicked (from 0)."""
    rs, pos = resolve(ruleset, position)
    hook = getattr(rs, "move_at", None)
    if hook is None:
        raise ExplorerError(f"ruleset {rs.name!r} takes no clicks on its picture (no move_at)")
    target = pos
    if isinstance(pos, Sum):
        if part is None or not 0 <= part < len(pos.parts):
            raise ExplorerError(f"a sum of {len(pos.parts)} parts: say which part was clicked")
        target = pos.parts[part]
    players = [player] if player is not None else [Player.LEFT, Player.RIGHT]
    more = False
    for who in players:
        found = hook(target, list(picks), who)
        if found is PICK_MORE:
            more = True
        elif found is not None:
            move: Move = found
            if isinstance(pos, Sum):
                parts = pos.parts[:part] + (move.result,) + pos.parts[part + 1 :]  # type: ignore[operator]
                text = move.text if len(pos.parts) == 1 else f"{part + 1}:{move.text}"  # type: ignore[operator]
                move = Move(Sum(parts), text, move.points)
            return {
                "status": "move",
                "move": move.text,
                "player": who.value,
                "position": format_position(rs, move.result),
            }
    return {"status": "more" if more else "none"}


EDITS = ("cell", "add-row", "add-column", "remove-row", "remove-column")


def edit_cell(
    ruleset: Ruleset | str,
    position: Position | str,
    op: str = "cell",
    cell: tuple[int, int] | None = None,
    part: int | None = None,
) -> dict[str, Any]:
    """The position editor of a ruleset with ``cell_states`` (its text is rows of cells
    joined by ``|``): ``op`` ``cell`` moves the cell ``(row, column)`` to its next state,
    ``add-row``/``add-column`` add a row or column of the first state (at the bottom or
    right), ``remove-row``/``remove-column`` remove the last one. Returns ``{"position"}``,
    the new text, parsed and written again by the ruleset."""
    rs, pos = resolve(ruleset, position)
    states = getattr(rs, "cell_states", "") or ""
    if not states:
        raise ExplorerError(f"ruleset {rs.name!r} has no position editor (no cell_states)")
    if op not in EDITS:
        raise ExplorerError(f"unknown edit {op!r} (one of {', '.join(EDITS)})")
    texts = [rs.format(p) for p in pos.parts] if isinstance(pos, Sum) else [rs.format(pos)]
    index = part or 0
    if not 0 <= index < len(texts):
        raise ExplorerError(f"no part {index} in a sum of {len(texts)}")
    rows = [list(row) for row in texts[index].split("|")]
    width = len(rows[0])
    if op == "cell":
        if cell is None:
            raise ExplorerError("say which cell (cell=R,C)")
        r, c = cell
        if not (0 <= r < len(rows) and 0 <= c < len(rows[r])):
            raise ExplorerError(f"no cell {r},{c} on this board")
        now = rows[r][c]
        rows[r][c] = states[(states.index(now) + 1) % len(states)] if now in states else states[0]
    elif op == "add-row":
        rows.append([states[0]] * width)
    elif op == "add-column":
        for row in rows:
            row.append(states[0])
    elif op == "remove-row" and len(rows) > 1:
        rows.pop()
    elif op == "remove-column" and width > 1:
        for row in rows:
            row.pop()
    texts[index] = "|".join("".join(row) for row in rows)
    separator = getattr(rs, "sum_separator", None) or "+"
    _, new = resolve(rs, f" {separator} ".join(texts))
    return {"position": format_position(rs, new)}
