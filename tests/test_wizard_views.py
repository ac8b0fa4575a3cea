"""Wizard at the table: bids in turn (whose turn, the bids so far, "no even bids"), secret bids revealed together and
kept from every other screen, tricks from each phone, the host for players without one and its corrections, the
end, rematch, crews, BG Stats and an imported game resumed."""

from __future__ import annotations

import copy
import html
import json
import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import games
from scorekeeper.extensions import db
from tests.conftest import make_app
from tests.test_wizard_pad import EXAMPLE


def join(app: Flask, url: str, seat: int) -> FlaskClient:
    phone = app.test_client()
    assert phone.post(f"{url}/join", data={"seat": seat}).status_code == 303
    return phone


def text(page: str) -> str:
    """A page's words, tags taken out and spaces folded."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def table_of(client: FlaskClient, url: str) -> str:
    """The words of the shared table of the game's screen."""
    page = client.get(url).get_data(as_text=True)
    return text(page[page.index('id="table"'):page.index('id="card"')])


def new_game(app: Flask, **form: object) -> tuple[FlaskClient, str]:
    host = app.test_client()
    response = host.post("/games/new/wizard", data={"player": ["Anne", "Ben", "Cara"], **form})
    assert response.status_code == 303, response.get_data(as_text=True)
    return host, response.headers["Location"]


def tap(client: FlaskClient, url: str, play: int, **data: object) -> tuple[int, str]:
    response = client.post(f"{url}/play", data={"play": play, **data}, headers={"HX-Request": "true"})
    return response.status_code, text(response.get_data(as_text=True))


def test_bids_in_turn_then_tricks_close_the_round(app: Flask) -> None:
    host, url = new_game(app, first_dealer="2")
    anne, ben, cara = (join(app, url, seat) for seat in range(3))
    # Cara deals round 1: Anne bids first, Cara last.
    assert "Anne's turn to bid" in table_of(host, url)
    status, page = tap(ben, url, 1, bid=0)
    assert status == 422 and "Round 1, Ben: it is Anne's turn to bid: in turn, starting left of the dealer." in page
    assert tap(anne, url, 1, bid=0)[0] == 200
    table = table_of(cara, url)
    assert "Ben's turn to bid" in table and "Anne bids 0." in table and "Bids: 0 for 1 trick" in table
    assert tap(ben, url, 1, bid=1)[0] == 200
    # Tricks wait for the last bid; the last bidder may change a slip until the next bids.
    assert "tricks come after the bids" in tap(anne, url, 1, tricks=0)[1]
    assert tap(cara, url, 1, bid=0)[0] == 200
    assert tap(cara, url, 1, bid=1)[0] == 200
    assert "Bids: 2 for 1 trick" in table_of(host, url)
    # Tricks that do not add up stay, and everyone is told.
    for phone, tricks in ((anne, 0), (ben, 1), (cara, 1)):
        assert tap(phone, url, 1, tricks=tricks)[0] == 200
    assert ("The tricks add up to 2, but this round has 1: every trick goes to somebody. Anne, Ben, and Cara, "
            "check yours.") in table_of(host, url)
    assert tap(cara, url, 1, tricks=0)[0] == 200
    table = table_of(host, url)
    assert "Round 2 of 20" in table and "Anne deals" in table and "Ben's turn to bid" in table
    pad = json.loads(host.get(f"{url}/pad.json").get_data(as_text=True))
    assert pad["rounds"] == EXAMPLE["rounds"] and pad["first_dealer"] == "Cara"
    # A tap for the closed round changes nothing.
    assert tap(anne, url, 1, tricks=1)[0] == 422


def test_no_even_bids_tells_the_last_bidder_the_number_and_refuses_it(app: Flask) -> None:
    host, url = new_game(app, no_even_bids="on")
    anne, ben, cara = (join(app, url, seat) for seat in range(3))
    # Anne deals round 1: Ben, Cara, then Anne.
    tap(ben, url, 1, bid=0)
    tap(cara, url, 1, bid=0)
    assert "Anne bids last and may not bid 1: the bids would add up to the cards dealt (no even bids)." in \
        table_of(host, url)
    assert "You bid last: you may not bid 1" in text(anne.get(url).get_data(as_text=True))
    status, page = tap(anne, url, 1, bid=1)
    assert status == 422
    assert ("Round 1, Anne: you bid last and may not bid 1: the bids would then add up to 1, the cards dealt "
            "(no even bids).") in page
    assert tap(anne, url, 1, bid=0)[0] == 200


