"""The browser version (the page at ``try/``: cgframework in Pyodide, in a Web Worker) in a
real headless Chromium (:mod:`headless_chromium`), served by a plain static server and no
other: every host but this machine is unreachable (``--host-resolver-rules``), so a file
fetched from anywhere else (a CDN) would fail the page.

The page is built by ``try/build.py`` into a temporary folder (npm and PyPI are asked only
for what ``try/node_modules`` and ``try/.cache`` do not hold yet), or taken from
``$CGF_TRY_PAGE`` (a folder built before). Without npm and no Pyodide fetched before, or
when the build cannot reach the registries, the tests are skipped, except under CI (``CI``
set), where they fail.

One page load serves the tests in order (Pyodide starts in some seconds): explore
Domineering and Nim, click an option and the board, and find the values ``cgf solve``
prints; the calculator; Stop; then the static server is shut down and the page keeps
answering, and reloads from its service worker's cache."""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import quote

import headless_chromium
import pytest

from cgframework.testing import run_cli

headless_chromium.require()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BOOT_SECONDS = 90
"""Pyodide's start, at most (about 10 s on a busy machine of 2 cores)."""
ANSWER_SECONDS = 30
NO_OTHER_HOST = "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
"""Chromium's resolver rule: every host name fails, but this machine's address."""


