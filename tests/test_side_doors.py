"""Secrecy through the side doors: seats changing hands, the host's powers, imports, exports, headers, links."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import games
from scorekeeper.padfile import PadError
from scorekeeper.shelf import read_any
from tests.conftest import make_app
from tests.helpers import hand_now, hostile_pads, new_game


def bid_of(app: Flask, url: str, seat: int) -> int | None:
    """The stored bid of `seat` in the first hand."""
    with app.app_context():
        return hand_now(url).entries[seat].bid


@pytest.fixture
def seated(app: Flask, client: FlaskClient) -> tuple[str, FlaskClient]:
    """A classic game of three (9 cards in hand 1); Anne has a phone, Ben and Cara do not."""
    url = new_game(client, ["Anne", "Ben", "Cara"])
    client.post(f"{url}/hands/1/cards", data={"cards": 9})
    anne = app.test_client()
    assert anne.post(f"{url}/join", data={"seat": 0}).status_code == 303
    return url, anne


def test_a_freed_seat_loses_its_hidden_bid(app: Flask, client: FlaskClient, seated) -> None:
    url, anne = seated
    anne.post(f"{url}/hands/1/bid", data={"bid": 4})
    assert client.post(f"{url}/seats/0/free").status_code == 303
    newcomer = app.test_client()
    assert newcomer.post(f"{url}/join", data={"seat": 0}).status_code == 303
    page = newcomer.get(url).get_data(as_text=True)
    assert "Your bid is" not in page and "How many tricks will you win?" in page
    assert bid_of(app, url, 0) is None


def test_reclaiming_a_seat_during_the_count_clears_its_bid_and_stops_the_count(
        app: Flask, client: FlaskClient, database_url: str) -> None:
    app = make_app(database_url, REVEAL_COUNT_SECONDS=600)
    host, anne = app.test_client(), app.test_client()
    url = new_game(host, ["Anne", "Ben"])
    anne.post(f"{url}/join", data={"seat": 0})
    anne.post(f"{url}/hands/1/bid", data={"bid": 1})
    host.post(f"{url}/hands/1/bid", data={"seat": 1, "bid": 0})
    with app.app_context():
        assert hand_now(url).phase == "counting"
    host.post(f"{url}/seats/0/free")
    with app.app_context():
        record = hand_now(url)
        assert record.phase == "bidding" and record.entries[0].bid is None and record.entries[1].bid == 0


def test_a_bid_the_host_entered_is_not_shown_to_whoever_claims_that_seat(
        app: Flask, client: FlaskClient, seated) -> None:
    url, _ = seated
    assert client.post(f"{url}/hands/1/bid", data={"seat": 1, "bid": 5}).status_code == 303
    watcher = app.test_client()
    assert watcher.post(f"{url}/join", data={"seat": 1}).status_code == 303
    page = watcher.get(url).get_data(as_text=True)
    assert "Your bid is" not in page and 'aria-pressed="true"' not in page


def test_the_host_cannot_change_or_see_a_phone_holders_bid(app: Flask, client: FlaskClient, seated) -> None:
    url, anne = seated
    anne.post(f"{url}/hands/1/bid", data={"bid": 4})
    assert client.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1}).status_code == 403
    assert bid_of(app, url, 0) == 4
    host_page = client.get(url).get_data(as_text=True)
    # The host has no bid buttons for Anne, only for the players without a phone.
    assert 'name="seat" value="0"' not in host_page and 'name="seat" value="1"' in host_page


def test_csv_cells_never_start_a_formula(client: FlaskClient) -> None:
    url = new_game(client, ['=HYPERLINK("http://x")', "+Ben", "@Cara"])
    client.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1})
    client.post(f"{url}/hands/1/bid", data={"seat": 1, "bid": 0})
    client.post(f"{url}/hands/1/bid", data={"seat": 2, "bid": 0})
    client.post(f"{url}/hands/1", data={"tricks-0": "1", "intent": "score"})
    response = client.get(f"{url}/pad.csv")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))[1:]
    cells = [cell for row in rows for cell in row]
    assert "'=HYPERLINK(\"http://x\")" in cells and "'+Ben" in cells and "'@Cara" in cells
    assert not any(cell.startswith(("=", "+", "@")) for cell in cells)


@pytest.mark.parametrize("name", [" =1+1", "\u00a0=1+1", "\uff1dSUM(A1)", "\u3000+1", "\u2003-1", "\uff0b1"])
def test_csv_cells_hiding_a_formula_behind_spaces_or_full_width_signs_are_guarded(client: FlaskClient,
                                                                                 name: str) -> None:
    """Spreadsheets skip leading spaces of any kind and read ＝ as =: such a name is written inert too."""
    url = new_game(client, [name, "Ben"])
    for seat in (0, 1):
        client.post(f"{url}/hands/1/bid", data={"seat": seat, "bid": 0})
    rows = list(csv.reader(io.StringIO(client.get(f"{url}/pad.csv").get_data(as_text=True))))[1:]
    # (The new-game form strips the name's ordinary spaces; what is left must still be guarded.)
    assert rows[0][3].startswith("'") and rows[0][3][1:] == name.strip() and rows[1][3] == "Ben"


def pad_of(players: list[str], hands: int = 1, **extra: Any) -> dict[str, Any]:
    """A classic pad of finished one-card hands where nobody makes a trick but the first player."""
    entries = [{"player": p, "bid": 0, "tricks": 1 if i == 0 else 0} for i, p in enumerate(players)]
    return {"format": "skull-king-pad", "version": 1, "ruleset": "modern",
            "options": {"scoring": "standard", "rounds": [1] * hands, **extra},
            "players": players, "hands": [{"cards": 1, "entries": entries}] * hands}


def test_a_pad_of_8000_hands_is_refused_at_once(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    pad = pad_of(["Anne", "Ben"], hands=8000)
    text = json.dumps(pad, separators=(",", ":"))

    def never(*args: object) -> None:
        raise AssertionError("a file over the size limit was read")

    # Through the import, where anyone can send it: refused by its size before it is read.
    monkeypatch.setattr("scorekeeper.padfile.read_json", never)
    response = client.post("/games/import", data=text, content_type="application/json")
    assert response.status_code == 413 and response.json["problems"] == ["That file is too large for a pad file."]
    monkeypatch.undo()
    # Read directly (the command line has no size limit), it is refused for its hands, without scoring them.
    with pytest.raises(PadError) as refused:
        read_any(text)
    assert refused.value.messages() == ["A game has at most 50 hands."]


def test_a_pad_of_more_hands_than_its_rounds_is_refused_before_they_are_read(client: FlaskClient,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    pad = pad_of(["Anne", "Ben"], hands=50)
    pad["hands"] = pad["hands"] * 20  # 1,000 hands, fitting the size limit
    text = json.dumps(pad, separators=(",", ":"))

    def never(*args: object) -> None:
        raise AssertionError("a hand was read")

    monkeypatch.setattr("scorekeeper.shelf.skullking.pad._PadReader.read_hand", never)
    response = client.post("/games/import", data=text, content_type="application/json")
    assert response.status_code == 422
    assert response.json["problems"] == ["the pad has 1000 hands, but this game has only 50."]


def test_a_pad_may_list_up_to_50_hands(client: FlaskClient) -> None:
    assert client.post("/games/import", json=pad_of(["Anne", "Ben"], hands=50)).status_code == 201
    response = client.post("/games/import", json=pad_of(["Anne", "Ben"], hands=51))
    assert response.status_code == 422 and "A game has at most 50 hands." in response.json["problems"][0]


def test_deeply_nested_json_is_refused_in_words(client: FlaskClient, runner) -> None:
    nested = "[" * 1000 + "]" * 1000
    response = client.post("/games/import", data=nested, content_type="application/json")
    assert response.status_code == 422
    assert response.json["problems"] == ["The file nests lists and objects deeper than a pad file ever does."]
    deeper = '{"a":' * 100_000 + "1" + "}" * 100_000
    with pytest.raises(PadError):
        read_any(deeper[:200_000])


@pytest.mark.parametrize("name, reason", [
    ("A" * 10_000, "at most 40 characters"),
    ("Anne\u202e", "invisible or direction-changing"),
    ("Be\u200bn", "invisible or direction-changing"),
    ("Cara\x07", "control characters"),
])
def test_imported_names_are_checked_as_the_form_checks_them(client: FlaskClient, name: str, reason: str) -> None:
    imported = client.post("/games/import", json=pad_of([name, "Dan"]))
    assert imported.status_code == 422 and any(reason in p for p in imported.json["problems"])
    typed = client.post("/games/new", data={"ruleset": "classic", "player": [name, "Dan"]})
    assert typed.status_code == 422 and reason in typed.get_data(as_text=True)


def test_every_kind_of_answer_carries_the_protective_headers(app: Flask, client: FlaskClient) -> None:
    url = new_game(client, ["Anne", "Ben"])
    answers = {
        "page": client.get(url),
        "fragment": client.get(url, headers={"HX-Request": "true"}),
        "redirect": client.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben"]}),
        "refusal": client.post("/games/new", data={"ruleset": "classic", "player": ["Anne"]}),
        "not found": client.get("/games/nothing-here"),
        "static": client.get("/static/app.css"),
        "pad file": client.get(f"{url}/pad.json"),
        "csv": client.get(f"{url}/pad.csv"),
        "json api": client.post("/games/import", json={"format": "nothing"}),
        "stream": client.get(f"{url}/events", buffered=False),
    }
    for kind, response in answers.items():
        headers = response.headers
        assert "script-src 'self'" in headers["Content-Security-Policy"], kind
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"], kind
        assert headers["X-Content-Type-Options"] == "nosniff", kind
        assert headers["Referrer-Policy"] == "same-origin", kind
        assert headers["X-Frame-Options"] == "DENY", kind
        # The app's own answer says so: a tap waits until it has one, not a proxy's page.
        assert headers["X-Scorekeeper-Answer"] == "1", kind
        response.close()
    cookie = answers["redirect"].headers["Set-Cookie"]
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie and "Secure" not in cookie


def test_the_session_cookie_is_secure_behind_an_https_proxy(database_url: str) -> None:
    app = make_app(database_url, TRUSTED_PROXIES=1)
    response = app.test_client().post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben"]},
                                      headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"})
    assert response.status_code == 303 and "Secure" in response.headers["Set-Cookie"]


def test_the_session_cookie_is_sent_again_when_a_page_opens_not_with_each_tap_or_stream(app: Flask,
                                                                                        client: FlaskClient) -> None:
    """Opening a page counts the cookie's 30 days afresh; a tap that changes nothing in the session, and a live
    stream, send no cookie (re-signing it was work for nothing); a tap that does change it (a seat taken) sends it."""
    url = new_game(client, ["Anne", "Ben"])
    phone = app.test_client()
    joined = phone.post(f"{url}/join", data={"seat": 0})
    assert "Set-Cookie" in joined.headers, "the seat's secret is kept"
    opened = phone.get(url)
    assert opened.status_code == 200 and "Expires=" in opened.headers["Set-Cookie"]
    tapped = phone.post(f"{url}/hands/1/bid", data={"bid": 1}, headers={"HX-Request": "true"})
    assert tapped.status_code == 200 and "Set-Cookie" not in tapped.headers
    events = phone.get(f"{url}/events", buffered=False)
    assert "Set-Cookie" not in events.headers
    events.close()
    assert bid_of(app, url, 0) == 1


def test_pages_with_a_card_are_never_stored_and_https_is_kept_behind_a_proxy(database_url: str) -> None:
    app = make_app(database_url, TRUSTED_PROXIES=1)
    browser = app.test_client()
    url = new_game(browser, ["Anne", "Ben"])
    for path in (url, f"{url}/pad", f"{url}/join", "/"):
        assert browser.get(path).headers["Cache-Control"] == "no-store", path
    events = browser.get(f"{url}/events", buffered=False)
    assert events.headers["Cache-Control"] == "no-store"
    events.close()
    # The static files keep their own caching.
    assert "no-store" not in browser.get("/static/app.css").headers.get("Cache-Control", "")
    https = browser.get(url, headers={"X-Forwarded-Proto": "https"})
    assert https.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Strict-Transport-Security" not in browser.get(url).headers
    # Without a proxy to trust, the app cannot know it is reached over HTTPS: no promise made.
    assert "Strict-Transport-Security" not in make_app(database_url).test_client().get(
        "/", headers={"X-Forwarded-Proto": "https"}).headers


def test_the_join_code_of_a_finished_game_has_expired(client: FlaskClient, finished_pad: dict) -> None:
    response = client.post("/games/import", json=finished_pad)
    with client.application.app_context():
        game = games.find_game(response.headers["Location"].rsplit("/", 1)[-1])
        assert game.finished_at is not None
        code = game.join_code
    assert client.post("/join", data={"code": code}).status_code == 422


def test_join_code_guesses_are_limited_per_browser_and_per_real_address(database_url: str) -> None:
    app = make_app(database_url, TRUSTED_PROXIES=1)
    host = app.test_client()
    url = new_game(host, ["Anne", "Ben"])
    with app.app_context():
        code = games.find_game(url.rsplit("/", 1)[-1]).join_code
    guesser, neighbour, elsewhere = (app.test_client() for _ in range(3))

    def try_code(browser: FlaskClient, typed: str, address: str) -> int:
        return browser.post("/join", data={"code": typed}, headers={"X-Forwarded-For": address}).status_code

    assert [try_code(guesser, "WRONG", "198.51.100.7") for _ in range(12)] == [422] * 12
    assert try_code(guesser, code, "198.51.100.7") == 429
    # The guesser is limited; the rest of the café, behind the same address, is not.
    assert try_code(neighbour, code, "198.51.100.7") == 303
    # A guesser who drops its cookies every time is stopped by its address, after ten times as many.
    answers = [try_code(app.test_client(), "WRONG", "203.0.113.5") for _ in range(121)]
    assert answers[:120] == [422] * 120 and answers[120] == 429
    assert try_code(elsewhere, code, "203.0.113.6") == 303


def test_new_games_and_imports_are_limited_per_address(database_url: str, finished_pad: dict) -> None:
    app = make_app(database_url, NEW_GAMES_PER_MINUTE=3)
    client = app.test_client()
    for _ in range(2):
        new_game(client, ["Anne", "Ben"])
    assert client.post("/games/import", json=finished_pad).status_code == 201
    response = client.post("/games/import", json=finished_pad)
    assert response.status_code == 429 and response.json["problems"]
    refused = client.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben"]})
    assert refused.status_code == 429 and "Too many new games" in refused.get_data(as_text=True)


@pytest.mark.parametrize("target", ["/\t/evil.example", "//evil.example", "/\\evil.example", "https://evil.example/",
                                    "/\n/evil.example", " //evil.example"])
def test_the_language_picker_never_leaves_the_site(client: FlaskClient, target: str) -> None:
    response = client.post("/language", data={"language": "de", "next": target})
    assert response.status_code == 303 and response.headers["Location"] == "/"


def test_the_language_picker_returns_to_the_page(client: FlaskClient) -> None:
    response = client.post("/language", data={"language": "de", "next": "/games/new?x=1"})
    assert response.headers["Location"] == "/games/new?x=1"


def test_the_language_picker_returns_to_the_page_the_browser_shows(client: FlaskClient) -> None:
    """htmx opened another page under the header: the browser's Referer names it, the form still names the first."""
    response = client.post("/language", data={"language": "de", "next": "/"},
                           headers={"Referer": "http://localhost/games/new?x=1"})
    assert response.headers["Location"] == "/games/new?x=1"
    # A Referer whose path would leave the site is not followed: the form's page is.
    for referer in ("http://localhost//evil.example", "http://localhost/\\evil.example"):
        response = client.post("/language", data={"language": "de", "next": "/join"}, headers={"Referer": referer})
        assert response.headers["Location"] == "/join", referer


