"""A free pad for any game: its rules, its pad file, the phones and the host, exports, crews and BG Stats."""

from __future__ import annotations

import csv
import html
import io
import json

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.padfile import PadError
from scorekeeper.shelf import read_any, score_any
from scorekeeper.shelf.freepad.rules import BY_HOST, BY_ROUNDS, BY_TARGET, Played, Setup, is_over, winners
from tests.test_shelf_pads import DRACULA, SKIPBO
from tests.test_shelf_views import seen, seen_text, shelf_table, version

WIZARD = {
    "format": "free-pad", "version": 1, "game": "Wizard", "players": ["Anne", "Ben", "Cara"],
    "lowest_wins": False, "round_count": 3,
    "rounds": [{"Anne": 30, "Ben": -10, "Cara": 20}, {"Anne": -20, "Ben": 40, "Cara": 20}],
}


def test_the_highest_or_the_lowest_total_wins_and_ties_share() -> None:
    players = ("Anne", "Ben", "Cara")
    rounds = ({"Anne": 10, "Ben": 5, "Cara": 10}, {"Anne": 0, "Ben": 0, "Cara": 0})
    highest = Setup("Rummy", players, end=BY_ROUNDS, limit=2)
    assert is_over(highest, Played(rounds)) and winners(highest, Played(rounds)) == [0, 2]
    lowest = Setup("Golf", players, lowest_wins=True, end=BY_ROUNDS, limit=2)
    assert winners(lowest, Played(rounds)) == [1]
    # Reaching the target ends the game; with the lowest winning, who reached it loses (Hearts).
    hearts = Setup("Hearts", players, lowest_wins=True, end=BY_TARGET, limit=15)
    assert not is_over(hearts, Played(rounds[:1])) and winners(hearts, Played(rounds[:1])) == []
    assert winners(hearts, Played(({"Anne": 16, "Ben": 3, "Cara": 7},))) == [1]
    # Teams add their players' points.
    teams = Setup("Canasta", ("Anne", "Ben", "Cara", "Dan"), ((0, 2), (1, 3)), end=BY_HOST)
    assert not is_over(teams, Played(rounds))
    assert winners(teams, Played(({"Anne": 50, "Ben": 40, "Cara": -20, "Dan": 20},), ended=True)) == [1]


def test_the_pad_file_round_trips_and_is_checked() -> None:
    kind, (setup, plays) = read_any(json.dumps(WIZARD))
    assert kind is not None and kind.NAME == "free-pad" and setup.end == BY_ROUNDS and setup.limit == 3
    assert kind.write_pad(setup, plays)["totals"] == {"Anne": 10, "Ben": 30, "Cara": 40}
    finished = {**WIZARD, "rounds": [*WIZARD["rounds"], {"Anne": 0, "Ben": 0, "Cara": -50}]}
    written = score_any(json.dumps(finished))
    assert written["winners"] == ["Ben"] and read_any(json.dumps(written))[1][0] == setup
    wrong = {**WIZARD, "totals": {"Anne": 10, "Ben": 30, "Cara": 99}}
    with pytest.raises(PadError) as refused:
        read_any(json.dumps(wrong))
    assert [p.params.get("given") for p in refused.value.problems] == [40]
    bad = {**WIZARD, "target": 100, "rounds": [{"Anne": 1, "Ben": 2}]}
    with pytest.raises(PadError) as refused:
        read_any(json.dumps(bad))
    assert "not both" in refused.value.problems[0].template
    missing = {**WIZARD, "rounds": [{"Anne": 1, "Ben": 2, "Dora": 3}]}
    with pytest.raises(PadError) as refused:
        read_any(json.dumps(missing))
    assert {p.template for p in refused.value.problems} == {"not playing in this game: %(names)s.",
                                                             "%(names)s: the points are missing."}


def free_table(client: FlaskClient, app: Flask, **form: object) -> tuple[str, dict[str, FlaskClient]]:
    return shelf_table(client, app, "free-pad", **{"game": "Wizard", "end": "rounds", "rounds": "2", **form})


