"""A lost phone's way back: the same player on a new phone asks, the host lets it in with one tap."""

from __future__ import annotations

import html

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import games
from tests.helpers import new_game


def seen(client: FlaskClient, url: str) -> str:
    return html.unescape(client.get(url).get_data(as_text=True))


def test_a_new_phone_asks_for_its_seat_and_the_host_lets_it_in(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Anne", "Ben"])
    host, old, new = client, app.test_client(), app.test_client()
    assert old.post(f"{url}/join", data={"seat": 0}).status_code == 303
    assert old.post(f"{url}/hands/1/bid", data={"bid": 1}).status_code == 303
    # The new phone sees Anne's seat taken, with a way back rather than a dead end.
    assert "I'm Anne on a new phone" in seen(new, f"{url}/join")
    response = new.post(f"{url}/join", data={"ask": "0"})
    assert response.status_code == 303 and response.headers["Location"].endswith("/join")
    waiting = seen(new, f"{url}/join")
    assert "Waiting for the host" in waiting and "play as Anne" in waiting and 'id="live"' in waiting
    # Until the host answers it is nobody's phone: no card, no bid.
    assert "You are Anne" not in seen(new, url) and "Your bid is 1" not in seen(new, url)
    assert "You are Anne" in seen(old, url)
    host_page = seen(host, url)
    assert "Anne asks to play on a new phone" in host_page and "Let Anne in" in host_page
    assert host.post(f"{url}/seats/0/let-in").status_code == 303
    # The waiting page moves on to the game; the new phone plays Anne, the old one is nobody's now.
    moved = new.get(f"{url}/join")
    assert moved.status_code == 303 and moved.headers["Location"].endswith(url)
    assert new.get(f"{url}/join", headers={"HX-Request": "true"}).headers["HX-Location"]
    page = seen(new, url)
    assert "You are Anne" in page and "Your secret bid" in page
    # A bid belongs to the phone that made it: Anne bids again on the new phone.
    assert "Your bid is 1" not in page and "Anne joined again on another phone and bids again." in page
    assert "You are Anne" not in seen(old, url)
    assert "asks to play on a new phone" not in seen(host, url)
    # A second tap on "let in" (another screen, a double tap) changes nothing.
    with app.app_context():
        version = games.load(url.rsplit("/", 1)[-1]).version
    assert host.post(f"{url}/seats/0/let-in").status_code == 303
    with app.app_context():
        assert games.load(url.rsplit("/", 1)[-1]).version == version


def test_only_a_phone_without_a_seat_asks_and_only_the_host_answers(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Anne", "Ben"])
    anne, ben, stranger = app.test_client(), app.test_client(), app.test_client()
    anne.post(f"{url}/join", data={"seat": 0})
    ben.post(f"{url}/join", data={"seat": 1})
    assert ben.post(f"{url}/join", data={"ask": "0"}).status_code == 403
    assert client.post(f"{url}/join", data={"ask": "0"}).status_code == 403
    assert stranger.post(f"{url}/join", data={"ask": "7"}).status_code == 422
    assert stranger.post(f"{url}/join", data={"ask": "0"}).status_code == 303
    for phone in (anne, ben, stranger):
        assert phone.post(f"{url}/seats/0/let-in").status_code == 403
        assert phone.post(f"{url}/seats/0/turn-away").status_code == 403
    # The host says no: the asking phone is back at the list, Anne keeps her seat.
    assert client.post(f"{url}/seats/0/turn-away").status_code == 303
    assert "Who are you?" in seen(stranger, f"{url}/join")
    assert "You are Anne" in seen(anne, url)


def test_a_free_seat_is_taken_not_asked_for(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Anne", "Ben"])
    phone = app.test_client()
    response = phone.post(f"{url}/join", data={"ask": "1"})
    assert response.status_code == 422 and "Ben is free now: take the seat." in html.unescape(response.get_data(as_text=True))
