"""Nothing a player enters is lost: a refused result stays on the card as sent, and Done saves it."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import hand_now, new_game


def stored(app: Flask, url: str, seat: int):
    with app.app_context():
        return hand_now(url).entries[seat]


def test_a_refused_wager_stays_on_the_card_and_is_saved_with_done(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Anne", "Ben", "Cara", "Dan"], "modern", rascal_wagers="on", advanced_cards="on")
    client.post(f"{url}/hands/1/cards", data={"cards": 2})
    dan = app.test_client()
    dan.post(f"{url}/join", data={"seat": 3})
    for seat in range(3):
        client.post(f"{url}/hands/1/bid", data={"seat": seat, "bid": 0})
    dan.post(f"{url}/hands/1/bid", data={"bid": 1})
    sent = {"tricks-3": "0", "wager-3": "10", "skull_king_by_mermaid-3": "on", "loot-3": "1", "harry-3": "+1",
            "standard_fourteens-3": "1"}
    refused = dan.post(f"{url}/hands/1", data={**sent, "intent": "draft"}, headers={"HX-Request": "true"})
    card = html.unescape(refused.get_data(as_text=True))
    assert refused.status_code == 422
    assert "won no tricks, so cannot have" in card
    # Every field as Dan sent it, none reset: wager, capture, count, Loot partner, Harry.
    assert re.search(r'name="wager-3" value="10" checked', card)
    assert re.search(r'name="skull_king_by_mermaid-3" id="skull_king_by_mermaid-3" checked', card)
    assert re.search(r'name="standard_fourteens-3" id="standard_fourteens-3"[^>]*\n?\s*value="1"', card)
    assert re.search(r'name="loot-3" value="1" checked', card)
    assert re.search(r'name="harry-3" value="\+1" checked', card)
    assert re.search(r'name="tricks-3" value="0" id="tricks-3-0" checked', card)
    assert stored(app, url, 3).wager is None, "a refusal stores nothing"
    # Dan fixes his tricks and taps Done: the wager he chose is saved with it.
    fixed = dan.post(f"{url}/hands/1", data={**sent, "tricks-3": "1", "intent": "done"})
    assert fixed.status_code == 303, html.unescape(fixed.get_data(as_text=True))[-2000:]
    entry = stored(app, url, 3)
    assert (entry.tricks, entry.wager, entry.done) == (1, 10, True)
