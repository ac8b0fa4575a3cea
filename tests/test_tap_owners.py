"""A tap belongs to the browser that sent it: the same tap id from another browser is a new request that gets nothing
of the first's (join, new game, bid, the host's powers); a browser keeps at most a bounded number of taps per game,
and taps past their day go with the changes stored (by every process, once a minute), with no live stream open."""

from __future__ import annotations

import secrets
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import rows
from scorekeeper.clock import utcnow
from scorekeeper.extensions import db
from scorekeeper.models import Tap
from tests.helpers import new_game, public_id
from tests.test_taps import decoded


def browser(app: Flask, url: str | None = None) -> FlaskClient:
    """A browser that opened a page first, as every phone does (its session names it)."""
    client = app.test_client()
    assert client.get(url or "/").status_code == 200
    return client


def taps_of(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Tap)) or 0


def test_a_join_tap_from_another_browser_takes_no_seat(app: Flask) -> None:
    url = new_game(browser(app), ["Anne", "Ben"])
    anne, stranger = browser(app, url), browser(app, url)
    tap = {"X-Tap": secrets.token_urlsafe(16)}
    assert anne.post(f"{url}/join", data={"seat": 0}, headers=tap).status_code == 303
    assert "You are Anne" in anne.get(url).get_data(as_text=True)
    # The stranger sends Anne's tap: a join of its own, refused (Anne's seat is held), and no seat's secret.
    refused = stranger.post(f"{url}/join", data={"seat": 0}, headers=tap)
    assert refused.status_code == 422
    assert "already plays on another phone" in refused.get_data(as_text=True)
    assert "seats" not in decoded(app, stranger)
    assert "You are Anne" not in stranger.get(url).get_data(as_text=True)


def test_a_new_game_tap_from_another_browser_makes_it_host_of_nothing_but_its_own(app: Flask) -> None:
    host, stranger = browser(app), browser(app)
    tap = {"X-Tap": secrets.token_urlsafe(16)}
    form = {"ruleset": "classic", "player": ["Anne", "Ben"]}
    first = host.post("/games/new", data=form, headers=tap)
    second = stranger.post("/games/new", data=form, headers=tap)
    assert first.status_code == second.status_code == 303
    # The stranger's tap started a game of its own: it hosts that one, not the first.
    assert second.headers["Location"] != first.headers["Location"]
    assert public_id(first.headers["Location"]) not in decoded(app, stranger).get("hosting", {})
    page = stranger.get(first.headers["Location"]).get_data(as_text=True)
    assert "Let in" not in page and "/seats/0/free" not in page


def test_a_bid_tap_from_another_browser_gets_no_answer_of_the_first(app: Flask) -> None:
    url = new_game(browser(app), ["Anne", "Ben", "Cara"])
    anne, ben, viewer = browser(app, url), browser(app, url), browser(app, url)
    for seat, phone in enumerate((anne, ben)):
        assert phone.post(f"{url}/join", data={"seat": seat}).status_code == 303
    tap = {"X-Tap": secrets.token_urlsafe(16), "HX-Request": "true"}
    assert "Your bid is 1." in anne.post(f"{url}/hands/1/bid", data={"bid": 1}, headers=tap).get_data(as_text=True)
    # A viewer sending Anne's tap is refused as any viewer is; Ben's phone bids for itself, and sees only its bid.
    assert viewer.post(f"{url}/hands/1/bid", data={"bid": 1}, headers=tap).status_code == 403
    answer = ben.post(f"{url}/hands/1/bid", data={"bid": 0}, headers=tap).get_data(as_text=True)
    assert "Your bid is 0." in answer and "Your bid is 1." not in answer
    assert taps_of(app) == 2


def test_the_host_s_tap_from_another_browser_has_no_power(app: Flask) -> None:
    host = browser(app)
    url = new_game(host, ["Anne", "Ben"])
    anne, stranger = browser(app, url), browser(app, url)
    assert anne.post(f"{url}/join", data={"seat": 0}).status_code == 303
    tap = {"X-Tap": secrets.token_urlsafe(16)}
    assert host.post(f"{url}/seats/0/free", data={}, headers=tap).status_code == 303
    assert anne.post(f"{url}/join", data={"seat": 0}).status_code == 303
    # Sent again by the stranger, the host's tap is the stranger's own request: refused, Anne keeps her seat.
    assert stranger.post(f"{url}/seats/0/free", data={}, headers=tap).status_code == 403
    assert "You are Anne" in anne.get(url).get_data(as_text=True)


