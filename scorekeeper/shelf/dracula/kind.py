"""Dracula on the table: a game set up from the new-game form, its coffins entered from a phone, shown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from ...access import Actor
from ...i18n import gettext
from ...kinds import Change, Codec, Columns, Context, Decided, Denied, Form, NewMatch, Refused, Secrets, Summary
from ...padfile import JSON, JSONObject
from ...problems import N_, Problem, name_problems, target_problems
from ...standings import leaderboard
from . import pad, rules
from .rules import (
    DEFAULT_TARGET,
    ENTRY_ORDER,
    KING,
    QUEEN,
    RANKS,
    ROUNDS_PER_SET,
    SUITS,
    Setup,
    credited_scores,
    lines,
    parse_coffin,
    round_points,
    standing,
    validate_round,
)

NAME = "dracula"
FORMAT = pad.FORMAT
PLAY_WORD = "round"
TITLE = N_("Dracula")
TEMPLATE = "dracula/round.html"
NEW_TEMPLATE = "dracula/new.html"
# The coffin's picker, Dracula's own: its style and script.
ASSETS: tuple[tuple[str, str], ...] = (("dracula.static", "coffin.css"), ("dracula.static", "coffin.js"))
SECRETS: tuple[str, ...] = ()  # every coffin is laid in the open
RULES_TEMPLATE = "dracula/rules.html"
# One line of each kind, to read its multiplier from the rules: one suit, one colour, a pair of a suit, none.
MULTIPLIER_LINES = {"suit": ("2H", "5H", "9H"), "colour": ("2H", "5D", "9H"), "pair": ("2H", "5H", "9S"),
                    "none": ("2H", "5S", "9C")}


@dataclass(frozen=True)
class Round:
    """A round played: its coffin, the nine cards in three rows of three."""

    coffin: list[list[str]]


# A round closes as it is entered: no draft stays open between taps.
PLAY = Codec(Round)
DRAFT = PLAY
# The game's setup as the database keeps it: its target beside the two players.
SETUP = Codec(Setup)


class Tap(TypedDict):
    """A tap on the round's screen: the coffin's nine cards as typed or tapped, three rows of codes."""

    coffin: list[list[str]]


def setup_from_form(form: Form) -> NewMatch[Setup]:
    """The game the new-game form describes: who plays the Queen's way (rows), who the King's, the target."""
    found: NewMatch[Setup] = NewMatch(names=[n.strip() for n in form.getlist("player")][:2])
    names = [n for n in found.names if n]
    raw = str(form.get("target", "") or "").strip()
    target = DEFAULT_TARGET
    if raw:
        if raw.isascii() and raw.isdigit() and len(raw) <= 7:
            target = int(raw)
            found.problems.extend(target_problems(target))
        else:
            found.problems.append(Problem(N_("“%(value)s” is not a whole number."), {"value": raw[:20]}))
    if len(names) != 2:
        found.problems.append(Problem(N_("Dracula is for two players: give both names.")))
    elif names[0] == names[1]:
        found.problems.append(Problem(N_("Every player needs a different name.")))
    found.problems.extend(name_problems(names))
    if not found.problems:
        queen, king = names if form.get("queen", "0") != "1" else names[::-1]
        found.setup = Setup(queen, king, target)
    return found


def form_fields(setup: Setup) -> list[tuple[str, str]]:
    """The new-game form filled in for another game with the same players and options."""
    return [("player", setup.queen), ("player", setup.king), ("target", str(setup.target))]


def stored(setup: Setup) -> tuple[list[str], Columns]:
    """The seats' names (the Queen's way first) and the options as the database keeps them."""
    return [setup.queen, setup.king], Columns(ruleset=NAME, first_dealer=0, options={"target": setup.target})


def from_stored(players: list[str], columns: Columns) -> Setup:
    """The setup of a stored game."""
    return SETUP.load({**columns["options"], "queen": players[0], "king": players[1]})


def read_pad(doc: JSONObject, check: bool = False) -> tuple[Setup, list[Round]]:
    """A pad file's game and its rounds; PadError with every problem."""
    game = pad.read(doc, check)
    return game.setup, [Round(coffin) for coffin in game.coffins]


def write_pad(setup: Setup, plays: Sequence[Round]) -> JSONObject:
    """The pad file of a game."""
    return pad.write(setup, [p.coffin for p in plays])


def finished(setup: Setup, plays: Sequence[Round]) -> bool:
    """Whether the game is over."""
    return standing(setup, [p.coffin for p in plays]).winner is not None


def parse_change(form: Form) -> Tap | None:
    """The nine cards of a coffin as typed or tapped, in reading order."""
    cells = [str(form.get(f"cell-{i}", "")) for i in range(9)]
    return {"coffin": parse_coffin([cell[:4] for cell in cells])}


