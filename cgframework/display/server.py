"""``cgf explore``'s local web server: the explorer's page and its JSON API.

An asyncio server speaking HTTP/1.1 through h11 (a small pure-Python protocol library, no
dependencies of its own: its parser refuses malformed requests, two ``Host`` headers and heads
past :data:`MAX_HEAD`). Every limit of its contract is here:

- **Connections.** At most :data:`MAX_CONNECTIONS` open (more are answered 503 and closed); a
  request's head must arrive within :data:`HEAD_SECONDS` of the connection's start or of the
  previous answer, so idle, half-open and trickling connections are closed after a few
  seconds; an answer the client does not take within :data:`WRITE_SECONDS` is dropped.
- **Requests.** GET only; exactly one ``Host`` header, naming the address served (a web page
  elsewhere cannot reach the server by DNS rebinding); none sent by another site's page
  (``Sec-Fetch-Site``, ``Origin``). Bad parameters are HTTP 400 with ``{"error": ...}``, one
  line; no input is answered 500.
- **Work.** The explorer's calls run in two worker processes (:mod:`cgframework.display.worker`),
  one for the solves (``outcome``, ``node``) and one for the rest (``outline``, ``move_at``,
  ``edit``), each one call at a time, under the node's deadline (``--timeout``) and the
  memory ceiling (``--max-memory``), killed and replaced past them. A request waits for its
  worker at most ``wait`` seconds (:data:`MAX_WAIT` by default, and at most), then answers
  HTTP 202 ``{"status": "busy"}`` and the page asks again; at most :data:`MAX_REQUESTS`
  requests are at work or waiting at once (more: 503 ``{"status": "busy"}``). So every
  answer comes within ``wait`` + ``--timeout`` + :data:`~cgframework.display.worker.GRACE`.

Endpoints (every answer JSON but the page itself):

- ``/api/rulesets``: name, syntax, examples, clickable, cell_states of each ruleset.
- ``/api/outline?ruleset=R&position=P[&first=L][&wait=S]``: the node without values.
- ``/api/outcome?...``: who wins (the outcome search first: often far faster).
- ``/api/node?...``: the node with values (:func:`cgframework.display.explorer.node`).
- ``/api/move_at?...&picks=cell:0,1;cell:1,1[&player=L][&part=0]``: what clicks make.
- ``/api/edit?...&op=cell&cell=R,C[&part=0]``: the position editor.

A call stopped past its deadline or out of memory is HTTP 503 ``{"error", "status":
"limit"}``; a plugin's exception, 503 ``{"error", "status": "error"}``. Answers are cached
per request in a bounded LRU. The page (``/``) opens on the position the server was started
with. The browser version (the page at ``try/``) answers the same calls with the same routes
in Pyodide, with no server: :mod:`cgframework.cli.browser`.
"""

from __future__ import annotations

import asyncio
import json
import math
import socket
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any, NamedTuple
from urllib.parse import parse_qs, urlencode, urlsplit

import h11

try:
    import resource
except ImportError:  # (Pyodide: the browser's page uses the routes, never the server)
    resource = None  # type: ignore[assignment]

from cgframework.display import explorer
from cgframework.display.worker import Worker, WorkerBusy
from cgframework.game import Player

STATIC = {
    "/": ("explorer.html", "text/html; charset=utf-8"),
    "/explorer.js": ("explorer.js", "text/javascript; charset=utf-8"),
    "/explorer.css": ("explorer.css", "text/css; charset=utf-8"),
}
CACHE_SIZE = 128
"""Answers kept (nodes with their pictures: up to a few hundred kB each)."""
MAX_HEAD = 64 << 10
"""Longest request head (request line and headers; a position travels in the query)."""
MAX_BODY = 64 << 10
"""Longest request body read (and thrown away: GET requests have none)."""
MAX_CONNECTIONS = 1024
"""Connections open at once at most (fewer if the process may open fewer files)."""
MAX_REQUESTS = 32
"""Requests at work or waiting for a worker at once at most."""
HEAD_SECONDS = 5.0
"""A request's head must arrive within this of the connection's start or previous answer."""
WRITE_SECONDS = 5.0
"""An answer must be taken by the client within this."""
MAX_WAIT = 10.0
"""Seconds a request waits for its worker at most (``wait``'s default and largest value)."""
BACKLOG = 1024
"""Connections the system queues before the server accepts them."""
LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARD = ("0.0.0.0", "::", "")
SOLVES = ("outcome", "node")
CACHED = ("outline", "outcome", "node")
HEADERS = [
    ("Cache-Control", "no-store"),
    ("X-Content-Type-Options", "nosniff"),
    (
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
    ),
]