def test_a_json_import_s_tap_answers_only_the_client_that_made_it(app: Flask) -> None:
    """Two clients with no session (scripts calling the import API) send the same tap id: the second gets a game of
    its own and its own host link, never the first's."""
    tap = {"X-Tap": secrets.token_urlsafe(16)}
    doc = {"format": "skull-king-pad", "version": 1, "ruleset": "classic", "players": ["Anne", "Ben"], "hands": []}
    first = app.test_client(use_cookies=False).post("/games/import", json=doc, headers=tap)
    second = app.test_client(use_cookies=False).post("/games/import", json=doc, headers=tap)
    assert first.status_code == second.status_code == 201
    assert second.json["host_url"] != first.json["host_url"]
    assert second.headers["Location"] != first.headers["Location"]


def test_a_browser_keeps_at_most_the_bound_of_taps_per_game(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """Many taps from one phone through the pages, the bound made small to see it hold; then ten thousand taps stored
    the same way: the newest within the bound stay, and those apply once still."""
    monkeypatch.setattr(rows, "TAPS_KEPT_PER_BROWSER", 20)
    host = browser(app)
    url = new_game(host, ["Anne", "Ben"], ruleset="modern")
    other = new_game(host, ["Cara", "Dan"], ruleset="modern")
    for seat in (0, 1):
        host.post(f"{url}/hands/1/bid", data={"seat": seat, "bid": 0})
    sent = []
    for step in range(60):
        tap = secrets.token_urlsafe(16)
        sent.append(tap)
        intent = "lost-more" if step % 2 == 0 else "lost-less"
        assert host.post(f"{url}/hands/1", data={"intent": intent}, headers={"X-Tap": tap}).status_code == 303
    host.post(f"{other}/hands/1/cards", data={"cards": 1}, headers={"X-Tap": secrets.token_urlsafe(16)})
    with app.app_context():
        kept = db.session.execute(select(Tap.game_id, func.count()).group_by(Tap.game_id)).all()
    # This game's newest twenty; the other game's tap counts apart.
    assert sorted(count for _, count in kept) == [1, 20]
    # The newest are still applied once: sent again, they change nothing.
    version_before = host.get(f"{url}/pad.json").get_json()
    assert host.post(f"{url}/hands/1", data={"intent": "lost-more"}, headers={"X-Tap": sent[-2]}).status_code == 303
    assert host.get(f"{url}/pad.json").get_json() == version_before

    monkeypatch.setattr(rows, "TAPS_KEPT_PER_BROWSER", 100)
    with app.app_context():
        game_id = db.session.scalar(select(Tap.game_id).limit(1))
        for _ in range(10_000):
            rows.keep_tap(rows.Tap(secrets.token_urlsafe(16), "one phone"), game_id, public_id(url), None)
        db.session.commit()
        by_browser = dict(db.session.execute(select(Tap.browser, func.count()).where(Tap.game_id == game_id)
                                             .group_by(Tap.browser)).all())
    assert by_browser[rows.Tap("", "one phone").browser_key] == 100


def test_taps_past_their_day_go_with_any_change_and_no_stream(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    host = browser(app)
    url = new_game(host, ["Anne", "Ben"])
    assert host.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1},
                     headers={"X-Tap": secrets.token_urlsafe(16)}).status_code == 303
    with app.app_context():
        old = db.session.scalars(select(Tap)).one()
        old.at = utcnow() - rows.TAPS_KEPT - timedelta(minutes=1)
        db.session.commit()
    # No live stream was ever opened: a change stored prunes it (a process does so once a minute; its last time
    # is put back here, as if a minute had passed).
    monkeypatch.setattr(rows, "_pruned_at", [0.0])
    assert host.post(f"{url}/hands/1/bid", data={"seat": 1, "bid": 0},
                     headers={"X-Tap": secrets.token_urlsafe(16)}).status_code == 303
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Tap).where(Tap.at < utcnow() - rows.TAPS_KEPT)) == 0
    assert taps_of(app) == 1
