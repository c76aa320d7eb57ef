"""The browser version's Python side (:mod:`cgframework.cli.browser`), in CPython: one
explorer, two back ends. The page at ``try/`` asks :func:`~cgframework.cli.browser.call`
what ``cgf explore``'s page asks its server, and must get the same answer (status and JSON);
its calculator runs ``cgf calc`` and ``cgf solve`` as the command line does, under the
explorer's limits. ``tests/test_try_page.py`` drives the page itself, in Pyodide."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlencode

import pytest

from cgframework.cli import browser
from cgframework.display.server import start
from cgframework.display.worker import GRACE
from cgframework.testing import run_cli


@pytest.fixture(scope="module")
def server():
    srv, thread = start(port=0)
    yield srv
    srv.shutdown()
    srv.server_close()
    thread.join(5)


def _http(server, name: str, query: str) -> tuple[int, object]:
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=60)
    try:
        connection.request("GET", f"/api/{name}?{query}")
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def _browser(name: str, query: str) -> tuple[int, object]:
    status, text = browser.call(name, query)
    return status, json.loads(text)


CALLS = [
    ("rulesets", ""),
    ("outline", "ruleset=domineering&position=..|..|.."),
    ("outcome", "ruleset=domineering&position=..%23|...|.%23."),
    ("node", "ruleset=domineering&position=..|..|.."),
    ("node", "ruleset=nim&position=1,2"),
    ("node", "ruleset=clobber&position=xo+%2B+ox"),
    ("node", "ruleset=toads-and-frogs&position=T..F&first=R"),
    ("move_at", "ruleset=domineering&position=..|..&picks=cell:0,0;cell:1,0"),
    ("move_at", "ruleset=domineering&position=..|..&picks=cell:0,0"),
    ("move_at", "ruleset=nim&position=1,2&picks=cell:1,1&player=R"),
    ("edit", "ruleset=domineering&position=..|..&op=cell&cell=0,1"),
    ("edit", "ruleset=domineering&position=..|..&op=add-row"),
    # refused: the same status and one line
    ("node", "ruleset=nim&position=x"),
    ("node", "ruleset=no-such-game&position=1"),
    ("node", "ruleset=nim"),
    ("node", "ruleset=nim&position=1&first=Q"),
    ("move_at", "ruleset=domineering&position=..&picks=square:1"),
    ("edit", "ruleset=domineering&position=..&op=explode"),
    ("edit", "ruleset=nim&position=1&op=add-row"),
    ("nothing", ""),
]


@pytest.mark.parametrize(("name", "query"), CALLS)
def test_the_browser_answers_what_the_server_answers(server, name, query):
    expected = _http(server, name, query)
    assert _browser(name, query) == expected
    assert expected[0] in (200, 400, 404)


def test_the_node_keeps_the_explorers_limits():
    board = "|".join(["......"] * 6)
    assert browser.LIMITS == (500_000, 10.0)
    limits = browser.limits_of("node", urlencode({"ruleset": "domineering", "position": board}))
    assert limits == {"timeout": 10.0, "deadline": 10.0 + GRACE}
    assert browser.limits_of("rulesets", "")["deadline"] is None
    assert browser.limits() == {"timeout": 10.0, "grace": GRACE, "commands": ["calc", "solve"]}


def _cgf(*args: str) -> dict[str, object]:
    status, data = _browser("cgf", urlencode({"args": json.dumps(list(args))}))
    assert status == 200
    return data


@pytest.mark.parametrize(
    "args",
    [
        ("calc", "{1|0} + *"),
        ("calc", "^ || *"),
        ("calc", "{3|1}", "--json"),
        ("calc", "--check", "^ < 0"),
        ("calc", "{1|"),
        ("solve", "domineering", "..|..|.."),
        ("solve", "nim", "3,5,7", "--json"),
        ("solve", "clobber", "xoxo", "--outcome", "--json"),
        ("solve", "nim", "x"),
        ("solve", "no-such-game", "1"),
    ],
)
def test_the_calculator_prints_what_cgf_prints(capsys, args):
    code, out, err = run_cli(capsys, *args)
    answer = _cgf(*args)
    assert (answer["exit"], answer["stderr"]) == (code, err)
    if "--json" in args:  # (but the time it took)
        printed, expected = json.loads(answer["stdout"]), json.loads(out)
        for data in (printed, expected):
            data.get("stats", {}).pop("seconds", None)
        assert printed == expected
    elif args[0] == "calc":
        assert answer["stdout"] == out
    else:
        assert answer["stdout"].split("stats")[0] == out.split("stats")[0]


def test_the_calculator_runs_under_the_explorers_limits_unless_told_otherwise():
    assert _cgf("calc", "*")["command"] == "cgf calc '*' --timeout 10"
    answer = _cgf("solve", "nim", "1,2")
    assert answer["command"] == "cgf solve nim 1,2 --max-nodes 500000 --timeout 10"
    answer = _cgf("solve", "domineering", "....|....|....", "--max-nodes=5", "--timeout", "3")
    assert answer["command"] == "cgf solve domineering '....|....|....' --max-nodes=5 --timeout 3"
    assert answer["exit"] == 3 and "5" in answer["stderr"]
    query = urlencode({"args": json.dumps(["calc", "*", "--timeout=2.5"])})
    assert browser.limits_of("cgf", query) == {
        "timeout": 2.5,
        "deadline": 2.5 + GRACE,
        "command": "cgf calc '*' --timeout=2.5",
    }


@pytest.mark.parametrize("args", [[], ["sweep", "nim"], ["explore", "nim", "1"], ["--version"]])
def test_the_calculator_runs_calc_and_solve_only(args):
    answer = _cgf(*args)
    assert answer["exit"] == 2
    assert answer["stderr"] == "cgf: error: the browser runs cgf calc and cgf solve only"


@pytest.mark.parametrize("args", ["", "[1]", "{}", "not json", json.dumps(["calc"] * 33)])
def test_malformed_calculator_words_are_refused_in_one_line(args):
    query = urlencode({"args": args}) if args else ""
    status, data = _browser("cgf", query)
    assert status == 400 and "\n" not in data["error"]
    assert browser.limits_of("cgf", query)["deadline"] == GRACE


def test_a_long_output_is_cut(monkeypatch):
    monkeypatch.setattr(browser, "MAX_OUTPUT", 10)
    answer = _cgf("solve", "domineering", "..|..|..")
    assert answer["stdout"].startswith("ruleset\tdo") and "characters: cut" in answer["stdout"]
