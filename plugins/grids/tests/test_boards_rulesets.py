"""Toppling Dominoes, Childish Hackenbush, Partizan Arc-Kayles and Ski-Jumps: values from the
sources, closed forms and the rulesets' components and keys against a plain brute force
(options only: no components, keys or solvers), round trips and pictures.

No peer ships these four: cgt-py 0.11 (``dir(cgt_py)``) has none of them and pycgt's rulesets
are clobber, cram, domineering, graphs (Snort/Col), nim and toads_and_frogs.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import Player, get_registry, parse_position, solve
from cgframework.values import ZERO, game, nimber, number, parse_value


def plain_value(ruleset, position, memo=None):
    """The canonical value from the options alone (small positions: plain recursion)."""
    memo = {} if memo is None else memo
    found = memo.get(position)
    if found is None:
        sides = [
            [plain_value(ruleset, m.result, memo) for m in ruleset.options(position, p)]
            for p in (Player.LEFT, Player.RIGHT)
        ]
        found = memo[position] = game(sides[0], sides[1])
    return found


def rules(name):
    return get_registry().ruleset(name)


def check_against_plain(name, text):
    r = rules(name)
    position = parse_position(r, text)
    assert solve(r, text).value is plain_value(r, position), text
    assert r.format(r.parse(r.format(position))) == r.format(position)


# ---- Toppling Dominoes ----------------------------------------------------------------------
def test_toppling_dominoes_rows_of_one_colour():
    """A row of n Left dominoes is n, of n Right's -n, of n green ones *n (the proof is in
    ``dominoes.closed_form``: each option is a shorter row of the same colour)."""
    from cgframework_grids.dominoes import closed_form

    for n in range(6):
        assert solve("toppling-dominoes", "L" * n or "empty").value is number(n)
        assert solve("toppling-dominoes", "R" * n or "empty").value is number(-n)
        assert solve("toppling-dominoes", "G" * n or "empty").value is nimber(n)
        assert closed_form("G" * n) == (("nim", n) if n else ("integer", 0))


def test_toppling_dominoes_small_rows_by_hand():
    """LR = {0, -1 | 0, 1} = * and LRL = {0, * | 1} = 1/2 (the * reverses through 0)."""
    assert solve("toppling-dominoes", "LR").value is parse_value("*")
    assert solve("toppling-dominoes", "LRL").value is parse_value("1/2")
    assert solve("toppling-dominoes", "lre").value is solve("toppling-dominoes", "LRG").value


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet="LRG", min_size=1, max_size=7))
def test_toppling_dominoes_against_the_plain_search(cells):
    check_against_plain("toppling-dominoes", cells)
    r = rules("toppling-dominoes")
    value = solve(r, cells).value
    assert solve(r, cells[::-1]).value is value  # the mirror image, one key
    assert solve(r, cells.translate(str.maketrans("LR", "RL"))).value is -value


# ---- Childish Hackenbush --------------------------------------------------------------------
def test_childish_stalks_are_played_from_the_top():
    """Only a stalk's top edge can go without something falling (Winning Ways, ch. 2)."""
    r = rules("childish-hackenbush")
    for text in ("BRRB", "GBG", "RRB"):
        moves = [m.text for p in Player for m in r.options(r.parse(text), p)]
        assert set(moves) == {str(len(text))}
        value = ZERO
        for c in text:  # {v |}, {| v} or {v | v} from the bottom up
            value = game([value] if c in "BG" else [], [value] if c in "RG" else [])
        assert solve(r, text).value is value


def test_childish_edges_on_the_ground_are_plain_hackenbush():
    """Edges each joining the ground to its own vertex: nothing can ever fall, so Childish
    Hackenbush is Hackenbush (here B + B + R + G = 1 + *)."""
    text = "0-1:B,0-2:B,0-3:R,0-4:G"
    assert solve("childish-hackenbush", text).value is solve("hackenbush", text).value
    assert solve("childish-hackenbush", text).value is parse_value("1*")


@st.composite
def pictures(draw):
    n = draw(st.integers(1, 5))
    edges = []
    for v in range(1, n + 1):  # a tree edge up to each vertex, then a few extra edges
        edges.append((draw(st.integers(0, v - 1)), v, draw(st.sampled_from("BRG"))))
    for _ in range(draw(st.integers(0, 2))):
        u, v = draw(st.integers(0, n)), draw(st.integers(0, n))
        edges.append((u, v, draw(st.sampled_from("BRG"))))
    return ",".join(f"{u}-{v}:{c}" for u, v, c in edges)


@settings(max_examples=40, deadline=None)
@given(pictures())
def test_childish_hackenbush_against_the_plain_search(text):
    check_against_plain("childish-hackenbush", text)


# ---- Partizan Arc-Kayles --------------------------------------------------------------------
@st.composite
def coloured_graphs(draw, colours="LRG", most=7):
    n = draw(st.integers(2, most))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    chosen = draw(
        st.lists(st.sampled_from(pairs), min_size=1, max_size=min(9, len(pairs)), unique=True)
    )
    return [(u, v, draw(st.sampled_from(colours))) for u, v in chosen]


