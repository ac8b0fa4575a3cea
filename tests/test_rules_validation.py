"""Every rule under "What cannot happen", each refused with a plain sentence."""

from __future__ import annotations

import pytest

from scorekeeper.shelf.skullking.rules import Entry, Hand, Options, Setup, validate_hand, validate_table

PLAYERS = ("Anne", "Ben", "Cara")
CLASSIC = Setup("classic", PLAYERS)
MODERN = Setup("modern", PLAYERS)
ADVANCED = Setup("modern", PLAYERS, Options(advanced_cards=True, rascal_wagers=True))


def messages(table: Setup, number: int, *entries: Entry, cards: int = 3, lost: int = 0) -> list[str]:
    """The problems of one hand, as sentences."""
    return [p.message() for p in validate_hand(table, number, Hand(cards, entries, lost))]


def test_a_legal_hand_has_no_problems() -> None:
    assert messages(CLASSIC, 3, Entry("Anne", 1, 1), Entry("Ben", 2, 2), Entry("Cara", 0, 0)) == []


def test_two_skull_king_claims_name_both_players() -> None:
    found = messages(
        CLASSIC, 3,
        Entry("Anne", 1, 1),
        Entry("Ben", 1, 1, {"pirates_by_skull_king": 1}),
        Entry("Cara", 1, 1, {"skull_king_by_mermaid": 1}),
    )
    assert found == ["Hand 3: Ben and Cara both claim the Skull King — there is only one."]


def test_one_player_cannot_claim_both_skull_king_captures() -> None:
    found = messages(CLASSIC, 2, Entry("Anne", 2, 2, {"pirates_by_skull_king": 1, "skull_king_by_mermaid": 1}),
                     Entry("Ben", 1, 1), Entry("Cara", 0, 0))
    assert found == ["Hand 2: Anne claims both that the Skull King took pirates and that a Mermaid "
                     "took the Skull King — there is only one Skull King."]


def test_bid_above_the_cards_and_below_zero() -> None:
    found = messages(CLASSIC, 3, Entry("Anne", 4, 1), Entry("Ben", -1, 1), Entry("Cara", 0, 1))
    assert found == [
        "Hand 3, Anne: bid 4 is more than the cards dealt (3).",
        "Hand 3, Ben: bid cannot be below 0.",
    ]


def test_tricks_must_add_up_to_the_cards() -> None:
    found = messages(CLASSIC, 4, Entry("Anne", 1, 2), Entry("Ben", 1, 2), Entry("Cara", 1, 1), cards=4)
    assert found == ["Hand 4: the tricks won add up to 5 (Anne 2, Ben 2, Cara 1), but they must add up to the cards dealt: 4."]


def test_tricks_nobody_won_lower_the_sum_only_where_the_rules_allow() -> None:
    entries = (Entry("Anne", 1, 1), Entry("Ben", 1, 1), Entry("Cara", 0, 0))
    assert messages(ADVANCED, 3, *entries, lost=1) == []
    assert messages(CLASSIC, 3, *entries, lost=1) == [
        "Hand 3: tricks nobody won happen only with the Kraken or White Whale (modern rules "
        "with advanced cards) or the ghost of a two-player game."]
    two = Setup("classic", ("Anne", "Ben"))
    assert messages(two, 3, Entry("Anne", 1, 1), Entry("Ben", 1, 1), lost=1) == []
    assert messages(ADVANCED, 3, *entries, lost=2) == [
        "Hand 3: the tricks won add up to 2 (Anne 1, Ben 1, Cara 0), but they must add up to 1 "
        "(cards dealt: 3, tricks nobody won: 2)."]


def test_a_capture_needs_a_trick() -> None:
    found = messages(CLASSIC, 3, Entry("Anne", 0, 0, {"pirates_by_skull_king": 1}),
                     Entry("Ben", 3, 3), Entry("Cara", 0, 0))
    assert found == ["Hand 3: Anne won no tricks, so cannot have captured any cards."]


def test_a_made_zero_bid_can_still_give_the_loot() -> None:
    found = messages(ADVANCED, 3, Entry("Anne", 0, 0, loot_with=("Ben",)),
                     Entry("Ben", 3, 3, loot_with=("Anne",)), Entry("Cara", 0, 0))
    assert found == []


