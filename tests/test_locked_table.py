"""A locked table and watchers welcome: the host locks the table once everyone sits (a new phone is refused a free
seat, in words, on the join page and when it asks; a lost phone still gets its seat back through the host) and
chooses whether anyone with the link may watch (on by default; off: every page of the game, its live stream and
its exports are its players' and hosts' alone). Each choice is the game's event."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Event, Game
from tests.test_secrecy import get_routes
from tests.test_taps import another_host_link, seated, table

CLOSED = ("The table is closed: the host locked it once everyone sat. A player whose phone was lost asks for their "
          "seat on a new phone; anyone else asks the host to open the table.")


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def events(app: Flask) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(Event.kind).order_by(Event.id)))


def version(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(Game.version))


def test_a_locked_table_refuses_a_new_phone_and_lets_a_lost_one_back(app: Flask) -> None:
    host, url = table(app, ("Anne", "Ben", "Cara"))
    anne = seated(app, url, 0)
    # Open by default: the host's card says so and offers the lock.
    page = text(host.get(url))
    assert "The table is open" in page and 'name="lock" value="1"' in page
    assert host.post(f"{url}/access", data={"lock": "1"}).status_code == 303
    assert events(app)[-1] == "table locked"
    assert "The table is locked" in text(host.get(url))
    # A new phone: the join page says the table is closed and offers no free seat, and taking one is refused.
    stranger = app.test_client()
    join = text(stranger.get(f"{url}/join"))
    assert "The table is closed: the host locked it once everyone sat." in join
    assert 'name="seat"' not in join and 'name="ask" value="0"' in join
    before = version(app)
    refused = stranger.post(f"{url}/join", data={"seat": 1})
    assert refused.status_code == 422 and CLOSED in text(refused)
    assert version(app) == before
    # Anne's phone is lost: her new phone asks for her seat, the host lets it in by its code.
    new_phone = app.test_client()
    assert new_phone.post(f"{url}/join", data={"ask": 0}).status_code == 303
    code = re.search(r'class="request-code">[^<]*<strong>(\d+)</strong>', text(new_phone.get(f"{url}/join")))
    assert code is not None
    request_id = re.search(rf'action="{url}/requests/(\d+)/let-in"[^>]*>\s*<input[^>]*>\s*<button[^>]*>[^<]*'
                           rf'{code[1]}', text(host.get(url)))
    assert request_id is not None
    assert host.post(f"{url}/requests/{request_id[1]}/let-in").status_code == 303
    assert "You are Anne" in text(new_phone.get(url)) and "You are Anne" not in text(anne.get(url))
    # Opened again: a new phone takes a free seat.
    assert host.post(f"{url}/access", data={"lock": "0"}).status_code == 303
    assert events(app)[-1] == "table opened"
    assert stranger.post(f"{url}/join", data={"seat": 1}).status_code == 303


def test_watchers_follow_the_host_s_choice(app: Flask) -> None:
    host, url = table(app)
    anne = seated(app, url, 0)
    watcher = app.test_client()
    assert watcher.get(url).status_code == 200
    assert "Just watch" in text(watcher.get(f"{url}/join"))
    assert host.post(f"{url}/access", data={"watchers": "0"}).status_code == 303
    assert events(app)[-1] == "no watchers"
    # Every page of the game (the big screen, the score pad, its exports, the live stream): the players' and hosts'
    # alone. A watcher is shown the join page, which says why, and may still take a free seat.
    routes = [r for r in get_routes(app, url) if r.startswith(url) and not r.startswith(f"{url}/join")
              and "/hosts/" not in r and "/host/" not in r and not r.startswith(f"{url}/events")]
    assert {url, f"{url}/screen", f"{url}/pad", f"{url}/pad.json", f"{url}/rules"} <= set(routes)
    for route in routes:
        answer = watcher.get(route)
        assert answer.status_code in (403, 404), route
        if answer.status_code == 403:
            assert "Watching is off: the host keeps this game to its players." in text(answer), route
    stream = watcher.get(f"{url}/events")
    assert stream.status_code == 403
    # The players and hosts see it all as before.
    assert anne.get(url).status_code == 200 and host.get(f"{url}/screen").status_code == 200
    other_host = app.test_client()
    assert other_host.post(another_host_link(host, url)).status_code == 303
    assert other_host.get(url).status_code == 200
    join = text(watcher.get(f"{url}/join"))
    assert "Just watch" not in join and "Watching is off" in join
    assert watcher.post(f"{url}/join", data={"seat": 1}).status_code == 303
    assert watcher.get(url).status_code == 200
    # Welcome again.
    assert host.post(f"{url}/access", data={"watchers": "1"}).status_code == 303
    assert events(app)[-1] == "watchers welcome"
    assert app.test_client().get(f"{url}/screen").status_code == 200


def test_a_host_s_links_open_whatever_the_watchers(app: Flask, client: FlaskClient) -> None:
    """The import's link to run the game and another host's link open on a new browser with watchers turned away:
    each asks first, and makes that browser a host."""
    answer = client.post("/games/import", json={"format": "free-pad", "version": 1, "game": "Darts",
                                                "players": ["Anne", "Ben"], "lowest_wins": False, "rounds": []})
    url = answer.headers["Location"].replace("http://localhost", "")
    link = answer.json["host_url"].replace("http://localhost", "")
    assert client.post(link).status_code == 303
    assert client.post(f"{url}/access", data={"watchers": "0"}).status_code == 303
    for path in (link, another_host_link(client, url)):
        newcomer = app.test_client()
        assert newcomer.get(url).status_code == 403
        assert newcomer.get(path).status_code == 200, path
        assert newcomer.post(path).status_code == 303
        assert newcomer.get(url).status_code == 200


def test_a_watcher_s_stream_ends_when_watchers_are_turned_away(app: Flask) -> None:
    host, url = table(app)
    watcher = app.test_client()
    stream = watcher.get(f"{url}/events", buffered=False)
    chunks = iter(stream.response)
    assert b"retry" in next(chunks)
    next(chunks)  # the table as it stands
    assert host.post(f"{url}/access", data={"watchers": "0"}).status_code == 303
    # The stream ends instead of sending the game on.
    assert all(b"event: table" not in chunk for chunk in chunks)
    stream.close()


@pytest.mark.parametrize("data", [{}, {"lock": "maybe"}, {"watchers": "2"}])
def test_a_choice_not_understood_is_said_and_changes_nothing(app: Flask, data: dict[str, str]) -> None:
    host, url = table(app)
    before = version(app)
    answer = host.post(f"{url}/access", data=data)
    assert answer.status_code == 422
    assert "Choose to lock or open the table, or whether watchers are welcome." in text(answer)
    assert version(app) == before


def test_only_a_host_locks_the_table(app: Flask) -> None:
    host, url = table(app)
    anne = seated(app, url, 0)
    before = version(app)
    for stranger in (anne, app.test_client()):
        assert stranger.post(f"{url}/access", data={"lock": "1"}).status_code == 403
        assert stranger.post(f"{url}/access", data={"watchers": "0"}).status_code == 403
    assert version(app) == before


def test_every_game_keeps_its_watchers_out(every_game_app: Flask) -> None:
    """The table's promise holds for every registered game: its pages for its players and hosts alone."""
    from scorekeeper import kinds

    with every_game_app.app_context():
        names = [kind.NAME for kind in kinds.registered()]
    for name in names:
        host = every_game_app.test_client()
        created = host.post("/games/new" + ("" if name == "skull-king" else f"/{name}"),
                            data={"player": ["Anne", "Ben", "Cara", "Dan"], "ruleset": "classic", "game": "Darts"})
        assert created.status_code == 303, (name, text(created)[:2000])
        url = created.headers["Location"]
        assert host.post(f"{url}/access", data={"watchers": "0"}).status_code == 303
        watcher = every_game_app.test_client()
        for route in [r for r in get_routes(every_game_app, url) if r.startswith(url)
                      and not r.startswith((f"{url}/join", f"{url}/events")) and "/host" not in r]:
            assert watcher.get(route).status_code in (403, 404), (name, route)
        assert host.get(url).status_code == 200


def test_the_host_s_card_shows_the_choice_on_every_host_s_screen(app: Flask, client: FlaskClient) -> None:
    host, url = table(app)
    other = app.test_client()
    assert other.post(another_host_link(host, url)).status_code == 303
    assert host.post(f"{url}/access", data={"lock": "1"}).status_code == 303
    page = text(other.get(url))
    assert "The table is locked" in page and 'name="lock" value="0"' in page


def test_the_pages_open_to_all_are_the_app_s_own(app: Flask) -> None:
    """A misspelt endpoint among the pages open to anyone would close that page to newcomers without a word."""
    from scorekeeper.views.table import OPEN_TO_ALL

    assert OPEN_TO_ALL <= {rule.endpoint for rule in app.url_map.iter_rules()}
