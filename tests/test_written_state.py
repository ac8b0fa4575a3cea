"""The game a change keeps as it stored it: its answer and this process's screens read nothing more, and what they
draw from is exactly what a read of the database gives, change after change, in every game on the shelf."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper import games
from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.conftest import make_app

HTMX = {"HX-Request": "true"}


@pytest.fixture
def counted_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every read of a whole game from the database, counted."""
    reads: list[int] = []
    read = games.read_state

    def counting(game_id: int) -> games.GameState | None:
        reads.append(game_id)
        return read(game_id)

    monkeypatch.setattr(games, "read_state", counting)
    return reads


@pytest.fixture
def app(database_url: str) -> Iterator[Flask]:
    """An app whose counts end at once, so every phase of a hand comes in turn."""
    app = make_app(database_url, REVEAL_COUNT_SECONDS=0)
    yield app
    with app.app_context():
        db.engine.dispose()


def kept_is_as_read(app: Flask, url: str) -> None:
    """The game this process keeps for its newest version is what a read of it gives now."""
    with app.app_context():
        game_id, version = db.session.execute(
            select(Game.id, Game.version).where(Game.public_id == url.rsplit("/", 1)[-1])).one()
        kept = games.kept_here(game_id, version)
        assert kept is not None and kept == games.read_state(game_id)
        keeps_no_past(game_id)


# What a process keeps of a game by version: each holds what it drew from one version, not one entry per version.
BY_VERSION = ("seen by", "games as they stand", "plays", "seen plays")


def keeps_no_past(game_id: int) -> None:
    """The process keeps one version of the game, and one of each view of it and what is drawn from it: however
    many changes came before, none of the game's past (every old version kept made the full collections of a
    server's processes long)."""
    assert [key for key in games.cache("games").items if key == game_id] == [game_id]
    for name in BY_VERSION:
        mine = [key for key in games.cache(name).items
                if key == game_id or (isinstance(key, tuple) and key[0] == game_id)]
        assert len(mine) <= 8, (name, mine)


def writes(app: Flask, url: str, reads: list[int]) -> Callable[[FlaskClient, str, dict], int]:
    """A write sent as the page script sends it, answered with the page; after it, the kept game is checked.
    Gives how many times the game was read from the database while the write and its answer were made."""
    def send(client: FlaskClient, path: str, data: dict) -> int:
        before = len(reads)
        response = client.post(f"{url}{path}", data=data, headers=HTMX)
        assert response.status_code == 200, response.get_data(as_text=True)[-2000:]
        made = len(reads) - before
        kept_is_as_read(app, url)
        return made

    return send


def test_skull_king_bids_loads_and_results_keep_the_game_as_stored(app: Flask, counted_reads: list[int]) -> None:
    host = app.test_client()
    url = host.post("/games/new", data={"ruleset": "modern", "scoring": "rascal", "cannonball": "on",
                                        "player": ["Anne", "Ben", "Cara"]}).headers["Location"]
    phones = [app.test_client() for _ in range(3)]
    for seat, phone in enumerate(phones):
        assert phone.post(f"{url}/join", data={"seat": seat}).status_code == 303
    send = writes(app, url, counted_reads)
    for number in (1, 2):
        bids = [send(phone, f"/hands/{number}/bid", {"bid": 0}) for phone in phones]
        # After the first (whose lock reads the game the joins or the last hand left), no bid reads the game again:
        # not its lock, not its answer.
        assert bids[1:] == [0, 0], bids
        for phone in phones:
            send(phone, f"/hands/{number}/load", {"shot": "grapeshot"})
        for seat, phone in enumerate(phones):
            send(phone, f"/hands/{number}", {f"tricks-{seat}": number if seat == 0 else 0, "intent": "draft"})
            send(phone, f"/hands/{number}", {f"tricks-{seat}": number if seat == 0 else 0, "intent": "done"})
    with app.app_context():
        kept = games.load(url.rsplit("/", 1)[-1])
        assert kept is not None and len(kept.plays) == 3 and kept.plays[1].closed


