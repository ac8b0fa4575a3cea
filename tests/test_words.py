"""Words that say what they mean: a cannon being chosen is no app loading, a phone that typed nothing is not typing,
and nobody leads before the first point."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import new_game

CROWN = 'class="icon crown"'


def test_nobody_wears_the_crown_before_the_first_point(client: FlaskClient) -> None:
    url = new_game(client, ["Anne", "Ben"])
    assert CROWN not in client.get(url).get_data(as_text=True)
    assert CROWN not in client.get(f"{url}/pad").get_data(as_text=True)
    for seat, bid in ((0, 1), (1, 0)):
        client.post(f"{url}/hands/1/bid", data={"seat": seat, "bid": bid})
    client.post(f"{url}/hands/1", data={"intent": "score", "tricks-0": "1", "tricks-1": "0"})
    page = client.get(url).get_data(as_text=True)
    assert "Hand 2 of 10" in page and page.count(CROWN) == 1


def test_a_cannon_being_chosen_reads_as_a_choice(app: Flask, client: FlaskClient) -> None:
    url = new_game(client, ["Anne", "Ben"], "modern", scoring="rascal", cannonball="on")
    for seat in (0, 1):
        client.post(f"{url}/hands/1/bid", data={"seat": seat, "bid": 0})
    page = client.get(url).get_data(as_text=True)
    assert "choosing a load…" in page and "loading…" not in page
