"""Every game's pad at and past each limit the docs state (plays, players, bytes): taken at the limit, refused past
it in words with nothing stored, in a time that grows with the file's size, not faster (each case's time printed)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.padfile import MAX_BYTES
from scorekeeper.shelf.dracula.rules import MAX_ROUNDS as DRACULA_ROUNDS
from scorekeeper.shelf.freepad.rules import MAX_PLAYERS as FREE_PAD_PLAYERS
from scorekeeper.shelf.freepad.rules import MAX_ROUNDS as FREE_PAD_ROUNDS
from scorekeeper.shelf.skipbo.rules import MAX_GAMES
from scorekeeper.shelf.skipbo.rules import MAX_PLAYERS as SKIP_BO_PLAYERS
from scorekeeper.shelf.wizard.rules import MAX_PLAYERS as WIZARD_PLAYERS

NAMES = [f"P{n}" for n in range(20)]
COFFIN = [["3D", "4D", "5D"], ["2C", "V", "6S"], ["9H", "8H", "7H"]]


def skull_king(players: int, hands: int, expansion: bool = True) -> dict[str, Any]:
    played = [{"cards": min(n, 8), "entries": [{"player": p, "bid": 0, "tricks": min(n, 8) * (seat == 0)}
                                              for seat, p in enumerate(NAMES[:players])]} for n in range(1, hands + 1)]
    return {"format": "skull-king-pad", "version": 1, "ruleset": "modern", "players": NAMES[:players],
            "options": {"expansion": expansion}, "hands": played}


def wizard(players: int, rounds: int) -> dict[str, Any]:
    played = [{"cards": n, "entries": [{"player": p, "bid": 0, "tricks": n * (seat == 0)}
                                      for seat, p in enumerate(NAMES[:players])]} for n in range(1, rounds + 1)]
    return {"format": "wizard-pad", "version": 1, "players": NAMES[:players], "first_dealer": NAMES[0],
            "options": {"bidding": "secret", "no_even_bids": False}, "rounds": played}


def skip_bo(players: int, games: int) -> dict[str, Any]:
    played = [{"winner": NAMES[n % players], "left": {p: 1 for p in NAMES[:players] if p != NAMES[n % players]}}
              for n in range(games)]
    return {"format": "skip-bo-pad", "version": 1, "players": NAMES[:players], "target": 100_000, "games": played}


def dracula(rounds: int) -> dict[str, Any]:
    sets = [{"rounds": [{"coffin": COFFIN}] * min(6, rounds - start)} for start in range(0, rounds, 6)]
    return {"format": "dracula-pad", "version": 1, "players": {"queen": "Anne", "king": "Ben"}, "target": 100_000,
            "sets": sets}


def free_pad(players: int, rounds: int) -> dict[str, Any]:
    return {"format": "free-pad", "version": 1, "game": "Darts", "players": NAMES[:players], "lowest_wins": False,
            "rounds": [{p: 1 for p in NAMES[:players]} for _ in range(rounds)]}


# (what is at its limit, the pad at the limit, the pad one past it, what the refusal says)
LIMITS: list[tuple[str, Callable[[], dict[str, Any]], Callable[[], dict[str, Any]], str]] = [
    ("Skull King: hands", lambda: skull_king(9, 10), lambda: skull_king(9, 11), "11"),
    ("Skull King: players", lambda: skull_king(9, 1), lambda: skull_king(10, 1), "not 10"),
    ("Skull King: players without the expansion", lambda: skull_king(8, 1, False), lambda: skull_king(9, 1, False),
     "not 9"),
    ("Wizard: rounds", lambda: wizard(3, 20), lambda: wizard(3, 21), "21"),
    ("Wizard: players", lambda: wizard(WIZARD_PLAYERS, 1), lambda: wizard(WIZARD_PLAYERS + 1, 1), "3 to 6"),
    ("Skip-Bo: games", lambda: skip_bo(2, MAX_GAMES), lambda: skip_bo(2, MAX_GAMES + 1), "at most 200"),
    ("Skip-Bo: players", lambda: skip_bo(SKIP_BO_PLAYERS, 1), lambda: skip_bo(SKIP_BO_PLAYERS + 1, 1), "not 7"),
    ("Dracula: rounds", lambda: dracula(DRACULA_ROUNDS), lambda: dracula(DRACULA_ROUNDS + 6), "at most 50"),
    ("Free pad: rounds", lambda: free_pad(2, FREE_PAD_ROUNDS), lambda: free_pad(2, FREE_PAD_ROUNDS + 1),
     "at most 1000"),
    ("Free pad: players", lambda: free_pad(FREE_PAD_PLAYERS, 1), lambda: free_pad(FREE_PAD_PLAYERS + 1, 1), "13"),
]


def games_stored(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Game)) or 0


def timed_import(client: FlaskClient, doc: dict[str, Any] | bytes) -> tuple[Any, float]:
    start = time.perf_counter()
    if isinstance(doc, bytes):
        answer = client.post("/games/import", data=doc, content_type="application/json")
    else:
        answer = client.post("/games/import", json=doc)
    return answer, time.perf_counter() - start


@pytest.mark.parametrize(("limit", "at", "past", "said"), LIMITS, ids=[case[0] for case in LIMITS])
def test_a_pad_at_its_limit_is_taken_and_one_past_it_refused_with_nothing_stored(
        app: Flask, client: FlaskClient, limit: str, at: Callable[[], dict[str, Any]],
        past: Callable[[], dict[str, Any]], said: str) -> None:
    taken, taken_in = timed_import(client, at())
    assert taken.status_code == 201, (limit, taken.json)
    stored = games_stored(app)
    refused, refused_in = timed_import(client, past())
    assert refused.status_code == 422, limit
    assert any(said in problem for problem in refused.json["problems"]), refused.json
    assert games_stored(app) == stored
    print(f"\n{limit}: at the limit taken in {taken_in * 1000:.0f} ms, past it refused in {refused_in * 1000:.0f} ms")


def test_a_file_past_the_bytes_any_pad_has_is_refused_unread(app: Flask, client: FlaskClient) -> None:
    body = json.dumps(free_pad(2, 1)).encode()
    padded = body[:-1] + b" " * (MAX_BYTES - len(body)) + b"}"
    assert len(padded) == MAX_BYTES
    assert timed_import(client, padded)[0].status_code == 201
    before = games_stored(app)
    refused, refused_in = timed_import(client, padded[:-1] + b" }")
    assert refused.status_code == 413
    assert refused.json["problems"] == ["That file is too large for a pad file."]
    assert games_stored(app) == before
    print(f"\nbytes: past {MAX_BYTES} refused in {refused_in * 1000:.0f} ms")


def test_checking_a_dracula_pad_grows_with_its_rounds_not_faster() -> None:
    """Whether the game is over is known as each round is read: twice the rounds, twice the coffins scored, not four
    times (counted in coffins scored, not in seconds)."""
    from scorekeeper.shelf.dracula import pad, rules

    scored = {"coffins": 0}
    original = rules.round_points

    def counting(coffin):
        scored["coffins"] += 1
        return original(coffin)

    work = []
    for rounds in (150, 300):
        scored["coffins"] = 0
        rules.round_points = counting  # type: ignore[assignment]
        try:
            pad.read(dracula(rounds), check=True)
        finally:
            rules.round_points = original  # type: ignore[assignment]
        work.append(scored["coffins"])
    assert work[1] == 2 * work[0], work
