"""Flask extensions, created once and bound to each app by the factory."""

from __future__ import annotations

from flask import Flask, g, has_request_context, request, session
from flask_babel import Babel
from flask_compress import Compress
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase

from . import PACKAGE_DIR


class Base(DeclarativeBase):
    """Base class of the models."""


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


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, connection_record) -> None:  # noqa: ANN001
    # WAL with synchronous=NORMAL survives a killed process; busy_timeout lets
    # concurrent writers wait for the lock instead of failing at once.
    module = type(dbapi_connection).__module__
    if not module.startswith("sqlite3"):
        return
    # SQLAlchemy, not the driver, starts transactions (see _sqlite_begin).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def write_transactions() -> None:
    """Make this request's next transactions writers from their start (see _sqlite_begin)."""
    g.write_transaction = True


@event.listens_for(Engine, "begin")
def _sqlite_begin(connection) -> None:  # noqa: ANN001
    # A request that changes state takes SQLite's write lock when its transaction
    # begins, so reading then writing never races another writer (two phones
    # bidding at the same instant are served one after the other).
    if connection.dialect.name != "sqlite":
        return
    writing = has_request_context() and (request.method not in SAFE_METHODS or g.get("write_transaction"))
    connection.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")


def init_app(app: Flask) -> None:
    """Bind every extension to `app`."""
    db.init_app(app)
    migrate.init_app(app, db)
    babel.init_app(
        app,
        locale_selector=select_locale,
        default_translation_directories=str(PACKAGE_DIR / "translations"),
    )
    csrf.init_app(app)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    # Pages are compressed as they are sent (static files come compressed already, see assets.py);
    # live-update streams (text/event-stream) are left out of the types below, so each event leaves at once.
    app.config.setdefault("COMPRESS_MIMETYPES", [
        "text/html", "text/css", "text/csv", "text/javascript", "application/javascript",
        "application/json", "image/svg+xml",
    ])
    compress.init_app(app)
