"""The explorer (``cgf explore``): its JSON API against ``cgf solve`` for every bundled
ruleset's examples, the dominated/reversible marks against canonical forms, clicks
(``move_at``) and the editor, the HTTP server's answers, and the command's exit codes."""

from __future__ import annotations

import http.client
import json
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from urllib.parse import urlencode

import attrs
import pytest

from cgframework import BaseRuleset, Player, parse_position, solve
from cgframework.display import explorer
from cgframework.display.server import page_url, start
from cgframework.game import draw_position, format_position, options
from cgframework.plugins import get_registry, resolve_ruleset
from cgframework.testing import run_cli
from cgframework.values.canonical import CanonicalGame


def _examples() -> list[tuple[str, str]]:
    seen, out = set(), []
    for _, rs in sorted(get_registry().rulesets.items()):
        if id(rs) not in seen:
            seen.add(id(rs))
            out += [(rs.name, text) for text in rs.examples()]
    return out


EXAMPLES = _examples()


def test_every_bundled_ruleset_has_examples_for_the_api_test():
    assert len({name for name, _ in EXAMPLES}) >= 25


def test_node_values_are_those_of_cgf_solve_for_every_example(capsys):
    for name, text in EXAMPLES:
        node = explorer.node(name, text, pictures=False, max_nodes=None, timeout=None)
        assert node["status"] == "ok", (name, text, node.get("message"))
        code, out, err = run_cli(capsys, "solve", name, text, "--json")
        assert code == 0, (name, text, err)
        cli = json.loads(out)
        assert node["position"] == cli["position"]
        assert (node["value"], node["outcome"]) == (cli["value"], cli["outcome"]), (name, text)
        assert node.get("grundy") == cli.get("grundy")
        rs = resolve_ruleset(name)
        pos = parse_position(rs, text)
        for player, side in ((Player.LEFT, "left"), (Player.RIGHT, "right")):
            moves = options(rs, pos, player)[: explorer.MAX_OPTIONS]
            assert [o["move"] for o in node[side]] == [m.text for m in moves]
            for option, move in zip(node[side], moves, strict=True):
                assert option["position"] == format_position(rs, move.result)
                first = player.opponent if explorer.scoring(rs) else Player.LEFT
                child = solve(rs, move.result, first=first)
                shown = child.value if not isinstance(child.value, int) else child.value
                expected = explorer._value_fields(child)["value"]
                assert option["value"] == expected, (name, text, move.text, shown)


def test_marks_agree_with_the_canonical_form():
    # Siegel, CGT II.2: deleting dominated options and bypassing reversible ones gives the
    # canonical form, so the values of the options marked neither are canonical options
    # of G, and with no reversible option they are all of them.
    checked = 0
    for name, text in EXAMPLES:
        node = explorer.node(name, text, pictures=False)
        rs = resolve_ruleset(name)
        g = solve(rs, parse_position(rs, text)).value
        if not isinstance(g, CanonicalGame) or node["more_left"] or node["more_right"]:
            continue
        for side, canonical in (("left", g.left), ("right", g.right)):
            kept = {
                str(o["value"]) for o in node[side] if not o["dominated"] and not o["reversible"]
            }
            assert kept <= {str(x) for x in canonical}, (name, text, side)
            if not any(o["reversible"] for o in node[side]):
                assert kept == {str(x) for x in canonical}, (name, text, side)
        checked += 1
    assert checked >= 40


def test_domineering_marks_by_hand():
    # ..#|...|.#. = {2|0}: Left's {1|0} and +-1 are below 2 (dominated) and +-1 reverses
    # through -1 <= {2|0}; Right's second 0 repeats the first and 1/2 > 0.
    node = explorer.node("domineering", "..#|...|.#.", pictures=False)
    assert (node["value"], node["outcome"], node["temperature"], node["mean"]) == (
        "{2|0}",
        "N",
        1,
        1,
    )
    left = {o["move"]: (o["value"], o["dominated"], o["reversible"]) for o in node["left"]}
    assert left == {
        "v1,1": ("{1|0}", True, False),
        "v1,2": ("2", False, False),
        "v2,1": ("+-1", True, True),
        "v2,3": ("+-1", True, True),
    }
    right = [(o["value"], o["dominated"], o["reversible"]) for o in node["right"]]
    assert right == [("0", False, False), ("0", True, False), ("1/2", True, False)]


