"""Skip-Bo across several games: the match pad's rules, pure Python (plain values in and out).

The card play needs no app; the pad does: who went out, the cards left in the others'
stock piles, 25 + 5 per card to the winner, until someone reaches the target.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ...problems import N_, Problem, target_problems
from ..sides import Sides

MIN_PLAYERS, MAX_PLAYERS = 2, 6
MIN_STOCK, MAX_STOCK = 5, 30
DEFAULT_TARGET = 500
# A match of more games than this is no match a table plays: its pad is refused, and its next game.
MAX_GAMES = 200
WIN_POINTS, PER_CARD = 25, 5


def default_stock(players: int) -> int:
    """The printed stock pile: 30 cards with 2–4 players, 20 with 5–6."""
    return 30 if players <= 4 else 20


@dataclass(frozen=True)
class Setup(Sides):
    """Who plays (alone, or in teams of two by seat), the stock pile size and the target."""

    players: tuple[str, ...]
    stock: int
    target: int = DEFAULT_TARGET
    # Teams of two as seat pairs; empty when everyone plays alone.
    teams: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class GameResult:
    """One game: the side that went out, and the cards left in each opponent's stock pile."""

    winner: int
    left: Mapping[str, int] = field(default_factory=dict)


def validate_setup(setup: Setup) -> list[Problem]:
    """Every problem with the players, teams, stock and target."""
    problems = []
    count = len(setup.players)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        problems.append(Problem(N_("Skip-Bo is for %(low)d to %(high)d players, not %(count)d."),
                                {"low": MIN_PLAYERS, "high": MAX_PLAYERS, "count": count}))
    problems.extend(setup.name_problems())
    if setup.teams:
        seats = sorted(seat for team in setup.teams for seat in team)
        if count not in (4, 6) or seats != list(range(count)) or any(len(t) != 2 for t in setup.teams):
            problems.append(Problem(N_("Teams are of two, with 4 or 6 players.")))
    if not MIN_STOCK <= setup.stock <= MAX_STOCK:
        problems.append(Problem(N_("A stock pile has %(low)d to %(high)d cards, not %(stock)d."),
                                {"low": MIN_STOCK, "high": MAX_STOCK, "stock": setup.stock}))
    problems.extend(target_problems(setup.target))
    return problems


def points(result: GameResult) -> int:
    """What the winner of a game scores: 25, and 5 per card left in the opponents' stock piles."""
    return WIN_POINTS + PER_CARD * sum(result.left.values())


def opponents(setup: Setup, winner: int) -> list[str]:
    """The players whose cards left count, when `winner` went out."""
    return [setup.players[seat] for side, seats in enumerate(setup.sides) if side != winner for seat in seats]


def validate_game(setup: Setup, number: int, result: GameResult, before: Sequence[GameResult] = (),
                  complete: bool = True) -> list[Problem]:
    """Every problem with game `number` after the games `before`; `complete` False checks a game still being entered."""
    def problem(template: str, players: Sequence[str] = (), **params: object) -> Problem:
        return Problem(template, params, number, tuple(players), "game")

    if number > MAX_GAMES:
        return [problem(N_("a match has at most %(most)d games."), most=MAX_GAMES)]
    if match_winner(setup, before) is not None:
        return [problem(N_("the match is already won: no game after it."))]
    if not 0 <= result.winner < len(setup.sides):
        return [problem(N_("the winner must be one of the players."))]
    problems = []
    winners = [setup.players[seat] for seat in setup.sides[result.winner]]
    listed_winners = [name for name in result.left if name in winners]
    if listed_winners:
        problems.append(problem(N_("%(names)s went out, so has no cards left to count."), listed_winners))
    expected = opponents(setup, result.winner)
    strangers = [name for name in result.left if name not in setup.players]
    if strangers:
        problems.append(problem(N_("not playing in this match: %(names)s."), strangers))
    missing = [name for name in expected if name not in result.left]
    if missing and complete:
        problems.append(problem(N_("%(names)s: the cards left in the stock pile are missing."), missing))
    for name, cards in result.left.items():
        if name not in expected:
            continue
        if not 0 <= cards <= setup.stock:
            problems.append(problem(N_("%(names)s: cards left must be 0 to %(stock)d, the stock pile, not %(cards)d."),
                                    [name], stock=setup.stock, cards=cards))
        elif cards == 0 and not setup.teams:
            problems.append(problem(N_("%(names)s: with 0 cards left the game would have ended with %(names)s."),
                                    [name]))
    if setup.teams:
        for side, seats in enumerate(setup.sides):
            names = [setup.players[seat] for seat in seats]
            if side != result.winner and all(result.left.get(name) == 0 for name in names):
                problems.append(problem(N_("%(names)s: both stock piles empty means this team went out."), names))
    return problems


def totals(setup: Setup, results: Sequence[GameResult]) -> list[int]:
    """Each side's total after `results`."""
    found = [0] * len(setup.sides)
    for result in results:
        found[result.winner] += points(result)
    return found


def match_winner(setup: Setup, results: Sequence[GameResult]) -> int | None:
    """The side that won the match (the highest total once someone reached the target), or None yet."""
    found = totals(setup, results)
    if max(found, default=0) < setup.target:
        return None
    return max(range(len(found)), key=lambda side: (found[side], -side))
