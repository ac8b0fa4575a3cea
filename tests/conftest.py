"""Shared fixtures: an app on a fresh SQLite file, its client and CLI runner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from flask_migrate import upgrade

from scorekeeper import create_app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_PAD = ROOT / "examples" / "pad.json"


@pytest.fixture
def example_pad() -> dict[str, Any]:
    """The example pad of the pad-format description."""
    return json.loads(EXAMPLE_PAD.read_text(encoding="utf-8"))


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """An app on its own SQLite database, migrated to the newest schema."""
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test",
        "WTF_CSRF_ENABLED": False,
        "REVEAL_COUNT_SECONDS": 0,
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite'}",
    })
    with app.app_context():
        upgrade()
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client for the app."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """A runner for the app's Flask commands."""
    return app.test_cli_runner()


pytest_plugins = ["tests.browser"]
