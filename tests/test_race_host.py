"""The host never writes a phone's seat, whatever the race: the host's result and trick claim for a seat that a new
phone takes at the same instant, against two server processes (SQLite or PostgreSQL, as the suite runs): the host's
write is applied before the phone took the seat, or refused; never after (read from the game's events, in order)."""

from __future__ import annotations

import json
import re
import threading
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from tests.helpers import Phone
from tests.production import ProductionServer

TRIES = 100
NAMES = ["Anne", "Ben", "Cara"]


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[tuple[str, str]]:
    """gunicorn with the production settings and two worker processes, on 127.0.0.1; and its database."""
    running = ProductionServer(tmp_path, database_url, WEB_CONCURRENCY="2")
    running.start()
    try:
        yield running.base, database_url
    finally:
        running.stop()


def hand_ten(base: str, host: Phone) -> str:
    """A classic game imported at its tenth hand (ten cards, every bid 0, the tricks to come), this browser its host;
    the game's address."""
    hands = [{"cards": n, "entries": [{"player": p, "bid": 0, **({"tricks": n * (seat == 0)} if n < 10 else {})}
                                      for seat, p in enumerate(NAMES)]} for n in range(1, 11)]
    doc = {"format": "skull-king-pad", "version": 1, "ruleset": "classic", "players": NAMES, "hands": hands}
    request = urllib.request.Request(base + "/games/import", data=json.dumps(doc).encode(),
                                     headers={"Content-Type": "application/json"})
    with host.opener.open(request, timeout=30) as answer:
        made = json.loads(answer.read())
    link = made["host_url"].removeprefix(base)
    host.get(link)
    assert host.post(link, {})[0] == 303
    return made["host_url"].removeprefix(base).split("/host/")[0].split("?")[0]


def written_after_the_phone_sat(database: str, game: str, since: int) -> bool:
    """Whether a result was written since version `since` after the seat was last taken."""
    with create_engine(database).connect() as connection:
        kinds = [kind for (kind,) in connection.execute(text(
            "SELECT event.kind FROM event JOIN game ON game.id = event.game_id "
            "WHERE game.public_id = :game AND event.version > :since ORDER BY event.version"),
            {"game": game.rsplit("/", 1)[-1], "since": since})]
    last_seated = max((i for i, kind in enumerate(kinds) if kind == "seat"), default=-1)
    return "result" in kinds[last_seated + 1:]


def version(database: str, game: str) -> int:
    with create_engine(database).connect() as connection:
        return connection.execute(text("SELECT version FROM game WHERE public_id = :game"),
                                  {"game": game.rsplit("/", 1)[-1]}).scalar_one()


def bens_tricks(phone: Phone, game: str) -> int:
    """The tricks Ben's own phone shows on his card."""
    found = re.search(r'name="tricks-1" value="(\d+)" id="tricks-1-\d+" checked', phone.get(game)[1])
    assert found, "Ben's own result card"
    return int(found.group(1))


def race(server: tuple[str, str], host_writes: Callable[[Phone, str, int], object]) -> int:
    """Ben's seat, freed and his tricks none, is taken by a new phone at the instant the host, whose page shows the
    seat free, writes for it; so many times. The overwrites: the host's write applied after the phone sat."""
    base, database = server
    host = Phone(base)
    overwrites = 0
    game = ""
    for attempt in range(TRIES):
        if attempt % 10 == 0:
            game = hand_ten(base, host)
        host.post(f"{game}/seats/1/free", {})
        host.get(game)
        assert host.post(f"{game}/hands/10", {"intent": "draft", "tricks-1": 0})[0] == 303
        since = version(database, game)
        phone = Phone(base)
        phone.get(f"{game}/join")
        start = threading.Barrier(2)

        def take_the_seat() -> None:
            start.wait()
            assert phone.post(f"{game}/join", {"seat": 1})[0] == 303

        def write_for_it() -> None:
            start.wait()
            host_writes(host, game, attempt % 10)

        threads = [threading.Thread(target=take_the_seat), threading.Thread(target=write_for_it)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        if written_after_the_phone_sat(database, game, since) and bens_tricks(phone, game) != 0:
            overwrites += 1
    return overwrites


def test_the_host_s_result_never_overwrites_a_phone_taking_the_seat(server: tuple[str, str]) -> None:
    def draft(host: Phone, game: str, _: int) -> None:
        host.post(f"{game}/hands/10", {"intent": "draft", "tricks-1": 7})

    assert race(server, draft) == 0


def test_the_host_s_trick_claim_never_writes_into_a_phone_taking_the_seat(server: tuple[str, str]) -> None:
    def claim(host: Phone, game: str, trick: int) -> None:
        # Ben's black (the trump) wins it, led by Anne; other cards each time.
        cards = f"yellow {trick + 1}, black {trick + 1}, red {trick + 1}"
        host.post(f"{game}/hands/10/trick", {"lead": 0, "cards": cards})

    assert race(server, claim) == 0
