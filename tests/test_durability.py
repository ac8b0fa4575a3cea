"""Kill the server outright at random moments during a game: every acknowledged entry is there after the restart."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from pathlib import Path

from sqlalchemy import create_engine

from tests.helpers import Phone
from tests.production import ProductionServer

PLAYERS = ["Anne", "Ben", "Cara", "Dan"]
KILLS = 5


def until_acknowledged(phone: Phone, path: str, data: dict, page: str) -> bool:
    """Send a write until the server answers; True if it acknowledged it (303).

    After a try that died with the server, a refusal may mean the write had already
    been stored (the last bid reveals the hand): that write counts as unacknowledged.
    """
    interrupted = False
    while True:
        try:
            phone.get(page)
            status, _ = phone.post(path, data)
        except (OSError, http.client.HTTPException):
            interrupted = True
            time.sleep(0.05)
            continue
        if status == 303:
            return True
        if status >= 500:
            interrupted = True
            time.sleep(0.05)
            continue
        if interrupted:
            return False
        raise AssertionError(f"{path} {data} was refused with {status}")


def new_game(host: Phone) -> str:
    """Start a game, through server deaths if need be; the path of the acknowledged game."""
    while True:
        try:
            host.get("/games/new")
            status, game = host.post("/games/new", {"ruleset": "classic", "player": PLAYERS})
        except (OSError, http.client.HTTPException):
            time.sleep(0.05)
            continue
        if status == 303:
            return game
        time.sleep(0.05)


def test_acknowledged_entries_survive_a_killed_server(tmp_path: Path, database_url: str) -> None:
    server = ProductionServer(tmp_path, database_url, SCOREKEEPER_REVEAL_SECONDS="0", WEB_CONCURRENCY="2")
    server.start()
    try:
        check_killed_server(server, database_url)
    finally:
        server.stop()


def check_killed_server(server: ProductionServer, database_url: str) -> None:
    """Play games while the server is killed again and again; then look for every acknowledged write."""
    host = Phone(server.base)
    acknowledged_bids: dict[tuple[str, int, int], int] = {}
    acknowledged_hands: dict[tuple[str, int], list[int]] = {}
    stop = threading.Event()
    rng = random.Random(20261122)
    kills = []

    def killer() -> None:
        for _ in range(KILLS):
            if stop.wait(rng.uniform(0.3, 1.2)):
                return
            server.kill()
            kills.append(time.monotonic())
            server.start()

    chaos = threading.Thread(target=killer)
    chaos.start()
    try:
        # Whole games, one after the other, for as long as the server keeps being killed.
        while chaos.is_alive():
            game = new_game(host)
            public_id = game.rsplit("/", 1)[-1]
            for number in range(1, 11):
                bids = [rng.randint(0, number) for _ in PLAYERS]
                for seat, bid in enumerate(bids):
                    if until_acknowledged(host, f"{game}/hands/{number}/bid", {"seat": seat, "bid": bid}, game):
                        acknowledged_bids[(public_id, number, seat)] = bid
                tricks = [number] + [0] * (len(PLAYERS) - 1)
                form = {**{f"tricks-{s}": t for s, t in enumerate(tricks)}, "intent": "score"}
                if until_acknowledged(host, f"{game}/hands/{number}", form, game):
                    acknowledged_hands[(public_id, number)] = tricks
    finally:
        stop.set()
        chaos.join()
    assert len(kills) == KILLS

    server.kill()
    server.start()
    engine = create_engine(database_url)
    with engine.connect() as connection:
        # A hand is one of the table's plays (its entries by seat in its data); a bid the table's secret entry.
        hands = connection.exec_driver_sql(
            "SELECT game.public_id, play.number, play.data FROM play JOIN game ON play.game_id = game.id").all()
        bids = connection.exec_driver_sql(
            "SELECT game.public_id, secret_entry.play, secret_entry.seat, secret_entry.value FROM secret_entry "
            "JOIN game ON secret_entry.game_id = game.id WHERE secret_entry.name = 'bid'").all()
    engine.dispose()
    bid_of = {(g, n, seat): json.loads(bid) if isinstance(bid, str) else bid for g, n, seat, bid in bids}
    stored = {}
    for g, n, data in hands:
        data = json.loads(data) if isinstance(data, str) else data
        for position, entry in enumerate(data["entries"]):
            stored[(g, n, position)] = (bid_of.get((g, n, position)), entry["tricks"], data["phase"])
    for (g, n, seat), bid in acknowledged_bids.items():
        assert stored[(g, n, seat)][0] == bid, f"game {g}, hand {n}, seat {seat}: bid lost"
    for (g, n), tricks in acknowledged_hands.items():
        assert [stored[(g, n, seat)][1] for seat in range(len(PLAYERS))] == tricks, f"hand {n}: tricks lost"
        assert stored[(g, n, 0)][2] == "scored"
    assert len(acknowledged_hands) >= 3
