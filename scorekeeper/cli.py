"""The `scorekeeper` command: score a pad file, judge a trick, or serve the app to a table."""

from __future__ import annotations

import sys

if sys.argv[1:2] == ["serve"]:
    # Each phone keeps a live-update stream open: gevent serves them as cheap
    # greenlets. It must patch the standard library before anything else loads.
    from gevent import monkey

    monkey.patch_all()

import json
import socket
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, BinaryIO

import click
from flask.cli import FlaskGroup

from .logs import shown_path
from .padfile import MAX_BYTES, PadError
from .problems import N_, Problem
from .shelf import INSTALLED, score_any

if TYPE_CHECKING:
    from flask import Flask


def _create_app() -> Flask:
    from . import create_app

    return create_app()


# Flask's group, so the app's own commands work too: `scorekeeper db upgrade`, `scorekeeper routes`.
main = FlaskGroup(create_app=_create_app, add_version_option=False, load_dotenv=False,
                  help="Skull King table companion.")


@main.command(with_appcontext=False)
@click.argument("file", type=click.File("rb"))
def score(file: BinaryIO) -> None:
    """Score a pad file of any game (- reads standard input) and print it completed."""
    text = file.read(MAX_BYTES + 1)
    try:
        if len(text) > MAX_BYTES:
            raise PadError([Problem(N_("The file is larger than a pad file ever is (%(most)d KiB)."),
                                    {"most": MAX_BYTES // 1024})])
        completed = score_any(text)
    except PadError as error:
        for message in error.messages():
            click.echo(message, err=True)
        sys.exit(1)
    click.echo(json.dumps(completed, indent=2, ensure_ascii=False))


# A game may bring commands of its own (a trick judge, say).
for _kind in INSTALLED:
    for _command in _kind.commands():
        main.add_command(_command)


def local_address() -> str:
    """This machine's address on the local network, for the other phones."""
    # A UDP "connect" sends nothing; it only asks the kernel which interface
    # would route there. 192.0.2.1 is a documentation address.
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            address: str = probe.getsockname()[0]
            if not address.startswith("0."):
                return address
    except OSError:
        pass
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"


def qr_text(url: str) -> str:
    """The URL as a QR code drawn with block characters, for the terminal."""
    import io

    import qrcode

    code = qrcode.QRCode(border=2)
    code.add_data(url)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def clock(at: float | None = None) -> str:
    """The time of day a console line starts with."""
    return time.strftime("%H:%M:%S", time.localtime(at))


def request_line(method: str, path: str, status: str, seconds: float | None, at: float | None = None) -> str:
    """A request as the console shows it: "12:00:01 GET /games/… 200 12 ms" (a host link's secret left out)."""
    took = f"{seconds * 1000:.0f} ms" if seconds is not None else "-"
    shown = shown_path(path)
    return f"{clock(at)} {method} {shown} {status} {took}"


def stream_line(path: str, seconds: float | None = None, at: float | None = None) -> str:
    """A live stream as the console shows it: when it opens, and when it closes with how long it ran (a stream
    runs for as long as its page is open: minutes are no stuck request)."""
    if seconds is None:
        return f"{clock(at)} live stream opened: {path}"
    minutes, rest = divmod(round(seconds), 60)
    ran = f"{minutes} min {rest} s" if minutes else f"{rest} s"
    return f"{clock(at)} live stream closed after {ran}: {path}"


class ConsoleLog:
    """Where the server writes its request lines: the console, as they come."""

    def write(self, line: str) -> None:
        click.echo(line, nl=False)


def request_logging_handler() -> type:
    """gevent's request handler, writing `request_line`s, and for a live stream `stream_line`s when it opens and
    when it closes."""
    from gevent.pywsgi import WSGIHandler

    class Handler(WSGIHandler):  # type: ignore[misc]  # gevent ships no types
        streaming = False

        def start_response(self, status: str, headers: list[tuple[str, str]], exc_info: object = None) -> object:
            if any(name.lower() == "content-type" and value.startswith("text/event-stream") for name, value in headers):
                self.streaming = True
                self.server.log.write(stream_line(self.path or "") + "\n")
            return super().start_response(status, headers, exc_info)

        def format_request(self) -> str:
            seconds = self.time_finish - self.time_start if self.time_finish else None
            if self.streaming:
                return stream_line(self.path or "", seconds or 0.0)
            status = (self._orig_status or self.status or "000").split()[0]
            return request_line(self.command or "-", self.path or "", status, seconds)

    return Handler


@main.command(with_appcontext=False)
@click.option("--host", default="0.0.0.0", show_default=True,
              help="Interface to listen on; the default lets phones on the network join.")
@click.option("--port", default=5000, show_default=True, type=int)
def serve(host: str, port: int) -> None:
    """Start the app for a table and show the address phones should open."""
    from . import create_app

    def ready(bound_port: int) -> None:
        shown = local_address() if host in ("0.0.0.0", "") else host
        url = f"http://{shown}:{bound_port}/"
        click.echo(f"Skull King scorekeeper is ready. Phones on this network open:\n\n  {url}\n")
        click.echo(qr_text(url))
        click.echo("Press Ctrl+C to stop.", err=True)

    # One line per request on the console, so a host sees at once whether a phone reached it.
    serve_app(create_app(), host, port, ready, log=ConsoleLog(), handler_class=request_logging_handler())


# The connections `scorekeeper serve` takes at once (a table's phones and screens are a few dozen).
CONNECTIONS = 4000


def serve_app(app: Flask, host: str, port: int, ready: Callable[[int], None], log: object = None,
              handler_class: type | None = None) -> None:
    """Bring the database up to date, then serve `app` with gevent until stopped; `ready` is told the port bound."""
    from flask_migrate import upgrade
    from gevent.pool import Pool
    from gevent.pywsgi import WSGIServer

    from . import pace
    from .warm import raise_open_files, warm_up

    with app.app_context():
        upgrade()
    warm_up(app)
    pace.start(app)
    handler = {"handler_class": handler_class} if handler_class is not None else {}
    # As many connections at once as the open files allow, less a margin for the database and the app's files: past
    # that a new one waits to be taken rather than fail (or fail the others) for want of a file.
    connections = Pool(max(64, min(CONNECTIONS, raise_open_files() - 64)))
    server = WSGIServer((host, port), app, log=log, spawn=connections, **handler)
    server.init_socket()
    ready(server.socket.getsockname()[1])
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
