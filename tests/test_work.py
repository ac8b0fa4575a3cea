"""The unit of work: every write the app makes goes through `work`, which alone writes, commits or rolls back; the
live layer hears of a change only once it is committed."""

from __future__ import annotations

import ast
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import event, select

from scorekeeper import work
from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.conftest import TEST_DATABASE_URL
from tests.test_taps import SCENARIOS, send, the_table

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
WORK = str(PACKAGE / "work.py")
# The unit of work's own steps that write: a change stored, tries counted.
WRITING_STEPS = {"_store", "counted_tries"}
# What writes to a database session or the rows behind it.
SESSION_WRITES = {"add", "add_all", "flush", "commit", "merge", "delete", "bulk_save_objects", "begin_nested"}
STATEMENT_WRITES = {"insert", "update", "delete"}
ROW_WRITERS = {"write", "add_game", "set_game", "log_event", "keep_tap", "count_tries", "drop_events_before",
               "purge_deleted_before"}


def writes_outside_the_unit(name: str, text: str) -> list[str]:
    """Where a module adds to, flushes or commits a database session, builds a writing statement (outside the rows'
    module), or calls the rows' writers (outside the unit of work)."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = ast.unparse(node.func.value)
            if node.func.attr in SESSION_WRITES and "session" in owner and name != "work.py":
                found.append(f"{name}: {owner}.{node.func.attr}()")
            if owner == "rows" and node.func.attr in ROW_WRITERS and name != "work.py":
                found.append(f"{name}: rows.{node.func.attr}()")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sqlalchemy":
            writers = {alias.name for alias in node.names} & STATEMENT_WRITES
            if writers and name != "rows.py":
                found.append(f"{name}: imports {sorted(writers)}")
    return found


def test_no_module_outside_the_unit_of_work_writes_to_the_session() -> None:
    """Only the unit of work commits, and only through it do the rows' statements run; no module adds to or flushes
    the session (no ORM object is ever written), the migrations aside."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        found += writes_outside_the_unit(path.name, path.read_text(encoding="utf-8"))
    assert found == []


def test_a_write_outside_the_unit_of_work_would_be_found() -> None:
    assert writes_outside_the_unit("crews.py", "db.session.add(game)\ndb.session.commit()\n") == [
        "crews.py: db.session.add()", "crews.py: db.session.commit()"]
    assert writes_outside_the_unit("live.py", "from sqlalchemy import delete, select\n") == [
        "live.py: imports ['delete']"]
    assert writes_outside_the_unit("service.py", "rows.set_game(1, {})\n") == ["service.py: rows.set_game()"]
    assert writes_outside_the_unit("work.py", "db.session.commit()\nrows.write(1, w)\n") == []


@contextmanager
def writes_watched(app: Flask) -> Iterator[list[str]]:
    """Every writing statement and commit the app runs meanwhile, each named with where it ran from unless that
    was the unit of work's writing steps (then ""); and every ORM flush."""
    seen: list[str] = []

    def where() -> str:
        frames = traceback.extract_stack()
        if any(f.filename == WORK and f.name in WRITING_STEPS for f in frames):
            return ""
        ours = [f for f in frames if "/scorekeeper/" in f.filename]
        return f"{ours[-1].filename.rsplit('/', 1)[-1]}:{ours[-1].lineno}" if ours else "outside the app"

    def statement(conn, cursor, text: str, parameters, context, executemany) -> None:
        if text.lstrip().split(None, 1)[0].upper() in {"INSERT", "UPDATE", "DELETE"}:
            seen.append(f"{text.split(None, 1)[0]} {where()}".strip())

    def committing(session) -> None:
        seen.append(f"COMMIT {where()}".strip())

    def flushing(session, context, instances) -> None:
        seen.append(f"FLUSH {where()}")

    with app.app_context():
        engine = db.engine
        session_class = type(db.session())
    hooks = ((engine, "before_cursor_execute", statement), (session_class, "before_commit", committing),
             (session_class, "before_flush", flushing))
    for target, name, hook in hooks:
        event.listen(target, name, hook)
    try:
        yield seen
    finally:
        for target, name, hook in hooks:
            event.remove(target, name, hook)


@pytest.mark.parametrize("endpoint", sorted(SCENARIOS))
def test_every_write_goes_through_the_unit_of_work(app: Flask, endpoint: str) -> None:
    """Every POST the app has, with all it takes to get there (new games, seats taken and freed, phones asking and
    let in or turned away, deletions, imports, rematches, every game's plays, tries counted), writes and commits in
    the unit of work alone, and flushes no ORM object; on PostgreSQL too when the suite runs there."""
    with writes_watched(app) as seen:
        write = SCENARIOS[endpoint](app)
        before = the_table(app)
        assert send(write, f"tap-{endpoint}-0123456789").status_code < 400
    assert [s for s in seen if s not in {"INSERT", "UPDATE", "DELETE", "COMMIT"}] == []
    if write.changes_a_game:
        assert the_table(app) != before and "COMMIT" in seen


