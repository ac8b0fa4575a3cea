"""Every flow of one device running a game, and every refusal, through Flask's test client."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import time
import zlib
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import games, service
from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.helpers import hand_now, import_as_host, new_game

HTMX = {"HX-Request": "true"}


def bid_all(client: FlaskClient, url: str, number: int, bids: list[int]) -> None:
    """Everyone bids; with the count set to 0 here, the bids show at once."""
    for seat, value in enumerate(bids):
        assert client.post(f"{url}/hands/{number}/bid", data={"seat": seat, "bid": value}).status_code == 303


def results(tricks: list[int], intent: str = "score", **extra: str) -> dict[str, str]:
    """The results form for these tricks."""
    data = {f"tricks-{seat}": str(t) for seat, t in enumerate(tricks)}
    data.update(extra)
    if intent:
        data["intent"] = intent
    return data


def text(response) -> str:
    """A response's body as text."""
    return response.get_data(as_text=True)


# --- pages and fragments --------------------------------------------------------------


def test_start_page_is_a_whole_page_with_pinned_htmx(client: FlaskClient) -> None:
    """A whole page whose one script is the frame's: the pinned copies of htmx and its extensions (no CDN), then
    the page script and its parts, each minified (its own names shortened), in order."""
    response = client.get("/")
    assert response.status_code == 200
    body = text(response)
    assert "<html" in body and "HX-Request" in response.headers["Vary"]
    scripts = re.findall(r'<script src="([^"]+)"', body)
    assert len(scripts) == 1 and scripts[0].startswith("/static/app.js?v=")
    served = client.get(scripts[0]).get_data(as_text=True)
    static = Path(client.application.static_folder)
    pinned = [(static / name).read_text()
              for name in ("htmx-2.0.11.min.js", "htmx-ext-sse-2.2.4.min.js", "idiomorph-ext-0.8.0.min.js")]
    assert served.startswith(pinned[0]) and all(copy in served for copy in pinned[1:])
    at = [served.index(marker) for marker in ('htmx.defineExtension("sse"', "var Idiomorph=", ".redrawn=",
                                              'defineExtension("taps"', 'defineExtension("pushes"',
                                              'defineExtension("announce"', 'defineExtension("keypad"')]
    assert at == sorted(at)
    ours = served.split("var Idiomorph=")[1]
    assert "// " not in ours and "keepAwake" not in ours and "refusedWith" not in ours


def test_the_frames_script_changes_its_address_when_a_part_changes(app: Flask, tmp_path: Path) -> None:
    """The frame's one file is fingerprinted on what it joins: a phone keeps it for good, and gets the new one the
    moment any part changes."""
    from scorekeeper import assets

    (tmp_path / "a.js").write_text("// one\nvar a = 1;\n")
    (tmp_path / "b.min.js").write_text("var b=2;")
    bundles = {"both.js": ("a.js", "b.min.js")}
    before = assets.asset_at(str(tmp_path), "both.js", bundles)
    assert before is not None and before.encodings["identity"] == b"var a=1\n;var b=2;"
    assert set(before.encodings) == {"identity", "br", "gzip"}
    os.utime(tmp_path / "b.min.js", (1, 1))
    (tmp_path / "b.min.js").write_text("var b=3;")
    after = assets.asset_at(str(tmp_path), "both.js", bundles)
    assert after is not None and after.fingerprint != before.fingerprint
    assert assets.asset_at(str(tmp_path), "both.js") is None


def test_htmx_requests_get_the_main_block_only(client: FlaskClient) -> None:
    url = new_game(client, ["Anne", "Ben"])
    for path in ("/", "/games/new", url, f"{url}/pad"):
        fragment = client.get(path, headers=HTMX)
        whole = client.get(path)
        assert fragment.status_code == whole.status_code == 200
        assert "<html" not in text(fragment) and "<html" in text(whole)
        assert "<h1" in text(fragment)
        assert "HX-Request" in fragment.headers["Vary"] and "HX-Request" in whole.headers["Vary"]


def test_the_static_htmx_is_served(client: FlaskClient) -> None:
    response = client.get("/static/htmx-2.0.11.min.js")
    assert response.status_code == 200
    assert b"htmx" in response.data[:2000]


def test_static_files_are_minified_and_kept_for_good_under_their_fingerprint(client: FlaskClient) -> None:
    page = text(client.get("/"))
    address = re.search(r'href="(/static/app\.css\?v=[0-9a-f]{16})"', page).group(1)
    response = client.get(address)
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    stylesheet = response.get_data(as_text=True)
    assert "/*" not in stylesheet and ".leaderboard" in stylesheet
    assert len(stylesheet) < len((Path(client.application.static_folder) / "app.css").read_text())
    # Without the fingerprint the browser asks again each time, and an unchanged file costs nothing.
    unversioned = client.get("/static/app.css")
    assert "no-cache" in unversioned.headers["Cache-Control"]
    again = client.get("/static/app.css", headers={"If-None-Match": unversioned.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    for missing in ("/static/nothing.css", "/static/../pyproject.toml", "/static/%2e%2e/README.md"):
        assert client.get(missing).status_code == 404, missing


# --- new game ------------------------------------------------------------------------


def test_new_game_starts_at_hand_one_with_the_chosen_dealer(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Anne", "Ben", "Cara"], first_dealer="1")
    page = text(client.get(url))
    assert "Hand 1 of 10" in page
    assert re.search(r"Deals</dt><dd>Ben<", page) and re.search(r"Leads</dt><dd>Cara<", page)
    with app.app_context():
        game = games.find_game(url.rsplit("/", 1)[-1])
        # The seats read as typed; the first dealer is marked, not moved.
        assert [s.name for s in game.seats] == ["Anne", "Ben", "Cara"] and game.first_dealer == 1
    pad = text(client.get(f"{url}/pad"))
    assert pad.index("Anne") < pad.index("Ben") < pad.index("Cara")
    assert re.search(r"Ben\s*<small[^>]*>\s*deals first", pad)
    # The deal moves on in seat order, from the chosen dealer round to the first seat.
    exported = client.get(f"{url}/pad.json").get_json()
    assert exported["players"] == ["Anne", "Ben", "Cara"] and exported["first_dealer"] == "Ben"


def test_a_new_game_never_takes_a_join_code_in_use(client: FlaskClient, app: Flask,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    first = new_game(client, ["Anne", "Ben"])
    with app.app_context():
        taken = games.find_game(first.rsplit("/", 1)[-1]).join_code
    drawn = iter([taken, taken, "ACDEFG"])
    monkeypatch.setattr(service, "new_join_code", lambda: next(drawn))
    second = new_game(client, ["Cara", "Dan"])
    with app.app_context():
        assert games.find_game(second.rsplit("/", 1)[-1]).join_code == "ACDEFG"


def test_modern_options_set_the_hands(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Anne", "Ben"], "modern", rounds="whirlpool", scoring="rascal",
                   cannonball="on", advanced_cards="on", rascal_wagers="on")
    assert "Hand 1 of 5" in text(client.get(url))
    with app.app_context():
        game = games.find_game(url.rsplit("/", 1)[-1])
        assert game.options == {"scoring": "rascal", "cannonball": True, "rounds": "whirlpool",
                                "advanced_cards": True, "rascal_wagers": True}
        assert hand_now(url).cards == 9


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"ruleset": "classic", "player": ["Anne"]}, "The classic rules are for 2 to 6 players, not 1."),
        ({"ruleset": "classic", "player": list("ABCDEFG")}, "The classic rules are for 2 to 6 players, not 7."),
        ({"ruleset": "modern", "player": list("ABCDEFGH")}, None),
        ({"ruleset": "classic", "player": ["Anne", "Anne"]}, "Anne: each player needs a different name."),
        ({"ruleset": "poker", "player": ["A", "B"]}, "The ruleset must be classic, doubloons or modern, not “poker”."),
        ({"ruleset": "modern", "player": ["A", "B"], "rounds": "forever"}, "There is no round structure called “forever”."),
        ({"ruleset": "classic", "player": ["A" * 41, "B"]}, "A name can have at most 40 characters."),
        ({"ruleset": "classic", "player": ["A", "B"], "first_dealer": "x"}, "“x” is not a whole number."),
    ],
)
def test_new_game_refusals(client: FlaskClient, app: Flask, data: dict[str, Any], message: str | None) -> None:
    response = client.post("/games/new", data=data)
    if message is None:
        assert response.status_code == 303
        return
    assert response.status_code == 422
    assert message in text(response).replace("&#34;", '"').replace("&#39;", "'")
    with app.app_context():
        assert db.session.query(Game).count() == 0


