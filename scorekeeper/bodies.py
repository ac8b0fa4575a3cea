"""A request's body read whole before the app sees it: within a time and a size, a bounded number at once from one
client address, and a body that breaks HTTP (a malformed chunk) answered once, in plain words, the connection then
closed. A slow or broken client so holds a connection for seconds, never for ever, and cannot fill a server's
connections with bodies that never end; the app reads a body that is all there."""

from __future__ import annotations

import io
import socket
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import gevent

CHUNK = 64 * 1024

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class WholeBodies:
    """WSGI middleware: the body of every request that has one read whole (at most `most_bytes` + 1 of it) before
    `app` is called; the app sees a body of known length, or a too-large one that it refuses itself (413).

    A phone's tap is a few hundred bytes and the largest pad file 256 KiB: the app's BODY_SECONDS (10) are the whole
    of either on a poor mobile connection (256 KiB at 200 kbit/s). Its BODIES_PER_ADDRESS (64 a process): a table
    behind one router is nine phones and a host; a school's or a bar's Wi-Fi a few tables."""

    def __init__(self, app: WsgiApp, most_bytes: int, seconds: float, per_address: int) -> None:
        self.app, self.most_bytes, self.seconds, self.per_address = app, most_bytes, seconds, per_address
        self.reading: Counter[str] = Counter()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if not chunked and not environ.get("CONTENT_LENGTH", "").strip("0 "):
            return self.app(environ, start_response)
        address = environ.get("REMOTE_ADDR", "")
        if self.reading[address] >= self.per_address:
            return _answer(environ, start_response, "429 Too Many Requests",
                           "Too many requests at once from this address.")
        self.reading[address] += 1
        try:
            body = self._read(environ["wsgi.input"])
        except gevent.Timeout:
            return _answer(environ, start_response, "408 Request Timeout", "The request's body did not arrive in time.")
        except (OSError, ValueError):
            # gunicorn's InvalidChunkSize and the like (IOError), gevent's pywsgi's (ValueError, IOError).
            return _answer(environ, start_response, "400 Bad Request", "The request's body is not valid HTTP.")
        finally:
            self.reading[address] -= 1
            if not self.reading[address]:
                del self.reading[address]
        connection = _connection(environ)
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        if len(body) <= self.most_bytes:
            return self.app(environ, start_response)

        # Cut short: the rest is never read, so the connection cannot carry another request.
        def closing(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            return start_response(status, [*headers, ("Connection", "close")], *args)

        return _Closing(self.app(environ, closing), connection)

    def _read(self, stream: Any) -> bytes:
        """The body, or its first `most_bytes` + 1; gevent.Timeout once `seconds` have gone."""
        parts, size = [], 0
        with gevent.Timeout(self.seconds):
            while size <= self.most_bytes:
                part = stream.read(min(CHUNK, self.most_bytes + 1 - size))
                if not part:
                    break
                parts.append(part)
                size += len(part)
        return b"".join(parts)


def _connection(environ: dict[str, Any]) -> Any:
    """The client's connection, where the server tells it: gunicorn's, or that under gevent's server's input."""
    found = environ.get("gunicorn.socket")
    if found is None:
        reader = getattr(environ.get("wsgi.input"), "rfile", None)
        found = getattr(getattr(reader, "raw", None), "_sock", None)
    return found if callable(getattr(found, "shutdown", None)) else None


class _Closing:
    """An answer after which its connection reads nothing more: the server then closes it at once, rather than wait
    for (or try to read past) what is left of a request that was never whole."""

    def __init__(self, answer: Iterable[bytes], connection: Any) -> None:
        self.answer, self.connection = answer, connection

    def __iter__(self) -> Any:
        return iter(self.answer)

    def close(self) -> None:
        close = getattr(self.answer, "close", None)
        if close is not None:
            close()
        if self.connection is not None:
            try:
                self.connection.shutdown(socket.SHUT_RD)
            except OSError:
                pass  # gone already: nothing left to read


def _answer(environ: dict[str, Any], start_response: StartResponse, status: str, words: str) -> _Closing:
    """One answer in plain words, and the connection closed: what is left of the request is never read."""
    body = words.encode()
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body))),
                            ("Connection", "close")])
    return _Closing([body], _connection(environ))
