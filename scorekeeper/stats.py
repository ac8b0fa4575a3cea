"""A crew's statistics and its charts, from the summaries of its finished games. Pure Python.

A summary is what a finished game leaves for the statistics (see `GameKind.summary`): its
kind, the players, each one's total and points per hand (or per game, round), the
winners, and for games of bids the bids made, zero bids (and made) and, where the
game has them, bonus points.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
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
    # Their best hand (round, game of a match): the most points in one, or the fewest where the lowest total wins.
    best_hand: int | None = None
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
            for points in summary["per_hand"]:
                stats.best_hand = points[index] if stats.best_hand is None else better(stats.best_hand, points[index])
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
          styles: Mapping[str, int] | None = None, from_zero: bool = True) -> Chart:
    """A chart of each player's values over x (games of a crew, or hands of a game).

    `styles`: each player's colour and dash by a number, so a player looks the same in every chart of a page;
    `from_zero`: the value axis starts at 0 (points), else at the lowest value (ratings, near 1500).
    """
    points = [p for values in series.values() for p in values]
    values = [y for _, y in points]
    low = min([0, *values]) if from_zero or not values else min(values)
    high = max([1, *values]) if from_zero or not values else max([low + 1, *values])
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


def sides(summary: Mapping[str, Any]) -> list[list[int]]:
    """Who finished together in a game: its teams (players by index), or each player alone."""
    teams = summary.get("teams") or []
    return [list(team) for team in teams] or [[index] for index in range(len(summary["players"]))]


def places(summary: Mapping[str, Any]) -> list[int]:
    """Each player's finishing place in a game (1: first; players level share a place): its winners first, then
    by total, the highest first (the lowest where the lowest total wins). Partners share their team's place."""
    lowest = bool(summary.get("lowest_wins"))
    keys = [(name not in summary["winners"], total if lowest else -total)
            for name, total in zip(summary["players"], summary["totals"], strict=True)]
    return [1 + sum(other < key for other in keys) for key in keys]


def _placed_with(summaries: Sequence[Mapping[str, Any]],
                 name: str) -> Iterator[tuple[int, list[tuple[str, int]]]]:
    """For each game `name` played: their place, and each other player with theirs."""
    for summary in summaries:
        players = list(summary["players"])
        if name in players:
            found = places(summary)
            yield found[players.index(name)], [(other, place) for other, place in zip(players, found, strict=True)
                                               if other != name]


@dataclass(frozen=True)
class HeadToHead:
    """How a player fared against another in the games they played together: ahead of them, behind, level."""

    other: str
    games: int
    ahead: int
    behind: int
    level: int


def head_to_head(summaries: Sequence[Mapping[str, Any]], name: str) -> list[HeadToHead]:
    """A player against each other player of these games, the most games together first."""
    counts: dict[str, list[int]] = {}
    for mine, others in _placed_with(summaries, name):
        for other, place in others:
            count = counts.setdefault(other, [0, 0, 0])
            count[0 if mine < place else 1 if mine > place else 2] += 1
    return sorted((HeadToHead(other, sum(c), c[0], c[1], c[2]) for other, c in counts.items()),
                  key=lambda h: (-h.games, h.other))


@dataclass(frozen=True)
class Rival:
    """The player most often just ahead of another (in the nearest place ahead of theirs): how often, in how many
    games together."""

    name: str
    just_ahead: int
    together: int


def rival(summaries: Sequence[Mapping[str, Any]], name: str) -> Rival | None:
    """The player most often just ahead of `name` (the more games together, then the name, break a tie); None when
    nobody ever finished ahead of them."""
    just_ahead: dict[str, int] = {}
    together: dict[str, int] = {}
    for mine, others in _placed_with(summaries, name):
        nearest = max((place for _, place in others if place < mine), default=None)
        for other, place in others:
            together[other] = together.get(other, 0) + 1
            if place == nearest:
                just_ahead[other] = just_ahead.get(other, 0) + 1
    if not just_ahead:
        return None
    best = min(just_ahead, key=lambda other: (-just_ahead[other], -together[other], other))
    return Rival(best, just_ahead[best], together[best])


