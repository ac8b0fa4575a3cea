"""Wizard on the table: bids in turn or in secret, tricks from each phone, the pad and its file.

`kind` is its rules as the table asks them (`PlayedRules`); `WIZARD` the game the shelf offers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from flask import Flask

from ...kinds import OnPlays, PlayedRules, Started
from . import kind, pad
from .kind import as_round
from .rules import Setup, bidding_order


class WizardKind(OnPlays[Setup]):
    """Wizard as the table offers it: its words, its pad's CSV, the next dealer in a rematch, an imported round
    resumed, and the host's correction of a round."""

    def init_app(self, app: Flask) -> None:
        """Its catalog of words beside the table's, and the host's correction page."""
        from . import views

        app.extensions["babel"].translation_directories.append(str(Path(__file__).parent / "translations"))
        app.register_blueprint(views.bp)

    def write_csv(self, setup: Setup, plays: Sequence[Any]) -> str:
        """The pad as CSV: a row per round and player, with points and running total."""
        return pad.write_csv(setup, [as_round(p) for p in plays])

    def rematch(self, setup: Setup) -> Setup:
        """The same game again; the next player deals first."""
        return replace(setup, first_dealer=(setup.first_dealer + 1) % len(setup.players))

    def bg_stats_game(self, setup: Setup) -> tuple[str, int | None, int]:
        """The game as BG Stats knows it; left of the first dealer leads the first trick."""
        return (*kind.bg_stats_game(setup), bidding_order(setup, 1)[0])

    def start(self, setup: Setup, plays: Sequence[Any]) -> Started:
        """A new game's rounds: an imported pad's, its unfinished last round open again with its bids."""
        finished_rounds = [p for p in plays if p.get("tricks") is not None]
        started = super().start(setup, finished_rounds)
        if len(finished_rounds) == len(plays):
            return started
        bids = {str(seat): bid for seat, bid in enumerate(plays[-1]["bids"])}
        return replace(started, plays=(*started.plays, ({"bids": bids}, False)))


# Typed as the interface: mypy checks Wizard's rules against it.
RULES: PlayedRules[Setup] = kind
WIZARD = WizardKind(RULES)
