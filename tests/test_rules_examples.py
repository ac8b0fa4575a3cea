"""Every worked example of the rules reference, each its own test, and the cards dealt."""

from __future__ import annotations

import pytest

from scorekeeper.shelf.skullking.rules import (
    Entry,
    Hand,
    Options,
    Setup,
    cards_per_hand,
    provisional_points,
    score_hand,
)

CLASSIC = Setup("classic", ("Anne", "Ben", "Cara"))
MODERN = Setup("modern", ("Anne", "Ben", "Cara"))
RASCAL = Setup("modern", ("Anne", "Ben", "Cara"), Options(scoring="rascal"))
CANNONBALL = Setup("modern", ("Anne", "Ben", "Cara"), Options(scoring="rascal", cannonball=True))
WAGERS = Setup("modern", ("Anne", "Ben", "Cara"), Options(rascal_wagers=True))


def points_of_anne(table: Setup, cards: int, anne: Entry) -> int:
    """Anne's points in a hand where the others bid 0 and take what is left."""
    left = cards - (anne.tricks or 0)
    others = (Entry("Ben", 0, left), Entry("Cara", 0, 0))
    return score_hand(table, Hand(cards, (anne, *others)))["Anne"]


def test_bid_3_won_3_scores_60() -> None:
    assert points_of_anne(CLASSIC, 5, Entry("Anne", 3, 3)) == 60


def test_bid_5_won_1_scores_minus_40() -> None:
    assert points_of_anne(CLASSIC, 6, Entry("Anne", 5, 1)) == -40


def test_hand_4_bid_0_won_0_scores_40() -> None:
    assert points_of_anne(CLASSIC, 4, Entry("Anne", 0, 0)) == 40


def test_hand_9_bid_0_won_2_scores_minus_90() -> None:
    assert points_of_anne(CLASSIC, 9, Entry("Anne", 0, 2)) == -90


def test_classic_skull_king_took_2_pirates_scores_100() -> None:
    anne = Entry("Anne", 2, 2, {"pirates_by_skull_king": 2})
    assert points_of_anne(CLASSIC, 4, anne) == 100


def test_classic_mermaid_took_skull_king_scores_70() -> None:
    anne = Entry("Anne", 1, 1, {"skull_king_by_mermaid": 1})
    assert points_of_anne(CLASSIC, 3, anne) == 70


def test_modern_pirate_by_skull_king_and_yellow_14_scores_80() -> None:
    anne = Entry("Anne", 2, 2, {"pirates_by_skull_king": 1, "standard_fourteens": 1})
    assert points_of_anne(MODERN, 5, anne) == 80


def test_modern_bid_1_won_2_wager_20_scores_minus_30() -> None:
    anne = Entry("Anne", 1, 2, wager=20)
    assert points_of_anne(WAGERS, 4, anne) == -30


def test_modern_rascal_bid_3_won_4_bonuses_20_scores_40() -> None:
    anne = Entry("Anne", 3, 4, {"black_fourteen": 1})
    assert points_of_anne(RASCAL, 6, anne) == 40


def test_modern_rascal_cannonball_bid_2_won_2_scores_90() -> None:
    anne = Entry("Anne", 2, 2, shot="cannonball")
    assert points_of_anne(CANNONBALL, 6, anne) == 90


def test_modern_rascal_cannonball_bid_2_won_3_scores_0() -> None:
    anne = Entry("Anne", 2, 3, shot="cannonball")
    assert points_of_anne(CANNONBALL, 6, anne) == 0


def test_provisional_bid_3_taken_2_shows_minus_10_so_80_from_90() -> None:
    hand = Hand(5, (Entry("Anne", 3, 2), Entry("Ben", 1, None), Entry("Cara", 0, None)))
    provisional = provisional_points(CLASSIC, hand)["Anne"]
    assert provisional == -10
    # Nothing is counted yet for a player who has not given a result.
    assert set(provisional_points(CLASSIC, hand)) == {"Anne"}
    assert 90 + provisional == 80


def test_the_doubloons_edition_scores_like_classic() -> None:
    doubloons = Setup("doubloons", CLASSIC.players)
    anne = Entry("Anne", 1, 1, {"skull_king_by_mermaid": 1})
    assert points_of_anne(doubloons, 3, anne) == 70


def test_loot_pays_both_allies_only_when_both_made_their_bids() -> None:
    table = Setup("modern", ("Anne", "Ben", "Cara"), Options(advanced_cards=True))
    made = Hand(3, (Entry("Anne", 0, 0, loot_with=("Ben",)), Entry("Ben", 2, 2, loot_with=("Anne",)),
                    Entry("Cara", 0, 1)))
    assert score_hand(table, made) == {"Anne": 30 + 20, "Ben": 40 + 20, "Cara": -30}
    missed = Hand(3, (Entry("Anne", 0, 0, loot_with=("Ben",)), Entry("Ben", 1, 2, loot_with=("Anne",)),
                      Entry("Cara", 0, 1)))
    assert score_hand(table, missed)["Anne"] == 30


def test_harry_the_giant_scores_the_changed_bid() -> None:
    anne = Entry("Anne", 3, 3, bid_changed_from=2)
    assert points_of_anne(MODERN, 5, anne) == 60


def test_rascal_stake_does_not_depend_on_a_zero_bid() -> None:
    assert points_of_anne(RASCAL, 4, Entry("Anne", 0, 0)) == 40
    assert points_of_anne(RASCAL, 4, Entry("Anne", 0, 1)) == 20


@pytest.mark.parametrize(
    ("ruleset", "players", "options", "expected"),
    [
        ("classic", 6, Options(), tuple(range(1, 11))),
        ("doubloons", 6, Options(), tuple(range(1, 11))),
        ("modern", 8, Options(), (1, 2, 3, 4, 5, 6, 7, 8, 8, 8)),
        ("modern", 8, Options(advanced_cards=True), (1, 2, 3, 4, 5, 6, 7, 8, 8, 8)),
        ("modern", 4, Options(rounds="even-keeled"), (2, 4, 6, 8, 10)),
        ("modern", 4, Options(rounds="skip-to-the-brawl"), (6, 7, 8, 9, 10)),
        ("modern", 4, Options(rounds="swift-n-salty"), (5, 5, 5, 5, 5)),
        ("modern", 8, Options(rounds="broadside-barrage"), (8,) * 10),
        ("modern", 4, Options(rounds="whirlpool"), (9, 7, 5, 3, 1)),
        ("modern", 4, Options(rounds="past-your-bedtime"), (1,)),
        ("modern", 3, Options(rounds=(3, 3, 7)), (3, 3, 7)),
    ],
)
def test_cards_per_hand(ruleset: str, players: int, options: Options, expected: tuple[int, ...]) -> None:
    table = Setup(ruleset, tuple(f"P{n}" for n in range(players)), options)
    assert cards_per_hand(table) == expected
