"""The trick judge at the table: a screen for every phone and the host, and "This trick was mine"."""

from __future__ import annotations

import html
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import hand_now, new_game


def seen(client: FlaskClient, url: str) -> str:
    return html.unescape(client.get(url).get_data(as_text=True))


def entries(app: Flask, url: str) -> list[tuple[int | None, dict[str, int], list[int], bool]]:
    with app.app_context():
        record = hand_now(url)
        return [(e.tricks, dict(e.bonuses), list(e.loot_with), e.done) for e in record.entries]


@pytest.fixture
def table(app: Flask, client: FlaskClient):
    """Modern rules with advanced cards, three cards: Anne and Ben on phones, Cara without one; bids shown."""
    url = new_game(client, ["Anne", "Ben", "Cara"], "modern", advanced_cards="on")
    client.post(f"{url}/hands/1/cards", data={"cards": 3})
    anne, ben = app.test_client(), app.test_client()
    anne.post(f"{url}/join", data={"seat": 0})
    ben.post(f"{url}/join", data={"seat": 1})
    anne.post(f"{url}/hands/1/bid", data={"bid": 1})
    ben.post(f"{url}/hands/1/bid", data={"bid": 1})
    client.post(f"{url}/hands/1/bid", data={"seat": 2, "bid": 1})
    return url, {"host": client, "anne": anne, "ben": ben, "viewer": app.test_client()}


def judged(url: str, lead: int, cards: str) -> str:
    return f"{url}/trick?lead={lead}&cards={quote(cards)}"


def test_every_phone_and_the_host_judge_and_only_the_winner_claims(table, app: Flask) -> None:
    url, who = table
    assert "Who wins this trick?" in seen(who["anne"], url) and "Who wins this trick?" in seen(who["host"], url)
    before = entries(app, url)
    # Ben leads: Ben a Pirate, Cara the Skull King, Anne a Mermaid.
    page = seen(who["anne"], judged(url, 1, "pirate, skull king, mermaid"))
    assert "Anne wins the trick with Mermaid." in page and "The Mermaid takes the Skull King." in page
    assert "+40" in page and "Anne leads the next trick." in page and "This trick was mine" in page
    for other in ("ben", "host", "viewer"):
        assert "This trick was mine" not in seen(who[other], judged(url, 1, "pirate, skull king, mermaid"))
    assert entries(app, url) == before, "a GET of the judge wrote something"

    claim = {"lead": "1", "cards": "pirate, skull king, mermaid"}
    assert who["ben"].post(f"{url}/hands/1/trick", data=claim).status_code == 403
    assert who["host"].post(f"{url}/hands/1/trick", data=claim).status_code == 403
    assert who["viewer"].post(f"{url}/hands/1/trick", data=claim).status_code == 403
    assert entries(app, url) == before
    assert who["anne"].post(f"{url}/hands/1/trick", data=claim).status_code == 303
    after = entries(app, url)
    assert after[0] == (1, {"skull_king_by_mermaid": 1}, [], False)
    assert after[1:] == before[1:]
    card = seen(who["anne"], url)
    # Anne's result card shows the capture, still a draft she says Done to herself.
    assert '<input type="checkbox" name="skull_king_by_mermaid-0" id="skull_king_by_mermaid-0" checked>' in card
    assert 'value="done"' in card


def test_the_host_claims_for_a_player_without_a_phone_and_the_server_judges(table, app: Flask) -> None:
    url, who = table
    # Anne leads: Anne green 7, Ben a Loot, Cara green 9: Cara wins, with an alliance with Ben.
    page = seen(who["host"], judged(url, 0, "green 7, loot, green 9"))
    assert "Cara wins the trick with Green 9." in page and "Loot alliance with Ben" in page
    assert "This trick was Cara's" in page
    assert who["host"].post(f"{url}/hands/1/trick", data={"lead": "0", "cards": "green 7, loot, green 9"}).status_code == 303
    assert entries(app, url)[2] == (1, {}, [1], False)
    # A trick not yet whole, a made-up card, or a trick nobody won cannot be claimed.
    for cards, message in [("green 7, loot", "Only a whole trick that someone won can be claimed."),
                           ("green 7, loot, green 99", "“green 99” is not a card of these rules."),
                           ("kraken, green 3, green 5", "Only a whole trick that someone won can be claimed.")]:
        refused = who["host"].post(f"{url}/hands/1/trick", data={"lead": "0", "cards": cards})
        assert refused.status_code == 422 and message in html.unescape(refused.get_data(as_text=True)), cards
    assert entries(app, url)[2] == (1, {}, [1], False)