def test_a_refused_new_game_keeps_what_was_typed(client: FlaskClient) -> None:
    response = client.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Anne", "Cara"]},
                           headers=HTMX)
    assert response.status_code == 422
    body = text(response)
    assert 'value="Cara"' in body and "<html" not in body


# --- bidding -------------------------------------------------------------------------


def test_bids_stay_secret_until_the_reveal(client: FlaskClient) -> None:
    url = new_game(client, ["Anne", "Ben", "Cara"])
    client.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1})
    page = text(client.get(url))
    # Anne's row is marked ready (a closed fist), the others still wait to bid; no number shows.
    rows = re.findall(r'<li class="bidder ?(ready)?">', page)
    assert rows == ["ready", "", ""] and page.count("choose to bid") == 2
    pad = text(client.get(f"{url}/pad"))
    assert "bidding" in pad
    exported = json.loads(client.get(f"{url}/pad.json").data)
    assert exported["hands"] == []
    assert client.get(f"{url}/pad.csv").data.decode().count("\n") == 1


def test_reveal_waits_for_every_bid(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Anne", "Ben", "Cara"])
    client.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1})
    client.post(f"{url}/hands/1/bid", data={"seat": 1, "bid": 0})
    assert "Waiting for 1 more bid." in text(client.get(url))
    with app.app_context():
        assert hand_now(url).phase == "bidding"
    client.post(f"{url}/hands/1/bid", data={"seat": 2, "bid": 0})
    with app.app_context():
        assert hand_now(url).phase == "playing"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"seat": 0, "bid": 2}, "Hand 1, Anne: a bid is 0 to 1."),
        ({"seat": 0, "bid": -1}, "Hand 1, Anne: a bid is 0 to 1."),
        ({"seat": 0, "bid": "lots"}, "“lots” is not a whole number."),
        ({"seat": 9, "bid": 0}, "Hand 1: Pick a player to bid for."),
        ({"bid": 0}, "Hand 1: Pick a player to bid for."),
    ],
)
def test_bid_refusals(client: FlaskClient, app: Flask, data: dict[str, Any], message: str) -> None:
    url = new_game(client, ["Anne", "Ben"])
    response = client.post(f"{url}/hands/1/bid", data=data)
    assert response.status_code == 422
    assert message in text(response)
    with app.app_context():
        assert all(e.bid is None for e in hand_now(url).entries)


def test_no_bid_after_the_reveal(client: FlaskClient) -> None:
    url = new_game(client, ["Anne", "Ben"])
    bid_all(client, url, 1, [1, 0])
    response = client.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 0})
    assert response.status_code == 422
    assert "The bids of this hand are already revealed." in text(response)


