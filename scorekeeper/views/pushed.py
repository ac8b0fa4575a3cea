"""What the live stream pushes of each page: a page's shared part and each browser's own card, registered per app
by the table and by each kind's `init_app`."""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, current_app, g, request

from .. import games
from ..access import Actor
from ..host_cache import HOST_CACHE, HostCache


def card_fingerprint(parts: object) -> str:
    """A card key: a short fingerprint of what a browser's own card shows (`parts`, values with a stable repr)."""
    return hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()


@dataclass(frozen=True)
class PushedPage:
    """A page whose stream pushes its shared part (`#table`, rendered once per edition and language), if it has
    one, and its own card, if it has one (its key, and its html drawn with that key when the key changed; None:
    no card to show). A game's own screen is drawn by `show` too (from the game as read for the request, with a
    status, the problems of a refused change, and what else its forms pass on)."""

    shared: Callable[[games.GameState], str] | None
    card_key: Callable[[games.GameState, Actor], str] | None = None
    card: Callable[[games.GameState, Actor, str], str | None] | None = None
    show: Callable[..., Any] | None = None


# The view of a game's own screen (its stream names no other).
GAME = "game"


# --- the screen a tap came from -------------------------------------------------------------------------------
#
# A browser's tap is answered with the game as its change left it, and that screen's own stream would push the
# same edition straight after: the shared table and its card again, drawn, compressed and sent for nothing (the
# page drops what it shows already). So each page loaded whole names its screen (a random id, in the frame's htmx
# headers and in its stream's address); a change notes, before it draws its answer, the edition it answers that
# screen with (in its process, and for the server's other processes in the host cache); the screen's stream,
# about to send that edition, sends nothing. It only ever leaves out what the screen is shown anyway: another tab
# of the same player has a screen of its own, and is sent everything.

SCREEN_ID = re.compile(r"[A-Za-z0-9_-]{8,32}")


def screen_id() -> str:
    """This page's screen: the one its htmx requests name, else a new one for a page loaded whole."""
    sent = request.headers.get("X-Screen", "")
    if SCREEN_ID.fullmatch(sent):
        return sent
    if "screen_id" not in g:
        g.screen_id = secrets.token_urlsafe(9)
    return str(g.screen_id)


def note_answered(game_id: int, edition: int) -> None:
    """The screen this request came from is answered with the game's screen at `edition`."""
    sent = request.headers.get("X-Screen", "")
    if not SCREEN_ID.fullmatch(sent):
        return
    key = ("answered", game_id, sent)
    games.cache("answered screens").put(key, edition)
    host: HostCache | None = current_app.extensions.get(HOST_CACHE)
    if host is not None:
        host.put_value(key, edition)


def answered_edition(game_id: int, screen: str | None, on_host: bool = False) -> int | None:
    """The edition of the game's screen a change's answer last showed `screen`, as this process knows it, or,
    `on_host`, as the server's processes together do (the screen's taps may be answered by any of them)."""
    if not screen:
        return None
    key = ("answered", game_id, screen)
    host: HostCache | None = current_app.extensions.get(HOST_CACHE) if on_host else None
    return host.get_value(key) if host is not None else games.cache("answered screens").get(key)


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