def test_secret_and_no_even_bids_cannot_be_chosen_together(app: Flask) -> None:
    response = app.test_client().post("/games/new/wizard", data={"player": ["Anne", "Ben", "Cara"],
                                                                   "bidding": "secret", "no_even_bids": "on"})
    assert response.status_code == 422
    assert "“No even bids” needs bids in turn: with secret bids nobody bids last." in response.get_data(as_text=True)
    two = app.test_client().post("/games/new/wizard", data={"player": ["Anne", "Ben"]})
    assert two.status_code == 422 and "Wizard is for 3 to 6 players, not 2." in two.get_data(as_text=True)


def test_the_host_enters_for_a_player_without_a_phone_and_corrects_a_round(app: Flask) -> None:
    host, url = new_game(app)
    anne, ben = join(app, url, 0), join(app, url, 1)
    tap(ben, url, 1, bid=1)
    card = host.get(url).get_data(as_text=True)
    assert "Bid of Cara" in card
    assert tap(host, url, 1, bid=0, seat=2)[0] == 200
    tap(anne, url, 1, bid=0)
    for client, data in ((anne, {"tricks": 0}), (ben, {"tricks": 1}), (host, {"tricks": 0, "seat": 2})):
        assert tap(client, url, 1, **data)[0] == 200
    assert "Round 2 of 20" in table_of(host, url)
    # A phone may not correct; the host may, and what does not add up is refused in words.
    assert anne.get(f"{url}/wizard/rounds/1").status_code == 403
    assert anne.post(f"{url}/wizard/rounds/1", data={"bid-0": "1"}).status_code == 403
    form = host.get(f"{url}/wizard/rounds/1").get_data(as_text=True)
    assert "Correct round 1" in form and 'name="tricks-2"' in form
    wrong = host.post(f"{url}/wizard/rounds/1", data={"bid-0": "0", "bid-1": "1", "bid-2": "0",
                                                       "tricks-0": "1", "tricks-1": "1", "tricks-2": "0"})
    assert wrong.status_code == 422 and "your tricks add up to 2, but this round has 1" in wrong.get_data(as_text=True)
    typed = host.post(f"{url}/wizard/rounds/1", data={"bid-0": "x"})
    assert typed.status_code == 422 and "“x” is not a whole number." in typed.get_data(as_text=True)
    assert host.get(f"{url}/wizard/rounds/2").status_code == 404
    right = host.post(f"{url}/wizard/rounds/1", data={"bid-0": "0", "bid-1": "1", "bid-2": "1",
                                                       "tricks-0": "0", "tricks-1": "1", "tricks-2": "0"})
    assert right.status_code == 303
    pad = json.loads(host.get(f"{url}/pad.json").get_data(as_text=True))
    assert pad["totals"] == {"Anne": 20, "Ben": 30, "Cara": -10}
    assert "(corrected)" in host.get(url).get_data(as_text=True)


def imported(app: Flask, doc: dict) -> tuple[FlaskClient, str]:
    """A pad file brought in through the import API, and its host (by the host link it answers with)."""
    host = app.test_client()
    response = host.post("/games/import", data=json.dumps(doc), content_type="application/json")
    assert response.status_code == 201, response.get_data(as_text=True)
    local = lambda link: "/" + link.split("/", 3)[3]  # noqa: E731
    assert host.post(local(response.get_json()["host_url"])).status_code == 303
    return host, local(response.get_json()["url"])


def last_round_of_six() -> dict:
    """A pad of six players with nine of their ten rounds played: Finn made every bid of 0, the others missed."""
    players = ["Anne", "Ben", "Cara", "Dan", "Eve", "Finn"]
    rounds = []
    for cards in range(1, 10):
        entries = [{"player": p, "bid": 0, "tricks": cards if p == "Anne" else 0} for p in players]
        rounds.append({"cards": cards, "entries": entries})
    return {"format": "wizard-pad", "version": 1, "players": players, "rounds": rounds}


