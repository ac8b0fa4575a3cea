"""Every write is applied once per tap: a repeat (a retry after a lost answer, a tap sent again) gets the first
answer and changes nothing, on every POST route the app has."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Game, SeatRequest, Tap
from tests.helpers import hand_now, new_game


@dataclass
class Write:
    """One POST a scenario sends: who sends it, where, and what."""

    client: FlaskClient
    path: str
    data: dict[str, Any] | None = None
    json: dict[str, Any] | None = None
    # A write that changes no game (a language, a join code typed): a repeat must change nothing either.
    changes_a_game: bool = True


def table(app: Flask, names: tuple[str, ...] = ("Anne", "Ben"), **options: str) -> tuple[FlaskClient, str]:
    host = app.test_client()
    return host, new_game(host, list(names), **options)


def seated(app: Flask, url: str, seat: int) -> FlaskClient:
    phone = app.test_client()
    assert phone.post(f"{url}/join", data={"seat": seat}).status_code == 303
    return phone


def bids_shown(app: Flask, **options: str) -> tuple[FlaskClient, str]:
    """Two players without phones, three cards dealt, their bids in and shown (the count takes no time in tests)."""
    host, url = table(app, **options)
    assert host.post(f"{url}/hands/1/cards", data={"cards": 3}).status_code == 303
    for seat in (0, 1):
        assert host.post(f"{url}/hands/1/bid", data={"seat": seat, "bid": 1}).status_code == 303
    return host, url


def finished(app: Flask) -> tuple[FlaskClient, str]:
    """A free pad of one round, scored and ended by the host."""
    host = app.test_client()
    url = host.post("/games/new/free-pad", data={"player": ["Anne", "Ben"], "game": "Darts"}).headers["Location"]
    assert host.post(f"{url}/play", data={"play": "1", "points-0": "5", "points-1": "0"}).status_code == 303
    assert host.post(f"{url}/play", data={"play": "2", "end": "1"}).status_code == 303
    return host, url


def asking(app: Flask) -> tuple[FlaskClient, str, int]:
    """Anne plays on a phone; a new phone asks for her seat; the host's client, the game, the request."""
    host, url = table(app)
    seated(app, url, 0)
    new = app.test_client()
    assert new.post(f"{url}/join", data={"ask": "0"}).status_code == 303
    with app.app_context():
        request_id = db.session.scalar(select(SeatRequest.id))
    assert request_id is not None
    return host, url, request_id


def scenario_bid(app: Flask) -> Write:
    host, url = table(app)
    return Write(seated(app, url, 0), f"{url}/hands/1/bid", {"bid": 1})


def scenario_load(app: Flask) -> Write:
    host, url = bids_shown(app, ruleset="modern", scoring="rascal", cannonball="on")
    return Write(host, f"{url}/hands/1/load", {"seat": 0, "shot": "cannonball"})


def scenario_deal(app: Flask) -> Write:
    host, url = table(app)
    return Write(host, f"{url}/hands/1/cards", {"cards": 1})


def scenario_hand(app: Flask) -> Write:
    # "One more trick nobody won" is a step: sent twice, it must still be one trick.
    host, url = bids_shown(app, ruleset="modern")
    return Write(host, f"{url}/hands/1", {"intent": "lost-more"})


def scenario_claim_trick(app: Flask) -> Write:
    host, url = bids_shown(app, ruleset="modern")
    return Write(host, f"{url}/hands/1/trick", {"lead": "0", "cards": "green 7, green 9"})


def scenario_delete(app: Flask) -> Write:
    host, url = finished(app)
    return Write(host, f"{url}/delete")


def scenario_restore(app: Flask) -> Write:
    host, url = finished(app)
    assert host.post(f"{url}/delete").status_code == 303
    return Write(host, f"{url}/restore")


def scenario_rematch(app: Flask) -> Write:
    host, url = finished(app)
    return Write(host, f"{url}/rematch")


def scenario_play(app: Flask) -> Write:
    host = app.test_client()
    url = host.post("/games/new/skip-bo", data={"player": ["Anne", "Ben"]}).headers["Location"]
    return Write(host, f"{url}/play", {"went_out": "0"})


def opened(app: Flask, path: str = "/") -> FlaskClient:
    """A browser that opened a page of the app, as every browser does before it taps: its session names it."""
    client = app.test_client()
    assert client.get(path).status_code == 200
    return client


def scenario_new_game(app: Flask) -> Write:
    return Write(opened(app), "/games/new/free-pad", {"player": ["Anne", "Ben"], "game": "Darts"})


