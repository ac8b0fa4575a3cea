"""Flask extensions, created once and bound to each app by the factory."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from flask import Flask, current_app, request, session
from flask.templating import Environment
from flask_babel import Babel
from flask_compress import Compress
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import Connection, event
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.orm import registry as mapper_registry

from . import pace
from .clock import Moment
from .i18n import install_template_gettext

# The package's folder (its migrations and translations), found here rather than imported from the package,
# whose app factory imports this module.
PACKAGE_DIR = Path(__file__).resolve().parent


class Base(DeclarativeBase):
    """Base class of the models: a moment is stored as UTC and read back timezone-aware (`clock.Moment`)."""

    registry = mapper_registry(type_annotation_map={datetime: Moment})


db = SQLAlchemy(model_class=Base)
migrate = Migrate(directory=str(PACKAGE_DIR / "migrations"), render_as_batch=True)
babel = Babel()
csrf = CSRFProtect()
compress = Compress()


def select_locale() -> str | None:
    """The language the player picked, else the browser's best match."""
    from flask import current_app

    languages = current_app.config["LANGUAGES"]
    chosen = session.get("language")
    if chosen in languages:
        return chosen
    return request.accept_languages.best_match(languages)


class TemplateEnvironment(Environment):
    """Flask's templates, each sharing the environment's globals rather than a map of its own over them.

    A `{% from ... import %}` compares the importing template's globals with the imported one's; with a map
    of its own per template (Jinja's default, for template-specific globals, which the app never sets) that
    comparison looked up every global in two dictionaries, in each block the live stream draws.
    """

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """The environment's own globals, unless a template is given globals of its own."""
        return super().make_globals(d) if d else self.globals


# What else waits for SQLite's lock (a command line's write, a migration) waits at most this long.
_WAIT_FOR_THE_LOCK = "PRAGMA busy_timeout=10000"
# A write's first wait for it, inside SQLite (see _sqlite_begin).
_WAIT_A_MOMENT = "PRAGMA busy_timeout=10"

# An execution option, not the request, says that a transaction is going to write: its value is the moment
# (time.monotonic) until which it waits for the lock.
WRITE_LOCK = "scorekeeper_write_lock"


def write_deadline() -> float:
    """The moment until which a write begun now waits for the lock (the app's WRITE_WAIT_SECONDS from now)."""
    return time.monotonic() + float(current_app.config["WRITE_WAIT_SECONDS"])


def begin_write() -> None:
    """Make the session's next transaction a writer from its start (Busy if the lock is not had in time).

    On SQLite it takes the write lock when it begins (``BEGIN IMMEDIATE``), so reading then
    writing never races another writer: two phones bidding at the same instant are served
    one after the other. On PostgreSQL the row lock taken when the game is loaded does that.
    A process too far behind to answer in time turns the write away first (`pace.check`).
    """
    pace.check()
    if db.session().in_transaction():
        # Whatever was read so far is read again under the lock.
        db.session.rollback()
    db.session.connection(execution_options={WRITE_LOCK: write_deadline()})


@contextmanager
def sent_together(connection: Connection) -> Iterator[None]:
    """Statements that answer nothing (inserts, updates, deletes, NOTIFY, the commit) sent to PostgreSQL together
    and answered at once (psycopg's pipeline), elsewhere one by one.

    A worker waits for each answer of PostgreSQL in psycopg's C wait, the whole process held up meanwhile (see
    `gunicorn_config.on_starting`), and on cores the database shares an answer waits for its process to run: a
    change's six to nine statements went one round trip each (docs/performance.md, "A change in one round trip").
    A statement that answers rows does not belong here (SQLAlchemy reads its answer at once).
    """
    if connection.dialect.name != "postgresql":
        yield
        return
    with connection.connection.driver_connection.pipeline():  # type: ignore[union-attr]
        yield


def _sqlite_pragmas(dbapi_connection: sqlite3.Connection, connection_record: object) -> None:
    # WAL with synchronous=NORMAL survives a killed process; busy_timeout lets
    # concurrent writers wait for the lock instead of failing at once.
    # SQLAlchemy, not the driver, starts transactions (see _sqlite_begin).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(_WAIT_FOR_THE_LOCK)
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    deadline = connection.get_execution_options().get(WRITE_LOCK)
    if deadline is None:
        connection.exec_driver_sql("BEGIN")
        return
    # SQLite's own wait for the lock (busy_timeout) sleeps inside the driver, where a gevent worker can run nothing
    # else: a long one would stall every phone the process serves behind one writer. So it waits a few milliseconds
    # there (another process's writer holds the lock 1 ms at the median, 8 ms at the 99th percentile: nearly every
    # write gets it within them), then goes on waiting here, where time.sleep lets the others run. Waiting here
    # alone cost a turn of the process's loop per try: past the knee, up to seconds (docs/performance.md).
    driver_connection = connection.connection.dbapi_connection
    assert driver_connection is not None, "a connection in use has its driver's"
    cursor = driver_connection.cursor()
    pause = 0.001
    cursor.execute(_WAIT_A_MOMENT)
    try:
        while True:
            try:
                cursor.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error):
                    raise
                if time.monotonic() > deadline:
                    raise pace.Busy("no lock in time") from error
            cursor.execute("PRAGMA busy_timeout=0")
            time.sleep(pause)
            pause = min(pause * 2, 0.01)
    finally:
        cursor.execute(_WAIT_FOR_THE_LOCK)
        cursor.close()


def watch_engines(app: Flask) -> None:
    """Give the app's SQLite engines their pragmas and transaction starts (others need none)."""
    with app.app_context():
        for engine in db.engines.values():
            if engine.dialect.name == "sqlite":
                event.listen(engine, "connect", _sqlite_pragmas)
                event.listen(engine, "begin", _sqlite_begin)


def init_app(app: Flask) -> None:
    """Bind every extension to `app`."""
    db.init_app(app)
    watch_engines(app)
    migrate.init_app(app, db)
    babel.init_app(
        app,
        locale_selector=select_locale,
        default_translation_directories=str(PACKAGE_DIR / "translations"),
    )
    install_template_gettext(app)
    csrf.init_app(app)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    # Brotli's quality 5 makes a page 7 % smaller than Flask-Compress's 4 for 0.07 ms more (a hand's page, 8 KB);
    # above 5 it gains nothing more until the slow levels.
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    # Pages are compressed as they are sent (static files come compressed already, see assets.py);
    # live-update streams (text/event-stream) are left out of the types below, so each event leaves at once.
    app.config.setdefault("COMPRESS_MIMETYPES", [
        "text/html", "text/css", "text/csv", "text/javascript", "application/javascript",
        "application/json", "image/svg+xml",
    ])
    compress.init_app(app)
