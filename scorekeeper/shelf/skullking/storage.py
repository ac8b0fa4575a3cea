"""Skull King's own tables (its hands and their entries), read and written as plain values.

A hand's bids and cannon loads are not here: they are secret entries, which the table keeps
(`models.SecretEntry`), hides and reveals together (`games.Count`). This module knows the
hands' rows only; `reading.py` puts a hand together with its secrets and the count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import JSON, Enum, ForeignKey, Table, UniqueConstraint, bindparam, false, insert, select, update
from sqlalchemy.orm import Mapped, backref, mapped_column, relationship

from ... import games
from ...extensions import db
from ...models import Game

if TYPE_CHECKING:
    # Flask-SQLAlchemy makes db.Model at run time, from the declarative base it was given.
    from ...extensions import Base as Model
else:
    Model = db.Model

# The names of its secret entries, in the order a hand collects them: the bids, then (the cannonball rule) the loads.
BID, SHOT = "bid", "shot"
SECRETS = (BID, SHOT)


class Phase(StrEnum):
    """Where a hand stands: bids secret (bidding, counting), with the cannonball rule the loads
    secret (loading, firing), then played, then scored. Counting and firing are the table's
    count of the bids or loads; a hand stores the others."""

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
        """A YO-HO-HO count: it ends by itself when the table's count does, with no write."""
        return self in (Phase.COUNTING, Phase.FIRING)

    def after_count(self, cannons: bool) -> Phase:
        """The phase a count gives way to: the bids' count to the loading of the cannons (if the hand
        loads them) or to play, the loads' count to play."""
        if self == Phase.COUNTING and cannons:
            return Phase.LOADING
        return Phase.PLAYING


def phase_of(stored: Phase, number: int, count: games.Count | None, cannons: bool) -> Phase:
    """A hand's phase: as stored, and for the hand whose bids or loads the table counts, where the count stands."""
    if count is None or count.play != number or count.reveal_at is None:
        return stored
    # The count's phase while it runs, and what follows once it is over, for the hand still waiting for it.
    counting, waiting = (Phase.COUNTING, Phase.BIDDING) if count.name == BID else (Phase.FIRING, Phase.LOADING)
    if stored != waiting:
        return stored
    return counting.after_count(cannons) if count.over else counting


class HandRecord(Model):
    """One hand of a game; its phase moves bidding → playing → scored."""

    __tablename__ = "hand"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    cards: Mapped[int]
    lost_tricks: Mapped[int] = mapped_column(default=0)
    stored_phase: Mapped[Phase] = mapped_column(
        "phase", Enum(Phase, native_enum=False, length=12, create_constraint=False,
                      values_callable=lambda phases: [p.value for p in phases]),
        default=Phase.BIDDING)
    corrected: Mapped[bool] = mapped_column(default=False)
    # The cannonball rule: after the bids are revealed, each player loads grapeshot or cannonball in secret.
    cannons: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The cards of the tricks claimed in this hand, as written (the same cards cannot be claimed twice).
    claimed: Mapped[list[str] | None] = mapped_column(JSON)

    # The game's hands, from the game's side too (a record being created, deleted with its game).
    game: Mapped[Game] = relationship(backref=backref("hands", order_by="HandRecord.number",
                                                      cascade="all, delete-orphan"))


