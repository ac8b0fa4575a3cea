"""The installed package, not only the checkout, has its templates, static files and migrations."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.production import free_port

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
# The service worker's script is a template too, and its sounds are static files.
worker = client.get("/sw.js")
assert worker.status_code == 200 and b"serviceWorker" not in worker.data and b"caches" in worker.data, worker.status_code
assert client.get("/static/sounds/yo.wav").status_code == 200
print("installed package works")
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project built as a wheel, as it would be published."""
    wheels = tmp_path_factory.mktemp("wheels")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
                   check=True, capture_output=True, timeout=300)
    return next(wheels.glob("*.whl"))


def test_an_installed_wheel_serves_its_pages(tmp_path: Path, wheel: Path) -> None:
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


@pytest.mark.install
def test_a_fresh_install_without_extras_starts_the_procfile_server(tmp_path: Path, wheel: Path) -> None:
    """What hosting runs: the wheel and its declared dependencies only, started by the Procfile's command."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    installed = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)],
                               capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr[-3000:]
    command = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
    port = free_port()
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "PORT": str(port), "WEB_CONCURRENCY": "1",
           "SCOREKEEPER_INSTANCE_PATH": str(tmp_path / "instance"), "HOME": str(tmp_path)}
    # The Procfile binds every interface; here it listens on loopback only.
    command = command.removeprefix("web:").strip().replace("gunicorn ", f"gunicorn --bind 127.0.0.1:{port} ", 1)
    server = subprocess.Popen(command, shell=True, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        answered = None
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/new", timeout=2) as response:
                    answered = response.status, response.read()
                break
            except OSError:
                time.sleep(0.2)
        assert answered is not None, server.communicate(timeout=5)[0].decode(errors="replace")[-3000:] \
            if server.poll() is not None else "no answer"
        assert answered[0] == 200 and b"Start the game" in answered[1]
        # The other games' packages and templates (in their own folders) ship too.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/new/dracula", timeout=5) as response:
            assert response.status == 200 and b"Queen" in response.read()
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=20)
