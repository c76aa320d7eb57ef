"""``cgf explore``'s local web server: the explorer's page and its JSON API.

The standard library's :class:`http.server.ThreadingHTTPServer`, so the core gains no
dependency (a web framework would buy routing for eight GET endpoints). It binds to
127.0.0.1 unless told otherwise, answers GET only, and refuses a request whose ``Host`` is
not the address it serves on (a web page elsewhere cannot reach it by DNS rebinding) or that
another site's page sent (``Sec-Fetch-Site``, ``Origin``).

Endpoints (every answer JSON but the page itself; bad input is HTTP 400 with ``{"error"}``,
never a traceback page):

- ``/api/rulesets``: name, syntax, examples, clickable, cell_states of each ruleset.
- ``/api/outline?ruleset=R&position=P[&first=L]``: the node without values (at once).
- ``/api/outcome?...``: who wins (the outcome search first: often far faster).
- ``/api/node?...[&wait=S]``: the node with values (:func:`cgframework.display.explorer.node`).
- ``/api/move_at?...&picks=cell:0,1;cell:1,1[&player=L][&part=0]``: what clicks make.
- ``/api/edit?...&op=cell&cell=R,C[&part=0]``: the position editor.

Solving is one at a time (the interned value tables are not for several threads): a request
waits for the solver, or with ``wait=S`` answers HTTP 202 ``{"status": "busy"}`` after S
seconds and the page asks again; each node runs under the server's node budget and deadline.
Answers are cached per (ruleset, position, first) in a bounded LRU.
"""

from __future__ import annotations

import json
import socket
import threading
from collections import OrderedDict
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from cgframework.display import explorer
from cgframework.game import Player

STATIC = {
    "/": ("explorer.html", "text/html; charset=utf-8"),
    "/explorer.js": ("explorer.js", "text/javascript; charset=utf-8"),
    "/explorer.css": ("explorer.css", "text/css; charset=utf-8"),
}
CACHE_SIZE = 128
"""Answers kept (nodes with their pictures: up to a few hundred kB each)."""
MAX_QUERY = 1 << 20
"""Longest request line read (a position travels in the query string)."""
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


def static_text(name: str) -> str:
    """A file of the page, from the package data (``cgframework/display/static``)."""
    return resources.files("cgframework.display").joinpath("static", name).read_text("utf-8")


class ExplorerServer(ThreadingHTTPServer):
    """The server: its limits, the solver's lock and the cache of answers."""

    daemon_threads = True
    allow_reuse_address = True  # a restart binds at once; a port still listened on is refused

    def __init__(
        self,
        address: tuple[str, int],
        max_nodes: int | None = explorer.DEFAULT_MAX_NODES,
        timeout: float | None = explorer.DEFAULT_TIMEOUT,
    ) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, ExplorerHandler)
        self.max_nodes = max_nodes
        self.timeout = timeout
        self.solver = threading.Lock()
        self._cache: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self._cache_lock = threading.Lock()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        host = f"[{host}]" if ":" in str(host) else host
        return f"http://{host}:{port}/"

    def cached(
        self, key: tuple[Any, ...], compute: Callable[[], dict[str, Any]], wait: float | None
    ) -> dict[str, Any] | None:
        """The answer for ``key``: from the cache, or computed while holding the solver
        (``None`` if the solver stayed busy ``wait`` seconds)."""
        with self._cache_lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        if not self.solver.acquire(timeout=-1 if wait is None else max(wait, 0.0)):
            return None
        try:
            with self._cache_lock:  # computed while this request waited
                if key in self._cache:
                    return self._cache[key]
            answer = compute()
        finally:
            self.solver.release()
        with self._cache_lock:
            self._cache[key] = answer
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return answer


class ExplorerHandler(BaseHTTPRequestHandler):
    server: ExplorerServer
    server_version = "cgf-explore"
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass  # quiet: the terminal shows the URL and errors only

    def _send(self, status: int, body: str, kind: str = "application/json") -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
        )
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _json(self, status: int, data: Any) -> None:
        self._send(status, json.dumps(data, default=str))

    def _refuse_method(self) -> None:
        self._json(405, {"error": "only GET requests are served"})

    do_POST = do_PUT = do_DELETE = do_PATCH = _refuse_method  # noqa: N815

    def do_HEAD(self) -> None:  # noqa: N802
        self._refuse_method()

    def _same_origin(self) -> bool:
        """Not a request another site's page made (``Sec-Fetch-Site`` and ``Origin``, as
        browsers send them): such a page could not read the answers, but could keep the
        solver busy."""
        if (self.headers.get("Sec-Fetch-Site") or "").lower() in ("cross-site", "same-site"):
            return False
        origin = self.headers.get("Origin")
        if origin is None:
            return True
        host = (self.headers.get("Host") or "").strip().lower()
        return origin.strip().lower() in (f"http://{host}", f"https://{host}")

    def _host_ok(self) -> bool:
        """On loopback, only requests addressed to loopback (DNS-rebinding guard)."""
        bound = str(self.server.server_address[0])
        if bound not in LOOPBACK:
            return True
        host = (self.headers.get("Host") or "").strip().lower()
        name = host.rsplit(":", 1)[0] if not host.startswith("[") else host.split("]")[0] + "]"
        return name in LOOPBACK

    def do_GET(self) -> None:  # noqa: N802
        if len(self.path) > MAX_QUERY:
            self._json(414, {"error": "request too long"})
            return
        if not self._host_ok():
            self._json(403, {"error": "this server answers requests to 127.0.0.1 only"})
            return
        if not self._same_origin():
            self._json(403, {"error": "this server answers its own page only"})
            return
        parts = urlsplit(self.path)
        if parts.path == "/favicon.ico":
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        try:
            if parts.path in STATIC:
                name, kind = STATIC[parts.path]
                self._send(200, static_text(name), kind)
                return
            route = ROUTES.get(parts.path)
            if route is None:
                self._json(404, {"error": f"no such page: {parts.path[:80]}"})
                return
            status, data = route(self.server, query)
            self._json(status, data)
        except explorer.ExplorerError as exc:
            self._json(400, {"error": str(exc)})
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as exc:  # a bug: one line, never a traceback page
            message = " ".join(str(exc).split())[:300]
            self._json(500, {"error": f"internal error: {type(exc).__name__}: {message}"})