def scenario_import_game(app: Flask) -> Write:
    pad = {"format": "skull-king-pad", "version": 1, "ruleset": "classic", "players": ["Anne", "Ben"], "hands": []}
    return Write(opened(app), "/games/import", json=pad)


def scenario_host(app: Flask) -> Write:
    # Taking over as host with the link the import API gives: the browser's session changes, no game does.
    pad = {"format": "skull-king-pad", "version": 1, "ruleset": "classic", "players": ["Anne", "Ben"], "hands": []}
    host_url = opened(app).post("/games/import", json=pad).get_json()["host_url"]
    return Write(opened(app), urlsplit(host_url).path, changes_a_game=False)


def scenario_join_by_code(app: Flask) -> Write:
    table(app)
    with app.app_context():
        code = db.session.scalar(select(Game.join_code))
    return Write(app.test_client(), "/join", {"code": code}, changes_a_game=False)


def scenario_language(app: Flask) -> Write:
    return Write(app.test_client(), "/language", {"language": "de", "next": "/"}, changes_a_game=False)


def scenario_join(app: Flask) -> Write:
    host, url = table(app)
    return Write(opened(app, f"{url}/join"), f"{url}/join", {"seat": 1})


def scenario_free_seat(app: Flask) -> Write:
    host, url = table(app)
    seated(app, url, 0)
    return Write(host, f"{url}/seats/0/free")


def scenario_let_in(app: Flask) -> Write:
    host, url, request_id = asking(app)
    return Write(host, f"{url}/requests/{request_id}/let-in")


def scenario_turn_away(app: Flask) -> Write:
    host, url, request_id = asking(app)
    return Write(host, f"{url}/requests/{request_id}/turn-away")


def scenario_wizard_correction(app: Flask) -> Write:
    # A correction changes a closed round: sent twice, it is one correction (one version on), answered alike.
    host = app.test_client()
    url = host.post("/games/new/wizard", data={"player": ["Anne", "Ben", "Cara"]}).headers["Location"]
    for field, values in (("bid", (0, 1, 1)), ("tricks", (0, 1, 0))):
        for seat in (1, 2, 0):
            assert host.post(f"{url}/play", data={"play": "1", "seat": seat, field: values[seat]}).status_code == 303
    entries = {f"{field}-{seat}": "1" if (field, seat) in (("bid", 1), ("tricks", 2)) else "0"
               for field in ("bid", "tricks") for seat in range(3)}
    return Write(host, f"{url}/wizard/rounds/1", entries)


def another_host_link(host: FlaskClient, url: str) -> str:
    """The path of a link to become a host of the game at `url`, given to its host."""
    answer = host.post(f"{url}/hosts")
    assert answer.status_code == 200
    found = re.search(r'href="http://[^/"]+(/games/[^/"]+/hosts/[A-Za-z0-9_-]+)"', answer.get_data(as_text=True))
    assert found is not None
    return found[1]


def scenario_another_host(app: Flask) -> Write:
    host, url = table(app)
    return Write(host, f"{url}/hosts")


def scenario_become_host(app: Flask) -> Write:
    host, url = table(app)
    return Write(opened(app), another_host_link(host, url))


def scenario_leave_host(app: Flask) -> Write:
    # Once another device is a host: this browser forgets the host's key, no game changes.
    host, url = table(app)
    assert opened(app).post(another_host_link(host, url)).status_code == 303
    return Write(host, f"{url}/hosts/leave", changes_a_game=False)


def scenario_access(app: Flask) -> Write:
    host, url = table(app)
    return Write(host, f"{url}/access", data={"lock": "1"})


# Every POST route's scenario, by endpoint: a route without one fails the test below.
SCENARIOS: dict[str, Callable[[Flask], Write]] = {
    "skull_king.bid": scenario_bid,
    "skull_king.load": scenario_load,
    "skull_king.deal": scenario_deal,
    "skull_king.hand": scenario_hand,
    "skull_king.claim_trick": scenario_claim_trick,
    "pages.delete": scenario_delete,
    "pages.restore": scenario_restore,
    "pages.rematch": scenario_rematch,
    "pages.play": scenario_play,
    "pages.new_game": scenario_new_game,
    "pages.import_game": scenario_import_game,
    "pages.join_by_code": scenario_join_by_code,
    "pages.host": scenario_host,
    "pages.language": scenario_language,
    "pages.join": scenario_join,
    "pages.free_seat": scenario_free_seat,
    "pages.let_in": scenario_let_in,
    "pages.turn_away": scenario_turn_away,
    "wizard.correct_round": scenario_wizard_correction,
    "pages.another_host": scenario_another_host,
    "pages.become_host": scenario_become_host,
    "pages.leave_host": scenario_leave_host,
    "pages.access": scenario_access,
}


