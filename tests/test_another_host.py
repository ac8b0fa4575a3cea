"""The host's role shared: a host gives a link whose code makes another device a host too, once, for a while (15
minutes); both then have the host's powers and limits; a used or old link is refused in words; a host leaves the
role once another device is a host. Every grant is in the game's events; the database keeps no code nor key that
could run the game."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Event, Game, HostGrant
from tests.conftest import make_app, stop_watching
from tests.test_taps import another_host_link, seated, table

GONE = "This link to become a host is used already or too old: ask a host of the game for a new one."


def version(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(Game.version))


def events(app: Flask) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(Event.kind).order_by(Event.id)))


def hosts(client: FlaskClient, url: str) -> bool:
    """Whether `client` runs the game: the host alone changes the cards dealt."""
    return client.post(f"{url}/hands/1/cards", data={"cards": 1}).status_code == 303


def test_a_second_device_becomes_a_host_by_the_link_once(app: Flask) -> None:
    host, url = table(app)
    link = another_host_link(host, url)
    assert events(app)[-1] == "host grant"
    other = app.test_client()
    # The link's page asks, and changes nothing.
    before = version(app)
    asked = other.get(link)
    assert asked.status_code == 200 and "Become a host of this game?" in asked.get_data(as_text=True)
    assert asked.headers["Referrer-Policy"] == "no-referrer" and asked.headers["Cache-Control"] == "no-store"
    assert version(app) == before and not hosts(other, url)
    assert other.post(link).status_code == 303
    assert events(app)[-1] == "host added"
    # Both are hosts now.
    assert hosts(other, url) and hosts(host, url)
    # Used once: refused in words, on its page and when sent, and nobody else becomes a host by it.
    third = app.test_client()
    for answer in (third.get(link), third.post(link)):
        assert answer.status_code == 410 and GONE in answer.get_data(as_text=True)
    assert not hosts(third, url)
    assert events(app).count("host added") == 1


def test_the_other_host_keeps_the_host_s_limits(app: Flask) -> None:
    host, url = table(app)
    phone = seated(app, url, 0)
    other = app.test_client()
    assert other.post(another_host_link(host, url)).status_code == 303
    # A seat with its own phone bids on that phone, not from a host.
    assert other.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1}).status_code == 403
    assert other.post(f"{url}/hands/1/bid", data={"seat": 1, "bid": 1}).status_code == 303
    assert phone.post(f"{url}/hands/1/bid", data={"bid": 1}).status_code == 303


def test_only_a_host_gives_the_role(app: Flask) -> None:
    host, url = table(app)
    phone = seated(app, url, 0)
    before = version(app)
    for stranger in (phone, app.test_client()):
        assert stranger.post(f"{url}/hosts").status_code == 403
    assert version(app) == before
    with app.app_context():
        assert db.session.scalars(select(HostGrant)).all() == []


def test_a_link_past_its_time_is_refused_in_words(database_url: str, tmp_path: Path) -> None:
    app = make_app(database_url, HOST_GRANT_SECONDS=0)
    try:
        host, url = table(app)
        link = another_host_link(host, url)
        other = app.test_client()
        for answer in (other.get(link), other.post(link)):
            assert answer.status_code == 410 and GONE in answer.get_data(as_text=True)
        assert not hosts(other, url)
    finally:
        stop_watching(app)


def test_an_unknown_code_is_refused_in_words(app: Flask) -> None:
    host, url = table(app)
    link = another_host_link(host, url)
    wrong = link[:-3] + ("aaa" if not link.endswith("aaa") else "bbb")
    other = app.test_client()
    assert GONE in other.get(wrong).get_data(as_text=True)
    assert other.post(wrong).status_code == 410 and not hosts(other, url)
    assert app.test_client().get(f"/games/{'x' * 22}/hosts/abc").status_code == 404


def test_the_table_keeps_neither_the_code_nor_the_key(app: Flask) -> None:
    host, url = table(app)
    link = another_host_link(host, url)
    code = link.rsplit("/", 1)[-1]
    with app.app_context():
        grant = db.session.scalars(select(HostGrant)).one()
        stored = f"{grant.code_hash} {grant.key}"
    host_key = next(iter(_hosting(app, host).values()))
    assert code not in stored and host_key not in stored and host_key.encode().hex() not in stored


def _hosting(app: Flask, client: FlaskClient) -> dict[str, str]:
    cookie = client.get_cookie("session")
    assert cookie is not None
    serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    return dict(serializer.loads(cookie.value)["hosting"])


def test_a_host_leaves_the_role_once_another_device_is_a_host(app: Flask) -> None:
    host, url = table(app)
    refused = host.post(f"{url}/hosts/leave")
    assert refused.status_code == 422 and "a game needs a host" in refused.get_data(as_text=True)
    assert hosts(host, url)
    other = app.test_client()
    assert other.post(another_host_link(host, url)).status_code == 303
    assert host.post(f"{url}/hosts/leave").status_code == 303
    assert not hosts(host, url) and hosts(other, url)
    # Only a host leaves the role.
    assert app.test_client().post(f"{url}/hosts/leave").status_code == 403
