"""The live table: one shared table for everyone, pushed as it changes; each phone's own card left alone."""

from __future__ import annotations

import queue
import re
import threading
import time
from dataclasses import dataclass

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import games
from tests.conftest import make_app


@dataclass
class Event:
    """One server-sent event."""

    kind: str
    data: str
    id: str | None


class Stream:
    """A screen's live stream, read in the background, so a test can wait for the next event or none."""

    def __init__(self, client: FlaskClient, path: str, **headers: str) -> None:
        self.events: queue.Queue[Event] = queue.Queue()
        self.opened = threading.Event()
        self.closing = False
        # Opened and read in one thread: the stream keeps its request context in the thread it began in.
        self.reader = threading.Thread(target=self.read, args=(client, path, headers), daemon=True,
                                       name="stream-reader")
        self.reader.start()
        assert self.opened.wait(5) and self.response.status_code == 200

    def read(self, client: FlaskClient, path: str, headers: dict[str, str]) -> None:
        self.response = client.get(path, headers=headers, buffered=False)
        self.opened.set()
        buffer = ""
        try:
            for chunk in self.response.response:
                buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
                while "\n\n" in buffer:
                    block, buffer = buffer.split("\n\n", 1)
                    fields: dict[str, list[str]] = {}
                    for line in block.splitlines():
                        name, _, value = line.partition(": ")
                        fields.setdefault(name, []).append(value)
                    if "event" in fields:
                        self.events.put(Event(fields["event"][0], "\n".join(fields.get("data", [])),
                                              (fields.get("id") or [None])[0]))
                if self.closing:
                    break
        finally:
            self.response.close()

    def next(self, timeout: float = 5) -> Event:
        """The next event; fails the test if none comes in time."""
        return self.events.get(timeout=timeout)

    def nothing_within(self, seconds: float) -> bool:
        """Whether no event came in `seconds`."""
        try:
            event = self.events.get(timeout=seconds)
        except queue.Empty:
            return True
        self.events.put(event)
        return False

    def close(self) -> None:
        """Stop reading at the next event or keep-alive."""
        self.closing = True


@pytest.fixture
def table(database_url: str):
    """A game of three: Anne and Ben on phones, Cara without one; the host, a viewer."""
    app = make_app(database_url, REVEAL_COUNT_SECONDS=600)
    host, anne, ben, viewer = (app.test_client() for _ in range(4))
    created = host.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben", "Cara"]})
    url = created.headers["Location"]
    host.post(f"{url}/hands/1/cards", data={"cards": 9})
    assert anne.post(f"{url}/join", data={"seat": 0}).status_code == 303
    assert ben.post(f"{url}/join", data={"seat": 1}).status_code == 303
    yield app, url, {"host": host, "anne": anne, "ben": ben, "viewer": viewer}
    end_streams(app)


def end_streams(app: Flask) -> None:
    """End the app's open streams, so no reader outlives the test (and its database)."""
    app.extensions["live_watcher"].stop()
    for thread in threading.enumerate():
        if thread.name.startswith("stream-reader"):
            thread.join(timeout=5)


HEAD = re.compile(r'<div id="hand".*?(?=<div id="card")', re.S)
# (the page's two columns close after the board)
TABLE_AND_BOARD = re.compile(r'<div id="table".*?(?=</div></div>\s*<div class="live")', re.S)
# What the stream adds to each part: replace the element of its id wherever it is (htmx's out-of-band swap).
SWAP_MARK = ' hx-swap-oob="morph"'


def shared_part(page: str) -> str:
    """The shared table as a page carries it: the hand's facts above the card, the players and board below."""
    return "".join(pattern.search(page).group(0) for pattern in (HEAD, TABLE_AND_BOARD))


def edition_of(app: Flask, url: str) -> int:
    with app.app_context():
        return games.load(url.rsplit("/", 1)[-1]).edition


