"""The free pad on the table: any game set up from the new-game form, its points typed from phones, shown."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from ...access import Actor
from ...forms import MOST_NAMES_READ
from ...kinds import Change, Codec, Columns, Context, Decided, Denied, Form, NewMatch, Refused, Secrets, Summary
from ...padfile import JSON, JSONObject
from ...problems import N_, Problem, character_problems
from ...standings import leaderboard
from . import pad, rules
from .rules import (
    BY_HOST,
    BY_ROUNDS,
    BY_TARGET,
    ENDS,
    MAX_POINTS,
    Played,
    Setup,
    is_over,
    round_problems,
    side_totals,
    validate_setup,
    winners,
)

NAME = "free-pad"
FORMAT = pad.FORMAT
PLAY_WORD = "round"
TITLE = N_("Free pad")
TEMPLATE = "freepad/round.html"
NEW_TEMPLATE = "freepad/new.html"
RULES_TEMPLATE = "freepad/rules.html"
ASSETS: tuple[tuple[str, str], ...] = (("free_pad.static", "pad.css"),)
SECRETS: tuple[str, ...] = ()  # a free pad keeps what the table says aloud
# A whole number, negative allowed, with a typed minus of any kind (phones offer − and –).
WHOLE = re.compile(r"[-−–]?[0-9]{1,7}")


@dataclass(frozen=True)
class Round:
    """A round's points by player's name (in seat order; the open round's as far as they are typed), or the host's
    end of the game, a closed play of its own without points."""

    points: Mapping[str, int] = field(default_factory=dict)
    end: bool = False


# A closed round and the open one alike.
PLAY = Codec(Round)
DRAFT = PLAY
# The pad's setup as the database keeps it: its options beside the players.
SETUP = Codec(Setup)


class Tap(TypedDict, total=False):
    """A save on the pad: points typed for some seats (as typed, by seat), or the host ending the game."""

    end: bool
    typed: dict[int, str]


def _whole(raw: str) -> int | None:
    text = raw.strip()
    if not WHOLE.fullmatch(text):
        return None
    return -int(text[1:]) if text[0] in "-−–" else int(text)


def setup_from_form(form: Form) -> NewMatch[Setup]:
    """The game the new-game form describes: its name, names in seat order with their teams, who wins, the end."""
    typed = [n.strip() for n in form.getlist("player")][:MOST_NAMES_READ]
    team_labels = [t.strip().casefold() for t in form.getlist("team")][:MOST_NAMES_READ]
    found_labels = character_problems(team_labels)
    found: NewMatch[Setup] = NewMatch(names=typed)
    seats = [i for i, name in enumerate(typed) if name]
    names = tuple(typed[i] for i in seats)
    teams: tuple[tuple[int, ...], ...] = ()
    labels = [team_labels[i] if i < len(team_labels) else "" for i in seats]
    if any(labels):
        if not all(labels):
            found.problems.append(Problem(N_("With teams, give every player a team.")))
        else:
            order = list(dict.fromkeys(labels))
            teams = tuple(tuple(seat for seat, label in enumerate(labels) if label == team) for team in order)
    end = str(form.get("end", BY_HOST))
    limit = None
    if end in (BY_TARGET, BY_ROUNDS):
        raw = str(form.get(end, "") or "").strip()
        limit = _whole(raw) if raw else None
        if limit is None:
            found.problems.append(Problem(N_("“%(value)s” is not a whole number."), {"value": raw[:20] or "—"}))
            return found
    setup = Setup(str(form.get("game", "")).strip(), names, teams, form.get("lowest_wins") == "on",
                  end if end in ENDS else BY_HOST, limit)
    found.problems.extend(validate_setup(setup) + found_labels)
    if not found.problems:
        found.setup = setup
    return found


def form_fields(setup: Setup) -> list[tuple[str, str]]:
    """The new-game form filled in for another game with the same players and options."""
    team_of = {seat: str(side + 1) for side, seats in enumerate(setup.teams) for seat in seats}
    return [("game", setup.game), *(("player", name) for name in setup.players),
            *(("team", team_of.get(seat, "")) for seat in range(len(setup.players))),
            *((("lowest_wins", "on"),) if setup.lowest_wins else ()), ("end", setup.end),
            *(((setup.end, str(setup.limit)),) if setup.limit is not None else ())]


def stored(setup: Setup) -> tuple[list[str], Columns]:
    """The seats' names and the options as the database keeps them."""
    return list(setup.players), Columns(ruleset=NAME, first_dealer=0, options={
        "game": setup.game, "teams": [list(team) for team in setup.teams], "lowest_wins": setup.lowest_wins,
        "end": setup.end, "limit": setup.limit})


def from_stored(players: list[str], columns: Columns) -> Setup:
    """The setup of a stored game."""
    return SETUP.load({**columns["options"], "players": players})


def label(ruleset: str, options: Mapping[str, JSON]) -> str:
    """The game's own name, as lists and statistics show it."""
    return str(options.get("game", ""))


def played(plays: Sequence[Round]) -> Played:
    """The closed plays as the rules read them: the rounds, and whether the host ended the game."""
    return Played(tuple(p.points for p in plays if not p.end), any(p.end for p in plays))


def read_pad(doc: JSONObject, check: bool = False) -> tuple[Setup, list[Round]]:
    """A pad file's game and its rounds; PadError with every problem."""
    found = pad.read(doc, check)
    plays = [Round(dict(r)) for r in found.played.rounds]
    return found.setup, plays + ([Round(end=True)] if found.played.ended else [])


def write_pad(setup: Setup, plays: Sequence[Round]) -> JSONObject:
    """The pad file of a game."""
    return pad.write(setup, played(plays))


def finished(setup: Setup, plays: Sequence[Round]) -> bool:
    """Whether the game is over."""
    return is_over(setup, played(plays))


def parse_change(form: Form) -> Tap | None:
    """What a save on the pad asks for: points typed for some seats, or the host ending the game."""
    if form.get("end") == "1":
        return {"end": True}
    typed: dict[int, str] = {}
    for key in form:
        if key.startswith("points-") and key[7:].isascii() and key[7:].isdigit() and len(key) <= 10:
            raw = str(form.get(key, "")).strip()
            if raw:
                typed[int(key[7:])] = raw[:20]
    return {"typed": typed} if typed else None


def apply(setup: Setup, plays: Sequence[Round], draft: Round | None, actor: Actor,
          change: Tap, secrets: Secrets) -> Decided[Round, Round]:
    """Points typed by a phone (its own) or the host (anyone's); the round closes when everyone's are in."""
    before = played(plays)
    number = len(before.rounds) + 1

    def refuse(template: str, players: tuple[str, ...] = (), **params: object) -> Decided[Round, Round]:
        return Refused((Problem(template, params, number, players, "round"),))

    if is_over(setup, before):
        return refuse(N_("the game is over: no round after it."))
    if change.get("end"):
        return Change(closed=Round(end=True)) if actor.is_host else Denied()
    points = dict(draft.points) if draft else {}
    problems = []
    for seat, raw in sorted(change.get("typed", {}).items()):
        if not 0 <= seat < len(setup.players):
            return refuse(N_("Pick a player."))
        if not actor.is_host and seat != actor.seat:
            return Denied()
        name = setup.players[seat]
        value = _whole(raw)
        if value is None:
            problems.append(Problem(N_("%(names)s: “%(value)s” is not a whole number of points."),
                                    {"value": raw}, number, (name,), "round"))
        else:
            points[name] = value
    if problems:
        return Refused(tuple(problems))
    complete = all(name in points for name in setup.players)
    found = round_problems(setup, number, points, before, complete)
    if found:
        return Refused(tuple(found))
    ordered = {name: points[name] for name in setup.players if name in points}
    typed = tuple(sorted(change.get("typed", {})))
    return (Change(closed=Round(ordered), entered_for=typed) if complete
            else Change(draft=Round(ordered), entered_for=typed))


def context(setup: Setup, plays: Sequence[Round], draft: Round | None,
            actor: Actor, secrets: Secrets) -> Context:
    """What the pad shows: the rounds with running totals, who has typed this round, the leaderboard, who won."""
    now = played(plays)
    rows, running = [], [0] * len(setup.players)
    for number, points in enumerate(now.rounds, start=1):
        running = [total + points.get(name, 0) for total, name in zip(running, setup.players)]
        rows.append({"number": number, "points": [points.get(name, 0) for name in setup.players],
                     "totals": list(running)})
    sides = [setup.side_name(side) for side in range(len(setup.sides))]
    won = winners(setup, now)
    entered = dict(draft.points) if draft else {}
    over = is_over(setup, now)
    return {
        "setup": setup, "rows": rows, "sides": sides,
        "standings": leaderboard(sides, side_totals(setup, now.rounds), lowest_wins=setup.lowest_wins),
        "over": over, "champion": " · ".join(sides[side] for side in won) if won else None,
        "round_number": len(now.rounds) + 1,
        "entered": entered,
        "mine": actor.seat,
        "can_enter": actor.is_host or actor.seat is not None,
        "max_points": MAX_POINTS,
    }


def card_state(setup: Setup, plays: Sequence[Round], draft: Round | None,
               actor: Actor, secrets: Secrets) -> object:
    """What this browser's own card holds besides the round it is drawn for: nothing of the others' points
    (they show on the table), so another phone's save never redraws it."""
    return None


def summary(setup: Setup, plays: Sequence[Round]) -> Summary:
    """What a finished game leaves for the crew's statistics: a team's total counts for each of its players."""
    now = played(plays)
    side_of = {seat: side for side, seats in enumerate(setup.sides) for seat in seats}
    found = side_totals(setup, now.rounds)
    won = set(winners(setup, now))
    summary: Summary = {
        "kind": NAME, "group": f"{NAME}:{setup.game.casefold()}", "name": setup.game,
        "lowest_wins": setup.lowest_wins,
        "players": list(setup.players),
        "totals": [found[side_of[seat]] for seat in range(len(setup.players))],
        "winners": [setup.players[seat] for seat in range(len(setup.players)) if side_of[seat] in won],
        "per_hand": [[r.get(name, 0) for name in setup.players] for r in now.rounds],
    }
    if setup.teams:
        summary["teams"] = [list(team) for team in setup.teams]
    return summary


def bg_stats_game(setup: Setup) -> tuple[str, int | None]:
    """The game as BG Stats knows it: by the name typed (BG Stats matches it), no BoardGameGeek id."""
    return setup.game, None


def rules_context(setup: Setup) -> Context:
    """Its rules page: the game's own rules are the players'; the pad's are who wins and when it ends."""
    return {"game_name": setup.game, "lowest_wins": setup.lowest_wins, "end": setup.end, "limit": setup.limit,
            "by_target": rules.BY_TARGET, "by_rounds": rules.BY_ROUNDS, "teams": bool(setup.teams)}
