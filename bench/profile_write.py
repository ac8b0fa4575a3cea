"""Where the time of a write goes: six phones bid and report their results, hand after hand, under cProfile.

Each write is sent as the page script sends it (htmx), so its answer is the page after the
change: the own card and the shared table. The game runs in the app with no network and no
server, on SQLite (or the database given), so what is timed is the app's own work per write.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time

from flask_migrate import upgrade

from scorekeeper import create_app

PLAYERS = 6
HTMX = {"HX-Request": "true", "Accept-Encoding": "br"}


def play_hands(phones: list, game: str, first: int, last: int) -> int:
    """Every phone bids 0 and reports Done (one trick short for the dealer's left); how many writes."""
    writes = 0
    for number in range(first, last + 1):
        for phone in phones:
            phone.post(f"{game}/hands/{number}/bid", data={"bid": 0}, headers=HTMX)
            writes += 1
        for seat, phone in enumerate(phones):
            tricks = number if seat == 0 else 0
            phone.post(f"{game}/hands/{number}", data={f"tricks-{seat}": tricks, "intent": "done"}, headers=HTMX)
            writes += 1
    return writes


def main() -> None:
    """Play the first hands untimed, then time and profile the writes of the next ones."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=30, help="profile lines to print")
    parser.add_argument("--database-url", help="an empty database to play on instead of a new SQLite file")
    parser.add_argument("--cpu", action="store_true", help="profile the process's CPU time, not the time passed")
    parser.add_argument("--dump", help="a file to write the profile's statistics to (pstats)")
    args = parser.parse_args()
    database = args.database_url or f"sqlite:///{tempfile.mkdtemp()}/profile.sqlite"
    app = create_app({"SQLALCHEMY_DATABASE_URI": database, "WTF_CSRF_ENABLED": False,
                      "REVEAL_COUNT_SECONDS": 0, "SECRET_KEY": "profile"})
    with app.app_context():
        upgrade()
    host = app.test_client()
    phones = [app.test_client() for _ in range(PLAYERS)]
    games = []
    for _ in range(3):
        game = host.post("/games/new", data={"ruleset": "classic",
                                             "player": [f"P{n}" for n in range(PLAYERS)]}).headers["Location"]
        for seat, phone in enumerate(phones):
            phone.post(f"{game}/join", data={"seat": seat})
        games.append(game)
    play_hands(phones, games[0], 1, 4)  # warm: templates compiled, translations loaded
    started, cpu = time.perf_counter(), time.process_time()
    writes = play_hands(phones, games[0], 5, 10)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(f"{writes} writes (hands 5 to 10, six phones, answered with the page): "
          f"{wall / writes * 1000:.2f} ms each, CPU {cpu / writes * 1000:.2f} ms, without the profiler\n")
    profiler = cProfile.Profile(time.process_time) if args.cpu else cProfile.Profile()
    profiler.enable()
    writes = play_hands(phones, games[1], 1, 10)
    profiler.disable()
    print(f"profiled: {writes} writes of a whole game\n")
    if args.dump:
        profiler.dump_stats(args.dump)
    stats = pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative")
    stats.print_stats(r"scorekeeper|jinja2_fragments|sqlalchemy/orm/(session|loading|strategies)|flask_babel"
                      r"|flask_compress|flask_wtf", args.lines)


if __name__ == "__main__":
    main()
