"""How far behind this process runs, and the writes it turns away meanwhile, so that every tap is answered in time.

Under gevent a process's requests and live streams take turns on one core. When more comes than the core can do,
each turn comes later, and a write waits for every turn it needs (its lock, its answer): past the page's 20 s it is
sent again, and meanwhile it holds up the others. So a greenlet measures how late a short timer fires (`Pace`):
while the process runs more than the app's BEHIND_SECONDS behind, a new write is turned away at once (`check`,
before any work), and so is one that waits past WRITE_WAIT_SECONDS for the database's lock: `Busy`, which the
views answer 503 with Retry-After. The page's waiting tap honours it and goes again, once (its tap id); the process
catches up with what it has taken on. Page loads and live streams are not turned away: they carry no tap to send
again, and a stream costs nothing until its game changes.
"""

from __future__ import annotations

import time

from flask import Flask, Response, current_app, g

from . import durations

EXTENSION = "scorekeeper.pace"
# How often the timer is set, in seconds: what is late by less is not seen.
PERIOD = 0.1


class Busy(Exception):
    """A write turned away before it changed anything: the browser is to send it again later."""


class Pace:
    """How late this process's last timer fired, in seconds: how long a turn takes to come."""

    def __init__(self) -> None:
        self.behind = 0.0

    def follow(self) -> None:
        """Measure, for as long as the process runs."""
        import gevent

        while True:
            started = time.monotonic()
            gevent.sleep(PERIOD)
            self.behind = max(0.0, time.monotonic() - started - PERIOD)


def start(app: Flask) -> None:
    """Follow this process's pace for `app` (a server's process under gevent; tests' apps are never behind)."""
    import gevent

    pace = app.extensions[EXTENSION] = Pace()
    gevent.spawn(pace.follow)


def init_app(app: Flask) -> None:
    """Count how long the app takes to answer each request (`durations`, "answer"): from the view's start to its
    answer made, the wait for the lock and for each turn included."""
    app.before_request(_started)
    app.after_request(_answered)


def _started() -> None:
    g.answer_started = time.perf_counter()


def _answered(response: Response) -> Response:
    started = g.get("answer_started")
    if started is not None:
        durations.note("answer", time.perf_counter() - started)
    return response


def check() -> None:
    """Busy if this process runs more than the app's BEHIND_SECONDS behind."""
    pace: Pace | None = current_app.extensions.get(EXTENSION)
    if pace is not None and pace.behind > current_app.config["BEHIND_SECONDS"]:
        raise Busy(f"{pace.behind:.1f} s behind")