def test_a_node_past_its_limit_says_so_and_keeps_the_outline():
    node = explorer.node(
        "domineering", "....|....|....|....", max_nodes=10, timeout=None, pictures=False
    )
    assert node["status"] == "limit" and "nodes" in node["message"]
    assert node["value"] is None and len(node["left"]) == 12
    assert explorer.outcome("domineering", "..|..", max_nodes=1000)["outcome"] == "N"


def test_sums_are_shown_component_by_component():
    node = explorer.node("hackenbush", "BRRB + GG", pictures=False)
    assert [(c["position"], c["value"]) for c in node["components"]] == [
        ("BRRB", "3/8"),
        ("GG", "*2"),
    ]
    assert node["value"] == "3/8*2"


def _coloured_tokens(svg: str) -> dict[str, str]:
    """``data-cell`` -> fill of every token drawn in a colour other than the plain one."""
    import xml.etree.ElementTree as ET

    return {
        e.get("data-cell"): e.get("fill")
        for e in ET.fromstring(svg).iter()
        if e.get("class") == "token" and e.get("fill") != "#c8a35a"
    }


def test_nim_option_cards_mark_the_tokens_taken_on_the_start():
    # option 12->6 of 12,7,3 was drawn as 6,7,3 (the position reached), nothing marked
    from cgframework.display.pictures import LEFT_COLOUR, RIGHT_COLOUR

    node = explorer.node("nim", "12,7,3")
    for side, colour in (("left", LEFT_COLOUR), ("right", RIGHT_COLOUR)):
        card = next(o for o in node[side] if o["move"] == "12->6")
        assert card["position"] == "6,7,3"
        assert card["svg"].count('class="token"') == 12 + 7 + 3  # the start, drawn whole
        assert _coloured_tokens(card["svg"]) == {f"0,{k}": colour for k in range(6, 12)}
    # Kayles from the middle: 10->3+5 keeps 3 at the bottom, takes 2, keeps 5 above
    card = next(o for o in explorer.node("kayles", "10")["left"] if o["move"] == "10->3+5")
    assert set(_coloured_tokens(card["svg"])) == {"0,3", "0,4"}
    # a heap drawn as a bar: the stretch taken, whatever the heap's size
    card = explorer.node("nim", str(10**30), timeout=5)["left"][0]
    assert card["svg"].count('class="token-taken"') == 1
    # Grundy's game takes nothing: its cards are the positions reached
    card = explorer.node("grundys-game", "7")["left"][0]
    assert card["svg"] == draw_position(
        resolve_ruleset("grundys-game"),
        parse_position(resolve_ruleset("grundys-game"), card["position"]),
    )


def test_every_card_draws_the_start_with_what_its_move_took():
    """For every bundled ruleset with ``move_marks``: each card is the start drawn with the
    move's marks in the mover's colour (in a sum, that summand marked), or the position
    reached when the move marks nothing."""
    from cgframework.display.pictures import side_by_side
    from cgframework.game import Sum

    checked = set()
    first = {name: text for name, text in reversed(EXAMPLES)}  # each ruleset's first example
    for name, text in [*first.items(), ("node-kayles", "path:3 + path:2")]:
        rs = resolve_ruleset(name)
        if getattr(type(rs), "move_marks", None) in (None, BaseRuleset.move_marks):
            continue  # (marks nothing: drawn as the position reached, as before)
        marker = rs.move_marks
        pos = parse_position(rs, text)
        node = explorer.outline(rs, pos)
        for player, side in ((Player.LEFT, "left"), (Player.RIGHT, "right")):
            for card, listed in zip(node[side], explorer._moves(rs, pos, player), strict=False):
                start = pos.parts[listed.part] if listed.part is not None else pos
                marks = dict.fromkeys(marker(start, listed.part_move), player)
                if not marks:
                    expected = draw_position(rs, listed.move.result)
                elif isinstance(pos, Sum):
                    expected = side_by_side(
                        [
                            draw_position(rs, part, marks if i == listed.part else None)
                            for i, part in enumerate(pos.parts)
                        ]
                    )
                else:
                    expected = draw_position(rs, pos, marks)
                assert card["svg"] == expected, (name, text, card["move"])
                checked.add((name, isinstance(pos, Sum), bool(marks)))
    assert {
        ("nim", False, True),
        ("node-kayles", True, True),
        ("domineering", False, True),
    } <= checked


