"""A request's body, on the Procfile's server (gunicorn, gevent) and on `scorekeeper serve` (gevent's own): a body
that breaks HTTP gets one answer and the connection closes; a body that never ends is answered 408 in bounded time;
too many bodies at once from one address are answered 429 at once, without waiting for them."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser import start_server, stop_server
from tests.production import ProductionServer

SETTINGS = {"BODY_SECONDS": "1", "BODIES_PER_ADDRESS": "4"}
HEAD = (b"POST /language HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n")


@pytest.fixture(params=["gunicorn", "serve"])
def port(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """The Procfile's server with one worker, or `scorekeeper serve`, bodies bounded tightly to see it."""
    if request.param == "gunicorn":
        server = ProductionServer(tmp_path, None, WEB_CONCURRENCY="1", **SETTINGS)
        server.start()
        try:
            yield server.port
        finally:
            server.stop()
    else:
        for name, value in SETTINGS.items():
            monkeypatch.setenv(name, value)
        process, url = start_server(tmp_path)
        try:
            yield int(url.rsplit(":", 1)[1])
        finally:
            stop_server(process)


def answers(port: int, request: bytes, wait: float = 4.0) -> tuple[list[bytes], bool]:
    """The status lines sent back on one connection for `request`, and whether the server closed it."""
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(request)
        connection.settimeout(wait)
        data, closed = b"", False
        try:
            while True:
                part = connection.recv(65536)
                if not part:
                    closed = True
                    break
                data += part
        except TimeoutError:
            pass
    return [line for line in data.split(b"\r\n") if line.startswith(b"HTTP/1.")], closed


@pytest.mark.parametrize("body", [b"zz\r\n", b"5\r\nhelloXX0\r\n\r\n", b"5\r\nhello\r\nZZ\r\nxx\r\n0\r\n\r\n"])
def test_a_malformed_chunked_body_gets_one_answer_and_the_connection_closes(port: int, body: bytes) -> None:
    lines, closed = answers(port, HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + body)
    assert len(lines) == 1 and b" 400 " in lines[0] and closed, lines


def test_a_body_that_never_ends_is_answered_in_bounded_time(port: int) -> None:
    started = time.monotonic()
    lines, closed = answers(port, HEAD + b"Content-Length: 100\r\n\r\nlanguage=d", wait=6)
    assert [b" 408 " in line for line in lines] == [True] and closed, lines
    assert time.monotonic() - started < 4


def test_too_many_bodies_at_once_from_one_address_are_refused_at_once(port: int) -> None:
    slow = []
    try:
        for _ in range(4):
            connection = socket.create_connection(("127.0.0.1", port))
            connection.sendall(HEAD + b"Content-Length: 100\r\n\r\nlang")
            slow.append(connection)
        time.sleep(0.3)
        started = time.monotonic()
        lines, closed = answers(port, HEAD + b"Content-Length: 100\r\n\r\nlang", wait=3)
        assert [b" 429 " in line for line in lines] == [True] and closed, lines
        assert time.monotonic() - started < 0.9
    finally:
        for connection in slow:
            connection.close()
    # The slow ones gone, a whole request is served as ever.
    time.sleep(1.2)
    body = b"language=de&next=/"
    lines, _ = answers(port, HEAD + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
    assert len(lines) == 1 and (b" 303 " in lines[0] or b" 400 " in lines[0]), lines
