"""Wizard on the table: bids in turn or in secret, tricks from each phone, the pad and its file.

`kind` is its rules as the table asks them (`PlayedRules`); `WIZARD` the game the shelf offers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from flask import Flask

from ...kinds import OnPlays, PlayedRules, Started, open_folder
from . import kind, pad
from .kind import DRAFT, Draft
from .rules import Round, Setup, bidding_order


class WizardKind(OnPlays[Setup, Round, Draft, kind.Tap]):
    """Wizard as the table offers it: its words, its pad's CSV, the next dealer in a rematch, an imported round
    resumed, and the host's correction of a round."""

    def init_app(self, app: Flask) -> None:
        """Its folder (its words beside the table's, its style sheet) and the host's correction page."""
        from . import views

        open_folder(app, views.bp)

    def write_csv(self, setup: Setup, plays: Sequence[Round]) -> str:
        """The pad as CSV: a row per round and player, with points and running total."""
        return pad.write_csv(setup, list(plays))

    def rematch(self, setup: Setup) -> Setup:
        """The same game again; the next player deals first."""
        return replace(setup, first_dealer=(setup.first_dealer + 1) % len(setup.players))

    def bg_stats_game(self, setup: Setup) -> tuple[str, int | None, int]:
        """The game as BG Stats knows it; left of the first dealer leads the first trick."""
        return (*kind.bg_stats_game(setup), bidding_order(setup, 1)[0])

    def start(self, setup: Setup, plays: Sequence[Round]) -> Started:
        """A new game's rounds: an imported pad's, its unfinished last round open again with its bids."""
        finished_rounds = [r for r in plays if r.finished]
        started = super().start(setup, finished_rounds)
        if len(finished_rounds) == len(plays):
            return started
        bids = dict(enumerate(plays[-1].bids))
        return replace(started, plays=(*started.plays, (DRAFT.dump(Draft(bids=bids)), False)))


# Typed as the interface: mypy checks Wizard's rules against it, its rounds and drafts its own types.
RULES: PlayedRules[Setup, Round, Draft, kind.Tap] = kind
WIZARD = WizardKind(RULES)
