"""The live stream's gzip: valid as a whole and as it goes, and a shared event compressed once for every screen."""

from __future__ import annotations

import gzip
import zlib

import pytest

from scorekeeper.event_stream import SharedEvent, gzipped, plain
from scorekeeper.games import VersionCache
from scorekeeper.views.table import event


def table(edition: int) -> SharedEvent:
    """A shared table that changes a little from one edition to the next, as a real one does."""
    rows = "".join(f"<tr><td>Player {n}</td><td>{n * edition}</td></tr>" for n in range(6))
    return SharedEvent(("hand", 1, edition), f"id: {edition}\nevent: table\ndata: <table>{rows}</table>\n\n")


def card(name: str, edition: int) -> str:
    return f"event: card\ndata: <div id=\"card\">{name}'s card at {edition}</div>\n\n"


def test_the_stream_is_one_valid_gzip_of_every_event_in_order() -> None:
    events = ["retry: 1000\n\n", table(1), card("Anne", 1), table(2), ": still here\n\n", table(3), card("Anne", 3)]
    body = b"".join(gzipped(events, VersionCache()))
    # gzip checks the trailer's checksum and length too.
    assert gzip.decompress(body).decode() == "".join(plain(events))


def test_each_event_can_be_read_as_soon_as_it_arrives() -> None:
    events = [table(1), card("Anne", 1), table(2)]
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    for item, block in zip(events, gzipped(events, VersionCache()), strict=False):
        assert inflate.decompress(block).decode() == next(plain([item]))


def test_screens_with_the_same_last_table_get_the_same_bytes_for_the_next_compressed_once() -> None:
    counting = VersionCache()
    phones = [list(gzipped(["retry: 1000\n\n", table(1), table(2)], counting)) for _ in range(6)]
    # A seventh screen was sent its own card after the first table: its next table refers to that card.
    host = list(gzipped(["retry: 1000\n\n", table(1), card("Host", 1), table(2)], counting))
    assert all(phone == phones[0] for phone in phones)
    assert host[1] == phones[0][1]
    assert host[-2] != phones[0][-2]
    # Table 1 once (nothing before it), table 2 once after table 1, once after the host's card.
    assert counting.made == 3 and len(counting.items) == 3
    # And each stream still reads as what it was sent.
    assert gzip.decompress(b"".join(host)).decode().endswith(table(2).text)


def test_the_next_table_refers_back_to_the_last_so_it_costs_little() -> None:
    alone = len(b"".join(gzipped([table(2)], VersionCache())))
    after = list(gzipped([table(1), table(2)], VersionCache()))
    assert len(after[1]) < alone / 2


def test_the_events_of_one_wake_leave_as_one_chunk_and_read_as_if_sent_apart() -> None:
    """A wake that changed the shared table and the screen's own card sends both in one chunk (one write to the
    socket); the stream reads the same, and the table's bytes are still the ones every other screen gets."""
    apart = list(gzipped(["retry: 1000\n\n", table(1), card("Anne", 1), table(2)], VersionCache()))
    kept = VersionCache()
    together = list(gzipped(["retry: 1000\n\n", (table(1), card("Anne", 1)), (table(2),)], kept))
    assert len(together) == len(apart) - 1
    assert together[1].startswith(apart[1]) and together[1] == apart[1] + apart[2]
    assert gzip.decompress(b"".join(together)) == gzip.decompress(b"".join(apart))
    assert "".join(plain([(table(1), card("Anne", 1))])) == table(1).text + card("Anne", 1)


def read_as_a_browser(text: str) -> list[tuple[str, str]]:
    """The (event, data) pairs an EventSource makes of `text`, by the event stream format's own rules: a line ends
    at CRLF, CR or LF; a blank line ends an event; its `data:` lines are joined with LF."""
    events, name, data = [], "message", []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if not line:
            if data:
                events.append((name, "\n".join(data)))
            name, data = "message", []
        elif line.startswith("event: "):
            name = line[len("event: "):]
        elif line.startswith("data: "):
            data.append(line[len("data: "):])
    return events


@pytest.mark.parametrize("html", ['<div id="card">\n  <p>Anne</p>\n</div>\n', "<p>one line</p>", "",
                                  "<p>a</p>\r\n<p>b</p>\r<p>c</p>\n\n<p>after a blank line</p>"])
def test_an_event_carries_its_part_line_by_line_as_the_browser_reads_it_back(html: str) -> None:
    sent = event("card", html, 7)
    assert sent.startswith("id: 7\nevent: card\n") and sent.endswith("\n\n")
    # Every line of the part arrives (line ends as LF, the last one left off as the browser leaves it off).
    expected = html.replace("\r\n", "\n").replace("\r", "\n").removesuffix("\n").replace(
        '<div id="card"', '<div id="card" hx-swap-oob="morph"')
    assert read_as_a_browser(sent) == [("card", expected)]
