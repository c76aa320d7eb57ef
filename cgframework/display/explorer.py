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
from typing import Any, NamedTuple

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
how many more there are (``more_left``), counted up to ``COUNT_LIMIT`` options or
``COUNT_SECONDS`` (``more_left_exact`` says whether that is all of them)."""
COUNT_LIMIT = 10_000
COUNT_SECONDS = 0.5
MARK_OPTIONS = 1_000
"""An option's value with more options than this on the side the reversible mark looks at
(``*10^30`` has 10^30) is not compared option by option: its mark is ``None`` (unknown),
but for nimbers, whose marks are known without looking."""
MAX_COMPONENTS = 16
"""Components shown one by one at most."""
MAX_MARKS = 10_000
"""Keys an option's picture marks at most (more: the position reached is drawn instead)."""
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


def _moves(ruleset: Ruleset, position: Position, player: Player) -> Iterator[_Listed]:
    """Options one at a time (:func:`cgframework.game.options` builds the whole list)."""
    if not isinstance(position, Sum):
        for move in ruleset.options(position, player):
            yield _Listed(move, None, move)
        return
    parts = position.parts
    for i, part in enumerate(parts):
        for move in ruleset.options(part, player):
            rest = parts[:i] + (move.result,) + parts[i + 1 :]
            text = move.text if len(parts) == 1 else f"{i + 1}:{move.text}"
            yield _Listed(Move(Sum(rest), text, move.points), i, move)


class _Listed(NamedTuple):
    """An option as listed: the move, and in a sum the summand moved in and its own move."""

    move: Move
    part: int | None
    part_move: Move


def _side(
    ruleset: Ruleset, position: Position, player: Player, clock: _Clock
) -> tuple[list[_Listed], int, bool]:
    """The first ``MAX_OPTIONS`` moves of ``player`` (fewer if the deadline comes first), how
    many more there are (counted up to ``COUNT_LIMIT``, for ``COUNT_SECONDS`` at most), and
    whether that count is all of them."""
    moves = _moves(ruleset, position, player)
    shown: list[_Listed] = []
    for listed in moves:
        shown.append(listed)
        if len(shown) == MAX_OPTIONS or clock.expired():
            break
    else:
        return shown, 0, True
    if clock.expired():
        return shown, 0, False
    stop = clock.within(COUNT_SECONDS)
    more = 0
    for _ in moves:
        more += 1
        if more >= COUNT_LIMIT or time.monotonic() >= stop:
            return shown, more, False
    return shown, more, True


def outline(
    ruleset: Ruleset | str,
    position: Position | str,
    first: Player = Player.LEFT,
    pictures: bool = True,
    timeout: float | None = None,
) -> dict[str, Any]:
    """What a node shows before anything is solved: the position's text and picture, each
    side's options (``move``, ``position``, ``points``, picture), the components, and what
    the picture takes (``clickable``: the ruleset has ``move_at``; ``cell_states``). Within
    ``timeout`` seconds: past it, the options not yet listed or drawn are left out and
    ``status`` is ``limit`` (else ``ok``), with a ``message``."""
    clock = _Clock(None, timeout)  # (its text read under the deadline too)
    rs, pos = resolve(ruleset, position)
    return _outline(rs, pos, first, pictures, clock)[0]


def _outline(
    rs: Ruleset, pos: Position, first: Player, pictures: bool, clock: _Clock
) -> tuple[dict[str, Any], dict[str, list[_Listed]]]:
    """:func:`outline` under ``clock``, and the options it lists on each side."""
    node: dict[str, Any] = {
        "ruleset": rs.name,
        "position": format_position(rs, pos),
        "convention": rs.convention.value,
        "impartial": bool(rs.impartial),
        "clickable": getattr(rs, "move_at", None) is not None,
        "cell_states": getattr(rs, "cell_states", "") or "",
        "status": "ok",
    }
    if scoring(rs):
        node["first"] = first.value
    if pictures:
        node["svg"] = picture(rs, pos)
    listed: dict[str, list[_Listed]] = {}
    for player, name in ((Player.LEFT, "left"), (Player.RIGHT, "right")):
        moves, more, exact = _side(rs, pos, player, clock)
        listed[name] = moves
        node[name] = [_option(rs, pos, player, found, pictures, clock) for found in moves]
        node[f"more_{name}"] = more
        node[f"more_{name}_exact"] = exact
    parts = components(rs, pos) if not clock.expired() else [pos]
    node["components"] = []
    for part in parts[:MAX_COMPONENTS]:
        entry = {"position": format_position(rs, part)}
        if pictures and not clock.expired():
            entry["svg"] = picture(rs, part)
        node["components"].append(entry)
    node["more_components"] = max(0, len(parts) - MAX_COMPONENTS)
    if clock.expired():
        node.update(status="limit", message=clock.message("the options were not all listed"))
    return node, listed


def _option(
    ruleset: Ruleset,
    parent: Position,
    player: Player,
    listed: _Listed,
    pictures: bool,
    clock: _Clock,
) -> dict[str, Any]:
    """An option before it is solved. Its picture shows what the move took, in the mover's
    colour, on the position it was taken from (the ruleset's ``move_marks`` are keys of that
    picture: a token taken from a heap is no longer in the heap after the move); a move
    that takes nothing the ruleset marks is drawn as the position it reaches. Past the
    deadline the option has no picture."""
    move = listed.move
    out: dict[str, Any] = {"move": move.text, "position": format_position(ruleset, move.result)}
    if move.points:
        out["points"] = dump_number(move.points)
    if pictures and not clock.expired():
        try:
            out["svg"] = _marked_picture(ruleset, parent, player, listed)
        except PictureTooBig:
            out["svg"] = picture(ruleset, move.result)
    return out


