"""What the live stream pushes of each page: a page's shared part and each browser's own card, registered by the
views that draw them."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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


# The game pages of the kinds that draw their own, by the kind's name (filled in by their views); a game whose
# plays the table keeps is drawn from its rules.
GAME_PAGES: dict[str, GamePage] = {}

# The other pages whose streams push them, by the `view` their stream names (filled in by the views that own them).
PUSHED_PAGES: dict[str, PushedPage] = {}
