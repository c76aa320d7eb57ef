"""Ruleset variants (cgframework.variants), as CGSuite defines them
(lib/core/.../game/variant/ImpartialVariantGame.cgs, DicoticVariantGame.cgs,
TwistedVariantGame.cgs): each variant checked against a brute force written here from those
definitions alone (the variant's game tree built from the base's options, valued with the
core's ``game()``), and against games the literature names (Cram is impartial Domineering).
"""

from __future__ import annotations

import itertools
import json
import pickle
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cgframework
from cgframework import Game, Player, UnknownRuleset, plugins, solve
from cgframework.game import BaseRuleset, Move, parse_position
from cgframework.plugins import get_registry
from cgframework.testing import run_cli
from cgframework.values import ZERO, game, mex, nimber, number
from cgframework.values.atomic import is_all_small
from cgframework.variants import Negated, VariantError, dicotic, impartial, twisted


def base(name):
    return get_registry().ruleset(name)


# ---- the brute force: the variant's game tree from the base's options --------------------------
def brute(kind: str, ruleset, text: str):
    """The canonical value of the ``kind`` variant of a position, straight from CGSuite's
    definitions: I(G) = {I(G^L), I(G^R) | same}; D(G) = 0 if a player has no move in G, else
    {D(G^L) | D(G^R)}; T(G) = {-T(G^L) | -T(G^R)}. No components, no keys, no solver."""

    @cache
    def value(position):
        lefts = [m.result for m in ruleset.options(position, Player.LEFT)]
        rights = [m.result for m in ruleset.options(position, Player.RIGHT)]
        if kind == "impartial":
            both = [value(p) for p in lefts + rights]
            return game(both, both)
        if kind == "dicotic":
            if not lefts or not rights:
                return ZERO
            return game([value(p) for p in lefts], [value(p) for p in rights])
        return game([-value(p) for p in lefts], [-value(p) for p in rights])  # twisted

    return value(ruleset.parse(text))


def brute_grundy(ruleset, text: str) -> int:
    """The Grundy value of the impartial variant by the mex rule over both colours' moves."""

    @cache
    def grundy(position) -> int:
        moves = [*ruleset.options(position, Player.LEFT), *ruleset.options(position, Player.RIGHT)]
        return mex({grundy(m.result) for m in moves})

    return grundy(ruleset.parse(text))


VARIANT = {"impartial": impartial, "dicotic": dicotic, "twisted": twisted}


