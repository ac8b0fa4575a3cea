"""Flask extensions, created once and bound to each app by the factory."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator, MutableMapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlalchemy.exc
from flask import Flask, current_app, has_request_context, request, session
from flask.templating import Environment
from flask_babel import Babel
from flask_compress import Compress
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import Connection, event
from sqlalchemy.dialects import postgresql
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.orm import registry as mapper_registry

from . import pace
from .clock import Moment
from .i18n import install_template_gettext

if TYPE_CHECKING:
    # Installed with the app's PostgreSQL extra, imported where PostgreSQL is used.
    import psycopg

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
def committed_together(connection: Connection) -> Iterator[None]:
    """Statements that answer nothing (inserts, updates, deletes, NOTIFY), then the commit: sent to PostgreSQL
    together and answered at once (psycopg's pipeline, the COMMIT in it), elsewhere one by one. The session's commit
    follows the block (the unit of work's, which alone commits): on PostgreSQL it has nothing left to send. An error
    of a statement is SQLAlchemy's, as if sent alone.

    A worker waits for each answer of PostgreSQL in psycopg's C wait, the whole process held up meanwhile (see
    `gunicorn_config.on_starting`), and on cores the database shares an answer waits for its process to run: a
    change's six to nine statements went one round trip each (docs/performance.md, "A change in one round trip").
    A statement that answers rows does not belong here (SQLAlchemy reads its answer at once).
    """
    if connection.dialect.name != "postgresql":
        yield
        return
    with driven(connection) as driver_connection, driver_connection.pipeline():
        yield
        # The COMMIT as one more statement of the pipeline: psycopg's own commit() would wait for the answers
        # before it, then for its own (docs/performance.md, "A write in two round trips").
        driver_connection.execute("COMMIT")


# The dialect statements sent by psycopg itself (`driven`) are compiled for, once, at import.
POSTGRESQL = postgresql.psycopg.dialect()  # type: ignore[no-untyped-call]


@contextmanager
def driven(connection: Connection) -> Iterator[psycopg.Connection[Any]]:
    """The PostgreSQL driver's own connection under `connection`, for statements psycopg sends together itself (its
    pipeline); their errors are SQLAlchemy's, as if it had sent them: a connection the database dropped is
    invalidated (a new one replaces it) and said so (`connection_invalidated`: answered 503,
    `views.connection_lost`)."""
    import psycopg

    driver_connection = connection.connection.driver_connection
    assert isinstance(driver_connection, psycopg.Connection), "a PostgreSQL connection in use has psycopg's"
    try:
        yield driver_connection
    except psycopg.IntegrityError as error:
        raise sqlalchemy.exc.IntegrityError(None, None, error) from error
    except psycopg.OperationalError as error:
        lost = driver_connection.closed
        if lost:
            # The pool's others are as lost (the database restarted): all replaced, as SQLAlchemy does on its own.
            connection.invalidate(error)
            connection.engine.dispose()
        raise sqlalchemy.exc.OperationalError(None, None, error, connection_invalidated=lost) from error


# A statement's first row as psycopg gives it (a tuple), None if it had none.
FirstRow = tuple[Any, ...] | None


def locked_together(connection: Connection, lock: tuple[str, str], parameters: dict[str, Any],
                    then: Sequence[tuple[str, dict[str, Any] | None]], end: bool = False) -> list[FirstRow]:
    """On PostgreSQL, BEGIN, a statement taking a row's lock and the statements `then` sent together (psycopg's
    pipeline), each statement's first row in order; `end`: the transaction ends with them (a read under the lock,
    nothing written), else it is left open for the change.

    `lock`: the statement waiting for the lock in the database, and the same with NOWAIT. A connection with a
    WRITE_LOCK deadline (a write, a count's end) uses the second: a lock another request holds is waited for here,
    where `time.sleep` lets the process's other requests run (the holder among them, often), as SQLite's is, until
    the deadline (pace.Busy); psycopg waits for the database in C, the whole process held up meanwhile
    (docs/performance.md, "A write in two round trips"). The database runs the statements in order, each reading
    what was committed when it starts: those after the lock read once it is had.
    """
    from psycopg.errors import LockNotAvailable

    deadline = connection.get_execution_options().get(WRITE_LOCK)
    pause = 0.001
    with driven(connection) as driver:
        while True:
            try:
                return _sent_begun(driver, [(lock[deadline is not None], parameters), *then], end)
            except LockNotAvailable as error:
                driver.rollback()
                if deadline is None or time.monotonic() > deadline:
                    raise pace.Busy("no lock in time") from error
                time.sleep(pause)
                pause = min(pause * 2, 0.01)


def begun_together(connection: Connection, statements: Sequence[tuple[str, dict[str, Any] | None]]
                   ) -> list[FirstRow]:
    """On PostgreSQL, the transaction's BEGIN and its first `statements` sent together (psycopg's pipeline), each
    statement's first row in order; the transaction is left open."""
    with driven(connection) as driver:
        return _sent_begun(driver, statements, end=False)


