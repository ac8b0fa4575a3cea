"""Skull King's hands as the table keeps them: each hand one of its game's plays (the table's rows), its own
values and its entries in the play's data, read and written as plain values.

A hand's bids and cannon loads are not here: they are secret entries, which the table keeps
(`models.SecretEntry`), hides and reveals together (`games.Count`). This module knows the
hands' plays only; `reading.py` puts a hand together with its secrets and the count.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ... import games
from ...padfile import JSONObject

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


# The values of an entry, each once: the reads, the writes and the rows' values are made from this.
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
    """One hand as its play stores it."""

    number: int
    cards: int
    lost_tricks: int
    stored_phase: Phase
    corrected: bool
    cannons: bool
    entries: tuple[EntryRow, ...]
    # The tricks claimed in it, each its cards as written.
    claimed: tuple[str, ...] = ()


def entry_row(position: int, data: Mapping[str, Any]) -> EntryRow:
    """An entry's plain value from what its play stores (every value, as `entry_values` writes them)."""
    return EntryRow(position, data["tricks"], data["bonuses"], tuple(data["loot_with"]), data["wager"],
                    data["bid_changed_from"], data["done"], data["fixing"])


# Each phase by its stored name: looked up, not made, for every hand of every version read.
PHASES = {phase.value: phase for phase in Phase}


def hand_row(play: games.PlayState) -> HandRow:
    """A hand's plain value from its play (every value, as `hand_data` writes them)."""
    data = play.data
    return HandRow(play.number, data["cards"], data["lost_tricks"], PHASES[data["phase"]], data["corrected"],
                   data["cannons"], tuple([entry_row(position, e) for position, e in enumerate(data["entries"])]),
                   tuple(data["claimed"]))


def entry_values(entry: EntryRow) -> JSONObject:
    """What a play stores of an entry, from its plain value."""
    return {"tricks": entry.tricks, "bonuses": dict(entry.bonuses or {}), "loot_with": list(entry.loot_with),
            "wager": entry.wager, "bid_changed_from": entry.bid_changed_from, "done": entry.done,
            "fixing": entry.fixing}


def hand_data(hand: HandRow) -> JSONObject:
    """What a hand's play stores: its own values, and its entries in seat order."""
    return {"cards": hand.cards, "lost_tricks": hand.lost_tricks, "phase": hand.stored_phase.value,
            "corrected": hand.corrected, "cannons": hand.cannons, "claimed": list(hand.claimed),
            "entries": [entry_values(e) for e in hand.entries]}


def opening(number: int, cards: int, cannons: bool, seats: int) -> JSONObject:
    """What hand `number` stores as it opens to be bid: an empty entry per seat (its bids are the table's secret
    entries)."""
    return hand_data(HandRow(number, cards, 0, Phase.BIDDING, False, cannons,
                             tuple(EntryRow(position) for position in range(seats))))
