"""One clock: a count lasts its configured seconds on every screen, in every game with secret entries, whatever
time zone the server runs in; stored moments come back as the same instant, timezone-aware."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import games
from scorekeeper.clock import Moment, epoch_ms, utcnow
from scorekeeper.extensions import db
from scorekeeper.shelf import INSTALLED
from tests.conftest import make_app
from tests.helpers import new_game, public_id
from tests.highcard.kind import HIGH_CARD

# Far from UTC both ways, and one whose offset is not whole hours.
ZONES = ("Pacific/Auckland", "America/New_York", "Asia/Kolkata")
# Long enough that no busy machine reads a page after the count's end; when it ends is checked by the clock.
COUNT_SECONDS = 600.0


@pytest.fixture(params=ZONES)
def far_zone(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The server's process in a time zone far from UTC (its local clock, as a host in that zone has it)."""
    monkeypatch.setenv("TZ", request.param)
    time.tzset()
    assert time.localtime().tm_gmtoff != 0
    yield request.param
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def app(database_url: str) -> Iterator[Flask]:
    """Every game on the shelf and the test game, with a count of COUNT_SECONDS."""
    app = make_app(database_url, games=[*INSTALLED, HIGH_CARD], REVEAL_COUNT_SECONDS=COUNT_SECONDS)
    yield app
    with app.app_context():
        db.engine.dispose()


def seated(app: Flask, url: str, players: int) -> list[FlaskClient]:
    phones = [app.test_client() for _ in range(players)]
    for seat, phone in enumerate(phones):
        assert phone.post(f"{url}/join", data={"seat": seat}).status_code == 303
    return phones


def skull_king(app: Flask) -> tuple[str, list[FlaskClient]]:
    url = new_game(app.test_client(), ["Anne", "Ben"])
    phones = seated(app, url, 2)
    for phone in phones:
        assert phone.post(f"{url}/hands/1/bid", data={"bid": 1}).status_code == 303
    return url, phones


def wizard(app: Flask) -> tuple[str, list[FlaskClient]]:
    url = app.test_client().post("/games/new/wizard", data={"player": ["Anne", "Ben", "Cara"],
                                                            "bidding": "secret"}).headers["Location"]
    phones = seated(app, url, 3)
    for phone in phones:
        assert phone.post(f"{url}/play", data={"play": 1, "bid": 0}).status_code == 303
    return url, phones


def high_card(app: Flask) -> tuple[str, list[FlaskClient]]:
    url = app.test_client().post("/games/new/high-card", data={"player": ["Anne", "Ben"]}).headers["Location"]
    phones = seated(app, url, 2)
    for card, phone in enumerate(phones, start=5):
        assert phone.post(f"{url}/play", data={"play": 1, "card": card}).status_code == 303
    return url, phones


# Every game with secret entries, and how its phones enter them all (the count starts with the last).
ALL_SECRETS_IN: dict[str, Callable[[Flask], tuple[str, list[FlaskClient]]]] = {
    "skull-king": skull_king, "wizard": wizard, "high-card": high_card}


def test_every_game_with_secret_entries_is_counted_here(app: Flask) -> None:
    with app.app_context():
        from scorekeeper.kinds import registered

        assert {kind.NAME for kind in registered() if kind.SECRETS} == set(ALL_SECRETS_IN)


def counted_to(page: str) -> int:
    """The moment the page's count ends, as its script counts to it (milliseconds since 1970)."""
    found = re.search(r'data-reveal-at="(\d+)"', page)
    assert found, "no count on the page"
    return int(found.group(1))


@pytest.mark.parametrize("game", sorted(ALL_SECRETS_IN))
def test_a_count_lasts_its_seconds_in_any_time_zone(app: Flask, far_zone: str, game: str) -> None:
    before = time.time()
    url, phones = ALL_SECRETS_IN[game](app)
    after = time.time()
    # Every screen counts to the same moment: the configured seconds after the last entry, by the world's clock.
    ends = {counted_to(client.get(url).get_data(as_text=True)) for client in [*phones, app.test_client()]}
    assert len(ends) == 1
    end_ms = ends.pop()
    end = end_ms / 1000
    assert before + COUNT_SECONDS - 0.05 <= end <= after + COUNT_SECONDS + 0.05, (far_zone, end - after)
    with app.app_context():
        state = games.load(public_id(url))
        assert state is not None and state.count is not None and state.count.reveal_at is not None
        assert epoch_ms(state.count.reveal_at) == end_ms and not state.count.over
    # Counting until that moment, by the table's clock, and over from then: it lasts its seconds, not an hour more
    # or less.
    assert state.at(datetime.fromtimestamp(end - 0.01, UTC)).count.over is False
    assert state.at(datetime.fromtimestamp(end + 0.01, UTC)).count.over is True


def test_a_stored_moment_is_the_same_instant_in_any_zone(far_zone: str) -> None:
    type_ = Moment()
    auckland = datetime(2026, 11, 26, 21, 0, tzinfo=timezone(timedelta(hours=13)))
    stored = type_.process_bind_param(auckland, None)  # type: ignore[arg-type]
    assert stored == datetime(2026, 11, 26, 8, 0) and stored.tzinfo is None
    read = type_.process_result_value(stored, None)  # type: ignore[arg-type]
    assert read == auckland and read.tzinfo is UTC
    now = utcnow()
    assert now.tzinfo is UTC and abs(now.timestamp() - time.time()) < 1
    assert epoch_ms(datetime(1970, 1, 1, 0, 0, 1)) == 1000 == epoch_ms(datetime(1970, 1, 1, 0, 0, 1, tzinfo=UTC))