class EntryRecord(Model):
    """One player's line in one hand (the bid and the load are secret entries of the table)."""

    __tablename__ = "entry"
    __table_args__ = (UniqueConstraint("hand_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hand.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    tricks: Mapped[int | None]
    bonuses: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)
    loot_with: Mapped[list[int]] = mapped_column(JSON, default=list)
    wager: Mapped[int | None]
    bid_changed_from: Mapped[int | None]
    # The player's phone says its result is complete.
    done: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The hand was refused for a clash this player is part of: they check their result again.
    fixing: Mapped[bool] = mapped_column(default=False, server_default=false())


_hands, _entries, _games = (cast(Table, model.__table__) for model in (HandRecord, EntryRecord, Game))

# The columns of an entry row, each once: the reads, the writes and the rows' values are made from this.
ENTRY_COLUMNS = ("tricks", "bonuses", "loot_with", "wager", "bid_changed_from", "done", "fixing")


@dataclass(frozen=True, slots=True)
class EntryRow:
    """One player's line in one hand, as its row stores it."""

    position: int
    tricks: int | None = None
    bonuses: dict[str, int] | None = None
    loot_with: tuple[int, ...] = ()
    wager: int | None = None
    bid_changed_from: int | None = None
    done: bool = False
    fixing: bool = False


@dataclass(frozen=True, slots=True)
class HandRow:
    """One hand as its rows store it."""

    id: int
    number: int
    cards: int
    lost_tricks: int
    stored_phase: Phase
    corrected: bool
    cannons: bool
    entries: tuple[EntryRow, ...]
    # The tricks claimed in it, each its cards as written.
    claimed: tuple[str, ...] = ()


_HANDS_OF_GAME = (
    select(_games.c.version, _hands.c.id.label("hand_id"), _hands.c.number, _hands.c.cards, _hands.c.lost_tricks,
           _hands.c.phase.label("stored_phase"), _hands.c.corrected, _hands.c.cannons, _hands.c.claimed,
           _entries.c.position,
           *(_entries.c[column] for column in ENTRY_COLUMNS))
    .join_from(_hands, _entries, _entries.c.hand_id == _hands.c.id).join(_games, _games.c.id == _hands.c.game_id)
    .where(_hands.c.game_id == bindparam("game_id")).order_by(_hands.c.number, _entries.c.position))


def entry_row(row: Any) -> EntryRow:
    """An entry's plain value from its columns."""
    return EntryRow(row.position, row.tricks, dict(row.bonuses or {}), tuple(row.loot_with or ()), row.wager,
                    row.bid_changed_from, bool(row.done), bool(row.fixing))


def read_hands(connection: Any, game_id: int, version: int) -> tuple[HandRow, ...]:
    """A game's hands with their entries, at `version` (`games.at_version` says when a commit came between)."""
    found = games.at_version(connection.execute(_HANDS_OF_GAME, {"game_id": game_id}).all(), version)
    hands: list[HandRow] = []
    entries: list[EntryRow] = []
    for index, row in enumerate(found):
        entries.append(entry_row(row))
        if index + 1 == len(found) or found[index + 1].number != row.number:
            hands.append(HandRow(row.hand_id, row.number, row.cards, row.lost_tricks, Phase(row.stored_phase),
                                 bool(row.corrected), bool(row.cannons), tuple(entries), tuple(row.claimed or ())))
            entries = []
    return tuple(hands)


def entry_values(entry: EntryRow) -> dict[str, Any]:
    """An entry's stored columns, from its plain value."""
    return {"tricks": entry.tricks, "bonuses": dict(entry.bonuses or {}), "loot_with": list(entry.loot_with),
            "wager": entry.wager, "bid_changed_from": entry.bid_changed_from, "done": entry.done,
            "fixing": entry.fixing}


def write_hand(before: HandRow, after: HandRow) -> None:
    """Store what changed in one hand: its own columns, and the entries that differ (each one row)."""
    connection = db.session.connection()
    changed = {column: value for column, value, was in (
        ("phase", after.stored_phase, before.stored_phase), ("lost_tricks", after.lost_tricks, before.lost_tricks),
        ("cards", after.cards, before.cards), ("corrected", after.corrected, before.corrected),
        ("claimed", list(after.claimed), list(before.claimed)),
    ) if value != was}
    if changed:
        connection.execute(update(_hands).where(_hands.c.id == before.id).values(**changed))
    for old, new in zip(before.entries, after.entries, strict=True):
        values, was = entry_values(new), entry_values(old)
        changed = {column: values[column] for column in ENTRY_COLUMNS if values[column] != was[column]}
        if changed:
            connection.execute(update(_entries).where(_entries.c.hand_id == before.id,
                                                      _entries.c.position == new.position).values(**changed))


def insert_hand(game_id: int, number: int, cards: int, cannons: bool, stored_phase: Phase,
                entries: Sequence[EntryRow], lost_tricks: int = 0) -> int:
    """A new hand with its entries (and an imported hand's tricks nobody won); its id."""
    connection = db.session.connection()
    hand_id: int = connection.execute(insert(_hands).values(
        game_id=game_id, number=number, cards=cards, phase=stored_phase, corrected=False, lost_tricks=lost_tricks,
        cannons=cannons).returning(_hands.c.id)).scalar_one()
    connection.execute(insert(_entries), [{"hand_id": hand_id, "position": e.position, **entry_values(e)}
                                          for e in entries])
    return hand_id


def open_hand(game_id: int, number: int, cards: int, cannons: bool, seats: int) -> None:
    """Hand `number` opens to be bid, an empty entry per seat (its bids are the table's secret entries)."""
    insert_hand(game_id, number, cards, cannons, Phase.BIDDING, [EntryRow(position) for position in range(seats)])