def test_house_rule_changes_the_cards_before_the_reveal(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Anne", "Ben"])
    assert client.post(f"{url}/hands/1/cards", data={"cards": 3}).status_code == 303
    assert "Hand 1 of 10" in text(client.get(url))
    response = client.post(f"{url}/hands/1/cards", data={"cards": 40})
    assert response.status_code == 422
    assert "40 cards cannot be dealt: with 2 players each gets 1 to 33 cards." in text(response)
    bid_all(client, url, 1, [2, 1])
    assert client.post(f"{url}/hands/1", data=results([2, 1])).status_code == 303
    pad = json.loads(client.get(f"{url}/pad.json").data)
    assert pad["hands"][0]["cards"] == 3
    assert [e["points"] for e in pad["hands"][0]["entries"]] == [40, 20]
    with app.app_context():
        assert hand_now(url, 2).cards == 2


# --- results --------------------------------------------------------------------------


def test_a_draft_keeps_tricks_so_far_and_shows_provisional_points(client: FlaskClient) -> None:
    url = new_game(client, ["Anne", "Ben"])
    bid_all(client, url, 1, [0, 0])
    # Hand 1 has one card, so take a second hand for "bid 2, one trick so far".
    client.post(f"{url}/hands/1", data=results([0, 1]))
    bid_all(client, url, 2, [2, 0])
    response = client.post(f"{url}/hands/2", data=results([1, 0], intent="draft"), headers=HTMX)
    assert response.status_code == 200 and response.headers["HX-Replace-Url"] == url
    pad = text(client.get(f"{url}/pad"))
    assert "in play" in pad
    # Anne: 10 after hand 1, bid 2 with 1 so far: −10 for now, (0) in total.
    assert re.search(r"−10 <span class=\"sr-only\">for now</span></span>\s*<span class=\"running provisional\">\(0\)", pad)


def test_a_draft_with_impossible_tricks_so_far_is_refused(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Anne", "Ben"])
    bid_all(client, url, 1, [1, 0])
    response = client.post(f"{url}/hands/1", data=results([1, 1], intent="draft"), headers=HTMX)
    assert response.status_code == 422
    assert "the tricks won so far add up to 2 (Anne 1, Ben 1), more than this hand has: 1." in text(response)
    with app.app_context():
        assert [e.tricks for e in hand_now(url).entries] == [None, None]


def test_scoring_refuses_an_impossible_hand_and_stores_nothing(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Anne", "Ben", "Cara"])
    bid_all(client, url, 1, [1, 0, 0])
    data = results([1, 0, 0], **{"pirates_by_skull_king-1": "1", "skull_king_by_mermaid-0": "on"})
    response = client.post(f"{url}/hands/1", data=data)
    assert response.status_code == 422
    body = text(response)
    assert "Hand 1: Ben won no tricks, so cannot have captured any cards." in body
    assert "Hand 1: Anne and Ben both claim the Skull King — there is only one." in body
    # Shown next to the players concerned as well as above.
    assert re.search(r'id="player-1".*?player-problems.*?Ben won no tricks', body, re.S)
    with app.app_context():
        assert hand_now(url).phase == "playing"
        assert all(not e.bonuses for e in hand_now(url).entries)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"tricks-0": "x"}, "Hand 1, Anne: “x” is not a whole number."),
        ({"loot-0": "7"}, "Hand 1, Anne: the Loot partner must be one of the players."),
        ({"harry-0": "+5"}, "Hand 1, Anne: Harry the Giant changes a bid by −1, 0 or +1."),
        ({"wager-0": "10"}, "Hand 1, Anne: wagers need the modern rules with the Rascal of Roatán option."),
    ],
)
def test_result_refusals(client: FlaskClient, extra: dict[str, str], message: str) -> None:
    url = new_game(client, ["Anne", "Ben"])
    bid_all(client, url, 1, [1, 0])
    response = client.post(f"{url}/hands/1", data=results([1, 0], **extra))
    assert response.status_code == 422
    assert message in text(response).replace("&#39;", "'")


def test_modern_extras_are_scored(client: FlaskClient) -> None:
    url = new_game(client, ["Anne", "Ben", "Cara"], "modern", rounds="swift-n-salty", advanced_cards="on",
                   rascal_wagers="on")
    bid_all(client, url, 1, [3, 0, 2])
    data = results([3, 0, 2], **{
        "standard_fourteens-0": "1", "wager-0": "20", "loot-0": "1", "loot-1": "0",
        "mermaids_by_pirate-2": "1", "harry-2": "-1",
    })
    assert client.post(f"{url}/hands/1", data=data).status_code == 303
    entries = json.loads(client.get(f"{url}/pad.json").data)["hands"][0]["entries"]
    # Anne: 60 + 10 + 20 wager + 20 Loot; Ben: zero bid made 50 + 20 Loot; Cara bid 2 → 1 by Harry, missed.
    assert [e["points"] for e in entries] == [110, 70, -10]
    assert entries[2]["bid"] == 1 and entries[2]["bid_changed_from"] == 2


def test_lost_tricks_where_the_rules_allow(client: FlaskClient) -> None:
    url = new_game(client, ["Anne", "Ben"])
    client.post(f"{url}/hands/1/cards", data={"cards": 2})
    bid_all(client, url, 1, [1, 0])
    assert client.post(f"{url}/hands/1", data=results([1, 0], lost_tricks="1")).status_code == 303
    assert json.loads(client.get(f"{url}/pad.json").data)["hands"][0]["lost_tricks"] == 1


def test_a_late_draft_for_a_scored_hand_changes_nothing(client: FlaskClient) -> None:
    url = new_game(client, ["Anne", "Ben"])
    bid_all(client, url, 1, [1, 0])
    client.post(f"{url}/hands/1", data=results([1, 0]))
    response = client.post(f"{url}/hands/1", data=results([0, 1], intent="draft"), headers=HTMX)
    assert response.status_code == 204
    assert json.loads(client.get(f"{url}/pad.json").data)["hands"][0]["entries"][0]["tricks"] == 1


# --- a whole game, corrections, the end ----------------------------------------------


def play_short_game(client: FlaskClient) -> str:
    """Two players, the 2021 "whirlpool" structure: five hands, played to the end."""
    url = new_game(client, ["Anne", "Ben"], "modern", rounds="whirlpool")
    for number, cards in enumerate((9, 7, 5, 3, 1), start=1):
        bid_all(client, url, number, [cards, 0])
        assert client.post(f"{url}/hands/{number}", data=results([cards, 0])).status_code == 303
    return url


def test_the_end_shows_the_winner_and_feats(client: FlaskClient) -> None:
    url = play_short_game(client)
    assert client.get(url).headers["Location"].endswith("/end")
    end = text(client.get(f"{url}/end"))
    assert "Anne wins!" in end
    # Anne made 5 bids; Ben made 5 zero bids of 90, 70, 50, 30, 10.
    assert re.search(r"<th scope=\"row\">Anne</th><td class=\"num\">5</td><td class=\"num\">0</td>", end)
    assert re.search(r"<th scope=\"row\">Ben</th><td class=\"num\">5</td><td class=\"num\">5</td>", end)
    assert '<td class="num total">500' in end and '<td class="num total">250' in end


def test_the_end_redirects_while_the_game_goes_on(client: FlaskClient) -> None:
    url = new_game(client, ["Anne", "Ben"])
    assert client.get(f"{url}/end").headers["Location"] == url


def test_a_correction_recomputes_and_marks_the_hand(client: FlaskClient) -> None:
    url = play_short_game(client)
    form = text(client.get(f"{url}/hands/2"))
    assert "Correct hand 2" in form and 'name="bid-0"' in form
    data = {"cards": "7", "bid-0": "6", "bid-1": "1", "tricks-0": "6", "tricks-1": "1", "intent": "correct"}
    assert client.post(f"{url}/hands/2", data=data).status_code == 303
    pad = json.loads(client.get(f"{url}/pad.json").data)
    assert [e["points"] for e in pad["hands"][1]["entries"]] == [120, 20]
    assert pad["totals"] == {"Anne": 500 - 140 + 120, "Ben": 250 - 70 + 20}
    assert "corrected" in text(client.get(f"{url}/pad"))


