"""A lost phone's way back: the same player on a new phone asks, the host lets in the phone whose code it shows."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import games
from tests.helpers import new_game

LET_IN = re.compile(r'action="([^"]+/let-in)"[^<]*<input[^>]*>\s*<button[^>]*>Let in the phone showing (\d+)')


def seen(client: FlaskClient, url: str) -> str:
    return html.unescape(client.get(url).get_data(as_text=True))


def code_of(phone: FlaskClient, url: str) -> str:
    """The code an asking phone shows, to be read out to the host."""
    found = re.search(r'class="request-code">[^<]*<strong>(\d+)</strong>', seen(phone, f"{url}/join"))
    assert found, "the asking phone shows no code"
    return found.group(1)


def let_in_buttons(host: FlaskClient, url: str) -> dict[str, str]:
    """The host's "let in" buttons: the code each names, and where it posts."""
    return {code: action for action, code in LET_IN.findall(seen(host, url))}


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
    code = code_of(new, url)
    # Until the host answers it is nobody's phone: no card, no bid.
    assert "You are Anne" not in seen(new, url) and "Your bid is 1" not in seen(new, url)
    assert "You are Anne" in seen(old, url)
    host_page = seen(host, url)
    assert "Anne asks to play on a new phone" in host_page
    # The code is the host's to see, not the table's.
    assert f"showing {code}" not in seen(old, url) and f"showing {code}" not in seen(app.test_client(), url)
    assert host.post(let_in_buttons(host, url)[code]).status_code == 303
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


def test_only_the_phone_whose_code_the_host_picked_gets_in(client: FlaskClient, app: Flask) -> None:
    """A stranger asking after the real phone does not win the seat: the host picks by the code."""
    url = new_game(client, ["Anne", "Ben"])
    anne_old, anne_new, stranger = app.test_client(), app.test_client(), app.test_client()
    anne_old.post(f"{url}/join", data={"seat": 0})
    assert anne_new.post(f"{url}/join", data={"ask": "0"}).status_code == 303
    assert stranger.post(f"{url}/join", data={"ask": "0"}).status_code == 303
    real, fake = code_of(anne_new, url), code_of(stranger, url)
    assert real != fake
    buttons = let_in_buttons(client, url)
    assert set(buttons) == {real, fake}
    assert client.post(buttons[real]).status_code == 303
    assert "You are Anne" in seen(anne_new, url)
    assert "You are Anne" not in seen(stranger, url)
    # The stranger's request was for that seat: it is told no, and may ask again.
    told = seen(stranger, f"{url}/join")
    assert "The host did not let this phone in as Anne." in told and "Who are you?" in told
    # A second tap on the same button (another screen, a double tap) changes nothing.
    with app.app_context():
        version = games.load(url.rsplit("/", 1)[-1]).version
    assert client.post(buttons[real]).status_code == 303
    assert client.post(buttons[fake]).status_code == 303
    with app.app_context():
        assert games.load(url.rsplit("/", 1)[-1]).version == version
    assert "You are Anne" in seen(anne_new, url) and "You are Anne" not in seen(stranger, url)


def test_a_turned_away_phone_is_told_and_may_ask_again(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Anne", "Ben"])
    anne, ben, stranger = app.test_client(), app.test_client(), app.test_client()
    anne.post(f"{url}/join", data={"seat": 0})
    ben.post(f"{url}/join", data={"seat": 1})
    assert ben.post(f"{url}/join", data={"ask": "0"}).status_code == 403
    assert client.post(f"{url}/join", data={"ask": "0"}).status_code == 403
    assert stranger.post(f"{url}/join", data={"ask": "7"}).status_code == 422
    assert stranger.post(f"{url}/join", data={"ask": "0"}).status_code == 303
    action = let_in_buttons(client, url)[code_of(stranger, url)]
    for phone in (anne, ben, stranger):
        assert phone.post(action).status_code == 403
        assert phone.post(action.replace("let-in", "turn-away")).status_code == 403
    # The host says no: the asking phone is told, back at the list; Anne keeps her seat.
    assert client.post(action.replace("let-in", "turn-away")).status_code == 303
    told = seen(stranger, f"{url}/join")
    assert "The host did not let this phone in as Anne." in told and "Who are you?" in told
    assert "asks to play on a new phone" not in seen(client, url)
    assert "You are Anne" in seen(anne, url)
    assert stranger.post(f"{url}/join", data={"ask": "0"}).status_code == 303
    assert "Waiting for the host" in seen(stranger, f"{url}/join")


def test_a_flood_of_seat_requests_is_limited(app: Flask) -> None:
    """Per browser a few a minute; per seat a few open at once, however many browsers a stranger uses."""
    host = app.test_client()
    url = new_game(host, ["Anne", "Ben"])
    app.test_client().post(f"{url}/join", data={"seat": 0})
    asker = app.test_client()
    limit = app.config["SEAT_REQUESTS_PER_MINUTE"]
    answers = [asker.post(f"{url}/join", data={"ask": "0"}).status_code for _ in range(limit + 1)]
    assert answers == [303] * limit + [429]
    assert "Too many requests from this phone." in html.unescape(
        asker.post(f"{url}/join", data={"ask": "0"}).get_data(as_text=True))
    # Asking again replaced the browser's own request: one open request per browser.
    assert len(let_in_buttons(host, url)) == 1
    strangers = [app.test_client() for _ in range(6)]
    answers = [s.post(f"{url}/join", data={"ask": "0"}).status_code for s in strangers]
    assert answers.count(303) == 3 and set(answers[3:]) == {422}
    refused = html.unescape(app.test_client().post(f"{url}/join", data={"ask": "0"}).get_data(as_text=True))
    assert "Too many phones are asking for the seat of Anne." in refused
    assert len(let_in_buttons(host, url)) == 4


def test_a_phone_holds_one_seat_and_the_host_none(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Anne", "Ben", "Cara"])
    anne = app.test_client()
    assert anne.post(f"{url}/join", data={"seat": 0}).status_code == 303
    second = anne.post(f"{url}/join", data={"seat": 1})
    assert second.status_code == 422
    assert "This phone already plays Anne in this game." in html.unescape(second.get_data(as_text=True))
    hosting = client.post(f"{url}/join", data={"seat": 2})
    assert hosting.status_code == 422 and "You host this game" in html.unescape(hosting.get_data(as_text=True))
    # Ben and Cara are still free, Anne still Anne.
    page = seen(app.test_client(), f"{url}/join")
    assert page.count('class="seat-choice"') == 2
    assert "You are Anne" in seen(anne, url)


def test_a_free_seat_is_taken_not_asked_for(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Anne", "Ben"])
    phone = app.test_client()
    response = phone.post(f"{url}/join", data={"ask": "1"})
    assert response.status_code == 422 and "Ben is free now: take the seat." in html.unescape(response.get_data(as_text=True))
