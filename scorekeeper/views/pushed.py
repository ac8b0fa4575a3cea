"""What the live stream pushes of each page: a page's shared part and each browser's own card, registered per app
by the table and by each kind's `init_app`."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from flask import Flask, current_app
from werkzeug.wrappers import Response

from .. import games
from ..access import Actor


def card_fingerprint(parts: object) -> str:
    """A card key: a short fingerprint of what a browser's own card shows (`parts`, values with a stable repr)."""
    return hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()


def host_card_parts(state: games.GameState) -> tuple[object, ...]:
    """What every game's host card shows of the table (`_macros.phones_panel`, the requests for a seat): which seats
    a phone plays, the phones asking for one, whether the table is locked and watchers are welcome."""
    return (tuple(s.has_phone for s in state.seats), tuple((r.id, r.position, r.code) for r in state.open_requests),
            state.locked, state.watchers)


@dataclass(frozen=True)
class PushedPage:
    """A page whose stream pushes its shared part (`#table`, rendered once per edition and language), if it has
    one, and its own card, if it has one (its key, and its html drawn with that key when the key changed; None:
    no card to show). A game's own screen is drawn by `show` too (from the game as read for the request, with a
    status, the problems of a refused change, and what else its forms pass on)."""

    shared: Callable[[games.GameState], str] | None
    card_key: Callable[[games.GameState, Actor], str] | None = None
    card: Callable[[games.GameState, Actor, str], str | None] | None = None
    show: Callable[..., Response] | None = None


# The view of a game's own screen (its stream names no other).
GAME = "game"


@dataclass
class Pages:
    """The pages of one app, one registry: by the kind of the game shown and the view ("game", its own screen;
    "scorepad", "end", "screen", "join"), a kind's own page, else the table's, which every game has. A kind's
    pages cannot collide with another's: each is looked up under the kind of the game being followed."""

    of_kinds: dict[tuple[str, str], PushedPage] = field(default_factory=dict)
    table: dict[str, PushedPage] = field(default_factory=dict)

    def add(self, kind: str, view: str, page: PushedPage) -> None:
        """A page of a kind of its own: its game screen, score pad, end, big screen's content."""
        self.of_kinds[(kind, view)] = page

    def pushed(self, kind: str, view: str) -> PushedPage | None:
        """The page `view` of a game of `kind`: the kind's own, else the table's, else None."""
        return self.of_kinds.get((kind, view)) or self.table.get(view)


EXTENSION = "scorekeeper.pages"


def pages_of(app: Flask) -> Pages:
    """The pushed pages of `app` (made on first use)."""
    found: Pages = app.extensions.setdefault(EXTENSION, Pages())
    return found


def pages() -> Pages:
    """The pushed pages of the current app."""
    return pages_of(current_app)