# Everyone's rating before their first game, and the most a game of two sides moves it.
FIRST_RATING = 1500
K_FACTOR = 32


@dataclass
class Ratings:
    """Each player's rating in one game of a crew, and its course: (how many of its games had ended, the rating then),
    from just before their first game on."""

    now: dict[str, float] = field(default_factory=dict)
    course: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    games: int = 0

    def ranked(self) -> list[tuple[str, int]]:
        """Each player and their rating, rounded, the highest first."""
        return sorted(((name, round(value)) for name, value in self.now.items()), key=lambda r: (-r[1], r[0]))


def expected(rating: float, other: float) -> float:
    """What a side rated `rating` is expected to score against one rated `other` (Elo: 1 a win, 0.5 a tie)."""
    return 1 / (1 + 10 ** ((other - rating) / 400))


def ratings(summaries: Sequence[Mapping[str, Any]]) -> dict[str, Ratings]:
    """Per game, each player's Elo rating after these games, taken in the order given (the order they ended).

    Every pair of sides of a game is one match: the side that finished ahead scores 1, a tie 0.5 each; a side is
    rated as its players' average and each of its players moves by the side's change, K = 32 / (sides - 1), all
    from the ratings before the game. A player alone is a side of one.
    """
    found: dict[str, Ratings] = {}
    for summary in summaries:
        board = found.setdefault(group_of(summary), Ratings())
        players = list(summary["players"])
        teams = sides(summary)
        if len(teams) < 2:
            continue
        board.games += 1
        finished = places(summary)
        before = [sum(board.now.get(players[i], FIRST_RATING) for i in team) / len(team) for team in teams]
        ranks = [finished[team[0]] for team in teams]
        k = K_FACTOR / (len(teams) - 1)
        change = [0.0] * len(teams)
        # Each match once: what one side gains, the other loses (their expected scores add up to 1).
        for a in range(len(teams)):
            for b in range(a + 1, len(teams)):
                score = 1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] else 0.0
                gain = k * (score - expected(before[a], before[b]))
                change[a] += gain
                change[b] -= gain
        for side, team in enumerate(teams):
            for index in team:
                name = players[index]
                course = board.course.setdefault(name, [(board.games - 1, FIRST_RATING)])
                board.now[name] = board.now.get(name, FIRST_RATING) + change[side]
                course.append((board.games, round(board.now[name])))
    return found


@dataclass
class Record:
    """A browser's record in one game, over the games it played in a seat: played, won, and its places."""

    games: int = 0
    wins: int = 0
    places: int = 0

    @property
    def average_place(self) -> float:
        """Its average finishing place (1: first)."""
        return self.places / self.games if self.games else 0.0


def record(played: Sequence[tuple[Mapping[str, Any], int]]) -> dict[str, Record]:
    """Per game, the record of whoever played these seats: each a finished game's summary and the seat's place in
    it (its players are in seat order)."""
    found: dict[str, Record] = {}
    for summary, seat in played:
        mine = found.setdefault(group_of(summary), Record())
        mine.games += 1
        mine.wins += summary["players"][seat] in summary["winners"]
        mine.places += places(summary)[seat]
    return found


@dataclass(frozen=True)
class Standing:
    """A player's night: games played, won, and their points added up."""

    name: str
    games: int
    wins: int
    points: int


def standings(summaries: Sequence[Mapping[str, Any]]) -> list[Standing]:
    """Each player's games, wins and points over these games, the most wins first, then the most points."""
    found: dict[str, list[int]] = {}
    for summary in summaries:
        for name, total in zip(summary["players"], summary["totals"], strict=True):
            figures = found.setdefault(name, [0, 0, 0])
            figures[0] += 1
            figures[1] += name in summary["winners"]
            figures[2] += total
    return sorted((Standing(name, *figures) for name, figures in found.items()),
                  key=lambda s: (-s.wins, -s.points, s.name))
