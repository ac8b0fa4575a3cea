"""What a bid is worth, on the bid keys of every game with bids: what it scores if made and what tricks off cost, by
the game's own scoring (Skull King's rulesets and options, Rascal's scoring and its cannonball, Wizard), carried by
each key so the page shows it without a request, in the four languages. The expected words are worked out here from
the rules as the rule texts state them, apart from the app's scoring."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import new_game
from tests.test_taps import seated


def worths(page: str, name: str = "bid") -> dict[int, str]:
    """Each bid key's words, by its bid (the first pad's of the page)."""
    pad = page[page.index('class="numpad'):]
    pad = pad[:pad.index("</form>")]
    return {int(value): html.unescape(words) for value, words in
            re.findall(rf'name="{name}" value="(\d+)"[^>]*data-worth="([^"]*)"', pad)}


def signed(points: int) -> str:
    return f"−{-points}" if points < 0 else f"+{points}" if points > 0 else "0"


def standard(cards: int, bid: int) -> str:
    """Classic, doubloons and modern standard scoring: 20 a trick bid, −10 a trick off; a zero bid 10 a card, or the
    same lost."""
    if bid == 0:
        return f"Made: +{10 * cards}. Missed: −{10 * cards}."
    return f"Made: +{20 * bid}. Each trick off: −10."


def rascal(cards: int, bid: int, cannonball: bool = False) -> str:
    """Rascal's scoring: 10 a card dealt made exactly, half one trick off, nothing further off; the cannonball 15 a
    card made exactly, else nothing."""
    words = f"Made: +{10 * cards}. One trick off: +{5 * cards}; more: 0."
    return words + (f" With the cannonball: +{15 * cards} if made exactly, else 0." if cannonball else "")


@pytest.mark.parametrize("ruleset, options, expected", [
    ("classic", {}, standard),
    ("doubloons", {}, standard),
    ("modern", {}, standard),
    ("modern", {"expansion": "on"}, standard),
    ("modern", {"scoring": "rascal"}, rascal),
    ("modern", {"scoring": "rascal", "cannonball": "on"}, lambda cards, bid: rascal(cards, bid, True)),
])
def test_each_skull_king_ruleset_says_what_each_bid_is_worth(app: Flask, client: FlaskClient, ruleset: str,
                                                             options: dict[str, str], expected) -> None:
    url = new_game(client, ["Anne", "Ben", "Cara"], ruleset, **options)
    assert client.post(f"{url}/hands/1/cards", data={"cards": 3}).status_code == 303
    # The host's keys for a player without a phone, and a phone's own.
    host_page = client.get(url).get_data(as_text=True)
    assert worths(host_page) == {bid: expected(3, bid) for bid in range(4)}
    anne = seated(app, url, 0)
    assert worths(anne.get(url).get_data(as_text=True)) == {bid: expected(3, bid) for bid in range(4)}
    # Before a bid the line invites one; after it, it says what the chosen bid is worth.
    assert "Choose a bid: what it is worth shows here." in anne.get(url).get_data(as_text=True)
    assert anne.post(f"{url}/hands/1/bid", data={"bid": 2}).status_code == 303
    shown = re.search(r'<p class="worth"[^>]*>([^<]*)</p>', anne.get(url).get_data(as_text=True))
    assert shown is not None and html.unescape(shown[1]) == expected(3, 2)


def test_the_worth_is_said_in_each_language(app: Flask, client: FlaskClient) -> None:
    url = new_game(client, ["Anne", "Ben"], "modern", scoring="rascal", cannonball="on")
    said = {language: worths(client.get(url, headers={"Accept-Language": language}).get_data(as_text=True))[1]
            for language in ("de", "fr", "it")}
    assert said == {"de": "Geschafft: +10. Ein Stich daneben: +5; mehr: 0. "
                          "Mit der Kanonenkugel: +15, wenn genau geschafft, sonst 0.",
                    "fr": "Réussie : +10. Un pli d’écart : +5 ; plus : 0. "
                          "Avec le boulet de canon : +15 si réussie exactement, sinon 0.",
                    "it": "Riuscita: +10. Una presa di scarto: +5; di più: 0. "
                          "Con la palla di cannone: +15 se riuscita esattamente, altrimenti 0."}
    wizard = client.post("/games/new/wizard", data={"player": ["Anne", "Ben", "Cara"]}).headers["Location"]
    assert worths(client.get(wizard, headers={"Accept-Language": "de"}).get_data(as_text=True))[1] == \
        "Geschafft: +30. Je Stich daneben: −10."


def test_wizard_s_bid_keys_say_what_each_bid_is_worth(app: Flask) -> None:
    host = app.test_client()
    url = host.post("/games/new/wizard", data={"player": ["Anne", "Ben", "Cara"]}).headers["Location"]
    # 20 for a bid made and 10 a trick; 10 off for each trick off. Round 1 deals one card.
    expected = {bid: f"Made: +{20 + 10 * bid}. Each trick off: −10." for bid in range(2)}
    assert worths(host.get(url).get_data(as_text=True)) == expected
    # Once the bids are in, the tricks' keys say nothing of worth.
    for seat in (1, 2, 0):  # in turn, left of the first dealer
        answer = host.post(f"{url}/play", data={"play": 1, "seat": seat, "bid": 0})
        assert answer.status_code == 303, html.unescape(answer.get_data(as_text=True))[-3000:]
    page = host.get(url).get_data(as_text=True)
    assert 'name="tricks"' in page and "data-worth" not in page
