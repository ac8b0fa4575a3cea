"""The cannonball rule: once the bids show, every player loads grapeshot or cannonball in secret.

The loads are a second secret, kept as the bids are: until every cannon is loaded and the
second YO-HO-HO has ended, each party but the loading phone gets the same bytes whatever the
load; then all show at once and stay as they are.
"""

from __future__ import annotations

import html
import json

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import games
from scorekeeper.shelf.skullking.storage import Phase
from tests import helpers
from tests.conftest import make_app
from tests.helpers import hand_now, set_count
from tests.test_secrecy import everything_seen_by, normalized


def end_count(app: Flask, url: str) -> None:
    """The count running now ends (as if its three seconds had passed)."""
    with app.app_context():
        helpers.end_count(url)


def stored_hand(app: Flask, url: str):
    with app.app_context():
        record = hand_now(url)
        return record.phase, [e.shot for e in record.entries]


@pytest.fixture
def table(database_url: str):
    """Modern rules, Rascal's scoring with cannonballs, 6 cards: Anne and Ben on phones, Cara without one; bids shown."""
    app = make_app(database_url, REVEAL_COUNT_SECONDS=600)
    host, anne, ben, viewer, stranger = (app.test_client() for _ in range(5))
    created = host.post("/games/new", data={"ruleset": "modern", "scoring": "rascal", "cannonball": "on",
                                            "player": ["Anne", "Ben", "Cara"]})
    url = created.headers["Location"]
    assert host.post(f"{url}/hands/1/cards", data={"cards": 6}).status_code == 303
    assert anne.post(f"{url}/join", data={"seat": 0}).status_code == 303
    assert ben.post(f"{url}/join", data={"seat": 1}).status_code == 303
    viewer.get(url)
    anne.post(f"{url}/hands/1/bid", data={"bid": 2})
    ben.post(f"{url}/hands/1/bid", data={"bid": 2})
    host.post(f"{url}/hands/1/bid", data={"seat": 2, "bid": 1})
    end_count(app, url)
    assert stored_hand(app, url)[0] == Phase.LOADING
    return app, url, {"host": host, "anne": anne, "ben": ben, "viewer": viewer, "stranger": stranger}


def views_with_annes_load(app: Flask, url: str, clients: dict[str, FlaskClient], shot: str,
                          all_loaded: bool) -> dict[str, dict[str, str]]:
    """What everyone but Anne gets while Anne's cannon holds `shot`."""
    with app.app_context():
        set_count(url, 1, "shot", forget=True, stored_phase=Phase.LOADING)
    assert clients["anne"].post(f"{url}/hands/1/load", data={"shot": shot}).status_code == 303
    if all_loaded:
        assert clients["ben"].post(f"{url}/hands/1/load", data={"shot": "grapeshot"}).status_code == 303
        assert clients["host"].post(f"{url}/hands/1/load", data={"seat": 2, "shot": "grapeshot"}).status_code == 303
    phase, shots = stored_hand(app, url)
    assert shots[0] == shot and phase == (Phase.FIRING if all_loaded else Phase.LOADING)
    with app.app_context():
        code = games.find_game(url.rsplit("/", 1)[-1]).join_code
    return {name: {route: normalized(body)
                   for route, body in everything_seen_by(client, url, code, name == "host").items()}
            for name, client in clients.items() if name != "anne"}


@pytest.mark.parametrize("all_loaded", [False, True], ids=["while loading", "while counting"])
def test_no_route_shows_a_hidden_load_to_anyone_else(table, all_loaded: bool) -> None:
    app, url, clients = table
    with_grapeshot = views_with_annes_load(app, url, clients, "grapeshot", all_loaded)
    with_cannonball = views_with_annes_load(app, url, clients, "cannonball", all_loaded)
    for party in with_grapeshot:
        for route in with_grapeshot[party]:
            assert with_grapeshot[party][route] == with_cannonball[party][route], \
                f"{party} learns Anne's load from {route}"