def test_play_pictures_of_heap_games_stay_the_position_reached():
    """A heap emptied leaves the row of heaps, so later moves' marks are not keys of the
    start's picture (``marks_persist = False``): ``cgf play --picture`` draws the position
    reached, as before heap games had marks."""
    from cgframework.display.play import PlayRecord

    rs = resolve_ruleset("nim")
    record = PlayRecord(rs, parse_position(rs, "3,4"))
    first = next(m for m in options(rs, parse_position(rs, "3,4"), Player.LEFT) if m.text == "3->0")
    record(Player.LEFT, first)
    second = next(m for m in options(rs, first.result, Player.RIGHT) if m.text == "4->1")
    record(Player.RIGHT, second)
    assert record.picture() == draw_position(rs, parse_position(rs, "1"))
    assert resolve_ruleset("impartial:domineering").marks_persist  # (a variant: its base's)


def test_pick_move_matches_keys_in_order_or_not():
    from cgframework import PICK_MORE, Move, pick_move

    a, b = Move("A", "a"), Move("B", "b")
    moves = [([(0, 0), (0, 1)], a), ([(0, 1), (1, 1)], b)]
    assert pick_move(moves, [(0, 0), (0, 1)]) is a
    assert pick_move(moves, [(0, 1), (0, 0)]) is None
    assert pick_move(moves, [(0, 1), (0, 0)], ordered=False) is a
    assert pick_move(moves, [(0, 1)]) is PICK_MORE
    assert pick_move(moves, [(1, 1)]) is None
    assert pick_move(moves, [(1, 1)], ordered=False) is PICK_MORE
    assert pick_move(moves, []) is None and pick_move([], [(0, 0)]) is None


@pytest.mark.parametrize(
    "ruleset, text",
    [
        ("domineering", "..#|...|.#."),
        ("cram", "...|...|.#."),
        ("clobber", "xox|oxo"),
        ("konane", "xox.|o.ox|xoxo"),
        ("amazons", "x.#|..o"),
        ("fission", "...|.x.|..."),
    ],
)
def test_clicking_a_moves_cells_makes_that_move(ruleset, text):
    rs = resolve_ruleset(ruleset)
    pos = parse_position(rs, text)
    for player in Player:
        for move in options(rs, pos, player):
            if ruleset == "domineering":
                cells = rs.move_marks(pos, move)
            else:
                cells = [
                    tuple(int(x) - 1 for x in c.split(","))
                    for c in move.text.replace("/", ">").split(">")
                ]
            found = explorer.move_at(rs, pos, cells, player)
            assert found == {
                "status": "move",
                "move": move.text,
                "player": player.value,
                "position": format_position(rs, move.result),
            }
            if len(cells) > 1:
                assert explorer.move_at(rs, pos, cells[:1], player)["status"] == "more"
            if ruleset in ("clobber", "konane"):  # a stone, then where it goes
                assert explorer.move_at(rs, pos, cells[::-1], player)["status"] != "move"


def test_clicks_on_graphs_strips_edges_and_sums():
    assert explorer.move_at("snort", "path:4", [2], Player.LEFT)["move"] == "2"
    assert explorer.move_at("node-kayles", "cycle:5", [0])["position"] == "0-1"
    assert explorer.move_at("toads-and-frogs", "T..F", [(0, 3)])["move"] == "4>3"
    assert explorer.move_at("hackenbush", "BRRB + GG", [("edge", 1)], part=0) == {
        "status": "move",
        "move": "1:2",
        "player": "R",
        "position": "B + GG",
    }
    assert explorer.move_at("domineering", "..|..", [(0, 0), (1, 1)])["status"] == "none"
    with pytest.raises(explorer.ExplorerError, match="no move_at"):
        explorer.move_at("wythoff", "3,4", [0])
    with pytest.raises(explorer.ExplorerError, match="unknown pick"):
        explorer.pick_key("square:1")


@pytest.mark.parametrize(
    ("ruleset", "text"),
    [
        ("nim", "3,4,3"),
        ("kayles", "5,2"),
        ("grundys-game", "6"),
        ("partizan-subtraction", "{1,2|2,3}:5,4"),
    ],
)
def test_clicking_a_token_takes_it_and_those_above(ruleset, text):
    """Token ``k`` of heap ``i`` (``data-cell="i,k"`` in the picture) leaves ``k`` in heap ``i``:
    every move that leaves one heap (or none) is one click, on any of equal heaps; a move that
    splits a heap (Kayles from the middle, every move of Grundy's game) is not a click."""
    rs = resolve_ruleset(ruleset)
    pos = parse_position(rs, text)
    sizes = pos.sizes
    assert f'data-cell="{len(sizes) - 1},{sizes[-1] - 1}"' in rs.draw(pos)
    for player in Player:
        texts = {m.text for m in options(rs, pos, player)}
        clicked = set()
        for i, n in enumerate(sizes):
            for k in range(n):
                found = explorer.move_at(rs, pos, [(i, k)], player)
                if found["status"] == "move":
                    clicked.add(found["move"])
                    after = sizes[:i] + ((k,) if k else ()) + sizes[i + 1 :]
                    assert found["position"] == format_position(rs, attrs.evolve(pos, sizes=after))
                else:
                    assert found["status"] == "none"
        assert clicked == {t for t in texts if "+" not in t}, player


