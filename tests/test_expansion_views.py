"""The 2025 Expansion Pack on the table: a nine-player game made on the form, the host entering its bonuses for
players without a phone, the pad and CSV, and a phone's result card with its faces."""

from __future__ import annotations

import csv
import io
import json
import re

from flask import Flask
from flask.testing import FlaskClient

from tests.strategies import NAMES
from tests.test_judge_views import entries, judged, seen
from tests.test_views import bid_all, results, text


def expansion_game(client: FlaskClient, **options: str) -> str:
    """A nine-player modern game with the Expansion Pack, made on the new-game form; its URL."""
    created = client.post("/games/new", data={"ruleset": "modern", "player": list(NAMES), "expansion": "on",
                                              **options})
    assert created.status_code == 303, text(created)
    return created.headers["Location"]


def test_the_form_offers_the_expansion_and_a_ninth_seat(client: FlaskClient) -> None:
    page = text(client.get("/games/new"))
    assert 'name="expansion"' in page and 'id="player-8"' in page
    refused = client.post("/games/new", data={"ruleset": "modern", "player": list(NAMES)})
    assert refused.status_code == 422
    assert "The modern rules are for 2 to 8 players, not 9." in text(refused)


def test_the_host_enters_the_expansion_bonuses_and_the_pad_scores_them(client: FlaskClient) -> None:
    url = expansion_game(client)
    bid_all(client, url, 1, [1] + [0] * 8)
    # Anne won the one trick with her Skull King: a compass 8 and Con in it; Ben's Davy Jones destroyed the Stingray.
    data = results([1] + [0] * 8, **{"expansion_eights-0": "1", "first_mate_taken-0": "on",
                                     "davy_jones_monsters-1": "1"})
    assert client.post(f"{url}/hands/1", data=data).status_code == 303
    pad = json.loads(client.get(f"{url}/pad.json").data)
    assert pad["options"]["expansion"] is True and len(pad["players"]) == 9
    anne, ben = pad["hands"][0]["entries"][:2]
    assert anne["bonuses"] == {"expansion_eights": 1, "first_mate_taken": 1} and anne["points"] == 20 + 5 + 30
    assert ben["bonuses"] == {"davy_jones_monsters": 1} and ben["points"] == 10 + 20
    rows = list(csv.DictReader(io.StringIO(text(client.get(f"{url}/pad.csv")))))
    assert rows[0]["first_mate_taken"] == "1" and rows[1]["davy_jones_monsters"] == "1"


def test_what_cannot_happen_is_refused_naming_hand_and_player_and_nothing_is_stored(client: FlaskClient,
                                                                                     app: Flask) -> None:
    url = expansion_game(client)
    bid_all(client, url, 1, [1] + [0] * 8)
    data = results([1] + [0] * 8, **{"expansion_sevens-0": "5", "davy_jones_monsters-1": "2"})
    response = client.post(f"{url}/hands/1", data=data)
    assert response.status_code == 422
    body = text(response)
    assert "Hand 1, Anne: 5 compass 7s taken, but there are only 4." in body
    assert "Hand 1, Ben: Davy Jones destroyed 2 sea monsters, but the deck holds only 1." in body
    assert json.loads(client.get(f"{url}/pad.json").data)["hands"][0]["entries"][0].get("tricks") is None


def test_a_phone_s_card_counts_the_compass_cards_and_keeps_con_and_davy_jones_behind_more(app: Flask) -> None:
    host, anne = app.test_client(), app.test_client()
    url = expansion_game(host, advanced_cards="on")
    assert anne.post(f"{url}/join", data={"seat": 0}).status_code == 303
    # Anne bids on her phone; the host bids for the eight without one.
    assert anne.post(f"{url}/hands/1/bid", data={"bid": 0}).status_code == 303
    for seat in range(1, 9):
        assert host.post(f"{url}/hands/1/bid", data={"seat": seat, "bid": 0}).status_code == 303
    card = text(anne.get(url))
    faces, _, more = card.partition('<details class="more"')
    assert 'id="expansion_eights-0"' in faces and 'id="expansion_sevens-0"' in faces
    assert re.search(r'id="expansion_sevens-0-more".*?−5 each', faces, re.S)
    assert 'id="first_mate_taken-0"' in more and 'id="davy_jones_monsters-0"' in more
    # Three monsters with the advanced cards: the Stingray, the Kraken, the White Whale.
    assert re.search(r'id="davy_jones_monsters-0" min="0" max="3"', more)
    # A made zero bid earns Davy Jones' +20s: one tap on the card, kept as a draft, scored at Done.
    draft = anne.post(f"{url}/hands/1", data={"tricks-0": "0", "davy_jones_monsters-0": "2", "intent": "draft"},
                      headers={"HX-Request": "true"})
    assert draft.status_code == 200, text(draft)


