"""Properties of scoring and validation over hands generated from legal deals."""

from __future__ import annotations

import dataclasses
import re

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.shelf.skullking.rules import Entry, Hand, Setup, score_hand, validate_hand
from tests.strategies import tables_and_hands

# Written out again here, from the rules reference, so the test does not trust the code's table.
BONUS_POINTS = {
    "classic": {"pirates_by_skull_king": 30, "skull_king_by_mermaid": 50},
    "doubloons": {"pirates_by_skull_king": 30, "skull_king_by_mermaid": 50},
    "modern": {"pirates_by_skull_king": 30, "skull_king_by_mermaid": 40, "mermaids_by_pirate": 20,
               "standard_fourteens": 10, "black_fourteen": 20},
}

HAND_NUMBER = 7


def replace_entry(hand: Hand, player: str, **changes: object) -> Hand:
    """The hand with one player's entry changed."""
    entries = tuple(dataclasses.replace(e, **changes) if e.player == player else e for e in hand.entries)
    return dataclasses.replace(hand, entries=entries)


def problems_naming(table: Setup, hand: Hand, player: str) -> list[str]:
    """Messages of the hand's problems that concern `player`."""
    return [p.message() for p in validate_hand(table, HAND_NUMBER, hand) if player in p.players]


@given(tables_and_hands())
def test_validation_accepts_every_legal_hand(case: tuple[Setup, Hand]) -> None:
    table, hand = case
    assert [p.message() for p in validate_hand(table, HAND_NUMBER, hand)] == []


@given(tables_and_hands(), st.randoms(use_true_random=False))
def test_points_do_not_depend_on_seat_order(case: tuple[Setup, Hand], random) -> None:
    table, hand = case
    seats = list(table.players)
    random.shuffle(seats)
    entries = list(hand.entries)
    random.shuffle(entries)
    reseated = dataclasses.replace(table, players=tuple(seats))
    assert score_hand(reseated, dataclasses.replace(hand, entries=tuple(entries))) == score_hand(table, hand)


@given(tables_and_hands())
def test_a_made_bid_scores_twenty_per_trick_plus_bonuses(case: tuple[Setup, Hand]) -> None:
    table, hand = case
    assume(table.options.scoring == "standard")
    made = {e.player for e in hand.entries if e.bid == e.tricks}
    points = score_hand(table, hand)
    for entry in hand.entries:
        if entry.player in made and entry.bid >= 1:
            bonus = sum(BONUS_POINTS[table.ruleset][k] * n for k, n in entry.bonuses.items())
            loot = 20 * sum(1 for partner in entry.loot_with if partner in made)
            assert points[entry.player] == 20 * entry.bid + bonus + loot + (entry.wager or 0)


@given(tables_and_hands(rulesets=("modern",)))
def test_rascal_scoring_is_never_negative(case: tuple[Setup, Hand]) -> None:
    table, hand = case
    assume(table.options.scoring == "rascal")
    # The Rascal of Roatán's wager is a bet of its own that can be lost under either scoring.
    hand = dataclasses.replace(hand, entries=tuple(dataclasses.replace(e, wager=None) for e in hand.entries))
    assert all(points >= 0 for points in score_hand(table, hand).values())


@given(tables_and_hands(), st.data())
def test_a_trick_moved_so_the_sum_breaks_is_refused(case: tuple[Setup, Hand], data: st.DataObject) -> None:
    table, hand = case
    entry = data.draw(st.sampled_from(hand.entries))
    moved = entry.tricks + data.draw(st.sampled_from((-1, 1)))
    assume(0 <= moved <= hand.cards)
    found = problems_naming(table, replace_entry(hand, entry.player, tricks=moved), entry.player)
    assert any(m.startswith(f"Hand {HAND_NUMBER}: the tricks won add up to") for m in found)
    assert any(f"{entry.player} {moved}" in m for m in found)


@given(tables_and_hands(), st.data())
def test_a_capture_without_a_trick_is_refused(case: tuple[Setup, Hand], data: st.DataObject) -> None:
    table, hand = case
    empty = [e for e in hand.entries if e.tricks == 0]
    assume(empty)
    entry = data.draw(st.sampled_from(empty))
    kind = data.draw(st.sampled_from(sorted(BONUS_POINTS[table.ruleset])))
    changed = replace_entry(hand, entry.player, bonuses={kind: 1})
    assert (f"Hand {HAND_NUMBER}: {entry.player} won no tricks, so cannot have captured any cards."
            in problems_naming(table, changed, entry.player))


@given(tables_and_hands(), st.data())
def test_a_second_skull_king_claim_is_refused(case: tuple[Setup, Hand], data: st.DataObject) -> None:
    table, hand = case
    kinds = ("pirates_by_skull_king", "skull_king_by_mermaid")
    claimants = [e.player for e in hand.entries if any(e.bonuses.get(k) for k in kinds)]
    others = [e for e in hand.entries if e.tricks and e.player not in claimants]
    assume(claimants and others)
    entry = data.draw(st.sampled_from(others))
    changed = replace_entry(hand, entry.player, bonuses={**entry.bonuses, "skull_king_by_mermaid": 1})
    found = problems_naming(table, changed, entry.player)
    assert any("claim the Skull King — there is only one." in m and claimants[0] in m for m in found)


@given(tables_and_hands(), st.data())
def test_a_bid_above_the_cards_is_refused(case: tuple[Setup, Hand], data: st.DataObject) -> None:
    table, hand = case
    entry: Entry = data.draw(st.sampled_from(hand.entries))
    changed = replace_entry(hand, entry.player, bid=hand.cards + 1, bid_changed_from=None)
    assert (f"Hand {HAND_NUMBER}, {entry.player}: bid {hand.cards + 1} is more than the cards dealt ({hand.cards})." in problems_naming(table, changed, entry.player))


@settings(max_examples=50)
@given(tables_and_hands())
def test_every_problem_starts_with_the_hand(case: tuple[Setup, Hand]) -> None:
    table, hand = case
    broken = replace_entry(hand, hand.entries[0].player, bid=-1, tricks=hand.cards + 1)
    found = validate_hand(table, HAND_NUMBER, broken)
    assert found and all(re.match(f"Hand {HAND_NUMBER}[:,] ", p.message()) for p in found)
