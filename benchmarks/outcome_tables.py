"""Published who-wins tables, as data the outcome benchmarks check their rows against.

Every entry names where it was published (``SOURCES``). Outcome classes as usual: ``N`` the
player to move wins, ``P`` the player to move loses, ``L`` / ``R`` that player wins whoever
starts. Boards are given as ``(rows, columns)``; a Clobber rectangle is the full checkerboard
with ``x`` (Left, MCGS's Black) in the top-left corner, which is ``cgf solve clobber
checker:RxC``. Only data lives here: no solver, no I/O.
"""

from __future__ import annotations

#: The MCGS repository (ualberta-mueller-group/MCGS) at the tags whose results page is cited.
MCGS_V15 = "MCGS v1.5 (commit 5554ef539ffba2507b405a5b1bf010d25a48770b)"
MCGS_V17 = "MCGS v1.7 (commit 68fa2c6fdb7c6cea0e40438c2678992269686e6c)"

SOURCES: dict[str, str] = {
    "grossman2004": (
        "J.P. Grossman, Appendix A: Report on the First International Clobber Tournament, "
        "Theoretical Computer Science 313 (2004) 533-537; as tabulated (plain entries) in "
        f"{MCGS_V17}, docs/MCGS-results.html, section 'Clobber on a Grid'"
    ),
    "mcgs2026": (
        "MCGS computations of 2026-02-26 and 2026-03-03 (bold entries) in "
        f"{MCGS_V17}, docs/MCGS-results.html, section 'Clobber on a Grid'"
    ),
    "agnw2005": (
        "M. Albert, J.P. Grossman, R. Nowakowski, D. Wolfe, An introduction to Clobber, "
        "Integers 5(2) (2005) A01: (XO)^n is a first-player win for every n != 3 "
        "(their Conjecture; (XO)^3 = 0)"
    ),
    "chen2025": (
        "X. Chen, T. Folkersen, K. Hasham, R. Hayward, D. Lee, O. Randall, L. Schultz, "
        "E. Vandermeer, A Proof of the 2004 Albert-Grossman-Nowakowski-Wolfe Conjecture on "
        "Alternating Linear Clobber, arXiv:2509.08985 (2025); cited in "
        f"{MCGS_V17}, docs/MCGS-results.html, section '1xn Clobber, Linear Clobber'"
    ),
    "cgsuite-in-mcgs": (
        f"{MCGS_V15}, input/autotests/amazons_autotests/3x4.test and "
        "domineering_autotests/6x6.test: expected results, by the files' headers "
        "'Results from: CGSuite 2.1.1'"
    ),
    "linear-in-mcgs": (
        f"{MCGS_V15}, input/autotests/clobber_1xn_autotests/clobber_1xn_le_8_moves.test: "
        "expected results, by the file's header 'Results from: Taylor linear Clobber solver'"
    ),
    "xo-bounds-mcgs": (
        "Taylor Folkersen with MCGS, 2026-03-03, in "
        f"{MCGS_V17}, docs/MCGS-results.html, section '1xn Clobber, Linear Clobber': "
        "bounds for (XO)^n in multiples of up"
    ),
    "cram-mcgs": (
        f"{MCGS_V15}, docs/MCGS-results.html, section 'Cram = Impartial Domineering' "
        "(3xn from Lemoine & Viennot 2013; nxm from Wikipedia 'Cram (game)', Lemoine & "
        "Viennot 2013 and Beling's impartial-games README)"
    ),
}

# ---- Clobber on rectangles ------------------------------------------------------------------
_GROSSMAN = "grossman2004"
_MCGS = "mcgs2026"

#: Checkerboard Clobber, rows <= columns: (outcome, source key). The table of MCGS v1.7's
#: results page, cell by cell: row 2 for n = 2..17, row 3 for n = 3..10, row 4 for n = 4..7,
#: row 5 for n = 5, 6; Grossman's entries up to n = 6, the rest MCGS's.
CLOBBER_RECTANGLES: dict[tuple[int, int], tuple[str, str]] = {
    (2, 2): ("N", _GROSSMAN),
    (2, 3): ("P", _GROSSMAN),
    (2, 4): ("N", _GROSSMAN),
    (2, 5): ("N", _GROSSMAN),
    (2, 6): ("P", _GROSSMAN),
    (2, 7): ("N", _MCGS),
    (2, 8): ("N", _MCGS),
    (2, 9): ("P", _MCGS),
    (2, 10): ("N", _MCGS),
    (2, 11): ("N", _MCGS),
    (2, 12): ("P", _MCGS),
    (2, 13): ("N", _MCGS),
    (2, 14): ("N", _MCGS),
    (2, 15): ("P", _MCGS),
    (2, 16): ("N", _MCGS),
    (2, 17): ("N", _MCGS),
    (3, 3): ("N", _GROSSMAN),
    (3, 4): ("P", _GROSSMAN),
    (3, 5): ("N", _GROSSMAN),
    (3, 6): ("P", _GROSSMAN),
    (3, 7): ("N", _MCGS),
    (3, 8): ("P", _MCGS),
    (3, 9): ("N", _MCGS),
    (3, 10): ("P", _MCGS),
    (4, 4): ("N", _GROSSMAN),
    (4, 5): ("N", _GROSSMAN),
    (4, 6): ("P", _GROSSMAN),
    (4, 7): ("N", _MCGS),
    (5, 5): ("P", _GROSSMAN),
    (5, 6): ("P", _GROSSMAN),
}


