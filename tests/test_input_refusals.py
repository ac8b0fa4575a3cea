"""Bad input on the way in, refused in words with nothing stored: one name too many, names no page should show,
and a pad file that names a key twice."""

from __future__ import annotations

import html
import json

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Game


def games_stored(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Game)) or 0


def refused(client: FlaskClient, path: str, data: dict) -> str:
    response = client.post(path, data=data)
    assert response.status_code == 422, response.status_code
    return html.unescape(response.get_data(as_text=True))


@pytest.mark.parametrize(("path", "most", "extra"), [
    ("/games/new/free-pad", 12, {"game": "Darts"}),
    ("/games/new/skip-bo", 6, {}),
    ("/games/new", 8, {"ruleset": "modern"}),
])
def test_one_name_more_than_a_game_allows_is_refused_not_dropped(app: Flask, client: FlaskClient, path: str,
                                                                 most: int, extra: dict) -> None:
    names = [f"Player {n}" for n in range(1, most + 2)]
    page = refused(client, path, {"player": names, **extra})
    assert f"not {most + 1}" in page or f"{most + 1} players" in page, page[-2000:]
    assert games_stored(app) == 0
    # As many as it allows start the game.
    assert client.post(path, data={"player": names[:most], **extra}).status_code == 303


@pytest.mark.parametrize("bad", ["Dar\x07ts", "Dar\u200bts", "\u202eDarts"])
def test_a_free_pad_s_game_name_and_team_labels_get_the_checks_of_a_player_s_name(app: Flask, client: FlaskClient,
                                                                                  bad: str) -> None:
    words = ("A name cannot contain control characters." if bad == "Dar\x07ts" else
             "A name cannot contain invisible or direction-changing characters.")
    assert words in refused(client, "/games/new/free-pad", {"game": bad, "player": ["Anne", "Ben"]})
    assert words in refused(client, "/games/new/free-pad", {"game": "Bridge", "player": ["Anne", "Ben"],
                                                            "team": [bad, bad]})
    assert games_stored(app) == 0


def test_a_pad_file_naming_a_key_twice_is_refused(app: Flask, client: FlaskClient) -> None:
    text = ('{"format": "skull-king-pad", "version": 1, "ruleset": "classic", "players": ["Anne", "Ben"],'
            ' "hands": [], "ruleset": "modern"}')
    response = client.post("/games/import", data=text, content_type="application/json")
    assert response.status_code == 422
    assert response.json == {"problems": ["The file names the key “ruleset” twice in one object: which one is meant?"]}
    assert games_stored(app) == 0
    # The same file with the key once comes in.
    once = json.loads(text)
    assert client.post("/games/import", json=once).status_code == 201
