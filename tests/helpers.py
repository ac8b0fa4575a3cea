"""Helpers the tests share: starting games through the pages, and a browser made of urllib."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from typing import Any

from flask.testing import FlaskClient

from scorekeeper.shelf.skullking.forms import MAX_SEATS


def new_game(client: FlaskClient, names: list[str], ruleset: str = "classic", **options: str) -> str:
    """Start a game through the form; return its URL."""
    data: dict[str, Any] = {"ruleset": ruleset, "player": names + [""] * (MAX_SEATS - len(names)), **options}
    response = client.post("/games/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def import_as_host(client: FlaskClient, doc: dict) -> str:
    """Import a pad through the API, then take over as its host; return the game's path."""
    response = client.post("/games/import", json=doc)
    assert response.status_code == 201, response.json
    host_link = response.json["host_url"].replace("http://localhost", "")
    # The link's page asks; its button (a POST) takes the host's role over.
    assert client.get(host_link).status_code == 200
    assert client.post(host_link).status_code == 303
    return response.headers["Location"].replace("http://localhost", "")


# Just under the import's size limit.
LIMIT = 256 * 1024 - 512


def hostile_pads() -> dict[str, str]:
    """Pad files just under the size limit that were (or could be) costly to refuse, by name."""
    hand = {"cards": 1, "entries": [{"player": "A", "bid": 0, "tricks": 0}, {"player": "B", "bid": 1, "tricks": 1}]}
    return {
        "escaped quotes": '"' + '\\"' * (LIMIT // 2 - 1),
        "quotes": '"' * LIMIT,
        "backslashes in a string": '["' + "a\\" * (LIMIT // 2 - 2),
        "deep lists": "[" * (LIMIT // 2) + "]" * (LIMIT // 2),
        "open lists": "[" * LIMIT,
        "deep objects": '{"a":' * (LIMIT // 5),
        "wide lists": "[" + "[]," * (LIMIT // 3 - 1) + "[]]",
        "a huge number": '{"format":"skull-king-pad","x":' + "9" * (LIMIT - 40) + "}",
        "many hands": json.dumps({"format": "skull-king-pad", "version": 1, "ruleset": "classic",
                                  "players": ["A", "B"], "hands": [hand] * 2000})[:LIMIT],
        "many players": json.dumps({"format": "skull-king-pad", "version": 1, "ruleset": "classic",
                                    "players": [f"P{i}" for i in range(LIMIT // 10)], "hands": []}),
        "many Skip-Bo mistakes": json.dumps({"format": "skip-bo-pad", "version": 1, "players": ["A", "B"],
                                              "games": [{"winner": "A", "left": {"B": -1}}] * (LIMIT // 40)}),
        "many Dracula sets": json.dumps({"format": "dracula-pad", "version": 1,
                                         "players": {"queen": "A", "king": "B"},
                                         "sets": [[{"coffin": [["AS"] * 3] * 3}] * 6] * (LIMIT // 500)}),
    }


class Phone:
    """One browser: its own cookies, CSRF token and session."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()),
                                                  NoRedirect())
        self.token = ""

    def get(self, path: str) -> tuple[int, str]:
        try:
            with self.opener.open(self.base + path, timeout=30) as response:
                body = response.read().decode()
                status = response.status
        except urllib.error.HTTPError as error:
            body, status = error.read().decode(), error.code
        found = re.search(r'name="csrf_token" value="([^"]+)"', body)
        if found:
            self.token = found.group(1)
        return status, body

    def post(self, path: str, data: dict) -> tuple[int, str]:
        payload = urllib.parse.urlencode({**data, "csrf_token": self.token}, doseq=True).encode()
        try:
            with self.opener.open(urllib.request.Request(self.base + path, data=payload), timeout=30) as response:
                return response.status, response.headers.get("Location", "")
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Location", "") or error.read().decode()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """Keep redirects visible: a 303 is the answer the test checks."""

    def redirect_request(self, *args, **kwargs):
        return None


def public_id(url: str) -> str:
    """A game's public id from its address."""
    return url.rsplit("/", 1)[-1]


def hand_now(url: str, number: int = 1) -> Any:
    """Skull King's hand `number` of the game at `url` as it stands now, every bid and load in it (in an app
    context)."""
    from scorekeeper import games
    from scorekeeper.shelf.skullking import reading

    state = games.load(public_id(url))
    assert state is not None
    read = games.plays_of(state)
    secrets = games.secrets_for(state, len(read.closed) + 1)
    return reading.GameSeen.of_plays(read.setup, read.closed, read.draft, secrets).hands[number - 1]


def set_count(url: str, play: int | None, name: str | None, reveal_at: Any = None, forget: bool = False,
              stored_phase: str | None = None) -> None:
    """Put the table's count of secret entries where a test needs it (in an app context): the entries `name` of
    `play` collected (`reveal_at` None) or counted until `reveal_at`; `forget` drops those entered so far;
    `stored_phase` sets Skull King's hand `play` to that phase."""
    from sqlalchemy import delete, select

    from scorekeeper import games
    from scorekeeper.extensions import db
    from scorekeeper.models import Play, SecretEntry

    game = games.find_game(public_id(url))
    assert game is not None
    if forget and play is not None and name is not None:
        db.session.execute(delete(SecretEntry).where(SecretEntry.game_id == game.id, SecretEntry.play == play,
                                                     SecretEntry.name == name))
    if stored_phase is not None:
        hand = db.session.scalars(select(Play).where(Play.game_id == game.id, Play.number == play)).one()
        hand.data = {**hand.data, "phase": stored_phase}
    game.count_play, game.count_name, game.reveal_at = play, name, reveal_at
    db.session.commit()
    forget_kept_games()


def end_count(url: str) -> None:
    """The count running now ends, as if its seconds had passed (in an app context)."""
    from datetime import timedelta

    from scorekeeper import games
    from scorekeeper.clock import utcnow
    from scorekeeper.extensions import db

    game = games.find_game(public_id(url))
    assert game is not None and game.reveal_at is not None
    game.reveal_at = utcnow() - timedelta(seconds=1)
    db.session.commit()
    forget_kept_games()


def forget_kept_games() -> None:
    """The process forgets the games it keeps per version: a test changed one behind the table's back."""
    from flask import current_app

    current_app.extensions.pop("version_caches", None)
