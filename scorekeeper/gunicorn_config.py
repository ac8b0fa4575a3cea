"""gunicorn settings for hosted use (see Procfile); environment variables tune them."""

from __future__ import annotations

import os
from collections.abc import Iterator
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # gunicorn ships no types: its arbiter and workers are what the hooks are given, untyped.
    from gunicorn.arbiter import Arbiter
    from gunicorn.workers.base import Worker

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Each phone holds a live-update stream open; gevent serves them as greenlets,
# so an open stream does not occupy a worker.
worker_class = "gevent"
worker_connections = int(os.environ.get("WORKER_CONNECTIONS", "4000"))
# Phones on a weak connection hold a request open for a while; don't kill them early.
timeout = 60
keepalive = 5
accesslog = None


def on_starting(server: Arbiter) -> None:
    """Bring the database schema up to date once, before any worker starts; make the folder the workers share what
    they draw alike in (`host_cache`), for this run alone."""
    from flask_migrate import upgrade

    from scorekeeper import create_app
    from scorekeeper.host_cache import FOLDER_VARIABLE, make_folder
    from scorekeeper.warm import raise_open_files

    # The workers are forked with this limit: each takes up to `worker_connections` connections.
    raise_open_files()

    # The workers are forked from this process with the database driver it imports here, as imported before gevent
    # patches them: psycopg keeps its wait in C, answering each statement in one go (a tenth of a millisecond here)
    # with the worker held up meanwhile, as SQLite is answered. That measured far better than waiting as gevent does,
    # which let a worker's other greenlets run for a turn of its loop while the game stayed locked: locks held p50
    # 145 ms against 3, CPU per write 16.1 against 10.8 ms (docs/performance.md, "A change in one round trip").
    app = create_app()
    with app.app_context():
        upgrade()
    app.logger.info("database schema up to date; worker processes to start: %d", workers)
    # The workers are forked after this, with this environment.
    os.environ[FOLDER_VARIABLE] = make_folder()


def on_exit(server: Arbiter) -> None:
    """Remove the folder of this run's shared drawings."""
    import shutil

    from scorekeeper.host_cache import FOLDER_VARIABLE

    folder = os.environ.pop(FOLDER_VARIABLE, None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


# A shutdown (SIGTERM: a deploy, a scale-down) ends the open live streams at once, so it
# takes under a second instead of waiting for streams that never end by themselves.
graceful_timeout = 2
# gunicorn's control socket (a management command line over a Unix socket) is not used here; its default path is
# one per user, shared by every server the user runs, and stopping its thread holds up a shutdown.
control_socket_disable = True


# New connections a worker takes each turn of its loop. gunicorn takes one when it runs several workers (so that one
# does not take them all), and past the knee a turn lasts long: 150-400 connections waited in the system's queue,
# each request on a new one up to 44 s before the app saw it (bench/load.py, 480 tables).
ACCEPTED_IN_A_TURN = 16


def accept_in_turn(count: int) -> None:
    """Make the gevent worker take up to `count` new connections in each turn of its loop."""
    from gevent.server import StreamServer
    from gunicorn.workers import ggevent

    class Server(StreamServer):  # type: ignore[misc]  # gevent ships no types
        """gevent's server, taking `count` connections a turn whatever gunicorn set."""

        def start(self) -> None:
            self.max_accept = count
            super().start()

    # gunicorn makes its server from this name when the worker runs, right after this hook.
    ggevent.StreamServer = Server


def post_worker_init(worker: Worker) -> None:
    """Make the worker ready before it takes a request; collect garbage seldom; on SIGTERM, end this worker's live
    streams and its idle keep-alive connections at once."""
    import gc
    import signal
    import time

    from scorekeeper import pace
    from scorekeeper.warm import warm_up

    # Its first requests would compile the templates and compress the static files, holding up every request and
    # stream the worker has meanwhile (the first players after a start or a deploy; a benchmark's first table).
    warm_up(worker.wsgi)
    pace.start(worker.wsgi)
    accept_in_turn(ACCEPTED_IN_A_TURN)

    # A full collection walks every object of the worker (hundreds of open streams and their
    # state) and holds up all of its requests and streams while it does: 75-215 ms each,
    # a few times a minute under load, measured with bench/load.py. What the app has loaded
    # by now stays for good, so it is left out of collections; and collections run far less
    # often (after 10,000 new objects instead of 700), so a full one comes about 50 times more seldom.
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)

    from contextlib import contextmanager

    import gevent
    from gunicorn.http.errors import NoMoreData

    from scorekeeper.live import stop_all_streams

    # The connections waiting for their next request (a browser keeps one open after each answer): a shutdown
    # ends them at once, rather than let each wait out its keep-alive time while the worker waits for them.
    waiting_for_a_request: set[gevent.Greenlet] = set()
    stopping: list[int] = []

    @contextmanager
    def keep_alive_wait() -> Iterator[None]:
        me = gevent.getcurrent()
        waiting_for_a_request.add(me)
        try:
            with gevent.Timeout(0.01 if stopping else worker.cfg.keepalive, False):
                yield
        finally:
            waiting_for_a_request.discard(me)

    worker.timeout_ctx = keep_alive_wait

    # The connections this worker serves, counted as they come and go, so a shutdown can see when the last is gone.
    open_connections = [0]
    handle_connection = worker.handle

    def counted_connection(*args: object) -> None:
        open_connections[0] += 1
        try:
            handle_connection(*args)
        finally:
            open_connections[0] -= 1

    worker.handle = counted_connection

    def end_everything() -> None:
        worker.wsgi.logger.info("process %d stopping: its live streams and idle connections end now", os.getpid())
        if worker.wsgi.config["FIGURES"]:
            from scorekeeper.durations import lines
            from scorekeeper.games import cache_figures

            for line in cache_figures(worker.wsgi) + lines(worker.wsgi):
                worker.wsgi.logger.info("process %d: %s", os.getpid(), line)
        stop_all_streams()
        # Ended as a client that went away ends them (gunicorn notes that quietly): a shutdown is no error, and
        # logs no traceback per connection.
        for idle in list(waiting_for_a_request):
            idle.kill(NoMoreData(b""), block=False)
        # Then the worker leaves as its loop would on finding no connection open, but now: that loop looks once a
        # second, and a shutdown would wait for its next look.
        deadline = time.monotonic() + worker.cfg.graceful_timeout / 2
        while open_connections[0] and time.monotonic() < deadline:
            gevent.sleep(0.01)
        worker.alive = False
        if open_connections[0]:
            worker.wsgi.logger.warning("process %d stopping with %d connections still open", os.getpid(),
                                       open_connections[0])
            return
        worker.wsgi.logger.info("process %d stopped cleanly", os.getpid())
        gevent.get_hub().parent.throw(SystemExit(0))

    def stop(signum: int, frame: FrameType | None) -> None:
        if not stopping:
            stopping.append(signum)
            gevent.spawn(end_everything)

    signal.signal(signal.SIGTERM, stop)
