"""Skull King's hands as the table keeps them: each hand one of its game's plays (the table's rows), its own
values and its entries in the play's data, read and written as plain values.

A hand's bids and cannon loads are secret entries while it is open, which the table keeps
(`models.SecretEntry`), hides and reveals together (`games.Count`); a scored hand's play holds
them too, so a closed play says all it scored. This module knows the hands' plays only;
`reading.py` puts an open hand together with its secrets and the count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ...kinds import Codec, Secrets

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


def phase_of(stored: Phase, secrets: Secrets, cannons: bool) -> Phase:
    """A hand's phase: as stored, and for the hand whose bids or loads the table counts, where the count stands (as
    its `secrets` say)."""
    if secrets.counted is None or (secrets.reveal_at is None and not secrets.shown):
        return stored
    # The count's phase while it runs, and what follows once it is over, for the hand still waiting for it.
    counting, waiting = (Phase.COUNTING, Phase.BIDDING) if secrets.counted == BID else (Phase.FIRING, Phase.LOADING)
    if stored != waiting:
        return stored
    return counting.after_count(cannons) if secrets.shown else counting


@dataclass(frozen=True, slots=True)
class EntryRow:
    """One player's line in one hand, as its play stores it; its seat is its place among the hand's entries."""

    tricks: int | None = None
    bonuses: dict[str, int] = field(default_factory=dict)
    loot_with: tuple[int, ...] = ()
    wager: int | None = None
    bid_changed_from: int | None = None
    done: bool = False
    fixing: bool = False
    # Its bid and load once the hand is scored (None before: then they are the table's secret entries).
    bid: int | None = None
    shot: str | None = None


@dataclass(frozen=True, slots=True)
class HandRow:
    """One hand as its play stores it; its number is its play's."""

    cards: int
    lost_tricks: int
    phase: Phase
    corrected: bool
    cannons: bool
    # The tricks claimed in it, each its cards as written.
    claimed: tuple[str, ...]
    entries: tuple[EntryRow, ...]


# How a hand is stored and read: the table's one converter of plays (`kinds.Codec`), as every game's.
HAND = Codec(HandRow)


def opening(cards: int, cannons: bool, seats: int) -> HandRow:
    """What a hand stores as it opens to be bid: an empty entry per seat (its bids are the table's secret
    entries)."""
    return HandRow(cards, 0, Phase.BIDDING, False, cannons, (), tuple(EntryRow() for _ in range(seats)))
