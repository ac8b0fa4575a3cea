"""The table's memory: the games list, a crew's statistics (known answers), privacy, deletion, BG Stats."""

from __future__ import annotations

import html
import json
from datetime import datetime
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import games, stats
from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.helpers import import_as_host

# Anne makes both bids, one with the Skull King taking a pirate (+30); Ben makes his first zero and misses the second.
GAME_A = {"format": "skull-king-pad", "version": 1, "ruleset": "modern",
          "options": {"scoring": "standard", "rounds": [1, 2]}, "players": ["Anne", "Ben"],
          "hands": [{"cards": 1, "entries": [{"player": "Anne", "bid": 1, "tricks": 1},
                                             {"player": "Ben", "bid": 0, "tricks": 0}]},
                    {"cards": 2, "entries": [{"player": "Anne", "bid": 1, "tricks": 1,
                                              "bonuses": {"pirates_by_skull_king": 1}},
                                             {"player": "Ben", "bid": 0, "tricks": 1}]}]}


def seen(client: FlaskClient, url: str) -> str:
    return html.unescape(client.get(url).get_data(as_text=True))


def play_hand(client: FlaskClient, url: str, number: int, bids: list[int], tricks: list[int]) -> None:
    """The host enters a whole hand for two players without phones."""
    for seat, bid in enumerate(bids):
        assert client.post(f"{url}/hands/{number}/bid", data={"seat": seat, "bid": bid}).status_code == 303
    data = {"intent": "score", **{f"tricks-{seat}": t for seat, t in enumerate(tricks)}}
    assert client.post(f"{url}/hands/{number}", data=data).status_code == 303


def crew_of(app: Flask, url: str) -> str:
    with app.app_context():
        return games.find_game(url.rsplit("/", 1)[-1]).crew


@pytest.fixture
def two_games(client: FlaskClient, app: Flask) -> tuple[str, str]:
    """Game A imported, then its rematch B played by the host and hand 2 corrected."""
    first = import_as_host(client, GAME_A)
    response = client.post(f"{first}/rematch")
    second = response.headers["Location"]
    play_hand(client, second, 1, [0, 1], [0, 1])
    play_hand(client, second, 2, [1, 1], [1, 1])
    # Hand 2 was really Anne 2, Ben 0: both missed.
    correction = {"intent": "correct", "cards": "2", "lost_tricks": "0", "bid-0": "1", "tricks-0": "2",
                  "bid-1": "1", "tricks-1": "0"}
    assert client.post(f"{second}/hands/2", data=correction).status_code == 303
    return first, second


def test_summaries_and_statistics_have_the_known_answers(two_games: tuple[str, str], app: Flask) -> None:
    first, second = two_games
    assert crew_of(app, first) == crew_of(app, second)
    with app.app_context():
        a = games.find_game(first.rsplit("/", 1)[-1]).summary
        b = games.find_game(second.rsplit("/", 1)[-1]).summary
    assert a["totals"] == [70, -10] and a["winners"] == ["Anne"] and a["bonus"] == [30, 0]
    assert a["per_hand"] == [[20, 10], [50, -20]]
    assert a["bids_made"] == [2, 1] and a["zero_bids"] == [0, 2] and a["zero_bids_made"] == [0, 1]
    # The correction is in the summary: Anne 10 − 10, Ben 20 − 10.
    assert b["per_hand"] == [[10, 20], [-10, -10]] and b["totals"] == [0, 10] and b["winners"] == ["Ben"]
    anne, ben = sorted(stats.statistics([a, b])["skull-king"], key=lambda p: p.name)
    assert (anne.games, anne.wins, anne.average, anne.best) == (2, 1, 35, 70)
    assert (anne.bids_made_share, anne.zero_bids_share, anne.bonus_per_game) == (0.75, 1.0, 15) and anne.has_bonus
    assert (ben.games, ben.wins, ben.average, ben.best) == (2, 1, 0, 10)
    assert (ben.bids_made_share, ben.zero_bids_share, ben.bonus_per_game) == (0.5, 0.5, 0)


