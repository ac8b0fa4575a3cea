"""The processes of one server draw a game's shared table once between them: the first claims it, the others wait
for its drawing; the folder they share is made for one run of the server and gone after it."""

from __future__ import annotations

import logging
import os
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import event, update

from scorekeeper import games, host_cache
from scorekeeper.clock import utcnow
from scorekeeper.extensions import db
from scorekeeper.host_cache import HOST_CACHE, HostCache, make_folder
from scorekeeper.models import Game
from scorekeeper.shelf.skullking import views as skull_king
from scorekeeper.views.rendering import drawn_once
from tests.conftest import make_app
from tests.helpers import Phone, new_game, public_id
from tests.production import ProductionServer


def two_processes(database_url: str, folder: Path | None) -> tuple[Flask, Flask]:
    """Two apps on one database, as two workers of one server are (sharing `folder`, if given)."""
    config = {"HOST_CACHE_FOLDER": str(folder)} if folder is not None else {}
    return make_app(database_url, **config), make_app(database_url, **config)


def shared_table_drawn_in(app: Flask, url: str) -> str:
    """The game's shared table as `app` gives it to a screen."""
    with app.test_request_context(url):
        state = games.load(public_id(url))
        assert state is not None
        return str(skull_king.shared_table(state))


@pytest.fixture
def counted_drawings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every time a process works out a shared table itself (rather than take another's), by game."""
    drawn: list[str] = []
    context_of = skull_king.shared_context

    def counted(state: games.GameState):
        drawn.append(state.public_id)
        return context_of(state)

    monkeypatch.setattr(skull_king, "shared_context", counted)
    return drawn


def a_game_with_a_hidden_bid(app: Flask) -> tuple[str, games.GameState]:
    """A game of two whose first phone bid 1, in secret: its URL, and the game as the database has it."""
    host, anne = app.test_client(), app.test_client()
    url = new_game(host, ["Anne", "Ben"])
    assert anne.post(f"{url}/join", data={"seat": 0}).status_code == 303
    assert anne.post(f"{url}/hands/1/bid", data={"bid": 1}).status_code == 303
    with app.app_context():
        stored = games.read_state(games.load(public_id(url)).id)  # type: ignore[union-attr]
    assert stored is not None and [s.value for s in stored.secrets] == [1]
    return url, stored


def test_the_processes_of_one_server_draw_a_game_s_shared_table_once(database_url: str, tmp_path: Path,
                                                                      counted_drawings: list[str]) -> None:
    (tmp_path / "host").mkdir()
    first, second = two_processes(database_url, tmp_path / "host")
    host = first.test_client()
    url = new_game(host, ["Anne", "Ben", "Cara"])
    drawn_by_first = shared_table_drawn_in(first, url)
    assert counted_drawings == [public_id(url)]
    # The other process takes the first one's drawing, to the byte, and draws nothing.
    assert shared_table_drawn_in(second, url) == drawn_by_first
    assert counted_drawings == [public_id(url)]
    # A change makes a new edition: drawn anew, once, by whichever process comes first.
    assert host.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1}).status_code == 303
    after_the_bid = shared_table_drawn_in(second, url)
    assert after_the_bid != drawn_by_first and shared_table_drawn_in(first, url) == after_the_bid
    assert counted_drawings == [public_id(url)] * 2


