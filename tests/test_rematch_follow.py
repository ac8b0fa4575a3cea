"""A rematch: every phone of the old game follows the host into the new one, on its seat, without a scan."""

from __future__ import annotations

import html

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import games
from tests.helpers import import_as_host


def seen(client: FlaskClient, url: str) -> str:
    return html.unescape(client.get(url).get_data(as_text=True))


def test_the_phones_follow_a_rematch_to_their_seats(client: FlaskClient, app: Flask, finished_pad: dict) -> None:
    old = import_as_host(client, finished_pad)
    anne, ben, viewer = app.test_client(), app.test_client(), app.test_client()
    assert anne.post(f"{old}/join", data={"seat": 0}).status_code == 303
    assert ben.post(f"{old}/join", data={"seat": 1}).status_code == 303
    with app.app_context():
        version = games.load(old.rsplit("/", 1)[-1]).version
    # Before the rematch the phones stay on the end page.
    assert anne.get(f"{old}/end").status_code == 200
    new = client.post(f"{old}/rematch").headers["Location"]
    with app.app_context():
        # The old game moved on (its screens wake up) and names the new one.
        state = games.load(old.rsplit("/", 1)[-1])
        assert state.version == version + 1 and state.next_game == new.rsplit("/", 1)[-1]
    for phone, name in ((anne, "Anne"), (ben, "Ben")):
        # The old end page stays, to look back at, with the way on (pushed to the phones on it, which follow it).
        stays = phone.get(f"{old}/end")
        assert stays.status_code == 200 and "Go on to the next game" in stays.get_data(as_text=True)
        moved = phone.get(f"{old}/end?follow=1")
        assert moved.status_code == 303 and moved.headers["Location"].endswith(new)
        assert phone.get(f"{old}/end?follow=1", headers={"HX-Request": "true"}).headers["HX-Location"]
        assert f"You are {name}" in seen(phone, new)
    # Someone watching watches the next game; the big screen shows the next game's big screen.
    assert viewer.get(f"{old}/end?follow=1").headers["Location"].endswith(new)
    assert viewer.get(f"{old}/screen").headers["Location"].endswith(f"{new}/screen")
    # The host stays where it asked to be.
    assert client.get(f"{old}/end").status_code == 200
    # A stranger who never held a seat there plays nothing in the new game.
    assert "You are" not in seen(app.test_client(), new)


def test_a_phone_whose_name_is_gone_goes_to_the_join_page(client: FlaskClient, app: Flask,
                                                          finished_pad: dict) -> None:
    old = import_as_host(client, finished_pad)
    anne, ben = app.test_client(), app.test_client()
    anne.post(f"{old}/join", data={"seat": 0})
    ben.post(f"{old}/join", data={"seat": 1})
    # "New game with these players", but Ben is now Bea.
    new = client.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Bea"],
                                          "after": old.rsplit("/", 1)[-1]}).headers["Location"]
    assert anne.get(f"{old}/end?follow=1").headers["Location"].endswith(new)
    assert ben.get(f"{old}/end?follow=1").headers["Location"].endswith(f"{new}/join")
    assert "Who are you?" in seen(ben, f"{new}/join")
    assert "You are Anne" in seen(anne, new)


def test_a_skipbo_match_s_phones_follow_too(client: FlaskClient, app: Flask) -> None:
    url = client.post("/games/new/skip-bo", data={"player": ["Anne", "Ben"], "target": "10"}).headers["Location"]
    anne, ben = app.test_client(), app.test_client()
    anne.post(f"{url}/join", data={"seat": 0})
    ben.post(f"{url}/join", data={"seat": 1})
    assert anne.post(f"{url}/play", data={"went_out": "0"}).status_code == 303
    assert ben.post(f"{url}/play", data={"left": "3"}).status_code == 303
    assert "Anne wins the match!" in seen(ben, url)
    new = client.post("/games/new/skip-bo", data={"player": ["Anne", "Ben"], "target": "10",
                                                   "after": url.rsplit("/", 1)[-1]}).headers["Location"]
    # The old match's screen stays, with the way on; following it takes Ben to his seat.
    assert "Go on to the next game" in seen(ben, url)
    assert ben.get(f"{url}?follow=1").headers["Location"].endswith(new)
    assert "Who went out?" in seen(ben, new) and "I went out" in seen(ben, new)