def test_wizard_secret_bids_and_tricks_keep_the_game_as_stored(app: Flask, counted_reads: list[int]) -> None:
    host = app.test_client()
    created = host.post("/games/new/wizard", data={"player": ["Anne", "Ben", "Cara"], "bidding": "secret"})
    url = created.headers["Location"]
    phones = [app.test_client() for _ in range(3)]
    for seat, phone in enumerate(phones):
        assert phone.post(f"{url}/join", data={"seat": seat}).status_code == 303
    send = writes(app, url, counted_reads)
    for number in (1, 2):
        bids = [send(phone, "/play", {"play": number, "bid": 0}) for phone in phones]
        assert bids[1:] == [0, 0], bids
        for seat, phone in enumerate(phones):
            send(phone, "/play", {"play": number, "tricks": number if seat == 0 else 0})


COFFIN = "5H 7H 2C QS 9D QH KD 4S 10S".split()
# Each game's taps of a round or two, in order: (the phone's name, or None for the host; the form).
TAPS = {
    "skip-bo": [("Anne", {"play": 1, "went_out": "0"}), ("Ben", {"play": 1, "left": "4"}),
                ("Cara", {"play": 1, "left": "7"}), ("Ben", {"play": 2, "went_out": "1"}),
                ("Anne", {"play": 2, "left": "3"})],
    "dracula": [("Ben", {"play": 1, **{f"cell-{i}": card for i, card in enumerate(COFFIN)}}),
                ("Anne", {"play": 2, **{f"cell-{i}": card for i, card in enumerate(reversed(COFFIN))}})],
    "free-pad": [("Anne", {"play": 1, "points-0": "5"}), ("Ben", {"play": 1, "points-1": "7"}),
                 ("Cara", {"play": 1, "points-2": "2"})],
}
FORMS = {"skip-bo": {"target": "500"}, "dracula": {}, "free-pad": {"game": "Rummy"}}


@pytest.mark.parametrize("kind", sorted(TAPS))
def test_every_other_game_s_taps_keep_the_game_as_stored(kind: str, app: Flask, counted_reads: list[int]) -> None:
    host = app.test_client()
    names = ("Anne", "Ben", "Cara") if kind != "dracula" else ("Anne", "Ben")
    url = host.post(f"/games/new/{kind}", data={"player": list(names), **FORMS[kind]}).headers["Location"]
    phones = {name: app.test_client() for name in names}
    for seat, name in enumerate(names):
        assert phones[name].post(f"{url}/join", data={"seat": seat}).status_code == 303
    send = writes(app, url, counted_reads)
    reads = [send(phones[name] if name else host, "/play", data) for name, data in TAPS[kind]]
    # After the first (whose lock reads the game the joins left), no tap reads the game: its lock and its answer
    # find the game the change before it kept, a round closed and the next opened too.
    assert reads[1:] == [0] * (len(reads) - 1), reads



def test_a_change_s_answer_asks_the_database_nothing_once_the_change_is_stored(app: Flask) -> None:
    """The answer is drawn from the game as the change stored it (`Outcome.stored`): after the commit, not even the
    game's version is read; and it shows that change."""
    from sqlalchemy import event

    host = app.test_client()
    url = host.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben", "Cara"]}).headers["Location"]
    phones = [app.test_client() for _ in range(3)]
    for seat, phone in enumerate(phones):
        assert phone.post(f"{url}/join", data={"seat": seat}).status_code == 303
    said: list[str] = []

    def on_statement(connection, cursor, statement, *rest) -> None:
        said.append(statement.split()[0].upper())

    def on_commit(connection) -> None:
        said.append("COMMIT")

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", on_statement)
    event.listen(engine, "commit", on_commit)
    try:
        response = phones[0].post(f"{url}/hands/1/bid", data={"bid": 1}, headers=HTMX)
    finally:
        event.remove(engine, "before_cursor_execute", on_statement)
        event.remove(engine, "commit", on_commit)
    assert response.status_code == 200
    assert said.count("COMMIT") == 1 and said[said.index("COMMIT") + 1:] == [], said
    assert "Your bid is 1" in response.get_data(as_text=True)
