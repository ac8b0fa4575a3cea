"""Who is acting at a game: its host, the phone of one seat, or anyone else with the link."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from enum import StrEnum

from .models import Game


class Role(StrEnum):
    """What a browser may do at a game."""

    HOST = "host"
    SEAT = "seat"
    VIEWER = "viewer"


@dataclass(frozen=True)
class Actor:
    """A browser at one game, as the game knows it: its role and, for a phone, its seat."""

    role: Role
    seat: int | None = None

    @property
    def is_host(self) -> bool:
        """Whether this browser runs the game."""
        return self.role == Role.HOST


VIEWER = Actor(Role.VIEWER)


@dataclass(frozen=True)
class Credentials:
    """The secrets a browser holds for one game: a host token and a seat's secret, either may be missing."""

    host_token: str | None = None
    seat_token: str | None = None


def token_hash(token: str) -> str:
    """What is stored of a seat's secret: its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def _seat_holding(game: Game, credentials: Credentials, stored: str) -> int | None:
    """The seat whose hash `stored` (`token_hash`: playing it; `asking_hash`: asking for it) is this browser's secret."""
    if not isinstance(credentials.seat_token, str) or not credentials.seat_token:
        return None
    digest = token_hash(credentials.seat_token)
    for seat in game.seats:
        held = getattr(seat, stored)
        if held and hmac.compare_digest(held, digest):
            return seat.position
    return None


def identify(game: Game, credentials: Credentials) -> Actor:
    """The role that `credentials` give at `game`; anything unknown is a viewer."""
    host_token = credentials.host_token
    # Bytes, because compare_digest refuses non-ASCII text and a cookie may carry anything.
    if isinstance(host_token, str) and hmac.compare_digest(host_token.encode(), game.host_token.encode()):
        return Actor(Role.HOST)
    seat = _seat_holding(game, credentials, "token_hash")
    return VIEWER if seat is None else Actor(Role.SEAT, seat)


def asking_for(game: Game, credentials: Credentials) -> int | None:
    """The seat this browser asked the host for (its old phone lost), while the host has not answered."""
    return _seat_holding(game, credentials, "asking_hash")
