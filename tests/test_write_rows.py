"""The changes a table makes most (bids, results) read the game as plain values and write only the rows that change."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask
from sqlalchemy import event

from scorekeeper.extensions import db
from scorekeeper.models import Game, Play, Seat, SecretEntry
from tests.helpers import new_game

HTMX = {"HX-Request": "true"}


@contextmanager
def watched(app: Flask) -> Iterator[tuple[Counter, list[str]]]:
    """Count the rows written, by statement and table, and the records of a game the ORM loads meanwhile."""
    written: Counter = Counter()
    loaded: list[str] = []

    def on_statement(conn, cursor, statement, parameters, context, executemany) -> None:
        found = re.match(r"\s*(INSERT INTO|UPDATE)\s+\"?(\w+)", statement)
        if found:
            written[(found.group(1).split()[0], found.group(2))] += len(parameters) if executemany else 1

    def on_load(target, context) -> None:
        loaded.append(type(target).__name__)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", on_statement)
    for model in (Game, Seat, Play, SecretEntry):
        event.listen(model, "load", on_load)
    try:
        yield written, loaded
    finally:
        event.remove(engine, "before_cursor_execute", on_statement)
        for model in (Game, Seat, Play, SecretEntry):
            event.remove(model, "load", on_load)


def seated_game(app: Flask, players: int = 3) -> tuple[str, list]:
    """A game whose every seat is played on its own phone."""
    url = new_game(app.test_client(), [f"P{n}" for n in range(players)])
    phones = [app.test_client() for _ in range(players)]
    for seat, phone in enumerate(phones):
        assert phone.post(f"{url}/join", data={"seat": seat}).status_code == 303
    return url, phones


def test_a_bid_writes_its_entry_the_version_and_the_event_and_loads_no_record(app: Flask) -> None:
    url, phones = seated_game(app)
    with watched(app) as (written, loaded):
        response = phones[0].post(f"{url}/hands/1/bid", data={"bid": 1}, headers=HTMX)
    assert response.status_code == 200
    assert dict(written) == {("INSERT", "secret_entry"): 1, ("UPDATE", "game"): 1, ("INSERT", "event"): 1}
    assert loaded == []
    # The same bid again changes its value only.
    with watched(app) as (written, loaded):
        assert phones[0].post(f"{url}/hands/1/bid", data={"bid": 0}, headers=HTMX).status_code == 200
    assert dict(written) == {("UPDATE", "secret_entry"): 1, ("UPDATE", "game"): 1, ("INSERT", "event"): 1}

    phones[1].post(f"{url}/hands/1/bid", data={"bid": 0}, headers=HTMX)
    with watched(app) as (written, loaded):
        phones[2].post(f"{url}/hands/1/bid", data={"bid": 0}, headers=HTMX)
    # The last bid starts the count: its end is written with the version, in the same statement.
    assert dict(written) == {("INSERT", "secret_entry"): 1, ("UPDATE", "game"): 1, ("INSERT", "event"): 1}
    assert loaded == []


def test_results_write_the_entries_that_change_and_the_last_one_opens_the_next_hand(app: Flask) -> None:
    url, phones = seated_game(app)
    for phone in phones:
        phone.post(f"{url}/hands/1/bid", data={"bid": 0}, headers=HTMX)
    with watched(app) as (written, loaded):
        phones[0].post(f"{url}/hands/1", data={"intent": "done", "tricks-0": 1}, headers=HTMX)
        phones[1].post(f"{url}/hands/1", data={"intent": "done", "tricks-1": 0}, headers=HTMX)
    # Each result writes its hand's one play (the table's row for it), the version and the event.
    assert dict(written) == {("UPDATE", "play"): 2, ("UPDATE", "game"): 2, ("INSERT", "event"): 2}
    assert loaded == []

    with watched(app) as (written, loaded):
        response = phones[2].post(f"{url}/hands/1", data={"intent": "done", "tricks-2": 0}, headers=HTMX)
    assert "Hand 2 of" in response.get_data(as_text=True)
    # Scored: the hand's play (its entry and phase, closed), then the next hand's play with an entry per seat.
    assert dict(written) == {("UPDATE", "play"): 1, ("INSERT", "play"): 1, ("UPDATE", "game"): 1,
                             ("INSERT", "event"): 1}
    assert loaded == []


def test_a_refused_result_writes_nothing(app: Flask) -> None:
    url, phones = seated_game(app)
    for phone in phones:
        phone.post(f"{url}/hands/1/bid", data={"bid": 0}, headers=HTMX)
    with watched(app) as (written, _):
        response = phones[0].post(f"{url}/hands/1", data={"intent": "done", "tricks-0": 5}, headers=HTMX)
    assert response.status_code == 422
    assert not written
