"""The browser version's load: ``python benchmarks/try_page.py [--site DIR] [--runs 3]``.

Builds the page (``try/build.py``, into a temporary folder; ``--site`` takes one built
before), serves it from a plain static server on this machine that counts the bytes it
sends, and opens ``#ruleset=domineering&position=..|..|..`` in headless Chromium (Debian's,
through chromedriver, as the tests do) ``--runs`` times:

- **cold**: a fresh browser profile (nothing cached), then
- **warm**: the same page loaded again in that browser (the HTTP cache, and the service
  worker's cache once it has kept the files).

For each it measures, from the navigation's start (the page's ``performance.now()``): when
Python is ready (cgframework imported, the rulesets listed: ``data-ready-ms``), and when the
first answer is on the page (the position's value); and the bytes the server sent. Prints a
table of medians, the page's files by size (as sent, and gzip-compressed as a static host
that compresses would send them), and the versions measured. The server is local and not
throttled: the times are the browser's work (downloads at loopback speed, WebAssembly
compiled, Python started); add the download of the sizes at your bandwidth.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
LINK = "#ruleset=domineering&position=" + quote("..|..|..")
VALUE = "{1/2|-2}"
"""The value the page must show (``cgf solve domineering ..|..|..``)."""


class Counting(http.server.SimpleHTTPRequestHandler):
    """A static server's handler that adds up the bytes of what it sends."""

    sent = 0
    requests = 0
    lock = threading.Lock()

    def log_message(self, *args) -> None:
        pass

    def copyfile(self, source, outputfile) -> None:  # (the body of a 200)
        data = source.read()
        outputfile.write(data)
        with Counting.lock:
            Counting.sent += len(data)

    def send_response(self, code, message=None) -> None:
        with Counting.lock:
            Counting.requests += 1
        super().send_response(code, message)


def serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(Counting, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def browser():
    sys.path.insert(0, str(ROOT / "tests"))
    import headless_chromium

    return headless_chromium.chromium()


def cpu_seconds(root: int) -> float:
    """CPU seconds (user and system) of process ``root`` and its descendants (Linux
    ``/proc``): the browser's work, whatever else the machine is doing."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    tree, grown = {root}, True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grown = bool(more)
    return sum(times.get(pid, 0.0) for pid in tree)


def load(driver, url: str, reload: bool) -> dict[str, float]:
    """Open (or reload) the page; milliseconds to Python ready and to the first answer, the
    browser's CPU milliseconds meanwhile, and the bytes and requests the server answered."""
    root = driver.service.process.pid
    cpu = cpu_seconds(root)
    with Counting.lock:
        Counting.sent = Counting.requests = 0
    if reload:
        driver.refresh()
    else:
        driver.get(url + LINK)
    deadline = time.monotonic() + 300
    first = None
    while time.monotonic() < deadline:
        value, now, ready, phases = driver.execute_script(
            "const data = document.documentElement.dataset;"
            "return [document.getElementById('fact-value').textContent, performance.now(),"
            " data.readyMs || null, data.phases || '{}'];"
        )
        if value == VALUE and ready is not None:
            first = now
            break
        time.sleep(0.02)
    if first is None:
        raise SystemExit("the page did not answer within 300 s")
    cpu = cpu_seconds(root) - cpu
    return {
        **{name: seconds * 1000 for name, seconds in json.loads(phases).items()},
        "cpu": cpu * 1000,
        "ready": float(ready),
        "answer": first,
        "bytes": Counting.sent,
        "requests": Counting.requests,
    }


def offline_ready(driver) -> bool:
    """Wait (a minute at most) for the service worker to keep the files."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if driver.execute_script("return document.documentElement.dataset.offline || null"):
            return True
        time.sleep(0.1)
    return False


def sizes(site: Path) -> list[tuple[str, int, int]]:
    out = []
    for path in sorted(site.rglob("*")):
        if path.is_file() and not path.name.startswith("."):
            data = path.read_bytes()
            out.append((path.relative_to(site).as_posix(), len(data), len(gzip.compress(data, 6))))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a folder built by try/build.py")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        site = args.site
        if site is None:
            site = Path(scratch) / "try"
            subprocess.run([sys.executable, str(ROOT / "try" / "build.py"), str(site)], check=True)
        server, url = serve(site)
        load_before = os.getloadavg()[0]
        cold, warm = [], []
        version = ""
        for _ in range(args.runs):
            driver = browser()
            try:
                version = driver.capabilities.get("browserVersion", "")
                cold.append(load(driver, url, reload=False))
                offline_ready(driver)
                warm.append(load(driver, url, reload=True))
            finally:
                driver.quit()
        server.shutdown()
        files = sizes(site)
    load_after = os.getloadavg()[0]
    print(f"{args.runs} runs, medians; headless Chromium {version}, static server on loopback;")
    print(f"{os.cpu_count()} cores, load average {load_before:.1f} before, {load_after:.1f} after")
    print(
        "| load | Python ready | first answer (value shown) | browser CPU to the answer"
        " | bytes sent | requests |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for name, runs in (("cold (empty cache)", cold), ("warm (reload)", warm)):
        ready, answer, cpu = (
            statistics.median(r[key] for r in runs) / 1000 for key in ("ready", "answer", "cpu")
        )
        sent = statistics.median(r["bytes"] for r in runs)
        count = statistics.median(r["requests"] for r in runs)
        print(
            f"| {name} | {ready:.1f} s | {answer:.1f} s | {cpu:.1f} s | {sent / 1e6:.2f} MB"
            f" | {count:g} |"
        )
    total, packed = sum(f[1] for f in files), sum(f[2] for f in files)
    print("\nin the worker (seconds from its start, medians): Pyodide loaded, wheels installed,")
    print("cgframework imported; then the page asks for the rulesets (every plugin imported)")
    for name, runs in (("cold", cold), ("warm", warm)):
        laps = ", ".join(
            f"{phase} {statistics.median(r.get(phase, 0) for r in runs) / 1000:.1f} s"
            for phase in ("pyodide", "wheels", "import")
        )
        print(f"- {name}: {laps}")
    print(f"\nthe page's files: {total / 1e6:.1f} MB ({packed / 1e6:.1f} MB gzip-compressed)")
    groups: dict[str, list[int]] = {}
    for name, size, zipped in files:
        group = name.split("/")[0] if "/" in name else "page (html, js, css)"
        if name.startswith("pyodide/"):
            group = name
        sums = groups.setdefault(group, [0, 0])
        sums[0] += size
        sums[1] += zipped
    print("| files | size | gzip |")
    print("| --- | --- | --- |")
    for group, (size, zipped) in sorted(groups.items(), key=lambda g: -g[1][0]):
        print(f"| {group} | {size / 1e6:.2f} MB | {zipped / 1e6:.2f} MB |")


if __name__ == "__main__":
    main()
