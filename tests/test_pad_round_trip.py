"""Every import makes a game whose export imports again: for every pad format the table reads (the test game's
too), a random pad file is imported, played to the end by the host on the app's own forms, exported, and imported
again; the second game's export is the first's, byte for byte."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import games, kinds
from scorekeeper.shelf.dracula.rules import RANKS, SUITS
from scorekeeper.shelf.skullking import reading
from scorekeeper.shelf.skullking.pad import write_pad as skull_king_pad
from scorekeeper.shelf.skullking.storage import Phase
from scorekeeper.shelf.wizard import WIZARD
from scorekeeper.shelf.wizard.rules import bidding_order
from tests.helpers import forget_kept_games, import_as_host, public_id
from tests.test_pad import games as skull_king_games
from tests.test_wizard_pad import games as wizard_games

NAMES = ("Anne", "Ben", "Cara", "Dan", "Eve", "Finn")
# A few games of each format: each is played to its end through the app, a few dozen taps.
ROUND_TRIP = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                              HealthCheck.too_slow])


@pytest.fixture
def app(every_game_app: Flask) -> Flask:
    """Every game on the shelf and the test game."""
    return every_game_app


# --- random pad files, one strategy per format ---------------------------------------------------


@st.composite
def skull_king_pads(draw: st.DrawFn) -> dict[str, Any]:
    table, hands = draw(skull_king_games())
    # Written from the rules' hands, as a paper pad would have them.
    return skull_king_pad(table, hands)


@st.composite
def wizard_pads(draw: st.DrawFn) -> dict[str, Any]:
    setup, rounds = draw(wizard_games())
    return WIZARD.write_pad(setup, list(rounds))


@st.composite
def skip_bo_pads(draw: st.DrawFn) -> dict[str, Any]:
    players = list(NAMES[:draw(st.integers(2, 4))])
    played = []
    for _ in range(draw(st.integers(0, 2))):
        winner = draw(st.sampled_from(players))
        played.append({"winner": winner, "left": {p: draw(st.integers(1, 10)) for p in players if p != winner}})
    # Two games of at most 25 + 3 × 10 × 5 points each stay under the target: the match is still on.
    return {"format": "skip-bo-pad", "version": 1, "players": players, "target": draw(st.sampled_from([400, 500])),
            "games": played}


PACK = [f"{rank}{suit}" for rank in RANKS for suit in SUITS]


@st.composite
def coffins(draw: st.DrawFn) -> list[list[str]]:
    cards = draw(st.permutations(PACK))[:9]
    return [cards[0:3], cards[3:6], cards[6:9]]


@st.composite
def dracula_pads(draw: st.DrawFn) -> dict[str, Any]:
    rounds = [{"coffin": draw(coffins())} for _ in range(draw(st.integers(0, 3)))]
    return {"format": "dracula-pad", "version": 1, "players": {"queen": "Anne", "king": "Ben"},
            # Three rounds of at most 150 points a player stay under the target: the game is still on.
            "target": draw(st.sampled_from([700, 1000])), "sets": [{"rounds": rounds}] if rounds else []}


@st.composite
def free_pads(draw: st.DrawFn) -> dict[str, Any]:
    players = list(NAMES[:draw(st.integers(1, 5))])
    rounds = [{p: draw(st.integers(-50, 50)) for p in players} for _ in range(draw(st.integers(0, 3)))]
    return {"format": "free-pad", "version": 1, "game": draw(st.sampled_from(["Darts", "Rummy"])),
            "players": players, "lowest_wins": draw(st.booleans()), "rounds": rounds}


@st.composite
def high_card_pads(draw: st.DrawFn) -> dict[str, Any]:
    rounds = [{"0": a, "1": b} for a, b in draw(st.lists(st.tuples(st.integers(1, 13), st.integers(1, 13)),
                                                         max_size=2))]
    return {"format": "high-card-pad", "players": ["Anne", "Ben"], "rounds": rounds}


# --- the host plays a game to its end: each game's taps for where its play stands ------------------

Taps = Iterator[tuple[str, dict[str, Any]]]


def skull_king_taps(state: games.GameState) -> Taps:
    hand = reading.seen_by(state, None).current
    assert hand is not None
    seats, n = range(len(state.seats)), hand.number
    if hand.phase.is_secret:
        yield from ((f"/hands/{n}/bid", {"seat": s, "bid": 0}) for s in seats)
    elif hand.phase in (Phase.LOADING, Phase.FIRING):
        yield from ((f"/hands/{n}/load", {"seat": s, "shot": "grapeshot"}) for s in seats)
    else:
        # Everyone bid nothing: the first seat took every trick somebody won.
        won = hand.cards - hand.lost_tricks
        yield f"/hands/{n}", {"intent": "score", **{f"tricks-{s}": won if s == 0 else 0 for s in seats}}


def wizard_taps(state: games.GameState) -> Taps:
    setup, number = WIZARD.setup_of(state), len(WIZARD.played(state)) + 1
    yield from (("/play", {"play": number, "seat": s, "bid": 0}) for s in bidding_order(setup, number))
    yield from (("/play", {"play": number, "seat": s, "tricks": number if s == 0 else 0})
                for s in range(len(setup.players)))


def skip_bo_taps(state: games.GameState) -> Taps:
    number = len(kinds.kind_of(state).played(state)) + 1
    yield "/play", {"play": number, "went_out": 0}
    yield from (("/play", {"play": number, "seat": s, "left": 20}) for s in range(1, len(state.seats)))


def dracula_taps(state: games.GameState) -> Taps:
    number = len(kinds.kind_of(state).played(state)) + 1
    cards = PACK[number % 10:][:9]
    yield "/play", {"play": number, **{f"cell-{i}": card for i, card in enumerate(cards)}}


def free_pad_taps(state: games.GameState) -> Taps:
    number = len(kinds.kind_of(state).played(state)) + 1
    if number > 2:
        yield "/play", {"play": number, "end": "1"}
        return
    yield "/play", {"play": number, **{f"points-{s}": 10 * (s + 1) for s in range(len(state.seats))}}


def high_card_taps(state: games.GameState) -> Taps:
    number = len(kinds.kind_of(state).played(state)) + 1
    yield from (("/play", {"play": number, "seat": s, "card": 13 - s}) for s in range(len(state.seats)))
    yield "/play", {"play": number, "next": "1"}


FORMATS: dict[str, tuple[Callable[[], st.SearchStrategy[dict[str, Any]]], Callable[[games.GameState], Taps]]] = {
    "skull-king": (skull_king_pads, skull_king_taps), "wizard": (wizard_pads, wizard_taps),
    "skip-bo": (skip_bo_pads, skip_bo_taps), "dracula": (dracula_pads, dracula_taps),
    "free-pad": (free_pads, free_pad_taps), "high-card": (high_card_pads, high_card_taps)}


def test_every_registered_game_has_its_round_trip(app: Flask) -> None:
    with app.app_context():
        assert {kind.NAME for kind in kinds.registered()} == set(FORMATS)


def state_of(app: Flask, url: str) -> games.GameState:
    with app.app_context():
        forget_kept_games()
        found = games.load(public_id(url))
        assert found is not None
        return found


def play_to_the_end(app: Flask, host: FlaskClient, url: str, taps: Callable[[games.GameState], Taps]) -> None:
    """The host enters every player's part (none has a phone) until the game is over; each round moves it on."""
    for _ in range(200):
        state = state_of(app, url)
        if state.finished_at is not None:
            return
        with app.app_context():
            planned = list(taps(state))
        for path, form in planned:
            # A tap the rules refuse (a bid given already, tricks before the bids) is said in words, not a failure.
            response = host.post(url + path, data=form)
            assert response.status_code in (303, 422), (path, form, response.status_code)
        assert state_of(app, url).version > state.version, f"no tap moved the game on: {planned}"
    raise AssertionError("the game never ended")


def exported(host: FlaskClient, url: str) -> bytes:
    response = host.get(f"{url}/pad.json")
    assert response.status_code == 200
    return response.get_data()


@pytest.mark.parametrize("game", sorted(FORMATS))
def test_a_random_pad_imports_plays_to_its_end_exports_and_imports_again(app: Flask, game: str) -> None:
    pads, taps = FORMATS[game]

    @ROUND_TRIP
    @given(pads())
    def round_trip(doc: dict[str, Any]) -> None:
        host = app.test_client()
        url = import_as_host(host, doc)
        assert state_of(app, url).kind == game
        play_to_the_end(app, host, url, taps)
        first = exported(host, url)
        again = import_as_host(app.test_client(), json.loads(first))
        assert state_of(app, again).finished_at is not None
        assert exported(app.test_client(), again) == first

    round_trip()
