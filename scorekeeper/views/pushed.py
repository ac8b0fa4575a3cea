"""What the live stream pushes of each page: a page's shared part and each browser's own card, registered per app
by the table and by each kind's `init_app`."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, current_app

from .. import games
from ..access import Actor


def card_fingerprint(parts: object) -> str:
    """A card key: a short fingerprint of what a browser's own card shows (`parts`, values with a stable repr)."""
    return hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()


@dataclass(frozen=True)
class PushedPage:
    """A page whose stream pushes its shared part (`#table`, rendered once per edition and language), if it has
    one, and its own card, if it has one (its key, and its html drawn with that key when the key changed; None:
    no card to show)."""

    shared: Callable[[games.GameState], str] | None
    card_key: Callable[[games.GameState, Actor], str] | None = None
    card: Callable[[games.GameState, Actor, str], str | None] | None = None


@dataclass(frozen=True)
class GamePage:
    """How a kind shows its game: the page (with a status and problems, and what else its own forms pass on)
    and what the live stream pushes of it."""

    show: Callable[..., Any]
    pushed: PushedPage


@dataclass
class Pages:
    """The pages of one app that the live stream pushes: the game page of each kind that draws its own, each
    kind's other pages by (kind, view), and the table's own pages by view. A kind's names cannot collide with
    another's: each is looked up under the kind of the game being followed."""

    games: dict[str, GamePage] = field(default_factory=dict)
    of_kinds: dict[tuple[str, str], PushedPage] = field(default_factory=dict)
    table: dict[str, PushedPage] = field(default_factory=dict)

    def add_game_page(self, kind: str, page: GamePage) -> None:
        """How a kind that draws its own game page shows it and pushes it."""
        self.games[kind] = page

    def add(self, kind: str, view: str, page: PushedPage) -> None:
        """Another page of a kind whose stream pushes it: its score pad, its end, its big screen's content."""
        self.of_kinds[(kind, view)] = page

    def pushed(self, kind: str, view: str) -> PushedPage | None:
        """What the stream named `view` pushes of a game of `kind`: the kind's page, else the table's, else None."""
        return self.of_kinds.get((kind, view)) or self.table.get(view)


EXTENSION = "scorekeeper.pages"


def pages_of(app: Flask) -> Pages:
    """The pushed pages of `app` (made on first use)."""
    found: Pages = app.extensions.setdefault(EXTENSION, Pages())
    return found


def pages() -> Pages:
    """The pushed pages of the current app."""
    return pages_of(current_app)