def test_a_correction_of_an_earlier_hand_moves_every_row_after_it(app: Flask, client: FlaskClient) -> None:
    """A scored hand's row of the pad is worked out once and kept while its hand and everything before it stay; a
    correction of hand 2 changes its row and the running totals of the hands after it, as a pad worked out afresh
    shows them."""
    from scorekeeper.shelf.skullking import reading

    def rows() -> list:
        with app.test_request_context():
            return reading.seen_by(games.load(url.rsplit("/", 1)[1]), None).pad_rows()

    url = play_short_game(client)
    before = rows()
    assert rows() == before  # the rows kept
    data = {"cards": "7", "bid-0": "6", "bid-1": "1", "tricks-0": "6", "tricks-1": "1", "intent": "correct"}
    assert client.post(f"{url}/hands/2", data=data).status_code == 303
    after = rows()
    app.extensions["version_caches"].clear()
    assert after == rows()  # the same as worked out afresh
    assert after[0] == before[0]
    assert [c.total for c in after[1].cells] == [180 + 120, 90 + 20] and after[1].corrected
    assert [c.total for row in after[2:] for c in row.cells] == [
        total - delta for row in before[2:] for total, delta in zip((c.total for c in row.cells), (20, 50), strict=True)]


def test_a_version_reads_again_only_the_plays_stored_since_the_one_before(app: Flask, client: FlaskClient) -> None:
    """The scored hands a version has as the version before stored them are not read again, nor is what the rules
    made of each (its hand, its points): the same values are taken over; a corrected hand and every one after it are
    read afresh, and what a screen is shown is what a read from nothing gives."""
    from scorekeeper import kinds
    from scorekeeper.shelf.skullking import reading

    def read() -> tuple[games.Plays, list[reading.PadRow]]:
        with app.test_request_context():
            state = games.load(url.rsplit("/", 1)[1])
            assert state is not None
            return games.plays_of(state), reading.seen_by(state, None).pad_rows()

    def afresh() -> list[reading.PadRow]:
        with app.test_request_context():
            state = games.load(url.rsplit("/", 1)[1])
            assert state is not None
            kind = kinds.kind_of(state)
            closed, draft = kinds.decoded_plays(kind.played_rules, state)
            game = reading.GameSeen.of_plays(kind.setup_of(state), closed, draft,
                                             games.secrets_seen_by(state, None, len(closed) + 1))
            return game.pad_rows()

    url = new_game(client, ["Anne", "Ben"], "modern", rounds="whirlpool")
    for number, cards in enumerate((9, 7, 5), start=1):
        bid_all(client, url, number, [cards, 0])
        assert client.post(f"{url}/hands/{number}", data=results([cards, 0])).status_code == 303
    three, _ = read()
    bid_all(client, url, 4, [3, 0])
    bidding, rows = read()
    assert bidding.version > three.version and rows == afresh()
    assert all(now is then for now, then in zip(bidding.closed, three.closed, strict=True))
    def never(number: int, row: object) -> object:
        pytest.fail(f"hand {number} made again")

    name = "skull king's scored hands"
    kept, then = bidding.each(name, never), three.each(name, never)
    assert len(kept) == 3 and all(a is b for a, b in zip(kept, then, strict=True))
    data = {"cards": "7", "bid-0": "6", "bid-1": "1", "tricks-0": "6", "tricks-1": "1", "intent": "correct"}
    assert client.post(f"{url}/hands/2", data=data).status_code == 303
    corrected, rows = read()
    assert corrected.closed[0] is bidding.closed[0]
    assert corrected.closed[1] is not bidding.closed[1] and corrected.closed[1].corrected
    assert corrected.closed[2] is not bidding.closed[2] and corrected.closed[2] == bidding.closed[2]
    assert rows == afresh() and rows[1].corrected and [c.points for c in rows[1].cells] == [120, 20]


def test_a_scored_hand_s_play_holds_the_bids_its_pad_shows_and_an_open_one_none(
        app: Flask, client: FlaskClient, finished_pad: dict[str, Any]) -> None:
    """Scored by play, corrected by the host, or imported: each scored hand's stored play holds every bid as the pad
    file has it; the hand still open holds none (its bids are the table's secret entries alone)."""
    from scorekeeper.models import Play

    played = play_short_game(client)
    data = {"cards": "7", "bid-0": "6", "bid-1": "1", "tricks-0": "6", "tricks-1": "1", "intent": "correct"}
    assert client.post(f"{played}/hands/2", data=data).status_code == 303
    imported = import_as_host(client, finished_pad)
    going_on = new_game(client, ["Anne", "Ben"], "modern", rounds="whirlpool")
    bid_all(client, going_on, 1, [9, 0])
    assert client.post(f"{going_on}/hands/1", data=results([9, 0])).status_code == 303
    bid_all(client, going_on, 2, [3, 4])
    # The bids as they were entered: played (hand 2 corrected to 6 and 1), imported, and one hand scored of a game
    # going on, whose second hand is being bid.
    entered = {played: [[9, 0], [6, 1], [5, 0], [3, 0], [1, 0]],
               imported: [[entry["bid"] for entry in hand["entries"]] for hand in finished_pad["hands"]],
               going_on: [[9, 0], [None, None]]}
    for url in (played, imported, going_on):
        pad = json.loads(client.get(f"{url}/pad.json").data)
        with app.app_context():
            plays = db.session.scalars(db.select(Play).join(Game).where(Game.public_id == url.rsplit("/", 1)[-1])
                                       .order_by(Play.number)).all()
            stored = [(play.closed, [entry["bid"] for entry in play.data["entries"]]) for play in plays]
        assert any(closed for closed, _ in stored), url
        for number, (closed, bids) in enumerate(stored, start=1):
            in_pad = [entry["bid"] for entry in pad["hands"][number - 1]["entries"]] if closed else [None, None]
            assert bids == in_pad, (url, number)
        assert [bids for _, bids in stored] == entered[url], url

def test_an_invalid_correction_changes_nothing(client: FlaskClient) -> None:
    url = play_short_game(client)
    before = client.get(f"{url}/pad.json").data
    data = {"cards": "7", "bid-0": "8", "bid-1": "0", "tricks-0": "7", "tricks-1": "1", "intent": "correct"}
    response = client.post(f"{url}/hands/2", data=data)
    assert response.status_code == 422
    assert "Hand 2, Anne: bid 8 is more than the cards dealt (7)." in text(response)
    assert client.get(f"{url}/pad.json").data == before


