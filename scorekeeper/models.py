"""The table's database models: games, their seats and the phones asking for one, the plays and secret entries
the table keeps for every game, the event log. No game declares a table of its own."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint, false, true
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .clock import utcnow
from .extensions import db

if TYPE_CHECKING:
    # Flask-SQLAlchemy makes db.Model at run time, from the declarative base it was given.
    from .extensions import Base as Model
else:
    Model = db.Model


def new_public_id() -> str:
    """A game's id in its links: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


# No look-alikes: no 0/O, 1/I/L, 2/Z, 5/S, 8/B, U/V.
JOIN_ALPHABET = "ACDEFGHJKMNPQRTWXY34679"
JOIN_CODE_LENGTH = 6


def new_join_code() -> str:
    """A short code to type on a phone; unique only among stored games."""
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


class Game(Model):
    """A game at one table: who plays, under which rules, and its hands."""

    __table_args__ = (UniqueConstraint("join_code", name="uq_game_join_code"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    # Its kind's name (`kinds.registered()`): the kind reads the rest (its `Play`s and secret entries).
    kind: Mapped[str] = mapped_column(String(16))
    ruleset: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]
    # Bumped on every change, so screens can tell they are behind.
    version: Mapped[int] = mapped_column(default=0)
    # The SHA-256 of the host's key: whoever holds the key (in their session) runs the game.
    host_key_hash: Mapped[str] = mapped_column(String(64), server_default="")
    join_code: Mapped[str] = mapped_column(String(8), default=new_join_code)
    # The crew: games linked by rematches or started from an earlier game's players (their statistics).
    crew: Mapped[str] = mapped_column(String(32), default=new_public_id, index=True)
    # Deleted by the host: gone from every page and statistic; undone within a short time, then removed.
    deleted_at: Mapped[datetime | None] = mapped_column(index=True)
    # What the statistics need of a finished game, computed once when it finishes (or is corrected).
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # The game its host started next with these players (a rematch): the phones follow there.
    next_game: Mapped[str | None] = mapped_column(String(32))
    # The seat that deals the first hand; seats keep the order the host typed them in.
    first_dealer: Mapped[int] = mapped_column(default=0, server_default="0")
    # The secret entries the table collects now (those named `count_name` of play `count_play`), and once all
    # are in, when they show (the YO-HO-HO count's end): until then only each entry's own phone sees it.
    count_play: Mapped[int | None]
    count_name: Mapped[str | None] = mapped_column(String(16))
    reveal_at: Mapped[datetime | None]
    # Locked by the host once everyone sits: no new phone takes a free seat (a lost phone still asks for its own).
    locked: Mapped[bool] = mapped_column(default=False, server_default=false())
    # Whether anyone with the link may watch, read-only: the host's choice, on unless turned off.
    watchers: Mapped[bool] = mapped_column(default=True, server_default=true())

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan")
    secrets: Mapped[list[SecretEntry]] = relationship(back_populates="game", cascade="all, delete-orphan")
    plays: Mapped[list[Play]] = relationship(
        back_populates="game", order_by="Play.number", cascade="all, delete-orphan")
    requests: Mapped[list[SeatRequest]] = relationship(
        back_populates="game", order_by="SeatRequest.id", cascade="all, delete-orphan")


class Seat(Model):
    """A player's place at the table, in the order the host typed the names."""

    __table_args__ = (UniqueConstraint("game_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(40))
    # SHA-256 of the secret in the seated phone's session; None while the seat is free.
    token_hash: Mapped[str | None] = mapped_column(String(64))
    # Which browser plays it (`access.browser_key`: a hash of the random name in its session), for its record
    # across games; None while the seat is free, or for a phone seated before browsers were told apart.
    browser_key: Mapped[str | None] = mapped_column(String(64), index=True)

    game: Mapped[Game] = relationship(back_populates="seats")


class SeatRequest(Model):
    """A new phone asking for a seat another phone holds (that one lost or flat), until the host answers.

    The host tells the asking phones apart by their short code, shown on each of them.
    """

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    # SHA-256 of the asking phone's secret: the seat's token once the host lets it in.
    token_hash: Mapped[str] = mapped_column(String(64))
    # Which browser asks (`access.browser_key`): the seat's once let in.
    browser_key: Mapped[str | None] = mapped_column(String(64))
    code: Mapped[str] = mapped_column(String(4))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    # The host said no; kept so the asking phone is told.
    turned_away: Mapped[bool] = mapped_column(default=False, server_default=false())

    game: Mapped[Game] = relationship(back_populates="requests")


class SecretEntry(Model):
    """An entry only its own phone may see until the table reveals them all together: a bid, a cannon's load.

    Which are secret now is the game's count (`Game.count_play`, `count_name`, `reveal_at`); the
    entries of earlier counts are shown to everyone, as the kind's pad has them.
    """

    __tablename__ = "secret_entry"
    __table_args__ = (UniqueConstraint("game_id", "play", "seat", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    # The play (a hand, a round) it belongs to, and the seat that entered it.
    play: Mapped[int]
    seat: Mapped[int]
    # What it is, in its kind's words ("bid", "shot"), and its value (a number or a word).
    name: Mapped[str] = mapped_column(String(16))
    value: Mapped[Any] = mapped_column(JSON)

    game: Mapped[Game] = relationship(back_populates="secrets")


class Play(Model):
    """One play of a game whose plays the table keeps (a game of a match, a round): its entries as its pad
    writes them."""

    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # False while its entries are still coming in (the last one only).
    closed: Mapped[bool] = mapped_column(default=False)

    game: Mapped[Game] = relationship(back_populates="plays")


class Event(Model):
    """A change to a game, in order: what live screens follow. It never holds a bid."""

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    version: Mapped[int]
    kind: Mapped[str] = mapped_column(String(16))
    hand: Mapped[int | None]
    at: Mapped[datetime] = mapped_column(default=utcnow)


class LimitedTry(Model):
    """A try that is limited per minute (a typed join code, a new game, an import), kept a short while."""

    __tablename__ = "limited_try"

    id: Mapped[int] = mapped_column(primary_key=True)
    # What is counted: the kind of try, and whose (a browser, a client address).
    bucket: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class Tap(Model):
    """A write a page sent, applied once: a repeat (a retry after a lost answer) gets the answer of the first.

    A tap belongs to the browser that sent it: stored by the hash of that browser's id and the tap's,
    so the same tap id from another browser is a new request that gets nothing of the first's. The
    table's database holds no tap a phone could be impersonated with; the secret a change handed over
    (a seat's) is kept masked by the browser's id and the tap. At most `rows.TAPS_KEPT_PER_BROWSER` are
    kept per browser and game, and none for longer than `rows.TAPS_KEPT`.
    """

    __table_args__ = (Index("ix_tap_game_browser_at", "game_id", "browser", "at"),)

    # SHA-256 of the browser's id and the tap id its page made.
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    # SHA-256 of the browser's id alone (of nothing, for a browser that had none yet): what the bound counts by.
    browser: Mapped[str | None] = mapped_column(String(64))
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    # The game the answer shows (a new game's, after a rematch), and the secret it handed over, masked.
    public_id: Mapped[str] = mapped_column(String(32))
    secret: Mapped[str | None] = mapped_column(String(128))
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class HostGrant(Model):
    """A way for another device to become a host of a game: a code the host shares once, valid a short while.

    The table keeps the code's SHA-256 and the host's key masked by the code, so its database holds
    nothing a game could be run with; the code, which the link alone carries, unmasks the key once.
    """

    __tablename__ = "host_grant"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    key: Mapped[str] = mapped_column(String(128))
    expires_at: Mapped[datetime]
    # When another device became a host with it; a code is used once.
    used_at: Mapped[datetime | None]
