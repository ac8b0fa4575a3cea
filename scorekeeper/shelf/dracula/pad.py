"""The `dracula-pad` file: read strictly (every problem at once), written with points, bonuses and totals."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ...padfile import JSON, JSONObject, Reader, is_name_lists, read_strictly, shown
from ...problems import N_, Problem, name_problems, target_problems
from .rules import (
    DEFAULT_TARGET,
    MAX_ROUNDS,
    ROUNDS_PER_SET,
    Setup,
    points_by_name,
    set_bonus,
    standing,
    validate_round,
)

FORMAT = "dracula-pad"
VERSION = 1
TOP_KEYS = ("format", "version", "players", "target", "sets", "totals")
SET_KEYS = ("rounds", "bonus")
ROUND_KEYS = ("coffin", "points")

Coffin = list[list[str]]


@dataclass
class Game:
    """A read pad: the setup and the coffins of its rounds, in order, with what it claimed."""

    setup: Setup
    coffins: list[Coffin]
    claimed: list[Problem] = field(default_factory=list)


class _Reader(Reader):
    unit = "round"

    def read(self, doc: JSONObject, check: bool) -> Game | None:
        self.unknown_keys(doc, TOP_KEYS)
        self.version_is(doc, VERSION)
        players = doc.get("players")
        queen, king = (players.get("queen"), players.get("king")) if isinstance(players, dict) else (None, None)
        if (not isinstance(players, dict) or set(players) != {"queen", "king"}
                or not isinstance(queen, str) or not isinstance(king, str)
                or not queen.strip() or not king.strip() or queen == king):
            self.add(N_("“players” must name two different players: {\"queen\": …, \"king\": …}, not %(value)s."),
                     value=shown(players))
            return None
        if name_problems([queen, king]):
            self.extend(name_problems([queen, king]))
            return None
        target = self.whole(doc, "target", required=False)
        if "target" in doc and target is None:
            return None
        if target is not None and target_problems(target):
            self.extend(target_problems(target))
            return None
        setup = Setup(queen, king, target or DEFAULT_TARGET)
        game = Game(setup, [])
        sets = self.listed(doc, "sets", -(-MAX_ROUNDS // ROUNDS_PER_SET),
                           N_("“sets” must be a list of sets, not %(value)s."))
        if sets is None:
            return None
        # The totals as the sets end, so whether the game is over is known as each round is read (in a time
        # linear in the file's size).
        totals, over = [0, 0], False
        for index, raw_set in enumerate(sets, start=1):
            if not isinstance(raw_set, dict) or not isinstance(raw_set.get("rounds"), list):
                self.add(N_("set %(set)d must be an object with a list of “rounds”."), set=index)
                return None
            self.unknown_keys(raw_set, SET_KEYS)
            rounds = raw_set["rounds"]
            last = index == len(sets)
            if len(rounds) > ROUNDS_PER_SET or (not last and len(rounds) != ROUNDS_PER_SET):
                self.add(N_("set %(set)d has %(count)d rounds: a set is six rounds (the last may have fewer)."),
                         set=index, count=len(rounds))
                return None
            set_points = [0, 0]
            for raw in rounds:
                number = len(game.coffins) + 1
                coffin = self.read_round(number, raw, over)
                if coffin is None:
                    return None
                game.coffins.append(coffin)
                scored = points_by_name(setup, coffin)
                set_points = [set_points[0] + scored[setup.queen], set_points[1] + scored[setup.king]]
                if check and "points" in raw:
                    self.compare(game, number, raw["points"], scored)
            bonus = set_bonus((set_points[0], set_points[1])) if len(rounds) == ROUNDS_PER_SET else (0, 0)
            totals = [totals[0] + set_points[0] + bonus[0], totals[1] + set_points[1] + bonus[1]]
            over = over or (len(rounds) == ROUNDS_PER_SET and max(totals) >= setup.target)
            if check and "bonus" in raw_set:
                self.compare(game, None, raw_set["bonus"], {setup.queen: bonus[0], setup.king: bonus[1]},
                             what=N_("set %(set)d, bonus: %(names)s: the pad says %(claimed)s, "
                                     "the rules give %(given)d."),
                             set=index)
        if check and "totals" in doc:
            found = standing(setup, game.coffins).totals
            self.compare(game, None, doc["totals"], {setup.queen: found[0], setup.king: found[1]},
                         what=N_("totals: %(names)s: the pad says %(claimed)s, the rules give %(given)d."))
        return game

    def read_round(self, number: int, raw: object, over: bool) -> Coffin | None:
        if not isinstance(raw, dict):
            self.add(N_("a round must be an object, not %(value)s."), number, value=shown(raw))
            return None
        self.unknown_keys(raw, ROUND_KEYS, number)
        coffin = raw.get("coffin")
        if not is_name_lists(coffin):
            self.add(N_("“coffin” must be three rows of three cards, not %(value)s."), number, value=shown(coffin))
            return None
        problems = validate_round(number, coffin, over)
        self.extend(problems)
        return None if problems else [list(row) for row in coffin]

    def compare(self, game: Game, number: int | None, claimed: object, given: Mapping[str, int],
                what: str = N_("%(names)s: the pad says %(claimed)s, the rules give %(given)d."),
                **params: object) -> None:
        if not isinstance(claimed, dict) or set(claimed) != set(given):
            self.add(N_("stated points must give both players a number, not %(value)s."), number,
                     value=shown(claimed))
            return
        for name, points in given.items():
            if claimed[name] != points:
                game.claimed.append(Problem(what, {"claimed": shown(claimed[name]), "given": points, **params},
                                            number, (name,), "round"))


def read(doc: JSONObject, check: bool = False) -> Game:
    """Read a `dracula-pad` document (its format already known); PadError with every problem."""
    reader = _Reader()
    game = reader.read(doc, check)
    return read_strictly(reader, game, game.claimed if game is not None else ())


def write(setup: Setup, coffins: list[Coffin]) -> JSONObject:
    """The pad document of a game: rounds in sets of six, each with its points, each set with its bonus."""
    sets: list[JSON] = []
    for start in range(0, max(len(coffins), 1), ROUNDS_PER_SET):
        chunk = coffins[start:start + ROUNDS_PER_SET]
        scored = [points_by_name(setup, coffin) for coffin in chunk]
        rounds: list[JSON] = [{"coffin": [[card for card in row] for row in coffin], "points": {**points}}
                  for coffin, points in zip(chunk, scored)]
        queen = sum(points[setup.queen] for points in scored)
        king = sum(points[setup.king] for points in scored)
        bonus = set_bonus((queen, king)) if len(chunk) == ROUNDS_PER_SET else (0, 0)
        sets.append({"rounds": rounds, "bonus": {setup.queen: bonus[0], setup.king: bonus[1]}})
    totals = standing(setup, coffins).totals
    return {"format": FORMAT, "version": VERSION, "players": {"queen": setup.queen, "king": setup.king},
            "target": setup.target, "sets": sets, "totals": {setup.queen: totals[0], setup.king: totals[1]}}
