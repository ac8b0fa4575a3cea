"""The host enters only for seats without a phone, in every game the table offers (the test game's too): the host's
entry for a seat a phone plays is refused and changes nothing, and the same entry is taken once the seat is free."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.kinds import registered
from scorekeeper.models import Game


@pytest.fixture
def app(every_game_app: Flask) -> Flask:
    """Every game on the shelf and the test game."""
    return every_game_app


COFFIN = {f"cell-{i}": card for i, card in enumerate(["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D"])}


def version(app: Flask, url: str) -> int:
    with app.app_context():
        found = db.session.scalar(select(Game.version).where(Game.public_id == url.rsplit("/", 1)[-1]))
        assert found is not None
        return found


def started(app: Flask, path: str, form: dict[str, Any]) -> tuple[FlaskClient, str]:
    host = app.test_client()
    response = host.post(path, data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    return host, response.headers["Location"]


# Each game: a new game, then what the host posts to enter the first seat's own entry (its address after the game's).
Scenario = Callable[[Flask], tuple[FlaskClient, str, str, dict[str, Any]]]


def skull_king(app: Flask) -> tuple[FlaskClient, str, str, dict[str, Any]]:
    host, url = started(app, "/games/new", {"ruleset": "classic", "player": ["Anne", "Ben"]})
    return host, url, "/hands/1/bid", {"seat": 0, "bid": 1}


def wizard(app: Flask) -> tuple[FlaskClient, str, str, dict[str, Any]]:
    host, url = started(app, "/games/new/wizard", {"player": ["Anne", "Ben", "Cara"], "bidding": "secret"})
    return host, url, "/play", {"play": 1, "seat": 0, "bid": 0}


def skip_bo(app: Flask) -> tuple[FlaskClient, str, str, dict[str, Any]]:
    host, url = started(app, "/games/new/skip-bo", {"player": ["Anne", "Ben"], "target": "500"})
    # Ben went out (the table's news, which the host may say); Anne counts her cards left.
    assert host.post(f"{url}/play", data={"play": 1, "went_out": 1}).status_code == 303
    return host, url, "/play", {"play": 1, "seat": 0, "left": 3}


def dracula(app: Flask) -> tuple[FlaskClient, str, str, dict[str, Any]]:
    host, url = started(app, "/games/new/dracula", {"player": ["Anne", "Ben"]})
    return host, url, "/play", {"play": 1, **COFFIN}


def free_pad(app: Flask) -> tuple[FlaskClient, str, str, dict[str, Any]]:
    host, url = started(app, "/games/new/free-pad", {"player": ["Anne", "Ben"], "game": "Darts"})
    return host, url, "/play", {"play": 1, "points-0": 5}


def high_card(app: Flask) -> tuple[FlaskClient, str, str, dict[str, Any]]:
    host, url = started(app, "/games/new/high-card", {"player": ["Anne", "Ben"]})
    return host, url, "/play", {"play": 1, "seat": 0, "card": 9}


SCENARIOS: dict[str, Scenario] = {"skull-king": skull_king, "wizard": wizard, "skip-bo": skip_bo,
                                  "dracula": dracula, "free-pad": free_pad, "high-card": high_card}


def test_every_registered_game_has_its_scenario(app: Flask) -> None:
    with app.app_context():
        assert {kind.NAME for kind in registered()} == set(SCENARIOS)


@pytest.mark.parametrize("game", sorted(SCENARIOS))
def test_the_host_s_entry_for_a_seat_with_a_phone_is_refused(app: Flask, game: str) -> None:
    host, url, path, form = SCENARIOS[game](app)
    phones = [app.test_client() for _ in range(2)]
    for seat, phone in enumerate(phones):
        assert phone.post(f"{url}/join", data={"seat": seat}).status_code == 303
    before = version(app, url)
    refused = host.post(f"{url}{path}", data=form)
    assert refused.status_code == 403, refused.get_data(as_text=True)
    assert version(app, url) == before
    # The phone gone (its seat freed, and the other's too for a game both enter together), the host enters it.
    for seat in range(2):
        assert host.post(f"{url}/seats/{seat}/free").status_code == 303
    taken = host.post(f"{url}{path}", data=form)
    assert taken.status_code == 303, taken.get_data(as_text=True)
    assert version(app, url) > before
