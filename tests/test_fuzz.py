"""Random and malformed input to every form, route parameter and the import: no 5xx, a clear word, nothing half-stored."""

from __future__ import annotations

import html
import json

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from scorekeeper.extensions import db
from tests.conftest import make_app

FIELDS = ["ruleset", "player", "first_dealer", "scoring", "cannonball", "rounds", "advanced_cards", "rascal_wagers",
          "seat", "bid", "cards", "intent", "lost_tricks", "code", "language", "next", "ask", "after", "teams",
          "stock", "target", "queen", "went_out", "left"] + [f"cell-{i}" for i in range(-1, 10)] + [
    f"{kind}-{seat}" for seat in (0, 1, 2, 9, -1)
    for kind in ("bid", "tricks", "pirates_by_skull_king", "skull_king_by_mermaid", "mermaids_by_pirate",
                 "standard_fourteens", "black_fourteen", "loot", "wager", "shot", "harry")]
VALUES = st.one_of(
    st.text(max_size=30),
    st.integers(min_value=-10**30, max_value=10**30).map(str),
    st.sampled_from(["", "0", "1", "-1", "3", "99", "1.5", "1e9", "NaN", "on", "off", "draft", "score", "done",
                     "made", "trick", "correct", "cannonball", "grapeshot", "+1", "-1", "modern", "classic",
                     "rascal", "whirlpool", " 2 ", "٣", "²", "\x00", "<script>", "A" * 500, "QS", "10h", "V",
                     "5H", "♠", "skip-bo"]),
)
FORMS = st.dictionaries(st.one_of(st.sampled_from(FIELDS), st.text(max_size=12)),
                        st.one_of(VALUES, st.lists(VALUES, max_size=4)), max_size=12)


def snapshot(app: Flask) -> dict[str, list]:
    """Every stored row but the join attempts, which a refused guess is meant to leave behind."""
    with app.app_context():
        return {table: sorted(map(repr, db.session.execute(text(f"SELECT * FROM {table}")).all()))
                for table in ("game", "seat", "play", "secret_entry", "seat_request", "event")}


def says_why(response) -> bool:
    """Whether a refusal carries a message for a person."""
    body = html.unescape(response.get_data(as_text=True))
    if response.is_json:
        return bool(response.json.get("problems"))
    return ('role="alert"' in body and "<li>" in body) or "Sorry" in body or 'class="problems" role="alert"><p' in body


@pytest.fixture
def table(database_url: str):
    """A game in play with a host and one seated phone, and one still being bid."""
    app = make_app(database_url)
    host, phone = app.test_client(), app.test_client()
    playing = host.post("/games/new", data={"ruleset": "modern", "player": ["Anne", "Ben", "Cara"],
                                            "advanced_cards": "on", "rascal_wagers": "on"}).headers["Location"]
    host.post(f"{playing}/hands/1/cards", data={"cards": 4})
    phone.post(f"{playing}/join", data={"seat": 1})
    for seat in range(3):
        host.post(f"{playing}/hands/1/bid", data={"seat": seat, "bid": 1})
    bidding = host.post("/games/new", data={"ruleset": "classic", "player": ["Dan", "Eve"]}).headers["Location"]
    skipbo = host.post("/games/new/skip-bo", data={"player": ["Anne", "Ben", "Cara"]}).headers["Location"]
    phone.post(f"{skipbo}/join", data={"seat": 1})
    host.post(f"{skipbo}/play", data={"went_out": "0"})
    dracula = host.post("/games/new/dracula", data={"player": ["Anne", "Ben"]}).headers["Location"]
    return app, {"host": host, "phone": phone, "stranger": app.test_client()}, playing, bidding, skipbo, dracula


def post_paths(*games: str) -> list[str]:
    """Every route that changes state, for every game."""
    paths = ["/games/new", "/join", "/language", "/games/import", "/games/new/skip-bo", "/games/new/dracula"]
    for game in games:
        paths += [f"{game}/join", f"{game}/hands/1/bid", f"{game}/hands/1/cards", f"{game}/hands/1",
                  f"{game}/seats/0/free", f"{game}/seats/0/let-in", f"{game}/seats/0/turn-away", f"{game}/rematch",
                  f"{game}/play", f"{game}/delete", f"{game}/restore"]
    return paths


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(data=st.data())
def test_random_forms_are_refused_in_words_and_store_nothing(table, data: st.DataObject) -> None:
    app, clients, *games = table
    who = data.draw(st.sampled_from(sorted(clients)))
    path = data.draw(st.sampled_from(post_paths(*games)))
    form = data.draw(FORMS)
    htmx = data.draw(st.booleans())
    before = snapshot(app)
    response = clients[who].post(path, data=form, headers={"HX-Request": "true"} if htmx else {})
    assert response.status_code < 500, response.get_data(as_text=True)[:2000]
    if response.status_code >= 400:
        assert says_why(response), (path, form, response.get_data(as_text=True)[:2000])
        assert snapshot(app) == before


ROUTE_PARTS = st.one_of(st.text(min_size=1, max_size=40).filter(lambda s: "/" not in s and s not in (".", "..")),
                        st.integers(-5, 10**20).map(str))


@SETTINGS
@given(game=ROUTE_PARTS, number=ROUTE_PARTS, tail=st.sampled_from(
    ["", "/pad", "/pad.json", "/pad.csv", "/end", "/screen", "/join", "/events", "/hands/{n}", "/hands/{n}/bid",
     "/host/{n}", "/seats/{n}/free", "/seats/{n}/let-in", "/play", "/play.bgsplay", "/delete", "/restore",
     "/crews/{n}"]))
def test_random_route_parameters_never_break(table, game: str, number: str, tail: str) -> None:
    app, clients, playing, *_ = table
    from urllib.parse import quote

    for base in (f"/games/{quote(game, safe='')}", playing):
        path = base + tail.replace("{n}", quote(number, safe=""))
        for method in ("get", "post"):
            response = getattr(clients["host"], method)(path, buffered=False)
            status = response.status_code
            response.close()
            assert status < 500, (method, path)


JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20)),
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(st.text(max_size=12), children, max_size=5)),
    max_leaves=25,
)


def mutated_pad(example: dict) -> st.SearchStrategy:
    """The example pad with one value somewhere replaced by anything."""

    @st.composite
    def build(draw: st.DrawFn) -> dict:
        doc = json.loads(json.dumps(example))
        node = doc
        for _ in range(draw(st.integers(0, 4))):
            keys = list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
            if not keys:
                break
            key = draw(st.sampled_from(keys))
            if not isinstance(node[key], (dict, list)) or draw(st.booleans()):
                node[key] = draw(JSON_VALUES)
                break
            node = node[key]
        return doc

    return build()


@SETTINGS
@given(data=st.data())
def test_any_json_to_the_import_is_answered_in_words(table, example_pad: dict, data: st.DataObject) -> None:
    app, clients, *_ = table
    doc = data.draw(st.one_of(JSON_VALUES, mutated_pad(example_pad)))
    before = snapshot(app)
    response = clients["stranger"].post("/games/import", data=json.dumps(doc), content_type="application/json")
    assert response.status_code in (201, 422), response.get_data(as_text=True)[:1000]
    if response.status_code == 422:
        assert response.json["problems"] and all(isinstance(p, str) and p for p in response.json["problems"])
        assert snapshot(app) == before