def apply(setup: Setup, plays: Sequence[Round], draft: Round | None, actor: Actor,
          change: Tap, secrets: Secrets) -> Decided[Round, Round]:
    """A coffin entered by either player's phone or the host: checked, then the round is scored."""
    if actor.seat is None and not actor.is_host:
        return Denied()
    coffin = change["coffin"]
    blank = [str(i + 1) for i, card in enumerate(c for row in coffin for c in row) if not card]
    number = len(plays) + 1
    if blank:
        return Refused((Problem(N_("the coffin has nine cards: %(count)d are missing."),
                                         {"count": len(blank)}, number, (), "round"),))
    problems = validate_round(number, coffin, standing(setup, [p.coffin for p in plays]).winner is not None)
    if problems:
        return Refused(tuple(problems))
    # The coffin is both players' round: the host enters it only when neither plays on a phone.
    return Change(closed=Round(coffin), entered_for=tuple(range(len(setup.players))))


def round_view(setup: Setup, number: int, coffin: list[list[str]]) -> Context:
    """One scored round: each player's lines with value and multiplier, the line each is credited, the points."""
    rows, columns = lines(coffin, QUEEN), lines(coffin, KING)
    queen, king = credited_scores([line.score for line in rows], [line.score for line in columns])
    return {"number": number, "coffin": coffin, "rows": rows, "columns": columns,
            "points": {setup.queen: queen, setup.king: king},
            "credited": {QUEEN: next(i for i, line in enumerate(rows) if line.score == queen),
                         KING: next(i for i, line in enumerate(columns) if line.score == king)}}


def context(setup: Setup, plays: Sequence[Round], draft: Round | None,
            actor: Actor, secrets: Secrets) -> Context:
    """What the round screen shows: the last round scored, the sets so far, the totals, the winner."""
    coffins = [p.coffin for p in plays]
    now = standing(setup, coffins)
    rounds = [round_view(setup, number, coffin) for number, coffin in enumerate(coffins, start=1)]
    sets = [rounds[i:i + ROUNDS_PER_SET] for i in range(0, len(rounds), ROUNDS_PER_SET)]
    names = setup.players
    return {
        "setup": setup, "rounds": rounds, "sets": sets, "bonuses": now.bonuses,
        "last": rounds[-1] if rounds else None,
        "round_number": len(coffins) + 1,
        "set_number": now.set_number, "round_in_set": now.rounds_in_set + 1,
        "standings": leaderboard(names, now.totals),
        "champion": None if now.winner is None else names[now.winner],
        "ranks": RANKS, "suits": SUITS, "entry_order": ENTRY_ORDER,
        "can_enter": actor.is_host or actor.seat is not None,
    }


def card_state(setup: Setup, plays: Sequence[Round], draft: Round | None,
               actor: Actor, secrets: Secrets) -> object:
    """What this browser's own card holds besides the round it is drawn for: the empty coffin to fill."""
    return None


def summary(setup: Setup, plays: Sequence[Round]) -> Summary:
    """What a finished game leaves for the crew's statistics; a set's bonus counts in its sixth round."""
    coffins = [p.coffin for p in plays]
    now = standing(setup, coffins)
    per_round = []
    for number, coffin in enumerate(coffins, start=1):
        queen, king = round_points(coffin)
        if number % ROUNDS_PER_SET == 0 and number // ROUNDS_PER_SET <= len(now.bonuses):
            bonus = now.bonuses[number // ROUNDS_PER_SET - 1]
            queen, king = queen + bonus[0], king + bonus[1]
        per_round.append([queen, king])
    return {"kind": NAME, "players": [setup.queen, setup.king], "totals": list(now.totals),
            "winners": [setup.players[now.winner]] if now.winner is not None else [], "per_hand": per_round}


def label(ruleset: str, options: Mapping[str, JSON]) -> str:
    """The game's name in lists, in the reader's language."""
    return str(gettext(TITLE))


def bg_stats_game(setup: Setup) -> tuple[str, int | None]:
    """The game as BG Stats knows it (by name: no BoardGameGeek id confirmed)."""
    return "Dracula", None


def rules_context(setup: Setup) -> Context:
    """Its rules page: each card's value on either way and the lines' multipliers, read from its rules, with this
    game's target."""
    values = [(rank, rules.value(rank + "S", rules.QUEEN), rules.value(rank + "S", rules.KING))
              for rank in rules.RANKS]
    multipliers = {kind: rules.multiplier(cards) for kind, cards in MULTIPLIER_LINES.items()}
    return {"values": values, "multipliers": multipliers,
            "rounds_per_set": rules.ROUNDS_PER_SET, "target": setup.target, "vampires": rules.VAMPIRES,
            "queen": setup.queen, "king": setup.king}
