"""The migration that puts Skull King's hands on the table's plays: a database made by the release before it (every
game's kind, finished and unfinished, a hidden bid, a hidden cannon load, Wizard with hidden secret bids and Wizard
in turn) upgrades; every pad file and CSV is the same, each phone still sees its own secret and nobody else does, a
running count still ends; down and up again, every pad file as it was."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.conftest import make_app
from tests.helpers import end_count, hand_now
from tests.test_migration import SKULL_KING_IN_PLAY, THE_APP_AS_IT_WAS, client_as, made_by_the_app_as_it_was

# The release before the move: Skull King's hands in its own tables (`hand`, `entry`).
BEFORE = "e583922"
PREVIOUS_HEAD = "c7d1e9a3b5f2"
# The head before a scored hand held its bids and loads.
SCORED_HANDS_WITHOUT_BIDS = "e7b9d2f4a6c8"

MAKE_GAMES = THE_APP_AS_IT_WAS + r'''
def end_count(url):
    """The count running now is over, as if its seconds had passed."""
    from datetime import timedelta
    from scorekeeper import games
    from scorekeeper.extensions import db
    from scorekeeper.models import utcnow
    with app.app_context():
        games.find_game(url.rsplit("/", 1)[-1]).reveal_at = utcnow() - timedelta(seconds=1)
        db.session.commit()
        app.extensions.pop("version_caches", None)

def keep(name, url, host, phones, **facts):
    made.append({"name": name, "url": url, "pad": host.get(f"{url}/pad.json").get_json(),
                 "csv": host.get(f"{url}/pad.csv").get_data(as_text=True),
                 "host": host.get_cookie("session").value,
                 "phones": [p.get_cookie("session").value for p in phones], **facts})

def imported(name, doc):
    host = app.test_client()
    response = host.post("/games/import", json=doc)
    assert response.status_code == 201, response.get_json()
    host.get(response.json["host_url"].replace("http://localhost", ""))
    keep(name, response.headers["Location"].replace("http://localhost", ""), host, [])

# Skull King: one imported unfinished, one imported finished, one counting, a hidden bid of hand 2, a hidden load.
imported("imported", json.loads(Path(sys.argv[3]).read_text()))
imported("finished", {"format": "skull-king-pad", "version": 1, "ruleset": "modern",
                      "options": {"scoring": "standard", "rounds": [1, 2]}, "players": ["Anne", "Ben"],
                      "hands": [{"cards": n, "entries": [{"player": "Anne", "bid": n, "tricks": n},
                                                         {"player": "Ben", "bid": 0, "tricks": 0}]} for n in (1, 2)]})

''' + SKULL_KING_IN_PLAY + r'''

# Wizard: secret bids, two of three in (hidden); in turn, a round played and the next one's first bid made.
url, host, phones = game("wizard", {"bidding": "secret"}, ["Anne", "Ben", "Cara"])
assert phones[0].post(f"{url}/play", data={"play": 1, "bid": 1}).status_code == 303
assert phones[1].post(f"{url}/play", data={"play": 1, "bid": 0}).status_code == 303
keep("wizard secret", url, host, phones, bids=[1, 0, None])
url, host, phones = game("wizard", {}, ["Anne", "Ben", "Cara"])
for seat in (1, 2, 0):
    assert phones[seat].post(f"{url}/play", data={"play": 1, "bid": 0}).status_code == 303
for seat, tricks in enumerate((1, 0, 0)):
    assert phones[seat].post(f"{url}/play", data={"play": 1, "tricks": tricks}).status_code == 303
assert phones[2].post(f"{url}/play", data={"play": 2, "bid": 1}).status_code == 303
keep("wizard in turn", url, host, phones)

url, host, phones = game("skip-bo", {"target": "500"}, ["Anne", "Ben"])
phones[0].post(f"{url}/play", data={"went_out": "0", "play": "1"})
keep("skip-bo", url, host, phones)
url, host, phones = game("dracula", {}, ["Anne", "Ben"])
keep("dracula", url, host, phones)
url, host, phones = game("free-pad", {"game": "Rummy"}, ["Anne", "Ben"])
phones[0].post(f"{url}/play", data={"points-0": "12", "play": "1"})
phones[1].post(f"{url}/play", data={"points-1": "-3", "play": "1"})
keep("free pad", url, host, phones)
print(json.dumps(made))
'''


@pytest.fixture
def before(tmp_path: Path, database_url: str) -> list[dict]:
    """The games the release before the move made, with their pad files and the cookies of who holds what."""
    return made_by_the_app_as_it_was(BEFORE, MAKE_GAMES, database_url, tmp_path)


def own_bids(page: str) -> set[str]:
    return set(re.findall(r"Your bid is (\d+)\.", page))



def csv_now(name: str, written: str) -> str:
    """The CSV a game wrote then, as the app writes it now: the same rows, Skip-Bo's first column named "game" as its
    pages name its plays (it said "round" before)."""
    return written.replace("round,", "game,", 1) if name.startswith("skip-bo") else written

def test_every_game_keeps_its_pads_and_secrets_on_the_table_s_plays(before: list[dict], database_url: str) -> None:
    app = make_app(database_url, SECRET_KEY="same", REVEAL_COUNT_SECONDS=100000)
    assert {game["name"] for game in before} == {
        "imported", "finished", "counting", "bidding", "loading", "wizard secret", "wizard in turn", "skip-bo",
        "dracula", "free pad"}
    for game in before:
        url, name = game["url"], game["name"]
        host = client_as(app, game["host"])
        assert host.get(f"{url}/pad.json").get_json() == game["pad"], name
        assert host.get(f"{url}/pad.csv").get_data(as_text=True) == csv_now(name, game["csv"]), name
        # Neither the host nor a stranger sees a hidden bid or load.
        viewer = app.test_client()
        seen = [client.get(path).get_data(as_text=True) for client in (host, viewer) for path in (url, f"{url}/screen")]
        assert all(not own_bids(page) and "Your cannon" not in page for page in seen), name
        for seat, cookie in enumerate(game["phones"]):
            page = client_as(app, cookie).get(url).get_data(as_text=True)
            assert f"You are {('Anne', 'Ben', 'Cara')[seat]}" in page, name
            bid = game.get("bids", [None] * 3)[seat]
            # Its own phone still sees its own hidden bid, and no other.
            if bid is not None:
                assert own_bids(page) == {str(bid)}, name
            elif "bids" in game:
                assert own_bids(page) == set(), name
            if game.get("shots", [None] * 3)[seat] is not None:
                assert "Your cannon is loaded with Cannonball." in page
    with app.app_context():
        # Every hand the migration stored reads through Skull King's codec and is written back the very same JSON:
        # the hand's one stored shape is the table's converter's, no migration of its own.
        from scorekeeper.extensions import db
        from scorekeeper.models import Game, Play
        from scorekeeper.shelf.skullking import NAME
        from scorekeeper.shelf.skullking.storage import HAND

        stored = db.session.scalars(db.select(Play).join(Game).where(Game.kind == NAME)).all()
        assert len(stored) >= 5 and all(HAND.dump(HAND.load(play.data)) == play.data for play in stored)
        # A scored hand holds its bids and loads, as the table's secret entries have them; an open one none.
        assert sum(play.closed for play in stored) >= 3
        for play in stored:
            assert held_by_play(play) == (secrets_of_play(play) if play.closed else {}), play.data
        assert hand_now(next(g for g in before if g["name"] == "counting")["url"]).phase == "counting"
        bidding = next(g for g in before if g["name"] == "bidding")["url"]
        assert hand_now(bidding, 1).phase == "scored" and hand_now(bidding, 2).phase == "bidding"
        assert [e.ready for e in hand_now(bidding, 2).entries] == [True, False]
        loading = hand_now(next(g for g in before if g["name"] == "loading")["url"])
        assert loading.phase == "loading" and [e.shot for e in loading.entries] == ["cannonball", None]
    # The running count still ends: the bids show to everyone, and the hand goes on to its results.
    counting = next(game for game in before if game["name"] == "counting")
    with app.app_context():
        end_count(counting["url"])
        assert hand_now(counting["url"]).phase == "playing"
    assert "Your result" in client_as(app, counting["phones"][0]).get(counting["url"]).get_data(as_text=True)
    # The game goes on on the table's plays: the hand closes and the next one opens to be bid.
    phones = [client_as(app, cookie) for cookie in counting["phones"]]
    for seat, tricks in enumerate((1, 0, 0)):
        assert phones[seat].post(f"{counting['url']}/hands/1", data={"intent": "done",
                                                                      f"tricks-{seat}": tricks}).status_code == 303
    with app.app_context():
        assert hand_now(counting["url"], 1).phase == "scored" and hand_now(counting["url"], 2).phase == "bidding"
        # The hand scored now holds its bids as well.
        from scorekeeper.extensions import db
        from scorekeeper.models import Game, Play

        scored = db.session.scalars(db.select(Play).join(Game).where(
            Game.public_id == counting["url"].rsplit("/", 1)[-1], Play.number == 1)).one()
        assert held_by_play(scored) == secrets_of_play(scored) and len(held_by_play(scored)) == 3


def held_by_play(play: Any) -> dict[tuple[int, str], object]:
    """The bids and loads a Skull King hand's play holds, by seat and name."""
    return {(seat, name): entry[name] for seat, entry in enumerate(play.data["entries"])
            for name in ("bid", "shot") if entry[name] is not None}


