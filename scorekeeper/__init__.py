"""Skull King table companion: the app factory."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

    from .kinds import GameKind

PACKAGE_DIR = Path(__file__).resolve().parent


def resource_dir(name: str) -> str:
    """Where `templates` or `static` is: inside an installed package, else beside it."""
    installed = PACKAGE_DIR / name
    if installed.is_dir():
        return str(installed)
    return str(PACKAGE_DIR.parent / name)


def create_app(test_config: Mapping[str, Any] | None = None,
               games: Iterable[GameKind[Any, Any]] | None = None) -> Flask:
    """Create the app: config from the instance folder, then the environment, then tests; it offers `games`
    (by default every game on the shelf)."""
    # Imported here so `scorekeeper serve` can let gevent patch the standard library first.
    from flask import Flask

    app = Flask(
        __name__,
        instance_path=_instance_path_from_environment(),
        instance_relative_config=True,
        template_folder=resource_dir("templates"),
        static_folder=resource_dir("static"),
    )
    from .extensions import TemplateEnvironment
    from .padfile import MAX_BYTES

    # Set before anything renders: the environment is made on first use.
    app.jinja_environment = TemplateEnvironment
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SECRET_KEY=None,
        SQLALCHEMY_DATABASE_URI="sqlite:///" + os.path.join(app.instance_path, "scorekeeper.sqlite"),
        BABEL_DEFAULT_LOCALE="en",
        LANGUAGES=("en", "de", "fr", "it"),
        # No request is larger than the largest pad file.
        MAX_CONTENT_LENGTH=MAX_BYTES,
        REVEAL_COUNT_SECONDS=float(os.environ.get("SCOREKEEPER_REVEAL_SECONDS", "3")),
        # What each cache was worth and how long writes waited for their lock and held it, logged by each process
        # as it stops (`games.cache_figures`, `durations.lines`; the benchmark's).
        FIGURES=bool(os.environ.get("SCOREKEEPER_FIGURES")),
        PERMANENT_SESSION_LIFETIME=timedelta(days=30),
        # Per client address and minute: typed join codes (guessing), new games and imports (their cost).
        JOIN_TRIES_PER_MINUTE=12,
        # Per browser and minute (ten times as many per address): asking the host for a taken seat.
        SEAT_REQUESTS_PER_MINUTE=5,
        NEW_GAMES_PER_MINUTE=20,
        # How long a link to become another host of a game works (once).
        HOST_GRANT_SECONDS=15 * 60,
        # Per client address (after TRUSTED_PROXIES) and process: request bodies being read at once, live streams
        # open; per game and process, live streams open (see bodies.py and live.py). A request's body in seconds.
        BODIES_PER_ADDRESS=64,
        STREAMS_PER_ADDRESS=32,
        STREAMS_PER_GAME=48,
        BODY_SECONDS=10.0,
        # A write is answered 503 with Retry-After when it waits longer for the database's lock, or when its process
        # runs further behind (see pace.py): the page waits 20 s for an answer, and sends a tap again when told to.
        WRITE_WAIT_SECONDS=5.0,
        BEHIND_SECONDS=1.0,
        TRUSTED_PROXIES=0,
        # Whether a commit waits for the database's disk: by default not, on SQLite (WAL, synchronous=NORMAL) and
        # PostgreSQL (synchronous_commit off) alike: a power cut may lose the last commits, a killed process none.
        COMMIT_WAITS_FOR_DISK=False,
        # No connection is checked before each use (a round trip per request, while a worker waits): when PostgreSQL
        # restarts, each process hears it lose its LISTEN connection and drops its pool (`live.Watcher`); a request
        # that meets a dropped connection before that is answered 503, nothing changed, and comes again.
        SQLALCHEMY_ENGINE_OPTIONS={},
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        if os.environ.get("DATABASE_URL"):
            app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
        if os.environ.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
        for key in ("TRUSTED_PROXIES", "JOIN_TRIES_PER_MINUTE", "NEW_GAMES_PER_MINUTE", "SEAT_REQUESTS_PER_MINUTE",
                    "BODIES_PER_ADDRESS", "STREAMS_PER_ADDRESS", "STREAMS_PER_GAME", "HOST_GRANT_SECONDS"):
            if os.environ.get(key):
                app.config[key] = int(os.environ[key])
        if os.environ.get("COMMIT_WAITS_FOR_DISK"):
            app.config["COMMIT_WAITS_FOR_DISK"] = os.environ["COMMIT_WAITS_FOR_DISK"].lower() in {"1", "true",
                                                                                                  "yes", "on"}
        for key in ("BODY_SECONDS", "WRITE_WAIT_SECONDS", "BEHIND_SECONDS"):
            if os.environ.get(key):
                app.config[key] = float(os.environ[key])
        if os.environ.get("DATABASE_CONNECTIONS"):
            # Each process's connections to the database at most (SQLAlchemy's pool; its default is 5, and 10 more
            # for a while).
            app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {**app.config["SQLALCHEMY_ENGINE_OPTIONS"], "max_overflow": 0,
                                                       "pool_size": int(os.environ["DATABASE_CONNECTIONS"])}
    else:
        app.config.from_mapping(test_config)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = instance_secret(Path(app.instance_path))
    from .logs import log_to_the_server

    log_to_the_server(app)

    from . import assets, extensions, host_cache, kinds, live, pace, views
    from .bodies import WholeBodies
    from .shelf import INSTALLED
    from .views.labels import FRAME_SCRIPT, FRAME_SCRIPTS

    # Every body read whole first, in bounded time and size (inside ProxyFix, so it counts real client addresses).
    app.wsgi_app = WholeBodies(app.wsgi_app, MAX_BYTES, app.config["BODY_SECONDS"],  # type: ignore[method-assign]
                               app.config["BODIES_PER_ADDRESS"])
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies:
        # Behind that many proxies, the client's address, scheme and host come from their headers,
        # so rate limits see real addresses and cookies know the page came over HTTPS.
        from werkzeug.middleware.proxy_fix import ProxyFix

        # Flask's documented way to add a middleware (mypy takes wsgi_app for a method).
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)  # type: ignore[method-assign]
    extensions.init_app(app)
    pace.init_app(app)
    kinds.init_app(app, INSTALLED if games is None else games)
    live.init_app(app)
    host_cache.init_app(app)
    views.init_app(app)
    # The frame's scripts go to the phones as one file.
    assets.init_app(app, {FRAME_SCRIPT: FRAME_SCRIPTS})
    return app


def _instance_path_from_environment() -> str | None:
    path = os.environ.get("SCOREKEEPER_INSTANCE_PATH")
    return os.path.abspath(path) if path else None


def instance_secret(instance: Path) -> str:
    """A secret key kept in the instance folder, made on first start, so sessions survive restarts."""
    path = instance / "secret_key"
    if not path.exists():
        import secrets

        # Exclusive create: with several workers starting at once, only one writes it.
        try:
            with open(path, "x", encoding="ascii") as handle:
                handle.write(secrets.token_hex(32))
            path.chmod(0o600)
        except FileExistsError:
            pass
    return path.read_text(encoding="ascii").strip()
