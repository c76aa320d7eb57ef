"""CGSuite notation for loopy games: the parser (``{A,B|C}``, ``pass``, labels ``a:{0|{a|*}}``,
the named games, numbers and nimbers, ``+``/``-``, ``onside(G)``, ``offside(G)``, ``A & B``) and
the printer: stoppers simplified, or by name (on, off, over, under, upon, 0, *, 1, -1) when
equal to one; short subpositions equal to numbers or numbers plus nimbers as CGSuite writes them
(``19/4``, ``-3*``, read back by the parser); a stopper-sided game as ``onside & offside``
(``dud`` for ``on & off``, the stopper alone when the sides are equal); other non-stoppers as
their graph. See :mod:`cgframework.values.loopy.graphs` for the games themselves.

It stands above the graphs and their sides, which print through it
(:mod:`cgframework.values.hooks`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction

from cgframework.values.canonical import CanonicalGame, game, nimber, number, uptimal
from cgframework.values.hooks import provide
from cgframework.values.loopy import sides as loopy_sides
from cgframework.values.loopy.graphs import (
    MAX_NODES,
    MAX_SIMPLIFY,
    LoopyGame,
    LoopySyntaxError,
    equal,
    is_stopper,
    minimized,
    simplify_stopper,
)
from cgframework.values.loopy.sides import (
    OFF,
    ON,
    LoopyValue,
    NotStopperSided,
    SidedGame,
    SidesLimit,
    onside_offside,
    sided,
)

NAMED = {
    "on": "{pass|}",
    "off": "{|pass}",
    "over": "{0|pass}",
    "under": "{pass|0}",
    "upon": "{pass|*}",
    "dud": "{pass|pass}",
}
SIDE_FUNCTIONS = ("onside", "offside")
"""Functions of the notation: ``onside(G)``, ``offside(G)`` (:mod:`.sides`)."""
_TOKEN = re.compile(r"\s*(?:([0-9]+)|([A-Za-z_][A-Za-z_0-9]*)|(.))")


def _tokens(text: str) -> list[str]:
    out = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:  # only trailing blanks left
            break
        out.append(match.group(0).strip())
        pos = match.end()
    return out


class _Parser:
    """Recursive descent over a token list; nesting depth is bounded (``MAX_DEPTH``)."""

    MAX_DEPTH = 200

    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.i = 0
        self.depth = 0

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise LoopySyntaxError(f"expected {expected or 'more'} at token {self.i + 1}")
        self.i += 1
        return token

    def parse(self) -> LoopyGame:
        game = self.sided_expression({})
        if self.peek() is not None:
            raise LoopySyntaxError(f"unexpected {self.peek()!r} at token {self.i + 1}")
        return game

    def sided_expression(self, scope: dict[str, _Open]) -> LoopyGame:
        """``A`` or ``A & B``: the value with onside A^+ and offside B^- (:mod:`.sides`)."""
        game = self.expression(scope)
        if self.peek() == "&":
            self.take()
            game = sided(game, self.expression(scope))
        return game

    def expression(self, scope: dict[str, _Open]) -> LoopyGame:
        total = self.term(scope)
        while self.peek() in ("+", "-"):
            sign = self.take()
            other = self.term(scope)
            total = total + other if sign == "+" else total - other
            if isinstance(total, LoopyGame) and total.size <= MAX_SIMPLIFY and is_stopper(total):
                total = simplify_stopper(total)  # keeps the next sum's product small
        return total

    def term(self, scope: dict[str, _Open]) -> LoopyGame:
        token = self.peek()
        if token == "-":
            self.take()
            return -self.term(scope)
        if token == "(":
            self.take()
            game = self.sided_expression(scope)
            self.take(")")
            return game
        option = self.option(scope)
        if isinstance(option, _Open):
            raise LoopySyntaxError(f"{token!r} refers to an enclosing game: only as an option")
        return option

    def option(self, scope: dict[str, _Open]) -> LoopyGame | _Open:
        """A game, or a reference (``pass`` or a label) to an enclosing game."""
        token = self.peek()
        if token is None:
            raise LoopySyntaxError("unexpected end of expression")
        if token == "{":
            return self.braced(scope, None)
        if token in ("-", "("):
            return self.term(scope)
        if token == "*":
            self.take()
            after = self.peek() or ""
            n = int(self.take()) if after.isascii() and after.isdigit() else 1
            return nimber_graph(n)
        if token.isascii() and token.isdigit():
            self.take()
            return self.number_after(int(token))
        if token[0].isalpha() or token[0] == "_":
            self.take()
            if token in SIDE_FUNCTIONS and self.peek() == "(":
                return self.side_call(token, scope)
            if self.peek() == ":":
                self.take()
                return self.braced(scope, token)
            if token == "pass":
                if "pass" not in scope:
                    raise LoopySyntaxError("'pass' outside braces")
                return scope["pass"]
            if token in scope:
                return scope[token]
            if token in NAMED:
                return parse_loopy(NAMED[token])
            raise LoopySyntaxError(f"unknown name {token!r}")
        raise LoopySyntaxError(f"unexpected {token!r} at token {self.i + 1}")

    def number_after(self, whole: int) -> LoopyGame:
        """An integer, a dyadic ``a/b``, either followed by ``*`` or ``*n`` (plus a nimber)."""
        nim = None
        after = self.tokens[self.i + 1] if self.i + 1 < len(self.tokens) else ""
        if self.peek() == "/" and after.isascii() and after.isdigit():
            self.take()
            denominator = int(self.take())
            if denominator == 0:  # (was "Fraction(1, 0)")
                raise LoopySyntaxError(f"{whole}/0: division by zero")
            if denominator & (denominator - 1) or denominator > MAX_NODES:
                raise LoopySyntaxError(f"{whole}/{denominator}: not a dyadic number")
            value = Fraction(whole, denominator)
        else:
            value = Fraction(whole)
        if self.peek() == "*":
            self.take()
            after = self.peek() or ""
            nim = int(self.take()) if after.isascii() and after.isdigit() else 1
        if value.denominator == 1 and not nim:
            return integer_graph(whole)
        if abs(value) > MAX_NODES:
            raise LoopySyntaxError(f"number {value} too large for a loopy game graph")
        if (nim or 0) > MAX_NIMBER:
            raise LoopySyntaxError(f"nimber *{nim} too large (at most *{MAX_NIMBER})")

        return short_graph(number(value) + nimber(nim or 0))

    def side_call(self, name: str, scope: dict[str, _Open]) -> LoopyGame:
        """``onside(G)`` or ``offside(G)``: the side as a simplified stopper."""
        self.take("(")
        argument = self.sided_expression(scope)
        self.take(")")
        return getattr(loopy_sides, name)(argument)

    def braced(self, scope: dict[str, _Open], label: str | None) -> LoopyGame | _Open:
        self.depth += 1
        if self.depth > self.MAX_DEPTH:
            raise LoopySyntaxError(f"braces nested deeper than {self.MAX_DEPTH}")
        self.take("{")
        me = _Open()
        inner = {**scope, "pass": me}
        if label is not None:
            inner[label] = me
        sides: list[list[LoopyGame | _Open]] = [[], []]
        side = 0
        while True:
            token = self.peek()
            if token == "|":
                if side == 1:
                    raise LoopySyntaxError("more than one '|' in braces (write {a||b} as nested)")
                self.take()
                side = 1
                continue
            if token == "}":
                self.take()
                break
            if token == ",":
                self.take()
                continue
            option = self.option(inner)
            if not isinstance(option, (LoopyGame, _Open)):
                raise LoopySyntaxError("a value written A & B has no game graph: not an option")
            if isinstance(option, LoopyGame) and self.peek() in ("+", "-"):
                while self.peek() in ("+", "-"):
                    sign = self.take()
                    other = self.term(inner)
                    option = option + other if sign == "+" else option - other
                    if not isinstance(option, LoopyGame):
                        raise LoopySyntaxError(
                            "a value written A & B has no game graph: not an option"
                        )
            sides[side].append(option)
        if side == 0:
            raise LoopySyntaxError("braces without '|'")
        self.depth -= 1
        me.left, me.right = sides
        return me.close() if not me.referenced_from_outside(scope) else me


class _Open:
    """A braced game being built; its options may refer to it or to enclosing games."""

    def __init__(self) -> None:
        self.left: list[LoopyGame | _Open] = []
        self.right: list[LoopyGame | _Open] = []

    def referenced_from_outside(self, scope: dict[str, _Open]) -> bool:
        """Does this game refer (through its open options) to a game of ``scope``?"""
        enclosing = {id(o) for o in scope.values()}
        seen: set[int] = set()
        stack: list[_Open] = [self]
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            for option in (*node.left, *node.right):
                if isinstance(option, _Open):
                    if id(option) in enclosing:
                        return True
                    stack.append(option)
        return False

    def close(self) -> LoopyGame:
        """The graph of this game and of every open game it reaches."""
        left: list[list[int]] = []
        right: list[list[int]] = []
        number: dict[int, int] = {}
        stack: list[_Open] = []

        def node_of(option: LoopyGame | _Open) -> int:
            if isinstance(option, _Open):
                if id(option) not in number:
                    number[id(option)] = len(left)
                    left.append([])
                    right.append([])
                    stack.append(option)
                return number[id(option)]
            base = len(left)
            for v in range(option.size):
                left.append([base + w for w in option.left[v]])
                right.append([base + w for w in option.right[v]])
            return base + option.start

        start = node_of(self)
        while stack:
            node = stack.pop()
            v = number[id(node)]
            left[v] = [node_of(o) for o in node.left]
            right[v] = [node_of(o) for o in node.right]
        game = LoopyGame.build(left, right, start)
        if game.size > MAX_NODES:
            raise LoopySyntaxError(f"the game has more than {MAX_NODES} positions")
        return game


def integer_graph(n: int) -> LoopyGame:
    """n = {n-1|} (n > 0), -n its negative, 0 = {|}."""
    if n > MAX_NODES:
        raise LoopySyntaxError(f"integer {n} too large for a loopy game graph")
    left = [[v - 1] if v else [] for v in range(n + 1)]
    return LoopyGame.build(left, [[] for _ in range(n + 1)], n)


def short_graph(value: CanonicalGame) -> LoopyGame:
    """The graph of a short game's canonical form (iterative, one node per subposition)."""
    number: dict[CanonicalGame, int] = {value: 0}
    order = [value]
    for g in order:  # (grows while read)
        for option in (*g.left_options, *g.right_options):
            if option not in number:
                number[option] = len(order)
                order.append(option)
    left = [[number[o] for o in g.left_options] for g in order]
    right = [[number[o] for o in g.right_options] for g in order]
    return LoopyGame.build(left, right, 0)


