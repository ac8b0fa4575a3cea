"""How long a crew's page takes on the server when the crew has played 500 games (target: 50 ms).

500 finished Skull King games of six players, ten hands each, are stored in one crew with
their summaries, as finished games keep them; a browser that hosted one of them asks for
the crew page again and again through the app (no network), and the times are printed.
"""

from __future__ import annotations

import gc
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta

from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.access import token_hash
from scorekeeper.extensions import db
from scorekeeper.models import Game, Seat, new_join_code, new_public_id
from scorekeeper.shelf.skullking.kind import SKULL_KING

GAMES = int(os.environ.get("CREW_GAMES", 500))
# The host key of every game it stores (the bench only reads their pages).
HOST_KEY = "bench-host-key"
PLAYERS = ("Anne", "Ben", "Cara", "Dan", "Eve", "Finn")
REQUESTS = 60


def summary(rng: random.Random) -> dict:
    """A plausible finished game's summary: ten hands of points, bids made, zero bids and bonuses."""
    per_hand = [[rng.choice((-20, -10, 10, 20, 40, 60)) for _ in PLAYERS] for _ in range(10)]
    totals = [sum(hand[i] for hand in per_hand) for i in range(len(PLAYERS))]
    best = max(totals)
    return {"kind": "skull-king", "ruleset": "classic", "players": list(PLAYERS), "totals": totals,
            "winners": [p for p, t in zip(PLAYERS, totals) if t == best], "per_hand": per_hand,
            "bids_made": [rng.randint(3, 9) for _ in PLAYERS], "zero_bids": [rng.randint(1, 4) for _ in PLAYERS],
            "zero_bids_made": [rng.randint(0, 1) for _ in PLAYERS], "bonus": [rng.choice((0, 30, 60)) for _ in PLAYERS]}


def main() -> None:
    """Store the crew, then time its page."""
    folder = tempfile.mkdtemp()
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/crew.sqlite", "SECRET_KEY": "bench"})
    rng = random.Random(7)
    with app.app_context():
        upgrade()
        start = datetime(2025, 1, 1)
        crew = new_public_id()
        for number in range(GAMES):
            game = Game(kind=SKULL_KING.NAME, ruleset="classic", options={"scoring": "standard"}, crew=crew,
                        public_id=new_public_id(), host_key_hash=token_hash(HOST_KEY), join_code=new_join_code(),
                        created_at=start + timedelta(days=number),
                        finished_at=start + timedelta(days=number, hours=1), summary=summary(rng))
            game.seats = [Seat(position=i, name=name) for i, name in enumerate(PLAYERS)]
            db.session.add(game)
        db.session.commit()
        hosted = db.session.query(Game).first()
        public_id, token = hosted.public_id, HOST_KEY
    # As a production worker runs (gunicorn_config.post_worker_init): what was set up is frozen, collections are rare.
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)
    client = app.test_client()
    with client.session_transaction() as session:
        session["hosting"] = {public_id: token}
    times = []
    for _ in range(REQUESTS):
        began = time.perf_counter()
        response = client.get(f"/crews/{crew}")
        times.append((time.perf_counter() - began) * 1000)
        assert response.status_code == 200, response.status_code
    # The first request also compiles the templates and loads the translations: reported apart.
    first, times = times[0], sorted(times[1:])
    print(f"crew page, {GAMES} games of {len(PLAYERS)} players, {REQUESTS} requests (server time, no network):")
    print(f"  first {first:.1f} ms; then fastest {times[0]:.1f} ms, median {statistics.median(times):.1f} ms, "
          f"p95 {times[int(len(times) * 0.95) - 1]:.1f} ms, slowest {times[-1]:.1f} ms; "
          f"page {len(response.data) / 1024:.1f} KiB uncompressed")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"  load average at the end: {load}; Python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