def test_each_phone_types_its_own_points_and_the_host_those_without_a_phone(client: FlaskClient, app: Flask) -> None:
    url, phones = free_table(client, app)
    assert "Round 1" in seen(phones["Ben"], url) and "Your points" in seen(phones["Ben"], url)
    # A phone types its own points only; a viewer none.
    assert phones["Ben"].post(f"{url}/play", data={"play": "1", "points-0": "5"}).status_code == 403
    assert app.test_client().post(f"{url}/play", data={"play": "1", "points-0": "5"}).status_code == 403
    before = version(app, url)
    assert phones["Anne"].post(f"{url}/play", data={"play": "1", "points-0": "−12"}).status_code == 303
    assert version(app, url) == before + 1
    page = seen(phones["Cara"], url)
    assert "−12" in page and "not in yet" in page and "typing" not in page
    refused = phones["Ben"].post(f"{url}/play", data={"play": "1", "points-1": "lots"})
    assert refused.status_code == 422
    assert "Round 1, Ben: “lots” is not a whole number of points." in seen_text(refused)
    assert version(app, url) == before + 1
    # Typed again before the round closes: the new points replace the old.
    assert phones["Anne"].post(f"{url}/play", data={"play": "1", "points-0": "-10"}).status_code == 303
    assert phones["Ben"].post(f"{url}/play", data={"play": "1", "points-1": "20"}).status_code == 303
    assert phones["Cara"].post(f"{url}/play", data={"play": "1", "points-2": "0"}).status_code == 303
    assert "Round 2" in seen(client, url)
    # A tap drawn for round 1 that arrives late changes nothing in round 2.
    late = version(app, url)
    phones["Cara"].post(f"{url}/play", data={"play": "1", "points-2": "99"})
    assert version(app, url) == late
    # The host types only for players without a phone: for Anne's, refused, and nothing changes.
    assert client.post(f"{url}/play", data={"play": "2", "points-0": "5"}).status_code == 403
    assert version(app, url) == late
    # The phones gone (their seats freed), the host types every player's at once; the last round ends the game.
    for seat in range(3):
        assert client.post(f"{url}/seats/{seat}/free").status_code == 303
    assert "points-0" in seen(client, url)
    assert client.post(f"{url}/play", data={"play": "2", "points-0": "5", "points-1": "-30",
                                             "points-2": "7"}).status_code == 303
    end = seen(phones["Ben"], url)
    assert "Cara wins!" in end and "Points of round" not in end
    assert client.post(f"{url}/play", data={"play": "3", "points-0": "1"}).status_code in (303, 422)
    exported = json.loads(client.get(f"{url}/pad.json").get_data(as_text=True))
    assert exported["totals"] == {"Anne": -5, "Ben": -10, "Cara": 7} and exported["winners"] == ["Cara"]
    rows = list(csv.reader(io.StringIO(client.get(f"{url}/pad.csv").get_data(as_text=True))))
    assert rows[0] == ["round", "player", "points", "total"]
    assert rows[1:4] == [["1", "Anne", "-10", "-10"], ["1", "Ben", "20", "20"], ["1", "Cara", "0", "0"]]
    assert rows[-1] == ["2", "Cara", "7", "7"]
    # Brought back from its file: the same pad, finished.
    imported = client.post("/games/import", json=exported)
    assert imported.status_code == 201
    assert "Cara wins!" in seen(client, imported.get_json()["url"])


