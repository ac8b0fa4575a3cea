"""The host's join panel (the QR code, the join code) in every game the table offers, the test game's too: open while
the phones join, folded away (one tap opens it) once a round is played."""

from __future__ import annotations

import pytest
from flask import Flask

from tests.helpers import import_as_host
from tests.test_browser_every_game import SWEEPS


@pytest.fixture
def app(every_game_app: Flask) -> Flask:
    """Every game on the shelf and the test game."""
    return every_game_app


@pytest.mark.parametrize("game", sorted(SWEEPS))
def test_the_join_panel_folds_once_a_round_is_played(app: Flask, game: str) -> None:
    pad = SWEEPS[game].pad
    for rounds, folded in ((0, False), (1, True)):
        host = app.test_client()
        url = import_as_host(host, pad(rounds))
        page = host.get(url).get_data(as_text=True)
        assert '<section class="join-panel"' in page
        assert ('<details class="join-fold">' in page) == folded, (rounds, game)
