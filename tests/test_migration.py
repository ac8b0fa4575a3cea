"""The migration that gives the table the secret entries: a database made by the app as it was at the previous
migration head, holding games of every kind (finished and unfinished, bids and loads still hidden), upgrades;
every game's pad file is the same before and after, and what was secret stays secret, its own phone aside."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from io import BytesIO
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tests.conftest import make_app
from tests.helpers import hand_now

ROOT = Path(__file__).resolve().parent.parent
# The app as it was at the previous migration head (3e8a1c5b7d20): its bids and loads in Skull King's entries.
BEFORE = "195ef3e"

# The start of every script run by the app as it was: the app on the given database, and a game with a phone per seat.
THE_APP_AS_IT_WAS = r'''
import json, sys
from pathlib import Path

import scorekeeper
assert Path(scorekeeper.__file__).is_relative_to(sys.argv[2]), scorekeeper.__file__
from flask_migrate import upgrade
from scorekeeper import create_app

app = create_app({"TESTING": True, "SECRET_KEY": "same", "WTF_CSRF_ENABLED": False, "SQLALCHEMY_DATABASE_URI": sys.argv[1],
                  "NEW_GAMES_PER_MINUTE": 100000, "REVEAL_COUNT_SECONDS": 100000})
with app.app_context():
    upgrade()
made = []

def game(kind, form, players):
    host = app.test_client()
    url = host.post(f"/games/new/{kind}", data={"player": players, **form}).headers["Location"]
    phones = [app.test_client() for _ in players]
    for seat, phone in enumerate(phones):
        assert phone.post(f"{url}/join", data={"seat": seat}).status_code == 303
    return url, host, phones

'''

# Skull King in play, made by the app as it was (its `game`, `end_count` and `keep`): counting, a hidden bid of
# hand 2, a hidden cannon load.
SKULL_KING_IN_PLAY = r'''
url, host, phones = game("skull-king", {"ruleset": "classic"}, ["Anne", "Ben", "Cara"])
for seat, bid in enumerate((1, 0, 1)):
    assert phones[seat].post(f"{url}/hands/1/bid", data={"bid": bid}).status_code == 303
keep("counting", url, host, phones, bids=[1, 0, 1])

url, host, phones = game("skull-king", {"ruleset": "classic"}, ["Anne", "Ben"])
for seat, bid in enumerate((1, 0)):
    phones[seat].post(f"{url}/hands/1/bid", data={"bid": bid})
# The count of hand 1 is over: its bids are shown; hand 1 is played and scored, hand 2 is being bid.
end_count(url)
assert phones[0].post(f"{url}/hands/1", data={"intent": "done", "tricks-0": 1}).status_code == 303
assert phones[1].post(f"{url}/hands/1", data={"intent": "done", "tricks-1": 0}).status_code == 303
assert phones[0].post(f"{url}/hands/2/bid", data={"bid": 2}).status_code == 303
keep("bidding", url, host, phones, bids=[2, None], hand=2)

url, host, phones = game("skull-king", {"ruleset": "modern", "scoring": "rascal", "cannonball": "on"}, ["Anne", "Ben"])
for seat, bid in enumerate((1, 0)):
    phones[seat].post(f"{url}/hands/1/bid", data={"bid": bid})
end_count(url)
assert phones[0].post(f"{url}/hands/1/load", data={"shot": "cannonball"}).status_code == 303
keep("loading", url, host, phones, shots=["cannonball", None])
'''

# Run by the app as it was: games of every kind, through its pages, then each one's pad file and who holds what.
MAKE_GAMES = THE_APP_AS_IT_WAS + r'''
def end_count(url):
    """The count of hand 1 is over, as if its seconds had passed (the app as it was kept it on the hand)."""
    from datetime import timedelta
    from scorekeeper import games
    from scorekeeper.extensions import db
    from scorekeeper.models import utcnow
    with app.app_context():
        games.find_game(url.rsplit("/", 1)[-1]).hands[0].reveal_at = utcnow() - timedelta(seconds=1)
        db.session.commit()
        app.extensions.pop("version_caches", None)

def keep(name, url, host, phones, **facts):
    made.append({"name": name, "url": url, "pad": host.get(f"{url}/pad.json").get_json(),
                 "host": host.get_cookie("session").value,
                 "phones": [p.get_cookie("session").value for p in phones], **facts})

# Skull King: one imported, one counting, one played to a hidden bid of hand 2, one loading cannons.
doc = json.loads(Path(sys.argv[3]).read_text())
host = app.test_client()
response = host.post("/games/import", json=doc)
host.get(response.json["host_url"].replace("http://localhost", ""))
keep("imported", response.headers["Location"].replace("http://localhost", ""), host, [])

''' + SKULL_KING_IN_PLAY + r'''

url, host, phones = game("skip-bo", {"target": "500"}, ["Anne", "Ben"])
phones[0].post(f"{url}/play", data={"went_out": "0", "play": "1"})
keep("skip-bo", url, host, phones)
url, host, phones = game("dracula", {}, ["Anne", "Ben"])
keep("dracula", url, host, phones)
url, host, phones = game("free-pad", {"game": "Rummy"}, ["Anne", "Ben"])
phones[0].post(f"{url}/play", data={"points-0": "12", "play": "1"})
phones[1].post(f"{url}/play", data={"points-1": "-3", "play": "1"})
phones[0].post(f"{url}/play", data={"points-0": "5", "play": "2"})
keep("free pad", url, host, phones)
print(json.dumps(made))
'''


def made_by_the_app_as_it_was(commit: str, script: str, database_url: str, tmp_path: Path) -> list[dict]:
    """The games the app as it was at `commit` made by running `script` on `database_url` (its last line of output:
    the games, their pad files and the cookies of who holds what)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the app as it was comes from its history")
    found = subprocess.run(["git", "archive", commit, "scorekeeper", "templates", "static"], cwd=ROOT,
                           capture_output=True, check=False)
    if found.returncode != 0:
        pytest.skip(f"commit {commit} is not in this checkout's history")
    old = tmp_path / "old"
    with tarfile.open(fileobj=BytesIO(found.stdout)) as archive:
        archive.extractall(old, filter="data")
    made = subprocess.run([sys.executable, "-c", script, database_url, str(old), str(ROOT / "examples" / "pad.json")],
                          env={**os.environ, "PYTHONPATH": str(old)}, cwd=old, capture_output=True, text=True, timeout=120,
                          check=False)
    assert made.returncode == 0, made.stderr[-3000:]
    return json.loads(made.stdout.strip().splitlines()[-1])