def test_rematch_keeps_the_table_and_moves_the_deal(client: FlaskClient, app: Flask) -> None:
    url = play_short_game(client)
    response = client.post(f"{url}/rematch")
    assert response.status_code == 303
    new_url = response.headers["Location"]
    assert new_url != url
    assert "Hand 1 of 5" in text(client.get(new_url))
    with app.app_context():
        game = games.find_game(new_url.rsplit("/", 1)[-1])
        assert [s.name for s in game.seats] == ["Anne", "Ben"] and game.first_dealer == 1
        assert game.options["rounds"] == "whirlpool"


@pytest.mark.parametrize("path", ["", "/pad", "/end", "/pad.json", "/pad.csv", "/hands/1"])
def test_unknown_games_are_404(client: FlaskClient, path: str) -> None:
    assert client.get(f"/games/nonexistent{path}").status_code == 404


def test_unknown_hands_are_404(client: FlaskClient) -> None:
    url = new_game(client, ["Anne", "Ben"])
    assert client.get(f"{url}/hands/7").status_code == 404
    assert client.post(f"{url}/hands/0/bid", data={"seat": 0, "bid": 0}).status_code == 404


# --- export and import --------------------------------------------------------------


def test_csv_has_a_row_per_hand_and_player(client: FlaskClient) -> None:
    url = play_short_game(client)
    response = client.get(f"{url}/pad.csv")
    assert response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(text(response))))
    assert len(rows) == 10
    assert [(r["hand"], r["player"], r["points"], r["total"]) for r in rows[-2:]] == [
        ("5", "Anne", "20", "500"), ("5", "Ben", "10", "250")]


def test_pad_json_exports_and_imports_back(client: FlaskClient) -> None:
    url = play_short_game(client)
    exported = json.loads(client.get(f"{url}/pad.json").data)
    response = client.post("/games/import", json=exported)
    assert response.status_code == 201
    assert response.headers["Location"].startswith("http://localhost/games/")
    again = client.get(response.headers["Location"].replace("http://localhost", "") + "/pad.json")
    assert json.loads(again.data) == exported


def test_import_refuses_with_every_problem_as_json(client: FlaskClient, app: Flask, example_pad: dict) -> None:
    example_pad["hands"][0]["entries"][0]["points"] = 50
    example_pad["ruleset"] = "classic"
    example_pad["hands"][1]["entries"][1]["bid"] = 9
    response = client.post("/games/import", json=example_pad)
    assert response.status_code == 422
    assert response.json == {"problems": [
        "Hand 2, Ben: bid 9 is more than the cards dealt (2).",
        "Hand 1, Anne: the pad says 50, the rules give 20.",
    ]}
    with app.app_context():
        assert db.session.query(Game).count() == 0


def test_import_of_broken_json_is_refused(client: FlaskClient) -> None:
    response = client.post("/games/import", data="{oops", content_type="application/json")
    assert response.status_code == 422
    assert response.json["problems"][0].startswith("The file is not valid JSON")


def test_an_unfinished_pad_resumes_where_it_stopped(client: FlaskClient, example_pad: dict) -> None:
    example_pad["hands"].append({"cards": 3, "entries": [
        {"player": "Anne", "bid": 1, "tricks": 1}, {"player": "Ben", "bid": 2}, {"player": "Cara", "bid": 0}]})
    url = import_as_host(client, example_pad)
    page = text(client.get(url))
    assert "Hand 3 of 10" in page and "Tricks and bonuses" in page
    assert client.post(url + "/hands/3", data=results([1, 2, 0])).status_code == 303
    assert "Hand 4 of 10" in text(client.get(url))


def test_a_finished_pad_opens_the_next_hand(client: FlaskClient, example_pad: dict) -> None:
    url = import_as_host(client, example_pad)
    assert "Hand 3 of 10" in text(client.get(url))
    assert "choose to bid" in text(client.get(url))


def test_import_by_file_upload(client: FlaskClient, example_pad: dict) -> None:
    upload = (io.BytesIO(json.dumps(example_pad).encode()), "pad.json")
    response = client.post("/games/import", data={"pad": upload}, content_type="multipart/form-data")
    assert response.status_code == 303
    assert "Hand 3 of 10" in text(client.get(response.headers["Location"]))


