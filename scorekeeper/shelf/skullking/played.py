"""Skull King's rules as the table asks them of every game (`kinds.PlayedRules`): its new-game form, its setup as
stored, its hands as the table keeps them (a hand is a `storage.HandRow`, closed once scored), its pad file, a tap and
what its pages show.

Its taps are decided in `changes.py` on the game as the acting browser may see it (`reading.GameSeen`); its pages
(the hand, the score pad, the big screen, the end, the trick judge) are its own, on its Blueprint (`views.py`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...access import Actor
from ...kinds import Columns, Context, Form, NewMatch, Secrets, Summary
from ...padfile import JSON, JSONObject
from ...problems import N_
from . import NAME as NAME
from . import changes, feats, forms, hands, pad, reading, rules, shown, storage, words
from .changes import Answer, Tap, TapKind
from .reading import GameSeen
from .rules import Options, Setup
from .sheet import sheet
from .storage import HandRow, Phase

FORMAT = pad.FORMAT
TITLE = N_("Skull King")
PLAY_WORD = "hand"
TEMPLATE = "skullking/game.html"
NEW_TEMPLATE = "skullking/new.html"
RULES_TEMPLATE = "skullking/rules.html"
# A hand is stored as its row, open or scored (its bids and loads the table's secret entries until it is scored).
PLAY = storage.HAND
DRAFT = storage.HAND
SECRETS: tuple[str, ...] = storage.SECRETS
# Its own styles (the hand's facts, the result cards, the loads) and script (the result card in view).
ASSETS: tuple[tuple[str, str], ...] = (("skull_king.static", "game.css"), ("skull_king.static", "card.js"))
# As BG Stats knows it: its BoardGameGeek id (see the README).
BG_STATS = ("Skull King", 150145)


def setup_from_form(form: Form) -> NewMatch[Setup]:
    """The table the new-game form describes: names in seat order, ruleset, options and first dealer."""
    parsed = forms.parse_new_game(form)
    return NewMatch(parsed.table, list(parsed.problems), parsed.names)


def form_fields(setup: Setup) -> list[tuple[str, str]]:
    """The new-game form filled in for another game with the same table; the next player deals first."""
    options = setup.options.to_document(setup.ruleset).items()
    return [("ruleset", setup.ruleset), *(("player", name) for name in setup.players),
            ("first_dealer", str((setup.first_dealer + 1) % len(setup.players))),
            *((key, "on") for key, value in options if value is True),
            *((key, value) for key, value in options if isinstance(value, str))]


def stored(setup: Setup) -> tuple[list[str], Columns]:
    """The seats' names, and the ruleset, first dealer and options as the game's columns."""
    return list(setup.players), Columns(ruleset=setup.ruleset, first_dealer=setup.first_dealer,
                                        options=setup.options.to_document(setup.ruleset))


def from_stored(players: list[str], columns: Columns) -> Setup:
    """The rules' table of a stored game."""
    return Setup(columns["ruleset"], tuple(players), Options.from_document(columns["options"]),
                 columns["first_dealer"])


def label(ruleset: str, options: Mapping[str, JSON]) -> str:
    """A game's name in lists: its ruleset's."""
    return words.ruleset_name(ruleset)


def read_pad(doc: JSONObject, check: bool = False) -> tuple[Setup, list[HandRow]]:
    """A pad file's table and its hands as their plays store them, seats in order; PadError with every problem."""
    found = pad.read_pad(doc, check)
    return found.table, [hands.row_of(found.table, hand) for hand in found.hands]


def write_pad(setup: Setup, plays: Sequence[HandRow]) -> JSONObject:
    """The pad file, with points and totals."""
    return pad.write_pad(setup, [hands.hand_of(setup, row) for row in plays])


def finished(setup: Setup, plays: Sequence[HandRow]) -> bool:
    """Whether every hand of the game is played and scored."""
    return len(plays) == len(rules.cards_per_hand(setup)) and all(row.phase == Phase.SCORED for row in plays)


def summary(setup: Setup, plays: Sequence[HandRow]) -> Summary:
    """What a finished game leaves for its crew's statistics: totals, points per hand and each one's feats."""
    return feats.summary(setup, [hands.hand_of(setup, row) for row in plays])


def bg_stats_game(setup: Setup) -> tuple[str, int | None]:
    """The game as BG Stats knows it."""
    return BG_STATS


def rules_context(setup: Setup) -> Context:
    """Its rules page: the cards, what beats what and the points of this table's rules and options."""
    return sheet(setup)


def parse_change(form: Form) -> Tap | None:
    """A tap on its pages: what it does (`tap`) and to which hand (`hand`); its fields are read against the locked
    game (`changes.decide`)."""
    kind, number = form.get("tap", ""), form.get("hand", "")
    if kind not in set(TapKind) or not (number.isascii() and number.isdigit() and len(number) <= 3):
        return None
    return Tap(TapKind(kind), int(number), form)


def apply(setup: Setup, plays: Sequence[HandRow], draft: HandRow | None, actor: Actor, change: Tap,
          secrets: Secrets) -> Answer:
    """What a tap changes, on the game as the acting browser may see it."""
    return changes.decide(GameSeen.of_plays(setup, plays, draft, secrets), actor, change)


def context(setup: Setup, plays: Sequence[HandRow], draft: HandRow | None, actor: Actor,
            secrets: Secrets) -> Context:
    """What its hand page shows this browser of the game as it may see it (`shown.screen_context`)."""
    return shown.screen_context(GameSeen.of_plays(setup, plays, draft, secrets), actor)


def card_state(setup: Setup, plays: Sequence[HandRow], draft: HandRow | None, actor: Actor,
               secrets: Secrets) -> object:
    """What this browser's own card shows of the hand open now: its phase and cards, a phone's own entry and the
    clashes it is part of, the host's the entries of the seats without a phone."""
    return reading.card_state(GameSeen.of_plays(setup, plays, draft, secrets), actor)