def _need(query: dict[str, str], name: str) -> str:
    value = query.get(name)
    if value is None:
        raise explorer.ExplorerError(f"missing parameter {name!r}")
    return value


def _first(query: dict[str, str]) -> Player:
    try:
        return Player.parse(query.get("first", "L"))
    except ValueError as exc:
        raise explorer.ExplorerError(str(exc)) from None


def _number(query: dict[str, str], name: str) -> float | None:
    if name not in query:
        return None
    try:
        value = float(query[name])
    except ValueError:
        raise explorer.ExplorerError(f"{name} must be a number, not {query[name][:20]!r}") from None
    if not value >= 0:
        raise explorer.ExplorerError(f"{name} must be >= 0")
    return value


def _part(query: dict[str, str]) -> int | None:
    if "part" not in query:
        return None
    if not query["part"].isdigit():
        raise explorer.ExplorerError("part must be a summand's number, from 0")
    return int(query["part"])


def _key(kind: str, query: dict[str, str]) -> tuple[Any, tuple[str, str, Player]]:
    """The ruleset and position (checked), and the cache key of a request about them."""
    rs, pos = explorer.resolve(_need(query, "ruleset"), _need(query, "position"))
    from cgframework.game import format_position

    return (rs, pos), (kind, rs.name, format_position(rs, pos), _first(query))  # type: ignore[return-value]


def _rulesets(server: ExplorerServer, query: dict[str, str]) -> tuple[int, Any]:
    from cgframework.plugins import get_registry

    out = []
    for name, rs in sorted(get_registry().rulesets.items()):
        out.append(
            {
                "name": name,
                "syntax": rs.describe(),
                "examples": list(rs.examples()),
                "clickable": getattr(rs, "move_at", None) is not None,
                "cell_states": getattr(rs, "cell_states", "") or "",
            }
        )
    return 200, out


def _outline(server: ExplorerServer, query: dict[str, str]) -> tuple[int, Any]:
    (rs, pos), key = _key("outline", query)
    return 200, explorer.outline(rs, pos, key[3])


def _solved(kind: str, fn: Callable[..., dict[str, Any]]) -> Callable[..., tuple[int, Any]]:
    def route(server: ExplorerServer, query: dict[str, str]) -> tuple[int, Any]:
        (rs, pos), key = _key(kind, query)
        answer = server.cached(
            key,
            lambda: fn(rs, pos, key[3], max_nodes=server.max_nodes, timeout=server.timeout),
            _number(query, "wait"),
        )
        if answer is None:
            return 202, {"status": "busy", "message": "the solver is busy: ask again"}
        return 200, answer

    return route


def _move_at(server: ExplorerServer, query: dict[str, str]) -> tuple[int, Any]:
    picks = [explorer.pick_key(p) for p in _need(query, "picks").split(";") if p]
    player = _player(query["player"]) if query.get("player") else None
    return 200, explorer.move_at(
        _need(query, "ruleset"), _need(query, "position"), picks, player, _part(query)
    )


def _player(text: str) -> Player:
    try:
        return Player.parse(text)
    except ValueError as exc:
        raise explorer.ExplorerError(str(exc)) from None


def _edit(server: ExplorerServer, query: dict[str, str]) -> tuple[int, Any]:
    cell = explorer.pick_key("cell:" + query["cell"]) if "cell" in query else None
    return 200, explorer.edit_cell(
        _need(query, "ruleset"),
        _need(query, "position"),
        query.get("op", "cell"),
        cell,  # type: ignore[arg-type]
        _part(query),
    )


ROUTES: dict[str, Callable[[ExplorerServer, dict[str, str]], tuple[int, Any]]] = {
    "/api/rulesets": _rulesets,
    "/api/outline": _outline,
    "/api/outcome": _solved("outcome", explorer.outcome),
    "/api/node": _solved("node", explorer.node),
    "/api/move_at": _move_at,
    "/api/edit": _edit,
}


def start(
    host: str = "127.0.0.1",
    port: int = 0,
    max_nodes: int | None = explorer.DEFAULT_MAX_NODES,
    timeout: float | None = explorer.DEFAULT_TIMEOUT,
) -> tuple[ExplorerServer, threading.Thread]:
    """A server on ``host:port`` (port 0: a free one), serving on a daemon thread; stop it
    with ``server.shutdown(); server.server_close()``. A busy port raises ``OSError``."""
    server = ExplorerServer((host, port), max_nodes=max_nodes, timeout=timeout)
    thread = threading.Thread(target=server.serve_forever, name="cgf-explore", daemon=True)
    thread.start()
    return server, thread


def page_url(server: ExplorerServer, ruleset: str, position: str) -> str:
    """The page's address for a position."""
    from urllib.parse import urlencode

    return server.url + "?" + urlencode({"ruleset": ruleset, "position": position})