def _fail_or_skip(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"the page at try/ under CI: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    given = os.environ.get("CGF_TRY_PAGE")
    if given:
        return Path(given)
    fetched = (ROOT / "try" / "node_modules" / "pyodide" / "package.json").is_file()
    if not fetched and shutil.which("npm") is None:
        _fail_or_skip("npm is needed to build the page at try/ (or set CGF_TRY_PAGE to one)")
    folder = tmp_path_factory.mktemp("try") / "site"
    build = [sys.executable, str(ROOT / "try" / "build.py"), str(folder)]
    done = subprocess.run(build, capture_output=True, text=True, timeout=600)
    if done.returncode:
        _fail_or_skip(f"try/build.py could not build the page: {done.stderr.strip()[-300:]}")
    return folder


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@contextlib.contextmanager
def _serving(folder: Path):
    """A plain static server of ``folder`` on this machine."""
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.fixture(scope="module")
def static_server(site):
    """The built page's static server (shut down by a test)."""
    with _serving(site) as server:
        yield server


@pytest.fixture(scope="module")
def address(static_server) -> str:
    return f"http://127.0.0.1:{static_server.server_address[1]}/"


@pytest.fixture(scope="module")
def page(address):
    """The browser, on the page opened by a link to a position; every host but this machine
    unreachable."""
    driver = headless_chromium.chromium([f"--host-resolver-rules={NO_OTHER_HOST}"])
    driver.get(address + "#ruleset=domineering&position=" + quote("..|..|.."))
    yield driver
    driver.quit()


def _text(driver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


def _python(driver) -> str:
    return driver.execute_script("return document.documentElement.dataset.python || ''")


def _wait_for_python(driver) -> None:
    WebDriverWait(driver, BOOT_SECONDS).until(lambda d: _python(d) in ("ready", "failed"))
    assert _python(driver) == "ready", _text(driver, "message")


def _wait_for_node(driver, position: str) -> str:
    """Wait until the page shows ``position`` with its value; return the value."""
    wait = WebDriverWait(driver, ANSWER_SECONDS)
    wait.until(lambda d: _text(d, "fact-position") == position)
    wait.until(lambda d: _text(d, "fact-value") not in ("", "computing\u2026"))
    return _text(driver, "fact-value")


def _cli_value(capsys, ruleset: str, position: str) -> str:
    """The value ``cgf solve --json`` prints."""
    code, out, err = run_cli(capsys, "solve", ruleset, position, "--json")
    assert code == 0, err
    return json.loads(out)["value"]


def _options(driver, side: str) -> list[tuple[str, str]]:
    cards = driver.find_elements(By.CSS_SELECTOR, f"#{side} .option")
    return [
        (c.get_attribute("data-move"), c.find_element(By.CSS_SELECTOR, ".value").text)
        for c in cards
    ]


def _cli_options(capsys, ruleset: str, position: str, side: str) -> list[tuple[str, str]]:
    from cgframework.display.explorer import outline

    return [
        (o["move"], _cli_value(capsys, ruleset, o["position"]))
        for o in outline(ruleset, position, pictures=False)[side]
    ]


def _explore(driver, ruleset: str, position: str) -> None:
    """Type a position into the form and explore it (no reload: Python stays)."""
    Select(driver.find_element(By.ID, "ruleset")).select_by_value(ruleset)
    box = driver.find_element(By.ID, "position")
    box.clear()
    box.send_keys(position)
    driver.find_element(By.ID, "go").click()


def _run_calculator(driver, form: str) -> str:
    driver.find_element(By.ID, f"{form}-go").click()
    wait = WebDriverWait(driver, ANSWER_SECONDS)
    wait.until(lambda d: d.find_element(By.ID, "calc-output").get_attribute("data-exit"))
    return driver.find_element(By.ID, "calc-output").get_attribute("textContent").rstrip("\n")


def _type(driver, element_id: str, text: str) -> None:
    box = driver.find_element(By.ID, element_id)
    box.clear()
    box.send_keys(text)


def _calc(driver, expression: str) -> str:
    """What the calculator prints for ``cgf calc EXPRESSION``."""
    _type(driver, "calc-expression", expression)
    return _run_calculator(driver, "calc")


def _solve(driver, ruleset: str, position: str) -> str:
    """What the calculator prints for ``cgf solve RULESET POSITION``."""
    Select(driver.find_element(By.ID, "solve-ruleset")).select_by_value(ruleset)
    _type(driver, "solve-position", position)
    return _run_calculator(driver, "solve")


def test_a_link_opens_its_position_with_the_values_the_cli_prints(page, capsys):
    from cgframework.display.server import rulesets

    _wait_for_python(page)
    assert _wait_for_node(page, "..|..|..") == _cli_value(capsys, "domineering", "..|..|..")
    listed = page.find_elements(By.CSS_SELECTOR, "#ruleset option")  # (listed by now)
    # every bundled plugin registered in Pyodide, through its wheel's entry points
    assert [o.get_attribute("value") for o in listed] == [r["name"] for r in rulesets()]
    assert _text(page, "fact-outcome").startswith("N")
    assert page.find_element(By.CSS_SELECTOR, "#thermograph svg")
    wait = WebDriverWait(page, ANSWER_SECONDS)
    wait.until(lambda d: all(v for _, v in _options(d, "right")))
    for side in ("left", "right"):
        assert _options(page, side) == _cli_options(capsys, "domineering", "..|..|..", side)
    headless_chromium.shot(page, "try-1-domineering")


def test_an_option_and_the_board_are_clicked(page, capsys):
    page.find_element(By.CSS_SELECTOR, '#left .option[data-move="v1,1"]').click()
    assert _wait_for_node(page, "#.|#.|..") == _cli_value(capsys, "domineering", "#.|#.|..")
    assert "Left v1,1" in _text(page, "crumbs")
    headless_chromium.shot(page, "try-2-option")
    page.find_element(By.CSS_SELECTOR, "#crumbs a.crumb").click()  # back to the start
    _wait_for_node(page, "..|..|..")
    # Right's domino on the bottom row: two clicks on the board
    page.find_element(By.CSS_SELECTOR, '#picture rect[data-cell="2,0"]').click()
    WebDriverWait(page, ANSWER_SECONDS).until(lambda d: "pick again" in _text(d, "message"))
    page.find_element(By.CSS_SELECTOR, '#picture rect[data-cell="2,1"]').click()
    assert _wait_for_node(page, "..|..|##") == _cli_value(capsys, "domineering", "..|..|##")
    assert "Right h3,1" in _text(page, "crumbs")
    headless_chromium.shot(page, "try-3-board")


def test_nim(page, capsys):
    _explore(page, "nim", "1,2")
    assert _wait_for_node(page, "1,2") == _cli_value(capsys, "nim", "1,2") == "*3"
    wait = WebDriverWait(page, ANSWER_SECONDS)
    wait.until(lambda d: all(v for _, v in _options(d, "left")))
    assert _options(page, "left") == _cli_options(capsys, "nim", "1,2", "left")
    assert "#ruleset=nim&position=1%2C2" in page.current_url  # the link to what is shown
    page.find_element(By.CSS_SELECTOR, '#picture circle[data-cell="1,1"]').click()  # a token
    assert _wait_for_node(page, "1,1") == _cli_value(capsys, "nim", "1,1") == "0"
    headless_chromium.shot(page, "try-4-nim")


def test_the_calculator_prints_what_cgf_prints(page, capsys):
    assert not page.find_element(By.ID, "calculator").get_attribute("hidden")
    assert page.find_element(By.ID, "calc-expression").get_attribute("value") == "{1|0} + *"
    assert _run_calculator(page, "calc") == "{1*|*}"  # the form's example
    assert _text(page, "calc-command") == "$ cgf calc '{1|0} + *' --timeout 10"
    code, out, _ = run_cli(capsys, "calc", "{1|0} + *")
    assert (code, out.strip()) == (0, "{1*|*}")

    printed = _solve(page, "clobber", "xoxo")
    code, out, _ = run_cli(capsys, "solve", "clobber", "xoxo")
    assert code == 0
    assert printed.split("\n")[:5] == out.strip().split("\n")[:5]  # (not the time it took)
    headless_chromium.shot(page, "try-5-calculator")

    assert _calc(page, "{1|") == ""
    assert _text(page, "calc-error").startswith("cgf: error: invalid normal expression")


PAST_ITS_TIMEOUT = ["calc", "*4000000 + *3999999 + {1|0}", "--timeout", "0.1"]
"""A calculation of a minute that checks no clock (on Linux, ``cgf`` interrupts the thread
running it past its deadline; Pyodide has no thread): the page stops its worker."""


def test_a_call_past_its_limit_has_its_worker_stopped_as_the_server_does(page):
    query = "args=" + quote(json.dumps(PAST_ITS_TIMEOUT))
    answer = page.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.cgfBackend.call('cgf', arguments[0]).then(done, (e) => done(String(e)));",
        query,
    )
    assert answer["status"] == 200, answer
    data = answer["data"]
    assert data["exit"] == 3  # a limit, as cgf's exit code says
    assert data["command"] == "cgf calc '*4000000 + *3999999 + {1|0}' --timeout 0.1"
    assert data["stderr"].startswith("cgf: error: stopped after ")
    assert data["stderr"].endswith(" s: past the 0.1 s limit (--timeout)")
    _wait_for_python(page)  # (another one)
    assert _calc(page, "{1|0} + *") == "{1*|*}"


def test_stop_ends_a_long_computation_and_python_starts_again(page):
    board = "|".join(["......"] * 6)  # past the node's 10 s
    _explore(page, "domineering", board)
    WebDriverWait(page, ANSWER_SECONDS).until(
        lambda d: d.find_element(By.ID, "stop").is_displayed()
    )
    assert page.find_element(By.ID, "busy").is_displayed()  # "computing..."
    WebDriverWait(page, ANSWER_SECONDS).until(lambda d: _text(d, "fact-position") == board)
    assert _text(page, "fact-value") == "computing\u2026"
    headless_chromium.shot(page, "try-6-computing")
    page.find_element(By.ID, "stop").click()
    WebDriverWait(page, 5).until(lambda d: "stopped" in _text(d, "message").lower())
    assert not page.find_element(By.ID, "stop").is_displayed()
    headless_chromium.shot(page, "try-7-stopped")
    _wait_for_python(page)
    _explore(page, "nim", "3,5")
    assert _wait_for_node(page, "3,5") == "*6"


def test_without_the_server_the_page_still_answers_and_reloads(
    page, address, static_server, capsys
):
    wait = WebDriverWait(page, BOOT_SECONDS)
    wait.until(lambda d: d.execute_script("return document.documentElement.dataset.offline"))
    static_server.shutdown()
    static_server.server_close()
    _explore(page, "domineering", "...|...")
    assert _wait_for_node(page, "...|...") == _cli_value(capsys, "domineering", "...|...")

    page.get(address + "#ruleset=nim&position=" + quote("4,4,1"))
    page.refresh()  # (a new fragment alone loads no page): the page again, from the cache
    _wait_for_python(page)
    assert _wait_for_node(page, "4,4,1") == "*"
    assert _calc(page, "^ + ^") == run_cli(capsys, "calc", "^ + ^")[1].strip() == "^^"
    headless_chromium.shot(page, "try-8-offline")


def test_a_page_whose_python_cannot_start_says_why(page, site, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(site, broken, ignore=shutil.ignore_patterns("pyodide.asm.wasm"))
    with _serving(broken) as server:
        page.get(f"http://127.0.0.1:{server.server_address[1]}/#ruleset=nim&position=1")
        WebDriverWait(page, BOOT_SECONDS).until(lambda d: _python(d) == "failed")
        WebDriverWait(page, 5).until(lambda d: "Python did not start" in _text(d, "message"))
        assert not page.find_element(By.ID, "busy").is_displayed()