# ---- random positions of several bundled rulesets ---------------------------------------------
def boards(letters: str, max_cells: int = 8):
    """Rows joined by |, of the given letters, at most ``max_cells`` cells."""
    return st.integers(1, 3).flatmap(
        lambda h: st.integers(1, max(1, min(4, max_cells // h))).flatmap(
            lambda w: st.lists(
                st.text(letters, min_size=w, max_size=w), min_size=h, max_size=h
            ).map("|".join)
        )
    )


POSITIONS = {
    "domineering": boards(".#"),
    "clobber": boards("xo.", 7),
    "toads-and-frogs": st.text("TF.", min_size=1, max_size=7),
    "hackenbush": st.text("BRG", min_size=1, max_size=5),
}


@pytest.mark.parametrize("kind", sorted(VARIANT))
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_variant_values_match_the_brute_force(kind, name):
    """The variant solved as ``solve`` does (components for the impartial variant, the base's
    cache keys and negatives) is the brute force's value, on random positions."""
    ruleset = base(name)
    variant = VARIANT[kind](ruleset)

    @settings(max_examples=25, deadline=None, derandomize=True)
    @given(POSITIONS[name])
    def check(text):
        expected = brute(kind, ruleset, text)
        assert solve(variant, text).value == expected, text
        assert solve(variant, text, method="generic").value == expected, text

    check()


@pytest.mark.parametrize("kind", sorted(VARIANT))
def test_the_outcome_search_agrees_with_the_values(kind):
    """``--outcome`` (a search on the sum of components with its own table) on a variant
    gives the outcome of the variant's value, Left first and Right first."""

    @settings(max_examples=15, deadline=None, derandomize=True)
    @given(POSITIONS["domineering"], POSITIONS["clobber"])
    def check(board, stones):
        for name, text in (("domineering", board), ("clobber", stones)):
            rs = VARIANT[kind](base(name))
            expected = solve(rs, text).outcome
            assert solve(rs, text, outcome_only=True).outcome == expected, (name, text)

    check()


@settings(max_examples=30, deadline=None, derandomize=True)
@given(POSITIONS["domineering"], POSITIONS["domineering"])
def test_impartial_variant_sums_nim_add(a, b):
    """I(G + H) = I(G) + I(H): a sum's Grundy value is the nim-sum of its parts' (the
    impartial variant splits into components), and the mex rule over both colours agrees."""
    rs = impartial(base("domineering"))
    ga, gb = brute_grundy(base("domineering"), a), brute_grundy(base("domineering"), b)
    assert solve(rs, a).grundy == ga
    assert solve(rs, f"{a} + {b}").grundy == ga ^ gb


# ---- the impartial variant of Domineering is Cram ---------------------------------------------
def all_boards(h: int, w: int):
    for cells in itertools.product(".#", repeat=h * w):
        yield "|".join("".join(cells[r * w : (r + 1) * w]) for r in range(h))


SHAPES = [(h, w) for h in range(1, 4) for w in range(1, 4)] + [(2, 4), (4, 2)]


def test_impartial_domineering_is_cram_on_every_small_board():
    """Cram is Domineering where either player places a domino either way (Winning Ways,
    ch. 22; Gardner): the Grundy values of the impartial variant equal Cram's (the cram
    plugin's own solvers) on every board of at most 3x3 cells, and of 2x4 and 4x2."""
    variant = impartial(base("domineering"))
    count = 0
    for h, w in SHAPES:
        for text in all_boards(h, w):
            mine = solve(variant, text)
            theirs = solve("cram", text)
            assert mine.grundy == theirs.grundy, text
            assert mine.value == theirs.value == nimber(theirs.grundy), text
            count += 1
    assert count == 2 + 4 + 8 + 4 + 16 + 64 + 8 + 64 + 512 + 256 + 256


def test_cram_strips_of_two_rows():
    """Winning Ways ch. 22: a 2 x n Cram board is worth * for odd n and 0 for even n (the
    symmetry strategy), here from the impartial variant of Domineering."""
    for n in range(1, 8):
        row = "." * n
        assert solve("impartial:domineering", f"{row}|{row}").grundy == n % 2


# ---- properties CGSuite and the literature state -----------------------------------------------
@settings(max_examples=40, deadline=None, derandomize=True)
@given(POSITIONS["domineering"])
def test_dicotic_values_are_all_small(text):
    """CGSuite: the dicotic variant's positions are all dicotic, so its values are all-small
    (infinitesimal all the way down): both stops are 0."""
    value = solve("dicotic:domineering", text).value
    assert is_all_small(value), text
    assert value.left_stop() == 0 == value.right_stop(), text


@settings(max_examples=25, deadline=None, derandomize=True)
@given(POSITIONS["clobber"])
def test_clobber_is_its_own_dicotic_variant(text):
    """In Clobber a player can move exactly when the other can (a stone next to an enemy
    stone can take it, and be taken): Clobber is dicotic, so D(Clobber) = Clobber."""
    assert solve("dicotic:clobber", text).value == solve("clobber", text).value


@settings(max_examples=25, deadline=None, derandomize=True)
@given(POSITIONS["domineering"])
def test_twisting_twice_is_the_base(text):
    """T(T(G)) = G: T(T(G))'s options are -T(-T(G')) = T(T(G')) for G's options G'."""
    assert solve("twisted:twisted:domineering", text).value == solve("domineering", text).value


@pytest.mark.parametrize("kind", sorted(VARIANT))
def test_an_impartial_ruleset_is_its_own_impartial_and_twisted_variant(kind):
    """For impartial G, I(G) = G and T(G) = G (-G = G); D(G) = G as both or neither player
    can move. Nim heaps are nimbers in every variant."""
    for heaps in ("3", "1,2", "3,5,6", "2,2"):
        assert solve(f"{kind}:nim", heaps).value == solve("nim", heaps).value


def test_the_dicotic_and_twisted_variants_do_not_split_into_components():
    """D(G + H) is not D(G) + D(H), nor T(G + H) T(G) + T(H): a board of two regions is one
    game in those variants. ``..#.|###.`` is a Right-only pair beside a Left-only pair:
    D of the whole is {0|0} = * (each player moves once, then the other has no move), while
    each region alone is 0 in the dicotic variant. ``.#.|.#.``, two Left dominoes: T(1) =
    {-T(0)|} = 1, but T(1 + 1) = {-T(1)|} = {-1|} = 0."""
    assert solve("dicotic:domineering", "..#.|###.").value == nimber(1)
    assert solve("dicotic:domineering", "..#.|###. ").value == nimber(1)
    assert solve("dicotic:domineering", "..#.|#### + ###.|###.").value == ZERO
    assert solve("twisted:domineering", ".|.").value == number(1)
    assert solve("twisted:domineering", ".#.|.#.").value == ZERO
    assert solve("twisted:domineering", ".|. + .|.").value == number(2)


def test_an_impartial_variant_move_written_alike_for_both_players():
    """Green Hackenbush edges (G) are both players' moves, written alike, leading to the same
    position: the impartial variant lists each once. A green stalk of n edges is *n."""
    rs = impartial(base("hackenbush"))
    assert [m.text for m in rs.options(rs.parse("GGG"), Player.LEFT)] == ["1", "2", "3"]
    assert solve(rs, "GGG").grundy == 3
    assert solve(rs, "BBR").grundy == 3  # a stalk of any colours: *n in the impartial variant


class Steps(BaseRuleset):
    """A toy: from n, Left's move ``m`` goes to n - 1, Right's move ``m`` to n - 2."""

    name = "steps"
    syntax = "n"

    def parse(self, text):
        return int(text)

    def options(self, position, player):
        after = position - (1 if player is Player.LEFT else 2)
        return [Move(after, "m")] if after >= 0 else []


def test_moves_written_alike_leading_elsewhere_are_told_apart():
    """A Right move written as a Left move but leading elsewhere is kept, as ``R:TEXT``."""
    rs = impartial(Steps())
    assert [(m.text, m.result) for m in rs.options(3, Player.RIGHT)] == [("m", 2), ("R:m", 1)]
    assert [solve(rs, str(n)).grundy for n in range(6)] == [
        brute_grundy(Steps(), str(n)) for n in range(6)
    ]
    assert solve(rs, "2").grundy == 2


class ValueKeyed(BaseRuleset):
    """A toy whose ``canonical_key`` stands for the value alone: ``one`` is {0|} and ``also``
    is {0, minus|} with minus = {|0}, both worth 1, with different game trees."""

    name = "value-keyed"
    syntax = "zero, one, also, minus"
    TREE = {"zero": ((), ()), "one": (("zero",), ()), "also": (("zero", "minus"), ())}
    TREE["minus"] = ((), ("zero",))
    KEY = {"zero": 0, "one": 1, "also": 1, "minus": -1}

    def parse(self, text):
        return text

    def options(self, position, player):
        return [Move(p, p) for p in self.TREE[position][player is Player.RIGHT]]

    def canonical_key(self, position):
        return self.KEY[position]


def test_a_key_that_stands_for_values_needs_trust_keys_false():
    """The documented hazard: I(one) = {0} = * but I(also) = {0, *} = *2, so a key shared by
    the two is wrong for the variant; ``trust_keys=False`` keys positions by themselves."""
    toy = ValueKeyed()
    assert solve(toy, "one + also").value == number(2)  # the base: 1 + 1, keys are fine
    assert solve(impartial(toy, trust_keys=False), "one + also").grundy == 1 ^ 2
    assert solve(impartial(toy), "one + also").grundy == 0  # (one's value reused for also)
    assert impartial(toy, trust_keys=False).canonical_key("also") == "also"


# ---- the twisted variant's positions ---------------------------------------------------------
def test_twisted_positions_are_written_with_a_minus():
    """A move from T(P) leads to -T(P'), written -(P'); -(P) parses back, -(-(P)) is T(P)."""
    rs = twisted(base("domineering"))
    (move, *_) = rs.options(rs.parse("..|.."), Player.LEFT)
    assert isinstance(move.result, Negated)
    text = rs.format(move.result)
    assert text == "-(#.|#.)"
    assert rs.parse(text) == move.result
    assert rs.parse("-(-(..|..))") == rs.parse("..|..")
    assert solve(rs, "-(..|..)").value == -solve(rs, "..|..").value
    with pytest.raises(ValueError):
        rs.parse("-(..)(..)")
    outer = twisted(rs)  # twisted:twisted: each minus belongs to one of them
    assert outer.parse("-(-(..))") == Negated(Negated(base("domineering").parse("..")))
    assert outer.format(outer.parse("-(-(..))")) == "-(-(..))"


# ---- names, the Python API, the CLI ----------------------------------------------------------
def test_variant_objects_names_and_api():
    dom = base("domineering")
    rs = cgframework.variants.impartial(dom)
    assert rs is impartial(dom) is get_registry().ruleset("impartial:domineering")
    assert (rs.name, rs.impartial, rs.convention) == ("impartial:domineering", True, dom.convention)
    assert pickle.loads(pickle.dumps(rs)).name == rs.name
    assert get_registry().ruleset("impartial:toads-frogs").name == "impartial:toads-and-frogs"
    assert twisted(dicotic(dom)).name == "twisted:dicotic:domineering"
    g = Game("impartial:domineering", "...|...")
    assert g.value == nimber(1) and (g + g).value == ZERO
    with pytest.raises(VariantError, match="scoring"):
        impartial(base("pizza"))
    with pytest.raises(UnknownRuleset, match="unknown variant 'allsmall'"):
        get_registry().ruleset("allsmall:domineering")
    with pytest.raises(UnknownRuleset, match="did you mean 'domineering'"):
        get_registry().ruleset("impartial:domineerin")
    assert get_registry().family("impartial:domineering", "2xn").ruleset == "domineering"


def test_a_variant_name_loads_only_its_rulesets_plugin():
    """As for its base's name, ``impartial:domineering`` imports the classic plugin alone
    (the ruleset manifest names it), not every installed plugin."""
    plugins.reset()
    try:
        registry = plugins.registry_for("impartial:domineering")
        assert registry.ruleset("impartial:domineering").name == "impartial:domineering"
        assert "domineering" in registry.rulesets and "cram" not in registry.rulesets
    finally:
        plugins.reset()


def test_cli_variant_option_and_names(capsys):
    code, out, err = run_cli(capsys, "solve", "domineering", "...|...", "--variant", "impartial",
                             "--json")  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert (data["ruleset"], data["grundy"], data["value"]) == ("impartial:domineering", 1, "*")
    code, out2, err = run_cli(capsys, "solve", "impartial:domineering", "...|...", "--json")
    assert code == 0 and json.loads(out2)["grundy"] == 1
    code, out, err = run_cli(capsys, "solve", "domineering", "..|..", "--variant", "twisted")
    assert code == 0 and "twisted:domineering" in out
    for args, fragment in [
        (("--variant", "allsmall"), "unknown variant 'allsmall'"),
        (("--variant", "impartial:bogus"), "unknown variant 'bogus'"),
    ]:
        code, out, err = run_cli(capsys, "solve", "domineering", "..", *args)
        assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1, err
    code, out, err = run_cli(capsys, "solve", "bogus:domineering", "..")
    assert code == 2 and "unknown variant 'bogus'" in err and len(err.strip().splitlines()) == 1
    code, out, err = run_cli(capsys, "solve", "pizza", "cyc(1,2)", "--variant", "impartial")
    assert code == 2 and "scoring" in err and len(err.strip().splitlines()) == 1
    code, out, err = run_cli(capsys, "sweep", "domineering", "2xn", "--from", "1", "--to", "3",
                             "--variant", "impartial", "--format", "csv")  # fmt: skip
    assert code == 0, err
    assert [line.split(",")[5] for line in out.strip().splitlines()[1:]] == ["1", "0", "1"]


def test_a_variant_name_serves_the_other_commands(capsys, tmp_path):
    """``VARIANT:RULESET`` goes wherever a ruleset name does: the game tree of a twisted
    position, with its ``-(...)`` options."""
    path = tmp_path / "t.svg"
    code, out, err = run_cli(capsys, "tree", "twisted:domineering", "..|..", "-o", str(path))
    assert code == 0, err
    assert "-(#.|#.)" in path.read_text()
    code, out, err = run_cli(capsys, "tree", "domineering", "..|..", "--variant", "twisted",
                             "-o", str(tmp_path / "u.svg"))  # fmt: skip
    assert code == 0 and (tmp_path / "u.svg").read_text() == path.read_text(), err
    code, out, err = run_cli(capsys, "tree", "domineering", "..", "--variant", "x", "-o", "-")
    assert code == 2 and "unknown variant 'x'" in err and len(err.strip().splitlines()) == 1


def test_play_takes_the_variant_option(capsys, monkeypatch):
    """``cgf play --variant``: on a 1 x 2 Domineering strip only Right (horizontal) can move,
    so Left, moving first, has lost; in the impartial variant Left has Right's move."""
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, err = run_cli(capsys, "play", "domineering", "..", "--variant", "impartial")
    assert code == 0 and "1. h1,1" in out and "cannot move" not in out, err
    code, out, err = run_cli(capsys, "play", "domineering", "..")
    assert code == 0 and "Left cannot move: Right wins." in out, err


def test_variants_of_a_loopy_ruleset():
    """A loopy ruleset's variants are the same rewrite on its position graph. Token on 0,
    arcs 0>1 (Left's), 1>0 and 1>2 (Right's): impartially, 0 -> 1 -> {0, 2} gives 1 the
    Grundy value 1 (it reaches the end 2) and 0 the value 0. Twisted, Left's 0>1 leaves Right
    to make Left's moves from 1, and there are none: Left wins, and Right cannot start."""
    text = "0>1:L,1>0:R,1>2:R;0"
    assert solve("impartial:partizan-digraph", text).grundy == 0
    assert solve("twisted:partizan-digraph", text).outcome.value == "L"


def test_misere_play_of_a_variant():
    """Misère play works through the options alone: the impartial variant of a 1 x 2
    Domineering strip (one move for Right, so one move in the variant) is lost by the mover."""
    text = ".."
    assert solve("impartial:domineering", text, misere=True).outcome.value == "P"
    assert parse_position(impartial(base("domineering")), text) == base("domineering").parse(text)
