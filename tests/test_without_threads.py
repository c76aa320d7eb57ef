"""The core where Python has no ``resource`` module and cannot start a thread, as in Pyodide
(the browser version, ``try/``): what the browser's page uses imports and answers as on
Linux, a search under a budget runs on the calling thread and still stops at its limit,
and deep recursion is a limit or a one-line refusal, never a thread or a traceback.

A fresh interpreter plays Pyodide (:data:`PYODIDE_LIKE`: no ``resource``, ``Thread.start``
refused, and :data:`cgframework.runtime.deep.THREADS` false, as ``sys.platform`` ``emscripten``
makes it); ``tests/test_try_page.py`` runs the real one."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PYODIDE_LIKE = """
import sys, threading
sys.modules["resource"] = None  # import resource: ImportError

def refused(self, *args, **kwargs):
    raise RuntimeError("can't start new thread")

threading.Thread.start = refused
from cgframework.runtime import deep
deep.THREADS = False
"""

SCRIPT = """
import json
from urllib.parse import urlencode
from cgframework.cli import browser
from cgframework.runtime import deep, memory
from cgframework import solve, LimitExceeded

out = {"threads": deep.THREADS, "resident": memory.resident_bytes()}
memory.set_limit(1 << 30)  # no resource limits to set: the value guard alone
out["limit"] = memory.limit()
status, text = browser.call("node", "ruleset=domineering&position=..|..|..")
node = json.loads(text)
out["node"] = [status, node["value"], [o["value"] for o in node["left"]]]
out["calc"] = browser.run_command(["calc", "{1|0} + *"])
out["deep"] = browser.run_command(["solve", "subtraction", "{1}:3000", "--method", "guaranteed"])
try:
    solve("domineering", "|".join(["......"] * 5), max_nodes=200)
except LimitExceeded as exc:
    out["budget"] = str(exc)
board = "|".join(["......"] * 6)
status, text = browser.call("node", urlencode({"ruleset": "domineering", "position": board}))
out["stopped"] = [status, json.loads(text)["status"]]
print(json.dumps(out))
"""


def _pyodide_like(script: str) -> dict:
    env = {**os.environ, "PYTHONSAFEPATH": "1"}
    done = subprocess.run(
        [sys.executable, "-c", PYODIDE_LIKE + script],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_the_browsers_calls_without_resource_and_threads():
    from cgframework.cli import browser

    found = _pyodide_like(SCRIPT)
    assert found["threads"] is False and found["resident"] >= 0
    assert found["limit"] == 1 << 30
    _, text = browser.call("node", "ruleset=domineering&position=..|..|..")
    node = json.loads(text)
    assert found["node"] == [200, node["value"], [o["value"] for o in node["left"]]]
    assert found["calc"] == browser.run_command(["calc", "{1|0} + *"])
    # a recursive method on a long chain: on Linux the deep thread's stack holds it; here the
    # ordinary recursion limit stops it: a limit (exit 3), in one line
    args = ["solve", "subtraction", "{1}:3000", "--method", "guaranteed"]
    assert browser.run_command(args)["exit"] == 0
    deep = found["deep"]
    assert deep["exit"] == 3 and deep["stderr"].count("\n") == 1
    assert "recursed deeper than 1000 frames" in deep["stderr"]
    assert "200" in found["budget"]  # the node budget stops a search on the calling thread
    assert found["stopped"] == [200, "limit"]  # the node's deadline (10 s), kept by its clock
