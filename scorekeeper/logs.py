"""What the server says of what happened: the app's logger wired to the server's log, and paths with no secret."""

from __future__ import annotations

import logging
import re
from types import TracebackType

from flask import Flask, request

# A host link carries the key that runs a game: never in a log line or on a screen others may see.
HOST_LINK = re.compile(r"(/host/)[^/?\s]+")


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
