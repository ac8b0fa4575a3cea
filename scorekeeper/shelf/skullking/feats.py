"""What each player achieved over a game of Skull King: for its end page and its crew's statistics."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import rules
from .rules import Hand, Table


@dataclass(frozen=True)
class PlayerSummary:
    """One player's feats over a game's scored hands, for the end page."""

    name: str
    bids_made: int
    zero_bids: int
    zero_bids_made: int
    bonus_points: int


def feats(table: Table, scored: Sequence[Hand]) -> list[PlayerSummary]:
    """Bids made, zero bids (and made) and bonus points won, per player, over these scored hands."""
    made = dict.fromkeys(table.players, 0)
    zeros = dict.fromkeys(table.players, 0)
    zero_bids = dict.fromkeys(table.players, 0)
    bonus = dict.fromkeys(table.players, 0)
    for hand in scored:
        for player, points in rules.bonus_points(table, hand).items():
            bonus[player] += points
        for entry in hand.entries:
            zero_bids[entry.player] += entry.bid == 0
            if entry.bid == entry.tricks:
                made[entry.player] += 1
                zeros[entry.player] += entry.bid == 0
    return [PlayerSummary(p, made[p], zero_bids[p], zeros[p], bonus[p]) for p in table.players]
