"""Skip-Bo and Dracula at the table: new games, who may tap what, the screens, import and export."""

from __future__ import annotations

import html
import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import games
from tests.test_shelf_pads import DRACULA, SKIPBO


def seen(client: FlaskClient, url: str) -> str:
    return html.unescape(client.get(url).get_data(as_text=True))


def version(app: Flask, url: str) -> int:
    with app.app_context():
        return games.load(url.rsplit("/", 1)[-1]).version


def shelf_table(client: FlaskClient, app: Flask, kind: str, names: tuple[str, ...] = ("Anne", "Ben", "Cara"),
                **form: object) -> tuple[str, dict[str, FlaskClient]]:
    """A new game of `kind` from its form (run by `client`), and a joined phone for each of `names`."""
    response = client.post(f"/games/new/{kind}", data={"player": list(names), **form})
    assert response.status_code == 303, response.get_data(as_text=True)
    url = response.headers["Location"]
    phones = {}
    for seat, name in enumerate(names):
        phones[name] = app.test_client()
        assert phones[name].post(f"{url}/join", data={"seat": seat}).status_code == 303
    return url, phones


def skipbo_table(client: FlaskClient, app: Flask, **form: str) -> tuple[str, dict[str, FlaskClient]]:
    return shelf_table(client, app, "skip-bo", **form)


def test_a_skipbo_game_is_entered_from_the_phones(client: FlaskClient, app: Flask) -> None:
    url, phones = skipbo_table(client, app, target="100")
    assert "Who went out?" in seen(phones["Ben"], url) and "I went out" in seen(phones["Ben"], url)
    # A phone says only that its own side went out.
    assert phones["Ben"].post(f"{url}/play", data={"went_out": "0"}).status_code == 403
    before = version(app, url)
    assert phones["Anne"].post(f"{url}/play", data={"went_out": "0"}).status_code == 303
    assert version(app, url) == before + 1
    assert "Anne went out" in seen(phones["Cara"], url)
    # Each opponent counts their own stock pile; nobody counts the winner's, or another's.
    assert phones["Anne"].post(f"{url}/play", data={"left": "3"}).status_code == 422
    assert phones["Ben"].post(f"{url}/play", data={"left": "4", "seat": "2"}).status_code == 303
    page = seen(client, url)
    assert "4 cards left" in page and "counting…" in page
    refused = phones["Cara"].post(f"{url}/play", data={"left": "0"})
    assert refused.status_code == 422
    assert "Game 1, Cara: with 0 cards left the game would have ended with Cara." in html.unescape(
        refused.get_data(as_text=True))
    # The count Cara typed stays on her card, refused, rather than going back to the default.
    assert re.search(r'id="left-2" name="left" type="number"[^>]*\n\s*value="0"', refused.get_data(as_text=True))
    assert phones["Cara"].post(f"{url}/play", data={"left": "7"}).status_code == 303
    page = seen(client, url)
    assert "Game 2" in page and "Ben 4, Cara 7" in page and "+80" in page
    # The host says who went out (the table's news); it counts only for players without a phone: Ben's and Cara's
    # phones count their own, and the host's count for them is refused and changes nothing.
    assert client.post(f"{url}/play", data={"went_out": "0"}).status_code == 303
    before = version(app, url)
    assert client.post(f"{url}/play", data={"left": "1", "seat": "1"}).status_code == 403
    assert version(app, url) == before
    assert "Cards left: Ben" not in seen(client, url)
    # Anne passes the target: the match is hers.
    assert phones["Ben"].post(f"{url}/play", data={"left": "1"}).status_code == 303
    assert phones["Cara"].post(f"{url}/play", data={"left": "2"}).status_code == 303
    end = seen(phones["Ben"], f"{url}/end")
    assert "Anne wins the match!" in end and "Who went out?" not in end
    assert client.post(f"{url}/play", data={"went_out": "1"}).status_code == 422
    exported = json.loads(client.get(f"{url}/pad.json").get_data(as_text=True))
    assert exported["totals"] == {"Anne": 120, "Ben": 0, "Cara": 0}


