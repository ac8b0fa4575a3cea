"""The database models: games, their seats, hands and entries."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, Enum, ForeignKey, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from .extensions import db

if TYPE_CHECKING:
    # Flask-SQLAlchemy makes db.Model at run time, from the declarative base it was given.
    from .extensions import Base as Model
else:
    Model = db.Model


def utcnow() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC).replace(tzinfo=None)


def new_public_id() -> str:
    """A game's id in its links: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


# No look-alikes: no 0/O, 1/I/L, 2/Z, 5/S, 8/B, U/V.
JOIN_ALPHABET = "ACDEFGHJKMNPQRTWXY34679"
JOIN_CODE_LENGTH = 6


def new_join_code() -> str:
    """A short code to type on a phone; unique only among stored games."""
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


class Phase(StrEnum):
    """Where a hand stands: bids secret (bidding, counting), with the cannonball rule the loads
    secret (loading, firing), then played, then scored."""

    BIDDING = "bidding"
    COUNTING = "counting"
    LOADING = "loading"
    FIRING = "firing"
    PLAYING = "playing"
    SCORED = "scored"

    @property
    def is_secret(self) -> bool:
        """Until the count ends, nobody but a bid's own phone may see it."""
        return self in (Phase.BIDDING, Phase.COUNTING)

    @property
    def loads_secret(self) -> bool:
        """Until the second count ends, nobody but a cannon's own phone may see its load."""
        return self in (Phase.BIDDING, Phase.COUNTING, Phase.LOADING, Phase.FIRING)

    @property
    def is_count(self) -> bool:
        """A YO-HO-HO count: it ends by itself at the hand's `reveal_at`, with no write."""
        return self in (Phase.COUNTING, Phase.FIRING)

    def after_count(self, cannons: bool) -> Phase:
        """The phase a count gives way to: the bids' count to the loading of the cannons (if the hand
        loads them) or to play, the loads' count to play."""
        if self == Phase.COUNTING and cannons:
            return Phase.LOADING
        return Phase.PLAYING


def phase_at(stored: Phase, reveal_at: datetime | None, cannons: bool, now: datetime) -> Phase:
    """A hand's phase at `now`: a count whose time has come gives way to what follows it."""
    if stored.is_count and reveal_at is not None and reveal_at <= now:
        return stored.after_count(cannons)
    return stored


class Game(Model):
    """A game at one table: who plays, under which rules, and its hands."""

    __table_args__ = (UniqueConstraint("join_code", name="uq_game_join_code"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    # Its kind's name (`shelf.kinds()`): the kind reads the rest (its hands, or its `Play`s).
    kind: Mapped[str] = mapped_column(String(16))
    ruleset: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]
    # Bumped on every change, so screens can tell they are behind.
    version: Mapped[int] = mapped_column(default=0)
    # Whoever holds this (in their session) runs the game.
    host_token: Mapped[str] = mapped_column(String(32), default=new_public_id)
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

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan")
    hands: Mapped[list[HandRecord]] = relationship(
        back_populates="game", order_by="HandRecord.number", cascade="all, delete-orphan")
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
    code: Mapped[str] = mapped_column(String(4))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    # The host said no; kept so the asking phone is told.
    turned_away: Mapped[bool] = mapped_column(default=False, server_default=false())

    game: Mapped[Game] = relationship(back_populates="requests")


class HandRecord(Model):
    """One hand of a game; its phase moves bidding → playing → scored."""

    __tablename__ = "hand"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    cards: Mapped[int]
    lost_tricks: Mapped[int] = mapped_column(default=0)
    # As last written; `phase` is what it is now, since a count ends by itself.
    stored_phase: Mapped[Phase] = mapped_column(
        "phase", Enum(Phase, native_enum=False, length=12, create_constraint=False,
                      values_callable=lambda phases: [p.value for p in phases]),
        default=Phase.BIDDING)
    corrected: Mapped[bool] = mapped_column(default=False)
    # While counting YO-HO-HO: when the bids (or the cannons' loads) show.
    reveal_at: Mapped[datetime | None]
    # The cannonball rule: after the bids are revealed, each player loads grapeshot or cannonball in secret.
    cannons: Mapped[bool] = mapped_column(default=False, server_default=false())

    game: Mapped[Game] = relationship(back_populates="hands")
    entries: Mapped[list[EntryRecord]] = relationship(
        back_populates="hand", order_by="EntryRecord.position", cascade="all, delete-orphan")

    def phase_at(self, now: datetime) -> Phase:
        """The phase at `now`: a count that has run out has revealed the bids (or loads), stored or not."""
        return phase_at(self.stored_phase, self.reveal_at, self.cannons, now)

    def see_at(self, now: datetime) -> None:
        """Fix the phase as it stands at `now`: the service does so with the clock read under the game's lock."""
        self.__dict__["_phase_seen"] = self.phase_at(now)

    @property
    def phase(self) -> Phase:
        """The phase when first asked (or as `see_at` fixed it), then kept, so one change never sees two phases.

        Reading a hand never needs a write to reveal its bids.
        """
        seen = self.__dict__.get("_phase_seen")
        if seen is None:
            seen = self.__dict__["_phase_seen"] = self.phase_at(utcnow())
        return seen

    @validates("stored_phase", "reveal_at")
    def _forget_seen_phase(self, key: str, value: Any) -> Any:
        self.__dict__.pop("_phase_seen", None)
        return value


class EntryRecord(Model):
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
    # The hand was refused for a clash this player is part of: they check their result again.
    fixing: Mapped[bool] = mapped_column(default=False, server_default=false())

    hand: Mapped[HandRecord] = relationship(back_populates="entries")


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


class JoinAttempt(Model):
    """A try that is limited per minute (a typed join code, a new game, an import), kept a short while."""

    id: Mapped[int] = mapped_column(primary_key=True)
    # The bucket: what kind of try, and the client address it came from.
    address: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
