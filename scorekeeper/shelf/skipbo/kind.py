"""Skip-Bo on the table: its match set up from the new-game form, stored, changed from phones, shown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict

from ...access import Actor
from ...forms import MOST_NAMES_READ
from ...i18n import gettext
from ...kinds import Change, Codec, Columns, Context, Decided, Denied, Form, NewMatch, Refused, Secrets, Summary
from ...padfile import JSON, JSONObject
from ...problems import N_, Problem
from ...standings import leaderboard
from . import pad, rules
from .rules import (
    DEFAULT_TARGET,
    GameResult,
    Setup,
    default_stock,
    match_winner,
    opponents,
    points,
    totals,
    validate_game,
    validate_setup,
)

NAME = "skip-bo"
FORMAT = pad.FORMAT
PLAY_WORD = "game"
TITLE = N_("Skip-Bo match")
TEMPLATE = "skipbo/match.html"
NEW_TEMPLATE = "skipbo/new.html"
ASSETS: tuple[tuple[str, str], ...] = (("skip_bo.static", "match.css"),)
SECRETS: tuple[str, ...] = ()  # who went out, and the cards left, are said aloud
RULES_TEMPLATE = "skipbo/rules.html"
# A game played is the rules' `GameResult`; the one being entered too, its cards left as far as they are in.
PLAY = Codec(GameResult)
DRAFT = PLAY
# The match's setup as the database keeps it: its options beside the players.
SETUP = Codec(Setup)


class Tap(TypedDict, total=False):
    """A tap on the match screen: who went out (a side), or one player's cards left (`seat`: the host's pick)."""

    went_out: int
    left: int | None
    seat: int | None


def _whole(form: Form, key: str, default: int, found: NewMatch[Setup]) -> int:
    raw = str(form.get(key, "") or "").strip()
    if not raw:
        return default
    if raw.isascii() and raw.isdigit() and len(raw) <= 6:
        return int(raw)
    found.problems.append(Problem(N_("“%(value)s” is not a whole number."), {"value": raw[:20]}))
    return default


def setup_from_form(form: Form) -> NewMatch[Setup]:
    """The match the new-game form describes: names in seat order, teams of two by seat, stock, target."""
    found: NewMatch[Setup] = NewMatch(names=[n.strip() for n in form.getlist("player")][:MOST_NAMES_READ])
    names = tuple(n for n in found.names if n)
    teams = tuple((i, i + 1) for i in range(0, len(names), 2)) if form.get("teams") == "on" else ()
    stock = _whole(form, "stock", default_stock(len(names)), found)
    target = _whole(form, "target", DEFAULT_TARGET, found)
    setup = Setup(names, stock, target, teams)
    found.problems.extend(validate_setup(setup))
    if not found.problems:
        found.setup = setup
    return found


def form_fields(setup: Setup) -> list[tuple[str, str]]:
    """The new-game form filled in for another game with the same players and options."""
    return [*(("player", name) for name in setup.players), ("stock", str(setup.stock)),
            ("target", str(setup.target)), *((("teams", "on"),) if setup.teams else ())]


def stored(setup: Setup) -> tuple[list[str], Columns]:
    """The seats' names and the options as the database keeps them."""
    return list(setup.players), Columns(ruleset=NAME, first_dealer=0, options={
        "stock": setup.stock, "target": setup.target, "teams": [list(team) for team in setup.teams]})


def from_stored(players: list[str], columns: Columns) -> Setup:
    """The setup of a stored match."""
    return SETUP.load({**columns["options"], "players": players})


def read_pad(doc: JSONObject, check: bool = False) -> tuple[Setup, list[GameResult]]:
    """A pad file's match and its games; PadError with every problem."""
    match = pad.read(doc, check)
    return match.setup, list(match.results)


def write_pad(setup: Setup, plays: Sequence[GameResult]) -> JSONObject:
    """The pad file of a match."""
    return pad.write(setup, list(plays))


def finished(setup: Setup, plays: Sequence[GameResult]) -> bool:
    """Whether the match is over."""
    return match_winner(setup, list(plays)) is not None


def parse_change(form: Form) -> Tap | None:
    """What a tap on the match screen asks for, or None when it makes no sense."""
    def number(key: str) -> int | None:
        raw = str(form.get(key, "")).strip()
        return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 4 else None

    if "went_out" in form:
        side = number("went_out")
        return None if side is None else {"went_out": side}
    if "left" in form:
        return {"left": number("left"), "seat": number("seat")}
    return None