def test_skipbo_who_went_out_said_again_keeps_the_counts_entered(client: FlaskClient, app: Flask) -> None:
    """Ben's phone counts 4; the host then says (again) that Anne went out: Ben's 4 stays, nothing to count
    out."""
    url, phones = skipbo_table(client, app, target="500")
    assert phones["Anne"].post(f"{url}/play", data={"went_out": "0"}).status_code == 303
    assert phones["Ben"].post(f"{url}/play", data={"left": "4"}).status_code == 303
    assert phones["Cara"].post(f"{url}/play", data={"left": "0"}).status_code == 422
    assert client.post(f"{url}/play", data={"went_out": "0"}).status_code == 303
    assert "4 cards left" in seen(client, url)
    assert phones["Cara"].post(f"{url}/play", data={"left": "6"}).status_code == 303
    assert "Ben 4, Cara 6" in seen(client, url)


def test_skipbo_teams_and_a_viewer(client: FlaskClient, app: Flask) -> None:
    response = client.post("/games/new/skip-bo", data={"player": ["Anne", "Ben", "Cara", "Dan"], "teams": "on"})
    url = response.headers["Location"]
    assert "Anne + Ben" in seen(client, url) and "Cara + Dan" in seen(client, url)
    viewer = app.test_client()
    assert viewer.post(f"{url}/play", data={"went_out": "0"}).status_code == 403
    refused = client.post("/games/new/skip-bo", data={"player": ["Anne", "Ben", "Cara"], "teams": "on"})
    assert refused.status_code == 422 and "Teams are of two, with 4 or 6 players." in seen_text(refused)


def seen_text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def test_a_dracula_round_from_a_phone_shows_every_line(client: FlaskClient, app: Flask) -> None:
    response = client.post("/games/new/dracula", data={"player": ["Anne", "Ben"], "queen": "1"})
    url = response.headers["Location"]
    ben = app.test_client()
    assert ben.post(f"{url}/join", data={"seat": 0}).status_code == 303
    cells = "5H 7H 2C QS 9D QH KD 4S 10S".split()
    # Anne was typed first but plays the King's way: Ben scores the rows.
    assert "Ben: Queen's way (rows) · Anne: King's way (columns)" in seen(ben, url)
    assert app.test_client().post(f"{url}/play", data={f"cell-{i}": c for i, c in enumerate(cells)}).status_code == 403
    twice = dict({f"cell-{i}": c for i, c in enumerate(cells)}, **{"cell-1": "5h"})
    refused = ben.post(f"{url}/play", data=twice)
    assert refused.status_code == 422 and "Round 1: a card can be in the coffin only once: 5H." in seen_text(refused)
    assert 'value="5h"' in refused.get_data(as_text=True)  # what was typed stays
    assert ben.post(f"{url}/play", data={f"cell-{i}": c.lower() for i, c in enumerate(cells)}).status_code == 303
    page = seen(client, url)
    assert "Round 1: Ben 29 · Anne 20" in page and "Set 1, round 2 of 6" in page
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "Row 2 (Ben) Q♠ 9♦ Q♥ 29 1 29" in words and "Column 2 (Anne) 7♥ 9♦ 4♠ 20 1 20" in words


def test_pads_of_both_kinds_import_and_resume(client: FlaskClient) -> None:
    for doc, expected in ((SKIPBO, "Game 3"), (DRACULA, "Set 1, round 2 of 6")):
        response = client.post("/games/import", json=doc)
        assert response.status_code == 201, response.json
        url = response.headers["Location"].replace("http://localhost", "")
        assert client.post(response.json["host_url"].replace("http://localhost", "")).status_code == 303
        assert expected in seen(client, url)
        assert json.loads(client.get(f"{url}/pad.json").get_data(as_text=True)) == doc
        # The CSV names a play as the game's pages do: Skip-Bo's are games, Dracula's rounds.
        heading = client.get(f"{url}/pad.csv").get_data(as_text=True).splitlines()[0]
        assert heading == ("game,player,points,total" if doc is SKIPBO else "round,player,points,total")
    broken = dict(SKIPBO, stock=3)
    response = client.post("/games/import", json=broken)
    assert response.status_code == 422 and response.json["problems"] == ["A stock pile has 5 to 30 cards, not 3."]


