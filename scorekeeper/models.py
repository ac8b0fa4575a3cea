"""The database models: games, their seats, hands and entries."""

from __future__ import annotations

import secrets
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import db


def utcnow() -> datetime:
    """The current time in UTC."""
    return datetime.now(timezone.utc).replace(tzinfo=None)


def new_public_id() -> str:
    """A game's id in its links: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


class Game(db.Model):
    """A game at one table: who plays, under which rules, and its hands."""

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    ruleset: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]
    # Bumped on every change, so screens can tell they are behind.
    version: Mapped[int] = mapped_column(default=0)

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

    hand: Mapped[HandRecord] = relationship(back_populates="entries")
