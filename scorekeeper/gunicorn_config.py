"""gunicorn settings for hosted use (see Procfile); environment variables tune them."""

from __future__ import annotations

import os

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


def on_starting(server) -> None:  # noqa: ANN001
    """Bring the database schema up to date once, before any worker starts."""
    from flask_migrate import upgrade

    from scorekeeper import create_app

    with create_app().app_context():
        upgrade()


# A shutdown (SIGTERM: a deploy, a scale-down) ends the open live streams at once, so it
# takes about a second instead of waiting for streams that never end by themselves.
graceful_timeout = 2


def post_worker_init(worker) -> None:  # noqa: ANN001
    """On SIGTERM, end this worker's live streams and close idle connections at once."""
    import signal

    import gevent

    from scorekeeper.live import stop_all_streams

    def stop(signum, frame) -> None:  # noqa: ANN001
        worker.alive = False
        # Keep-alive connections left idle by the ended streams close without waiting.
        worker.timeout_ctx = lambda: gevent.Timeout(0.01, False)
        gevent.spawn(stop_all_streams)

    signal.signal(signal.SIGTERM, stop)