def test_the_table_sees_who_must_bid_again_after_changing_phones(app: Flask, client: FlaskClient, seated) -> None:
    url, anne = seated
    anne.post(f"{url}/hands/1/bid", data={"bid": 4})
    client.post(f"{url}/seats/0/free")
    new_phone = app.test_client()
    new_phone.post(f"{url}/join", data={"seat": 0})
    notice = "Anne joined again on another phone and bids again."
    for screen in (client, new_phone, app.test_client()):
        assert notice in screen.get(url).get_data(as_text=True)
    new_phone.post(f"{url}/hands/1/bid", data={"bid": 2})
    assert notice not in client.get(url).get_data(as_text=True)


@pytest.mark.parametrize("name", sorted(hostile_pads()))
def test_every_pathological_import_is_refused_in_words(client: FlaskClient, name: str) -> None:
    """Shapes that once held a worker for a minute: each refused, nothing stored (figures: bench/hostile.py)."""
    text = hostile_pads()[name]
    assert len(text.encode()) < 256 * 1024
    response = client.post("/games/import", data=text, content_type="application/json")
    assert response.status_code == 422 and response.json["problems"]
    assert len(response.json["problems"]) <= 50
    assert client.post("/games/import", json={"format": "nothing"}).status_code == 422


@pytest.mark.parametrize(("doc", "message"), [
    ({"format": "dracula-pad", "version": 1, "players": {"queen": "A", "king": "B"}, "target": 10 ** 18, "sets": []},
     "Every number in a pad file is from -1000000 to 1000000; this one has 1000000000000000000."),
    ({"format": "dracula-pad", "version": 1, "players": {"queen": "A", "king": "B"}, "target": 200_000, "sets": []},
     "The target must be a whole number of points from 1 to 100000, not 200000."),
    ({"format": "skip-bo-pad", "version": 1, "players": ["A", "B"], "target": 0, "games": []},
     "The target must be a whole number of points from 1 to 100000, not 0."),
    ({"format": "skull-king-pad", "version": 1, "ruleset": "classic", "players": ["A", "B"], "hands": [],
      "totals": {"A": -5e9, "B": 0}},
     "Every number in a pad file is from -1000000 to 1000000; this one has -5000000000.0."),
])
def test_numbers_in_pad_files_are_bounded_with_the_bound_in_words(client: FlaskClient, doc: dict,
                                                                  message: str) -> None:
    response = client.post("/games/import", json=doc)
    assert response.status_code == 422 and response.json["problems"] == [message]


def test_a_write_from_another_site_is_refused_in_words_and_stores_nothing(app: Flask, client: FlaskClient) -> None:
    """Besides the CSRF token, a write must come from a page of this site: its Origin, else its Referer, names it."""
    url = new_game(client, ["Anne", "Ben"])
    for headers in ({"Origin": "https://elsewhere.example"}, {"Referer": "https://elsewhere.example/a-page"},
                    {"Origin": "null"}, {"Origin": "http://localhost.elsewhere.example"}):
        response = client.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1}, headers=headers)
        assert response.status_code == 400, headers
        assert "came from elsewhere" in response.get_data(as_text=True)
        assert bid_of(app, url, 0) is None
    # Its own pages' writes are taken, named by Origin or by Referer.
    assert client.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1},
                       headers={"Origin": "http://localhost"}).status_code == 303
    assert client.post(f"{url}/hands/1/bid", data={"seat": 1, "bid": 0},
                       headers={"Referer": f"http://localhost{url}"}).status_code == 303
    assert bid_of(app, url, 0) == 1
