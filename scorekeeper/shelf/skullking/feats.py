"""What each player achieved over a game of Skull King: for its end page and its crew's statistics."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import NAME, rules
from .rules import Hand, Setup

if TYPE_CHECKING:
    from ...kinds import Summary


@dataclass(frozen=True)
class PlayerSummary:
    """One player's feats over a game's scored hands, for the end page."""

    name: str
    bids_made: int
    zero_bids: int
    zero_bids_made: int
    bonus_points: int


def feats(table: Setup, scored: Sequence[Hand]) -> list[PlayerSummary]:
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


def summary(table: Setup, played: Sequence[Hand]) -> Summary:
    """What a finished game leaves for its crew's statistics: totals, points per hand and each one's feats."""
    scored = [h for h in played if h.finished]
    points = [rules.score_hand(table, hand) for hand in scored]
    totals = [sum(p[player] for p in points) for player in table.players]
    best = max(totals)
    found = feats(table, scored)
    return {
        "kind": NAME, "ruleset": table.ruleset, "players": list(table.players), "totals": totals,
        "winners": [p for p, t in zip(table.players, totals, strict=True) if t == best],
        "per_hand": [[p[player] for player in table.players] for p in points],
        "bids_made": [f.bids_made for f in found],
        "zero_bids": [f.zero_bids for f in found],
        "zero_bids_made": [f.zero_bids_made for f in found],
        "bonus": [f.bonus_points for f in found],
    }
