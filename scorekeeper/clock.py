"""The one clock: every moment the app stores, compares or counts to is UTC and timezone-aware.

The database keeps moments as plain UTC (a column of `Moment` writes any aware moment as UTC
and reads it back aware), so a host in Berlin, New York or Auckland reads the same instant,
and a screen counts to the same millisecond, whatever zone its server runs in.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.types import DateTime, TypeDecorator


def utcnow() -> datetime:
    """Now, in UTC, timezone-aware."""
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """`moment` with its zone: one without (as a database or an old caller hands it) is UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def stored(moment: datetime) -> datetime:
    """`moment` as the database keeps it: UTC without a zone (a moment without one is UTC already)."""
    return aware(moment).astimezone(UTC).replace(tzinfo=None)


def epoch_ms(moment: datetime | None) -> int | None:
    """A moment in milliseconds since 1970, as a browser's clock counts (`Date.now()`); None for none."""
    return None if moment is None else int(aware(moment).timestamp() * 1000)


class Moment(TypeDecorator[datetime]):
    """A moment stored as plain UTC and read back timezone-aware (UTC)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Stored as UTC without a zone (a moment without one is UTC already)."""
        return None if value is None else stored(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        """Read back with its zone, UTC."""
        return None if value is None else aware(value)
