"""No unrevealed bid reaches anyone else: every route, as every other party, answers the same whatever the bid.

If a response seen by another seat, a viewer, a stranger or the host does not change
when Anne's hidden bid changes, it cannot carry that bid, in any form or encoding.
"""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient

from scorekeeper import games
from scorekeeper.shelf.skullking.storage import Phase
from tests.conftest import make_app
from tests.helpers import hand_now, set_count

TOKEN = re.compile(r'(name="csrf_token" value="|"X-CSRFToken": ")[^"]+')
VERSION = re.compile(r'(data-edition="|data-now="|data-reveal-at="|data: |id: |edition=)\d+')
# Each page loaded whole names a screen of its own (its stream's address and its htmx headers carry it).
SCREEN = re.compile(r'("X-Screen": "|screen=)[A-Za-z0-9_-]+')


def normalized(body: str) -> str:
    """A response without what changes from one request to the next anyway."""
    return SCREEN.sub(r"\1S", VERSION.sub(r"\1N", TOKEN.sub(r"\1T", body)))


def first_events(client: FlaskClient, path: str, count: int = 3) -> str:
    """The opening of an event stream, which never ends by itself: the shared table and this browser's card
    (`count` events: the retry, the table, the card; the events of one wake come in one chunk)."""
    response = client.get(path, buffered=False)
    chunks = []
    for chunk in response.response:
        chunks.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
        if "".join(chunks).count("\n\n") >= count:
            break
    response.close()
    return "".join(chunks)


@pytest.fixture
def table(database_url: str):
    """A game with a host, Anne and Ben on phones, a viewer and a stranger."""
    app = make_app(database_url, REVEAL_COUNT_SECONDS=600)
    host, anne, ben, viewer, stranger = (app.test_client() for _ in range(5))
    created = host.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben", "Cara"]})
    url = created.headers["Location"]
    host.post(f"{url}/hands/1/cards", data={"cards": 9})
    assert anne.post(f"{url}/join", data={"seat": 0}).status_code == 303
    assert ben.post(f"{url}/join", data={"seat": 1}).status_code == 303
    viewer.get(url)
    return app, url, {"host": host, "anne": anne, "ben": ben, "viewer": viewer, "stranger": stranger}


# What each route parameter is filled with; a route whose parameter is not here fails the test,
# so a new page cannot escape it. Several values: the route is fetched with each.
def route_values(app: Flask, url: str) -> dict[str, list[str]]:
    public_id = url.rsplit("/", 1)[-1]
    with app.app_context():
        crew = games.find_game(public_id).crew
    return {"public_id": [public_id], "number": ["1", "2"], "crew": [crew], "key": ["wrong"],
            "kind_name": ["skip-bo", "dracula", "wizard"], "position": ["0"], "request_id": ["1"],
            "code": ["wrong"], "name": ["Anne"]}


# Not a page of a game: the static files (the app's and a game's Blueprint's), the same for everyone.
NOT_PAGES = {"static"}


def is_page(endpoint: str) -> bool:
    """Whether a route's endpoint is a page (not static files)."""
    return endpoint not in NOT_PAGES and not endpoint.endswith(".static")


def get_routes(app: Flask, url: str) -> list[str]:
    """Every GET route of the app, with its parameters filled in; fails for a parameter it does not know."""
    values = route_values(app, url)
    paths = ["/games/unknown"]
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or not is_page(rule.endpoint):
            continue
        unknown = rule.arguments - values.keys()
        assert not unknown, f"the secrecy test does not know how to fill {unknown} in {rule.rule}: add it"
        filled = [{}]
        for argument in sorted(rule.arguments):
            filled = [{**f, argument: value} for f in filled for value in values[argument]]
        with app.test_request_context():
            paths += [url_for(rule.endpoint, **f) for f in filled]
    return paths


def pages_seen_by(client: FlaskClient, url: str) -> dict[str, str]:
    """Every page, fragment, export and stream of a game a party can get, by route."""
    seen = {}
    for path in get_routes(client.application, url):
        if path.endswith("/events"):
            continue  # never ends: its opening is read below
        for headers in ({}, {"HX-Request": "true"}):
            response = client.get(path, headers=headers)
            seen[f"GET {path} {headers}"] = f"{response.status_code} {response.headers.get('Location')} " + \
                response.get_data(as_text=True)
    seen["events"] = first_events(client, f"{url}/events")
    # The big screen's stream pushes its page too.
    seen["events screen"] = first_events(client, f"{url}/events?view=screen", count=2)
    return seen


