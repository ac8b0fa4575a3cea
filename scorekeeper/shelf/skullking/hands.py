"""Skull King's hands from the rules' values: how many cards each deals, what an entry stores, and a new game's
hands (an imported pad's, then the next one open)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from ...kinds import Started
from ...padfile import JSON, JSONObject
from . import rules
from .rules import Entry, Hand, Setup
from .storage import BID, HAND, SHOT, EntryRow, HandRow, Phase, opening


def cards_of_hand(table: Setup, number: int) -> int | None:
    """The cards dealt in hand `number`; None when the game has no such hand (it is over)."""
    planned = rules.cards_per_hand(table)
    return planned[number - 1] if number <= len(planned) else None


class Entered(TypedDict):
    """What a rules' entry sets of a hand's entry (`reading.EntryState`), seats by position."""

    bid: int | None
    tricks: int | None
    bonuses: dict[str, int]
    loot_with: tuple[int, ...]
    wager: int | None
    shot: str | None
    bid_changed_from: int | None
    ready: bool
    loaded: bool


def entered(entry: Entry, positions: Mapping[str, int]) -> Entered:
    """What a rules' entry sets of a hand's entry (its plain value), seats by position."""
    return {"bid": entry.bid, "tricks": entry.tricks, "bonuses": {k: v for k, v in entry.bonuses.items() if v},
            "loot_with": tuple(positions[p] for p in entry.loot_with), "wager": entry.wager, "shot": entry.shot,
            "bid_changed_from": entry.bid_changed_from, "ready": entry.bid is not None,
            "loaded": entry.shot is not None}


def started(table: Setup, hands: list[Hand]) -> Started:
    """A new game's hands (an imported pad's, their bids and loads as the table's secret entries, all shown), then
    the next hand open to be bid, unless they end the game: what the table stores of it."""
    positions = {name: position for position, name in enumerate(table.players)}
    cannons = table.options.cannonball
    plays: list[tuple[JSONObject, bool]] = []
    secrets: list[tuple[int, int, str, JSON]] = []
    collects = None
    for number, hand in enumerate(hands, start=1):
        # An unfinished hand whose loads the file does not have all of resumes with the loading.
        loading = cannons and any(e.shot is None for e in hand.entries)
        phase = Phase.SCORED if hand.finished else Phase.LOADING if loading else Phase.PLAYING
        entries = []
        scored = phase == Phase.SCORED
        for entry in sorted(hand.entries, key=lambda e: positions[e.player]):
            values = entered(entry, positions)
            # A scored hand's play holds its bids and loads too; an open one's are the table's secret entries only.
            entries.append(EntryRow(entry.tricks, values["bonuses"], values["loot_with"], entry.wager,
                                    entry.bid_changed_from, bid=entry.bid if scored else None,
                                    shot=entry.shot if scored else None))
            secrets += [(number, positions[entry.player], name, value)
                        for name, value in ((BID, entry.bid), (SHOT, entry.shot)) if value is not None]
        row = HandRow(hand.cards, hand.lost_tricks, phase, False, cannons, (), tuple(entries))
        plays.append((HAND.dump(row), phase == Phase.SCORED))
        if phase == Phase.LOADING:
            # The loads the file has are in; the others are collected in secret.
            collects = (number, SHOT)
    cards = cards_of_hand(table, len(hands) + 1)
    # A game the file ends is finished by the table (`service.create`).
    if all(hand.finished for hand in hands) and cards is not None:
        plays.append((opening(cards, cannons, len(table.players)), False))
        collects = (len(hands) + 1, BID)
    return Started(tuple(plays), tuple(secrets), collects)
