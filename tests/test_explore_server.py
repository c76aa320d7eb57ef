"""``cgf explore``'s server under abuse: the crafted requests of a hostile pass, each
answered within its deadline with 200, 202, 400, 403 or 503 and one JSON line (never a 500,
a hang or a dropped connection), the worker killed past its deadline and replaced, idle,
half-open and trickling connections closed, the caps on connections and requests, one strict
Host check. Every wait here is bounded: a server that hangs fails the test, not the suite."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from urllib.parse import urlencode

import pytest

from cgframework.display import explorer
from cgframework.display.server import start
from cgframework.display.worker import GRACE, Worker

TIMEOUT = 2.0
"""The node deadline of the server under test (``--timeout``)."""


@pytest.fixture(scope="module")
def server():
    srv, thread = start(port=0, timeout=TIMEOUT, home=("nim", "12,7,3"))
    yield srv
    srv.shutdown()
    srv.server_close()
    thread.join(5)


def _port(server) -> int:
    return server.server_address[1]


def _raw(server, data: bytes, seconds: float = 30) -> tuple[int, dict[str, str], bytes]:
    """Send ``data`` on a new connection; the answer's status, headers and body (a server
    that does not answer within ``seconds`` fails the test)."""
    with socket.create_connection(("127.0.0.1", _port(server)), timeout=seconds) as sock:
        sock.sendall(data)
        response = http.client.HTTPResponse(sock)
        response.begin()
        return response.status, dict(response.getheaders()), response.read()


def _get(server, target: str, host: str | None = None, seconds: float = 30) -> tuple[int, object]:
    host = host or f"127.0.0.1:{_port(server)}"
    status, _, body = _raw(
        server, f"GET {target} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode(), seconds
    )
    return status, json.loads(body) if body else None


def _api(server, name: str, seconds: float = 30, **query: str) -> tuple[int, object]:
    return _get(server, f"/api/{name}?{urlencode(query)}", seconds=seconds)


def _one_json_line(data: object) -> bool:
    return isinstance(data, dict) and "\n" not in data["error"] and len(data["error"]) < 400


def _workers_ready(server, seconds: float = 60) -> None:
    """Wait (bounded) until the node worker answers: it starts, or restarts after a kill,
    in the background, and on a loaded machine that takes seconds of the first request."""
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        heap = str(time.monotonic_ns())  # (a position never asked: not a cached answer)
        if _api(server, "node", ruleset="nim", position=heap)[0] == 200:
            return
    pytest.fail(f"the explorer's workers did not answer within {seconds} s")


# ---- work under the deadline -----------------------------------------------------------------
def test_a_nim_heap_of_31_digits_answers_at_once():
    # its marks enumerated the options of *10^30 (45 s and 2.98 GB, then a dropped connection)
    heap = 10**30
    node = explorer.node("nim", str(heap), timeout=TIMEOUT)
    assert (node["status"], node["value"]) == ("ok", f"*{heap}")
    assert len(node["left"]) == explorer.MAX_OPTIONS and node["more_left"] > 0
    assert not node["more_left_exact"]  # 10^30 - 60 more: counted only so far
    assert node["left"][0]["move"] == f"{heap}->{heap - 1}"
    assert all(o["dominated"] is False and o["reversible"] is False for o in node["left"])
    # a nimber option above the root's reverses (*7 of *6 has the answer *6 <= *6)
    marks = {o["move"]: o["reversible"] for o in explorer.node("nim", "3,5")["left"]}
    assert marks["5->4"] is True and marks["3->0"] is False


def test_huge_nodes_answer_within_their_deadline(server):
    # 48.6 s (Hackenbush of 3000 edges) and 28.6 s (a complete WAK graph) against 10 s
    stalk = ",".join(f"{i}-{i + 1}:{'BRG'[i % 3]}" for i in range(3000))
    complete = "complete:" + ",".join(["1"] * 60)
    for ruleset, position in (("hackenbush", stalk), ("wak", complete)):
        _workers_ready(server)  # (a worker starting is not the request's work: seconds here)
        began = time.monotonic()
        status, node = _api(server, "node", ruleset=ruleset, position=position)
        spent = time.monotonic() - began
        assert spent < TIMEOUT + GRACE + 3, (ruleset, spent)
        assert status == 200 or (status == 503 and node["status"] == "limit"), (status, node)
        if status == 200:
            assert node["status"] == "limit" and "--timeout" in node["message"]
            assert len(node["left"]) <= explorer.MAX_OPTIONS


def test_a_call_past_its_deadline_kills_the_worker_and_another_takes_over():
    worker = Worker("test", None)
    worker.start_soon()
    try:
        board = "|".join(["......"] * 6)  # no node limits given to the call: only the kill
        unlimited = {"ruleset": "domineering", "position": board, "timeout": None}
        began = time.monotonic()
        kind, message = worker.call("node", {**unlimited, "max_nodes": None}, 30, 0.3)
        assert (kind, time.monotonic() - began < 30) == ("limit", True)
        assert "past the 0.3 s limit" in message
        kind, node = worker.call("node", {"ruleset": "nim", "position": "3,4,5"}, 30, 5)
        assert (kind, node["value"]) == ("ok", "*2")
        kind, message = worker.call("node", {"ruleset": "nim", "position": "x"}, 30, 5)
        assert kind == "bad" and "invalid nim position" in message
    finally:
        worker.close()


def test_a_worker_runs_under_the_memory_ceiling():
    ceiling = 512 << 20
    worker = Worker("test", ceiling)
    worker.start_soon()
    try:
        assert worker.call("outcome", {"ruleset": "nim", "position": "1"}, 30, 5)[0] == "ok"
        with open(f"/proc/{worker._process.pid}/limits", encoding="ascii") as limits:
            line = next(row for row in limits if row.startswith("Max data size"))
        from cgframework.runtime.memory import STACK_ALLOWANCE

        assert int(line.split()[3]) == ceiling + STACK_ALLOWANCE
    finally:
        worker.close()


# ---- parameters ------------------------------------------------------------------------------
@pytest.mark.parametrize("wait", ["inf", "1e308", "nan", "-1", "11", "soon", ""])
def test_a_bad_wait_is_400_with_one_line(server, wait):
    # inf and 1e308 were HTTP 500 OverflowError
    status, data = _api(server, "node", ruleset="nim", position="3", wait=wait)
    assert status == 400 and "wait must be" in data["error"] and _one_json_line(data)


@pytest.mark.parametrize(
    "target, message",
    [
        ("/api/node?ruleset=nim", "missing parameter 'position'"),
        ("/api/node?ruleset=nim&position=3&first=Q", "unknown player"),
        ("/api/node?ruleset=nim&position=%FF%FE", "invalid nim position"),
        ("/api/outline?ruleset=nope&position=3", "nope"),
        ("/api/move_at?ruleset=nim&position=3&picks=cell:x", "unknown pick"),
        ("/api/move_at?ruleset=nim&position=3&picks=cell:0,0&part=-1", "part must be"),
        ("/api/edit?ruleset=cram&position=..&op=explode", "unknown edit"),
        ("/api/node?" + "&".join(f"p{i}=1" for i in range(100)), "too many parameters"),
    ],
)
def test_bad_parameters_are_400_with_one_line(server, target, message):
    status, data = _get(server, target)
    assert status == 400 and message in data["error"] and _one_json_line(data), data


def test_malformed_http_is_400_and_other_methods_405(server):
    port = _port(server)
    status, _, body = _raw(server, b"NONSENSE\r\n\r\n")
    assert status == 400 and "bad HTTP request" in json.loads(body)["error"]
    huge = f"GET /?{'a' * 70000} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    assert _raw(server, huge)[0] == 400
    post = f"POST /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 1\r\n\r\nx"
    assert _raw(server, post.encode())[0] == 405


# ---- Host ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "host, status",
    [
        ("127.0.0.1:{port}@evil.com", 400),
        ("127.0.0.1:{port}/x", 400),
        ("127.0.0.1:{port}:{port}", 400),
        ("evil.example:{port}", 403),
        ("127.0.0.1.evil.example:{port}", 403),
        ("127.0.0.1:{other}", 403),
        ("127.0.0.1", 403),
        ("localhost:{port}", 200),
        ("127.0.0.1:{port}", 200),
    ],
)
def test_the_host_must_be_the_address_served(server, host, status):
    port = _port(server)
    other = port + 1 if port < 65535 else port - 1
    got, data = _get(server, "/api/rulesets", host=host.format(port=port, other=other))
    assert got == status, data


def test_exactly_one_host_header(server):
    port = _port(server)
    two = f"GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nHost: evil.example\r\n\r\n"
    assert _raw(server, two.encode())[0] == 400  # (was accepted)
    none = b"GET /api/rulesets HTTP/1.0\r\n\r\n"
    status, _, body = _raw(server, none)
    assert status == 400 and "exactly one Host" in json.loads(body)["error"]


# ---- connections -----------------------------------------------------------------------------
def _closed_by_server(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        return sock.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_idle_half_open_and_trickling_connections_are_closed(server):
    server.head_seconds = 1.0
    try:
        held = [socket.create_connection(("127.0.0.1", _port(server))) for _ in range(50)]
        trickle = socket.create_connection(("127.0.0.1", _port(server)))
        began = time.monotonic()
        # others are served meanwhile (nobody was while 300 were held)
        assert _api(server, "outcome", ruleset="nim", position="3,4")[0] == 200
        for _ in range(8):  # one byte of a request head every 0.25 s
            try:
                trickle.sendall(b"G")
            except OSError:
                break
            time.sleep(0.25)
        assert _closed_by_server(trickle, 5)
        assert all(_closed_by_server(sock, 5) for sock in held)
        assert time.monotonic() - began < 10
        # a kept-alive connection is closed too, once idle
        with socket.create_connection(("127.0.0.1", _port(server)), timeout=10) as sock:
            sock.sendall(
                f"GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1:{_port(server)}\r\n\r\n".encode()
            )
            response = http.client.HTTPResponse(sock)
            response.begin()
            response.read()
            assert response.status == 200 and _closed_by_server(sock, 5)
        for sock in held + [trickle]:
            sock.close()
    finally:
        server.head_seconds = 5.0


def test_past_the_connection_cap_the_answer_is_503(server):
    cap = server.max_connections
    server.max_connections = 3
    held = []
    try:
        held = [socket.create_connection(("127.0.0.1", _port(server))) for _ in range(3)]
        time.sleep(0.2)
        status, data = _api(server, "rulesets")
        assert (status, data["status"]) == (503, "busy")
    finally:
        for sock in held:
            sock.close()
        server.max_connections = cap
    deadline = time.monotonic() + 10
    while _api(server, "rulesets")[0] != 200:
        assert time.monotonic() < deadline
        time.sleep(0.1)


def test_past_the_request_cap_the_answer_is_503_and_a_busy_solver_202(server):
    cap = server.max_requests
    server.max_requests = 1
    answers: list[tuple[int, object]] = []
    try:
        with server.solver.lock:  # the solver busy: a request waits its wait=, then 202
            waiting = threading.Thread(
                target=lambda: answers.append(
                    _api(server, "node", ruleset="nim", position="6,7", wait="2")
                )
            )
            waiting.start()
            time.sleep(0.5)
            status, data = _api(server, "node", ruleset="nim", position="6,8", wait="0")
            assert (status, data["status"]) == (503, "busy")  # the one slot is taken
            # bad parameters are refused before any wait
            assert _api(server, "node", ruleset="nim", position="3", wait="inf")[0] == 400
            waiting.join(10)
        assert answers[0][0] == 202 and answers[0][1]["status"] == "busy"
    finally:
        server.max_requests = cap
    assert _api(server, "node", ruleset="nim", position="6,7")[1]["value"] == "*"


def test_the_root_url_opens_on_the_position_served(server):
    # it showed an empty form with another ruleset selected
    host = f"Host: 127.0.0.1:{_port(server)}\r\n\r\n"
    status, headers, _ = _raw(server, f"GET / HTTP/1.1\r\n{host}".encode())
    assert status == 302 and headers["Location"] == "/?ruleset=nim&position=12%2C7%2C3"
    status, _, body = _raw(server, f"GET /?ruleset=nim&position=1 HTTP/1.1\r\n{host}".encode())
    assert status == 200 and b'<script src="explorer.js"' in body