def post_routes(app: Flask) -> set[str]:
    return {rule.endpoint for rule in app.url_map.iter_rules() if "POST" in (rule.methods or ())}


def test_every_post_route_has_its_repeat_checked(app: Flask) -> None:
    assert post_routes(app) == set(SCENARIOS), "a write route without a repeated-tap scenario below"


def the_table(app: Flask) -> tuple[tuple[str, int], ...]:
    """Every game and its version: what any change moves."""
    with app.app_context():
        return tuple(tuple(row) for row in db.session.execute(select(Game.public_id, Game.version).order_by(Game.id)).all())


def send(write: Write, tap: str) -> Any:
    headers = {"X-Tap": tap}
    if write.json is not None:
        return write.client.post(write.path, json=write.json, headers=headers)
    return write.client.post(write.path, data=write.data or {}, headers=headers)


@pytest.mark.parametrize("endpoint", sorted(SCENARIOS))
def test_a_tap_sent_twice_changes_the_game_once_and_is_answered_alike(app: Flask, endpoint: str) -> None:
    write = SCENARIOS[endpoint](app)
    tap = secrets.token_urlsafe(16)
    before = the_table(app)
    # The first answer is lost on its way back: the browser never got its cookies, and sends the tap again.
    session_before = write.client.get_cookie("session")
    first = send(write, tap)
    assert first.status_code < 400, first.get_data(as_text=True)
    after_first = the_table(app)
    if write.changes_a_game:
        assert after_first != before, "the scenario's write changed nothing"
    else:
        assert after_first == before
    first_session = write.client.get_cookie("session")
    if session_before is None:
        write.client.delete_cookie("session")
    else:
        write.client.set_cookie("session", session_before.value)
    again = send(write, tap)
    assert the_table(app) == after_first, "the repeated tap changed the game again"
    assert again.status_code == first.status_code
    assert again.headers.get("Location") == first.headers.get("Location")
    assert (again.json if write.json is not None else None) == (first.json if write.json is not None else None)
    # Whatever the first answer gave the browser (a seat's secret, a host's token), the repeat gives again.
    assert (write.client.get_cookie("session") is None) == (first_session is None)
    if first_session is not None:
        assert decoded(app, write.client) == decoded_value(app, first_session.value)
    # A new tap is a new change.
    if write.changes_a_game and endpoint in ("skull_king.hand", "pages.play", "pages.new_game"):
        assert send(write, secrets.token_urlsafe(16)).status_code < 400
        assert the_table(app) != after_first


def decoded_value(app: Flask, value: str) -> dict[str, Any]:
    serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    data = dict(serializer.loads(value))
    # Which browser it is and its form token are the browser's own, not what the change gave it.
    for own in ("browser", "csrf_token", "_permanent"):
        data.pop(own, None)
    return data


def decoded(app: Flask, client: FlaskClient) -> dict[str, Any]:
    cookie = client.get_cookie("session")
    assert cookie is not None
    return decoded_value(app, cookie.value)


def test_one_more_trick_nobody_won_sent_twice_is_one_trick(app: Flask) -> None:
    host, url = bids_shown(app, ruleset="modern")
    tap = secrets.token_urlsafe(16)
    for _ in range(3):
        assert host.post(f"{url}/hands/1", data={"intent": "lost-more"}, headers={"X-Tap": tap}).status_code == 303
    with app.app_context():
        assert hand_now(url).lost_tricks == 1
    # Tapped once more (a new tap), it is one more.
    assert host.post(f"{url}/hands/1", data={"intent": "lost-more"}, headers={"X-Tap": "another-tap-0123456"}
                     ).status_code == 303
    with app.app_context():
        assert hand_now(url).lost_tricks == 2


def test_taps_are_stored_as_hashes_and_a_seat_s_secret_masked(app: Flask) -> None:
    host, url = table(app)
    phone = app.test_client()
    tap = secrets.token_urlsafe(16)
    assert phone.post(f"{url}/join", data={"seat": 0}, headers={"X-Tap": tap}).status_code == 303
    secret = decoded(app, phone)["seats"][url.rsplit("/", 1)[-1]]
    with app.app_context():
        stored = db.session.execute(select(Tap.key, Tap.secret)).one()
        assert db.session.scalar(select(func.count()).select_from(Tap)) == 1
    assert tap not in stored.key and stored.secret is not None and secret not in stored.secret


