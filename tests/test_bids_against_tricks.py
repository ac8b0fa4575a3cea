"""Bids against tricks: once the bids show, every screen of every game with bids says "Bids: 7 for 6 tricks" (Skull
King counts the cards dealt), in each language, and the reveal's announcement says it to a screen reader; before the
reveal no screen shows a total (it would tell a secret bid)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from tests.conftest import make_app
from tests.helpers import end_count

# "Bids: 5 for 6 tricks", as each language says it.
SAID = {"en": "Bids: {bids} for {cards} tricks", "de": "Ansagen: {bids} für {cards} Stiche",
        "fr": "Annonces : {bids} pour {cards} plis", "it": "Dichiarazioni: {bids} per {cards} prese"}
# Wizard's words are its own rulebook's.
SAID_IN_WIZARD = {**SAID, "it": "Puntate: {bids} per {cards} prese"}


def words(page: str) -> str:
    """A page's words, tags taken out and spaces folded."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def announced(page: str, name: str) -> str:
    """The words a screen reader is told under `data-announce="name"`."""
    found = re.search(rf'data-announce="{name}"[^>]*>(.*?)</p>', page, re.S)
    assert found, f"no announcement {name!r}"
    return words(found.group(1))


def screens(url: str, clients: dict[str, FlaskClient], language: str) -> dict[str, str]:
    """Each screen of the game in `language`: every phone's, the host's, the big screen's."""
    headers = {"Accept-Language": language}
    seen = {name: client.get(url, headers=headers).get_data(as_text=True) for name, client in clients.items()}
    seen["big screen"] = clients["host"].get(f"{url}/screen", headers=headers).get_data(as_text=True)
    return seen


def said_everywhere(url: str, clients: dict[str, FlaskClient], sayings: dict[str, str], bids: int, cards: int,
                    phone: str, announcement: str) -> None:
    """Every screen says the bids against the tricks in each language, and `phone`'s screen reader hears it."""
    for language, said in sayings.items():
        for name, page in screens(url, clients, language).items():
            assert said.format(bids=bids, cards=cards) in words(page), (language, name)
        page = clients[phone].get(url, headers={"Accept-Language": language}).get_data(as_text=True)
        assert said.format(bids=bids, cards=cards) in announced(page, announcement), language


@pytest.fixture
def skull_king(database_url: str) -> Iterator[tuple[Flask, str, dict[str, FlaskClient]]]:
    """Classic rules, six cards: Anne and Ben on phones, Cara without one, a long count."""
    app = make_app(database_url, REVEAL_COUNT_SECONDS=600)
    host, anne, ben = (app.test_client() for _ in range(3))
    url = host.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben", "Cara"]}).headers["Location"]
    assert host.post(f"{url}/hands/1/cards", data={"cards": 6}).status_code == 303
    for seat, phone in enumerate((anne, ben)):
        assert phone.post(f"{url}/join", data={"seat": seat}).status_code == 303
    yield app, url, {"host": host, "anne": anne, "ben": ben}
    with app.app_context():
        db.engine.dispose()


def test_skull_king_says_the_bids_against_the_cards_dealt_once_they_show(skull_king) -> None:
    app, url, clients = skull_king
    clients["anne"].post(f"{url}/hands/1/bid", data={"bid": 2})
    clients["ben"].post(f"{url}/hands/1/bid", data={"bid": 3})
    clients["host"].post(f"{url}/hands/1/bid", data={"seat": 2, "bid": 0})
    # Counting: every bid is in, none shows, and neither does their total.
    for name, page in screens(url, clients, "en").items():
        assert "Bids:" not in words(page), name
    with app.app_context():
        end_count(url)
    said_everywhere(url, clients, SAID, bids=5, cards=6, phone="anne", announcement="phase")


def test_one_card_is_one_trick(database_url: str) -> None:
    app = make_app(database_url, REVEAL_COUNT_SECONDS=600)
    host = app.test_client()
    url = host.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben"]}).headers["Location"]
    for seat, bid in ((0, 1), (1, 1)):
        host.post(f"{url}/hands/1/bid", data={"seat": seat, "bid": bid})
    with app.app_context():
        end_count(url)
        db.engine.dispose()
    assert "Bids: 2 for 1 trick" in words(host.get(url).get_data(as_text=True))


@pytest.fixture
def wizard(database_url: str) -> Iterator[tuple[Flask, str, dict[str, FlaskClient]]]:
    """Wizard with secret bids, round 2 (two cards): Anne, Ben and Cara on phones, a long count."""
    app = make_app(database_url, REVEAL_COUNT_SECONDS=600)
    host = app.test_client()
    url = host.post("/games/new/wizard", data={"player": ["Anne", "Ben", "Cara"], "bidding": "secret"}
                    ).headers["Location"]
    phones = {}
    for seat, name in enumerate(("anne", "ben", "cara")):
        phones[name] = app.test_client()
        assert phones[name].post(f"{url}/join", data={"seat": seat}).status_code == 303
    yield app, url, {"host": host, **phones}
    with app.app_context():
        db.engine.dispose()


def tap(client: FlaskClient, url: str, play: int, **data: object) -> int:
    return client.post(f"{url}/play", data={"play": play, **data}, headers={"HX-Request": "true"}).status_code


def test_wizard_says_the_bids_against_the_tricks_once_they_show(wizard) -> None:
    app, url, clients = wizard
    for name, bid in (("anne", 1), ("ben", 0), ("cara", 1)):
        assert tap(clients[name], url, 1, bid=bid) == 200
    for name, page in screens(url, clients, "en").items():
        assert "Bids:" not in words(page), name
    with app.app_context():
        end_count(url)
    for name, tricks in (("anne", 1), ("ben", 0), ("cara", 0)):
        assert tap(clients[name], url, 1, tricks=tricks) == 200
    for name, bid in (("anne", 2), ("ben", 1), ("cara", 1)):
        assert tap(clients[name], url, 2, bid=bid) == 200
    with app.app_context():
        end_count(url)
    said_everywhere(url, clients, SAID_IN_WIZARD, bids=4, cards=2, phone="ben", announcement="entries")
