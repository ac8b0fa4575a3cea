"""The app factory's configuration and the database schema."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask

from scorekeeper import create_app
from scorekeeper.extensions import db


def test_the_database_defaults_to_sqlite_in_the_instance_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'instance' / 'scorekeeper.sqlite'}"
    assert (tmp_path / "instance" / "secret_key").exists()
    assert app.config["SECRET_KEY"] == create_app().config["SECRET_KEY"]


def test_database_url_overrides_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'elsewhere.sqlite'}")
    assert create_app().config["SQLALCHEMY_DATABASE_URI"].endswith("elsewhere.sqlite")


def test_the_migrations_build_exactly_the_models(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert differences == []


def test_sqlite_runs_in_wal_mode(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as connection:
        if connection.dialect.name != "sqlite":
            pytest.skip("SQLite settings; this run is on another database")
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


@pytest.mark.parametrize("waits", [False, True])
def test_a_commit_waits_for_the_disk_only_when_the_host_says_so(database_url: str, waits: bool) -> None:
    """By default a commit does not wait for the disk, on SQLite (synchronous=NORMAL in WAL) as on PostgreSQL
    (synchronous_commit off); COMMIT_WAITS_FOR_DISK makes each one wait (FULL, on)."""
    from tests.conftest import make_app, stop_watching

    app = make_app(database_url, COMMIT_WAITS_FOR_DISK=waits)
    with app.app_context(), db.engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == (2 if waits else 1)
        else:
            assert connection.exec_driver_sql("SHOW synchronous_commit").scalar() == ("on" if waits else "off")
    stop_watching(app)
