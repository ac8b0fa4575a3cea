"""A player's page in a crew: their figures, head to head, their rival and the crew's ratings, computed from imported
pads of several crews and games (teams, ties, a free pad the lowest total wins, a deleted game); the ratings checked
against an Elo written here apart from the app's; who may see the page."""

from __future__ import annotations

import html
import json
import re
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import games, stats
from scorekeeper.extensions import db
from tests.helpers import import_as_host
from tests.test_crews import GAME_A

# Anne 70, Ben -10 (GAME_A); the same with the names swapped, deleted later: Ben would have won.
SWAPPED = {**GAME_A, "players": ["Ben", "Anne"],
           "hands": [{**hand, "entries": [{**entry, "player": {"Anne": "Ben", "Ben": "Anne"}[entry["player"]]}
                                          for entry in hand["entries"]]} for hand in GAME_A["hands"]]}
# Cara 40, Anne and Ben 30 each: level second.
THREE = {"format": "skull-king-pad", "version": 1, "ruleset": "modern",
         "options": {"scoring": "standard", "rounds": [1, 2]}, "players": ["Anne", "Ben", "Cara"],
         "hands": [{"cards": 1, "entries": [{"player": "Anne", "bid": 0, "tricks": 0},
                                            {"player": "Ben", "bid": 0, "tricks": 0},
                                            {"player": "Cara", "bid": 1, "tricks": 1}]},
                   {"cards": 2, "entries": [{"player": "Anne", "bid": 1, "tricks": 1},
                                            {"player": "Ben", "bid": 0, "tricks": 0},
                                            {"player": "Cara", "bid": 1, "tricks": 1}]}]}
# Golf, the lowest total wins: Anne and Cara level first with 3, Ben 5.
GOLF = {"format": "free-pad", "version": 1, "game": "Golf", "players": ["Anne", "Ben", "Cara"], "lowest_wins": True,
        "round_count": 1, "rounds": [{"Anne": 3, "Ben": 5, "Cara": 3}]}
# Ben and Dan beat Anne and Cara: partners on both sides.
PARTNERS = {"format": "skip-bo-pad", "version": 1, "teams": [["Anne", "Cara"], ["Ben", "Dan"]], "target": 50,
            "games": [{"winner": 1, "left": {"Anne": 3, "Cara": 7}}]}
# Another crew: Ben far ahead of Anne; it counts nowhere in the first.
ELSEWHERE = {"format": "free-pad", "version": 1, "game": "Golf", "players": ["Anne", "Ben"], "lowest_wins": False,
             "round_count": 1, "rounds": [{"Anne": 0, "Ben": 99}]}


def elo(games_in_order: Sequence[Sequence[tuple[Sequence[str], int]]]) -> dict[str, float]:
    """Elo written apart from the app's: each game a list of (a side's players, its place); every two sides one
    match; a side rated at its players' mean; K = 32 / (sides - 1)."""
    rating: dict[str, float] = defaultdict(lambda: 1500.0)
    for sides in games_in_order:
        k = 32 / (len(sides) - 1)
        strength = [sum(rating[p] for p in names) / len(names) for names, _ in sides]
        moves = []
        for i, (_, place) in enumerate(sides):
            move = 0.0
            for j, (_, other_place) in enumerate(sides):
                if i != j:
                    won = 1.0 if place < other_place else 0.5 if place == other_place else 0.0
                    move += k * (won - 1 / (1 + 10 ** ((strength[j] - strength[i]) / 400)))
            moves.append(move)
        for (names, _), move in zip(sides, moves, strict=True):
            for name in names:
                rating[name] += move
    return dict(rating)


def public_id(url: str) -> str:
    return url.rsplit("/", 1)[-1]


@pytest.fixture
def crew(client: FlaskClient, app: Flask) -> str:
    """Six games imported into one crew, ending in an order of their own; one of them deleted; a seventh elsewhere."""
    urls = {name: import_as_host(client, doc) for name, doc in (
        ("first", GAME_A), ("golf", GOLF), ("partners", PARTNERS), ("swapped", SWAPPED), ("three", THREE),
        ("elsewhere", ELSEWHERE))}
    start = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)
    # The three-player game ended first, though imported last: the ratings follow the order the games ended.
    ended = {"three": 0, "first": 1, "golf": 2, "partners": 3, "swapped": 4}
    with app.app_context():
        first = games.find_game(public_id(urls["first"]))
        for name, minutes in ended.items():
            game = games.find_game(public_id(urls[name]))
            game.crew = first.crew
            game.finished_at = start + timedelta(minutes=minutes)
        db.session.commit()
        found = first.crew
    assert client.post(f"{urls['swapped']}/delete").status_code == 303
    return found


