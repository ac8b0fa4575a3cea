"""Where the time of one page goes: a phone's page after its own write, mid-game, rendered 300 times under cProfile.

The shared table comes from the per-edition cache (as it does for every screen but the
first), so what is left is the phone's own card, the page around it and compression.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import tempfile
import time

from flask_migrate import upgrade

from scorekeeper import create_app

PLAYERS = 6
RENDERS = 300


def main() -> None:
    """Play five hands through the test client, then profile the phone's page."""
    folder = tempfile.mkdtemp()
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/profile.sqlite", "WTF_CSRF_ENABLED": False,
                      "REVEAL_COUNT_SECONDS": 0, "SECRET_KEY": "profile"})
    with app.app_context():
        upgrade()
    host, phone = app.test_client(), app.test_client()
    game = host.post("/games/new", data={"ruleset": "classic",
                                         "player": [f"P{n}" for n in range(PLAYERS)]}).headers["Location"]
    phone.post(f"{game}/join", data={"seat": 0})
    for number in range(1, 6):
        phone.post(f"{game}/hands/{number}/bid", data={"bid": 0})  # a phone's bid is its own
        for seat in range(1, PLAYERS):
            host.post(f"{game}/hands/{number}/bid", data={"seat": seat, "bid": 0})
        phone.post(f"{game}/hands/{number}", data={"tricks-0": number, "intent": "draft"})  # its own result
        host.post(f"{game}/hands/{number}", data={
            **{f"tricks-{seat}": 0 for seat in range(1, PLAYERS)}, "intent": "score"})
    headers = {"HX-Request": "true", "Accept-Encoding": "br"}
    started = time.perf_counter()
    for _ in range(RENDERS):
        phone.get(game, headers=headers)
    print(f"phone page after its own write: {(time.perf_counter() - started) / RENDERS * 1000:.1f} ms each, "
          "without the profiler\n")
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(RENDERS):
        phone.get(game, headers=headers)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative")
    stats.print_stats(r"scorekeeper|jinja2_fragments|sqlalchemy/orm/session|flask_babel|flask_compress", 25)


if __name__ == "__main__":
    main()
