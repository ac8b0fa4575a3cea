"""Skull King's own storage: hands and their entries, written from the rules' values."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...models import EntryRecord, Game, HandRecord, Phase, utcnow
from . import rules
from .rules import Entry, Hand, Table


def cards_of_hand(table: Table, number: int) -> int | None:
    """The cards dealt in hand `number`; None when the game has no such hand (it is over)."""
    planned = rules.cards_per_hand(table)
    return planned[number - 1] if number <= len(planned) else None


def open_next_hand(game: Game, table: Table) -> HandRecord | None:
    """Open the hand after the last one, or finish the game if none is left."""
    number = len(game.hands) + 1
    cards = cards_of_hand(table, number)
    if cards is None:
        game.finished_at = game.finished_at or utcnow()
        return None
    record = HandRecord(number=number, cards=cards, stored_phase=Phase.BIDDING, cannons=table.options.cannonball)
    record.entries = [EntryRecord(position=i) for i in range(len(game.seats))]
    game.hands.append(record)
    return record


def entry_columns(entry: Entry, positions: Mapping[str, int]) -> dict[str, Any]:
    """What is stored of a rules' entry, seats by position."""
    return {"bid": entry.bid, "tricks": entry.tricks, "bonuses": {k: v for k, v in entry.bonuses.items() if v},
            "loot_with": [positions[p] for p in entry.loot_with], "wager": entry.wager, "shot": entry.shot,
            "bid_changed_from": entry.bid_changed_from}


def store_entries(game: Game, record: HandRecord, hand: Hand) -> None:
    """Write a hand's values (as given by the rules' Hand) into its records."""
    positions = {s.name: s.position for s in game.seats}
    record.cards = hand.cards
    record.lost_tricks = hand.lost_tricks
    by_position = {e.position: e for e in record.entries}
    for entry in hand.entries:
        stored = by_position[positions[entry.player]]
        for column, value in entry_columns(entry, positions).items():
            setattr(stored, column, value)


def store_hands(game: Game, table: Table, hands: list[Hand]) -> None:
    """A new game's hands (an imported pad's), then the next hand open, unless they end the game."""
    cannons = table.options.cannonball
    for number, hand in enumerate(hands, start=1):
        # An unfinished hand whose loads the file does not have all of resumes with the loading.
        loading = cannons and any(e.shot is None for e in hand.entries)
        record = HandRecord(number=number, cards=hand.cards, cannons=cannons,
                            stored_phase=Phase.SCORED if hand.finished else Phase.LOADING if loading else Phase.PLAYING)
        record.entries = [EntryRecord(position=i, tricks=0) for i in range(len(game.seats))]
        game.hands.append(record)
        store_entries(game, record, hand)
    if all(r.stored_phase == Phase.SCORED for r in game.hands):
        open_next_hand(game, table)