def everything_seen_by(client: FlaskClient, url: str, join_code: str, is_host: bool) -> dict[str, str]:
    """Every page, fragment, export, stream and refusal a party can get, by route."""
    seen = pages_seen_by(client, url)
    # The pad's stream pushes its page too.
    seen["events scorepad"] = first_events(client, f"{url}/events?view=scorepad")
    # Writes that are not theirs to make, and wrong input: refused, in words that must not tell.
    # (The host may bid for Anne, free her seat or start a rematch, so the host only sends wrong input.)
    writes = [(f"{url}/hands/1/bid", {"seat": 0, "bid": 99}), (f"{url}/hands/1/bid", {"bid": "x"}),
              (f"{url}/hands/1", {"tricks-0": "1", "intent": "score"}), (f"{url}/hands/1", {"intent": "draft"}),
              (f"{url}/hands/1/cards", {"cards": 99}), ("/join", {"code": join_code + "X"})]
    if not is_host:
        writes += [(f"{url}/hands/1/bid", {"seat": 0, "bid": 1}), (f"{url}/seats/0/free", {}), (f"{url}/rematch", {})]
    for path, data in writes:
        response = client.post(path, data=data, headers={"HX-Request": "true"})
        seen[f"POST {path} {data}"] = f"{response.status_code} " + response.get_data(as_text=True)
    return seen


def views_with_annes_bid(app: Flask, url: str, clients: dict[str, FlaskClient], bid: int,
                         ben_bids: bool) -> dict[str, dict[str, str]]:
    """What everyone but Anne gets while Anne's secret bid is `bid`."""
    anne = clients["anne"]
    assert anne.post(f"{url}/hands/1/bid", data={"bid": bid}).status_code == 303
    if ben_bids:
        clients["ben"].post(f"{url}/hands/1/bid", data={"bid": 2})
        clients["host"].post(f"{url}/hands/1/bid", data={"seat": 2, "bid": 1})
    with app.app_context():
        code = games.find_game(url.rsplit("/", 1)[-1]).join_code
        assert hand_now(url).entries[0].bid == bid
        assert hand_now(url).phase == ("counting" if ben_bids else "bidding")
    return {name: {route: normalized(body)
                   for route, body in everything_seen_by(client, url, code, name == "host").items()}
            for name, client in clients.items() if name != "anne"}


def reset_bids(app: Flask, url: str) -> None:
    """Back to a hand where nobody has bid yet."""
    with app.app_context():
        set_count(url, 1, "bid", forget=True)


@pytest.mark.parametrize("ben_bids", [False, True], ids=["while bidding", "while counting"])
def test_no_route_shows_a_hidden_bid_to_anyone_else(table, ben_bids: bool) -> None:
    app, url, clients = table
    with_three = views_with_annes_bid(app, url, clients, 3, ben_bids)
    reset_bids(app, url)
    with_eight = views_with_annes_bid(app, url, clients, 8, ben_bids)
    for party in with_three:
        for route in with_three[party]:
            assert with_three[party][route] == with_eight[party][route], f"{party} learns Anne's bid from {route}"
    # The refusals really were refusals: nobody else changed Anne's bid.
    with app.app_context():
        assert hand_now(url).entries[0].bid == 8


def test_annes_own_phone_sees_her_bid(table) -> None:
    app, url, clients = table
    clients["anne"].post(f"{url}/hands/1/bid", data={"bid": 7})
    page = clients["anne"].get(url).get_data(as_text=True)
    assert "Your bid is 7." in page
    assert 'value="7" aria-pressed="true"' in page


def test_a_phone_writes_only_its_own_seat(table) -> None:
    app, url, clients = table
    refused = clients["ben"].post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1})
    assert refused.status_code == 403
    assert "Only that player's own phone or the host can change this." in html.unescape(refused.get_data(as_text=True))
    assert clients["viewer"].post(f"{url}/hands/1/bid", data={"seat": 2, "bid": 1}).status_code == 403
    assert clients["stranger"].post(f"{url}/seats/0/free").status_code == 403
    assert clients["ben"].post(f"{url}/hands/1/cards", data={"cards": 3}).status_code == 403
    assert clients["host"].post(f"{url}/hands/1/bid", data={"seat": 2, "bid": 1}).status_code == 303
    # The host is told why in the host's own words: the seat has its phone, and only that phone enters for it.
    by_host = clients["host"].post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1})
    assert by_host.status_code == 403
    said = html.unescape(by_host.get_data(as_text=True))
    assert "That player's seat has its own phone now: only their phone can change it." in said
    assert "or the host" not in said
    with app.app_context():
        entries = hand_now(url).entries
        assert [e.bid for e in entries] == [None, None, 1]


