"""``cgf guaranteed ...``, ``cgf solve guaranteed`` and ``cgf calc --universe guaranteed``."""

from __future__ import annotations

import json

import pytest

from cgframework.testing import run_cli
from cgframework_guaranteed.notation import parse_game


def ok(capsys, *args: str) -> str:
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    return out


def as_json(capsys, *args: str) -> dict:
    return json.loads(ok(capsys, *args, "--json"))


def test_solve_json_fields(capsys):
    """Value = canonical form, stops, invertible (user guide sum example)."""
    data = as_json(capsys, "solve", "guaranteed", "<^-3|<2|1>> + <-3|^0>")
    assert parse_game(data["value"]) is parse_game("<<^-6|^-1>|^2>")
    assert data["value_kind"] == "guaranteed"
    assert data["stops"] == {
        "Ls": -1,
        "Rs": 2,
        "Ls_under": -6,
        "Rs_under": -6,
        "Ls_over": 2,
        "Rs_over": 2,
    }
    assert data["invertible"] is False
    assert data["method"] == "guaranteed"


def test_solve_pizza_with_method_guaranteed(capsys):
    data = as_json(capsys, "solve", "pizza", "3,1,4,1,5", "--method", "guaranteed")
    plain = as_json(capsys, "solve", "pizza", "3,1,4,1,5")
    assert data["stops"]["Ls"] == plain["value"] == data["score"]
    assert data["best_moves"] == plain["best_moves"]


def test_canon_and_add(capsys):
    """Digest 004 §4.2 (the authors' user guide): canonize, the raw and canonical sums."""
    out = ok(capsys, "guaranteed", "canon", "<<2|2,<2|2>>,<1|1>|<<<^4|4>|<4|^4>>|-5>>")
    assert parse_game(out.strip()) is parse_game("<^2|^4>")
    out = ok(capsys, "guaranteed", "add", "<^-3|<2|1>>", "<-3|^0>", "--raw")
    assert parse_game(out.strip()) is parse_game("<<^-6|<-1|-2>>|<<-1|^2>,<-1|-2>|<-2|^1>>>")
    data = as_json(capsys, "guaranteed", "add", "<^-3|<2|1>>", "<-3|^0>")
    assert parse_game(data["sum"]) is parse_game("<<^-6|^-1>|^2>")


def test_conj_and_stops(capsys):
    out = ok(capsys, "guaranteed", "conj", "<-1|<^5|10>>")
    assert parse_game(out.strip()) is parse_game("<<-10|^-5>|1>")
    data = as_json(capsys, "guaranteed", "stops", "<^-5|<<10|1>|3>>")
    assert data == {"Ls": -5, "Rs": 1, "Ls_under": -5, "Rs_under": -5, "Ls_over": 3, "Rs_over": 3}


def test_stops_of_a_game_that_is_not_guaranteed(capsys):
    """Def. 8 stops exist for every game; pass-allowed ones are only given in GS."""
    data = as_json(capsys, "guaranteed", "stops", "<^1|-1>")
    assert data == {"Ls": 1, "Rs": -1, "guaranteed": False}


@pytest.mark.parametrize(
    "g, h, relation",
    [
        ("0", "*", "incomparable"),
        ("<0|^0>", "0", "greater"),
        ("<^0|0>", "1/2", "less"),
        ("<^0|<^0|0>>", "<^0|<^0|0>>", "equal"),
        ("<<2|2>|^2>", "2", "equal"),
    ],
)
def test_compare_relations(capsys, g, h, relation):
    """Digest 004 §4.3 table entries (* is written <0|0>)."""
    g, h = g.replace("*", "<0|0>"), h.replace("*", "<0|0>")
    assert as_json(capsys, "guaranteed", "compare", g, h)["relation"] == relation


def test_compare_gives_checked_witnesses(capsys):
    """Paper L553: S = G + ~G for G = <0|<0|^1>> is incomparable with 0; the witnesses are
    checked here, not trusted."""
    from cgframework_guaranteed.games import add

    s, zero = "<0|<0|^1>> - <0|<0|^1>>", "0"
    data = as_json(capsys, "guaranteed", "compare", s, zero)
    assert data["relation"] == "incomparable"
    a, b = parse_game(s), parse_game(zero)
    for key, (x, y) in {"witness_not_ge": (a, b), "witness_not_le": (b, a)}.items():
        w = parse_game(data[key]["X"])
        assert w.guaranteed
        left, right = add(x, w).stops, add(y, w).stops
        assert left.Ls < right.Ls or left.Rs < right.Rs


def test_invertible(capsys):
    """User guide: <2|2> is invertible (G - G = 0); paper L553: <0|<0|^1>> is not."""
    data = as_json(capsys, "guaranteed", "invertible", "<2|2>")
    assert data["invertible"] is True and parse_game(data["inverse"]) is parse_game("<-2|-2>")
    assert as_json(capsys, "guaranteed", "invertible", "<0|<0|^1>>")["invertible"] is False


def test_embed(capsys):
    """Digest 004 §1.7: {1|0} embeds as <<0|^0>|0>, not as the GS game <1|0>."""
    data = as_json(capsys, "guaranteed", "embed", "--normal", "{1|0}")
    assert parse_game(data["value"]) is parse_game("<<0|^0>|0>")
    assert data["invertible"] is True


def test_census_day1(capsys):
    """Digest 004 §5: 4117 guaranteed forms born by day 1 over atoms {-1,0,1}, 77 classes."""
    data = as_json(capsys, "guaranteed", "census", "--day", "1", "--atoms=-1,0,1")
    assert data["forms"] == 4117
    assert len(data["classes"]) == 77
    assert sum(c["forms"] for c in data["classes"]) == 4117
    assert data["classes_per_day"] == [6, 77]


def test_calc_universe(capsys):
    assert ok(capsys, "calc", "--universe", "guaranteed", "<1|^1> >= 1").strip() == "true"
    assert ok(capsys, "calc", "--universe", "guaranteed", "1/2 || <0|^0>").strip() == "true"
    out = ok(capsys, "calc", "--universe", "guaranteed", "5 - <^-1|3>")
    assert parse_game(out.strip()) is parse_game("<2|^6>")


@pytest.mark.parametrize(
    "args, message",
    [
        (("guaranteed", "canon", "<1|"), "invalid scoring game"),
        (("guaranteed", "canon", "<1|0>>"), "unexpected text after the game"),
        (("guaranteed", "canon", "<1|2/0>"), "division by zero"),
        (("guaranteed", "canon", "<<4|-3>|^-2>"), "not a guaranteed scoring game"),
        (("guaranteed", "compare", "<^1|-1>", "0"), "not a guaranteed scoring game"),
        (("guaranteed", "invertible", "<^3|^1>"), "left atom 3 > right atom 1"),
        (("guaranteed", "embed", "--normal", "{1|"), "invalid normal-play value"),
        (("guaranteed", "census", "--atoms", "x"), "invalid --atoms"),
        (("guaranteed", "census", "--day", "2", "--atoms=-1,0,1"), "the limit is"),
        (("solve", "guaranteed", "<1|0.5.5>"), "invalid guaranteed position"),
        (("solve", "guaranteed", "<^1|-1>"), "not a guaranteed scoring game"),
        (("calc", "--universe", "guaranteed", "<1|"), "invalid guaranteed expression"),
    ],
)
def test_bad_input_one_line_exit_2(capsys, args, message):
    code, out, err = run_cli(capsys, *args)
    assert code == 2
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err
