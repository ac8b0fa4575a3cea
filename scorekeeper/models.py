"""The database models: games, their seats, hands and entries."""

from __future__ import annotations

import secrets
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import db


def utcnow() -> datetime:
    """The current time in UTC."""
    return datetime.now(timezone.utc).replace(tzinfo=None)


def new_public_id() -> str:
    """A game's id in its links: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


# No look-alikes: no 0/O, 1/I/L, 2/Z, 5/S, 8/B, U/V.
JOIN_ALPHABET = "ACDEFGHJKMNPQRTWXY34679"
JOIN_CODE_LENGTH = 6


def new_join_code() -> str:
    """A short code to type on a phone; unique only among stored games."""
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


class Game(db.Model):
    """A game at one table: who plays, under which rules, and its hands."""

    __table_args__ = (UniqueConstraint("join_code", name="uq_game_join_code"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    ruleset: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]
    # Bumped on every change, so screens can tell they are behind.
    version: Mapped[int] = mapped_column(default=0)
    # Whoever holds this (in their session) runs the game.
    host_token: Mapped[str] = mapped_column(String(32), default=new_public_id)
    join_code: Mapped[str] = mapped_column(String(8), default=new_join_code)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan")
    hands: Mapped[list[HandRecord]] = relationship(
        back_populates="game", order_by="HandRecord.number", cascade="all, delete-orphan")


class Seat(db.Model):
    """A player's place at the table; position 0 deals the first hand."""

    __table_args__ = (UniqueConstraint("game_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(40))
    # SHA-256 of the secret in the seated phone's session; None while the seat is free.
    token_hash: Mapped[str | None] = mapped_column(String(64))

    game: Mapped[Game] = relationship(back_populates="seats")


class HandRecord(db.Model):
    """One hand of a game; its phase moves bidding → playing → scored."""

    __tablename__ = "hand"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    cards: Mapped[int]
    lost_tricks: Mapped[int] = mapped_column(default=0)
    phase: Mapped[str] = mapped_column(String(12), default="bidding")
    corrected: Mapped[bool] = mapped_column(default=False)
    # While counting YO-HO-HO: when the bids show.
    reveal_at: Mapped[datetime | None]

    game: Mapped[Game] = relationship(back_populates="hands")
    entries: Mapped[list[EntryRecord]] = relationship(
        back_populates="hand", order_by="EntryRecord.position", cascade="all, delete-orphan")


class EntryRecord(db.Model):
    """One player's line in one hand."""

    __tablename__ = "entry"
    __table_args__ = (UniqueConstraint("hand_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hand.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    bid: Mapped[int | None]
    tricks: Mapped[int | None]
    bonuses: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)
    loot_with: Mapped[list[int]] = mapped_column(JSON, default=list)
    wager: Mapped[int | None]
    shot: Mapped[str | None] = mapped_column(String(12))
    bid_changed_from: Mapped[int | None]
    # The player's phone says its result is complete.
    done: Mapped[bool] = mapped_column(default=False, server_default=false())

    hand: Mapped[HandRecord] = relationship(back_populates="entries")


class Event(db.Model):
    """A change to a game, in order: what live screens follow. It never holds a bid."""

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    version: Mapped[int]
    kind: Mapped[str] = mapped_column(String(16))
    hand: Mapped[int | None]
    at: Mapped[datetime] = mapped_column(default=utcnow)


class JoinAttempt(db.Model):
    """A typed join code, kept a short while to slow down guessing."""

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
