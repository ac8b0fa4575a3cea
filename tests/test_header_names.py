"""The header names the game: on every registered game's pages (the test game's too), as the page is opened and as
htmx swaps it in, and in the window's title; elsewhere it names the app."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from scorekeeper.kinds import registered
from tests.test_host_limits import SCENARIOS


@pytest.fixture
def app(every_game_app: Flask) -> Flask:
    """Every game on the shelf and the test game."""
    return every_game_app


def brand(page: str) -> str:
    found = re.search(r'<span id="brand-name"[^>]*>([^<]*)</span>', page)
    assert found, "no header name"
    return found.group(1)


@pytest.mark.parametrize("game", sorted(SCENARIOS))
def test_every_game_s_page_names_its_game(app: Flask, game: str) -> None:
    host, url, _, _ = SCENARIOS[game](app)
    with app.app_context():
        title = registered()[game].TITLE
    for client in (host, app.test_client()):
        page = client.get(url).get_data(as_text=True)
        assert brand(page) == title
        assert re.search(rf"<title>[^<]* · {re.escape(title)}</title>", page)
        # Swapped in by htmx, the part carries the header's name, out of band.
        swapped = client.get(url, headers={"HX-Request": "true"}).get_data(as_text=True)
        assert f'<span id="brand-name" hx-swap-oob="true">{title}</span>' in swapped
        assert "<title>" not in swapped or f" · {title}</title>" in swapped


def test_the_start_page_names_the_app(app: Flask) -> None:
    page = app.test_client().get("/").get_data(as_text=True)
    assert brand(page) == "Skull King"
