"""A game's own styles and scripts load with the page's frame, never inside a part a tap swaps: in every game the
table offers (the test game's too), a page opened carries them outside `#main` (out of band when htmx opens it),
and a tap's answer carries none, so a tap is one request."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.kinds import registered
from tests.test_host_limits import SCENARIOS


@pytest.fixture
def app(every_game_app: Flask) -> Flask:
    """Every game on the shelf and the test game."""
    return every_game_app


ASSET = re.compile(r'<link rel="stylesheet"|<script src=')


def assets_block(page: str) -> str:
    found = re.search(r'<div id="game-assets"[^>]*>(.*?)</div>', page, re.S)
    assert found, "no place for the game's assets"
    return found.group(1)


def main_part(page: str) -> str:
    found = re.search(r'<main id="main"[^>]*>(.*)</main>', page, re.S)
    assert found, "no main part"
    return found.group(1)


@pytest.mark.parametrize("game", sorted(SCENARIOS))
def test_a_game_s_assets_come_with_the_frame_and_never_with_a_tap(app: Flask, game: str) -> None:
    host, url, path, form = SCENARIOS[game](app)
    with app.app_context(), app.test_request_context():
        from flask import url_for

        wanted = [url_for(endpoint, filename=filename) for endpoint, filename in registered()[game].ASSETS]
    page = host.get(url).get_data(as_text=True)
    block = assets_block(page)
    assert all(href in block for href in wanted)
    assert len(ASSET.findall(block)) == len(wanted)
    # Nothing a swap replaces loads a style or a script: the page's parts are swapped under the frame.
    assert not ASSET.search(main_part(page))
    # Opened by htmx (a link, a new game's redirect), the page brings them out of band, into the frame.
    opened = host.get(url, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert '<div id="game-assets" hx-swap-oob="morph">' in opened
    assert all(href in assets_block(opened) for href in wanted)
    # A tap's answer is the page's part alone: no style, no script, nothing to load again.
    answer = host.post(url + path, data=form, headers={"HX-Request": "true"})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    text = answer.get_data(as_text=True)
    assert not ASSET.search(text) and "game-assets" not in text


def test_the_games_with_assets_of_their_own_are_checked(app: Flask) -> None:
    """Not a vacuous sweep: every game brings its own styles, Dracula a script too."""
    with app.app_context():
        shelf = registered()
        assert all(shelf[name].ASSETS for name in ("skull-king", "wizard", "skip-bo", "dracula", "free-pad"))
        assert any(filename.endswith(".js") for _, filename in shelf["dracula"].ASSETS)


def test_the_pad_s_style_comes_with_the_pad_alone(app: Flask) -> None:
    """A page's own style loads with its frame too: the pad's with the pad (opened whole or by htmx), not with every
    phone's hand page; the game's own comes with both, after the page's (a game's styles are over the table's)."""
    host, url, _, _ = SCENARIOS["skull-king"](app)
    hand = assets_block(host.get(url).get_data(as_text=True))
    assert "/static/pad.css" not in hand and "/static/skullking/game.css" in hand
    pad = assets_block(host.get(url + "/pad").get_data(as_text=True))
    assert pad.index("/static/pad.css") < pad.index("/static/skullking/game.css")
    opened = host.get(url + "/pad", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "/static/pad.css" in assets_block(opened) and 'hx-swap-oob="true"' in opened


def test_the_service_worker_keeps_every_file_the_offline_page_loads(app: Flask) -> None:
    """The offline page shows without the network only if the worker kept each file its frame loads: the worker's
    list (`views.offline.FRAME_FILES`) and the frame (`base.html`) stay one."""
    client = app.test_client()
    offline = client.get("/offline").get_data(as_text=True)
    loaded = set(re.findall(r'(?:src|href)="(/static/[^"]+)"', offline))
    worker = client.get("/sw.js").get_data(as_text=True)
    kept = set(json.loads(re.search(r"const KEPT = (\[.*?\]);", worker).group(1)))
    assert loaded and loaded <= kept, loaded - kept


# --- the style sheets a page loads besides app.css ---------------------------------------------------------------

OWN_SHEETS = ("start.css", "pad.css")


def scopes_styled_by(sheet: str, app: Flask) -> set[str]:
    """The classes that open a rule of `sheet` (`.chart .tick` is the chart's): what it styles."""
    text = re.sub(r"/\*.*?\*/", "", (Path(app.static_folder or "") / sheet).read_text(), flags=re.S)
    return set(re.findall(r"(?:^|[},])\s*\.([A-Za-z][\w-]*)", text, re.M))


def classes_on(page: str) -> set[str]:
    """Every class an element of `page` has."""
    return {name for value in re.findall(r'class="([^"]*)"', page) for name in value.split()}


def sheets_loaded(page: str) -> set[str]:
    """The sheets among OWN_SHEETS that the page's frame loads."""
    return {sheet for sheet in OWN_SHEETS if f'/static/{sheet}?v=' in assets_block(page)}


def test_a_page_loads_the_style_sheet_of_what_it_shows_and_a_game_never_the_start_pages(app: Flask) -> None:
    """app.css holds what every page shows; the pages around the games (start, a new game, joining by a code) and
    the pad's table have their own sheet, which a phone in a game never fetches. Every page that shows an element
    those sheets style loads the sheet, and a game's pages (its hand, pad, big screen, rules, joining) load no
    start page's sheet."""
    styled = {sheet: scopes_styled_by(sheet, app) for sheet in OWN_SHEETS}
    assert all(styled.values()) and not set.intersection(*styled.values())
    with app.app_context():
        names = [kind.NAME for kind in registered()]
    around = app.test_client()
    pages = {path: around.get(path).get_data(as_text=True)
             for path in ("/", "/join", *(f"/games/new/{name}" for name in names))}
    for game, scenario in SCENARIOS.items():
        host, url, _path, _form = scenario(app)
        for path in ("", "/screen", "/rules", *(("/pad",) if game == "skull-king" else ())):
            pages[url + path] = host.get(url + path).get_data(as_text=True)
        pages[url + "/join"] = app.test_client().get(url + "/join").get_data(as_text=True)
    for path, page in pages.items():
        shown = classes_on(page)
        for sheet, scopes in styled.items():
            if shown & scopes:
                assert sheet in sheets_loaded(page), (path, sheet, shown & scopes)
        if path.startswith("/games/") and not path.startswith("/games/new"):
            assert "start.css" not in sheets_loaded(page), path
    # Each sheet is there for something: the start page's games list and new game's form, the pad's table.
    pad = next(path for path in pages if path.endswith("/pad"))
    assert "start.css" in sheets_loaded(pages["/"]) and "pad.css" in sheets_loaded(pages[pad])
    assert styled["pad.css"] & classes_on(pages[pad]) and styled["start.css"] & classes_on(pages["/games/new/skull-king"])


def test_a_new_game_s_form_loads_its_game_s_own_styles(app: Flask) -> None:
    """The form of a new game is drawn with its game's styles (Skull King's modern options, the free pad's team
    boxes), after the start pages' own."""
    client = app.test_client()
    with app.app_context():
        kinds = list(registered())
    for kind in kinds:
        # Opened whole, and by htmx from the start page (the form's styles come out of band, into the frame).
        for headers in ({}, {"HX-Request": "true"}):
            block = assets_block(client.get(f"/games/new/{kind.NAME}", headers=headers).get_data(as_text=True))
            assert "/static/start.css" in block
            for _, filename in kind.ASSETS:
                assert block.index("/static/start.css") < block.index(filename), (kind.NAME, filename, headers)