class BadRequest(ValueError):
    """A request refused with ``status`` and a one-line message (``{"error": message}``,
    and ``"status": "busy"`` for a 503 that asks the client to try again)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status

    def body(self) -> bytes:
        return _error(str(self), busy=self.status == 503)


def static_text(name: str) -> str:
    """A file of the page, from the package data (``cgframework/display/static``)."""
    return resources.files("cgframework.display").joinpath("static", name).read_text("utf-8")


def _connection_cap() -> int:
    """:data:`MAX_CONNECTIONS`, or fewer when the process may open fewer files."""
    if resource is None:
        return MAX_CONNECTIONS
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(16, min(MAX_CONNECTIONS, soft - 64))


class Answer(NamedTuple):
    """An HTTP answer: status, body, content type and any other headers."""

    status: int
    body: bytes
    kind: str
    headers: list[tuple[str, str]] = []


class ExplorerServer:
    """The server: its socket, its limits, its workers and the cache of answers. Serve with
    :meth:`serve_forever` (on a thread: :func:`start`); stop with :meth:`shutdown` then
    :meth:`server_close`."""

    def __init__(
        self,
        address: tuple[str, int],
        max_nodes: int | None = explorer.DEFAULT_MAX_NODES,
        timeout: float | None = explorer.DEFAULT_TIMEOUT,
        home: tuple[str, str] | None = None,
        max_memory: int | None = None,
    ) -> None:
        from cgframework.runtime import memory

        host, port = address
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.create_server((host, port), family=family, backlog=BACKLOG)
        self.server_address = self.socket.getsockname()[:2]
        self.host = host
        self.max_nodes = max_nodes
        self.timeout = timeout
        self.home = home
        self.max_connections = _connection_cap()
        self.max_requests = MAX_REQUESTS
        self.head_seconds = HEAD_SECONDS
        ceiling = memory.ceiling() if max_memory is None else max_memory
        self.solver = Worker("solver", ceiling)
        self.drawer = Worker("drawer", ceiling)
        self._executor = ThreadPoolExecutor(MAX_REQUESTS, thread_name_prefix="cgf-explore")
        self._cache: OrderedDict[tuple[Any, ...], tuple[int, Any]] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._rulesets: bytes | None = None
        self._rulesets_lock = threading.Lock()
        self._open = 0
        self._working = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._started = threading.Event()
        self._done = threading.Event()
        self._static = {path: (static_text(name), kind) for path, (name, kind) in STATIC.items()}

    @property
    def url(self) -> str:
        host, port = self.server_address
        host = f"[{host}]" if ":" in str(host) else host
        return f"http://{host}:{port}/"

    # ---- running -------------------------------------------------------------------------
    def serve_forever(self) -> None:
        """Serve until :meth:`shutdown` (blocks)."""
        try:
            asyncio.run(self._serve())
        finally:
            self._started.set()
            self._done.set()

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._loop.set_exception_handler(_quiet)
        self._stop = asyncio.Event()
        server = await asyncio.start_server(
            self._connection, sock=self.socket, backlog=BACKLOG, limit=MAX_HEAD
        )
        self._started.set()
        async with server:
            await self._stop.wait()
            server.close()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def shutdown(self) -> None:
        """Stop serving (wait until :meth:`serve_forever` has returned)."""
        self._started.wait(10)
        if self._loop is not None and self._stop is not None and not self._done.is_set():
            try:
                self._loop.call_soon_threadsafe(self._stop.set)
            except RuntimeError:  # the loop has already stopped
                pass
            self._done.wait(10)

    def server_close(self) -> None:
        """Close the socket, stop the workers."""
        self.socket.close()
        self._executor.shutdown(wait=False, cancel_futures=True)
        for worker in (self.solver, self.drawer):
            worker.close()

    # ---- connections ---------------------------------------------------------------------
    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._open >= self.max_connections:
            writer.write(_raw_busy())
            writer.close()
            return
        self._open += 1
        conn = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD)
        try:
            while True:
                request = await self._read(reader, conn)
                if request is None:
                    break
                answer = await self._answer(request)
                if not await self._send(writer, conn, answer, request.method):
                    break
                if conn.our_state is h11.MUST_CLOSE or conn.their_state is not h11.DONE:
                    break
                conn.start_next_cycle()
        except h11.RemoteProtocolError as exc:
            if conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):
                body = _error(f"bad HTTP request: {exc}")
                await self._send(writer, conn, Answer(400, body, "application/json"), b"GET")
        except (TimeoutError, OSError, h11.LocalProtocolError):
            pass
        except asyncio.CancelledError:  # the server stops: the connection ends quietly
            pass
        finally:
            self._open -= 1
            writer.close()

    async def _read(self, reader: asyncio.StreamReader, conn: h11.Connection) -> Any:
        """The next request (its body read and dropped), or ``None`` when the connection
        closed or its head did not arrive within :data:`HEAD_SECONDS`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.head_seconds
        request, head, body = None, 0, 0
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    return None
                try:
                    data = await asyncio.wait_for(reader.read(1 << 16), remaining)
                except TimeoutError:
                    return None
                head += len(data) if request is None else 0
                if head > MAX_HEAD:  # (h11 counts an incomplete event only)
                    raise h11.RemoteProtocolError("request head too long", 431)
                conn.receive_data(data)
            elif isinstance(event, h11.Request):
                request = event
            elif isinstance(event, h11.Data):
                body += len(event.data)
                if body > MAX_BODY:
                    raise h11.RemoteProtocolError("request body too long", 413)
            elif isinstance(event, h11.EndOfMessage):
                return request
            else:  # ConnectionClosed, PAUSED
                return None

    async def _send(
        self,
        writer: asyncio.StreamWriter,
        conn: h11.Connection,
        answer: Answer,
        method: bytes,
    ) -> bool:
        """Write one answer; False if the client did not take it in time."""
        status, body = answer.status, answer.body
        headers = [("Content-Type", answer.kind), ("Content-Length", str(len(body))), *HEADERS]
        headers += answer.headers
        if status in (202, 503):
            headers.append(("Retry-After", "1"))
        if status >= 400 and status != 404:
            headers.append(("Connection", "close"))
        data = conn.send(h11.Response(status_code=status, headers=headers))
        if method != b"HEAD" and body:
            data += conn.send(h11.Data(data=body))
        data += conn.send(h11.EndOfMessage())
        writer.write(data)
        try:
            await asyncio.wait_for(writer.drain(), WRITE_SECONDS)
        except (TimeoutError, OSError):
            writer.transport.abort()
            return False
        return True

    # ---- requests ------------------------------------------------------------------------
    async def _answer(self, request: Any) -> Answer:
        """The answer to one request."""
        try:
            self._check_host(request)
            if request.method != b"GET":
                raise BadRequest("only GET requests are served", 405)
            self._check_origin(request)
            parts = urlsplit(request.target.decode("ascii", "replace"))
            if parts.path == "/favicon.ico":
                return Answer(204, b"", "image/x-icon")
            if parts.path == "/" and not parts.query and self.home is not None:
                location = "/?" + urlencode({"ruleset": self.home[0], "position": self.home[1]})
                return Answer(302, b"", "text/plain", [("Location", location)])
            if parts.path in self._static:
                text, kind = self._static[parts.path]
                return Answer(200, text.encode("utf-8"), kind)
            if parts.path == "/api/rulesets":
                listed = self._rulesets or await self._work(self._rulesets_json)
                return Answer(200, listed, "application/json")
            route = ROUTES.get(parts.path)
            if route is None:
                raise BadRequest(f"no such page: {parts.path[:80]}", 404)
            job = route(self, parse_query(parts.query))  # (bad parameters: 400 before any wait)
            status, data = self.cached(job) or await self._work(lambda: self.call(job))
            return Answer(status, json.dumps(data, default=str).encode("utf-8"), "application/json")
        except BadRequest as exc:
            return Answer(exc.status, exc.body(), "application/json")
        except explorer.ExplorerError as exc:
            return Answer(400, _error(str(exc)), "application/json")

    async def _work(self, job: Callable[[], Any]) -> Any:
        """``job()`` on a thread of the pool, if fewer than :data:`MAX_REQUESTS` are at work;
        else 503 busy."""
        if self._working >= self.max_requests:
            raise _Busy()
        self._working += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, job)
        except RuntimeError as exc:  # no thread to be had (can't start new thread)
            raise _Busy() from exc
        finally:
            self._working -= 1

    def _check_host(self, request: Any) -> None:
        """Exactly one ``Host`` header, naming the address served: the bound address and
        port (or ``localhost`` for a loopback one; any address literal when serving on every
        interface). A malformed one is 400, another host 403."""
        hosts = [value for name, value in request.headers if name == b"host"]
        if len(hosts) != 1:
            raise BadRequest("a request needs exactly one Host header")
        text = hosts[0].decode("ascii", "replace").strip().lower()
        parsed = _split_host(text)
        if parsed is None:
            raise BadRequest(f"malformed Host header {text[:80]!r}")
        name, port = parsed
        bound = self.host.lower().strip("[]")
        allowed = name == bound or (bound in LOOPBACK and name in LOOPBACK)
        if bound in WILDCARD:
            allowed = allowed or _ip_literal(name)
        if not allowed or port != self.server_address[1]:
            raise BadRequest(f"this server answers requests to {self.url} only", 403)

    @staticmethod
    def _check_origin(request: Any) -> None:
        """Not a request another site's page made (``Sec-Fetch-Site`` and ``Origin``, as
        browsers send them): such a page could not read the answers, but could keep the
        solver busy."""
        headers = {
            name: value.decode("ascii", "replace").strip().lower()
            for name, value in request.headers
        }
        if headers.get(b"sec-fetch-site") in ("cross-site", "same-site"):
            raise BadRequest("this server answers its own page only", 403)
        origin = headers.get(b"origin")
        if origin is not None and origin not in (
            f"http://{headers[b'host']}",
            f"https://{headers[b'host']}",
        ):
            raise BadRequest("this server answers its own page only", 403)

    def _rulesets_json(self) -> bytes:
        """The rulesets' list, made once."""
        with self._rulesets_lock:
            if self._rulesets is None:
                self._rulesets = json.dumps(rulesets()).encode("utf-8")
            return self._rulesets

    def cached(self, job: Job) -> tuple[int, Any] | None:
        """The answer to ``job`` if it was answered before."""
        if job.name not in CACHED:
            return None
        with self._cache_lock:
            answer = self._cache.get(job.key)
            if answer is not None:
                self._cache.move_to_end(job.key)
            return answer

    def call(self, job: Job) -> tuple[int, Any]:
        """``job`` in its worker, as ``(HTTP status, JSON data)`` (kept in the cache)."""
        worker = self.solver if job.name in SOLVES else self.drawer
        try:
            kind, data = worker.call(job.name, job.kwargs, job.wait, self.timeout)
        except WorkerBusy:
            return 202, {"status": "busy", "message": f"the {worker.name} is busy: ask again"}
        answer = http_answer(kind, data)
        if job.name in CACHED and kind != "error":
            with self._cache_lock:
                self._cache[job.key] = answer
                while len(self._cache) > CACHE_SIZE:
                    self._cache.popitem(last=False)
        return answer


