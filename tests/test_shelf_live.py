"""The screens of Skip-Bo, Dracula and the free pad are pushed: one shared table for all, each its own card."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.test_secrecy import first_events
from tests.test_shelf_views import shelf_table

GAMES = {
    "skip-bo": (("Anne", "Ben", "Cara"), {"target": "100"}),
    "dracula": (("Anne", "Ben"), {}),
    "free-pad": (("Anne", "Ben"), {"game": "Rummy"}),
}
# A save by Ben that leaves Anne's card as it is.
BENS_SAVE = {
    "skip-bo": [({"went_out": "0"}, "host"), ({"left": "4"}, "ben")],
    "dracula": [],
    "free-pad": [({"points-1": "7"}, "ben")],
}


def events_of(stream: str) -> dict[str, str]:
    """The data of each event of a stream's opening, by the event's name."""
    found = {}
    for block in stream.split("\n\n"):
        name = re.search(r"^event: (\w+)$", block, re.M)
        if name:
            found[name.group(1)] = "\n".join(line[6:] for line in block.splitlines() if line.startswith("data: "))
    return found


def shared_parts(page: str) -> str:
    """The shared table's parts as a page holds them: from `#table` to the card, and `#board`."""
    table = re.search(r'<div id="table".*?</div>(?=\s*<div id="card")', page, re.S)
    # The board closes the table's layout of the screen (`shelf_screen`), the live stream follows it.
    board = re.search(r'<div id="board">.*</div>(?=\s*</div>\s*<div class="live")', page, re.S)
    assert table and board, page
    return table.group(0) + board.group(0)


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_screen_gets_the_same_table_and_its_own_card(kind: str, client: FlaskClient, app: Flask) -> None:
    names, form = GAMES[kind]
    url, phones = shelf_table(client, app, kind, names, **form)
    parties = {"host": client, "anne": phones["Anne"], "ben": phones["Ben"], "viewer": app.test_client()}
    keys_before: dict[str, str] = {}
    for change, who in [({}, None), *BENS_SAVE[kind]]:
        if who:
            assert parties[who].post(f"{url}/play", data={**change, "play": "1"}).status_code == 303
        opened = {name: events_of(first_events(party, f"{url}/events")) for name, party in parties.items()}
        tables = {name: events["table"] for name, events in opened.items()}
        # The same bytes for every screen, and the same the page shows.
        assert len(set(tables.values())) == 1, kind
        page = parties["viewer"].get(url).get_data(as_text=True)
        assert tables["viewer"].count(' hx-swap-oob="morph"') == 2
        assert shared_parts(page).replace("\n", "") == tables["viewer"].replace(' hx-swap-oob="morph"', "").replace("\n", "")
        # Nobody's name as "You are …" and no form on the shared table: those are the own cards'.
        assert "You are" not in tables["host"] and "<form" not in tables["host"]
        assert "You are Anne" in opened["anne"]["card"] and "You are Ben" in opened["ben"]["card"]
        keys = {name: re.search(r'data-key="([^"]+)"', events["card"]).group(1) for name, events in opened.items()}
        if who == "ben":
            # Ben's save changed nothing on Anne's card: her stream does not send it again.
            assert keys["anne"] == keys_before["anne"]
        keys_before = keys