def test_more_pirates_than_the_doubloons_deck_holds() -> None:
    table = Setup("doubloons", ("Anne", "Ben", "Cara", "Dan", "Eve"))
    found = messages(table, 5, Entry("Anne", 5, 5, {"pirates_by_skull_king": 4}),
                     Entry("Ben", 0, 0), Entry("Cara", 0, 0), Entry("Dan", 0, 0), Entry("Eve", 0, 0),
                     cards=5)
    assert found == ["Hand 5, Anne: 4 pirates taken, but the deck holds only 3."]


def test_more_pirates_in_one_trick_than_players_minus_one() -> None:
    found = messages(CLASSIC, 3, Entry("Anne", 3, 3, {"pirates_by_skull_king": 3}),
                     Entry("Ben", 0, 0), Entry("Cara", 0, 0))
    assert found == ["Hand 3, Anne: the Skull King took 3 pirates, more than the other players in one trick (2)."]


def test_more_mermaids_than_the_deck_holds() -> None:
    found = messages(MODERN, 5, Entry("Anne", 2, 2, {"mermaids_by_pirate": 2}),
                     Entry("Ben", 3, 3, {"skull_king_by_mermaid": 1}), Entry("Cara", 0, 0), cards=5)
    assert found == ["Hand 5, Anne and Ben: 3 Mermaids claimed, but the deck holds only 2."]


def test_a_fourteen_claimed_twice() -> None:
    found = messages(MODERN, 5, Entry("Anne", 2, 2, {"black_fourteen": 1, "standard_fourteens": 2}),
                     Entry("Ben", 3, 3, {"black_fourteen": 1, "standard_fourteens": 2}),
                     Entry("Cara", 0, 0), cards=5)
    assert found == [
        "Hand 5, Anne and Ben: 4 standard 14s claimed, but there are only 3.",
        "Hand 5, Anne and Ben: the black 14 is claimed 2 times, but there is only one.",
    ]


def test_more_captured_cards_than_the_tricks_hold() -> None:
    found = messages(MODERN, 2, Entry("Anne", 1, 1, {"standard_fourteens": 3, "black_fourteen": 1}),
                     Entry("Ben", 1, 1), Entry("Cara", 0, 0), cards=2)
    assert found == ["Hand 2: Anne claims 4 captured cards, but only 3 cards were played into the tricks Anne won."]


def test_modern_bonuses_are_refused_in_classic() -> None:
    found = messages(CLASSIC, 3, Entry("Anne", 3, 3, {"black_fourteen": 1}), Entry("Ben", 0, 0),
                     Entry("Cara", 0, 0))
    assert found == ["Hand 3, Anne: “black_fourteen” is not a bonus of the classic rules."]


def test_loot_alliance_must_be_mutual() -> None:
    found = messages(ADVANCED, 3, Entry("Anne", 1, 1, loot_with=("Ben",)), Entry("Ben", 2, 2),
                     Entry("Cara", 0, 0))
    assert found == ["Hand 3, Anne and Ben: Anne names Ben as Loot partner, but Ben does not name Anne "
                     "— an alliance is made by both."]


def test_no_more_loot_alliances_than_loot_cards() -> None:
    found = messages(
        ADVANCED, 3,
        Entry("Anne", 1, 1, loot_with=("Ben", "Cara")),
        Entry("Ben", 1, 1, loot_with=("Anne", "Cara")),
        Entry("Cara", 1, 1, loot_with=("Anne", "Ben")),
    )
    assert found == ["Hand 3, Anne, Ben and Cara: 3 Loot alliances, but there are only 2 Loot cards."]


def test_loot_needs_advanced_cards() -> None:
    found = messages(MODERN, 3, Entry("Anne", 1, 1, loot_with=("Ben",)),
                     Entry("Ben", 2, 2, loot_with=("Anne",)), Entry("Cara", 0, 0))
    assert found == ["Hand 3, Anne and Ben: Loot alliances need the modern rules with advanced cards."]


def test_wagers_need_the_option_one_rascal_and_a_trick() -> None:
    assert messages(MODERN, 3, Entry("Anne", 3, 3, wager=10), Entry("Ben", 0, 0), Entry("Cara", 0, 0)) == [
        "Hand 3, Anne: wagers need the modern rules with the Rascal of Roatán option."]
    assert messages(ADVANCED, 3, Entry("Anne", 2, 2, wager=15), Entry("Ben", 1, 1, wager=10),
                    Entry("Cara", 0, 0, wager=0)) == [
        "Hand 3: Anne, Ben and Cara each wager, but only one player can win the Rascal of Roatán.",
        "Hand 3, Anne: a wager is 0, 10 or 20, not 15.",
        "Hand 3: Cara won no tricks, so cannot have won the Rascal of Roatán.",
    ]