def test_a_refused_upload_shows_the_problems_on_the_start_page(client: FlaskClient, example_pad: dict) -> None:
    example_pad["totals"]["Ben"] = 99
    upload = (io.BytesIO(json.dumps(example_pad).encode()), "pad.json")
    response = client.post("/games/import", data={"pad": upload}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "totals, Ben: the pad says 99, the rules give 30." in text(response)
    missing = client.post("/games/import", data={}, content_type="multipart/form-data")
    assert missing.status_code == 422 and "Choose a pad file to import." in text(missing)


def test_the_language_picker_sticks(client: FlaskClient) -> None:
    response = client.post("/language", data={"language": "de", "next": "/games/new"})
    assert response.status_code == 303 and response.headers["Location"] == "/games/new"
    assert '<html lang="de">' in text(client.get("/"))
    away = client.post("/language", data={"language": "fr", "next": "//evil.example"})
    assert away.headers["Location"] == "/"


def test_the_browser_language_is_the_default(client: FlaskClient) -> None:
    assert '<html lang="it">' in text(client.get("/", headers={"Accept-Language": "it-IT,it;q=0.9"}))
    assert '<html lang="en">' in text(client.get("/", headers={"Accept-Language": "nl"}))


def test_a_template_speaks_the_language_in_force_even_when_it_changes_within_a_request(app: Flask) -> None:
    """Templates keep a request's translations at hand; a language forced for a part of the request (Flask-Babel's
    force_locale) is followed, and the request's own comes back after it."""
    from flask import render_template_string
    from flask_babel import force_locale

    said = ("{{ _('Sorry') }} | {{ ngettext('%(names)s is checking their result; the hand waits:', "
            "'%(names)s are checking their results; the hand waits:', 2, names='A, B') }}")
    with app.test_request_context("/", headers={"Accept-Language": "de"}):
        german = render_template_string(said)
        with force_locale("fr"):
            french = render_template_string(said)
        again = render_template_string(said)
    assert german == again and german.startswith("Entschuldigung |") and french.startswith("Désolé |")
    assert all(" | A, B " in words and "checking" not in words for words in (german, french))
    with app.test_request_context("/", headers={"Accept-Language": "it"}):
        assert render_template_string(said) not in (german, french)


def test_a_macro_of_an_imported_template_speaks_each_request_s_language(app: Flask) -> None:
    """An imported template is drawn once and kept for every request after: its macros still speak the language of
    the request that calls them, request after request."""
    from flask import render_template_string

    said = '{% from "_macros.html" import problem_list %}{{ problem_list(["x"]) }}'
    heard = {}
    for language in ("en", "de", "fr", "en", "it", "de"):
        with app.test_request_context("/", headers={"Accept-Language": language}):
            heard.setdefault(language, set()).add(render_template_string(said))
    assert all(len(pages) == 1 for pages in heard.values())
    assert len({next(iter(pages)) for pages in heard.values()}) == 4
    assert "Not saved yet" in next(iter(heard["en"])) and "Not saved yet" not in next(iter(heard["de"]))


def test_a_template_s_words_read_as_jinja_s_own_i18n_would_say_them(app: Flask) -> None:
    """The templates' `_`, `gettext`, `ngettext`, `pgettext` and `npgettext` are called directly, not through
    Jinja's i18n extension: the same words, escaped and formatted alike, in a translated language and English."""
    from flask import render_template_string
    from flask_babel import get_translations
    from jinja2 import Environment

    said = ("{{ _('Sorry') }}|{{ _('You are %(name)s', name='<b>Ann</b>') }}|{{ _('100%% sure') }}|"
            "{{ gettext('Hand %(number)d', number=3) }}|"
            "{{ ngettext('%(num)d hand', '%(num)d hands', 1) }}|{{ ngettext('%(num)d hand', '%(num)d hands', 4) }}|"
            "{{ pgettext('cards', 'Deal %(n)s', n='<i>') }}|{{ npgettext('cards', '%(num)d card', '%(num)d cards', 2) }}|"
            "{% autoescape false %}{{ _('You are %(name)s', name='<b>Ann</b>') }}{% endautoescape %}")
    for language in ("de", "en"):
        with app.test_request_context("/", headers={"Accept-Language": language}):
            ours = render_template_string(said)
            translations = get_translations()
        jinja_s = Environment(extensions=["jinja2.ext.i18n"], autoescape=True)
        jinja_s.install_gettext_translations(translations, newstyle=True)  # type: ignore[attr-defined]
        assert ours == jinja_s.from_string(said).render()
        assert "&lt;b&gt;Ann&lt;/b&gt;" in ours and ours.endswith("<b>Ann</b>") and "|100% sure|" in ours
        assert "|4 hands|" in ours or language != "en"


def test_the_code_s_words_are_flask_babel_s_in_every_language_and_outside_a_request(app: Flask) -> None:
    """The code's `gettext` (`scorekeeper.i18n`) says what Flask-Babel's would: translated and formatted alike, in
    the language in force, and the words as written where no app is at work."""
    import flask_babel

    from scorekeeper import i18n

    asked = [("Sorry", {}), ("Hand %(number)d", {"number": 4}), ("You are %(name)s", {"name": "<Ann>"})]
    for language in ("de", "fr", "it", "en"):
        with app.test_request_context("/", headers={"Accept-Language": language}):
            ours = [i18n.gettext(words, **values) for words, values in asked]
            assert ours == [flask_babel.gettext(words, **values) for words, values in asked]
            with flask_babel.force_locale("de" if language != "de" else "fr"):
                assert i18n.gettext("Sorry") == flask_babel.gettext("Sorry") != ours[0]
    assert i18n.gettext("Hand %(number)d", number=2) == "Hand 2"


# --- protection and errors -----------------------------------------------------------


@pytest.fixture
def protected_client(database_url: str) -> FlaskClient:
    """A client of an app with CSRF protection on, as in production."""
    from tests.conftest import make_app

    return make_app(database_url, WTF_CSRF_ENABLED=True).test_client()


def test_state_changes_need_the_csrf_token(protected_client: FlaskClient) -> None:
    response = protected_client.post("/games/new", data={"ruleset": "classic", "player": ["A", "B"]})
    assert response.status_code == 400
    assert "Reload it and try again." in text(response)
    page = text(protected_client.get("/games/new"))
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    ok = protected_client.post("/games/new", data={"ruleset": "classic", "player": ["A", "B"], "csrf_token": token})
    assert ok.status_code == 303
    # htmx sends the token as a header instead.
    url = ok.headers["Location"]
    header_ok = protected_client.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1},
                                      headers={"X-CSRFToken": token})
    assert header_ok.status_code == 303
    upload = protected_client.post("/games/import", data={}, content_type="multipart/form-data")
    assert upload.status_code == 400


def test_a_page_s_token_is_signed_once_in_a_while_and_still_checked(protected_client: FlaskClient,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A browser's pages carry one signed token for some minutes (signing it for every page cost more than the
    page's reading of the game); another browser has its own; the token is checked as before, and after those
    minutes a new one is signed."""
    from scorekeeper.views import sessions

    def token_of(client: FlaskClient) -> str:
        return re.search(r'name="csrf_token" value="([^"]+)"', text(client.get("/games/new"))).group(1)  # type: ignore[union-attr]

    # The clock set to a window's start, then some seconds on: a token signed again would carry another second.
    window = (time.time() // sessions.TOKEN_SERVES_SECONDS + 1) * sessions.TOKEN_SERVES_SECONDS
    monkeypatch.setattr(sessions.time, "time", lambda: window)
    first = token_of(protected_client)
    monkeypatch.setattr(sessions.time, "time", lambda: window + 5)
    assert token_of(protected_client) == first
    other = protected_client.application.test_client()
    assert token_of(other) != first
    # Another browser's token is not this one's.
    refused = protected_client.post("/games/new", data={"ruleset": "classic", "player": ["A", "B"],
                                                        "csrf_token": token_of(other)})
    assert refused.status_code == 400
    moved_on = window + sessions.TOKEN_SERVES_SECONDS
    monkeypatch.setattr(sessions.time, "time", lambda: moved_on)
    later = token_of(protected_client)
    assert later != first
    for token in (first, later):
        created = protected_client.post("/games/new", data={"ruleset": "classic", "player": ["A", "B"],
                                                            "csrf_token": token})
        assert created.status_code == 303


def test_a_session_cookie_is_checked_once_and_still_refused_when_forged_or_expired(
        client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process takes a cookie it checked as it read it then; a cookie changed by one letter is no session,
    even from the same browser, and a kept one is no session once it is older than a session lives."""
    from scorekeeper.views import headers

    url = client.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben"]}).headers["Location"]
    host_page = text(client.get(url))
    assert "Who won this hand" in host_page or 'id="card"' in host_page
    cookie = client.get_cookie("session")
    assert cookie is not None
    # Read twice: the second time from what the process kept, and the browser is the host both times.
    for _ in range(2):
        assert client.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 0}).status_code == 303
    assert client.application.session_interface.read.get(cookie.value) is not None  # type: ignore[attr-defined]
    forged = cookie.value[:-2] + ("A" if cookie.value[-2] != "A" else "B") + cookie.value[-1]
    stranger = client.application.test_client()
    stranger.set_cookie("session", forged)
    assert stranger.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1}).status_code == 403
    lives = client.application.permanent_session_lifetime.total_seconds()
    moved_on = time.time() + lives + 60
    monkeypatch.setattr(headers.time, "time", lambda: moved_on)
    assert client.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1}).status_code == 403