def test_a_game_one_process_stored_is_taken_by_the_others_without_reading_the_database(
        database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process that stores a change keeps the game for the server's others: their screens take it as the
    database has it (the hidden bid with it: what a screen sees is decided later, per screen), with no statement."""
    (tmp_path / "host").mkdir()
    first, second = two_processes(database_url, tmp_path / "host")
    url, stored = a_game_with_a_hidden_bid(first)
    # What goes to the database: SQLAlchemy's statements, and a game's reads (on PostgreSQL psycopg's own pipeline).
    statements: list[str] = []
    read_state = games.read_state
    monkeypatch.setattr(games, "read_state", lambda game_id: statements.append("read") or read_state(game_id))
    with second.test_request_context(url):
        engine = db.engine
        count = lambda *args: statements.append(args[2])  # noqa: E731
        event.listen(engine, "before_cursor_execute", count)
        try:
            taken = games.load_heard(stored.id, stored.version)
        finally:
            event.remove(engine, "before_cursor_execute", count)
        assert statements == []
        assert taken is not None and games.kept_here(stored.id, stored.version) == stored
    # Without the folder, a process has nothing of the other's: it reads the game itself, once.
    alone = make_app(database_url)
    with alone.test_request_context(url):
        event.listen(alone_engine := db.engine, "before_cursor_execute", count)
        try:
            assert games.load_heard(stored.id, stored.version) == stored
            read = len(statements)
            assert read > 0 and games.load_heard(stored.id, stored.version) == stored and len(statements) == read
        finally:
            event.remove(alone_engine, "before_cursor_execute", count)


def test_the_screens_of_another_host_that_wake_for_a_change_read_the_game_once(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A change made on one host is kept by none of another host's processes: the screens there that wake for it at
    once read it once between them, with no query for its version; a game deleted since is no game to them."""
    first, second = two_processes(database_url, None)
    url, stored = a_game_with_a_hidden_bid(first)
    reads: list[int] = []
    read_state = games.read_state

    def slow_read(game_id: int) -> games.GameState | None:
        reads.append(game_id)
        time.sleep(0.05)  # long enough for every screen to ask meanwhile
        return read_state(game_id)

    monkeypatch.setattr(games, "read_state", slow_read)
    taken: list[games.GameState | None] = []

    def wake() -> None:
        with second.app_context():
            taken.append(games.load_heard(stored.id, stored.version))
            db.session.remove()

    screens = [threading.Thread(target=wake) for _ in range(5)]
    for screen in screens:
        screen.start()
    for screen in screens:
        screen.join(10)
    assert reads == [stored.id] and taken == [stored] * 5
    # Deleted (only a finished game can be, by its host: written here as that change writes it).
    with first.app_context():
        db.session.execute(update(Game).where(Game.id == stored.id).values(deleted_at=utcnow(),
                                                                            version=stored.version + 1))
        db.session.commit()
    with second.app_context():
        assert games.load_heard(stored.id, stored.version + 1) is None


def test_a_screen_answered_by_one_process_is_not_sent_it_again_by_the_other(database_url: str,
                                                                            tmp_path: Path) -> None:
    """Anne's taps are answered by either worker, her screen's stream runs in one: it sends her neither the table
    nor the card her last answer showed. Her other tab, on the same worker as that stream, is sent both."""
    from tests.test_live_table import Stream, end_streams

    (tmp_path / "host").mkdir()
    first, second = two_processes(database_url, tmp_path / "host")
    anne = first.test_client()
    url = new_game(first.test_client(), ["Anne", "Ben"])
    assert anne.post(f"{url}/join", data={"seat": 0}).status_code == 303
    with first.app_context():
        before = games.load(public_id(url)).edition  # type: ignore[union-attr]
    htmx = {"HX-Request": "true", "X-Screen": "annes-phone"}
    # The same browser (its cookies) on the other worker, as a phone's stream and its answers may well be: her
    # first tap is answered there, her second by the first worker.
    on_second = second.test_client()
    on_second._cookies = anne._cookies  # type: ignore[attr-defined]
    assert on_second.post(f"{url}/hands/1/bid", data={"bid": 0}, headers=htmx).status_code == 200
    assert anne.post(f"{url}/hands/1/bid", data={"bid": 1}, headers=htmx).status_code == 200
    try:
        own = Stream(on_second, f"{url}/events?edition={before}&card=before&screen=annes-phone")
        other = Stream(on_second, f"{url}/events?edition={before}&card=before&screen=annes-laptop")
        assert other.next().kind == "table" and "Your bid is 1" in other.next().data
        assert own.nothing_within(0.5)
        own.close()
        other.close()
    finally:
        end_streams(second)


def test_without_a_shared_folder_each_process_draws_its_own(database_url: str, counted_drawings: list[str]) -> None:
    """The development server and the tests run one process: no folder, nothing shared, nothing waited for."""
    first, second = two_processes(database_url, None)
    assert first.extensions[HOST_CACHE] is None
    url = new_game(first.test_client(), ["Anne", "Ben"])
    assert shared_table_drawn_in(first, url) == shared_table_drawn_in(second, url)
    assert counted_drawings == [public_id(url)] * 2


def test_a_drawing_another_process_claimed_is_waited_for_and_drawn_here_when_it_never_comes(
        database_url: str, tmp_path: Path) -> None:
    (tmp_path / "host").mkdir()
    app = make_app(database_url, HOST_CACHE_FOLDER=str(tmp_path / "host"))
    other = HostCache(tmp_path / "host")
    drawn_here: list[int] = []

    def draw() -> tuple[str, ...]:
        drawn_here.append(1)
        return ("here",)

    with app.test_request_context("/"):
        # Another process claimed edition 1 and writes it 30 ms later: this one waits for it.
        key = ("shared tables", 7, 1, "en")
        assert other.claim(key)
        threading.Timer(0.03, other.put, (key, ("there",))).start()
        assert drawn_once("shared tables", 7, 1, draw) == ("there",) and drawn_here == []
        # Edition 2 was claimed by a process that went before drawing it: drawn here after a short wait.
        assert other.claim(("shared tables", 7, 2, "en"))
        started = time.monotonic()
        assert drawn_once("shared tables", 7, 2, draw) == ("here",) and drawn_here == [1]
        assert 0.09 <= time.monotonic() - started < 1
        # And kept for the others.
        assert other.get(("shared tables", 7, 2, "en")) == ("here",)


def test_a_game_kept_for_the_others_comes_back_whole_in_every_part(tmp_path: Path) -> None:
    """Every part of a game (seats, requests, plays, secret entries, its count, cleared seats) as it went in."""
    moment = datetime(2026, 11, 27, 22, 0, tzinfo=UTC)
    state = games.GameState(
        id=4, public_id="abc", kind="skull-king", crew="", ruleset="modern", options={"loot": True}, version=9,
        host_key_hash="h", join_code="J1", finished_at=None, first_dealer=1,
        seats=(games.SeatState(0, "Anne", "x"), games.SeatState(1, "Ben", None)),
        requests=(games.RequestState(3, 1, "42", "y", False),),
        plays=(games.PlayState(1, {"bids": [1, None]}, False),),
        secrets=(games.SecretState(1, 0, "bid", 1),), count=games.Count(1, "bid", moment, over=True),
        cleared=frozenset({1}), view="seat 0", deleted_at=moment)
    cache = HostCache(tmp_path)
    cache.put(("game", 4, 9), state)
    taken = cache.get(("game", 4, 9))
    assert taken == state and taken is not state
    assert type(taken.count) is games.Count and taken.count.over and taken.cleared == frozenset({1})


def test_old_drawings_and_claims_are_swept(tmp_path: Path) -> None:
    cache = HostCache(tmp_path)
    cache.put(("a", 1), ("old",))
    assert cache.claim(("a", 2))
    assert cache.sweep(older_than=3600) == 0 and cache.get(("a", 1)) == ("old",)
    assert cache.sweep(older_than=-1) == 2 and cache.get(("a", 1)) is None and list(tmp_path.iterdir()) == []


def test_a_sweep_goes_beside_the_write_that_finds_it_due_and_one_process_sweeps_each_period(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that finds a sweep due returns at once, the sweep going on beside it; the server's other process,
    finding it due too, leaves the period's sweep to the first."""
    first, second = HostCache(tmp_path), HostCache(tmp_path)
    first.put(("a", 1), ("old",))
    now = time.time()
    (old,) = tmp_path.iterdir()
    os.utime(old, (now - 2 * host_cache.KEPT_SECONDS,) * 2)
    monkeypatch.setattr(host_cache.time, "time", lambda: now)  # one sweeping period for both processes
    sweeping, may_finish, swept = threading.Event(), threading.Event(), []

    def slow_sweep(older_than: float = host_cache.KEPT_SECONDS) -> int:
        sweeping.set()
        may_finish.wait(10)
        swept.append(HostCache.sweep(first, older_than))
        return swept[-1]

    started: list[tuple[HostCache, threading.Thread | None]] = []
    sweep_soon = HostCache.sweep_soon

    def noted(cache: HostCache) -> threading.Thread | None:
        started.append((cache, sweep_soon(cache)))
        return started[-1][1]

    monkeypatch.setattr(first, "sweep", slow_sweep)
    monkeypatch.setattr(HostCache, "sweep_soon", noted)
    first.next_sweep = second.next_sweep = 0
    first.put(("a", 2), ("new",))
    assert sweeping.wait(10) and not swept  # the write is done; its sweep is not
    second.put(("a", 3), ("newer",))
    assert [(cache, thread is not None) for cache, thread in started] == [(first, True), (second, False)]
    assert second.next_sweep > time.monotonic()  # not due again for a while, though it did not sweep
    may_finish.set()
    sweeping_thread = started[0][1]
    assert sweeping_thread is not None
    sweeping_thread.join(10)
    assert swept == [1] and first.get(("a", 1)) is None and first.get(("a", 3)) == ("newer",)


def test_a_sweep_lets_the_process_go_on_between_slices(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under the server a sweep of thousands of files yields every slice, so the process's requests and streams
    are not held up until it is done (`time.sleep(0)` is gevent's there)."""
    cache = HostCache(tmp_path)
    for number in range(2 * host_cache.SWEEP_SLICE + 1):
        cache.put(("a", number), number)
    pauses: list[float] = []
    sleep, sweeping = time.sleep, threading.current_thread()

    def paused(seconds: float) -> None:
        # `time` is one module for every thread: another's sleeps (a live watcher polling) are not the sweep's.
        if threading.current_thread() is sweeping:
            pauses.append(seconds)
        else:
            sleep(seconds)

    monkeypatch.setattr(host_cache.time, "sleep", paused)
    assert cache.sweep(older_than=-1) == 2 * host_cache.SWEEP_SLICE + 1
    assert pauses == [0, 0] and list(tmp_path.iterdir()) == []


def test_the_server_makes_its_workers_a_folder_for_one_run_and_removes_it(tmp_path: Path) -> None:
    """Under gunicorn (the Procfile's server) the master makes the folder before it forks its workers, they draw a
    game's shared table into it, and it is gone once the server stopped."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    server = ProductionServer(tmp_path, TMPDIR=str(temporary))
    server.start()
    try:
        folders = list(temporary.glob("scorekeeper-host-*"))
        assert len(folders) == 1
        host = Phone(server.base)
        host.get("/games/new")
        status, game = host.post("/games/new", {"ruleset": "classic", "player": ["Anne", "Ben"]})
        assert status == 303
        status, page = host.get(game)
        assert status == 200 and 'id="table"' in page
        # The hand's shared table, drawn for this page, is there for the other worker.
        assert any(not path.name.endswith(".claim") for path in folders[0].iterdir())
    finally:
        server.stop()
    assert list(temporary.glob("scorekeeper-host-*")) == []


def test_the_folder_is_made_in_memory_where_the_system_has_it_and_where_the_operator_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A drawing is written and read a few times a second per game: in memory it costs a tenth of a disk's."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    chosen = Path(make_folder())
    assert chosen.parent == tmp_path and chosen.name.startswith("scorekeeper-host-")
    monkeypatch.delenv("TMPDIR")
    monkeypatch.setattr(host_cache, "SHARED_MEMORY", str(tmp_path / "memory"))
    (tmp_path / "memory").mkdir()
    assert Path(make_folder()).parent == tmp_path / "memory"


def test_a_killed_master_s_folder_is_swept_when_a_server_starts(tmp_path: Path) -> None:
    """A master killed with SIGKILL never removes its run's folder: the next start removes every folder whose master
    is gone, and leaves a running one's (this process's) and what is not a run's folder."""
    import subprocess
    import sys

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    left = tmp_path / f"{host_cache.FOLDER_PREFIX}{gone.pid}-abc123"
    (left / "drawing").mkdir(parents=True)
    running = tmp_path / f"{host_cache.FOLDER_PREFIX}{os.getpid()}-def456"
    running.mkdir()
    other = tmp_path / "someone-else"
    other.mkdir()
    assert host_cache.sweep_left_behind(tmp_path) == [left]
    assert not left.exists() and running.is_dir() and other.is_dir()


def test_a_folder_that_cannot_be_written_is_said_once_in_the_log_and_when_it_works_again(tmp_path: Path) -> None:
    """The folder gone (a disk full, a folder removed under the server): the process draws for itself, says so in
    the log once, not on every try, and says so again when files are written again; a drawing not there yet is no
    trouble at all."""
    records: list[logging.LogRecord] = []
    logger = logging.getLogger("test host cache log")
    logger.setLevel(logging.INFO)
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logger.addHandler(handler)
    folder = tmp_path / "shared"
    folder.mkdir()
    cache = HostCache(folder, logger)
    assert cache.get(("not", "drawn")) is None and records == []
    folder.rmdir()
    for number in range(3):
        cache.put(("a", number), number)
    assert [(r.levelname, r.getMessage().split(" (")[0]) for r in records] == [
        ("WARNING", f"host cache: cannot write a file in {folder}")]
    assert "this process draws for itself meanwhile" in records[0].getMessage()
    folder.mkdir()
    cache.put(("a", 3), 3)
    cache.put(("a", 4), 4)
    assert [r.getMessage() for r in records[1:]] == [f"host cache: files are written in {folder} again"]
    assert cache.get(("a", 4)) == 4
