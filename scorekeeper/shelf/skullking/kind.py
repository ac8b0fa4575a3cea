"""Skull King on the table: its rules (`played.py`) on the table's plays (`kinds.OnPlays`), as every game's.

The table machinery asks this of Skull King as of any game (`kinds.GameKind`); its hands are
the table's plays (`storage.py`, `hands.py`) and its pages are its own (`views.py`: the hand; `scorepad.py`:
the score pad, the big screen, the end; `judge.py`: the trick judge).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import click
from flask import Flask

from ...games import GameState
from ...i18n import gettext
from ...kinds import Context, GameKind, OnPlays, PlayedGame, Started, open_folder
from ...views.pushed import GAME
from ...views.pushed import pages_of as pushed_pages_of
from . import hands, pad, played, reading, rules, words
from .changes import Tap
from .rules import Setup
from .storage import HandRow


class SkullKing(OnPlays[Setup, HandRow, HandRow, Tap]):
    """Skull King on the table: its rules (`played`) on the table's plays, as every game's, with what it brings
    besides: its own pages (the hand, the score pad, the big screen, the end, the trick judge), a command, the next
    dealer for a rematch, its own CSV, an imported pad's open hand and the hand in play in an export."""

    def init_app(self, app: Flask) -> None:
        """Its folder (its pages, templates, static files and words), and what the live stream pushes of its pages and
        the big screen."""
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

    def new_game_context(self) -> Context:
        """Its form's title, and the round structures it offers."""
        return {"title": gettext("New game"), "rounds": rules.ROUND_STRUCTURES}

    def rematch(self, setup: Setup) -> Setup:
        """The same table and rules again; the next player deals first."""
        return replace(setup, first_dealer=(setup.first_dealer + 1) % len(setup.players))

    def write_csv(self, setup: Setup, plays: Sequence[HandRow]) -> str:
        """The pad as CSV: a row per hand and player, with bids, tricks, bonuses, points and running total."""
        return pad.write_csv(self.write_pad(setup, plays))

    def bg_stats_game(self, setup: Setup) -> tuple[str, int | None, int]:
        """The game as BG Stats knows it; who led the first trick (left of the first dealer) started."""
        return (*self.rules.bg_stats_game(setup), (setup.first_dealer + 1) % len(setup.players))

    def start(self, setup: Setup, plays: Sequence[HandRow]) -> Started:
        """A new game's hands: an imported pad's (an unfinished last one's bids and loads the table's secret entries,
        shown), and the next one open to bid."""
        return hands.started(setup, list(plays))

    def played(self, game: PlayedGame) -> list[HandRow]:
        """The hands the whole table has seen, with their bids and loads: the scored ones, and the one in play; a hand
        still being bid is left out, its bids unrevealed."""
        assert isinstance(game, GameState)
        return [hand.row(shown=True) for hand in reading.seen_by(game, None).hands if not hand.phase.is_secret]


# Typed as the interface: mypy checks that Skull King is a kind whose setup is a `Setup` and whose plays are its hands'
# rows.
SKULL_KING: GameKind[Setup, HandRow] = SkullKing(played)