MAX_NIMBER = 128
"""Largest nimber written in a loopy game: *n has n^2/2 moves, and the printer's and the
comparison's work grows with moves times positions (``*300`` took minutes)."""


def nimber_graph(n: int) -> LoopyGame:
    """*n = {0, *, ..., *(n-1) | 0, *, ..., *(n-1)}."""
    if n > MAX_NIMBER:
        raise LoopySyntaxError(f"nimber *{n} too large (at most *{MAX_NIMBER})")
    options = [list(range(v)) for v in range(n + 1)]
    return LoopyGame.build(options, [list(o) for o in options], n)


def parse_loopy(text: str) -> LoopyGame:
    """A loopy game from CGSuite notation (module docstring)."""
    return _Parser(text).parse()


def format_loopy(g: LoopyGame) -> str:
    """CGSuite notation: a named game when the graph is one (``on``, ``over``...), else
    braces, with ``pass`` for a game's own node and labels for other repeated nodes; numbers
    and nimbers (plus numbers) as such."""
    shorts = _short_values(g)
    short = shorts.get(g.start)
    if short is not None and _number_plus_nimber(short):  # *128 + *64 is *192
        written = str(short)
        if _NUMBER_TEXT.fullmatch(written):
            return written
    stopper = is_stopper(g)
    if g.start not in shorts:  # a cycle is reachable: it may be a named loopy game
        for name, text in {"0": "0", "*": "*", "1": "1", "-1": "-1", **NAMED}.items():
            named = _named_graph(text)
            if g == named or (stopper and is_stopper(named) and equal(g, named)):
                return name
    if not stopper:
        sided = _sides_text(g)
        if sided is not None:
            return sided
    g = simplify_stopper(g) if stopper and g.size <= MAX_SIMPLIFY else minimized(g)
    names = iter(_label_name(i) for i in range(g.size))
    labels: dict[int, str] = {}
    budget = [MAX_PRINT_CHARS]
    try:
        known = {**_named_nodes(g), **_integer_nodes(g)}
        return _write(g, g.start, labels, names, [], known, budget)
    except _TooLarge:
        return f"<loopy game of {g.size} positions, too large to write out>"


