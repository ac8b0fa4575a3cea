"""The app served as the Procfile serves it (gunicorn, gevent workers), on 127.0.0.1: for tests and the benchmark."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    """A free port on the loopback interface."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ProductionServer:
    """gunicorn with the production settings, in its own process group so it can be stopped or killed whole."""

    def __init__(self, instance: Path, database_url: str | None = None, **environment: str) -> None:
        self.instance = Path(instance)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "SCOREKEEPER_INSTANCE_PATH": str(instance),
                    # Every simulated table comes from this one address.
                    "NEW_GAMES_PER_MINUTE": "100000", **environment}
        if database_url:
            self.env["DATABASE_URL"] = database_url
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 60) -> None:
        """Start it, on the same port each time, and return once it answers."""
        log = open(self.instance / "gunicorn.log", "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--config", "python:scorekeeper.gunicorn_config",
             "--bind", f"127.0.0.1:{self.port}", "scorekeeper:create_app()"],
            env=self.env, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.base + "/", timeout=2).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.1)
        raise RuntimeError("gunicorn did not start: " + (self.instance / "gunicorn.log").read_text(errors="replace"))

    def kill(self) -> None:
        """SIGKILL to the master and every worker at once: no clean shutdown of anything."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        """Stop it the way a service manager does, and kill it if it does not go."""
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()
