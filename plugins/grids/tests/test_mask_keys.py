"""Clobber's and Amazons' search keys on bit masks (``mask_keys.py``, compiled twin
``_k_masks.c``) against the string moves they stand for, and the compiled twin against the
Python path; a token marked -1 is minus its key's value (the colour swap); values found on
these keys against the plain recursion over ``options`` (``--method generic``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import Player, components, format_position, get_registry, solve
from cgframework_grids import mask_keys
from cgframework_grids.grid import Grid

RULES = {"clobber": mask_keys.CLOBBER, "amazons": mask_keys.AMAZONS}


@st.composite
def boards(draw, name: str, most: int = 12):
    h = draw(st.integers(1, 4))
    w = draw(st.integers(1, max(1, most // h)))
    letters = "xo." if name == "clobber" else "xo..#"
    cells = draw(st.text(alphabet=letters, min_size=h * w, max_size=h * w))
    return Grid(h, w, cells)


def tokens_of(ruleset, grid: Grid) -> list[tuple]:
    return sorted(ruleset.search_key(c) for c in components(ruleset, grid))


def minus(token: tuple) -> tuple:
    """The token of minus ``token``'s value (its colour swap, folded again)."""
    if len(token) == 6:
        return token[:5]
    h, w, xs, os, es = token
    return mask_keys.fold(h, w, os, xs, es)


@pytest.mark.parametrize("name", sorted(RULES))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_option_keys_are_the_string_moves_keys(name, data):
    """Each component's option keys, in both paths (the same lists), are the keys of the
    string moves' components."""
    ruleset = get_registry().ruleset(name)
    grid = data.draw(boards(name))
    kernel = mask_keys.KERNEL
    for comp in components(ruleset, grid):
        key = ruleset.search_key(comp)
        plain = mask_keys.negated_key(key)
        sign = -1 if plain is not None else 1
        plain = key if plain is None else plain
        for player in (Player.LEFT, Player.RIGHT):
            mover = player if sign == 1 else player.opponent
            want = [sorted(tokens_of(ruleset, m.result)) for m in ruleset.options(comp, player)]
            try:
                mask_keys.KERNEL = None
                python = mask_keys.option_keys(RULES[name], plain, mover)
                signed = mask_keys.signed_option_keys(RULES[name], plain, mover)
            finally:
                mask_keys.KERNEL = kernel
            if kernel is not None:
                assert mask_keys.option_keys(RULES[name], plain, mover) == python
                assert mask_keys.signed_option_keys(RULES[name], plain, mover) == signed
            assert signed == [
                tuple((t[:5], -1) if len(t) == 6 else (t, 1) for t in parts) for parts in python
            ]
            if sign == 1:  # (the key is an image of the component: moves in another order)
                assert sorted(sorted(p) for p in python) == sorted(want)
            else:  # the negated component's moves are the key's opponent's, colours swapped
                swapped = [sorted(minus(t) for t in parts) for parts in python]
                assert sorted(swapped) == sorted(want)


@pytest.mark.parametrize("name", sorted(RULES))
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_values_on_mask_keys_equal_the_generic_recursion(name, data):
    """The canonical value found on the keys (colour swaps folded) equals the plain
    recursion's, and the colour swap of a board has minus its value."""
    grid = data.draw(boards(name, most=9))
    text = format_position(get_registry().ruleset(name), grid)
    swapped = text.translate(str.maketrans("xo", "ox"))
    keyed = solve(name, text).value
    assert keyed == solve(name, text, method="generic").value
    assert solve(name, swapped).value == -keyed


def test_a_colour_swap_is_the_negated_key():
    clobber = get_registry().ruleset("clobber")
    a = clobber.search_key(Grid(1, 3, "xxo"))
    b = clobber.search_key(Grid(1, 3, "oox"))
    assert mask_keys.negated_key(a) == b or mask_keys.negated_key(b) == a
    # xo is minus itself under a reflection: a plain key
    assert mask_keys.negated_key(clobber.search_key(Grid(1, 2, "xo"))) is None


def test_kernel_refuses_bad_boards():
    if mask_keys.KERNEL is None:
        pytest.skip("the compiled twin is not built")
    with pytest.raises(ValueError):
        mask_keys.KERNEL.options(0, 9, 9, 1, 2, 0, True, False)
    with pytest.raises(ValueError):
        mask_keys.KERNEL.options(0, 1, 2, 1, 1, 0, True, False)
