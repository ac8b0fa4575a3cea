"""A free pad for any game: points typed per player per round, pure Python (plain values in and out).

Whatever the game, the pad is the same: names in seat order (alone, or in teams whose
points add up), a row of points per round (negative allowed), highest or lowest total
wins, and the game ends at a target, after a number of rounds, or when the host says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...problems import N_, Problem, character_problems, target_problems
from ..sides import Sides

MIN_PLAYERS, MAX_PLAYERS = 1, 12
MAX_ROUNDS = 1000
# Points of one player in one round; the pad file's bound on every number is the same.
MAX_POINTS = 1_000_000
MAX_GAME_NAME = 40
# How the game ends, besides the host ending it.
BY_TARGET, BY_ROUNDS, BY_HOST = "target", "rounds", "host"
ENDS = (BY_TARGET, BY_ROUNDS, BY_HOST)


@dataclass(frozen=True)
class Setup(Sides):
    """The game's name, who plays in seat order, their teams, who wins and when the game ends."""

    game: str
    players: tuple[str, ...]
    # Teams as seat groups; empty when everyone plays alone.
    teams: tuple[tuple[int, ...], ...] = ()
    lowest_wins: bool = False
    end: str = BY_HOST
    # The target (points) or the number of rounds, as `end` says; None when the host ends the game.
    limit: int | None = None


@dataclass(frozen=True)
class Played:
    """The rounds scored (each player's points by name), and whether the host ended the game."""

    rounds: tuple[Mapping[str, int], ...] = ()
    ended: bool = False


def validate_setup(setup: Setup) -> list[Problem]:
    """Every problem with the game's name, the players, the teams and the end."""
    problems = []
    if not setup.game.strip():
        problems.append(Problem(N_("Give the game a name: it heads the pad and the statistics.")))
    elif len(setup.game) > MAX_GAME_NAME:
        problems.append(Problem(N_("A game's name has at most %(most)d characters."), {"most": MAX_GAME_NAME}))
    problems.extend(character_problems([setup.game]))
    count = len(setup.players)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        problems.append(Problem(N_("A free pad is for %(low)d to %(high)d players, not %(count)d."),
                                {"low": MIN_PLAYERS, "high": MAX_PLAYERS, "count": count}))
    problems.extend(setup.name_problems())
    if setup.teams:
        seats = sorted(seat for team in setup.teams for seat in team)
        if seats != list(range(count)) or len(setup.teams) < 2 or any(not team for team in setup.teams):
            problems.append(Problem(N_("With teams, every player is in exactly one team, and there are two or more.")))
    if setup.end not in ENDS:
        problems.append(Problem(N_("The game ends at a target, after a number of rounds, or when the host ends it.")))
    elif setup.end == BY_TARGET:
        problems.extend(target_problems(setup.limit if setup.limit is not None else 0))
    elif setup.end == BY_ROUNDS and not (setup.limit is not None and 1 <= setup.limit <= MAX_ROUNDS):
        problems.append(Problem(N_("The number of rounds must be from 1 to %(most)d, not %(value)s."),
                                {"most": MAX_ROUNDS, "value": "—" if setup.limit is None else setup.limit}))
    return problems


def round_problems(setup: Setup, number: int, points: Mapping[str, int], before: Played,
                   complete: bool = True) -> list[Problem]:
    """Every problem with round `number`'s points after the game `before`; `complete` False checks a round
    still being entered (some players' points not in yet)."""
    def problem(template: str, players: Sequence[str] = (), **params: object) -> Problem:
        return Problem(template, params, number, tuple(players), "round")

    if number > MAX_ROUNDS:
        return [problem(N_("a game has at most %(most)d rounds."), most=MAX_ROUNDS)]
    if is_over(setup, before):
        return [problem(N_("the game is over: no round after it."))]
    problems = []
    strangers = [name for name in points if name not in setup.players]
    if strangers:
        problems.append(problem(N_("not playing in this game: %(names)s."), strangers))
    missing = [name for name in setup.players if name not in points]
    if missing and complete:
        problems.append(problem(N_("%(names)s: the points are missing."), missing))
    for name, value in points.items():
        if name in setup.players and not -MAX_POINTS <= value <= MAX_POINTS:
            problems.append(problem(N_("%(names)s: points are from −%(most)d to %(most)d, not %(value)d."),
                                    [name], most=MAX_POINTS, value=value))
    return problems


def side_totals(setup: Setup, rounds: Sequence[Mapping[str, int]]) -> list[int]:
    """Each side's total after `rounds`: a team's is the sum of its players'."""
    return [sum(r.get(setup.players[seat], 0) for r in rounds for seat in seats) for seats in setup.sides]


def is_over(setup: Setup, played: Played) -> bool:
    """Whether the game has ended: the host ended it, its rounds are played, or a side reached the target."""
    if played.ended:
        return True
    if setup.end == BY_ROUNDS:
        return setup.limit is not None and len(played.rounds) >= setup.limit
    if setup.end == BY_TARGET and setup.limit is not None and played.rounds:
        # Reaching the target ends the game whoever wins then: the highest, or (like Hearts) the lowest.
        return max(side_totals(setup, played.rounds)) >= setup.limit
    return False


def winners(setup: Setup, played: Played) -> list[int]:
    """The sides that won (ties share the win); none while the game goes on or when no round was scored."""
    if not is_over(setup, played) or not played.rounds:
        return []
    found = side_totals(setup, played.rounds)
    best = min(found) if setup.lowest_wins else max(found)
    return [side for side, total in enumerate(found) if total == best]

