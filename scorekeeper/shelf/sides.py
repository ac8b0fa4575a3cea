"""Who scores together in a game of the shelf: each player alone, or teams of seats; and the totals by side
as a pad file states them. Shared by the games played alone or in teams."""

from __future__ import annotations

from ..padfile import Reader, is_whole, shown
from ..problems import N_, Problem, name_problems


class Sides:
    """A setup's sides, from its `players` (in seat order) and `teams` (seat groups; empty: everyone alone)."""

    players: tuple[str, ...]
    teams: tuple[tuple[int, ...], ...]

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Who scores together: each team, or each player alone."""
        return self.teams or tuple((seat,) for seat in range(len(self.players)))

    def side_name(self, side: int) -> str:
        """A side as people say it: "Anne" or "Anne + Cara"."""
        return " + ".join(self.players[seat] for seat in self.sides[side])

    def name_problems(self) -> list[Problem]:
        """Every player needs a name that can be a seat, and a different one: the sides and the pad say who by name."""
        problems = name_problems(self.players)
        if len(set(self.players)) != len(self.players):
            problems.append(Problem(N_("Every player needs a different name.")))
        return problems


class SidesReader(Reader):
    """Reads a pad file whose totals are by side: a list by team position, or each player's by name."""

    def read_totals(self, setup: Sides, raw: object) -> list[int] | None:
        """The stated totals in side order, or None (and a problem) when they are not well formed."""
        if setup.teams:
            if isinstance(raw, list) and len(raw) == len(setup.sides) and all(is_whole(v) for v in raw):
                return list(raw)
            self.add(N_("“totals” must be a list of whole numbers, one per team, not %(value)s."), value=shown(raw))
            return None
        if isinstance(raw, dict) and set(raw) == set(setup.players) and all(is_whole(v) for v in raw.values()):
            return [raw[name] for name in setup.players]
        self.add(N_("“totals” must give every player a whole number, not %(value)s."), value=shown(raw))
        return None
