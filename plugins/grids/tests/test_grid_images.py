"""A board's symmetries as ``image`` gives them (for proofs that reuse a mirror image's
certificate): each image is the same game, move for move: the image's moves are the images of
the board's moves, and lead to the images of their results."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import Player, get_registry

RULESETS = {  # name: the letters of its boards
    "clobber": "xo.",
    "konane": "xo.",
    "cram": ".#",
    "amazons": "xo.#",
    "fission": "x.#",
}


def boards(letters: str) -> st.SearchStrategy[str]:
    return st.integers(1, 4).flatmap(
        lambda h: st.integers(1, 4).flatmap(
            lambda w: st.lists(
                st.text(letters, min_size=w, max_size=w), min_size=h, max_size=h
            ).map("|".join)
        )
    )


def moves(ruleset, text: str, player: Player) -> set[tuple[str, str]]:
    position = ruleset.parse(text)
    return {(m.text, ruleset.format(m.result)) for m in ruleset.options(position, player)}


@pytest.mark.parametrize("name", sorted(RULESETS))
@settings(max_examples=40, deadline=None, derandomize=True)
@given(data=st.data())
def test_an_image_is_the_same_game_move_for_move(name, data):
    ruleset = get_registry().ruleset(name)
    text = data.draw(boards(RULESETS[name]))
    assert ruleset.symmetries == (4 if name == "fission" else 8)  # (Fission: transposing
    for symmetry in range(ruleset.symmetries):  # swaps the players)
        image, move_image = ruleset.image(text, symmetry)
        for player in Player:
            mirrored = {
                (move_image(move), ruleset.image(after, symmetry)[0])
                for move, after in moves(ruleset, text, player)
            }
            assert mirrored == moves(ruleset, image, player)


def test_the_eight_images_of_an_asymmetric_board_differ_and_zero_is_the_identity():
    clobber = get_registry().ruleset("clobber")
    texts = [clobber.image("xo.|oxx", k)[0] for k in range(8)]
    assert texts[0] == "xo.|oxx" and len(set(texts)) == 8
    transposed, move_image = clobber.image("xo.|oxx", 4)
    assert transposed == "xo|ox|.x"
    assert move_image("1,1>1,2") == "1,1>2,1" and move_image("2,3>2,2") == "3,2>2,2"
    with pytest.raises(ValueError, match="no symmetry 8"):
        clobber.image("xo", 8)
    with pytest.raises(ValueError, match="no symmetry 4"):
        get_registry().ruleset("fission").image("x.", 4)