def test_the_shared_table_is_the_same_bytes_for_everyone_and_holds_no_hidden_bid(table) -> None:
    app, url, clients = table
    clients["anne"].post(f"{url}/hands/1/bid", data={"bid": 7})
    tables = {}
    for name, client in clients.items():
        stream = Stream(client, f"{url}/events")
        first = stream.next()
        assert first.kind == "table" and first.id == str(edition_of(app, url))
        tables[name] = first.data
        # The page carries the very same bytes, each of the three parts marked to take its place by its id.
        page = client.get(url).get_data(as_text=True)
        assert first.data.count(SWAP_MARK) == 3
        assert re.sub(r"\s+", "", shared_part(page)) == re.sub(r"\s+", "", first.data.replace(SWAP_MARK, "")), name
        stream.close()
    assert len(set(tables.values())) == 1
    shared = tables["host"]
    assert "ready" in shared and ">7<" not in shared and "bid 7" not in shared
    # Anne's own card is Anne's alone: her bid shows there, and only there.
    anne_card = Stream(clients["anne"], f"{url}/events?card=old")
    assert anne_card.next().kind == "table"
    card = anne_card.next()
    assert card.kind == "card" and "Your bid is 7" in card.data
    anne_card.close()
    for name in ("host", "ben", "viewer"):
        stream = Stream(clients[name], f"{url}/events?card=old")
        stream.next()
        assert "Your bid is 7" not in stream.next().data, name
        stream.close()


def test_another_players_change_never_redraws_my_card(table) -> None:
    app, url, clients = table
    anne = Stream(clients["anne"], f"{url}/events")
    assert anne.next().kind == "table"
    own = anne.next()
    assert own.kind == "card"
    key = re.search(r'data-key="([^"]+)"', own.data).group(1)
    # Ben bids: Anne's screen gets the new table, and nothing else.
    clients["ben"].post(f"{url}/hands/1/bid", data={"bid": 2})
    pushed = anne.next()
    assert pushed.kind == "table" and "1 of 3 players ready" in pushed.data
    assert anne.nothing_within(0.5)
    # Anne's page agrees: the card she has is the one the stream knows.
    assert f'data-key="{key}"' in clients["anne"].get(url).get_data(as_text=True)
    # Her own bid redraws her card (her own change).
    clients["anne"].post(f"{url}/hands/1/bid", data={"bid": 4})
    assert anne.next().kind == "table"
    card = anne.next()
    assert card.kind == "card" and "Your bid is 4" in card.data
    anne.close()


def test_a_screen_that_was_offline_catches_up_to_the_newest_edition(table) -> None:
    app, url, clients = table
    before = edition_of(app, url)
    clients["host"].post(f"{url}/hands/1/cards", data={"cards": 8})
    clients["anne"].post(f"{url}/hands/1/bid", data={"bid": 1})
    clients["ben"].post(f"{url}/hands/1/bid", data={"bid": 2})
    newest = edition_of(app, url)
    assert newest > before
    # The browser reconnects saying the last edition it had: it gets the newest at once, in one event.
    viewer = Stream(clients["viewer"], f"{url}/events", **{"Last-Event-ID": str(before)})
    caught_up = viewer.next()
    assert caught_up.kind == "table" and caught_up.id == str(newest)
    assert "2 of 3 players ready" in caught_up.data and "Cards</dt><dd class=\"big\">8" in caught_up.data
    viewer.close()
    # A screen that is up to date is sent nothing until something changes.
    current = Stream(clients["viewer"], f"{url}/events?card=x", **{"Last-Event-ID": str(newest)})
    first = current.next()
    assert first.kind == "card"  # the viewer's card, since it said it had another one
    assert current.nothing_within(0.3)
    clients["host"].post(f"{url}/hands/1/bid", data={"seat": 2, "bid": 0})
    assert current.next().id == str(edition_of(app, url))
    current.close()