def test_a_claim_sent_twice_is_refused_in_words(table, app: Flask) -> None:
    url, who = table
    claim = {"lead": "1", "cards": "pirate, skull king, mermaid"}
    assert who["anne"].post(f"{url}/hands/1/trick", data=claim).status_code == 303
    # The same Skull King twice for Anne: the trick was claimed once already.
    refused = who["anne"].post(f"{url}/hands/1/trick", data=claim)
    text = html.unescape(refused.get_data(as_text=True))
    assert refused.status_code == 422
    assert "“skull king” was in a trick claimed already in this hand: a trick is claimed once." in text
    assert entries(app, url)[0] == (1, {"skull_king_by_mermaid": 1}, [], False)


def test_the_keypad_offers_only_what_the_pack_still_holds(table) -> None:
    url, who = table
    page = seen(who["anne"], judged(url, 0, "skull king") + "&suit=yellow")
    # The Skull King is played: its key is off; yellow's numbers are offered, 1 to 14.
    assert '<button type="button" class="button key face-key" disabled>Skull King</button>' in page
    assert 'aria-label="Yellow 14">14</a>' in page and 'aria-label="Yellow 1" data-focus-here>1</a>' in page
    assert "Ben's card" in page
    undone = seen(who["anne"], judged(url, 0, "skull king, yellow 3"))
    assert "So far Anne wins with Skull King." in undone and "Undo the last card" in undone
    assert "/trick?lead=0&amp;cards=skull+king" in who["anne"].get(judged(url, 0, "skull king, yellow 3")).get_data(
        as_text=True)


def test_the_doubloons_judge_by_shape_and_number(client: FlaskClient) -> None:
    url = new_game(client, ["Anne", "Ben", "Cara"], "doubloons")
    client.post(f"{url}/hands/1/cards", data={"cards": 2})
    for seat in range(3):
        client.post(f"{url}/hands/1/bid", data={"seat": seat, "bid": 0})
    page = seen(client, judged(url, 0, "circle 3, circle 8, star 0"))
    assert "Cara wins the trick with Star 0." in page and "The highest trump (Star) wins." in page
    keys = seen(client, judged(url, 0, "") + "&suit=triangle")
    assert "Triangle" in keys and 'aria-label="Triangle 0" data-focus-here>0</a>' in keys and "Flag" in keys


def test_a_trick_already_claimed_in_this_hand_is_refused_in_words(table, app: Flask) -> None:
    url, who = table
    claim = {"lead": "1", "cards": "pirate, skull king, mermaid"}
    assert who["anne"].post(f"{url}/hands/1/trick", data=claim).status_code == 303
    before = entries(app, url)
    # The same trick again (another tap, another phone's claim of the same cards), or one sharing its Skull King.
    for phone, cards in (("anne", "pirate, skull king, mermaid"), ("anne", "mermaid, pirate, skull king"),
                         ("host", "escape, skull king, yellow 3")):
        refused = who[phone].post(f"{url}/hands/1/trick", data={"lead": "1", "cards": cards})
        assert refused.status_code == 422
        assert "was in a trick claimed already in this hand: a trick is claimed once." in html.unescape(
            refused.get_data(as_text=True))
    assert entries(app, url) == before
    # Another trick of other cards is claimed as ever.
    assert who["ben"].post(f"{url}/hands/1/trick", data={"lead": "0", "cards": "yellow 3, yellow 9, yellow 5"}
                           ).status_code == 303