def arc_text(edges):
    return ",".join(f"{u}-{v}:{c}" for u, v, c in edges)


@settings(max_examples=40, deadline=None)
@given(coloured_graphs())
def test_partizan_arc_kayles_against_the_plain_search(edges):
    check_against_plain("partizan-arc-kayles", arc_text(edges))


@settings(max_examples=25, deadline=None)
@given(coloured_graphs(colours="G", most=8))
def test_all_green_is_the_wak_plugins_arc_kayles(edges):
    """Every edge green: the impartial Arc-Kayles of the ``wak`` plugin (Schaefer 1978)."""
    ours = solve("partizan-arc-kayles", arc_text(edges)).value
    n = 1 + max(max(u, v) for u, v, _ in edges)
    theirs = solve("arc-kayles", ",".join(f"{u}-{v}" for u, v, _ in edges) + f";n={n}")
    assert ours is nimber(theirs.grundy)


@settings(max_examples=25, deadline=None)
@given(coloured_graphs(), st.randoms(use_true_random=False))
def test_partizan_arc_kayles_keys_follow_isomorphism(edges, rnd):
    """A relabelled copy has the same key; a key is never shared by different values."""
    r = rules("partizan-arc-kayles")
    names = list(range(20))
    rnd.shuffle(names)
    copy = [(names[u], names[v], c) for u, v, c in edges]
    a, b = r.parse(arc_text(edges)), r.parse(arc_text(copy))
    assert r.canonical_key(a) == r.canonical_key(b)
    assert solve(r, arc_text(copy)).value is solve(r, arc_text(edges)).value


def test_partizan_arc_kayles_graph_syntax():
    r = rules("partizan-arc-kayles")
    assert r.format(r.parse("path:4;colours=LRG")) == "0-1:L,1-2:R,2-3:G"
    assert r.format(r.parse("cycle:4")) == "0-1:G,0-3:G,1-2:G,2-3:G"
    assert r.format(r.parse("0-1:l,1-2:r,2-3:e")) == "0-1:L,1-2:R,2-3:G"
    # a green triangle and a blue edge: *1 + 1 (Arc-Kayles K3 is *1)
    assert solve(r, "0-1:G,1-2:G,0-2:G,5-6:L").value is parse_value("1*")
    # subdivision keys: an all-green 4-cycle and an all-green 4-cycle only
    assert r.canonical_key(r.parse("cycle:4")) != r.canonical_key(r.parse("path:5"))


# ---- Ski-Jumps ------------------------------------------------------------------------------
def test_ski_jumps_winning_ways_values():
    """Winning Ways, vol. 1, ch. 1, "Ski-Jumps for Beginners", as reproduced in cgt-tools'
    ``ski_jumps`` tests (``winning_ways_examples``)."""
    for text, expected in [
        ("...L....|..R.....|........", "2"),
        ("........|...l....|.......R|........|......L.", "-1"),
        (".L...|.R...|.....", "5/2"),
        ("...R.|...L.|.....", "-5/2"),
        ("L....|....R|.....", "1/2"),
    ]:
        assert solve("ski-jumps", text).value is parse_value(expected), text


@st.composite
def slopes(draw):
    height, width = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    cells = draw(
        st.lists(st.sampled_from("....LRlr"), min_size=height * width, max_size=height * width)
    )
    return "|".join("".join(cells[y * width : (y + 1) * width]) for y in range(height))


@settings(max_examples=40, deadline=None)
@given(slopes())
def test_ski_jumps_against_the_plain_search(text):
    from cgframework_grids.skijumps import no_jump_value

    check_against_plain("ski-jumps", text)
    r = rules("ski-jumps")
    value = solve(r, text).value
    assert solve(r, r.format(r.negative(r.parse(text)))).value is -value
    closed = no_jump_value(r.parse(text).rows)
    if closed is not None:
        assert value is number(closed)


def test_ski_jumps_moves():
    """Slides stop at the first skier and may leave the slope; a jump needs an opponent
    right below and an empty square of the slope below that."""
    r = rules("ski-jumps")

    def moves(text, player):
        return sorted(r.format(m.result) for m in r.options(r.parse(text), player))

    assert moves("L.R|...", Player.LEFT) == [".LR|..."]
    left = moves("L..|R..|...", Player.LEFT)
    assert "...|r..|L.." in left and ".L.|R..|..." in left and "...|R..|..." in left
    assert all("r" not in m for m in moves("L..|R..|L..", Player.LEFT))  # landing taken
    assert moves("L..|R..", Player.LEFT) == ["...|R..", "..L|R..", ".L.|R.."]  # no jump off
    assert moves("..L|..R", Player.RIGHT) == ["..L|...", "..L|.R.", "..L|R.."]
    assert moves("l..|R..", Player.LEFT) == ["...|R..", "..l|R..", ".l.|R.."]  # a slipper slides