def test_skull_king_pages_of_another_game_lead_to_its_screen(client: FlaskClient) -> None:
    url = client.post("/games/new/dracula", data={"player": ["Anne", "Ben"]}).headers["Location"]
    response = client.get(url + "/pad")
    assert response.status_code == 303 and response.headers["Location"].endswith(url)
    assert client.get(url + "/hands/1").status_code == 404
    # Its CSV is the pad of any game: a row per round and player.
    csv_text = client.get(url + "/pad.csv").get_data(as_text=True)
    assert csv_text.splitlines() == ["round,player,points,total"]
    # A rematch is the same game again for every kind: the same players, the host's, and the phones follow.
    again = client.post(url + "/rematch")
    assert again.status_code == 303 and again.headers["Location"] != url
    next_page = client.get(again.headers["Location"]).get_data(as_text=True)
    assert "Anne" in next_page and "Ben" in next_page
    assert client.post("/games/nope/rematch").status_code == 404
    assert client.get("/games/new/uno").status_code == 404


def test_a_late_tap_for_a_closed_game_changes_nothing(client: FlaskClient, app: Flask) -> None:
    """A tap names the game its screen showed: one that arrives after that game closed does not land in the next."""
    url, phones = skipbo_table(client, app, target="500")
    assert 'name="play" value="1"' in seen(phones["Ben"], url)
    assert phones["Anne"].post(f"{url}/play", data={"went_out": "0", "play": "1"}).status_code == 303
    assert phones["Ben"].post(f"{url}/play", data={"left": "4", "play": "1"}).status_code == 303
    assert phones["Cara"].post(f"{url}/play", data={"left": "7", "play": "1"}).status_code == 303
    assert "Game 2" in seen(phones["Cara"], url) and 'name="play" value="2"' in seen(phones["Cara"], url)
    before = version(app, url)
    # Cara's second tap on Save, and Anne's on "I went out", drawn for game 1: nothing happens.
    assert phones["Cara"].post(f"{url}/play", data={"left": "7", "play": "1"}).status_code == 303
    assert phones["Anne"].post(f"{url}/play", data={"went_out": "0", "play": "1"}).status_code == 303
    assert version(app, url) == before
    assert "Who went out?" in seen(phones["Cara"], url)



@pytest.mark.parametrize(("kind", "form", "title"), [
    ("skip-bo", {"player": ["Anne", "Ben"], "target": "500"}, "Skip-Bo"),
    ("dracula", {"player": ["Anne", "Ben"]}, "Dracula"),
    ("free-pad", {"player": ["Anne", "Ben"], "game": "Rummy"}, "Free pad"),
])
def test_every_game_has_the_table_s_big_screen(client: FlaskClient, kind: str, form: dict, title: str) -> None:
    """The big screen of every game is the table's frame: the game's name in the header, its shared table and
    leaderboard, pushed live, and nothing a player would tap (no way to join, no card)."""
    url = client.post(f"/games/new/{kind}", data=form).headers["Location"]
    response = client.get(url + "/screen")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    brand = html[html.index('class="brand"'):html.index("</a>", html.index('class="brand"'))]
    assert title in brand and "Skull King" not in brand
    assert 'id="table"' in html and 'id="board"' in html and 'class="leaderboard' in html
    assert 'id="card"' not in html and "Join as a player" not in html
    assert "view=screen" in html
    # The stream of the big screen pushes the same shared table the game's screen shows.
    stream = client.get(url + "/events?view=screen&edition=-1", buffered=False)
    first = b""
    for chunk in stream.response:
        first += chunk
        if b"event: table" in first and first.endswith(b"\n\n"):
            break
    stream.close()
    assert b'id="board"' in first