def test_a_malformed_tap_id_is_no_tap(app: Flask) -> None:
    """Anything but a tap id as pages make them is ignored: the write is applied as one without a tap."""
    host, url = table(app)
    for tap in ("short", "x" * 65, "spaces in it here!!"):
        assert host.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1}, headers={"X-Tap": tap}).status_code == 303
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Tap)) == 0


@pytest.mark.parametrize("write", ["new game", "bid"])
def test_a_tap_sent_twice_at_the_same_moment_is_applied_once(app: Flask, write: str) -> None:
    """A retry that overtakes the first request (two processes, two connections) still changes the table once: the
    second waits for the game's lock, or for the first's tap to be stored, and gets its answer."""
    import threading

    host, url = table(app)
    tap = secrets.token_urlsafe(16)
    before = the_table(app)
    answers: list[int] = []
    start = threading.Barrier(4)

    def send_once() -> None:
        # The same browser's tap, sent again over another connection: the same session.
        client = app.test_client()
        client.set_cookie("session", host.get_cookie("session").value)  # type: ignore[union-attr]
        start.wait()
        if write == "bid":
            answers.append(client.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1},
                                       headers={"X-Tap": tap}).status_code)
        else:
            answers.append(client.post("/games/new/free-pad", data={"player": ["Anne", "Ben"], "game": "Darts"},
                                       headers={"X-Tap": tap}).status_code)

    senders = [threading.Thread(target=send_once) for _ in range(4)]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join(30)
    assert answers == [303] * 4
    after = the_table(app)
    if write == "bid":
        assert [v for _, v in after] == [before[0][1] + 1]
    else:
        assert len(after) == len(before) + 1


def test_a_tap_that_comes_after_its_hand_closed_says_so_and_changes_nothing(app: Flask) -> None:
    host, url = bids_shown(app)
    assert host.post(f"{url}/hands/1", data={"intent": "score", "tricks-0": "1", "tricks-1": "2"}).status_code == 303
    phone = seated(app, url, 0)
    before = the_table(app)
    htmx = {"HX-Request": "true"}
    # Anne's Done, sent again once her phone is back, after the host scored the hand.
    late = phone.post(f"{url}/hands/1", data={"intent": "done", "tricks-0": "1"}, headers=htmx)
    assert late.status_code == 422 and "Not applied: by the time this arrived" in late.get_data(as_text=True)
    # A late autosave says nothing; a plain form goes back to the game.
    assert phone.post(f"{url}/hands/1", data={"intent": "draft", "tricks-0": "1"}, headers=htmx).status_code == 204
    assert phone.post(f"{url}/hands/1", data={"intent": "done", "tricks-0": "1"}).status_code == 303
    # A Skip-Bo count for a game already scored, the same.
    match = host.post("/games/new/skip-bo", data={"player": ["Anne", "Ben"]}).headers["Location"]
    assert host.post(f"{match}/play", data={"went_out": "0", "play": "1"}).status_code == 303
    assert host.post(f"{match}/play", data={"left": "3", "seat": "1", "play": "1"}).status_code == 303
    late = host.post(f"{match}/play", data={"left": "4", "seat": "1", "play": "1"}, headers=htmx)
    assert late.status_code == 422 and "Not applied: by the time this arrived" in late.get_data(as_text=True)
    assert the_table(app)[:len(before)] == before


def test_a_repeat_s_answer_is_not_taken_for_what_its_screen_shows(app: Flask) -> None:
    """A repeat may be a try its page gave up on (no answer in 20 s) and sent again, whose answer the page never
    gets: it is not noted as the edition its screen shows, so that screen's stream does not leave that edition out."""
    from scorekeeper import games
    from scorekeeper.views.rendering import answered_edition
    from tests.helpers import public_id

    host, url = table(app)
    tap = secrets.token_urlsafe(16)

    def bid(seat: int, screen: str, tap: str) -> int:
        answer = host.post(f"{url}/hands/1/bid", data={"seat": seat, "bid": 1},
                           headers={"HX-Request": "true", "X-Screen": screen, "X-Tap": tap})
        assert answer.status_code == 200, answer.get_data(as_text=True)
        with app.app_context():
            state = games.load(public_id(url))
            assert state is not None
            return state.id

    game_id = bid(0, "screen-a", tap)
    with app.app_context():
        first = answered_edition(game_id, "screen-a")
        assert first is not None
    bid(1, "screen-b", secrets.token_urlsafe(16))
    bid(0, "screen-a", tap)
    with app.app_context():
        assert answered_edition(game_id, "screen-b") is not None and answered_edition(game_id, "screen-b") > first
        assert answered_edition(game_id, "screen-a") == first