@pytest.mark.parametrize(
    ("ruleset", "text"), [("pizza", "3,1,4,1,5"), ("influence", "LRRL:0>1,0>2,3>2")]
)
def test_clicking_a_slice_or_vertex_takes_it(ruleset, text):
    """Pizza's slices and Influence's vertices carry ``data-vertex``: a click on one is the
    move that takes it, for exactly the player's options."""
    rs = resolve_ruleset(ruleset)
    pos = parse_position(rs, text)
    picture = rs.draw(pos)
    for player in Player:
        moves = options(rs, pos, player)
        for move in moves:
            (mark,) = [move.text] if ruleset == "influence" else rs.move_marks(pos, move)
            assert f'data-vertex="{mark}"' in picture
            pick = explorer.pick_key(f"vertex:{mark}")
            found = explorer.move_at(rs, pos, [pick], player)
            assert (found["move"], found["position"]) == (
                move.text,
                format_position(rs, move.result),
            )
        taken = {m.text for m in moves}
        for v in range(4 if ruleset == "influence" else 5):  # the vertices, from 0
            label = str(v) if ruleset == "influence" else f"#{v + 1}"
            if label not in taken:
                assert explorer.move_at(rs, pos, [v], player)["status"] == "none"


@pytest.mark.parametrize("ruleset", ["wak", "arc-kayles"])
def test_clicking_an_edge_of_a_wak_graph_plays_on_it(ruleset):
    rs = resolve_ruleset(ruleset)
    pos = parse_position(rs, rs.examples()[0])
    edges = list(pos.edges) + [(v, v) for v in pos.loops]
    moves = options(rs, pos, Player.LEFT)
    for move in moves:
        ((u, v),) = rs.move_marks(pos, move)
        i = edges.index((u, v)) if (u, v) in edges else edges.index((v, u))
        assert explorer.move_at(rs, pos, [("edge", i)], Player.LEFT)["move"] == move.text
    assert len(moves) >= 4


def test_the_editor_cycles_cells_and_resizes():
    assert explorer.edit_cell("domineering", "..|..", "cell", (0, 1)) == {"position": ".#|.."}
    assert explorer.edit_cell("domineering", ".#|..", "cell", (0, 1)) == {"position": "..|.."}
    # Clobber reads # as empty: a cell cycles through . x o only
    states = ["ox|o.", ".x|o.", "xx|o."]
    position = "xx|o."
    for expected in states:
        position = explorer.edit_cell("clobber", position, "cell", (0, 0))["position"]
        assert position == expected
    assert explorer.edit_cell("cram", "..", "add-row")["position"] == "..|.."
    assert explorer.edit_cell("cram", "..|..", "remove-column")["position"] == ".|."
    with pytest.raises(explorer.ExplorerError, match="no position editor"):
        explorer.edit_cell("nim", "3", "cell", (0, 0))


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, object]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read().decode()
            kind = response.headers["Content-Type"]
            return response.status, json.loads(body) if "json" in kind else body
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read().decode())


@pytest.fixture(scope="module")
def server():
    srv, thread = start(port=0, max_nodes=100_000, timeout=20)
    yield srv
    srv.shutdown()
    srv.server_close()
    thread.join(5)


def _api(server, name: str, **query: str) -> tuple[int, object]:
    return _get(server.url + "api/" + name + "?" + urlencode(query))


def test_the_http_api_answers_json(server):
    status, node = _api(server, "node", ruleset="domineering", position="..|..|..")
    assert status == 200 and node["value"] == "{1/2|-2}" and node["outcome"] == "N"
    assert {"move", "position", "value", "dominated", "reversible"} <= set(node["left"][0])
    assert node["svg"].startswith("<svg") and 'data-cell="0,0"' in node["svg"]
    status, outline = _api(server, "outline", ruleset="domineering", position="..|..")
    assert status == 200 and "value" not in outline and len(outline["left"]) == 2
    status, out = _api(server, "outcome", ruleset="clobber", position="xo")
    assert (status, out["outcome"]) == (200, "N")
    status, moved = _api(
        server, "move_at", ruleset="domineering", position="..|..", picks="cell:0,0;cell:1,0"
    )
    assert moved == {"status": "move", "move": "v1,1", "player": "L", "position": "#.|#."}
    status, edited = _api(server, "edit", ruleset="cram", position="..", op="cell", cell="0,1")
    assert edited == {"position": ".#"}
    status, rulesets = _api(server, "rulesets")
    assert {"domineering", "snort", "nim"} <= {r["name"] for r in rulesets}
    page = _get(server.url)[1]
    assert '<script src="explorer.js"' in page
    assert "function show()" in _get(server.url + "explorer.js")[1]


