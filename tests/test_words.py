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


def test_a_refused_wager_is_not_offered_the_trick_judge_for_two_claims(app: Flask, client: FlaskClient) -> None:
    import html

    url = new_game(client, ["Anne", "Ben"], "modern", rascal_wagers="on")
    client.post(f"{url}/hands/1/cards", data={"cards": 2})
    anne = app.test_client()
    anne.post(f"{url}/join", data={"seat": 0})
    anne.post(f"{url}/hands/1/bid", data={"bid": 1})
    client.post(f"{url}/hands/1/bid", data={"seat": 1, "bid": 0})
    for wager, tricks in (("20", "0"), ("15", "1")):
        refused = anne.post(f"{url}/hands/1", data={"intent": "done", "tricks-0": tricks, "wager-0": wager})
        page = html.unescape(refused.get_data(as_text=True))
        assert refused.status_code == 422 and ("Rascal" in page or "wager" in page)
        assert "Two claims for one card?" not in page
