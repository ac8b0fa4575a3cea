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
