"""The installed package, not only the checkout, has its templates, static files and migrations."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.conftest import ROOT

CHECK = """
import os, sys, tempfile
import scorekeeper
from flask_migrate import upgrade
assert "site" in scorekeeper.__file__ or os.environ["TARGET"] in scorekeeper.__file__, scorekeeper.__file__
folder = tempfile.mkdtemp()
app = scorekeeper.create_app({"TESTING": True, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False,
                              "SQLALCHEMY_DATABASE_URI": "sqlite:///" + folder + "/db.sqlite"})
with app.app_context():
    upgrade()
client = app.test_client()
page = client.get("/games/new")
assert page.status_code == 200 and b"Start the game" in page.data, page.status_code
assert client.get("/static/htmx-2.0.11.min.js").status_code == 200
print("installed package works")
"""


def test_an_installed_wheel_serves_its_pages(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
                   check=True, capture_output=True, timeout=300)
    wheel = next(wheels.glob("*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"scorekeeper/templates/base.html", "scorekeeper/static/htmx-2.0.11.min.js",
            "scorekeeper/static/app.css", "scorekeeper/migrations/alembic.ini"} <= names
    assert any(n.startswith("scorekeeper/migrations/versions/") and n.endswith(".py") for n in names)

    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=300)
    env = {**os.environ, "PYTHONPATH": str(target), "TARGET": str(target)}
    result = subprocess.run([sys.executable, "-c", CHECK], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "installed package works" in result.stdout