def test_a_refused_change_leaves_nothing_and_tells_nobody(app: Flask) -> None:
    """A change the rules refuse is rolled back by the unit of work: no version moved, no tap kept, no stream woken."""
    host = app.test_client()
    url = host.post("/games/new/free-pad", data={"player": ["Anne", "Ben"], "game": "Darts"}).headers["Location"]
    told: list[list[tuple[int, int]]] = []

    def heard(sender: Flask, changes: list[tuple[int, int]]) -> None:
        told.append(changes)

    work.committed.connect(heard, sender=app)
    try:
        before = the_table(app)
        # A game not finished cannot be deleted.
        refused = host.post(f"{url}/delete", headers={"X-Tap": "refused-tap-0123456789"})
        assert refused.status_code == 422
        assert the_table(app) == before and told == []
        with app.app_context():
            assert db.session.execute(select(work.rows._taps)).all() == []
    finally:
        work.committed.disconnect(heard, sender=app)


def test_the_streams_are_woken_after_the_commit(app: Flask) -> None:
    """The live layer hears of a change through the unit of work's hook, after it committed: what it then reads
    on a connection of its own is the new version. The rows know nothing of the streams."""
    host = app.test_client()
    url = host.post("/games/new/free-pad", data={"player": ["Anne", "Ben"], "game": "Darts"}).headers["Location"]
    public_id = url.rsplit("/", 1)[-1]
    read_then: list[int] = []

    def heard(sender: Flask, changes: list[tuple[int, int]]) -> None:
        with db.engine.connect() as own:
            read_then.append(own.execute(select(Game.version).where(Game.public_id == public_id)).scalar_one())
        assert changes == [(game_id, read_then[-1])]

    with app.app_context():
        game_id = db.session.execute(select(Game.id).where(Game.public_id == public_id)).scalar_one()
        version = db.session.execute(select(Game.version).where(Game.id == game_id)).scalar_one()
    work.committed.connect(heard, sender=app)
    try:
        assert host.post(f"{url}/play", data={"play": "1", "points-0": "5", "points-1": "0"}).status_code == 303
    finally:
        work.committed.disconnect(heard, sender=app)
    assert read_then == [version + 1]
    rows_source = (PACKAGE / "rows.py").read_text(encoding="utf-8")
    assert "live" not in {alias.name for node in ast.walk(ast.parse(rows_source))
                          if isinstance(node, ast.ImportFrom) for alias in node.names}


# The rows a new game adds first, whose ids the rest of its change needs: asked back one by one.
NEW_GAME_ROWS = ("INSERT INTO game ", "INSERT INTO seat ")


@contextmanager
def sent_alone_watched(app: Flask) -> Iterator[tuple[list[str], list[str]]]:
    """The statements of a change that write or announce (inserts, updates, deletes, NOTIFY) run meanwhile: those sent
    to PostgreSQL together with the rest of the change (in psycopg's pipeline), and those sent alone, each awaiting
    its answer."""
    together: list[str] = []
    alone: list[str] = []

    def statement(conn, cursor, text: str, parameters, context, executemany) -> None:
        if text.lstrip().split(None, 1)[0].upper() in {"INSERT", "UPDATE", "DELETE", "NOTIFY"}:
            piped = conn.connection.driver_connection.pgconn.pipeline_status != 0
            (together if piped else alone).append(" ".join(text.split())[:60])

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", statement)
    try:
        yield together, alone
    finally:
        event.remove(engine, "before_cursor_execute", statement)


@pytest.mark.skipif(not TEST_DATABASE_URL, reason="PostgreSQL's pipeline; SQLite answers in the process itself")
@pytest.mark.parametrize("endpoint", sorted(SCENARIOS))
def test_a_change_is_sent_to_postgresql_together(app: Flask, endpoint: str) -> None:
    """Every POST's change goes to PostgreSQL in one go, its commit with it (`extensions.committed_together`): no insert asks
    its id back, no statement of it waits for its own answer, but a new game's own rows (their ids are the rest's)."""
    write = SCENARIOS[endpoint](app)
    with sent_alone_watched(app) as (together, alone):
        assert send(write, f"tap-{endpoint}-0123456789").status_code < 400
    assert [text for text in alone if not text.startswith(NEW_GAME_ROWS)] == []
    assert together or not write.changes_a_game
    if write.changes_a_game:
        # The change is announced to the other processes with it.
        assert any(text.startswith("NOTIFY") for text in together)
