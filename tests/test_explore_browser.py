"""``cgf explore`` in a real headless browser: Debian's Chromium driven by Selenium through
Debian's chromedriver (:mod:`headless_chromium`). Open the page of a Domineering position,
click an option, see the new position and its value, come back by the path, click two board
cells to move, and edit a cell.

Without Chromium the tests are skipped, except under CI (``CI`` set), where they fail."""

from __future__ import annotations

import headless_chromium
import pytest

from cgframework.display.server import page_url, start

headless_chromium.require()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

_shot = headless_chromium.shot

START = "..#|...|.#."


@pytest.fixture(scope="module")
def server():
    srv, thread = start(port=0)
    yield srv
    srv.shutdown()
    srv.server_close()
    thread.join(5)


@pytest.fixture(scope="module")
def browser():
    driver = headless_chromium.chromium()
    yield driver
    driver.quit()


def _text(driver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


def _wait_for_node(driver, position: str) -> str:
    """Wait until the page shows ``position`` with its value; return the value."""
    wait = WebDriverWait(driver, 30)
    wait.until(lambda d: _text(d, "fact-position") == position)
    wait.until(lambda d: _text(d, "fact-value") not in ("", "computing\u2026"))
    return _text(driver, "fact-value")


def test_browse_down_and_back_and_click_the_board(server, browser):
    browser.get(page_url(server, "domineering", START))
    assert _wait_for_node(browser, START) == "{2|0}"
    assert _text(browser, "fact-outcome").startswith("N")
    WebDriverWait(browser, 30).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#left .option.dominated")
    )
    left = browser.find_elements(By.CSS_SELECTOR, "#left .option")
    assert [o.get_attribute("data-move") for o in left] == ["v1,1", "v1,2", "v2,1", "v2,3"]
    assert "reversible" in left[2].get_attribute("class")
    assert browser.find_element(By.CSS_SELECTOR, "#thermograph svg")
    _shot(browser, "1-start")

    left[1].click()  # v1,2: worth 2
    assert _wait_for_node(browser, ".##|.#.|.#.") == "2"
    assert "Left v1,2" in _text(browser, "crumbs")
    _shot(browser, "2-option")

    browser.find_element(By.CSS_SELECTOR, "#crumbs a.crumb").click()
    assert _wait_for_node(browser, START) == "{2|0}"

    # Right's domino on (1,0)-(1,1): two clicks on the board
    browser.find_element(By.CSS_SELECTOR, '#picture rect[data-cell="1,0"]').click()
    WebDriverWait(browser, 30).until(lambda d: "pick again" in _text(d, "message"))
    browser.find_element(By.CSS_SELECTOR, '#picture rect[data-cell="1,1"]').click()
    assert _wait_for_node(browser, "..#|##.|.#.") == "0"
    assert "Right h2,1" in _text(browser, "crumbs")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#components .component")) == 3
    _shot(browser, "3-board-click")


def test_the_editor_changes_a_cell(server, browser):
    browser.get(page_url(server, "domineering", "..|.."))
    assert _wait_for_node(browser, "..|..") == "+-1"
    browser.find_element(By.ID, "edit").click()
    browser.find_element(By.CSS_SELECTOR, '#picture rect[data-cell="0,0"]').click()
    assert _wait_for_node(browser, "#.|..") == "*"
    assert _text(browser, "fact-position") == "#.|.."
    assert browser.find_element(By.ID, "position").get_attribute("value") == "#.|.."
    _shot(browser, "4-edit")


def test_a_loopy_value_shown_or_why_it_is_unknown(server, browser):
    """tis is ``1 & 0``; a non-stopper too big for the sides' search shows why it has no
    value, never its outcome letter in the value's place."""
    browser.get(page_url(server, "partizan-digraph", "0>1:L,1>0:R;0"))
    assert _wait_for_node(browser, "0>1:L,1>0:R;0") == "1 & 0"
    n = 400  # a cycle of Left and Right arcs: a non-stopper of 400 positions
    arcs = ",".join(f"{i}>{(i + 1) % n}:{'LR'[i % 2]}" for i in range(n)) + ",0>0:L"
    browser.get(page_url(server, "partizan-digraph", arcs + ";0"))
    shown = _wait_for_node(
        browser, arcs.removesuffix(",0>0:L").replace("0>1:L", "0>0:L,0>1:L") + ";0"
    )
    assert shown.startswith("unknown: the onside of a game of 400 positions"), shown


def test_a_node_past_its_limits_shows_its_options_and_says_so(browser):
    srv, thread = start(port=0, timeout=0.5)
    try:
        board = "|".join(["......"] * 6)
        browser.get(page_url(srv, "domineering", board))
        wait = WebDriverWait(browser, 30)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#left .option")) == 30)
        wait.until(lambda d: _text(d, "fact-value") == "too large (limit)")
        assert _text(browser, "fact-outcome") == "too large (limit)"
        assert "search stopped after 0.5 s" in _text(browser, "message")
        _shot(browser, "5-limit")
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(5)


def test_the_root_url_opens_on_the_position_served_and_cards_mark_what_was_taken(browser):
    from cgframework.display.pictures import LEFT_COLOUR

    srv, thread = start(port=0, home=("nim", "12,7,3"))
    try:
        browser.get(srv.url)  # (an empty form with another ruleset selected, before)
        assert _wait_for_node(browser, "12,7,3") == "*8"
        assert browser.find_element(By.ID, "ruleset").get_attribute("value") == "nim"
        assert browser.find_element(By.ID, "position").get_attribute("value") == "12,7,3"
        card = browser.find_element(By.CSS_SELECTOR, '#left .option[data-move="12->6"]')
        tokens = card.find_elements(By.CSS_SELECTOR, "circle.token")
        taken = [
            t.get_attribute("data-cell") for t in tokens if t.get_attribute("fill") == LEFT_COLOUR
        ]
        assert len(tokens) == 22 and taken == [f"0,{k}" for k in range(6, 12)]
        _shot(browser, "6-nim-cards")
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(5)