def test_a_claimed_trick_gives_the_winner_its_captures_and_davy_jones_player_the_monsters(client: FlaskClient,
                                                                                          app: Flask) -> None:
    url = expansion_game(client, advanced_cards="on")
    bid_all(client, url, 1, [0] * 9)
    # Hand 1 (one card each), Ben leads: Ben the Kraken, Cara a compass 8, Dan Davy Jones, Eve yellow 9, the rest
    # Escapes. Davy Jones destroys the Kraken: Eve wins with the 8 in her trick, Dan destroyed one monster.
    cards = "kraken, yellow 8c, davy jones, yellow 9, " + ", ".join(["escape"] * 5)
    claimed = client.post(f"{url}/hands/1/trick", data={"lead": "1", "cards": cards})
    assert claimed.status_code == 303, text(claimed)
    found = entries(app, url)
    assert found[4][:2] == (1, {"expansion_eights": 1})
    assert found[3][:2] == (None, {"davy_jones_monsters": 1})


def test_the_judge_s_page_names_the_expansion_s_cards_and_the_winner(client: FlaskClient) -> None:
    url = expansion_game(client, advanced_cards="on")
    bid_all(client, url, 1, [0] * 9)
    cards = "kraken, yellow 8c, davy jones, wild 15, " + ", ".join(["escape"] * 5)
    page = seen(client, judged(url, 1, cards))
    assert "Eve wins the trick with Wild 15." in page
    assert "Yellow 8 with compass" in page and "Davy Jones' Locker" in page
    assert "Compass 8s" in page and "+5" in page
    refused = seen(client, judged(url, 1, "wild 15, yellow 3"))
    assert "The Wild 15 sets the suit here: name its colour" in refused


def test_a_finished_expansion_game_gives_the_crew_its_bonus_points_and_bg_stats_its_totals(client: FlaskClient,
                                                                                            app: Flask) -> None:
    from scorekeeper import games

    # Two hands: Anne's compass 8 and Con (+35) and Ben's Davy Jones (+20); then Anne's two compass 7s (−10).
    doc = {"format": "skull-king-pad", "version": 1, "ruleset": "modern",
           "options": {"scoring": "standard", "rounds": [1, 2], "expansion": True}, "players": ["Anne", "Ben"],
           "hands": [{"cards": 1, "entries": [
                         {"player": "Anne", "bid": 1, "tricks": 1,
                          "bonuses": {"expansion_eights": 1, "first_mate_taken": 1}},
                         {"player": "Ben", "bid": 0, "tricks": 0, "bonuses": {"davy_jones_monsters": 1}}]},
                     {"cards": 2, "entries": [
                         {"player": "Anne", "bid": 2, "tricks": 2, "bonuses": {"expansion_sevens": 2}},
                         {"player": "Ben", "bid": 0, "tricks": 0}]}]}
    response = client.post("/games/import", json=doc)
    assert response.status_code == 201, response.json
    url = response.headers["Location"].replace("http://localhost", "")
    with app.app_context():
        summary = games.find_game(url.rsplit("/", 1)[-1]).summary
    assert summary["totals"] == [20 + 35 + 40 - 10, 10 + 20 + 20]
    assert summary["bonus"] == [35 - 10, 20]
    play = json.loads(client.get(f"{url}/play.bgsplay").get_data(as_text=True))
    assert [p["score"] for p in play["players"]] == summary["totals"]


def test_the_tricks_nobody_won_name_the_stingray_and_a_trick_no_card_could_win(client: FlaskClient) -> None:
    """With the expansion a trick is lost to the Stingray or to cards that cannot win, with or without the Kraken and
    the White Whale: the host's field names what this game's pack can do, and only that."""
    url = expansion_game(client)
    bid_all(client, url, 1, [1] + [0] * 8)
    page = text(client.get(url))
    assert "Tricks nobody won (Spotted Stingray, a trick no card could win)" in page
    assert "Kraken" not in page
    advanced = expansion_game(client, advanced_cards="on")
    bid_all(client, advanced, 1, [1] + [0] * 8)
    assert "Tricks nobody won (Kraken, White Whale, Spotted Stingray, a trick no card could win)" in \
        text(client.get(advanced))


def test_a_claim_never_writes_davy_jones_monsters_into_another_phone_s_result(client: FlaskClient, app: Flask) -> None:
    """The host claims Eve's trick (no phone) in which Dan, who plays on a phone, destroyed a monster: Eve's trick is
    written, Dan's monsters are his phone's to count; with Dan's seat free, the host's claim counts them for him."""
    url = expansion_game(client, advanced_cards="on")
    bid_all(client, url, 1, [0] * 9)
    dan = app.test_client()
    assert dan.post(f"{url}/join", data={"seat": 3}).status_code == 303
    cards = "kraken, yellow 8c, davy jones, yellow 9, " + ", ".join(["escape"] * 5)
    claimed = client.post(f"{url}/hands/1/trick", data={"lead": "1", "cards": cards})
    assert claimed.status_code == 303, text(claimed)
    found = entries(app, url)
    assert found[4][:2] == (1, {"expansion_eights": 1})
    assert found[3][:2] == (None, {})
