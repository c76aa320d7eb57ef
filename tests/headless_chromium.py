"""Debian's Chromium in headless mode, driven by Selenium through Debian's chromedriver, for
the tests of the explorer's pages (``cgf explore``'s, and the browser version's at ``try/``).
``.ci/run`` installs both; selenium-manager never downloads a browser.

:func:`require` skips the calling test module without Chromium, chromedriver or selenium,
except under CI (``CI`` set), where it fails it."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver") or (
    "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None
)
SHOTS = os.environ.get("CGF_EXPLORE_SCREENSHOTS")  # a folder: save a screenshot of each step
ARGUMENTS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--window-size=1200,1000",
)

try:
    import selenium  # noqa: F401

    HAVE_SELENIUM = True
except ImportError:
    HAVE_SELENIUM = False


def require() -> None:
    """Skip the calling module (fail it under CI) unless the browser can be driven."""
    if CHROMIUM and DRIVER and HAVE_SELENIUM:
        return
    reason = (
        "Chromium, chromedriver and selenium are needed (apt-get install chromium "
        "chromium-driver; pip install selenium)"
    )
    if os.environ.get("CI"):
        pytest.fail(f"browser tests under CI: {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def chromium(arguments: Iterable[str] = ()) -> Any:
    """A headless Chromium (a fresh profile), with more command-line ``arguments``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (*ARGUMENTS, *arguments):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)


def shot(driver: Any, name: str) -> None:
    """A screenshot of the page into ``$CGF_EXPLORE_SCREENSHOTS/NAME.png``, when set."""
    if SHOTS:
        driver.save_screenshot(os.path.join(SHOTS, name + ".png"))
