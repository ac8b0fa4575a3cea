"""The `free-pad` file: read strictly (every problem at once), written with totals and winners."""

from __future__ import annotations

from dataclasses import dataclass

from ...padfile import JSONObject, PadError, is_name_lists, is_names, is_whole, shown
from ...problems import N_, Problem
from ..sides import SidesReader
from .rules import (
    BY_HOST,
    BY_ROUNDS,
    BY_TARGET,
    MAX_ROUNDS,
    Played,
    Setup,
    round_problems,
    side_totals,
    validate_setup,
    winners,
)

FORMAT = "free-pad"
VERSION = 1
TOP_KEYS = ("format", "version", "game", "players", "teams", "lowest_wins", "target", "round_count", "rounds",
            "ended", "totals", "winners")


@dataclass
class FreePad:
    """A read pad: the setup, what was played, and the totals it claimed (if any)."""

    setup: Setup
    played: Played
    claimed_totals: list[int] | None = None


class _Reader(SidesReader):
    unit = "round"

    def read(self, doc: JSONObject) -> FreePad | None:
        self.unknown_keys(doc, TOP_KEYS)
        self.version_is(doc, VERSION)
        setup = self.read_setup(doc)
        if setup is None:
            return None
        raw_rounds = self.listed(doc, "rounds", MAX_ROUNDS, N_("“rounds” must be a list of rounds, not %(value)s."))
        if raw_rounds is None:
            return None
        ended = doc.get("ended", False)
        if not isinstance(ended, bool):
            self.add(N_("“%(key)s” must be true or false, not %(value)s."), key="ended", value=shown(ended))
        rounds: list[dict[str, int]] = []
        for number, raw in enumerate(raw_rounds, start=1):
            if not (isinstance(raw, dict) and all(is_whole(v) for v in raw.values())):
                self.add(N_("a round must give each player a whole number of points, not %(value)s."), number,
                         value=shown(raw))
                continue
            problems = round_problems(setup, number, raw, Played(tuple(rounds)))
            self.extend(problems)
            if not problems:
                rounds.append(dict(raw))
        found = FreePad(setup, Played(tuple(rounds), ended is True))
        if "totals" in doc:
            found.claimed_totals = self.read_totals(setup, doc["totals"])
        return found

    def read_setup(self, doc: JSONObject) -> Setup | None:
        game, players = doc.get("game"), doc.get("players")
        if not isinstance(game, str):
            self.add(N_("“game” must be the game's name, not %(value)s."), value=shown(game))
        if not is_names(players):
            self.add(N_("“players” must be a list of names, not %(value)s."), value=shown(players))
            return None
        teams: tuple[tuple[int, ...], ...] = ()
        if "teams" in doc:
            raw = doc["teams"]
            if not (is_name_lists(raw) and all(n in players for t in raw for n in t)):
                self.add(N_("“teams” must be a list of teams, each a list of the players' names, not %(value)s."),
                         value=shown(raw))
                return None
            teams = tuple(tuple(players.index(name) for name in team) for team in raw)
        lowest = doc.get("lowest_wins", False)
        if not isinstance(lowest, bool):
            self.add(N_("“%(key)s” must be true or false, not %(value)s."), key="lowest_wins", value=shown(lowest))
        if "target" in doc and "round_count" in doc:
            self.add(N_("a pad ends at a “target” or after a “round_count”, not both."))
            return None
        end, limit = BY_HOST, None
        for key, way in (("target", BY_TARGET), ("round_count", BY_ROUNDS)):
            if key in doc:
                end, limit = way, self.whole(doc, key)
                if limit is None:
                    return None
        if not isinstance(game, str) or not isinstance(lowest, bool):
            return None
        setup = Setup(game, tuple(players), teams, lowest, end, limit)
        problems = validate_setup(setup)
        self.extend(problems)
        return None if problems else setup


def read(doc: JSONObject, check: bool = False) -> FreePad:
    """Read a `free-pad` document (its format already known); PadError with every problem."""
    reader = _Reader()
    found = reader.read(doc)
    problems = list(reader.problems)
    if check and found is not None and found.claimed_totals is not None and not problems:
        given = side_totals(found.setup, found.played.rounds)
        for side, (claimed, total) in enumerate(zip(found.claimed_totals, given)):
            if claimed != total:
                problems.append(Problem(N_("totals: %(names)s: the pad says %(claimed)s, the rounds add up to "
                                           "%(given)d."), {"claimed": shown(claimed), "given": total}, None,
                                        (found.setup.side_name(side),)))
    if problems or found is None:
        raise PadError(problems)
    return found


def write(setup: Setup, played: Played) -> JSONObject:
    """The pad document of a game, with the totals and, once it is over, the winners."""
    doc: JSONObject = {"format": FORMAT, "version": VERSION, "game": setup.game, "players": list(setup.players)}
    if setup.teams:
        doc["teams"] = [[setup.players[seat] for seat in team] for team in setup.teams]
    doc["lowest_wins"] = setup.lowest_wins
    if setup.end == BY_TARGET:
        doc["target"] = setup.limit
    elif setup.end == BY_ROUNDS:
        doc["round_count"] = setup.limit
    doc["rounds"] = [dict(r) for r in played.rounds]
    if played.ended:
        doc["ended"] = True
    found = side_totals(setup, played.rounds)
    doc["totals"] = [total for total in found] if setup.teams else dict(zip(setup.players, found, strict=True))
    won = winners(setup, played)
    if won:
        doc["winners"] = [setup.side_name(side) for side in won]
    return doc
