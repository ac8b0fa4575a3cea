"""A hand whose results clash: the problem goes to the players concerned, once all of them have entered theirs."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import hand_now, new_game


def seated(app: Flask, url: str, names: list[str]) -> dict[str, FlaskClient]:
    """One phone per player, each joined to its seat."""
    phones = {}
    for seat, name in enumerate(names):
        phones[name] = app.test_client()
        assert phones[name].post(f"{url}/join", data={"seat": seat}).status_code == 303
    return phones


def bid(phones: dict[str, FlaskClient], url: str, bids: dict[str, int]) -> None:
    for name, value in bids.items():
        assert phones[name].post(f"{url}/hands/1/bid", data={"bid": value}).status_code == 303


def seen(client: FlaskClient, url: str) -> str:
    return html.unescape(client.get(url).get_data(as_text=True))


def card_of(page: str) -> str:
    return page[page.index('<div id="card"'):page.index('<div id="table"')]


def table_of(page: str) -> str:
    return page[page.index('<div id="table"'):]


def entries(app: Flask, url: str) -> list[tuple[bool, bool]]:
    """(done, fixing) of every entry of hand 1."""
    with app.app_context():
        record = hand_now(url)
        return [(e.done, e.fixing) for e in record.entries]


CLAIMS = "Hand 1: Anne and Ben both claim the Skull King — there is only one."


def test_a_clash_waits_for_everyone_concerned_then_goes_back_to_them(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Anne", "Ben", "Cara"])
    host = client
    phones = seated(app, url, ["Anne", "Ben", "Cara"])
    host.post(f"{url}/hands/1/cards", data={"cards": 3})
    bid(phones, url, {"Anne": 1, "Ben": 1, "Cara": 1})
    # Ben types his claim, not done yet; Anne says she is done with hers: nobody is told yet.
    assert phones["Ben"].post(f"{url}/hands/1", data={"intent": "draft", "tricks-1": "1",
                                                      "skull_king_by_mermaid-1": "on"}).status_code == 303
    assert phones["Anne"].post(f"{url}/hands/1", data={"intent": "done", "tricks-0": "1",
                                                       "pirates_by_skull_king-0": "1"}).status_code == 303
    assert phones["Cara"].post(f"{url}/hands/1", data={"intent": "done", "tricks-2": "1"}).status_code == 303
    for viewer in (host, *phones.values()):
        assert CLAIMS not in seen(viewer, url)
    # Ben says he is done: both of them are sent back, with what to do.
    assert phones["Ben"].post(f"{url}/hands/1", data={"intent": "done", "tricks-1": "1",
                                                      "skull_king_by_mermaid-1": "on"}).status_code == 303
    assert entries(app, url) == [(False, True), (False, True), (True, False)]
    for name in ("Anne", "Ben"):
        page = seen(phones[name], url)
        card = card_of(page)
        assert "Your result clashes with another player's" in card and CLAIMS in card
        # One state: no "done" anywhere for them.
        assert "Your result is in" not in card and 'value="done"' in card
        assert re.search(rf"{name}</span>.*?⚠ checking", table_of(page), re.S)
    cara = seen(phones["Cara"], url)
    assert "Your result clashes" not in card_of(cara) and "Your result is in: 1 trick." in card_of(cara)
    assert "Anne and Ben are checking their results; the hand waits:" in table_of(cara) and CLAIMS in table_of(cara)
    # No total is built on results that cannot be: no points per row, no provisional total on the board.
    assert not re.search(r"· [+−]?\d", table_of(cara)) and 'class="provisional"' not in cara
    # Ben takes his claim back: the clash is settled, Anne's result stands again; the hand waits for Ben.
    assert phones["Ben"].post(f"{url}/hands/1", data={"intent": "draft", "tricks-1": "1"}).status_code == 303
    assert entries(app, url) == [(True, False), (False, True), (True, False)]
    assert "Your result is in" in card_of(seen(phones["Anne"], url))
    assert "The clash is settled" in card_of(seen(phones["Ben"], url))
    assert phones["Ben"].post(f"{url}/hands/1", data={"intent": "done", "tricks-1": "1"}).status_code == 303
    assert "Hand 2 of 10" in seen(host, url)


def test_standing_by_a_clashing_result_sends_it_back_again(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Anne", "Ben"])
    phones = seated(app, url, ["Anne", "Ben"])
    client.post(f"{url}/hands/1/cards", data={"cards": 2})
    bid(phones, url, {"Anne": 1, "Ben": 1})
    anne = {"intent": "done", "tricks-0": "1", "pirates_by_skull_king-0": "1"}
    ben = {"intent": "done", "tricks-1": "1", "skull_king_by_mermaid-1": "on"}
    phones["Anne"].post(f"{url}/hands/1", data=anne)
    phones["Ben"].post(f"{url}/hands/1", data=ben)
    assert entries(app, url) == [(False, True), (False, True)]
    # Anne stands by hers: she is done, Ben still fixing; when Ben stands by his too, both go back again.
    phones["Anne"].post(f"{url}/hands/1", data=anne)
    assert entries(app, url) == [(True, False), (False, True)]
    phones["Ben"].post(f"{url}/hands/1", data=ben)
    assert entries(app, url) == [(False, True), (False, True)]


def test_a_loot_alliance_is_checked_only_once_both_allies_have_entered(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Xan", "Yul", "Zoe"], ruleset="modern", advanced_cards="on")
    phones = seated(app, url, ["Xan", "Yul", "Zoe"])
    bid(phones, url, {"Xan": 1, "Yul": 0, "Zoe": 0})
    assert phones["Xan"].post(f"{url}/hands/1", data={"intent": "done", "tricks-0": "1",
                                                      "loot-0": "1"}).status_code == 303
    loot = "Yul does not name Xan"
    for phone in phones.values():
        assert loot not in seen(phone, url)
    # Yul says done without naming Xan: now it is a clash of theirs, and only theirs.
    assert phones["Yul"].post(f"{url}/hands/1", data={"intent": "done", "tricks-1": "0"}).status_code == 303
    assert loot in card_of(seen(phones["Xan"], url)) and loot in card_of(seen(phones["Yul"], url))
    zoe = seen(phones["Zoe"], url)
    assert loot in table_of(zoe) and loot not in card_of(zoe)
    assert entries(app, url) == [(False, True), (False, True), (False, False)]


def test_tricks_nobody_won_settle_a_wrong_sum_and_close_the_hand(client: FlaskClient, app: Flask) -> None:
    """A Kraken hand closed from the phones alone: the sum is one short until a phone says a trick went to it."""
    url = new_game(client, ["Anne", "Ben"], ruleset="modern", advanced_cards="on")
    phones = seated(app, url, ["Anne", "Ben"])
    client.post(f"{url}/hands/1/cards", data={"cards": 3})
    bid(phones, url, {"Anne": 1, "Ben": 1})
    phones["Anne"].post(f"{url}/hands/1", data={"intent": "done", "tricks-0": "1"})
    phones["Ben"].post(f"{url}/hands/1", data={"intent": "done", "tricks-1": "1"})
    assert entries(app, url) == [(False, True), (False, True)]
    assert "must add up to the cards dealt: 3" in card_of(seen(phones["Anne"], url))
    # Not a quarrel: every phone says how many tricks are missing and offers "One more" right there.
    for name in ("Anne", "Ben"):
        card = card_of(seen(phones[name], url))
        assert "1 trick is missing: the tricks won add up to less than the cards dealt." in card
        assert "Was one of them a trick nobody won (Kraken, White Whale, the two-player ghost)? Count it:" in card
        assert 'value="lost-more"' in card
        assert "clashes" not in card
    assert "1 trick is missing. If nobody won it (Kraken, White Whale, the two-player ghost)" in \
        table_of(seen(client, url))
    # One phone says a trick went to the Kraken: both results stand again and the hand closes.
    assert phones["Ben"].post(f"{url}/hands/1", data={"intent": "lost-more"}).status_code == 303
    assert "Hand 2 of" in seen(client, url)


def test_a_phone_is_refused_its_own_mistake_at_once(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Anne", "Ben"])
    phones = seated(app, url, ["Anne", "Ben"])
    client.post(f"{url}/hands/1/cards", data={"cards": 2})
    bid(phones, url, {"Anne": 1, "Ben": 1})
    response = phones["Anne"].post(f"{url}/hands/1", data={"intent": "done", "tricks-0": "0",
                                                           "pirates_by_skull_king-0": "1"})
    assert response.status_code == 422
    assert "Anne won no tricks, so cannot have captured any cards." in html.unescape(response.get_data(as_text=True))
    assert entries(app, url) == [(False, False), (False, False)]
