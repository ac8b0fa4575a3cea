"""A crew's statistics and its charts, from the summaries of its finished games. Pure Python.

A summary is what a finished game leaves for the statistics (see `GameKind.summary`): its
kind, the players, each one's total and points per hand (or per game, round), the
winners, and for games of bids the bids made, zero bids (and made) and, where the
game has them, bonus points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# Lines of a chart differ in their dash as well as their colour: colour is never the only sign.
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 4", "10 4", "4 2 1 2", "3 6")


@dataclass
class PlayerStats:
    """One player's record in one game of a crew."""

    name: str
    games: int = 0
    wins: int = 0
    total: int = 0
    best: int | None = None
    hands: int = 0
    bids_made: int = 0
    zero_bids: int = 0
    zero_bids_made: int = 0
    bonus: int = 0
    # Whether its game has bonus points at all (its summary says so: some games of bids have none).
    has_bonus: bool = False
    totals: list[tuple[int, int]] = field(default_factory=list)  # (game's place in the crew, total)

    @property
    def average(self) -> float:
        """Average total per game."""
        return self.total / self.games if self.games else 0.0

    @property
    def bids_made_share(self) -> float | None:
        """Share of hands whose bid was made."""
        return self.bids_made / self.hands if self.hands else None

    @property
    def zero_bids_share(self) -> float | None:
        """Share of zero bids that were made."""
        return self.zero_bids_made / self.zero_bids if self.zero_bids else None

    @property
    def bonus_per_game(self) -> float:
        """Bonus points per game."""
        return self.bonus / self.games if self.games else 0.0


def group_of(summary: Mapping[str, Any]) -> str:
    """Which statistics a game counts in: its kind's, or (a free pad) its game's."""
    return str(summary.get("group", summary["kind"]))


def statistics(summaries: Sequence[Mapping[str, Any]]) -> dict[str, list[PlayerStats]]:
    """Per game, each player's record over the summaries (in the crew's order), best average first
    (the lowest, in a game the lowest total wins)."""
    found: dict[str, dict[str, PlayerStats]] = {}
    lowest: dict[str, bool] = {}
    for place, summary in enumerate(summaries, start=1):
        group = group_of(summary)
        lowest[group] = bool(summary.get("lowest_wins"))
        players = found.setdefault(group, {})
        for index, name in enumerate(summary["players"]):
            stats = players.setdefault(name, PlayerStats(name))
            total = summary["totals"][index]
            stats.games += 1
            stats.wins += name in summary["winners"]
            stats.total += total
            better = min if lowest[group] else max
            stats.best = total if stats.best is None else better(stats.best, total)
            stats.totals.append((place, total))
            if "bids_made" in summary:
                stats.hands += len(summary["per_hand"])
                stats.bids_made += summary["bids_made"][index]
                stats.zero_bids += summary["zero_bids"][index]
                stats.zero_bids_made += summary["zero_bids_made"][index]
            if "bonus" in summary:
                stats.has_bonus = True
                stats.bonus += summary["bonus"][index]
    return {group: sorted(players.values(), key=lambda s: (s.average if lowest[group] else -s.average, s.name))
            for group, players in found.items()}


@dataclass(frozen=True)
class Chart:
    """A line chart drawn as SVG: one line per player, the axes' ends, sized for a phone."""

    width: int
    height: int
    lines: tuple[tuple[str, str, str, int], ...]  # (name, SVG points, dash, colour)
    x_label: str
    low: int
    high: int
    count: int


def chart(series: Mapping[str, Sequence[tuple[int, int]]], x_label: str, width: int = 320, height: int = 180,
          styles: Mapping[str, int] | None = None) -> Chart:
    """A chart of each player's values over x (games of a crew, or hands of a game).

    `styles`: each player's colour and dash by a number, so a player looks the same in every chart of a page.
    """
    points = [p for values in series.values() for p in values]
    low = min([0, *(y for _, y in points)])
    high = max([1, *(y for _, y in points)])
    first = min((x for x, _ in points), default=0)
    last = max((x for x, _ in points), default=1)
    pad = 8

    def place(x: int, y: int) -> str:
        across = pad + (width - 2 * pad) * ((x - first) / (last - first) if last > first else 0.5)
        up = pad + (height - 2 * pad) * (1 - (y - low) / (high - low))
        return f"{across:.1f},{up:.1f}"

    style = dict(styles or {})
    for name in series:
        style.setdefault(name, len(style))
    lines = tuple((name, " ".join(place(x, y) for x, y in values), DASHES[style[name] % len(DASHES)], style[name])
                  for name, values in series.items())
    return Chart(width, height, lines, x_label, low, high, last - first + 1 if points else 0)


def player_styles(summaries: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """A number per player of a crew, in the order they first played: their colour and dash in every chart."""
    styles: dict[str, int] = {}
    for summary in summaries:
        for name in summary["players"]:
            styles.setdefault(name, len(styles))
    return styles


def running(per_hand: Sequence[Sequence[int]], players: Sequence[str]) -> dict[str, list[tuple[int, int]]]:
    """Each player's running total after each hand (or game, round) of one game."""
    found: dict[str, list[tuple[int, int]]] = {name: [(0, 0)] for name in players}
    for number, points in enumerate(per_hand, start=1):
        for index, name in enumerate(players):
            found[name].append((number, found[name][-1][1] + points[index]))
    return found
