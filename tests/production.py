"""The app served as the Procfile serves it (gunicorn, gevent workers), on 127.0.0.1: for tests and the benchmark."""

from __future__ import annotations

import os
import re
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


def answers(base: str, process: subprocess.Popen, timeout: float) -> bool:
    """Whether the server just started at `base` answers within `timeout` seconds (False at once if it ended)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/", timeout=2).close()
            return True
        except OSError:
            if process.poll() is not None:
                return False
            time.sleep(0.1)
    return False


def stop_group(process: subprocess.Popen | None, seconds: float) -> None:
    """SIGTERM to a server's process group, as a service manager sends it; SIGKILL if it is not gone in `seconds`."""
    if process is None or process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


class ProductionServer:
    """gunicorn with the production settings, in its own process group so it can be stopped or killed whole."""

    def __init__(self, instance: Path, database_url: str | None = None, **environment: str) -> None:
        self.instance = Path(instance)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "SCOREKEEPER_INSTANCE_PATH": str(instance),
                    # Every simulated table comes from this one address.
                    "NEW_GAMES_PER_MINUTE": "100000", "BODIES_PER_ADDRESS": "100000",
                    "STREAMS_PER_ADDRESS": "100000", **environment}
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
        if answers(self.base, self.process, timeout):
            return
        # A server that never answered is not left behind (respawning workers that fail) for the next test to meet.
        self.kill()
        raise RuntimeError("gunicorn did not start: " + (self.instance / "gunicorn.log").read_text(errors="replace"))

    def kill(self) -> None:
        """SIGKILL to the master and every worker at once: no clean shutdown of anything."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        """Stop it the way a service manager does, and kill it if it does not go."""
        stop_group(self.process, 20)


ROUTER_CONFIG = Path(__file__).resolve().parent.parent / "deploy" / "haproxy.cfg"


class Router:
    """HAProxy with the repository's configuration (`deploy/haproxy.cfg`) in front of `hosts`, on 127.0.0.1, each
    answer naming the host that gave it (`X-Served-By`: host1, host2, … in the order of `hosts`)."""

    def __init__(self, hosts: list[ProductionServer], log: Path, executable: str = "haproxy") -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.hosts = hosts
        self.log = log
        self.env = {**os.environ, "SCOREKEEPER_ROUTER": f"127.0.0.1:{self.port}",
                    **{f"SCOREKEEPER_HOST_{n}": f"127.0.0.1:{host.port}" for n, host in enumerate(hosts, start=1)}}
        self.executable = executable
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 20) -> None:
        """Start it in the foreground (`-db`), and return once it answers."""
        log = open(self.log, "ab")
        self.process = subprocess.Popen([self.executable, "-db", "-f", str(ROUTER_CONFIG)], env=self.env,
                                        stdout=log, stderr=log, start_new_session=True)
        log.close()
        if answers(self.base, self.process, timeout):
            return
        self.stop()
        raise RuntimeError("haproxy did not start: " + self.log.read_text(errors="replace"))

    def host_named(self, name: str) -> ProductionServer:
        """The host an answer's `X-Served-By` names."""
        return self.hosts[int(name.removeprefix("host")) - 1]

    def stop(self) -> None:
        """Stop it (SIGTERM ends HAProxy at once) and wait for it."""
        stop_group(self.process, 10)


def idle_keep_alive(port: int) -> socket.socket:
    """A connection that asked for a page over HTTP/1.1, read the whole answer, and stays open doing nothing (as a
    browser keeps one for its next request)."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    connection.sendall(b"GET /static/app.css HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n")
    head = b""
    while b"\r\n\r\n" not in head:
        head += connection.recv(65536)
    header, _, body = head.partition(b"\r\n\r\n")
    length = int(re.search(rb"(?i)content-length: *(\d+)", header).group(1))  # type: ignore[union-attr]
    while len(body) < length:
        body += connection.recv(65536)
    assert b"200 OK" in header and b"close" not in header.lower()
    return connection


def sigterm_with_open_connections(instance: Path, streams: int, idle: int) -> float:
    """Start the server, open `streams` live streams of one game and `idle` keep-alive connections, then SIGTERM
    the master as a service manager does: the seconds until its last process is gone."""
    from tests.helpers import Phone

    server = ProductionServer(instance)
    server.start()
    connections: list[socket.socket] = []
    try:
        host = Phone(server.base)
        host.get("/games/new")
        status, game = host.post("/games/new", {"ruleset": "classic", "player": ["Anne", "Ben"]})
        assert status == 303
        for _ in range(streams):
            connection = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            connection.sendall(f"GET {game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            connections.append(connection)
        for connection in connections:
            assert b"text/event-stream" in connection.recv(4096)
        connections += [idle_keep_alive(server.port) for _ in range(idle)]
        time.sleep(0.5)
        started = time.monotonic()
        # The master passes SIGTERM on to its workers and waits for them, so its exit is the end of them all.
        os.kill(server.process.pid, signal.SIGTERM)
        server.process.wait(timeout=30)
        return time.monotonic() - started
    finally:
        for connection in connections:
            connection.close()
        server.stop()