def test_the_last_round_ends_the_game_for_crews_bg_stats_and_a_rematch(app: Flask) -> None:
    host, url = imported(app, last_round_of_six())
    assert "Round 10 of 10" in table_of(host, url)
    # Round 10 is dealt by Dan (Anne dealt the first): Eve bids first.
    for seat in (4, 5, 0, 1, 2, 3):
        assert tap(host, url, 10, bid=0 if seat else 10, seat=seat)[0] == 200
    for seat in range(6):
        assert tap(host, url, 10, tricks=10 if seat == 0 else 0, seat=seat)[0] == 200
    table = table_of(host, url)
    assert "Finn wins!" not in table and "Ben, Cara, Dan, Eve, and Finn share the win!" in table
    with app.app_context():
        game = games.find_game(url.rsplit("/", 1)[1])
        assert game is not None and game.summary is not None
        summary = game.summary
    assert summary["totals"] == [-450 + 120, 200, 200, 200, 200, 200]
    assert summary["bids_made"] == [1, 10, 10, 10, 10, 10]
    play = json.loads(host.get(f"{url}/play.bgsplay").get_data(as_text=True))
    assert play["game"]["name"] == "Wizard" and "bggId" not in play["game"]
    assert [p["startPlayer"] for p in play["players"]] == [False, True, False, False, False, False]
    crew = host.get(f"/crews/{game.crew}").get_data(as_text=True)
    assert "Wizard" in crew and "10&#8239;%" in crew and "100&#8239;%" in crew and "Bids made" in crew
    assert "Bonus per game" not in crew
    again = host.post(f"{url}/rematch")
    assert again.status_code == 303
    assert "Ben deals" in table_of(host, again.headers["Location"])


def test_an_unfinished_round_of_a_pad_resumes_where_it_stopped(app: Flask) -> None:
    doc = copy.deepcopy(EXAMPLE)
    del doc["totals"]
    doc["rounds"].append({"cards": 2, "entries": [{"player": "Anne", "bid": 1}, {"player": "Ben", "bid": 0},
                                                  {"player": "Cara", "bid": 2}]})
    host, url = imported(app, doc)
    table = table_of(host, url)
    assert "Round 2 of 20" in table and "Play the round, then enter your tricks" in table and "Bids: 3 for 2" in table
    for seat, tricks in ((0, 1), (1, 0), (2, 1)):
        assert tap(host, url, 2, tricks=tricks, seat=seat)[0] == 200
    pad = json.loads(host.get(f"{url}/pad.json").get_data(as_text=True))
    assert pad["totals"] == {"Anne": 50, "Ben": 50, "Cara": -20}


@pytest.fixture
def secret_table(database_url: str) -> Iterator[tuple[Flask, str, dict[str, FlaskClient]]]:
    """Wizard with secret bids and a long count: Anne, Ben and Cara on phones, the host, a viewer, a stranger."""
    app = make_app(database_url, REVEAL_COUNT_SECONDS=600)
    host, url = new_game(app, bidding="secret")
    viewer, stranger = app.test_client(), app.test_client()
    anne, ben, cara = (join(app, url, seat) for seat in range(3))
    viewer.get(url)
    yield app, url, {"host": host, "anne": anne, "ben": ben, "cara": cara, "viewer": viewer, "stranger": stranger}
    with app.app_context():
        db.engine.dispose()


def views_with_annes_bid(app: Flask, url: str, clients: dict[str, FlaskClient], bid: int,
                         all_in: bool) -> dict[str, dict[str, str]]:
    """What everyone but Anne gets while Anne's secret bid is `bid` (and, `all_in`, the others' too: the count
    runs)."""
    from tests.helpers import set_count
    from tests.test_new_kind import seen_by
    from tests.test_secrecy import normalized

    with app.app_context():
        set_count(url, 1, "bid", forget=True)
    assert tap(clients["anne"], url, 1, bid=bid)[0] == 200
    if all_in:
        assert tap(clients["ben"], url, 1, bid=1)[0] == 200
        assert tap(clients["cara"], url, 1, bid=0)[0] == 200
    with app.app_context():
        state = games.load(url.rsplit("/", 1)[-1])
        assert games.secrets_for(state, 1).of("bid")[0] == bid
        assert (state.reveal_at is not None) == all_in
    assert f"Your bid is {bid}." in text(clients["anne"].get(url).get_data(as_text=True))
    seen = {}
    for name, client in clients.items():
        if name == "anne":
            continue
        routes = seen_by(client, url)
        for data in ({"bid": "1", "seat": "0"}, {"tricks": "0"}, {"bid": "x"}):
            response = client.post(f"{url}/play", data={"play": 1, **data}, headers={"HX-Request": "true"})
            routes[f"POST wizard {data}"] = f"{response.status_code} " + response.get_data(as_text=True)
        seen[name] = {route: normalized(body) for route, body in routes.items()}
    return seen