def test_the_crew_page_shows_both_games_to_those_who_played_only(two_games: tuple[str, str], client: FlaskClient,
                                                                 app: Flask) -> None:
    first, second = two_games
    crew = crew_of(app, first)
    page = seen(client, f"/crews/{crew}")
    assert "2 games" in page and page.count("<polyline") >= 4  # two players, two charts
    assert "75\u202f%" in page and "50\u202f%" in page
    stranger = app.test_client()
    assert stranger.get(f"/crews/{crew}").status_code == 404
    assert stranger.get(f"/crews/{crew}?key=guess").status_code == 404
    share = page.split('class="join-link"><a href="')[1].split('"')[0].replace("http://localhost", "")
    assert stranger.get(share).status_code == 200
    # A phone that played a game of the crew sees it too, with no share link of its own.
    phone = app.test_client()
    url = client.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben"], "after": second.rsplit(
        "/", 1)[-1]}).headers["Location"]
    phone.post(f"{url}/join", data={"seat": 0})
    phone_page = seen(phone, f"/crews/{crew}")
    assert "3 games" in phone_page and "Share this page" not in phone_page


def test_the_crew_page_and_the_games_list_follow_the_seats_held_now(two_games: tuple[str, str],
                                                                    client: FlaskClient, app: Flask) -> None:
    """A phone that only asked for a seat, or whose seat went to a new phone, sees neither."""
    _, second = two_games
    crew = crew_of(app, second)
    url = client.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben"], "after": second.rsplit(
        "/", 1)[-1]}).headers["Location"]
    anne, asker, turned_away = app.test_client(), app.test_client(), app.test_client()
    anne.post(f"{url}/join", data={"seat": 0})
    assert asker.post(f"{url}/join", data={"ask": "0"}).status_code == 303
    assert turned_away.post(f"{url}/join", data={"ask": "0"}).status_code == 303
    assert anne.get(f"/crews/{crew}").status_code == 200 and url in seen(anne, "/")
    # Asking is not playing: no crew page, the game not on the start page.
    for phone in (asker, turned_away):
        assert phone.get(f"/crews/{crew}").status_code == 404 and url not in seen(phone, "/")
    host_page = html.unescape(client.get(url).get_data(as_text=True))
    turn_away = [a for a in host_page.split('action="')[1:] if "/turn-away" in a.split('"')[0]]
    assert client.post(turn_away[-1].split('"')[0]).status_code == 303
    let_in = [a for a in host_page.split('action="')[1:] if "/let-in" in a.split('"')[0]]
    assert client.post(let_in[0].split('"')[0]).status_code == 303
    # The phone let in plays Anne now and sees the crew; the one turned away and Anne's old phone do not.
    assert asker.get(f"/crews/{crew}").status_code == 200 and url in seen(asker, "/")
    for phone in (turned_away, anne):
        assert phone.get(f"/crews/{crew}").status_code == 404 and url not in seen(phone, "/")


def test_only_the_host_starts_a_game_in_a_crew(two_games: tuple[str, str], app: Flask) -> None:
    stranger = app.test_client()
    response = stranger.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben"],
                                                 "after": two_games[0].rsplit("/", 1)[-1]})
    assert response.status_code == 403


def test_the_start_page_lists_this_browsers_games_and_a_deletion_can_be_undone(
        two_games: tuple[str, str], client: FlaskClient, app: Flask) -> None:
    first, second = two_games
    home = seen(client, "/")
    assert home.index(second) < home.index(first)  # newest first
    assert "won by Anne" in home and "won by Ben" in home
    assert app.test_client().get("/").get_data(as_text=True).count("game-link") == 0
    crew = crew_of(app, first)
    # Only the host deletes, and only a finished game.
    assert app.test_client().post(f"{first}/delete").status_code == 403
    assert client.post(f"{first}/delete").status_code == 303
    assert client.get(first).status_code == 404
    home = seen(client, "/")
    assert "Deleted: Skull King 2021 with Anne and Ben." in home and first not in home.replace(
        f"{first}/restore", "")
    assert "1 game" in seen(client, f"/crews/{crew}")
    assert client.post(f"{first}/restore").status_code == 303
    assert client.get(first).status_code == 303 and "2 games" in seen(client, f"/crews/{crew}")
    # A game in play cannot be deleted.
    url = client.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben"]}).headers["Location"]
    assert client.post(f"{url}/delete").status_code == 422