def secrets_of_play(play: Any) -> dict[tuple[int, str], object]:
    """The table's secret entries of a play, by seat and name."""
    from scorekeeper.extensions import db
    from scorekeeper.models import SecretEntry

    return {(entry.seat, entry.name): entry.value for entry in db.session.scalars(db.select(SecretEntry).where(
        SecretEntry.game_id == play.game_id, SecretEntry.play == play.number))}


def test_the_move_goes_back_and_forth(before: list[dict], database_url: str) -> None:
    """Down to the release before and up again: every pad file and CSV as it was."""
    from flask_migrate import downgrade, upgrade

    app: Flask = make_app(database_url, SECRET_KEY="same")
    with app.app_context():
        from scorekeeper.extensions import db
        from scorekeeper.models import Game, Play
        from scorekeeper.shelf.skullking import NAME

        def entries() -> list[dict[str, object]]:
            plays = db.session.scalars(db.select(Play).join(Game).where(Game.kind == NAME)).all()
            db.session.rollback()
            return [entry for play in plays for entry in play.data["entries"]]

        # Before a scored hand held its bids and loads: none in any hand; back up, each scored one's again.
        downgrade(revision=SCORED_HANDS_WITHOUT_BIDS)
        assert entries() and not [entry for entry in entries() if {"bid", "shot"} & entry.keys()]
        downgrade(revision=PREVIOUS_HEAD)
        upgrade()
        assert any(entry["bid"] is not None for entry in entries())
    for game in before:
        host = client_as(app, game["host"])
        assert host.get(f"{game['url']}/pad.json").get_json() == game["pad"], game["name"]
        assert host.get(f"{game['url']}/pad.csv").get_data(as_text=True) == csv_now(game["name"], game["csv"]), \
            game["name"]
