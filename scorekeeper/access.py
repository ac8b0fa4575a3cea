"""Who is acting at a game: its host, the phone of one seat, or anyone else with the link."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Role(StrEnum):
    """What a browser may do at a game."""

    HOST = "host"
    SEAT = "seat"
    VIEWER = "viewer"


@dataclass(frozen=True)
class Actor:
    """A browser at one game, as the game knows it: its role and, for a phone, its seat; for the host, the seats
    with a phone of their own (whose entries only that phone makes)."""

    role: Role
    seat: int | None = None
    phones: frozenset[int] = frozenset()

    @property
    def is_host(self) -> bool:
        """Whether this browser runs the game."""
        return self.role == Role.HOST

    def enters_for(self, seat: int) -> bool:
        """Whether this browser makes `seat`'s own entries (a bid, tricks, points): a phone its own seat's, the host
        those of the seats without a phone."""
        if self.role == Role.SEAT:
            return seat == self.seat
        return self.is_host and seat not in self.phones


VIEWER = Actor(Role.VIEWER)


@dataclass(frozen=True)
class Credentials:
    """The secrets a browser holds for one game: the host's key, a seat's secret, and the secret it
    asked for a seat with (the seat's own once the host lets it in); any may be missing. With them
    go the id of the tap the request carries, which the table applies once, and the browser's own id
    (kept in its session), to which the tap belongs."""

    host_key: str | None = None
    seat_token: str | None = None
    asking_token: str | None = None
    tap: str | None = None
    browser: str | None = None


def token_hash(token: str) -> str:
    """What is stored of a seat's secret or a host's key: its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def browser_key(browser: str | None) -> str | None:
    """What a seat keeps of the browser that plays it (for its record across games): a hash of the random name in
    its session, never the name itself; None for a browser that has none yet."""
    return hashlib.sha256(f"browser {browser}".encode()).hexdigest() if browser else None


def masked(data: bytes, by: str) -> bytes:
    """`data` XOR a stream drawn from `by`, a secret the table does not keep: a secret is stored so (a tap's answer, a
    host's key given to another host), and only who holds `by` reads it back, by masking it again."""
    stream = hashlib.shake_256(by.encode()).digest(len(data))
    return bytes(a ^ b for a, b in zip(data, stream, strict=True))


def _digest(token: str | None) -> str | None:
    return token_hash(token) if isinstance(token, str) and token else None


def _seat_holding(game: Any, credentials: Credentials) -> tuple[int, str] | None:
    """The seat whose secret this browser holds (the one it took, or the one the host let it in to), and that secret."""
    for token in (credentials.seat_token, credentials.asking_token):
        if not isinstance(token, str) or not token:
            continue
        digest = token_hash(token)
        for seat in game.seats:
            if seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
                return seat.position, token
    return None


def seat_secret(game: Any, credentials: Credentials) -> str | None:
    """The secret with which this browser plays a seat of `game`, if it does."""
    held = _seat_holding(game, credentials)
    return held[1] if held else None


def identify(game: Any, credentials: Credentials) -> Actor:
    """The role that `credentials` give at `game`; anything unknown is a viewer."""
    digest = _digest(credentials.host_key)
    if digest is not None and game.host_key_hash and hmac.compare_digest(digest, game.host_key_hash):
        return Actor(Role.HOST, phones=frozenset(s.position for s in game.seats if s.token_hash is not None))
    held = _seat_holding(game, credentials)
    return VIEWER if held is None else Actor(Role.SEAT, held[0])


def request_of(game: Any, credentials: Credentials) -> Any:
    """This browser's request for a seat (open, or turned away), while it holds no seat; else None."""
    digest = _digest(credentials.asking_token)
    if digest is None:
        return None
    return next((r for r in game.requests if r.token_hash and hmac.compare_digest(r.token_hash, digest)), None)
