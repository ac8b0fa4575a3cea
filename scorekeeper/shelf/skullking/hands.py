"""Skull King's hands from the rules' values: how many cards each deals, what an entry stores, and a new game's
hands (an imported pad's, then the next one open)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
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


def row_of(table: Setup, hand: Hand) -> HandRow:
    """A pad's hand as its play stores it, its bids and loads in it, seats in order: scored once every trick is in;
    unfinished, played, or loaded first when the cannons' loads are not all in."""
    positions = {name: position for position, name in enumerate(table.players)}
    cannons = table.options.cannonball
    loading = cannons and any(e.shot is None for e in hand.entries)
    phase = Phase.SCORED if hand.finished else Phase.LOADING if loading else Phase.PLAYING
    entries = []
    for entry in sorted(hand.entries, key=lambda e: positions[e.player]):
        values = entered(entry, positions)
        entries.append(EntryRow(entry.tricks, values["bonuses"], values["loot_with"], entry.wager,
                                entry.bid_changed_from, bid=entry.bid, shot=entry.shot))
    return HandRow(hand.cards, hand.lost_tricks, phase, False, cannons, (), tuple(entries))


def hand_of(table: Setup, row: HandRow) -> Hand:
    """The rules' view of a hand its play stores with its bids and loads (a scored hand's, a pad's)."""
    names = table.players
    return Hand(cards=row.cards, lost_tricks=row.lost_tricks, entries=tuple(
        Entry(player=names[seat], bid=e.bid, tricks=e.tricks, bonuses=dict(e.bonuses),
              loot_with=tuple(names[p] for p in e.loot_with), wager=e.wager, shot=e.shot,
              bid_changed_from=e.bid_changed_from)
        for seat, e in enumerate(row.entries)))


def started(table: Setup, rows: list[HandRow]) -> Started:
    """A new game's hands (an imported pad's, their bids and loads as the table's secret entries, all shown), then
    the next hand open to be bid, unless they end the game: what the table stores of it."""
    plays: list[tuple[JSONObject, bool]] = []
    secrets: list[tuple[int, int, str, JSON]] = []
    collects = None
    for number, row in enumerate(rows, start=1):
        scored = row.phase == Phase.SCORED
        secrets += [(number, seat, name, value) for seat, e in enumerate(row.entries)
                    for name, value in ((BID, e.bid), (SHOT, e.shot)) if value is not None]
        # A scored hand's play holds its bids and loads too; an open one's are the table's secret entries only.
        kept = row if scored else replace(row, entries=tuple(replace(e, bid=None, shot=None) for e in row.entries))
        plays.append((HAND.dump(kept), scored))
        if row.phase == Phase.LOADING:
            # The loads the file has are in; the others are collected in secret.
            collects = (number, SHOT)
    cards = cards_of_hand(table, len(rows) + 1)
    # A game the file ends is finished by the table (`service.create`).
    if all(row.phase == Phase.SCORED for row in rows) and cards is not None:
        plays.append((HAND.dump(opening(cards, table.options.cannonball, len(table.players))), False))
        collects = (len(rows) + 1, BID)
    return Started(tuple(plays), tuple(secrets), collects)
