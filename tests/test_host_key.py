"""The host's key is kept as a seat's secret is: the database holds its SHA-256 alone; the host link's page asks, and
only its POST makes a browser the host; the key goes to no other site and into no log line; games stored before
keep working with the link and the session their host holds."""

from __future__ import annotations

import hashlib
import json
import logging
import re
from pathlib import Path

from flask import Flask
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.conftest import make_app
from tests.test_migration import THE_APP_AS_IT_WAS, client_as, made_by_the_app_as_it_was

# The app as it was on 2026-11-26, its host keys stored as they were given.
BEFORE = "0465b50"

PAD = {"format": "skull-king-pad", "version": 1, "ruleset": "classic", "players": ["Anne", "Ben"],
       "hands": [{"cards": 1, "entries": [{"player": "Anne", "bid": 1, "tricks": 1},
                                          {"player": "Ben", "bid": 0, "tricks": 0}]}]}


def local(link: str) -> str:
    return "/" + link.split("/", 3)[3]


def imported(app: Flask) -> tuple[str, str]:
    """A game brought in through the import API: its path and its host link's path."""
    answer = app.test_client().post("/games/import", json=PAD)
    assert answer.status_code == 201
    return local(answer.json["url"]), local(answer.json["host_url"])


def test_the_database_keeps_the_host_key_s_hash_alone(app: Flask) -> None:
    url, link = imported(app)
    key = link.rsplit("/", 1)[1]
    with app.app_context():
        row = db.session.execute(select(Game.__table__).where(Game.public_id == url.rsplit("/", 1)[1])).one()
    assert row.host_key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert key not in json.dumps([str(value) for value in row])
    # Started from the form, the host's browser holds the key, and the database its hash.
    host = app.test_client()
    url = host.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben"]}).headers["Location"]
    with host.session_transaction() as session:
        key = session["hosting"][url.rsplit("/", 1)[1]]
    with app.app_context():
        stored = db.session.scalar(select(Game.host_key_hash).where(Game.public_id == url.rsplit("/", 1)[1]))
    assert stored == hashlib.sha256(key.encode()).hexdigest() and len(key) >= 22


def test_the_host_link_s_page_asks_and_only_its_post_makes_the_host(app: Flask) -> None:
    url, link = imported(app)
    browser = app.test_client()
    page = browser.get(link)
    assert page.status_code == 200
    assert "Run the game on this browser" in page.get_data(as_text=True)
    # The key in the address goes nowhere else, not even to the page's own requests.
    assert page.headers["Referrer-Policy"] == "no-referrer"
    # Opening the link (a preview, a scanner, a prefetch) made nobody the host.
    assert browser.post(f"{url}/rematch").status_code == 403
    with browser.session_transaction() as session:
        assert url.rsplit("/", 1)[1] not in session.get("hosting", {})
    taken = browser.post(link)
    assert taken.status_code == 303 and taken.headers["Location"].endswith(url)
    assert taken.headers["Referrer-Policy"] == "no-referrer"
    assert browser.post(f"{url}/rematch").status_code == 303
    # A wrong key finds no game, by GET or by POST, and gives nothing.
    for wrong in (link[:-2] + "xx", f"{url}/host/{'A' * 32}"):
        assert browser.get(wrong).status_code == 404
        assert app.test_client().post(wrong).status_code == 404


def test_an_old_game_s_host_link_and_session_still_run_it(tmp_path: Path, database_url: str) -> None:
    """Games stored by the app as it was (keys in plain text) upgrade to hashes: their host's link and their host's
    session both still run them; another browser does not."""
    script = THE_APP_AS_IT_WAS + r'''
answer = app.test_client().post("/games/import", json=json.loads(Path(sys.argv[3]).read_text()))
host = app.test_client()
made_url = host.post("/games/new/skull-king", data={"ruleset": "classic", "player": ["Anne", "Ben"]}).headers["Location"]
print(json.dumps({"url": answer.json["url"], "link": answer.json["host_url"],
                  "made": made_url, "host": host.get_cookie("session").value}))
'''
    before = made_by_the_app_as_it_was(BEFORE, script, database_url, tmp_path)
    assert isinstance(before, dict)
    app = make_app(database_url, SECRET_KEY="same")
    url, link = local(before["url"]), local(before["link"])
    with app.app_context():
        hashes = db.session.scalars(select(Game.host_key_hash)).all()
    assert len(hashes) == 2 and all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes)
    browser = app.test_client()
    assert browser.get(link).status_code == 200
    assert browser.post(link).status_code == 303
    made = local(before["made"]) if before["made"].startswith("http") else before["made"]
    assert client_as(app, before["host"]).post(f"{made}/rematch").status_code == 303
    assert app.test_client().post(f"{made}/rematch").status_code == 403
    assert browser.post(f"{url}/rematch").status_code == 303


def test_a_request_that_fails_is_logged_without_the_host_key(database_url: str, monkeypatch) -> None:
    """A failed request is one error line with its traceback, its path shown without a host link's key."""
    from scorekeeper import games

    app = make_app(database_url, PROPAGATE_EXCEPTIONS=False)
    url, link = imported(app)
    key = link.rsplit("/", 1)[1]

    def broken(*args, **kwargs):
        raise RuntimeError("the database is on fire")

    monkeypatch.setattr(games, "load", broken)
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    app.logger.addHandler(handler)
    try:
        assert app.test_client().get(link).status_code == 500
    finally:
        app.logger.removeHandler(handler)
    failed = [r for r in records if r.levelname == "ERROR"]
    assert len(failed) == 1 and failed[0].exc_info is not None
    assert failed[0].getMessage() == f"request failed: GET {link.rsplit('/', 1)[0]}/…"
    assert all(key not in r.getMessage() for r in records)