MAX_PRINT_SIDES = 40
"""Largest non-stopper (after merging equal positions) printed by its sides."""
PRINT_SIDES_WORK = 200_000
"""Work limit (comparison states) of the sides search when printing; past it, the graph."""


def _sides_text(g: LoopyGame) -> str | None:
    """A stopper-sided game as CGSuite writes it: ``onside & offside``, ``dud`` for ``on &
    off``, the stopper alone when both sides are equal; None when the sides are not found
    (the caller writes the graph)."""

    if minimized(g).size > MAX_PRINT_SIDES:
        return None
    try:
        plus, minus = onside_offside(g, work=PRINT_SIDES_WORK)
    except (NotStopperSided, SidesLimit):
        return None
    return sides_text(plus, minus)


class _TooLarge(Exception):
    pass


MAX_PRINT_CHARS = 20_000
"""A graph written as nested braces repeats shared positions: past this length, a summary."""


_NAMED_GRAPHS: dict[str, LoopyGame] = {}


def _named_graph(text: str) -> LoopyGame:
    if text not in _NAMED_GRAPHS:
        _NAMED_GRAPHS[text] = parse_loopy(text)
    return _NAMED_GRAPHS[text]


def _label_name(i: int) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[i % 26] + ("" if i < 26 else str(i // 26))


MAX_PRINT_DEPTH = 200


_NUMBER_TEXT = re.compile(r"-?[0-9]+(/[0-9]+)?(\*[0-9]*)?|\*[0-9]*")
"""A short value the notation reads back: a number, a nimber, or a number plus a nimber."""


def _short_values(g: LoopyGame) -> dict[int, CanonicalGame | None]:
    """Canonical forms of the nodes from which no cycle is reachable (short games), found
    leaves first; None for a node (and the nodes above it) with too many distinct option
    values for :func:`game` (see :data:`MAX_CANONICAL_OPTIONS`)."""

    pending = [len(g.left[v]) + len(g.right[v]) for v in range(g.size)]
    pred: list[list[int]] = [[] for _ in range(g.size)]
    for v in range(g.size):
        for w in (*g.left[v], *g.right[v]):
            pred[w].append(v)
    ready = [v for v in range(g.size) if not pending[v]]
    values: dict[int, CanonicalGame | None] = {}
    while ready:
        v = ready.pop()
        lefts = list(dict.fromkeys(values[w] for w in g.left[v]))
        rights = list(dict.fromkeys(values[w] for w in g.right[v]))
        value = _number_plus_nimber_of(lefts, rights)
        if value is None and None not in lefts and None not in rights:
            if len(lefts) + len(rights) <= MAX_CANONICAL_OPTIONS:
                value = game(lefts, rights)
        values[v] = value
        for p in pred[v]:
            pending[p] -= 1
            if not pending[p]:
                ready.append(p)
    return values


def short_value(g: LoopyGame) -> CanonicalGame | None:
    """The canonical form of a game from whose start no cycle is reachable (a short game
    drawn as a graph); None for a loopy one (or one with too many distinct option values:
    :data:`MAX_CANONICAL_OPTIONS`)."""
    return _short_values(g).get(g.start)


def _integer_nodes(g: LoopyGame) -> dict[int, str]:
    """Nodes that are short games equal to a number, a nimber or a number plus a nimber,
    written as such as CGSuite does (``19/4`` for ``{{4|5}|5}``, ``-3*`` for ``{-3|-3}``)."""
    text: dict[int, str] = {}
    for v, value in _short_values(g).items():
        if value is not None and _number_plus_nimber(value):
            written = str(value)
            if _NUMBER_TEXT.fullmatch(written):
                text[v] = written
    return text


MAX_CANONICAL_OPTIONS = 64
"""A node with more distinct option values is not put in canonical form by the printer
(dominance checks cost the cube of the options: ``*128 + *8`` took 30 s); it and the nodes
above it are written as braces."""


def _named_nodes(g: LoopyGame) -> dict[int, str]:
    """Nodes that are ``on``, ``off``, ``over``, ``under``, ``upon`` or ``dud`` as graphs (one
    node passing to itself; ``{on|off}`` is written so, not ``{{pass|}|{|pass}}``)."""
    ends = {v for v in range(g.size) if not g.left[v] and not g.right[v]}  # 0
    stars = {
        v
        for v in range(g.size)
        if len(g.left[v]) == 1 == len(g.right[v])
        and g.left[v] == g.right[v]
        and g.left[v][0] in ends
    }
    names = {}
    for v in range(g.size):
        left, right = g.left[v], g.right[v]
        own_left, own_right = left == (v,), right == (v,)
        if own_left and (own_right or not right):
            names[v] = "dud" if own_right else "on"
        elif own_right and not left:
            names[v] = "off"
        elif own_right and len(left) == 1 and left[0] in ends:
            names[v] = "over"
        elif own_left and len(right) == 1 and right[0] in ends:
            names[v] = "under"
        elif own_left and len(right) == 1 and right[0] in stars:
            names[v] = "upon"
    return names


def _number_plus_nimber_of(
    lefts: list[CanonicalGame | None], rights: list[CanonicalGame | None]
) -> CanonicalGame | None:
    """x + *m when both sides are the same options x + *k (k in a set S, x one number):
    ``{x + *k | x + *k}`` = x + *mex(S) (Sprague-Grundy), read off without :func:`game`,
    whose dominance checks cost k^3 on such a node (``*300`` took minutes to print, and
    ``*128 + *64``, whose nodes have options *k past their mex, was not recognised)."""
    if not lefts or None in lefts or set(lefts) != set(rights):
        return None
    x = None
    stars = set()
    for o in lefts:
        up = o.uptimal  # type: ignore[union-attr]
        if up is None or up[1] != 0 or (x is not None and up[0] != x):
            return None
        x = up[0]
        stars.add(up[2])
    mex = 0
    while mex in stars:
        mex += 1

    return uptimal(x, 0, mex)


def _number_plus_nimber(value: CanonicalGame) -> bool:
    """Is the canonical form x or x + *k (x a number)? Read off its uptimal payload (every
    canonical form equal to x + n.^ + *m is interned as that payload)."""
    up = value.uptimal
    return up is not None and up[1] == 0


def _write(
    g: LoopyGame,
    v: int,
    labels: dict[int, str],
    names: Iterable[str],
    path: list[int],
    known: dict[int, str],
    budget: list[int],
) -> str:
    """The text of node ``v``; ``path`` holds the nodes being written around it. A node
    reached again on the path is ``pass`` (the innermost) or a label given to it; ``known``
    nodes (integers, *) are written as such."""
    if v in known:
        return known[v]
    if v in path:
        if path[-1] == v:
            return "pass"
        if v not in labels:
            labels[v] = next(iter(names))
        return labels[v]
    budget[0] -= 1
    if len(path) > MAX_PRINT_DEPTH or budget[0] < 0:
        raise _TooLarge
    path.append(v)
    lefts = ",".join(_write(g, w, labels, names, path, known, budget) for w in g.left[v])
    rights = ",".join(_write(g, w, labels, names, path, known, budget) for w in g.right[v])
    path.pop()
    body = "{" + lefts + "|" + rights + "}"
    return f"{labels[v]}:{body}" if v in labels else body


def sides_text(plus: LoopyGame, minus: LoopyGame) -> str:
    """CGSuite's way: ``dud`` for on & off, the stopper alone when both sides are equal,
    else ``onside & offside``."""
    if equal(plus, minus):
        return format_loopy(plus)
    if plus == ON and minus == OFF:
        return "dud"
    return f"{format_loopy(plus)} & {format_loopy(minus)}"


def describe(value: LoopyValue) -> dict[str, object]:
    """Facts for ``cgf calc --json``: stopper or not, size, and the sides when the printer
    finds them (same limits)."""
    if isinstance(value, SidedGame):
        return {"stopper": False, "onside": str(value.plus), "offside": str(value.minus)}
    facts: dict[str, object] = {"stopper": is_stopper(value), "positions": value.size}
    if not facts["stopper"] and minimized(value).size <= MAX_PRINT_SIDES:
        try:
            plus, minus = onside_offside(value, work=PRINT_SIDES_WORK)
        except (NotStopperSided, SidesLimit):
            return facts
        facts.update(onside=str(plus), offside=str(minus))
    return facts


provide("loopy.format", format_loopy)
provide("sided.format", lambda value: sides_text(value.plus, value.minus))
