"""Rules at hand: every registered game has a rules page for the game shown, linked from its screen, in each
language, and the numbers on it are those its scoring gives (worked out here by the scoring functions themselves)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.kinds import registered
from scorekeeper.shelf.dracula import rules as dracula
from scorekeeper.shelf.skipbo import rules as skipbo
from scorekeeper.shelf.skullking import rules as skull_king
from scorekeeper.shelf.skullking.rules import Entry, Hand, Options, Setup
from scorekeeper.shelf.wizard import rules as wizard
from tests.test_host_limits import SCENARIOS, started


@pytest.fixture
def app(every_game_app: Flask) -> Flask:
    return every_game_app


def words(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def rules_page(client: FlaskClient, url: str, language: str = "en") -> str:
    response = client.get(f"{url}/rules", headers={"Accept-Language": language})
    assert response.status_code == 200
    return words(response.get_data(as_text=True))


def test_every_game_s_screen_links_its_rules_page_in_every_language(app: Flask) -> None:
    with app.app_context():
        assert {kind.NAME for kind in registered()} == set(SCENARIOS)
    for game, scenario in SCENARIOS.items():
        host, url, _, _ = scenario(app)
        assert f'href="{url}/rules"' in host.get(url).get_data(as_text=True), game
        for language, heading in (("en", "Rules"), ("de", "Regeln"), ("fr", "Règles"), ("it", "Regole")):
            page = rules_page(host, url, language)
            assert heading in page, (game, language)
            assert "Back to the game" in page or language != "en"


def points(table: Setup, cards: int, bid: int, tricks: int, **entry: Any) -> int:
    """What the scoring gives Anne for one hand (Ben's result only fills the tricks)."""
    hand = Hand(cards, (Entry("Anne", bid, tricks, **entry), Entry("Ben", 0, cards - tricks)))
    return skull_king.score_hand(table, hand)["Anne"]


@pytest.mark.parametrize("ruleset, options", [
    ("classic", {}), ("doubloons", {}), ("modern", {}), ("modern", {"scoring": "rascal", "cannonball": "on"}),
    ("modern", {"advanced_cards": "on", "rascal_wagers": "on", "scoring": "rascal", "expansion": "on"}),
])
def test_skull_king_s_rules_page_has_the_scoring_s_numbers(app: Flask, ruleset: str, options: dict) -> None:
    host, url = started(app, "/games/new", {"ruleset": ruleset, "player": ["Anne", "Ben"], **options})
    page = rules_page(host, url)
    chosen = Options(scoring=options.get("scoring", "standard"), cannonball="cannonball" in options,
                     advanced_cards="advanced_cards" in options, rascal_wagers="rascal_wagers" in options,
                     expansion="expansion" in options)
    table = Setup(ruleset, ("Anne", "Ben"), chosen if ruleset == "modern" else Options())
    if chosen.scoring == "rascal":
        per_card = points(table, 1, 1, 1)
        assert f"+{per_card} per card dealt" in page
        assert points(table, 2, 1, 2) == per_card  # one off: half of two cards' stake
        if chosen.cannonball:
            assert f"+{points(table, 1, 1, 1, shot='cannonball')} per card dealt on an exact bid" in page
    else:
        assert f"+{points(table, 5, 1, 1)} per trick bid" in page
        assert f"−{-points(table, 5, 1, 2)} per trick off" in page
        assert points(table, 5, 1, 3) == 2 * points(table, 5, 1, 2)  # per trick off, as the page says
        zero = points(table, 1, 0, 0)
        assert f"+{zero} per card dealt if made, −{-points(table, 1, 0, 1)} if missed" in page
    for kind, value in table.spec.bonus_values.items():
        # The bonus as scored: a made bid with one such capture, less the same bid without it.
        with_bonus = skull_king.score_hand(table, Hand(2, (Entry("Anne", 1, 1, bonuses={kind: 1}),
                                                           Entry("Ben", 0, 1))))["Anne"]
        assert with_bonus - points(table, 2, 1, 1) == value
        sign = "+" if value > 0 else "−"
        assert f"{sign}{abs(value)} each" in page, kind
    assert f"{skull_king.deck_size(table)} cards in the pack" in page
    assert ", ".join(map(str, skull_king.cards_per_hand(table))) in page
    # What beats what: the judge's own verdicts.
    assert "The Mermaid takes the Skull King." in page and "The Skull King beats every other card." in page


def test_wizard_s_rules_page_has_the_scoring_s_numbers(app: Flask) -> None:
    host, url = started(app, "/games/new/wizard", {"player": ["Anne", "Ben", "Cara"], "no_even_bids": "on"})
    page = rules_page(host, url)
    made_zero, made_two = wizard.points(0, 0), wizard.points(2, 2)
    per_trick = (made_two - made_zero) // 2
    assert f"+{made_zero}, and +{per_trick} per trick won" in page
    assert f"−{-wizard.points(2, 1)} per trick off" in page and wizard.points(3, 1) == 2 * wizard.points(2, 1)
    assert f"{wizard.PACK} cards" in page and f"up to round {wizard.Setup(('A', 'B', 'C')).rounds}" in page
    assert "No even bids" in page


def test_skip_bo_s_rules_page_has_the_scoring_s_numbers(app: Flask) -> None:
    host, url = started(app, "/games/new/skip-bo", {"player": ["Anne", "Ben"], "target": "300"})
    page = rules_page(host, url)
    going_out = skipbo.points(skipbo.GameResult(0, {}))
    per_card = skipbo.points(skipbo.GameResult(0, {"Ben": 1})) - going_out
    assert f"Going out +{going_out}" in page and f"Each card left in an opponent's stock pile +{per_card}" in page
    assert "The first to 300 points wins the match." in page


def test_dracula_s_rules_page_has_the_scoring_s_numbers(app: Flask) -> None:
    host, url = started(app, "/games/new/dracula", {"player": ["Anne", "Ben"]})
    page = rules_page(host, url)
    for rank in dracula.RANKS:
        assert f"{rank} {dracula.value(rank + 'H', dracula.QUEEN)} {dracula.value(rank + 'H', dracula.KING)}" in page
    assert f"Three of one suit ×{dracula.multiplier(['2H', '3H', '4H'])}" in page
    assert f"Three of one colour ×{dracula.multiplier(['2H', '3D', '4H'])}" in page
    assert f"Two of one suit ×{dracula.multiplier(['2H', '3H', '4S'])}" in page
    assert f"Otherwise ×{dracula.multiplier(['2H', '3S', '4C'])}" in page
    assert f"After {dracula.ROUNDS_PER_SET} rounds" in page


def test_a_free_pad_s_rules_page_says_who_wins_and_when_it_ends(app: Flask) -> None:
    host, url = started(app, "/games/new/free-pad", {"player": ["Anne", "Ben"], "game": "Golf", "lowest_wins": "on",
                                                      "end": "rounds", "rounds": "9"})
    page = rules_page(host, url)
    assert "The rules of Golf are the table's own" in page
    assert "The lowest total wins." in page and "The game ends after 9 rounds." in page
