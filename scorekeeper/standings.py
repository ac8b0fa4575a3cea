"""Who leads: ranks shared on ties, and the leaderboard of any game (pure, like the rules)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Standing:
    """A player's (or team's) place on the leaderboard."""

    rank: int
    name: str
    total: int
    gap: int
    provisional_total: int | None = None


def ranks(totals: Sequence[int], lowest_wins: bool = False) -> list[int]:
    """Each total's place, highest first (or lowest), shared on ties: 30, 30, 10 are 1, 1, 3."""
    if lowest_wins:
        return [1 + sum(other < mine for other in totals) for mine in totals]
    return [1 + sum(other > mine for other in totals) for mine in totals]


def leaderboard(names: Sequence[str], totals: Sequence[int],
                provisional: Sequence[int | None] | None = None, lowest_wins: bool = False) -> list[Standing]:
    """The leaderboard, leader first (ties in seat order), with each gap to the leader (in points, always
    counted as how far behind)."""
    places = ranks(totals, lowest_wins)
    sign = -1 if lowest_wins else 1
    leader = max((sign * t for t in totals), default=0)
    order = sorted(range(len(totals)), key=lambda i: (-sign * totals[i], i))
    return [Standing(places[i], names[i], totals[i], leader - sign * totals[i],
                     provisional[i] if provisional else None) for i in order]
