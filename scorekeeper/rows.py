"""The rows a change writes, as plain statements, for the changes a table makes most: bids, results, claims.

These changes read the game as the pages do (plain values, kept per version in the process)
after locking its row, and write only the rows they change: no ORM object of the game is
loaded, which was the largest piece of a write. `service` decides what to write; this module
only knows the tables.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, insert, select, update

from . import games
from .extensions import db
from .models import EntryRecord, Event, Game, HandRecord, Phase, utcnow

_games, _hands, _entries, _events = (cast(Table, model.__table__) for model in (Game, HandRecord, EntryRecord, Event))

# The columns of an entry a change may write, and their values as the read side has them.
ENTRY_COLUMNS = ("bid", "tricks", "bonuses", "loot_with", "wager", "shot", "bid_changed_from", "done", "fixing")

_LOCK = select(_games.c.id, _games.c.version).where(
    _games.c.public_id == bindparam("public_id"), _games.c.deleted_at.is_(None)).with_for_update()


def lock(public_id: str) -> tuple[int, int] | None:
    """Lock a game's row until the transaction ends; its id and version, or None if there is no such game."""
    if not games.PUBLIC_ID.fullmatch(public_id):
        return None
    row = db.session.connection().execute(_LOCK, {"public_id": public_id}).first()
    return (row.id, row.version) if row is not None else None


def entry_values(entry: games.EntryState) -> dict[str, Any]:
    """An entry's stored columns, from its plain value."""
    return {"bid": entry.bid, "tricks": entry.tricks, "bonuses": entry.bonuses, "loot_with": list(entry.loot_with),
            "wager": entry.wager, "shot": entry.shot, "bid_changed_from": entry.bid_changed_from,
            "done": entry.done, "fixing": entry.fixing}


def write_hand(before: games.HandState, after: games.HandState) -> None:
    """Store what changed in one hand: its own columns, and the entries that differ (each one row)."""
    connection = db.session.connection()
    hand_id = before.id
    changed = {column: value for column, value, was in (
        ("phase", after.stored_phase, before.stored_phase), ("reveal_at", after.reveal_at, before.reveal_at),
        ("lost_tricks", after.lost_tricks, before.lost_tricks), ("cards", after.cards, before.cards),
    ) if value != was}
    if changed:
        connection.execute(update(_hands).where(_hands.c.id == hand_id).values(**changed))
    for old, new in zip(before.entries, after.entries, strict=True):
        values, was = entry_values(new), entry_values(old)
        changed = {column: values[column] for column in ENTRY_COLUMNS if values[column] != was[column]}
        if changed:
            connection.execute(update(_entries).where(_entries.c.hand_id == hand_id,
                                                      _entries.c.position == new.position).values(**changed))


def open_hand(game_id: int, number: int, cards: int, cannons: bool, seats: int) -> None:
    """A new hand, being bid, with an empty entry per seat."""
    connection = db.session.connection()
    hand_id = connection.execute(insert(_hands).values(
        game_id=game_id, number=number, cards=cards, phase=Phase.BIDDING, corrected=False, lost_tricks=0,
        cannons=cannons).returning(_hands.c.id)).scalar_one()
    connection.execute(insert(_entries), [{"hand_id": hand_id, "position": position, "bonuses": {}, "loot_with": [],
                                           "done": False, "fixing": False} for position in range(seats)])


def finish(game_id: int, finished_at: datetime, summary: dict[str, Any] | None) -> None:
    """The game is over: when, and what its crew's statistics read."""
    db.session.connection().execute(update(_games).where(_games.c.id == game_id).values(
        finished_at=finished_at, summary=summary))


def bump(game_id: int, version: int) -> None:
    """The game's next version (its row is locked, so `version` is the one stored)."""
    db.session.connection().execute(update(_games).where(_games.c.id == game_id).values(version=version))


def log(game_id: int, version: int, kind: str, hand: int | None) -> None:
    """The event every screen follows."""
    db.session.connection().execute(insert(_events).values(game_id=game_id, version=version, kind=kind, hand=hand,
                                                            at=utcnow()))