def _marked_picture(ruleset: Ruleset, parent: Position, player: Player, listed: _Listed) -> str:
    """The start with ``listed``'s marks (in a sum: its summand marked, the others plain), or
    the position reached when the ruleset marks nothing for this move."""
    marker = getattr(ruleset, "move_marks", None)
    start = parent.parts[listed.part] if listed.part is not None else parent
    marks = None
    if marker is not None:
        try:
            marks = dict.fromkeys(islice(marker(start, listed.part_move), MAX_MARKS + 1), player)
        except Exception:  # a courtesy: the plain picture of the option is still right
            marks = None
    if not marks or len(marks) > MAX_MARKS:
        return draw_position(ruleset, listed.move.result)
    if listed.part is None:
        return draw_position(ruleset, parent, marks)
    from cgframework.display.pictures import check_size, side_by_side

    check_size(len(parent.parts), "summands", 64)
    return side_by_side(
        [
            draw_position(ruleset, part, marks if i == listed.part else None)
            for i, part in enumerate(parent.parts)
        ]
    )


class _Clock:
    """One node's limits: ``max_nodes`` per solve, ``timeout`` seconds for all of its work
    (the options listed, their pictures, the values, the marks)."""

    def __init__(self, max_nodes: int | None, timeout: float | None) -> None:
        self.max_nodes = max_nodes
        self.timeout = timeout
        self.deadline = None if timeout is None else time.monotonic() + timeout

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def within(self, seconds: float) -> float:
        """The time (``time.monotonic``) ``seconds`` from now, or the deadline if sooner."""
        stop = time.monotonic() + seconds
        return stop if self.deadline is None else min(stop, self.deadline)

    def message(self, what: str) -> str:
        return f"{what} within {self.timeout:g} s (--timeout)"

    def solve(self, ruleset: Ruleset, position: Position, using: Any = solve, **kwargs: Any) -> Any:
        timeout = None
        if self.deadline is not None:
            timeout = max(0.0, self.deadline - time.monotonic())
            if not timeout:
                raise SearchStopped(f"search stopped after {self.timeout:g} s (--timeout)")
        try:
            return using(ruleset, position, max_nodes=self.max_nodes, timeout=timeout, **kwargs)
        except SearchStopped as exc:
            if self.expired():
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
    clock = _Clock(max_nodes, timeout)
    rs, pos = resolve(ruleset, position)
    out, listed = _outline(rs, pos, first, pictures, clock)
    out.update(value=None, outcome=None)
    value = None
    try:
        solution = clock.solve(rs, pos, first=first)
        value = solution.value
        out.update(_value_fields(solution))
        out["method"] = solution.method
    except Exception as exc:  # the options may still be within reach: go on
        out.update(_failure(exc))
    if isinstance(value, CanonicalGame) and not clock.expired() and not _large(value):
        out.update(_temperature(value, pictures))
    sides: dict[str, list[Any]] = {}
    for player, name in ((Player.LEFT, "left"), (Player.RIGHT, "right")):
        values: list[Any] = []
        for entry, found in zip(out[name], listed[name], strict=True):
            move = found.move
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
        _mark(out["left"], sides["left"], value, Player.LEFT, clock)
        _mark(out["right"], sides["right"], value, Player.RIGHT, clock)
    parts = components(rs, pos) if not clock.expired() else [pos]
    if len(parts) > 1 or isinstance(pos, Sum):
        for entry, part in zip(out["components"], parts, strict=False):
            try:
                entry.update(_value_fields(clock.solve(rs, part, first=first)))
            except Exception as exc:
                entry.update(value=None, **_failure(exc))
    if clock.expired() and out["status"] == "ok":
        out.update(status="limit", message=clock.message("the node was not all worked out"))
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
    entries: list[dict[str, Any]],
    values: list[Any],
    g: CanonicalGame,
    player: Player,
    clock: _Clock,
) -> None:
    """Set each option's ``dominated`` and ``reversible`` (see the module docstring); an
    option without a canonical value is marked neither. A mark not worked out (past the
    deadline, or an option's value with more than ``MARK_OPTIONS`` options) is ``None``."""
    better = (lambda a, b: a >= b) if player is Player.LEFT else (lambda a, b: a <= b)
    for i, (entry, v) in enumerate(zip(entries, values, strict=True)):
        if not isinstance(v, CanonicalGame):
            entry.update(dominated=False, reversible=False)
            continue
        if clock.expired():
            entry.update(dominated=None, reversible=None)
            continue
        dominated = False
        for j, w in enumerate(values):
            if j == i or not isinstance(w, CanonicalGame):
                continue
            if better(w, v) and (not better(v, w) or j < i):  # strictly better, or equal earlier
                dominated = True
                break
        entry.update(dominated=dominated, reversible=_reversible(v, g, player))


def _reversible(v: CanonicalGame, g: CanonicalGame, player: Player) -> bool | None:
    """Whether ``player``'s option ``v`` of ``g`` reverses: ``v`` has an answer ``<= g``
    (Left's option; Right's alike turned round). ``None`` when ``v`` has too many answers
    to look at one by one."""
    if v.is_nimber and g.is_nimber:  # *k's answers are *0..*(k-1); *j <= *n iff j = n
        return g.nim_value < v.nim_value  # type: ignore[operator]
    answers = v.right if player is Player.LEFT else v.left
    if not _at_most(answers, MARK_OPTIONS):
        return None
    if player is Player.LEFT:
        return any(r <= g for r in answers)
    return any(lo >= g for lo in answers)


def _at_most(options: Sequence[Any], count: int) -> bool:
    try:
        return len(options) <= count
    except OverflowError:  # a nimber's options past sys.maxsize
        return False


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