def page_of(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return html.unescape(response.get_data(as_text=True))


def ratings_shown(page: str, css_class: str = "crew-ratings") -> list[list[tuple[str, int]]]:
    """Each ratings table of a page: (player, rating) in its order."""
    tables = re.findall(rf'<table class="feats {css_class}">(.*?)</table>', page, re.S)
    return [[(name, int(value)) for name, value in
             re.findall(r'<a href="[^"]*">([^<]+)</a></th><td class="num">(-?\d+)</td>', table)] for table in tables]


def test_the_crew_s_ratings_are_elo_in_the_order_the_games_ended(client: FlaskClient, crew: str) -> None:
    page = page_of(client, f"/crews/{crew}")
    # Skull King: the three-player game first (Cara ahead, Anne and Ben level), then Anne ahead of Ben; the deleted
    # game, where Ben would have won, as if it never was.
    skull_king = elo([[(["Cara"], 1), (["Anne"], 2), (["Ben"], 2)], [(["Anne"], 1), (["Ben"], 2)]])
    golf = elo([[(["Anne"], 1), (["Cara"], 1), (["Ben"], 3)]])
    skip_bo = elo([[(["Ben", "Dan"], 1), (["Anne", "Cara"], 2)]])
    expected = [sorted(((name, round(value)) for name, value in board.items()), key=lambda r: (-r[1], r[0]))
                for board in (skull_king, golf, skip_bo)]
    assert ratings_shown(page) == expected
    # By hand: in the three-player game K = 16 and all start level, so Cara +8 +8, Anne and Ben -8 each (their tie
    # moves nothing); then Anne beats Ben, level at 1492: +16 and -16. At Skip-Bo two sides, K = 32: 16 each way.
    assert expected[0] == [("Cara", 1516), ("Anne", 1508), ("Ben", 1476)]
    assert expected[2] == [("Ben", 1516), ("Dan", 1516), ("Anne", 1484), ("Cara", 1484)]
    assert "How the rating works" in page and "K = 32 / (sides − 1)" in page
    assert page.count('aria-label="Ratings over the games"') == 3


def test_a_player_s_page_has_their_figures_head_to_head_and_rival(client: FlaskClient, crew: str) -> None:
    crew_page = page_of(client, f"/crews/{crew}")
    assert f'href="/crews/{crew}/players/Anne"' in crew_page
    page = page_of(client, f"/crews/{crew}/players/Anne")
    sections = dict(re.findall(r'<h2 id="record-\d+">([^<]+)</h2>\s*<dl class="figures">(.*?)</dl>', page, re.S))
    figures = {game: dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", dl)) for game, dl in sections.items()}
    # Skull King: 70 in the first game (20, then 50 with a bonus of 30), 30 in the three-player game.
    assert figures["Skull King 2021"] == {"Played": "2", "Won": "1", "Average": "50", "Best": "70", "Best hand": "50",
                                     "Bids made": "100\u202f%", "Zero bids made": "100\u202f%", "Bonus points": "30",
                                     "Rating": "1508"}
    assert figures["Golf"] == {"Played": "1", "Won": "1", "Average": "3", "Best": "3", "Best hand": "3",
                               "Rating": str(round(elo([[(["Anne"], 1), (["Cara"], 1), (["Ben"], 3)]])["Anne"]))}
    assert figures["Skip-Bo match"]["Won"] == "0" and figures["Skip-Bo match"]["Rating"] == "1484"
    versus = re.findall(r'<a href="[^"]*">([^<]+)</a></th><td class="num">(\d+)</td>\s*<td class="num">(\d+)</td>'
                        r'<td class="num">(\d+)</td><td class="num">(\d+)</td>', page)
    # Ben: ahead of him in the first game and at golf, behind him at Skip-Bo, level in the three-player game (the
    # deleted game and the other crew's not counted); Cara: level at golf, partners at Skip-Bo, behind her once.
    assert versus == [("Ben", "4", "2", "1", "1"), ("Cara", "3", "0", "1", "2"), ("Dan", "1", "0", "1", "0")]
    # Opened from the crew's page by htmx: its part of the page alone, the same figures.
    part = client.get(f"/crews/{crew}/players/Anne", headers={"HX-Request": "true"})
    assert part.status_code == 200 and "<html" not in part.get_data(as_text=True)
    assert 'id="player-title">Anne<' in part.get_data(as_text=True)
    # Just ahead of Anne: Cara in the three-player game, Ben and Dan (level) at Skip-Bo: Cara and Ben once each, Ben
    # in more games together.
    assert "Rival: Ben, just ahead of Anne in 1 of their 4 games together." in page


def test_the_rival_is_who_is_most_often_just_ahead() -> None:
    def game(players: list[str], totals: list[int], lowest: bool = False) -> dict:
        best = (min if lowest else max)(totals)
        return {"kind": "free-pad", "players": players, "totals": totals, "lowest_wins": lowest, "per_hand": [totals],
                "winners": [p for p, t in zip(players, totals, strict=True) if t == best]}

    # Dan wins every game he plays; Cara is just ahead of Ben twice, Anne once (Ben wins the low-scoring one): Cara is
    # his rival, Dan never just ahead of him.
    summaries = [game(["Ben", "Cara", "Dan"], [10, 20, 30]), game(["Ben", "Cara", "Dan"], [1, 2, 3]),
                 game(["Ben", "Anne", "Dan"], [5, 6, 7]), game(["Ben", "Anne"], [1, 9], lowest=True)]
    assert stats.rival(summaries, "Ben") == stats.Rival("Cara", 2, 2)
    assert stats.rival(summaries, "Dan") is None
    # Level with the one ahead: both count as just ahead.
    assert stats.places(game(["A", "B", "C"], [5, 9, 9])) == [3, 1, 1]
    assert stats.rival([game(["A", "B", "C"], [5, 9, 9])], "A") == stats.Rival("B", 1, 1)


def test_a_player_s_page_is_for_the_crew_s_devices_alone(client: FlaskClient, app: Flask, crew: str) -> None:
    stranger = app.test_client()
    assert stranger.get(f"/crews/{crew}/players/Anne").status_code == 404
    shared = re.search(r'<p class="join-link"><a href="http://localhost([^"]+)"', page_of(client, f"/crews/{crew}"))
    assert shared is not None
    with_link = page_of(stranger, shared.group(1).replace("&amp;", "&"))
    player_link = re.search(r'href="(/crews/[^"]+/players/Anne\?key=[^"]+)"', with_link)
    assert player_link is not None and "Anne" in page_of(stranger, player_link.group(1))
    # Somebody who never played in the crew, a player of the other crew alone, a crew that does not exist.
    assert client.get(f"/crews/{crew}/players/Zed").status_code == 404
    assert client.get(f"/crews/{'x' * 22}/players/Anne").status_code == 404


def test_a_name_with_a_slash_has_its_page(client: FlaskClient, app: Flask) -> None:
    url = import_as_host(client, {**GOLF, "players": ["A/B", "Ben", "Cara"],
                                  "rounds": [{"A/B": 3, "Ben": 5, "Cara": 3}]})
    with app.app_context():
        crew = games.find_game(public_id(url)).crew
    page = page_of(client, f"/crews/{crew}/players/A/B")
    assert "<h1 id=\"player-title\">A/B</h1>" in page


@st.composite
def finished_games(draw: st.DrawFn) -> list[dict]:
    """Finished games of a few players: alone or in teams, the highest or the lowest total winning, ties allowed."""
    names = ["Anne", "Ben", "Cara", "Dan", "Eve"]
    found = []
    for _ in range(draw(st.integers(1, 6))):
        players = draw(st.lists(st.sampled_from(names), min_size=2, max_size=5, unique=True))
        teams = None
        if len(players) >= 4 and draw(st.booleans()):
            teams = [[0, 2], [1, 3]] + ([[4]] if len(players) == 5 else [])
        side_totals = draw(st.lists(st.integers(-5, 5), min_size=len(teams or players),
                                    max_size=len(teams or players)))
        lowest = draw(st.booleans())
        sides = teams or [[i] for i in range(len(players))]
        totals = [0] * len(players)
        for side, seats in enumerate(sides):
            for seat in seats:
                totals[seat] = side_totals[side]
        best = (min if lowest else max)(side_totals)
        summary = {"kind": "free-pad", "group": "free-pad:x", "players": players, "totals": totals,
                   "per_hand": [totals], "lowest_wins": lowest,
                   "winners": [players[seat] for side, seats in enumerate(sides) if side_totals[side] == best
                               for seat in seats]}
        if teams:
            summary["teams"] = teams
        found.append(summary)
    return found


@settings(max_examples=60, deadline=None)
@given(finished_games())
def test_the_ratings_are_elo_whatever_the_games(summaries: list[dict]) -> None:
    in_order = []
    for summary in summaries:
        sides = summary.get("teams") or [[i] for i in range(len(summary["players"]))]
        scores = [summary["totals"][seats[0]] for seats in sides]
        # A side's place: one more than the sides with a better total (the winners have the best).
        better = (lambda a, b: a < b) if summary["lowest_wins"] else (lambda a, b: a > b)
        in_order.append([([summary["players"][seat] for seat in seats], 1 + sum(better(o, s) for o in scores))
                         for seats, s in zip(sides, scores, strict=True)])
    expected = elo(in_order)
    found = stats.ratings(summaries)["free-pad:x"].now
    assert found.keys() == expected.keys()
    for name, value in expected.items():
        assert found[name] == pytest.approx(value)


# Run by the app as it was before a finished game kept its teams in its summary: two team games imported, finished.
TEAM_GAMES_AS_THEY_WERE = r'''
import json, sys
from flask_migrate import upgrade
from scorekeeper import create_app

app = create_app({"TESTING": True, "SECRET_KEY": "same", "WTF_CSRF_ENABLED": False,
                  "SQLALCHEMY_DATABASE_URI": sys.argv[1]})
with app.app_context():
    upgrade()
host = app.test_client()
made = []
for doc in json.loads(sys.argv[4]):
    response = host.post("/games/import", json=doc)
    assert response.status_code == 201, response.json
    made.append(response.headers["Location"].rsplit("/", 1)[-1])
print(json.dumps(made))
'''


def test_a_team_game_finished_before_keeps_its_teams_after_the_migration(tmp_path: Path, database_url: str) -> None:
    from flask_migrate import downgrade
    from sqlalchemy import create_engine, text

    from tests.conftest import make_app
    from tests.test_migration import made_by_the_app_as_it_was

    golf_in_teams = {**GOLF, "teams": [["Anne", "Cara"], ["Ben"]]}
    docs = json.dumps([PARTNERS, golf_in_teams])
    # The helper runs a script with three arguments; the pads go as a fourth through a wrapper.
    script = f"import sys; sys.argv.append({docs!r}); exec({TEAM_GAMES_AS_THEY_WERE!r})"
    made = made_by_the_app_as_it_was("3bcdc5f", script, database_url, tmp_path)

    def summaries() -> list[dict]:
        engine = create_engine(database_url)
        with engine.connect() as connection:
            found = dict(connection.execute(text("SELECT public_id, summary FROM game")).all())
        engine.dispose()
        return [json.loads(found[public_id]) if isinstance(found[public_id], str) else found[public_id]
                for public_id in made]

    before = summaries()
    assert all(summary is not None and "teams" not in summary for summary in before)
    app = make_app(database_url)  # brought up to date
    after = summaries()
    # The Skip-Bo pad seats each team together (Anne, Cara, Ben, Dan); the free pad keeps its players' order.
    assert [summary["teams"] for summary in after] == [[[0, 1], [2, 3]], [[0, 2], [1]]]
    assert [{k: v for k, v in summary.items() if k != "teams"} for summary in after] == before
    # Partners are one side in the ratings: Ben and Dan level, ahead of Anne and Cara.
    assert stats.ratings([after[0]])["skip-bo"].ranked() == [("Ben", 1516), ("Dan", 1516), ("Anne", 1484),
                                                              ("Cara", 1484)]
    with app.app_context():
        downgrade(revision="d4a7c2e9f1b6")
        db.session.remove()
    assert summaries() == before
