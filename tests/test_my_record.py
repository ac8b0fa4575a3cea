"""The start page's "Your record" and "Tonight": the finished games this browser played in a seat, across every crew
and game (played, won, average place), whichever way it came to the seat (picked, followed into a rematch, let in on a
new phone); not a game it only hosted, a seat another phone took over, or a deleted game; and tonight's standings of
the crew of the game that ended last (its games of the 12 hours up to then: wins and points)."""

from __future__ import annotations

import html
import re
from datetime import timedelta

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import games, stats
from scorekeeper.extensions import db
from tests.test_taps import seated


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def free_pad(host: FlaskClient, game: str, names: list[str], lowest: bool = False) -> str:
    """A new free pad of one round as `host`; its path."""
    form = {"game": game, "player": names, "end": "rounds", "rounds": "1", **({"lowest_wins": "on"} if lowest else {})}
    answer = host.post("/games/new/free-pad", data=form)
    assert answer.status_code == 303, text(answer)[-2000:]
    return answer.headers["Location"]


def finish(host: FlaskClient, url: str, points: dict[int, int], phones: dict[int, FlaskClient]) -> None:
    """Round 1 played: each phone types its own points, the host the others'."""
    for seat, phone in phones.items():
        assert phone.post(f"{url}/play", data={"play": "1", f"points-{seat}": str(points[seat])}).status_code == 303
    others = {f"points-{seat}": str(value) for seat, value in points.items() if seat not in phones}
    if others:
        assert host.post(f"{url}/play", data={"play": "1", **others}).status_code == 303


def table_rows(page: str, css_class: str) -> list[tuple[str, ...]]:
    found = re.search(rf'<table class="feats {css_class}">(.*?)</table>', page, re.S)
    assert found is not None, css_class
    return [tuple(re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row)) for row in
            re.findall(r"<tr>(.*?)</tr>", found[1].split("<tbody>")[1], re.S)]


def test_a_browser_s_record_across_crews_and_games(app: Flask) -> None:
    host = app.test_client()
    # Darts with a rematch (one crew); golf, the lowest total winning (another crew).
    darts = free_pad(host, "Darts", ["Anne", "Ben", "Cara"])
    anne = seated(app, darts, 0)
    finish(host, darts, {0: 60, 1: 40, 2: 20}, {0: anne})  # Anne first
    rematch = host.post(f"{darts}/rematch").headers["Location"]
    # Anne's phone follows into the rematch, in her seat, from the game it shows.
    assert "You are Anne" in text(anne.get(f"{darts}?follow=1", follow_redirects=True))
    finish(host, rematch, {0: 10, 1: 40, 2: 20}, {0: anne})  # Anne third
    golf = free_pad(host, "Golf", ["Dan", "Anne"], lowest=True)
    # Anne's phone is lost: this browser plays her seat now, let in by the host.
    assert seated(app, golf, 1) is not None
    assert anne.post(f"{golf}/join", data={"ask": 1}).status_code == 303
    request_id = re.search(rf'action="{golf}/requests/(\d+)/let-in"', text(host.get(golf)))
    assert request_id is not None
    assert host.post(f"{golf}/requests/{request_id[1]}/let-in").status_code == 303
    finish(host, golf, {0: 9, 1: 3}, {1: anne})  # Anne first: 3 against 9
    # Not this browser's record: a game it only hosted; a seat another phone took over; a deleted game.
    hosted = free_pad(anne, "Hosted", ["Eve", "Fay"])
    finish(anne, hosted, {0: 1, 1: 2}, {})
    lost = free_pad(host, "Lost", ["Anne", "Ben"])
    assert anne.post(f"{lost}/join", data={"seat": 0}).status_code == 303
    assert host.post(f"{lost}/seats/0/free").status_code == 303
    other = seated(app, lost, 0)
    finish(host, lost, {0: 5, 1: 1}, {0: other})
    deleted = free_pad(host, "Darts", ["Anne", "Ben"])
    assert anne.post(f"{deleted}/join", data={"seat": 0}).status_code == 303
    finish(host, deleted, {0: 100, 1: 1}, {0: anne})
    assert host.post(f"{deleted}/delete").status_code == 303

    page = text(anne.get("/"))
    assert table_rows(page, "record-table") == [("Darts", "2", "1", "2.0"), ("Golf", "1", "1", "1.0")]
    # The same figures from the summaries, worked out by the statistics.
    with app.app_context():
        summaries = {url: games.find_game(url.rsplit("/", 1)[-1]).summary for url in (darts, rematch, golf)}
    expected = stats.record([(summaries[darts], 0), (summaries[rematch], 0), (summaries[golf], 1)])
    assert {group: (r.games, r.wins, r.average_place) for group, r in expected.items()} == {
        "free-pad:darts": (2, 1, 2.0), "free-pad:golf": (1, 1, 1.0)}
    # Another browser has no record.
    assert "record-table" not in text(app.test_client().get("/"))


def test_tonight_is_the_crew_of_the_last_game_over_its_last_12_hours(app: Flask) -> None:
    host = app.test_client()
    first = free_pad(host, "Darts", ["Anne", "Ben"])
    anne = seated(app, first, 0)
    finish(host, first, {0: 60, 1: 40}, {0: anne})
    second = host.post(f"{first}/rematch").headers["Location"]
    anne.get(f"{first}?follow=1", follow_redirects=True)
    finish(host, second, {0: 10, 1: 40}, {0: anne})
    third = host.post(f"{second}/rematch").headers["Location"]
    anne.get(f"{second}?follow=1", follow_redirects=True)
    finish(host, third, {0: 30, 1: 20}, {0: anne})
    # The first game ended the night before.
    with app.app_context():
        game = games.find_game(first.rsplit("/", 1)[-1])
        last = games.find_game(third.rsplit("/", 1)[-1])
        game.finished_at = last.finished_at - timedelta(hours=13)
        db.session.commit()
    page = text(anne.get("/"))
    # Level on wins, Ben ahead on points (40 + 20 against 10 + 30).
    assert table_rows(page, "tonight-standings") == [("Ben", "2", "1", "60"), ("Anne", "2", "1", "40")]
    # Her record counts every game, the night before's too.
    assert table_rows(page, "record-table") == [("Darts", "3", "2", "1.3")]