def test_a_deleted_game_is_removed_for_good_once_it_cannot_be_undone(
        two_games: tuple[str, str], client: FlaskClient, app: Flask) -> None:
    first, second = two_games
    client.post(f"{first}/delete")
    with app.app_context():
        game = games.find_game(first.rsplit("/", 1)[-1], deleted=True)
        game.deleted_at = datetime(2020, 1, 1)
        db.session.commit()
    client.post(f"{second}/delete")
    with app.app_context():
        assert games.find_game(first.rsplit("/", 1)[-1], deleted=True) is None
    assert client.post(f"{first}/restore").status_code == 404


def test_the_bg_stats_play_of_a_known_game_matches_the_hand_written_file(client: FlaskClient, app: Flask) -> None:
    url = import_as_host(client, GAME_A)
    public_id = url.rsplit("/", 1)[-1]
    with app.app_context():
        game = db.session.query(Game).filter_by(public_id=public_id).one()
        game.created_at, game.finished_at = datetime(2026, 11, 20, 21, 0), datetime(2026, 11, 20, 21, 47)
        db.session.commit()
    response = client.get(f"{url}/play.bgsplay")
    assert response.status_code == 200 and response.headers["Content-Disposition"].endswith('.bgsplay"')
    expected = json.loads((Path(__file__).parent / "expected" / "skull-king.bgsplay").read_text(encoding="utf-8")
                          .replace("{game}", public_id))
    got = json.loads(response.get_data(as_text=True))
    assert got.keys() == expected.keys()
    for key in expected:
        assert got[key] == expected[key], key
    # A game still played has no play to export.
    running = client.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben"]}).headers["Location"]
    assert client.get(f"{running}/play.bgsplay").status_code == 404


def test_skipbo_and_dracula_leave_their_numbers_too(client: FlaskClient, app: Flask) -> None:
    from tests.test_shelf_pads import DRACULA

    match = {"format": "skip-bo-pad", "version": 1, "players": ["Anne", "Ben"], "target": 50,
             "games": [{"winner": "Ben", "left": {"Anne": 3}}, {"winner": "Anne", "left": {"Ben": 6}}]}
    url = import_as_host(client, match)
    with app.app_context():
        summary = games.find_game(url.rsplit("/", 1)[-1]).summary
    assert summary["totals"] == [55, 40] and summary["winners"] == ["Anne"] and summary["per_hand"] == [[0, 40], [55, 0]]
    anne, ben = stats.statistics([summary])["skip-bo"]
    assert (anne.name, anne.wins, anne.best, ben.average) == ("Anne", 1, 55, 40)
    # An unfinished Dracula game leaves nothing yet.
    url = import_as_host(client, DRACULA)
    with app.app_context():
        assert games.find_game(url.rsplit("/", 1)[-1]).summary is None


