"""Skull King on the table: its setup (the rules' `Setup`), its plays (the hands), its pad file and statistics.

The table machinery asks this of Skull King as of any game (`shelf.GameKind`); its hands are
the table's plays (`storage.py`, `hands.py`) and its pages are its own (`views.py`: the hand; `scorepad.py`:
the score pad, the big screen, the end; `judge.py`: the trick judge).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import click
from flask import Flask

from ...i18n import gettext
from ...kinds import Context, Form, GameKind, NewMatch, Started, Summary, open_folder
from ...padfile import JSONObject
from ...problems import N_
from ...views.pushed import GAME
from ...views.pushed import pages_of as pushed_pages_of
from . import NAME, forms, hands, pad, reading, rules, storage, words
from .feats import summary
from .rules import Hand, Setup
from .sheet import sheet


class SkullKing:
    """Skull King as a kind of game on the table."""

    NAME = NAME
    SECRETS: tuple[str, ...] = storage.SECRETS
    FORMAT = pad.FORMAT
    TITLE = N_("Skull King")
    NEW_TEMPLATE = "skullking/new.html"
    RULES_TEMPLATE = "skullking/rules.html"
    # Its own styles (the hand's facts, the result cards, the loads) and script (the result card in view).
    ASSETS: tuple[tuple[str, str], ...] = (("skull_king.static", "game.css"), ("skull_king.static", "card.js"))
    # As BG Stats knows it: its BoardGameGeek id (see the README).
    BG_STATS = ("Skull King", 150145)

    @property
    def played_rules(self) -> None:
        """None: it keeps its hands and draws its screens itself."""
        return None

    def init_app(self, app: Flask) -> None:
        """Its Blueprint (the hand, the score pad, the end, the trick judge), what the live stream pushes of its
        pages and the big screen, and its templates' words."""
        # The score pad's and the trick judge's views are on the hand's Blueprint.
        from . import judge, scorepad, views  # noqa: F401

        pages = pushed_pages_of(app)
        pages.add(self.NAME, GAME, views.GAME_PAGE)
        pages.add(self.NAME, "scorepad", scorepad.PAD_PAGE)
        pages.add(self.NAME, "screen", scorepad.SCREEN_CONTENT)
        pages.add(self.NAME, "end", scorepad.END_PAGE)
        open_folder(app, views.bp)
        words.init_app(app)

    def commands(self) -> list[click.Command]:
        """`scorekeeper trick`: the trick judge on the command line."""
        from .commands import trick

        return [trick]

    def setup_from_form(self, form: Form) -> NewMatch[Setup]:
        """The table the new-game form describes: names in seat order, ruleset, options and first dealer."""
        parsed = forms.parse_new_game(form)
        return NewMatch(parsed.table, list(parsed.problems), parsed.names)

    def new_game_context(self) -> Context:
        """Its form's title, and the round structures it offers."""
        return {"title": gettext("New game"), "rounds": rules.ROUND_STRUCTURES}

    def form_fields(self, table: Setup) -> list[tuple[str, str]]:
        """The new-game form filled in for another game with the same table; the next player deals first."""
        options = table.options.to_document(table.ruleset).items()
        return [("ruleset", table.ruleset), *(("player", name) for name in table.players),
                ("first_dealer", str((table.first_dealer + 1) % len(table.players))),
                *((key, "on") for key, value in options if value is True),
                *((key, value) for key, value in options if isinstance(value, str))]

    def columns(self, table: Setup) -> tuple[list[str], JSONObject]:
        """The seats' names, and the ruleset, first dealer and options as the game's columns."""
        return list(table.players), {"ruleset": table.ruleset, "first_dealer": table.first_dealer,
                                     "options": table.options.to_document(table.ruleset)}

    def setup_of(self, game: Any) -> Setup:
        """The rules' table of a stored game."""
        return reading.table_of(game)

    def rematch(self, table: Setup) -> Setup:
        """The same table and rules again; the next player deals first."""
        return replace(table, first_dealer=(table.first_dealer + 1) % len(table.players))

    def label(self, game: Any) -> str:
        """A game's name in lists: its ruleset's."""
        return words.ruleset_name(game.ruleset)

    def read_pad(self, doc: object, check: bool = False) -> tuple[Setup, list[Hand]]:
        """A pad file's table and hands; PadError with every problem."""
        found = pad.read_pad(doc, check)
        return found.table, list(found.hands)

    def write_pad(self, table: Setup, played: Sequence[Hand]) -> JSONObject:
        """The pad file, with points and totals."""
        return pad.write_pad(table, list(played))

    def write_csv(self, table: Setup, played: Sequence[Hand]) -> str:
        """The pad as CSV: a row per hand and player, with bids, tricks, bonuses, points and running total."""
        return pad.write_csv(pad.write_pad(table, list(played)))

    def finished(self, table: Setup, played: Sequence[Hand]) -> bool:
        """Whether every hand of the game is played and scored."""
        return len(played) == len(rules.cards_per_hand(table)) and all(h.finished for h in played)

    def summary(self, table: Setup, played: Sequence[Hand]) -> Summary:
        """What a finished game leaves for its crew's statistics: totals, points per hand and each one's feats."""
        return summary(table, played)

    def bg_stats_game(self, table: Setup) -> tuple[str, int | None, int]:
        """The game as BG Stats knows it; who led the first trick (left of the first dealer) started."""
        return (*self.BG_STATS, (table.first_dealer + 1) % len(table.players))

    def start(self, table: Setup, played: Sequence[Hand]) -> Started:
        """A new game's hands: an imported pad's, and the next one open to bid."""
        return hands.started(table, list(played))

    def rules_context(self, table: Setup) -> Context:
        """Its rules page: the cards, what beats what and the points of this table's rules and options."""
        return sheet(table)

    def played(self, game: Any) -> list[Hand]:
        """The hands the whole table has seen: a hand still being bid is left out, its bids unrevealed."""
        return reading.game_seen(game).seen()


# Typed as the interface: mypy checks that Skull King is a kind whose setup is a `Setup` and whose plays are `Hand`s.
SKULL_KING: GameKind[Setup, Hand] = SkullKing()