def test_the_bids_are_pushed_the_moment_the_count_ends_without_any_write(database_url: str) -> None:
    app = make_app(database_url, REVEAL_COUNT_SECONDS=0.4)
    host, anne = app.test_client(), app.test_client()
    url = host.post("/games/new", data={"ruleset": "classic", "player": ["Anne", "Ben"]}).headers["Location"]
    anne.post(f"{url}/join", data={"seat": 0})
    anne.post(f"{url}/hands/1/bid", data={"bid": 1})
    stream = Stream(anne, f"{url}/events")
    stream.next(), stream.next()  # the table, her card
    host.post(f"{url}/hands/1/bid", data={"seat": 1, "bid": 0})
    counting = stream.next()
    assert counting.kind == "table" and "data-reveal-at" in counting.data
    # The moment the count ends, as the server said it (ms since the epoch; the same machine's clock as here).
    reveal_at = int(re.search(r'data-reveal-at="(\d+)"', counting.data).group(1)) / 1000  # type: ignore[union-attr]
    assert "Your bid is 1." in stream.next().data  # her card while the count runs
    with app.app_context():
        version = games.load(url.rsplit("/", 1)[-1]).version
    revealed = stream.next(timeout=3)
    arrived = time.time()
    assert revealed.kind == "table" and int(revealed.id) == int(counting.id) + 1
    assert 'aria-label="bid 1"' in revealed.data and 'aria-label="bid 0"' in revealed.data
    # Never before the count ends (the bids are secret until then), and at its end, not at some later write.
    assert arrived >= reveal_at - 0.05, (arrived, reveal_at)
    assert arrived < reveal_at + 2.5, (arrived, reveal_at)
    card = stream.next()
    assert card.kind == "card" and "Tricks won" in card.data
    with app.app_context():
        assert games.load(url.rsplit("/", 1)[-1]).version == version  # nothing was written
    stream.close()
    end_streams(app)


def test_the_join_page_is_pushed_the_way_in_when_the_host_lets_the_phone_in(table) -> None:
    """The waiting phone's own card, pushed when the host answers: no page fetch of its own."""
    from tests.test_seats import code_of, let_in_buttons

    app, url, clients = table
    new_phone = app.test_client()
    assert new_phone.post(f"{url}/join", data={"ask": "0"}).status_code == 303
    page = new_phone.get(f"{url}/join").get_data(as_text=True)
    key = re.search(r'<div id="card" data-key="([^"]+)"', page).group(1)
    stream = Stream(new_phone, f"{url}/events?view=join&edition={edition_of(app, url)}&card={key}")
    assert stream.nothing_within(0.3), "a waiting page with nothing new is sent nothing"
    # Another phone's bid is no news to the join page; the host's answer is.
    assert clients["ben"].post(f"{url}/hands/1/bid", data={"bid": 1}).status_code == 303
    assert stream.nothing_within(0.3)
    assert clients["host"].post(let_in_buttons(clients["host"], url)[code_of(new_phone, url)]).status_code == 303
    pushed = stream.next()
    assert pushed.kind == "card" and 'hx-swap-oob="morph"' in pushed.data
    assert "data-follow" in pushed.data and f'href="{url.split("localhost")[-1]}"' in pushed.data
    stream.close()


def test_the_end_page_is_pushed_the_way_to_the_next_game(table) -> None:
    """A phone left on the end page is sent the link to the rematch the host started, and follows it."""
    app, url, clients = table
    with app.app_context():
        public_id = url.rsplit("/", 1)[-1]
        from scorekeeper import service
        from scorekeeper.access import Credentials
    with clients["host"].session_transaction() as session:
        host_key = session["hosting"][public_id]
    stream = Stream(clients["anne"], f"{url}/events?view=end&edition={edition_of(app, url)}")
    assert stream.nothing_within(0.3)
    with app.app_context():
        service.rematch(public_id, Credentials(host_key=host_key))
    pushed = stream.next()
    assert pushed.kind == "table" and "data-follow" in pushed.data and "Go on to the next game" in pushed.data
    assert f'href="{url.split("localhost")[-1]}/end?follow=1"' in pushed.data
    stream.close()


def test_a_stream_of_no_page_is_refused(table) -> None:
    app, url, clients = table
    assert clients["viewer"].get(f"{url}/events?view=pad").status_code == 404


