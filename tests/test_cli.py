"""The command line: `scorekeeper score` and `scorekeeper serve`, run as a user runs them."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.conftest import EXAMPLE_PAD

SCOREKEEPER = [sys.executable, "-m", "scorekeeper"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the command line with `args`, capturing its output."""
    return subprocess.run([*SCOREKEEPER, *args], input=stdin, capture_output=True, text=True, timeout=60)


def test_score_prints_the_completed_pad() -> None:
    result = run("score", str(EXAMPLE_PAD))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["totals"] == {"Anne": 10, "Ben": 30, "Cara": 0}


def test_score_reads_standard_input() -> None:
    pad = json.loads(EXAMPLE_PAD.read_text(encoding="utf-8"))
    for hand in pad["hands"]:
        for entry in hand["entries"]:
            del entry["points"]
    result = run("score", "-", stdin=json.dumps(pad))
    assert result.returncode == 0, result.stderr
    completed = json.loads(result.stdout)
    assert [e["points"] for e in completed["hands"][0]["entries"]] == [20, 10, 10]


def test_score_refuses_a_broken_pad_with_every_problem_on_its_own_line() -> None:
    pad = json.loads(EXAMPLE_PAD.read_text(encoding="utf-8"))
    pad["hands"][0]["entries"][1]["points"] = 30
    pad["hands"][1]["entries"][2]["bid"] = 5
    result = run("score", "-", stdin=json.dumps(pad))
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "Hand 2, Cara: bid 5 is more than the cards dealt (2).",
        "Hand 1, Ben: the pad says 30, the rules give 10.",
    ]


def test_score_refuses_a_file_that_is_not_json(tmp_path: Path) -> None:
    broken = tmp_path / "pad.json"
    broken.write_text("not a pad", encoding="utf-8")
    result = run("score", str(broken))
    assert result.returncode == 1
    assert result.stderr.startswith("The file is not valid JSON:")


def test_serve_creates_its_instance_prints_an_address_and_answers_there(tmp_path: Path) -> None:
    instance = tmp_path / "new-instance"
    env = {**os.environ, "SCOREKEEPER_INSTANCE_PATH": str(instance)}
    env.pop("DATABASE_URL", None)
    server = subprocess.Popen(
        [*SCOREKEEPER, "serve", "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )
    try:
        url = None
        deadline = time.monotonic() + 30
        while url is None and time.monotonic() < deadline:
            line = server.stdout.readline()
            found = re.search(r"http://[\d.]+:\d+/", line)
            url = found.group(0) if found else None
        assert url, "serve printed no address"
        with urllib.request.urlopen(url, timeout=10) as response:
            assert response.status == 200
            assert "Skull King" in response.read().decode()
        assert (instance / "scorekeeper.sqlite").exists()
        # Each request is one line on the console: a host sees whether a phone reached it.
        # (after the QR code it printed for the phones)
        logged = ""
        while not re.search(r"^\d\d:\d\d:\d\d GET / 200 \d+ ms$", logged, re.M) and time.monotonic() < deadline:
            logged += server.stdout.readline()
        assert re.search(r"^\d\d:\d\d:\d\d GET / 200 \d+ ms$", logged, re.M), logged[-300:]
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


def test_a_request_line_never_shows_a_host_link_s_secret() -> None:
    from scorekeeper.cli import request_line

    at = time.mktime((2026, 11, 24, 20, 15, 7, 0, 0, -1))
    assert request_line("GET", "/games/abc/host/s3cr3t-token", "303", 0.0123, at) == \
        "20:15:07 GET /games/abc/host/… 303 12 ms"
    assert request_line("POST", "/games/abc/hands/1/bid", "303", None, at) == "20:15:07 POST /games/abc/hands/1/bid 303 -"


def test_a_live_stream_s_lines_say_it_is_a_stream_when_it_opens_and_how_long_it_ran() -> None:
    from scorekeeper.cli import stream_line

    at = time.mktime((2026, 11, 24, 20, 15, 7, 0, 0, -1))
    assert stream_line("/games/abc/events", None, at) == "20:15:07 live stream opened: /games/abc/events"
    assert stream_line("/games/abc/events", 447.493, at) == \
        "20:15:07 live stream closed after 7 min 27 s: /games/abc/events"
    assert stream_line("/games/abc/events", 12.4, at) == "20:15:07 live stream closed after 12 s: /games/abc/events"