def test_a_new_skipbo_match_with_the_same_players_joins_the_crew(client: FlaskClient, app: Flask) -> None:
    match = {"format": "skip-bo-pad", "version": 1, "players": ["Anne", "Ben"], "target": 50,
             "games": [{"winner": "Anne", "left": {"Ben": 6}}]}
    first = import_as_host(client, match)
    form = seen(client, f"/games/new/skip-bo?after={first.rsplit('/', 1)[-1]}")
    assert 'value="Anne"' in form and 'value="Ben"' in form and 'name="after"' in form
    response = client.post("/games/new/skip-bo", data={"player": ["Anne", "Ben"], "target": "50",
                                                       "after": first.rsplit("/", 1)[-1]})
    second = response.headers["Location"]
    assert crew_of(app, first) == crew_of(app, second)
    client.post(f"{second}/play", data={"went_out": "1"})
    client.post(f"{second}/play", data={"left": "2", "seat": "0"})
    client.post(f"{second}/play", data={"went_out": "1"})
    client.post(f"{second}/play", data={"left": "3", "seat": "0"})
    page = seen(client, f"/crews/{crew_of(app, first)}")
    assert "2 games" in page and "Skip-Bo match" in page
    # Ben went out twice in the second match: 35 + 40 = 75, past the target; Anne's best is her first match.
    ben, anne = stats.statistics([g.summary for g in finished_games(app, crew_of(app, first))])["skip-bo"]
    assert (ben.name, ben.games, ben.wins, ben.best, ben.average) == ("Ben", 2, 1, 75, 37.5)
    assert (anne.name, anne.games, anne.wins, anne.best, anne.average) == ("Anne", 2, 1, 55, 27.5)
    assert app.test_client().post("/games/new/skip-bo", data={
        "player": ["Anne", "Ben"], "after": first.rsplit("/", 1)[-1]}).status_code == 403


def finished_games(app: Flask, crew: str) -> list[Game]:
    with app.app_context():
        return db.session.query(Game).filter(Game.crew == crew, Game.summary.isnot(None)).order_by(Game.id).all()


def test_the_games_list_the_crew_page_and_the_bg_stats_file_write_nothing(two_games: tuple[str, str],
                                                                          client: FlaskClient, app: Flask) -> None:
    first, _ = two_games

    def every_row() -> dict[str, list]:
        with app.app_context():
            return {table.name: sorted(map(repr, db.session.execute(table.select()).all()))
                    for table in db.metadata.sorted_tables}

    before = every_row()
    for path in ("/", f"/crews/{crew_of(app, first)}", f"{first}/play.bgsplay", f"{first}/end"):
        assert client.get(path).status_code == 200, path
    assert every_row() == before


def test_a_player_keeps_one_colour_and_games_are_told_apart(two_games: tuple[str, str], client: FlaskClient,
                                                             app: Flask) -> None:
    import re

    first, second = two_games
    page = client.get(f"/crews/{crew_of(app, first)}?game={first.rsplit('/', 1)[-1]}").get_data(as_text=True)
    legends = re.findall(r'class="series (series-\d+)"[^>]*/>\s*<text[^>]*class="legend">([^<]+)</text>', page)
    charts = page.count("<figure")
    assert charts == 3 and len(legends) == 6
    styles: dict[str, set[str]] = {}
    for style, name in legends:
        styles.setdefault(name, set()).add(style)
    # The totals chart, the ratings' and the chart of one game's hands: each player the same colour (and dash) in all.
    assert all(len(found) == 1 for found in styles.values()) and len(set().union(*styles.values())) == 2
    # Two games of one day: the winner's score and the time tell them apart.
    listed = re.findall(r"won by (\w+) with ([−\d]+) · <time[^>]*>(\d{4}-\d\d-\d\d \d\d:\d\d)</time>", html.unescape(page))
    assert sorted((w, p) for w, p, _ in listed) == [("Anne", "70"), ("Ben", "10")]


def test_a_chart_colours_players_by_the_crew_not_by_their_order() -> None:
    styles = stats.player_styles([{"players": ["Anne", "Ben"]}, {"players": ["Cara", "Ben"]}])
    assert styles == {"Anne": 0, "Ben": 1, "Cara": 2}
    game = stats.chart({"Cara": [(0, 0), (1, 5)], "Ben": [(0, 0), (1, 3)]}, "hands", styles=styles)
    assert [(name, style, dash) for name, _, dash, style in game.lines] == [
        ("Cara", 2, stats.DASHES[2 % len(stats.DASHES)]), ("Ben", 1, stats.DASHES[1 % len(stats.DASHES)])]