def test_shots_need_rascal_scoring_with_cannonball() -> None:
    found = messages(MODERN, 3, Entry("Anne", 3, 3, shot="cannonball"), Entry("Ben", 0, 0),
                     Entry("Cara", 0, 0))
    assert found == ["Hand 3, Anne: grapeshot and cannonball need Rascal's scoring with the cannonball option."]


def test_harry_changes_a_bid_by_one_for_a_player_who_won_a_trick() -> None:
    assert messages(CLASSIC, 3, Entry("Anne", 3, 3, bid_changed_from=2), Entry("Ben", 0, 0),
                    Entry("Cara", 0, 0)) == [
        "Hand 3, Anne: only the modern rules let Harry the Giant change a bid."]
    assert messages(MODERN, 3, Entry("Anne", 3, 3, bid_changed_from=1), Entry("Ben", 0, 0),
                    Entry("Cara", 0, 0, bid_changed_from=1)) == [
        "Hand 3: Anne and Cara each changed their bid, but only one player can capture Harry the Giant.",
        "Hand 3, Anne: Harry the Giant changes a bid by one, not from 1 to 3.",
        "Hand 3: Cara won no tricks, so cannot have captured Harry the Giant.",
    ]


def test_every_player_needs_exactly_one_line() -> None:
    found = messages(CLASSIC, 1, Entry("Anne", 1, 1), Entry("Anne", 0, 0), Entry("Zed", 0, 0), cards=1)
    assert found == [
        "Hand 1: not playing in this game: Zed.",
        "Hand 1: more than one line for Anne — one each.",
        "Hand 1: no line for Ben and Cara — every player needs one.",
    ]


def test_cards_beyond_the_deck_are_refused() -> None:
    table = Setup("modern", tuple("ABCDEFGH"))
    entries = [Entry(name, 0, 0) for name in "ABCDEFG"] + [Entry("H", 9, 9)]
    found = [p.message() for p in validate_hand(table, 9, Hand(9, tuple(entries)))]
    assert found == ["Hand 9: 9 cards cannot be dealt: with 8 players each gets 1 to 8 cards."]


def test_all_problems_are_reported_at_once() -> None:
    found = messages(CLASSIC, 3, Entry("Anne", 4, 0, {"pirates_by_skull_king": 1}),
                     Entry("Ben", 1, 1, {"skull_king_by_mermaid": 1}), Entry("Cara", 0, 1))
    assert len(found) == 4
    assert all(message.startswith(("Hand 3: ", "Hand 3, ")) for message in found)


def test_an_unfinished_hand_is_checked_as_far_as_it_goes() -> None:
    assert messages(CLASSIC, 3, Entry("Anne", 1, 2), Entry("Ben", 1, None), Entry("Cara", 1, None)) == []
    assert messages(CLASSIC, 3, Entry("Anne", 1, 2), Entry("Ben", 1, 2), Entry("Cara", 1, None)) == [
        "Hand 3: the tricks won so far add up to 4 (Anne 2, Ben 2), more than this hand has: 3."]


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        (Setup("classic", ("Anne",)), ["The classic rules are for 2 to 6 players, not 1."]),
        (Setup("modern", tuple("ABCDEFGHI")), ["The modern rules are for 2 to 8 players, not 9."]),
        (Setup("classic", ("Anne", "Anne")), ["Anne: each player needs a different name."]),
        (Setup("classic", ("Anne", " ")), ["Every player needs a name."]),
        (Setup("classic", ("An\x00ne", "Ben")), ["A name cannot contain control characters."]),
        (Setup("classic", ("A", "B"), Options(scoring="rascal")),
         ["Rascal's scoring, cannonball, advanced cards and wagers are options of the modern rules only."]),
        (Setup("modern", ("A", "B"), Options(cannonball=True)), ["Cannonball goes with Rascal's scoring only."]),
        (Setup("modern", ("A", "B"), Options(rounds=(3, 40))),
         ["Hand 2: 40 cards cannot be dealt: with 2 players each gets 1 to 35 cards."]),
        (Setup("poker", ("A", "B")), ["The ruleset must be classic, doubloons or modern, not “poker”."]),
    ],
)
def test_table_problems(table: Setup, expected: list[str]) -> None:
    assert [p.message() for p in validate_table(table)] == expected