@pytest.fixture
def before(tmp_path: Path, database_url: str) -> list[dict]:
    """The games the app as it was made, with their pad files and the cookies of who holds what."""
    return made_by_the_app_as_it_was(BEFORE, MAKE_GAMES, database_url, tmp_path)


def client_as(app, cookie: str) -> FlaskClient:
    client = app.test_client()
    client.set_cookie("session", cookie)
    return client


def test_every_game_upgrades_its_pad_file_the_same_and_its_secrets_kept(before: list[dict], database_url: str) -> None:
    app = make_app(database_url, SECRET_KEY="same", REVEAL_COUNT_SECONDS=100000)
    assert {game["name"] for game in before} == {"imported", "counting", "bidding", "loading", "skip-bo", "dracula",
                                                 "free pad"}
    for game in before:
        url = game["url"]
        host = client_as(app, game["host"])
        assert host.get(f"{url}/pad.json").get_json() == game["pad"], game["name"]
        viewer = app.test_client()
        seen = viewer.get(url).get_data(as_text=True) + viewer.get(f"{url}/screen").get_data(as_text=True)
        assert "Your bid is" not in seen and "Your cannon" not in seen
        for seat, cookie in enumerate(game["phones"]):
            phone = client_as(app, cookie)
            page = phone.get(url).get_data(as_text=True)
            assert f"You are {('Anne', 'Ben', 'Cara')[seat]}" in page, game["name"]
            bid = game.get("bids", [None] * 3)[seat]
            # Its own phone still sees its own bid, and no other.
            assert set(re.findall(r"Your bid is (\d+)\.", page)) == ({str(bid)} if bid is not None else set())
            shot = game.get("shots", [None] * 3)[seat]
            if shot is not None:
                assert "Your cannon is loaded with Cannonball." in page
        with app.app_context():
            if game["name"] == "counting":
                record = hand_now(url)
                assert record.phase == "counting" and [e.bid for e in record.entries] == game["bids"]
            if game["name"] == "bidding":
                record = hand_now(url, 2)
                assert record.phase == "bidding" and [e.ready for e in record.entries] == [True, False]
                assert hand_now(url, 1).phase == "scored"
            if game["name"] == "loading":
                record = hand_now(url)
                assert record.phase == "loading" and [e.shot for e in record.entries] == ["cannonball", None]
                assert [e.bid for e in record.entries] == [1, 0]
    # The bids of the counting game show to everyone once its count is over, as before.
    counting = next(game for game in before if game["name"] == "counting")
    with app.app_context():
        from tests.helpers import end_count
        end_count(counting["url"])
    assert "Your result" in client_as(app, counting["phones"][0]).get(counting["url"]).get_data(as_text=True)



def test_the_migration_goes_back_and_forth(before: list[dict], database_url: str) -> None:
    """Down to the previous head and up again: every pad file as it was."""
    from flask_migrate import downgrade, upgrade

    app = make_app(database_url, SECRET_KEY="same")
    with app.app_context():
        downgrade(revision="3e8a1c5b7d20")
        upgrade()
    for game in before:
        assert client_as(app, game["host"]).get(f"{game['url']}/pad.json").get_json() == game["pad"], game["name"]