def test_a_seat_is_taken_once_and_the_host_can_free_it(table) -> None:
    app, url, clients = table
    second = clients["stranger"].post(f"{url}/join", data={"seat": 0})
    assert second.status_code == 422
    assert "Anne already plays on another phone. Ask the host to let this phone in instead." in second.get_data(as_text=True)
    assert clients["host"].post(f"{url}/seats/0/free").status_code == 303
    assert clients["stranger"].post(f"{url}/join", data={"seat": 0}).status_code == 303
    assert "You are Anne" in clients["stranger"].get(url).get_data(as_text=True)
    assert "You are Anne" not in clients["anne"].get(url).get_data(as_text=True)


def test_links_carry_128_random_bits(table) -> None:
    app, url, clients = table
    with app.app_context():
        game = games.find_game(url.rsplit("/", 1)[-1])
    with clients["host"].session_transaction() as session:
        host_key = session["hosting"][game.public_id]
    with app.app_context():
        assert len(game.public_id) >= 22 and len(host_key) >= 22
        assert re.fullmatch(r"[ACDEFGHJKMNPQRTWXY34679]{6}", game.join_code)


def test_guessing_join_codes_is_slowed_down(table) -> None:
    app, url, clients = table
    statuses = [clients["stranger"].post("/join", data={"code": f"AAAA{n:02d}"}).status_code for n in range(14)]
    assert statuses[:12] == [422] * 12
    assert statuses[12:] == [429, 429]
    with app.app_context():
        code = games.find_game(url.rsplit("/", 1)[-1]).join_code
    # Even the right code waits now.
    assert clients["stranger"].post("/join", data={"code": code}).status_code == 429
    # From another address, typed in lower case with a space, the code works.
    other = {"REMOTE_ADDR": "192.0.2.9"}
    typed = f"{code[:3].lower()} {code[3:].lower()}"
    response = clients["viewer"].post("/join", data={"code": typed}, environ_base=other)
    assert response.headers["Location"] == f"{url}/join"


def test_any_bid_during_the_count_starts_it_again_whatever_its_value(table) -> None:
    """Re-sending the same bid or another one looks the same to everyone: the count restarts, the version moves by one."""
    app, url, clients = table
    clients["anne"].post(f"{url}/hands/1/bid", data={"bid": 1})
    clients["ben"].post(f"{url}/hands/1/bid", data={"bid": 1})
    clients["host"].post(f"{url}/hands/1/bid", data={"seat": 2, "bid": 1})

    def state():
        with app.app_context():
            game = games.find_game(url.rsplit("/", 1)[-1])
            return hand_now(url).phase, hand_now(url).reveal_at, game.version

    phase, first, version = state()
    assert phase == Phase.COUNTING
    for bid in (1, 2):  # the same bid again, then another one
        clients["ben"].post(f"{url}/hands/1/bid", data={"bid": bid})
        phase, restarted, moved = state()
        assert phase == Phase.COUNTING and restarted > first and moved == version + 1
        first, version = restarted, moved


def test_a_new_deal_clears_every_bid_so_none_can_be_inferred(table) -> None:
    app, url, clients = table
    clients["anne"].post(f"{url}/hands/1/bid", data={"bid": 5})
    clients["ben"].post(f"{url}/hands/1/bid", data={"bid": 0})
    assert clients["host"].post(f"{url}/hands/1/cards", data={"cards": 2}).status_code == 303
    with app.app_context():
        record = hand_now(url)
        assert record.cards == 2 and [e.bid for e in record.entries] == [None, None, None]


def test_a_seat_changing_phones_tells_nobody_the_bid_it_had(table) -> None:
    """Anne bids, the host frees her seat, a new phone claims it: every party, the new phone too, sees the same."""
    app, url, clients = table
    seen = []
    for bid in (3, 8):
        reset_bids(app, url)
        clients["host"].post(f"{url}/seats/0/free")
        holder = app.test_client()
        assert holder.post(f"{url}/join", data={"seat": 0}).status_code == 303
        assert holder.post(f"{url}/hands/1/bid", data={"bid": bid}).status_code == 303
        assert clients["host"].post(f"{url}/seats/0/free").status_code == 303
        newcomer = app.test_client()
        assert newcomer.post(f"{url}/join", data={"seat": 0}).status_code == 303
        with app.app_context():
            code = games.find_game(url.rsplit("/", 1)[-1]).join_code
        parties = {"host": clients["host"], "ben": clients["ben"], "viewer": clients["viewer"], "newcomer": newcomer}
        seen.append({name: {route: normalized(body)
                            for route, body in everything_seen_by(client, url, code, name == "host").items()}
                     for name, client in parties.items()})
    for party in seen[0]:
        for route in seen[0][party]:
            assert seen[0][party][route] == seen[1][party][route], f"{party} learns the old bid from {route}"
