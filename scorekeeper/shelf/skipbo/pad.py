"""The `skip-bo-pad` file: read strictly (every problem at once), written with points and totals."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...padfile import JSONObject, PadError, is_name_lists, is_names, is_whole, shown
from ...problems import N_, Problem
from ..sides import SidesReader
from .rules import (
    DEFAULT_TARGET,
    MAX_GAMES,
    GameResult,
    Setup,
    default_stock,
    match_winner,
    points,
    totals,
    validate_game,
    validate_setup,
)

FORMAT = "skip-bo-pad"
VERSION = 1
TOP_KEYS = ("format", "version", "players", "teams", "stock", "target", "games", "totals")
GAME_KEYS = ("winner", "left", "points")


@dataclass
class Match:
    """A read pad: the setup and the games played, with the points and totals it claimed."""

    setup: Setup
    results: list[GameResult]
    # By game number: the game as read, and the points the pad states for it.
    claimed_points: dict[int, tuple[GameResult, int]] = field(default_factory=dict)
    claimed_totals: list[int] | None = None


class _Reader(SidesReader):
    unit = "game"

    def read(self, doc: JSONObject) -> Match | None:
        self.unknown_keys(doc, TOP_KEYS)
        self.version_is(doc, VERSION)
        setup = self.read_setup(doc)
        if setup is None:
            return None
        match = Match(setup, [])
        games = self.listed(doc, "games", MAX_GAMES, N_("“games” must be a list of games, not %(value)s."))
        if games is None:
            return None
        for number, raw in enumerate(games, start=1):
            result = self.read_game(setup, number, raw)
            if result is None:
                continue
            problems = validate_game(setup, number, result, match.results)
            self.extend(problems)
            if not problems:
                match.results.append(result)
                if isinstance(raw, dict) and "points" in raw:
                    match.claimed_points[number] = (result, raw["points"])
        if "totals" in doc:
            match.claimed_totals = self.read_totals(setup, doc["totals"])
        return match

    def read_setup(self, doc: JSONObject) -> Setup | None:
        teams: tuple[tuple[int, int], ...] = ()
        if "teams" in doc and "players" in doc:
            self.add(N_("a pad has “players” or “teams”, not both."))
            return None
        if "teams" in doc:
            raw = doc["teams"]
            if not is_name_lists(raw):
                self.add(N_("“teams” must be a list of teams, each a list of names, not %(value)s."),
                         value=shown(raw))
                return None
            players = [name for team in raw for name in team]
            if not 2 <= len(raw) <= 3 or any(len(team) != 2 for team in raw):
                self.add(N_("“teams” must be two or three teams of two."))
                return None
            teams = tuple((2 * i, 2 * i + 1) for i in range(len(raw)))
        else:
            raw = doc.get("players")
            if not is_names(raw):
                self.add(N_("“players” must be a list of names, not %(value)s."), value=shown(raw))
                return None
            players = raw
        stock = self.whole(doc, "stock", required=False)
        target = self.whole(doc, "target", required=False)
        if ("stock" in doc and stock is None) or ("target" in doc and target is None):
            return None
        setup = Setup(tuple(players), stock if stock is not None else default_stock(len(players)),
                      target if target is not None else DEFAULT_TARGET, teams)
        problems = validate_setup(setup)
        self.extend(problems)
        return None if problems else setup

    def read_game(self, setup: Setup, number: int, raw: object) -> GameResult | None:
        if not isinstance(raw, dict):
            self.add(N_("a game must be an object, not %(value)s."), number, value=shown(raw))
            return None
        before = len(self.problems)
        self.unknown_keys(raw, GAME_KEYS, number)
        winner = raw.get("winner")
        if setup.teams:
            side = winner if is_whole(winner) and 0 <= winner < len(setup.sides) else None
            if side is None:
                self.add(N_("“winner” must be a team's position, 0 to %(last)d, not %(value)s."), number,
                         last=len(setup.sides) - 1, value=shown(winner))
        else:
            side = setup.players.index(winner) if winner in setup.players else None
            if side is None:
                self.add(N_("“winner” must be a player's name, not %(value)s."), number, value=shown(winner))
        left = raw.get("left")
        if not isinstance(left, dict) or not all(is_whole(v) for v in left.values()):
            self.add(N_("“left” must name each opponent with a whole number of cards, not %(value)s."), number,
                     value=shown(left))
        if "points" in raw and not is_whole(raw["points"]):
            self.add(N_("“points” must be a whole number, not %(value)s."), number, value=shown(raw["points"]))
        if len(self.problems) > before or side is None or not isinstance(left, dict):
            return None
        return GameResult(side, dict(left))


def check_claims(match: Match, with_totals: bool = True) -> list[Problem]:
    """Every stated point (of the games read) or total that differs from the rules."""
    problems = []
    for number, (result, claimed) in match.claimed_points.items():
        if claimed != points(result):
            problems.append(Problem(N_("%(names)s: the pad says %(claimed)s, the rules give %(given)d."),
                                    {"claimed": shown(claimed), "given": points(result)}, number,
                                    (match.setup.side_name(result.winner),), "game"))
    if with_totals and match.claimed_totals is not None:
        for side, (claimed, given) in enumerate(zip(match.claimed_totals, totals(match.setup, match.results))):
            if claimed != given:
                problems.append(Problem(N_("totals: %(names)s: the pad says %(claimed)s, the rules give %(given)d."),
                                        {"claimed": shown(claimed), "given": given}, None,
                                        (match.setup.side_name(side),)))
    return problems


def read(doc: JSONObject, check: bool = False) -> Match:
    """Read a `skip-bo-pad` document (its format already known); PadError with every problem."""
    reader = _Reader()
    match = reader.read(doc)
    problems = list(reader.problems)
    if check and match is not None:
        # Totals are compared only when every game was read: otherwise they differ anyway.
        problems.extend(check_claims(match, with_totals=not problems))
    if problems or match is None:
        raise PadError(problems)
    return match


def write(setup: Setup, results: list[GameResult]) -> JSONObject:
    """The pad document of a match, with each game's points and the totals."""
    doc: JSONObject = {"format": FORMAT, "version": VERSION}
    if setup.teams:
        doc["teams"] = [[setup.players[a], setup.players[b]] for a, b in setup.teams]
    else:
        doc["players"] = list(setup.players)
    doc["stock"] = setup.stock
    doc["target"] = setup.target
    doc["games"] = [{"winner": result.winner if setup.teams else setup.players[result.winner],
                     "left": dict(result.left), "points": points(result)} for result in results]
    found = totals(setup, results)
    doc["totals"] = [total for total in found] if setup.teams else dict(zip(setup.players, found, strict=True))
    return doc


def finished(setup: Setup, results: list[GameResult]) -> bool:
    """Whether the match is over."""
    return match_winner(setup, results) is not None