def apply(setup: Setup, plays: Sequence[GameResult], draft: GameResult | None, actor: Actor,
          change: Tap, secrets: Secrets) -> Decided[GameResult, GameResult]:
    """One tap: who went out (their own side from a phone, anyone from the host), or cards left (one's own)."""
    results = list(plays)
    number = len(results) + 1

    def refuse(template: str, players: tuple[str, ...] = (), **params: object) -> Decided[GameResult, GameResult]:
        return Refused((Problem(template, params, number, players, "game"),))

    if match_winner(setup, results) is not None:
        return refuse(N_("the match is already won: no game after it."))
    if "went_out" in change:
        side = change["went_out"]
        if not 0 <= side < len(setup.sides):
            return refuse(N_("the winner must be one of the players."))
        if not actor.is_host and actor.seat not in setup.sides[side]:
            return Denied()
        # The counts the others entered stay (said again, or said by another screen, it is the same game); a
        # player who went out has none.
        kept = {name: cards for name, cards in (draft.left if draft else {}).items()
                if name in opponents(setup, side)}
        return Change(draft=GameResult(side, kept))
    seat = change.get("seat") if actor.is_host else actor.seat
    if seat is None or not 0 <= seat < len(setup.players):
        return Denied() if not actor.is_host else refuse(N_("Pick a player."))
    name = setup.players[seat]
    if draft is None:
        return refuse(N_("%(names)s: first say who went out."), (name,))
    winner = draft.winner
    if name not in opponents(setup, winner):
        return refuse(N_("%(names)s went out, so has no cards left to count."), (name,))
    cards = change.get("left")
    if cards is None:
        return refuse(N_("%(names)s: the cards left are a whole number."), (name,))
    left = {**draft.left, name: cards}
    result = GameResult(winner, left)
    complete = set(left) == set(opponents(setup, winner))
    problems = validate_game(setup, number, result, results, complete=complete)
    if not complete:
        problems = [p for p in problems if p.players == (name,)]
    if problems:
        return Refused(tuple(problems))
    return (Change(closed=result, entered_for=(seat,)) if complete
            else Change(draft=result, entered_for=(seat,)))


def context(setup: Setup, plays: Sequence[GameResult], draft: GameResult | None,
            actor: Actor, secrets: Secrets) -> Context:
    """What the match screen shows: the games so far with running totals, the game being entered, who won."""
    results = list(plays)
    rows, running = [], [0] * len(setup.sides)
    for number, result in enumerate(results, start=1):
        running[result.winner] += points(result)
        rows.append({"number": number, "winner": setup.side_name(result.winner), "left": result.left,
                     "points": points(result), "totals": list(running)})
    found = totals(setup, results)
    winner = draft.winner if draft else None
    champion = match_winner(setup, results)
    return {
        "setup": setup, "rows": rows,
        "sides": [setup.side_name(side) for side in range(len(setup.sides))],
        "standings": leaderboard([setup.side_name(side) for side in range(len(setup.sides))], found),
        "champion": None if champion is None else setup.side_name(champion),
        "game_number": len(results) + 1,
        "draft_winner": winner,
        "waiting_for": opponents(setup, winner) if winner is not None else [],
        "left": dict(draft.left) if draft else {},
        "mine": actor.seat,
        "my_side": next((side for side, seats in enumerate(setup.sides) if actor.seat in seats), None),
    }


def card_state(setup: Setup, plays: Sequence[GameResult], draft: GameResult | None,
               actor: Actor, secrets: Secrets) -> object:
    """What this browser's own card holds besides the game it is drawn for: who went out, and the counts its
    forms show (a phone's own, or for the host everyone's), so another phone's count does not redraw a phone's card."""
    if draft is None:
        return None
    if actor.is_host:
        return draft.winner, sorted(draft.left.items())
    name = setup.players[actor.seat] if actor.seat is not None else None
    return draft.winner, draft.left.get(name) if name is not None else None


def summary(setup: Setup, plays: Sequence[GameResult]) -> Summary:
    """What a finished match leaves for the crew's statistics: a side's points count for each of its players."""
    results = list(plays)
    side_of = {seat: side for side, seats in enumerate(setup.sides) for seat in seats}
    found = totals(setup, results)
    champion = match_winner(setup, results)
    summary: Summary = {
        "kind": NAME, "players": list(setup.players),
        "totals": [found[side_of[seat]] for seat in range(len(setup.players))],
        "winners": [setup.players[seat] for seat in setup.sides[champion]] if champion is not None else [],
        "per_hand": [[points(r) if side_of[seat] == r.winner else 0 for seat in range(len(setup.players))]
                     for r in results],
    }
    if setup.teams:
        summary["teams"] = [list(team) for team in setup.teams]
    return summary


def label(ruleset: str, options: Mapping[str, JSON]) -> str:
    """The game's name in lists, in the reader's language."""
    return str(gettext(TITLE))


def bg_stats_game(setup: Setup) -> tuple[str, int | None]:
    """The game as BG Stats knows it (by name: no BoardGameGeek id confirmed)."""
    return "Skip-Bo", None


def rules_context(setup: Setup) -> Context:
    """Its rules page: how a game and the match are scored, with this match's stock piles and target."""
    return {"win_points": rules.WIN_POINTS, "per_card": rules.PER_CARD, "stock": setup.stock,
            "target": setup.target, "teams": bool(setup.teams)}
