"""What the server says of what happened: the app's logger wired to the server's log, and paths with no secret."""

from __future__ import annotations

import logging
import re
from types import TracebackType

from flask import Flask, request

# A host link carries the key that runs a game: never in a log line or on a screen others may see.
HOST_LINK = re.compile(r"(/host/)[^/?\s]+")


def one_line(error: BaseException) -> str:
    """An error as one line of a log: its type and its first line."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


class Trouble:
    """What went wrong with one part of a process (its live watcher, its host cache), said in the log once until it
    is right again: a part that fails on every try does not fill the log."""

    def __init__(self, logger: logging.Logger, part: str) -> None:
        self.logger, self.part = logger, part
        # What is wrong now (None: all is well).
        self.now: str | None = None

    def said(self, what: str, detail: str = "") -> None:
        """`what` went wrong (`detail`: the error and what the process does meanwhile), unless said already."""
        if what != self.now:
            self.now = what
            self.logger.warning("%s: %s%s", self.part, what, detail)

    def over(self, what: str) -> None:
        """All is well again, as `what` says, if something was wrong."""
        if self.now is not None:
            self.now = None
            self.logger.info("%s: %s", self.part, what)


def shown_path(path: str) -> str:
    """A request's path as a log line or a console shows it: a host link's key left out."""
    return HOST_LINK.sub(r"\1…", path)


def log_to_the_server(app: Flask) -> None:
    """The app says what happened through `app.logger`, one line an event: under gunicorn into its error log (its
    handlers, its level), else on the console (Flask's own handler) from INFO up. A request that fails is logged
    with its traceback, its path shown without a host link's key."""
    server = logging.getLogger("gunicorn.error")
    if server.handlers:
        app.logger.handlers = list(server.handlers)
        app.logger.setLevel(server.level)
        app.logger.propagate = False
    else:
        if app.logger.level == logging.NOTSET:
            app.logger.setLevel(logging.INFO)
        # Said once, by Flask's own handler: the root logger may have a console handler of its own (the migrations'
        # logging setup gives it one), which would print every line twice.
        app.logger.propagate = False

    def log_exception(exc_info: tuple[type[BaseException], BaseException, TracebackType]
                      | tuple[None, None, None]) -> None:
        app.logger.error("request failed: %s %s", request.method, shown_path(request.path), exc_info=exc_info)

    # Flask's own line names the path as it came, a host link's key with it.
    app.log_exception = log_exception  # type: ignore[method-assign]