def test_the_loads_show_together_and_stay(table) -> None:
    app, url, clients = table
    anne, ben, host = clients["anne"], clients["ben"], clients["host"]
    # Before the bids show there is nothing to load; a viewer loads nothing.
    assert clients["viewer"].post(f"{url}/hands/1/load", data={"shot": "cannonball"}).status_code == 403
    assert ben.post(f"{url}/hands/1/load", data={"seat": 0, "shot": "grapeshot"}).status_code == 403
    assert host.post(f"{url}/hands/1/load", data={"seat": 0, "shot": "grapeshot"}).status_code == 403
    refused = ben.post(f"{url}/hands/1/load", data={"shot": "chain"})
    assert refused.status_code == 422 and "Ben: load grapeshot or cannonball." in html.unescape(refused.get_data(as_text=True))

    assert anne.post(f"{url}/hands/1/load", data={"shot": "cannonball"}).status_code == 303
    mine = html.unescape(anne.get(url).get_data(as_text=True))
    assert "Your cannon is loaded with Cannonball." in mine
    table_seen = html.unescape(ben.get(url).get_data(as_text=True))
    assert "Waiting for 2 more cannons to be loaded." in table_seen and "shot-cannonball" not in table_seen
    assert ben.post(f"{url}/hands/1/load", data={"shot": "cannonball"}).status_code == 303
    assert host.post(f"{url}/hands/1/load", data={"seat": 2, "shot": "grapeshot"}).status_code == 303
    counting = html.unescape(ben.get(url).get_data(as_text=True))
    assert "Every cannon is loaded: the loads show in a moment." in counting and "data-reveal-at" in counting
    # A load during the count starts it again, as a bid does.
    assert anne.post(f"{url}/hands/1/load", data={"shot": "cannonball"}).status_code == 303
    assert stored_hand(app, url)[0] == Phase.FIRING

    end_count(app, url)
    for party in ("host", "ben", "viewer", "stranger"):
        page = html.unescape(clients[party].get(url).get_data(as_text=True))
        assert page.count("shot-cannonball") == 2 and page.count("shot-grapeshot") == 1, party
    # Locked: no load changes now, and a result cannot change one either.
    late = anne.post(f"{url}/hands/1/load", data={"shot": "grapeshot"})
    assert late.status_code == 422
    assert "The loads of this hand are already revealed." in html.unescape(late.get_data(as_text=True))
    assert anne.post(f"{url}/hands/1", data={"tricks-0": "2", "shot-0": "grapeshot", "intent": "done"}).status_code == 303
    assert stored_hand(app, url)[1] == ["cannonball", "cannonball", "grapeshot"]

    # Scored as the rules file says: cannonball exact 15 × 6 = 90, off by one 0; grapeshot exact 10 × 6 = 60.
    assert ben.post(f"{url}/hands/1", data={"tricks-1": "3", "intent": "done"}).status_code == 303
    assert host.post(f"{url}/hands/1", data={"tricks-2": "1", "intent": "score"}).status_code == 303
    pad = json.loads(host.get(f"{url}/pad.json").get_data(as_text=True))
    hand = pad["hands"][0]
    assert [(e["shot"], e["points"]) for e in hand["entries"]] == [("cannonball", 90), ("cannonball", 0),
                                                                  ("grapeshot", 60)]
    csv_rows = host.get(f"{url}/pad.csv").get_data(as_text=True).splitlines()
    assert ",cannonball," in csv_rows[1] and ",grapeshot," in csv_rows[3]
    assert "shot-cannonball" in host.get(f"{url}/pad").get_data(as_text=True)


def test_a_seat_changing_phones_loses_its_load(table) -> None:
    """A load belongs to the phone that made it: a new phone for Anne loads again."""
    app, url, clients = table
    assert clients["anne"].post(f"{url}/hands/1/load", data={"shot": "cannonball"}).status_code == 303
    assert clients["host"].post(f"{url}/seats/0/free").status_code == 303
    newcomer = app.test_client()
    assert newcomer.post(f"{url}/join", data={"seat": 0}).status_code == 303
    assert stored_hand(app, url)[1] == [None, None, None]
    page = html.unescape(newcomer.get(url).get_data(as_text=True))
    assert "Load your cannon in secret" in page and "Your cannon is loaded" not in page


def test_without_the_rule_there_is_nothing_to_load(client: FlaskClient) -> None:
    created = client.post("/games/new", data={"ruleset": "modern", "scoring": "rascal", "player": ["Anne", "Ben"]})
    url = created.headers["Location"]
    for seat in (0, 1):
        client.post(f"{url}/hands/1/bid", data={"seat": seat, "bid": 0})
    refused = client.post(f"{url}/hands/1/load", data={"seat": 0, "shot": "cannonball"})
    assert refused.status_code == 422
    assert "Grapeshot and cannonball need Rascal's scoring" in html.unescape(refused.get_data(as_text=True))
    # The bids' count goes straight to play.
    assert "Tricks and bonuses" in client.get(url).get_data(as_text=True)


def test_an_unfinished_pad_resumes_with_the_loading(client: FlaskClient) -> None:
    doc = {"format": "skull-king-pad", "version": 1, "ruleset": "modern",
           "options": {"scoring": "rascal", "cannonball": True}, "players": ["Anne", "Ben"],
           "hands": [{"cards": 1, "entries": [{"player": "Anne", "bid": 1}, {"player": "Ben", "bid": 0}]}]}
    response = client.post("/games/import", json=doc)
    assert response.status_code == 201
    url = response.headers["Location"].replace("http://localhost", "")
    assert client.post(response.json["host_url"].replace("http://localhost", "")).status_code == 303
    page = html.unescape(client.get(url).get_data(as_text=True))
    assert "Secret loads" in page and "Waiting for 2 more cannons to be loaded." in page