def clobber_rectangle(rows: int, cols: int) -> tuple[str, str] | None:
    """The published outcome of the ``rows x cols`` checkerboard and its source key, or None.

    Transposing keeps the colour of every cell (it keeps ``row + column``), so the ``cols x
    rows`` board is the same game and is looked up as well.
    """
    return CLOBBER_RECTANGLES.get((min(rows, cols), max(rows, cols)))


# ---- linear Clobber (XO)^n ------------------------------------------------------------------
def xo_power(n: int) -> tuple[str, str]:
    """The outcome of ``(xo)^n`` (``cgf solve clobber xoxo...``) and its source key: ``P`` for
    n = 3 (the game is 0), ``N`` for every other n >= 1 (conjectured in 2005, proved in 2025)."""
    if n < 1:
        raise ValueError("(xo)^n needs n >= 1")
    return ("P", "agnw2005") if n == 3 else ("N", "chen2025")


def xo_up_bound(n: int) -> int | None:
    """The published k with ``-k.up < (xo)^n < k.up`` (source ``xo-bounds-mcgs``): 2 for n = 1,
    2, 4, 5 (and those are confused with up: not below it), 1 for 5 < n < 25; None for n = 3
    ((xo)^3 = 0) and for n >= 25 (conjectured only)."""
    if n in (1, 2, 4, 5):
        return 2
    return 1 if 5 < n < 25 else None


# ---- Cram (impartial: P exactly when the nim value is 0) ------------------------------------
#: 3 x n Cram nim values, n = 3..20 (3 x 21 is only known to be non-zero).
CRAM_3XN: dict[int, int] = dict(
    zip(range(3, 21), (0, 1, 1, 4, 1, 3, 1, 2, 0, 1, 2, 3, 1, 4, 0, 1, 0, 2), strict=True)
)

#: n x m Cram nim values with 4 <= n <= m (blank cells of the published table left out).
CRAM_RECTANGLES: dict[tuple[int, int], int] = {
    **{(4, m): v for m, v in zip(range(4, 16), (0, 2, 0, 3, 0, 1, 0, 1, 0, 3, 0, 4), strict=True)},
    **{(5, m): v for m, v in zip(range(5, 13), (0, 2, 1, 1, 1, 2, 0, 3), strict=True)},
    **{(6, m): v for m, v in ((6, 0), (7, 5), (8, 0), (9, 1), (10, 0), (12, 0), (14, 0))},
    **{(7, m): v for m, v in zip(range(7, 10), (1, 3, 1), strict=True)},
}


def cram_nim_value(rows: int, cols: int) -> int | None:
    """The published nim value of the empty ``rows x cols`` Cram board (source ``cram-mcgs``),
    or None. Cram is symmetric under transposition (both players move alike)."""
    small, large = min(rows, cols), max(rows, cols)
    if small == 3:
        return CRAM_3XN.get(large)
    return CRAM_RECTANGLES.get((small, large))


# ---- positions whose outcome is L or R: they pin down colours and orientation -------------
#: (name, ruleset, our position, outcome, source key). Checkerboards are N or P whoever is
#: Left, so these catch a swapped colour (MCGS's Black is our Left, ``X`` / ``x``) or a
#: transposed Domineering board (Left, Black, plays vertically) in any route.
SIDED_POSITIONS: tuple[tuple[str, str, str, str, str], ...] = (
    ("xxo-4", "clobber", "xxoxxoxxoxxo", "L", "linear-in-mcgs"),
    ("clobber-row-R", "clobber", "ox.xoooxoxxxoox", "R", "linear-in-mcgs"),
    ("amazons-3x4-L", "amazons", "x...|...#|o.x.", "L", "cgsuite-in-mcgs"),
    (
        "domineering-6x6-L",
        "domineering",
        "##.#..|#.##.#|.####.|.####.|.#.#.#|#.#...",
        "L",
        "cgsuite-in-mcgs",
    ),
)