def winning_ways_moves(rows: tuple[str, ...], player) -> set[tuple[str, ...]]:
    """Ski-Jumps' moves as Winning Ways states them, written here on their own: slide one of
    your skiers east (Left) or west (Right) over empty squares, or off the slope's end; or
    jump one of your jumpers over an opponent's skier immediately below it, onto the square
    immediately below that, which must be on the slope and vacant; the skier jumped over
    becomes a slipper."""
    mine, theirs, step = ("Ll", "Rr", 1) if player is Player.LEFT else ("Rr", "Ll", -1)
    grid = [list(row) for row in rows]
    out = set()
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch not in mine:
                continue
            to = x + step
            while True:
                after = [r[:] for r in grid]
                after[y][x] = "."
                if 0 <= to < len(row):
                    if row[to] != ".":
                        break
                    after[y][to] = ch
                out.add(tuple("".join(r) for r in after))
                if not 0 <= to < len(row):
                    break
                to += step
            landing = y + 2
            if ch.isupper() and landing < len(rows) and rows[y + 1][x] in theirs:
                if rows[landing][x] == ".":
                    after = [r[:] for r in grid]
                    after[y][x], after[y + 1][x], after[landing][x] = (
                        ".",
                        rows[y + 1][x].lower(),
                        ch,
                    )
                    out.add(tuple("".join(r) for r in after))
    return out


@settings(max_examples=200, deadline=None)
@given(slopes(), st.sampled_from(list(Player)))
def test_ski_jumps_moves_are_winning_ways_moves(text, player):
    """Every position's moves against the rules written out above; in particular a skier
    above an opponent on the bottom row has no jump (there is no square to land on), and a
    jump never takes a skier off the slope."""
    r = rules("ski-jumps")
    position = r.parse(text)
    options = [m.result.rows for m in r.options(position, player)]
    assert set(options) == winning_ways_moves(position.rows, player)
    skiers = sum(ch != "." for row in position.rows for ch in row)
    for m in r.options(position, player):
        if m.text.endswith("v"):  # a jump
            assert sum(ch != "." for row in m.result.rows for ch in row) == skiers


def test_ski_jumps_no_jump_from_above_the_bottom_row():
    """``LLR|.R.``: Left's second jumper is above Right's skier on the bottom row but has no
    square to land on, and Right's skier at the end of the top row blocks both of Left's:
    Left has no move, and the value is -2. Were a jump off the bottom of the slope allowed,
    that jumper could leave and free the first one, and the value would be -1."""
    r = rules("ski-jumps")
    assert list(r.options(r.parse("LLR|.R."), Player.LEFT)) == []
    check_against_plain("ski-jumps", "LLR|.R.")
    assert solve("ski-jumps", "LLR|.R.").value is parse_value("-2")


def test_ski_jumps_split_off_top_rows_that_can_no_longer_jump():
    from cgframework_grids.skijumps import split

    assert split((".r..", "L...", ".R..")) == [(".r..",), ("L...", ".R..")]
    assert split(("L...", "....", "...R")) == [("L...", "....", "...R")]  # may meet later
    assert split(("R...", "....", "...R")) == [("R...",), ("...R",)]
    assert split(("R..", "l..", "...")) == [("R..", "l..", "...")]  # a slipper can be jumped
    check_against_plain("ski-jumps", "R..|l..|...")
    r = rules("ski-jumps")
    assert len(r.components(r.parse(".r..|L...|.R.."))) == 2


def test_ski_jumps_facing_skiers_block_each_other():
    """``L.R``: whoever moves first blocks the other: *, not the distance count 3 - 3 = 0."""
    from cgframework_grids.skijumps import no_jump_value

    assert no_jump_value(("L.R",)) is None
    assert solve("ski-jumps", "L.R").value is parse_value("*")


# ---- all four: syntax errors, pictures ------------------------------------------------------
def test_bad_positions_say_where():
    import pytest

    from cgframework_grids.grid import PositionError

    for name, text in [
        ("toppling-dominoes", "LRX"),
        ("ski-jumps", "L.|R"),
        ("partizan-arc-kayles", "0-1:Q"),
        ("partizan-arc-kayles", "path:3;colours=L"),
        ("childish-hackenbush", "0-1:Q"),
    ]:
        with pytest.raises(PositionError):
            rules(name).parse(text)


def test_pictures_are_standalone_svg():
    for name in ("toppling-dominoes", "childish-hackenbush", "partizan-arc-kayles", "ski-jumps"):
        r = rules(name)
        for text in r.examples():
            if " + " in text:
                continue
            svg = r.draw(r.parse(text))
            assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
            assert 'class="cell"' in svg or 'class="edge"' in svg


def test_families_generate_positions():
    registry = get_registry()
    for family in registry.families.values():
        if family.ruleset in (
            "toppling-dominoes",
            "childish-hackenbush",
            "partizan-arc-kayles",
            "ski-jumps",
        ):
            r = rules(family.ruleset)
            for n in range(6):
                parse_position(r, family.generate(n))
