"""A game the table has never heard of, defined only in the tests (`tests/highcard`) and registered with one line,
gets what the table gives every game: a new game, seats and joining, the lost phone's way back, freeing a seat,
the live stream, the big screen, its secret entries revealed together by the table's count (and kept from every
other screen), its pad file and a rematch."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.shelf import INSTALLED
from tests.conftest import make_app
from tests.highcard.kind import HIGH_CARD, example_pad
from tests.test_live_table import Stream


@pytest.fixture
def app(every_game_app: Flask) -> Flask:
    """The app offering every game on the shelf and high card: the one line that registers a game."""
    return every_game_app


def join(app: Flask, url: str, seat: int) -> FlaskClient:
    phone = app.test_client()
    response = phone.post(f"{url}/join", data={"seat": seat})
    assert response.status_code == 303, response.get_data(as_text=True)
    return phone


def test_a_game_from_outside_gets_the_whole_table(app: Flask) -> None:
    host = app.test_client()
    # The start page offers it, and its new-game form starts it.
    assert "/games/new/high-card" in host.get("/").get_data(as_text=True)
    refused = host.post("/games/new/high-card", data={"player": ["Anne"]})
    assert refused.status_code == 422 and "High card is for 2 to 6 players." in refused.get_data(as_text=True)
    url = host.post("/games/new/high-card", data={"player": ["Anne", "Ben"]}).headers["Location"]
    anne, ben = join(app, url, 0), join(app, url, 1)
    assert "You are Anne" in anne.get(url).get_data(as_text=True)

    # The live stream pushes another phone's card to every screen, the big screen too.
    screen = Stream(app.test_client(), f"{url}/events?view=screen&edition=-1")
    try:
        first = screen.next()
        assert "Anne: drawing…" in first.data
        assert ben.post(f"{url}/play", data={"card": "9", "play": "1"}).status_code == 303
        assert "Ben: card in" in screen.next().data
    finally:
        screen.close()
    big = host.get(f"{url}/screen").get_data(as_text=True)
    assert "High card" in big[big.index('class="brand"'):] and 'id="card"' not in big

    # Anne's phone is lost: a new phone asks for her seat, the host lets it in by its code; the old one watches.
    new = app.test_client()
    assert new.post(f"{url}/join", data={"ask": 0}).status_code == 303
    asking = new.get(f"{url}/join").get_data(as_text=True)
    code = asking[asking.index('class="request-code"'):].split("<strong>")[1].split("</strong>")[0]
    card = host.get(url).get_data(as_text=True)
    assert "Anne asks to play on a new phone" in card and f"Let in the phone showing {code}" in card
    with app.app_context():
        from scorekeeper import games
        request_id = games.load(url.rsplit("/", 1)[1]).open_requests[0].id
    assert host.post(f"{url}/requests/{request_id}/let-in").status_code == 303
    assert "You are Anne" in new.get(url).get_data(as_text=True)
    assert "You are Anne" not in anne.get(url).get_data(as_text=True)
    assert anne.post(f"{url}/play", data={"card": "5", "play": "1"}).status_code == 403

    # The host frees Ben's seat: his phone only watches, another takes the seat.
    assert host.post(f"{url}/seats/1/free").status_code == 303
    assert "You are Ben" not in ben.get(url).get_data(as_text=True)
    other = join(app, url, 1)
    assert "You are Ben" in other.get(url).get_data(as_text=True)

    # Rounds are played on the phones; the pad file and its CSV are the table's, the end is the kind's.
    for play, (a, b) in enumerate([(12, 9), (13, 2), (11, 3)], start=1):
        assert new.post(f"{url}/play", data={"card": a, "play": play}).status_code == 303
        assert other.post(f"{url}/play", data={"card": b, "play": play}).status_code == 303
        # All in: the count (of no seconds here) has shown them; the host moves on to the next round.
        assert f"Anne: shows {a}" in host.get(url).get_data(as_text=True)
        assert host.post(f"{url}/play", data={"next": "1", "play": play}).status_code == 303
    assert "Anne wins!" in host.get(url).get_data(as_text=True)
    pad = json.loads(host.get(f"{url}/pad.json").get_data(as_text=True))
    assert pad["wins"] == [3, 0] and pad["format"] == "high-card-pad"
    again = host.post(f"{url}/rematch")
    assert again.status_code == 303 and "Round 1" in host.get(again.headers["Location"]).get_data(as_text=True)


def test_a_game_from_outside_imports_its_pad_and_is_offered_only_where_registered(app: Flask,
                                                                               database_url: str) -> None:
    response = app.test_client().post("/games/import", data=example_pad(), content_type="application/json")
    assert response.status_code == 201, response.get_data(as_text=True)
    # An app not told of the game (the default) knows nothing of it.
    plain = make_app(database_url)
    assert plain.test_client().get("/games/new/high-card").status_code == 404
    with plain.app_context():
        db.engine.dispose()


@pytest.fixture
def counting_table(database_url: str) -> Iterator[tuple[Flask, str, dict[str, FlaskClient]]]:
    """High card with a long count: Anne and Ben on phones, the host, a viewer and a stranger."""
    app = make_app(database_url, games=[*INSTALLED, HIGH_CARD], REVEAL_COUNT_SECONDS=600)
    host, viewer, stranger = app.test_client(), app.test_client(), app.test_client()
    url = host.post("/games/new/high-card", data={"player": ["Anne", "Ben"]}).headers["Location"]
    anne, ben = join(app, url, 0), join(app, url, 1)
    viewer.get(url)
    yield app, url, {"host": host, "anne": anne, "ben": ben, "viewer": viewer, "stranger": stranger}
    with app.app_context():
        db.engine.dispose()


def views_with_annes_card(app: Flask, url: str, clients: dict[str, FlaskClient], card: int,
                          ben_draws: bool) -> dict[str, dict[str, str]]:
    """What everyone but Anne gets while Anne's secret card is `card` (and Ben's is in too: the count runs)."""
    from scorekeeper import games
    from tests.helpers import set_count
    from tests.test_secrecy import normalized

    with app.app_context():
        set_count(url, 1, "card", forget=True)
    assert clients["anne"].post(f"{url}/play", data={"card": card, "play": "1"}).status_code == 303
    if ben_draws:
        assert clients["ben"].post(f"{url}/play", data={"card": 7, "play": "1"}).status_code == 303
    with app.app_context():
        state = games.load(url.rsplit("/", 1)[-1])
        assert games.secrets_for(state, 1).of("card")[0] == card
        assert (state.reveal_at is not None) == ben_draws
    assert f"Your card is {card}." in clients["anne"].get(url).get_data(as_text=True)
    return {name: {route: normalized(body) for route, body in seen_by(client, url).items()}
            for name, client in clients.items() if name != "anne"}


def seen_by(client: FlaskClient, url: str) -> dict[str, str]:
    """Every page, fragment, export and stream a party can get, and its refusals, by route."""
    from tests.test_secrecy import pages_seen_by

    seen = pages_seen_by(client, url)
    for data in ({"card": "99", "play": "1"}, {"next": "1", "play": "1"}, {"card": "3", "seat": "0", "play": "1"}):
        response = client.post(f"{url}/play", data=data, headers={"HX-Request": "true"})
        seen[f"POST {data}"] = f"{response.status_code} " + response.get_data(as_text=True)
    return seen


@pytest.mark.parametrize("ben_draws", [False, True], ids=["while drawing", "while counting"])
def test_no_route_shows_a_hidden_card_to_anyone_else(counting_table, ben_draws: bool) -> None:
    """The secrecy of the table's secret entries holds for a game it has never heard of: Anne's card, 3 or 12,
    changes nothing anyone else can get, the host included."""
    app, url, clients = counting_table
    with_three = views_with_annes_card(app, url, clients, 3, ben_draws)
    with_twelve = views_with_annes_card(app, url, clients, 12, ben_draws)
    for party in with_three:
        for route in with_three[party]:
            assert with_three[party][route] == with_twelve[party][route], f"{party} learns Anne's card from {route}"


def test_the_cards_show_together_when_the_count_ends(counting_table) -> None:
    from tests.helpers import end_count

    app, url, clients = counting_table
    clients["anne"].post(f"{url}/play", data={"card": 12, "play": "1"})
    clients["ben"].post(f"{url}/play", data={"card": 7, "play": "1"})
    counting = clients["viewer"].get(url).get_data(as_text=True)
    assert "YO-HO-HO: the cards show in a moment." in counting and "shows 12" not in counting
    # A card changed during the count starts it again; a seat changing phones takes its card back.
    assert clients["ben"].post(f"{url}/play", data={"card": 8, "play": "1"}).status_code == 303
    assert clients["host"].post(f"{url}/seats/1/free").status_code == 303
    assert "YO-HO-HO" not in clients["viewer"].get(url).get_data(as_text=True)
    ben = join(app, url, 1)
    assert "Your card is" not in ben.get(url).get_data(as_text=True)
    ben.post(f"{url}/play", data={"card": 9, "play": "1"})
    with app.app_context():
        end_count(url)
    for party in ("host", "viewer", "stranger"):
        page = clients[party].get(url).get_data(as_text=True)
        assert "Anne: shows 12" in page and "Ben: shows 9" in page, party
    # Shown, they no longer change.
    assert "shown already" in clients["anne"].post(f"{url}/play", data={"card": 1, "play": "1"}).get_data(as_text=True)
    assert clients["host"].post(f"{url}/play", data={"next": "1", "play": "1"}).status_code == 303
    assert "Round 2" in clients["viewer"].get(url).get_data(as_text=True)