def test_json_import_needs_no_csrf_token(protected_client: FlaskClient, example_pad: dict) -> None:
    assert protected_client.post("/games/import", json=example_pad).status_code == 201


def test_errors_are_pages_with_words(client: FlaskClient) -> None:
    missing = client.get("/games/nothing-here")
    assert missing.status_code == 404 and "There is nothing here." in text(missing)
    wrong = client.delete("/games/new")
    assert wrong.status_code == 405 and "That is not something this page can do." in text(wrong)


def test_a_write_s_answer_is_compressed_at_the_answers_quality(client: FlaskClient,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A tap's answer (htmx) comes compressed with brotli at the answers' quality, the same page as sent plain, and so
    does a refusal's; a page opened keeps the pages' quality; a browser without brotli gets gzip as before."""
    import brotli

    from scorekeeper.views import headers

    url = new_game(client, ["Anne", "Ben", "Cara"])
    qualities: list[int] = []
    compress = brotli.compress
    monkeypatch.setattr(brotli, "compress", lambda data, **options: qualities.append(options["quality"])
                        or compress(data, **options))
    assert client.get(url, headers={"Accept-Encoding": "br"}).headers["Content-Encoding"] == "br"
    assert qualities[-1] == client.application.config["COMPRESS_BR_LEVEL"] != headers.ANSWER_QUALITY
    qualities.clear()
    htmx = {"HX-Request": "true"}
    answer = client.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1},
                         headers={**htmx, "Accept-Encoding": "br, gzip"})
    assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "br"
    assert "Accept-Encoding" in answer.headers["Vary"]
    assert qualities == [headers.ANSWER_QUALITY]
    shown = brotli.decompress(answer.get_data()).decode()
    plain = client.post(f"{url}/hands/1/bid", data={"seat": 1, "bid": 2}, headers=htmx)
    assert "Content-Encoding" not in plain.headers
    for page in (shown, text(plain)):
        assert 'id="table"' in page and "</html>" not in page
    gzipped = client.post(f"{url}/hands/1/bid", data={"seat": 2, "bid": 1},
                          headers={**htmx, "Accept-Encoding": "gzip"})
    assert gzipped.headers.get("Content-Encoding") == "gzip"
    assert qualities == [headers.ANSWER_QUALITY]
    # A refusal drawn again as the page (422) comes compressed too.
    refused = client.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 9},
                          headers={**htmx, "Accept-Encoding": "br, gzip"})
    assert refused.status_code == 422 and refused.headers["Content-Encoding"] == "br"
    assert "problems" in brotli.decompress(refused.get_data()).decode()
    assert qualities == [headers.ANSWER_QUALITY] * 2


def test_a_too_large_import_is_refused_in_words(client: FlaskClient) -> None:
    response = client.post("/games/import", data=b"[" + b"1," * 600_000 + b"1]", content_type="application/json")
    assert response.status_code == 413
    assert response.json == {"problems": ["That file is too large for a pad file."]}


def test_pages_static_files_and_live_streams_are_compressed(client: FlaskClient) -> None:
    url = new_game(client, ["Anne", "Ben"])
    for path in (url, "/static/htmx-2.0.11.min.js", "/static/app.css"):
        response = client.get(path, headers={"Accept-Encoding": "br, gzip"})
        assert response.headers.get("Content-Encoding") == "br", path
        assert "Accept-Encoding" in response.headers["Vary"]
    # A browser without brotli still gets everything compressed.
    assert client.get(url, headers={"Accept-Encoding": "gzip, deflate"}).headers["Content-Encoding"] == "gzip"
    older = client.get("/static/app.js", headers={"Accept-Encoding": "gzip, deflate"})
    assert older.headers.get("Content-Encoding") == "gzip"
    stream = client.get(f"{url}/events", headers={"Accept-Encoding": "br, gzip"}, buffered=False)
    assert stream.headers.get("Content-Encoding") == "gzip"
    # Compressed as it goes: every chunk decompresses whole, so each event leaves at once.
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    chunks = iter(stream.response)
    assert inflate.decompress(next(chunks)).startswith(b"retry:")
    table = inflate.decompress(next(chunks)).decode()
    assert table.startswith("id: ") and "event: table" in table and table.endswith("\n\n")
    stream.close()


def test_no_get_writes_even_after_a_count_has_ended(app: Flask, client: FlaskClient) -> None:
    """The bids show because the count has ended, not because a page was fetched."""
    url = new_game(client, ["Anne", "Ben"])
    anne, viewer = app.test_client(), app.test_client()
    assert anne.post(f"{url}/join", data={"seat": 0}).status_code == 303
    anne.post(f"{url}/hands/1/bid", data={"bid": 1})
    client.post(f"{url}/hands/1/bid", data={"seat": 1, "bid": 0})

    def every_row() -> dict[str, list]:
        with app.app_context():
            return {table.name: sorted(map(tuple, db.session.execute(table.select()).all()), key=repr)
                    for table in db.metadata.sorted_tables}

    before = every_row()
    with app.app_context():
        # The count of the bids is stored as running: its end is written nowhere.
        game = games.find_game(url.rsplit("/", 1)[-1])
        assert (game.count_name, game.reveal_at is not None) == ("bid", True)
    pages = []
    for browser in (client, anne, viewer):
        for path in (url, f"{url}/pad", f"{url}/screen", f"{url}/end", f"{url}/pad.json", f"{url}/pad.csv",
                     f"{url}/hands/1", f"{url}/join", "/", "/join", "/games/new", "/games/new/skip-bo",
                     "/games/new/dracula"):
            for headers in ({}, {"HX-Request": "true"}):
                response = browser.get(path, headers=headers)
                assert response.status_code < 400, path
                pages.append(text(response))
    assert every_row() == before
    # Yet every screen shows the bids as revealed.
    assert "Tricks won" in text(anne.get(url))
    assert '"bid": 1' in text(viewer.get(f"{url}/pad.json"))


def test_after_a_new_game_or_an_import_the_address_is_the_games(client: FlaskClient, finished_pad: dict) -> None:
    """htmx is told to fetch the game into the page and put its address in the bar, so a reload stays there."""
    created = client.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben"]}, headers=HTMX)
    location = json.loads(created.headers["HX-Location"])
    assert created.status_code == 200 and location["path"].startswith("/games/") and location["target"] == "#main"
    assert client.get(location["path"]).status_code == 200
    upload = {"pad": (io.BytesIO(json.dumps(finished_pad).encode()), "pad.json")}
    imported = client.post("/games/import", data=upload, headers=HTMX, content_type="multipart/form-data")
    path = json.loads(imported.headers["HX-Location"])["path"]
    assert path.startswith("/games/") and path != location["path"]
    # Without htmx, the same answers are plain redirects.
    plain = client.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben"]})
    assert plain.status_code == 303 and "HX-Location" not in plain.headers


def test_only_the_host_is_offered_corrections_on_the_pad(app: Flask, client: FlaskClient) -> None:
    url = new_game(client, ["Anne", "Ben"])
    anne = app.test_client()
    anne.post(f"{url}/join", data={"seat": 0})
    anne.post(f"{url}/hands/1/bid", data={"bid": 1})
    client.post(f"{url}/hands/1/bid", data={"seat": 1, "bid": 0})
    anne.post(f"{url}/hands/1", data={"intent": "trick"})
    assert client.post(f"{url}/hands/1", data={"tricks-1": "0", "intent": "score"}).status_code == 303
    correction = f'href="{url}/hands/1"'
    assert correction in text(client.get(f"{url}/pad")) and "Correct a hand:" in text(client.get(f"{url}/pad"))
    for browser in (anne, app.test_client()):
        pad = text(browser.get(f"{url}/pad"))
        assert correction not in pad and "Correct a hand" not in pad
    # The pad itself is the same for everyone, so it is pushed as one rendering; the corrections are the host's own.
    host_pad, anne_pad = text(client.get(f"{url}/pad")), text(anne.get(f"{url}/pad"))
    shared = re.compile(r'<div id="table".*(?=\s*<div id="card")', re.S)
    assert shared.search(host_pad).group(0) == shared.search(anne_pad).group(0)


def test_a_kraken_hand_closes_from_the_phones_alone(app: Flask, client: FlaskClient) -> None:
    """One card each, the only trick goes to the Kraken: a phone says so, and the hand closes."""
    url = new_game(client, ["Anne", "Ben", "Cara"], "modern", advanced_cards="on")
    phones = [app.test_client() for _ in range(3)]
    for seat, phone in enumerate(phones):
        phone.post(f"{url}/join", data={"seat": seat})
        phone.post(f"{url}/hands/1/bid", data={"bid": 0})
    assert 'value="lost-more"' in text(phones[0].get(url))
    phones[1].post(f"{url}/hands/1", data={"intent": "made"})
    phones[2].post(f"{url}/hands/1", data={"intent": "made"})
    # Two phones saw the Kraken at once: the second tap is taken back, and the count is one.
    assert phones[0].post(f"{url}/hands/1", data={"intent": "lost-more"}).status_code == 303
    assert phones[2].post(f"{url}/hands/1", data={"intent": "lost-more"}).status_code == 422
    assert "Tricks nobody won" in text(phones[1].get(url))
    done = phones[0].post(f"{url}/hands/1", data={"tricks-0": "0", "intent": "done"})
    assert done.status_code == 303
    assert "Hand 2 of 10" in text(phones[0].get(url))
    with app.app_context():
        assert hand_now(url).lost_tricks == 1
    # A phone cannot declare more tricks lost than were dealt.
    for phone in phones:
        phone.post(f"{url}/hands/2/bid", data={"bid": 0})
    for _ in range(2):
        phones[0].post(f"{url}/hands/2", data={"intent": "lost-more"})
    refused = phones[0].post(f"{url}/hands/2", data={"intent": "lost-more"})
    assert refused.status_code == 422


def test_an_htmx_write_gets_the_page_in_one_answer_and_a_plain_form_the_303(client: FlaskClient, app: Flask) -> None:
    url = new_game(client, ["Anne", "Ben"])
    anne = app.test_client()
    assert anne.post(f"{url}/join", data={"seat": 0}).status_code == 303
    # A plain form: post, redirect, get, so that a reload never sends the bid again.
    plain = anne.post(f"{url}/hands/1/bid", data={"bid": "1"})
    assert plain.status_code == 303 and plain.headers["Location"].endswith(url)
    # htmx: the own card as it is now, in this answer; the address bar shows the game, not the POST.
    answer = anne.post(f"{url}/hands/1/bid", data={"bid": "0"}, headers=HTMX)
    assert answer.status_code == 200 and "Location" not in answer.headers
    assert answer.headers["HX-Replace-Url"] == url and "HX-Push-Url" not in answer.headers
    body = text(answer)
    assert "<html" not in body and 'id="card"' in body and "Your bid is 0." in body
    # The same for another game on the shelf, and a refusal stays a 422 with its words.
    match = client.post("/games/new/free-pad", data={"game": "Yahtzee", "player": ["Anne", "Ben"]})
    match_url = match.headers["Location"]
    saved = client.post(f"{match_url}/play", data={"play": "1", "points-0": "12"}, headers=HTMX)
    assert saved.status_code == 200 and saved.headers["HX-Replace-Url"] == match_url and "12" in text(saved)
    assert client.post(f"{match_url}/play", data={"play": "1", "points-0": "12"}).status_code == 303
    refused = client.post(f"{match_url}/play", data={"play": "1", "points-1": "x"}, headers=HTMX)
    assert refused.status_code == 422 and "HX-Replace-Url" not in refused.headers
