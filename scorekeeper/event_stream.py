"""A live stream compressed with gzip as it goes, where an event every screen is sent alike is compressed once.

Each event is its own run of deflate blocks ending on a byte boundary (a sync flush), so the
blocks of any events can follow each other in one valid gzip stream; the stream keeps the
checksum and length of what it sent for the gzip trailer. An event may refer back to what the
screen received just before it (a preset dictionary): the own card to the last few kilobytes
of the stream, a shared event only to what followed the last shared event. Every screen whose
last shared event was the same table (and that was sent nothing of its own since) therefore
gets the very same bytes for the next one, compressed once per process.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Protocol

# The gzip header: deflate, no name, no time, unknown system.
HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
# An empty final block: what ends the deflate data before the trailer.
LAST_BLOCK = b"\x03\x00"
# A small window and memory level: thousands of streams stay open, each keeping this much of its tail.
WINDOW_BITS = 13
WINDOW = 1 << WINDOW_BITS
LEVEL, MEMORY_LEVEL = 6, 5


@dataclass(frozen=True, slots=True)
class SharedEvent:
    """An event every screen of one kind is sent alike (`key` names it: screen, game, edition, language)."""

    key: Hashable
    text: str


# What a stream yields: an event, or the events of one wake sent together (one chunk, one write to the socket).
Item = str | SharedEvent | tuple[str | SharedEvent, ...]


def events_of(item: Item) -> tuple[str | SharedEvent, ...]:
    """The events a stream's item holds, in order."""
    return item if isinstance(item, tuple) else (item,)


class Kept(Protocol):
    """Where a process keeps compressed shared events (a `games.VersionCache`)."""

    def kept_or_made(self, key: Hashable, make: Callable[[], bytes]) -> bytes: ...


def deflated(data: bytes, before: bytes) -> bytes:
    """`data` as deflate blocks ending on a byte boundary, referring back into `before` (what precedes it)."""
    if before:
        compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -WINDOW_BITS, MEMORY_LEVEL, zlib.Z_DEFAULT_STRATEGY,
                                      before[-WINDOW:])
    else:
        compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -WINDOW_BITS, MEMORY_LEVEL)
    return compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)


def gzipped(events: Iterable[Item], kept: Kept) -> Iterator[bytes]:
    """The stream of `events`, gzip-compressed as each leaves (the events of one wake in one chunk); shared events'
    bytes come from `kept` when they can."""
    head = HEADER  # sent with the first event, so that every chunk reads as whole events
    checksum, length = 0, 0
    tail = b""  # the last WINDOW bytes sent
    since_shared: bytes | None = None  # everything since the last shared event began, while within a window
    for item in events:
        blocks = [head]
        for event in events_of(item):
            if isinstance(event, SharedEvent):
                data = event.text.encode()
                before = since_shared or b""
                key = (event.key, before)
                block = kept.kept_or_made(key, partial(deflated, data, before))
                since_shared = data
            else:
                data = event.encode()
                block = deflated(data, tail)
                if since_shared is not None:
                    since_shared = since_shared + data if len(since_shared) + len(data) <= WINDOW else None
            checksum = zlib.crc32(data, checksum)
            length += len(data)
            tail = (tail + data)[-WINDOW:]
            blocks.append(block)
        yield b"".join(blocks)
        head = b""
    yield head + LAST_BLOCK + struct.pack("<II", checksum, length & 0xFFFFFFFF)


def plain(events: Iterable[Item]) -> Iterator[str]:
    """The stream as it is, for a browser that takes no gzip."""
    for item in events:
        yield "".join(event.text if isinstance(event, SharedEvent) else event for event in events_of(item))