def _sent_begun(driver: psycopg.Connection[Any], statements: Sequence[tuple[str, dict[str, Any] | None]],
                end: bool) -> list[FirstRow]:
    """BEGIN (unless a transaction is open) and `statements` in one pipeline, each one's first row; `end`: and the
    transaction's end."""
    from psycopg.pq import TransactionStatus

    begin = driver.info.transaction_status == TransactionStatus.IDLE
    if begin:
        # BEGIN sent as a statement of the pipeline: psycopg's own would wait for its answer first.
        driver.autocommit = True
    with driver.pipeline():
        if begin:
            driver.execute("BEGIN")
        cursors = [driver.execute(statement, values) for statement, values in statements]
        if end:
            # COMMIT, not ROLLBACK, ends a transaction that wrote nothing: psycopg forgets every statement it prepared
            # on the connection when it sees a ROLLBACK statement (they might have been made in it).
            driver.execute("COMMIT")
    return [cursor.fetchone() for cursor in cursors]


def _sqlite_pragmas(waits_for_disk: bool, dbapi_connection: sqlite3.Connection, connection_record: object) -> None:
    # WAL with synchronous=NORMAL survives a killed process (FULL: a power cut too, each commit waiting for the
    # disk); busy_timeout lets concurrent writers wait for the lock instead of failing at once.
    # SQLAlchemy, not the driver, starts transactions (see _sqlite_begin).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA synchronous={'FULL' if waits_for_disk else 'NORMAL'}")
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


def _postgresql_begin(connection: Connection) -> None:
    # A request's reads go one statement each, with no transaction around them (PostgreSQL's autocommit): read
    # committed, as each statement of a transaction would be, without the BEGIN and ROLLBACK that each cost a round
    # trip while the worker waits (docs/performance.md, "A write in two round trips"). A game is read at one
    # version whatever the statements (`games.read_state`). A write (`begin_write`), a command, a migration, a
    # thread of the server's own are transactions.
    reads = has_request_context() and WRITE_LOCK not in connection.get_execution_options()
    driver_connection = connection.connection.driver_connection
    if driver_connection is not None and driver_connection.autocommit != reads:
        driver_connection.autocommit = reads


def _postgresql_settings(waits_for_disk: bool, dbapi_connection: psycopg.Connection[Any],
                         connection_record: object) -> None:
    # A commit waits for the disk only if the app's COMMIT_WAITS_FOR_DISK says so: by default a commit may be lost
    # to a power cut or a crash of the database server (the last 0.6 s of them), never to the app's, as SQLite's in
    # WAL with synchronous=NORMAL (docs/hosting.md, "The database and the disk").
    dbapi_connection.autocommit = True
    dbapi_connection.execute(f"SET synchronous_commit TO {'on' if waits_for_disk else 'off'}")
    dbapi_connection.autocommit = False


def watch_engines(app: Flask) -> None:
    """Give the app's SQLite engines their pragmas and transaction starts, PostgreSQL's its settings and its reads
    without one."""
    waits_for_disk = bool(app.config["COMMIT_WAITS_FOR_DISK"])
    with app.app_context():
        for engine in db.engines.values():
            if engine.dialect.name == "sqlite":
                event.listen(engine, "connect", partial(_sqlite_pragmas, waits_for_disk))
                event.listen(engine, "begin", _sqlite_begin)
            elif engine.dialect.name == "postgresql":
                event.listen(engine, "connect", partial(_postgresql_settings, waits_for_disk))
                event.listen(engine, "begin", _postgresql_begin)


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
