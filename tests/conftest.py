"""Shared fixtures: an app on a fresh SQLite file, its client and CLI runner."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.kinds import GameKind

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_PAD = ROOT / "examples" / "pad.json"


@pytest.fixture
def example_pad() -> dict[str, Any]:
    """The example pad of the pad-format description."""
    return json.loads(EXAMPLE_PAD.read_text(encoding="utf-8"))


@pytest.fixture
def finished_pad() -> dict[str, Any]:
    """A whole game of two hands for two (modern rules, custom rounds): imported, it shows its end."""
    return {"format": "skull-king-pad", "version": 1, "ruleset": "modern",
            "options": {"scoring": "standard", "rounds": [1, 2]}, "players": ["Anne", "Ben"],
            "hands": [{"cards": n, "entries": [{"player": "Anne", "bid": n, "tricks": n},
                                               {"player": "Ben", "bid": 0, "tricks": 0}]} for n in (1, 2)]}


# The suite runs on SQLite always; given a PostgreSQL URL here, it runs there instead.
TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """An empty database for one test: a SQLite file, or the test PostgreSQL emptied."""
    if not TEST_DATABASE_URL:
        return f"sqlite:///{tmp_path / 'test.sqlite'}"
    from sqlalchemy import create_engine

    engine = create_engine(TEST_DATABASE_URL)
    with engine.begin() as connection:
        connection.exec_driver_sql("DROP SCHEMA public CASCADE")
        connection.exec_driver_sql("CREATE SCHEMA public")
    engine.dispose()
    return TEST_DATABASE_URL


def make_app(database_url: str, games: Sequence[GameKind[Any, Any]] | None = None, **config: Any) -> Flask:
    """An app for tests on `database_url`, migrated to the newest schema, offering `games` (by default the shelf's)."""
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test",
        "WTF_CSRF_ENABLED": False,
        "REVEAL_COUNT_SECONDS": 0,
        # Tests start far more games a minute than any table; the limit has its own test.
        "NEW_GAMES_PER_MINUTE": 100_000,
        "SQLALCHEMY_DATABASE_URI": database_url,
        **config,
    }, games)
    with app.app_context():
        upgrade()
    return app


def stop_watching(app: Flask) -> None:
    """A test's app let go: its live watcher stops (else its thread polls on, with `time.sleep`, through every later
    test, one that counts sleeps among them) and its database connections close."""
    app.extensions["live_watcher"].stop()
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def app(database_url: str) -> Iterator[Flask]:
    """An app on its own empty database, migrated to the newest schema."""
    app = make_app(database_url)
    yield app
    stop_watching(app)


@pytest.fixture
def every_game_app(database_url: str) -> Iterator[Flask]:
    """An app offering every game on the shelf and the test game (`tests/highcard`), registered with one line."""
    from scorekeeper.shelf import INSTALLED
    from tests.highcard.kind import HIGH_CARD

    app = make_app(database_url, games=[*INSTALLED, HIGH_CARD])
    yield app
    stop_watching(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client for the app."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """A runner for the app's Flask commands."""
    return app.test_cli_runner()


pytest_plugins = ["tests.browser"]