def test_a_tap_s_own_screen_is_not_sent_again_what_its_answer_showed(table) -> None:
    """The answer to Anne's tap shows her screen the new edition and her card: that screen's stream sends neither
    again. Her other tab is another screen and is sent both; Ben's bid after it reaches both screens."""
    app, url, clients = table
    anne = clients["anne"]
    page = anne.get(url).get_data(as_text=True)
    screen = re.search(r'"X-Screen": "([^"]+)"', page).group(1)  # type: ignore[union-attr]
    assert f"screen={screen}" in page, "the page's stream names its screen"
    # A page loaded whole is another screen; a page htmx fetches into it stays the tab's.
    assert screen not in anne.get(url).get_data(as_text=True)
    htmx = {"HX-Request": "true", "X-Screen": screen}
    assert f"screen={screen}" in anne.get(url, headers=htmx).get_data(as_text=True)
    before = edition_of(app, url)
    answer = anne.post(f"{url}/hands/1/bid", data={"bid": 3}, headers=htmx)
    assert answer.status_code == 200 and "Your bid is 3" in answer.get_data(as_text=True)
    # Both screens say they have what the page showed before the tap (as a stream that opens again does).
    own = Stream(anne, f"{url}/events?edition={before}&card=before&screen={screen}")
    other = Stream(anne, f"{url}/events?edition={before}&card=before&screen=anothertab")
    assert other.next().kind == "table"
    assert "Your bid is 3" in other.next().data
    assert own.nothing_within(0.5)
    clients["ben"].post(f"{url}/hands/1/bid", data={"bid": 1})
    for stream in (own, other):
        pushed = stream.next()
        assert pushed.kind == "table" and "2 of 3 players ready" in pushed.data
    assert own.nothing_within(0.3), "Ben's bid leaves Anne's card as it is"
    own.close()
    other.close()


def test_a_screen_id_that_is_not_one_is_ignored(table) -> None:
    """A request naming a screen in some other form gets a page with a screen of its own, and is answered."""
    app, url, clients = table
    for sent in ('"><script>', "short", "x" * 40):
        page = clients["anne"].get(url, headers={"HX-Request": "true", "X-Screen": sent}).get_data(as_text=True)
        screen = re.search(r"screen=([A-Za-z0-9_-]+)", page).group(1)  # type: ignore[union-attr]
        assert screen != sent and "<script>" not in page
        answer = clients["anne"].post(f"{url}/hands/1/bid", data={"bid": 2},
                                      headers={"HX-Request": "true", "X-Screen": sent})
        assert answer.status_code == 200


def test_a_client_s_streams_and_a_game_s_are_bounded_the_oldest_closed(app: Flask, client: FlaskClient,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """One address opening stream after stream keeps at most its bound open (the oldest closed, not another
    address's); a game's streams from many addresses likewise."""
    from scorekeeper import live
    from tests.helpers import new_game

    watcher = app.extensions[live.WATCHER]
    monkeypatch.setattr(watcher, "per_address", 3)
    monkeypatch.setattr(watcher, "per_game", 5)
    url = new_game(client, ["Anne", "Ben"])
    other = new_game(client, ["Cara", "Dan"])
    ended: dict[str, threading.Event] = {}

    def follow(name: str, path: str, address: str) -> None:
        ended[name] = threading.Event()
        opened = threading.Event()

        def read() -> None:
            response = app.test_client().get(f"{path}/events", buffered=False,
                                             environ_base={"REMOTE_ADDR": address})
            opened.set()
            try:
                for _ in response.response:
                    pass
            finally:
                response.close()
                ended[name].set()

        threading.Thread(target=read, daemon=True).start()
        assert opened.wait(5)
        time.sleep(0.2)  # counted, in the order opened

    follow("neighbour", other, "10.0.0.2")
    for n in range(4):
        follow(f"flood {n}", other, "10.0.0.1")
    assert ended["flood 0"].wait(5)
    assert not any(ended[name].is_set() for name in ("neighbour", "flood 1", "flood 2", "flood 3"))
    # Six screens of one game, each from its own address: the oldest of the game closes.
    for n in range(6):
        follow(f"screen {n}", url, f"10.0.1.{n}")
    assert ended["screen 0"].wait(5)
    assert not any(ended[f"screen {n}"].is_set() for n in range(1, 6))
    watcher.stop()