@pytest.mark.parametrize(
    "query, message",
    [
        ({"ruleset": "no-such-game", "position": "1"}, "no-such-game"),
        ({"ruleset": "domineering", "position": "..|.x"}, "invalid domineering position"),
        ({"ruleset": "domineering"}, "missing parameter 'position'"),
        ({"ruleset": "nim", "position": "3", "first": "Q"}, "unknown player"),
    ],
)
def test_bad_requests_are_400_with_one_line(server, query, message):
    status, data = _api(server, "node", **query)
    assert status == 400 and message in data["error"] and "\n" not in data["error"]


def test_only_get_and_only_loopback_hosts(server):
    request = urllib.request.Request(server.url + "api/rulesets", data=b"x", method="POST")
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(request, timeout=10)
    assert info.value.code == 405
    status, data = _get(server.url + "api/rulesets", {"Host": "evil.example:80"})
    assert status == 403
    status, data = _get(server.url + "api/rulesets", {"Sec-Fetch-Site": "cross-site"})
    assert status == 403 and "own page" in data["error"]
    status, data = _get(server.url + "api/rulesets", {"Origin": "http://evil.example"})
    assert status == 403
    assert _get(server.url + "api/rulesets", {"Sec-Fetch-Site": "same-origin"})[0] == 200
    assert _get(server.url + "nothing")[0] == 404


def test_a_busy_solver_answers_202_when_asked_not_to_wait(server):
    with server.solver.lock:
        status, data = _api(server, "node", ruleset="nim", position="5,6", wait="0.05")
    assert (status, data["status"]) == (202, "busy")
    assert _api(server, "node", ruleset="nim", position="5,6")[1]["value"] == "*3"


def test_page_url_quotes_the_position(server):
    url = page_url(server, "domineering", "..#|...")
    assert url.endswith("?ruleset=domineering&position=..%23%7C...")


# ---- the command -----------------------------------------------------------------------------
def _cgf(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "cgframework", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def _ctrl_c_as_in_a_terminal() -> None:
    """(in the child) SIGINT is ignored in processes started from a background job, as CI
    may run, and Python then never raises KeyboardInterrupt: give it the default back."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_explore_serves_prints_the_address_and_stops_on_ctrl_c():
    process = _cgf(
        "explore",
        "domineering",
        "..|..",
        "--port",
        "0",
        "--no-browser",
        "--host",
        "0.0.0.0",
        preexec_fn=_ctrl_c_as_in_a_terminal,
    )
    try:
        line = process.stdout.readline()
        assert line.startswith("cgf explore: http://0.0.0.0:")
        port = int(line.split(":")[3].split("/")[0])
        query = "ruleset=domineering&position=..%7C.."
        status, node = _get(f"http://127.0.0.1:{port}/api/node?{query}")
        assert status == 200 and node["value"] == "+-1"
        root = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        root.request("GET", "/")  # the page opens on the position given (not an empty form)
        answer = root.getresponse()
        assert (answer.status, answer.getheader("Location")) == (302, f"/?{query}")
        root.close()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0
    assert "warning: serving on 0.0.0.0" in err and "Traceback" not in err


def test_a_busy_port_is_exit_2_with_one_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = _cgf("explore", "nim", "3", "--port", str(port), "--no-browser")
        out, err = process.communicate(timeout=60)
    assert process.returncode == 2 and out == ""
    assert err.count("\n") == 1 and "busy" in err and str(port) in err


@pytest.mark.parametrize(
    "args, message",
    [(["no-such-game", "3"], "no-such-game"), (["domineering", "..|x"], "invalid domineering")],
)
def test_bad_input_is_exit_2(capsys, args, message):
    code, out, err = run_cli(capsys, "explore", *args, "--no-browser", "--port", "0")
    assert code == 2 and message in err and err.count("\n") == 1


def test_explore_is_listed_in_the_help(capsys):
    code, out, _ = run_cli(capsys, "explore", "--help")
    assert code == 0 and "--no-browser" in out and "--port" in out