@pytest.mark.parametrize("all_in", [False, True], ids=["while bidding", "while counting"])
def test_no_route_shows_a_secret_bid_to_anyone_else(secret_table, all_in: bool) -> None:
    """Anne's secret bid, 0 or 1, changes nothing anyone else can get: the host, the other phones, a viewer."""
    app, url, clients = secret_table
    with_zero = views_with_annes_bid(app, url, clients, 0, all_in)
    with_one = views_with_annes_bid(app, url, clients, 1, all_in)
    assert with_zero.keys() == with_one.keys() and len(with_zero) == 5
    for party in with_zero:
        for route in with_zero[party]:
            assert with_zero[party][route] == with_one[party][route], f"{party} learns Anne's bid from {route}"


def test_secret_bids_show_together_when_the_count_ends(secret_table) -> None:
    from tests.helpers import end_count

    app, url, clients = secret_table
    tap(clients["anne"], url, 1, bid=1)
    tap(clients["ben"], url, 1, bid=0)
    assert "Secret bids: 2 of 3 in" in table_of(clients["viewer"], url)
    assert "tricks come after the bids" in tap(clients["anne"], url, 1, tricks=1)[1]
    tap(clients["cara"], url, 1, bid=1)
    counting = table_of(clients["viewer"], url)
    assert "YO… HO… HO!" in counting and "bids 1" not in counting
    # A bid changed during the count starts it again; nobody's number shows meanwhile.
    assert tap(clients["cara"], url, 1, bid=0)[0] == 200
    with app.app_context():
        end_count(url)
    for party in ("host", "viewer", "stranger", "ben"):
        table = table_of(clients[party], url)
        assert "Anne bids 1." in table and "Ben bids 0." in table and "Cara bids 0." in table, party
    status, page = tap(clients["anne"], url, 1, bid=0)
    assert status == 422 and "Round 1, Anne: the bids of this round are shown already" in page
    for name, tricks in (("anne", 1), ("ben", 0), ("cara", 0)):
        assert tap(clients[name], url, 1, tricks=tricks)[0] == 200
    assert "Round 2 of 20" in table_of(clients["viewer"], url)
    pad = json.loads(clients["host"].get(f"{url}/pad.json").get_data(as_text=True))
    assert [e["points"] for e in pad["rounds"][0]["entries"]] == [30, 20, 20]
    assert pad["options"] == {"bidding": "secret", "no_even_bids": False}


def test_a_secret_bid_stays_with_the_phone_that_made_it_when_the_seat_changes_phones(secret_table) -> None:
    """Anne's phone is lost while her bid is hidden: whoever takes her seat sees no bid and must bid again; the
    count that had started stops until then."""
    app, url, clients = secret_table
    for name, bid in (("anne", 1), ("ben", 0), ("cara", 1)):
        assert tap(clients[name], url, 1, bid=bid)[0] == 200
    assert "YO… HO… HO!" in table_of(clients["viewer"], url)
    assert clients["host"].post(f"{url}/seats/0/free").status_code == 303
    table = table_of(clients["viewer"], url)
    assert "YO… HO… HO!" not in table and "Secret bids: 2 of 3 in" in table
    new = join(app, url, 0)
    page = text(new.get(url).get_data(as_text=True))
    assert "Your bid is" not in page and "How many tricks will you win?" in page
    assert tap(new, url, 1, bid=0)[0] == 200
    with app.app_context():
        assert games.secrets_for(games.load(url.rsplit("/", 1)[-1]), 1).of("bid") == {0: 0, 1: 0, 2: 1}