def http_answer(kind: str, data: Any) -> tuple[int, Any]:
    """A worker's reply (:func:`~cgframework.display.worker.run_call`'s ``kind`` and ``data``)
    as ``(HTTP status, JSON data)``."""
    if kind == "ok":
        return 200, data
    if kind == "bad":
        return 400, {"error": data}
    if kind == "limit":
        return 503, {"error": data, "status": "limit"}
    return 503, {"error": f"internal error: {data}", "status": "error"}


def rulesets() -> list[dict[str, Any]]:
    """``/api/rulesets``: name, syntax, examples, clickable and cell_states of each ruleset."""
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
    return out


class Job(NamedTuple):
    """An explorer call a request asks for: its name, arguments and how long it may wait
    for its worker."""

    name: str
    kwargs: dict[str, Any]
    wait: float

    @property
    def key(self) -> tuple[Any, ...]:
        return (self.name, *sorted(self.kwargs.items()))


class _Busy(BadRequest):
    def __init__(self) -> None:
        super().__init__("the server is busy: ask again", 503)


def _quiet(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """What asyncio would log with a traceback (a system out of sockets, say): one line."""
    exc = context.get("exception")
    what = f"{type(exc).__name__}: {exc}" if exc is not None else ""
    print(f"cgf explore: {context.get('message', '')} {what}".strip()[:300], file=sys.stderr)


def _error(message: str, busy: bool = False) -> bytes:
    data: dict[str, str] = {"error": " ".join(message.split())[:400]}
    if busy:
        data["status"] = "busy"
    return json.dumps(data).encode("utf-8")


def _raw_busy() -> bytes:
    """The whole answer to a connection past :data:`MAX_CONNECTIONS`."""
    body = _error("the server is busy: ask again", busy=True)
    head = (
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


def _split_host(text: str) -> tuple[str, int] | None:
    """The name and port of a ``Host`` header's value (port 80 when none is given), or
    ``None`` when it is not one (a user name, a path, another character)."""
    if text.startswith("["):
        end = text.find("]")
        name, rest = text[1:end], text[end + 1 :]
        if end < 0 or not name or any(c not in "0123456789abcdef:." for c in name):
            return None
    else:
        name, colon, port = text.partition(":")
        rest = colon + port
        if not name or not all(c.isascii() and (c.isalnum() or c in "-.") for c in name):
            return None
    if not rest:
        return name, 80
    digits = rest[1:]
    if rest[0] != ":" or not (digits.isascii() and digits.isdigit()) or len(digits) > 5:
        return None
    return name, int(digits)


def _ip_literal(text: str) -> bool:
    try:
        socket.inet_pton(socket.AF_INET6 if ":" in text else socket.AF_INET, text)
    except OSError:
        return False
    return True


def parse_query(text: str) -> dict[str, str]:
    """The query's parameters (the last of repeated ones)."""
    try:
        pairs = parse_qs(text, keep_blank_values=True, max_num_fields=64)
    except ValueError:
        raise BadRequest("too many parameters") from None
    return {k: v[-1] for k, v in pairs.items()}


def _need(query: dict[str, str], name: str) -> str:
    value = query.get(name)
    if value is None:
        raise BadRequest(f"missing parameter {name!r}")
    return value


def _player(text: str) -> Player:
    try:
        return Player.parse(text)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None


def _wait(query: dict[str, str]) -> float:
    """``wait``: seconds, from 0 to :data:`MAX_WAIT` (its default)."""
    if "wait" not in query:
        return MAX_WAIT
    text = query["wait"]
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value <= MAX_WAIT:  # (nan, inf and 1e308 included)
        raise BadRequest(f"wait must be seconds from 0 to {MAX_WAIT:g}, not {text[:20]!r}")
    return value


def _part(query: dict[str, str]) -> int | None:
    if "part" not in query:
        return None
    text = query["part"]
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        raise BadRequest("part must be a summand's number, from 0")
    return int(text)


def _position(query: dict[str, str]) -> dict[str, Any]:
    return {"ruleset": _need(query, "ruleset"), "position": _need(query, "position")}


def _solved(name: str) -> Callable[[ExplorerServer, dict[str, str]], Job]:
    def route(server: ExplorerServer, query: dict[str, str]) -> Job:
        kwargs = {
            **_position(query),
            "first": _player(query.get("first", "L")),
            "max_nodes": server.max_nodes,
            "timeout": server.timeout,
        }
        return Job(name, kwargs, _wait(query))

    return route


def _outline(server: ExplorerServer, query: dict[str, str]) -> Job:
    kwargs = {
        **_position(query),
        "first": _player(query.get("first", "L")),
        "timeout": server.timeout,
    }
    return Job("outline", kwargs, _wait(query))


def _move_at(server: ExplorerServer, query: dict[str, str]) -> Job:
    picks = [explorer.pick_key(p) for p in _need(query, "picks").split(";")[:16] if p]
    player = _player(query["player"]) if query.get("player") else None
    kwargs = {**_position(query), "picks": picks, "player": player, "part": _part(query)}
    return Job("move_at", kwargs, _wait(query))


def _edit(server: ExplorerServer, query: dict[str, str]) -> Job:
    cell = explorer.pick_key("cell:" + query["cell"]) if "cell" in query else None
    op = query.get("op", "cell")
    if op not in explorer.EDITS:
        raise BadRequest(f"unknown edit {op[:40]!r} (one of {', '.join(explorer.EDITS)})")
    kwargs = {**_position(query), "op": op, "cell": cell, "part": _part(query)}
    return Job("edit_cell", kwargs, _wait(query))


ROUTES: dict[str, Callable[[ExplorerServer, dict[str, str]], Job]] = {
    "/api/outline": _outline,
    "/api/outcome": _solved("outcome"),
    "/api/node": _solved("node"),
    "/api/move_at": _move_at,
    "/api/edit": _edit,
}


def start(
    host: str = "127.0.0.1",
    port: int = 0,
    max_nodes: int | None = explorer.DEFAULT_MAX_NODES,
    timeout: float | None = explorer.DEFAULT_TIMEOUT,
    home: tuple[str, str] | None = None,
    max_memory: int | None = None,
) -> tuple[ExplorerServer, threading.Thread]:
    """A server on ``host:port`` (port 0: a free one), serving on a daemon thread, its
    workers starting (a request waits for them as for a busy one); stop it with
    ``server.shutdown(); server.server_close()``. A busy port raises ``OSError``.
    ``home``: the ruleset and position the page opens on; ``max_memory``: each worker's
    ceiling in bytes (default: ``--max-memory``'s, else half the machine's)."""
    server = ExplorerServer((host, port), max_nodes, timeout, home, max_memory)
    thread = threading.Thread(target=server.serve_forever, name="cgf-explore", daemon=True)
    thread.start()
    server.solver.start_soon()
    server.drawer.start_soon()
    return server, thread


def page_url(server: ExplorerServer, ruleset: str, position: str) -> str:
    """The page's address for a position."""
    return server.url + "?" + urlencode({"ruleset": ruleset, "position": position})