def test_the_host_ends_the_game_and_it_counts_in_the_crew(client: FlaskClient, app: Flask) -> None:
    url, phones = free_table(client, app, end="host", lowest_wins="on", team=["a", "b", "A"])
    page = seen(client, url)
    assert "Anne + Cara" in page and "the lowest total wins" in page
    assert phones["Ben"].post(f"{url}/play", data={"play": "1", "end": "1"}).status_code == 403
    for seat, (name, points) in enumerate((("Anne", "3"), ("Ben", "10"), ("Cara", "4"))):
        assert phones[name].post(f"{url}/play", data={"play": "1", f"points-{seat}": points}).status_code == 303
    assert phones["Anne"].post(f"{url}/play", data={"play": "2", "points-0": "1"}).status_code == 303
    assert client.post(f"{url}/play", data={"play": "2", "end": "1"}).status_code == 303
    end = seen(phones["Anne"], url)
    assert "Anne + Cara wins!" in end
    exported = json.loads(client.get(f"{url}/pad.json").get_data(as_text=True))
    assert exported["ended"] is True and exported["rounds"] == [{"Anne": 3, "Ben": 10, "Cara": 4}]
    assert exported["teams"] == [["Anne", "Cara"], ["Ben"]] and exported["totals"] == [7, 10]
    # The crew page heads its statistics with the game's own name; BG Stats gets it by name, lowest winning.
    crew = html.unescape(phones["Anne"].get(f"/crews/{crew_of(app, url)}").get_data(as_text=True))
    assert "<h2 id=\"stats-1\">Wizard</h2>" in crew
    play = json.loads(client.get(f"{url}/play.bgsplay").get_data(as_text=True))
    assert play["game"]["name"] == "Wizard" and play["game"]["highestWins"] is False
    assert [(p["name"], p["rank"], p["winner"]) for p in play["players"]] == [
        ("Anne", 1, True), ("Ben", 3, False), ("Cara", 1, True)]
    # "New game with these players" offers the same game, teams and ending.
    again = seen(client, f"/games/new/free-pad?after={url.rsplit('/', 1)[-1]}")
    assert 'value="Wizard"' in again and 'name="lowest_wins" checked' in again


def crew_of(app: Flask, url: str) -> str:
    from scorekeeper import games

    with app.app_context():
        return games.find_game(url.rsplit("/", 1)[-1]).crew


def test_a_free_pad_form_is_refused_in_words(client: FlaskClient) -> None:
    refused = client.post("/games/new/free-pad", data={"game": "", "player": ["Anne", "Anne"], "end": "target",
                                                       "target": "0"})
    assert refused.status_code == 422
    text = seen_text(refused)
    assert "Give the game a name" in text and "Every player needs a different name." in text
    assert "The target must be a whole number of points from 1 to 100000, not 0." in text
    half_teams = client.post("/games/new/free-pad", data={"game": "Bridge", "player": ["A", "B", "C"],
                                                          "team": ["1", "", "2"]})
    assert half_teams.status_code == 422 and "give every player a team" in seen_text(half_teams)


@pytest.mark.parametrize("kind, doc", [("skip-bo", SKIPBO), ("dracula", DRACULA), ("free-pad", WIZARD)])
@pytest.mark.parametrize("name, refusal", [
    ("A" * 41, "A name can have at most 40 characters."),
    ("An\u200bne", "A name cannot contain invisible or direction-changing characters."),
])
def test_a_name_no_seat_can_hold_is_refused_by_every_kind(client: FlaskClient, kind: str, doc: dict, name: str,
                                                          refusal: str) -> None:
    """A seat holds 40 characters on every database: longer names are refused in words, from the form and a pad."""
    form = {"player": [name, "Ben"], "game": "Wizard", "end": "rounds", "rounds": "2"}
    response = client.post(f"/games/new/{kind}", data=form)
    assert response.status_code == 422 and refusal in html.unescape(response.get_data(as_text=True))
    imported = client.post("/games/import", data=json.dumps(doc).replace('"Anne"', json.dumps(name)),
                           content_type="application/json")
    assert imported.status_code == 422 and refusal in imported.json["problems"]
    assert client.get("/").status_code == 200 and name not in client.get("/").get_data(as_text=True)


def test_the_host_is_offered_no_form_while_every_player_has_a_phone(client: FlaskClient, app: Flask) -> None:
    url, phones = free_table(client, app)
    card = seen(client, url)
    assert "points-0" not in card and ">Save<" not in card
    # One phone gone: the host types for that player alone.
    assert client.post(f"{url}/seats/1/free").status_code == 303
    card = seen(client, url)
    assert "points-1" in card and "points-0" not in card and ">Save<" in card
