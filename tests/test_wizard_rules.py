"""Wizard's rules: the worked rounds of the rules file, dealers and the order of bids, "no even bids", and the
scoring's properties over any round."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.shelf.wizard.rules import (
    IN_TURN,
    SECRET,
    Round,
    Setup,
    bid_problems,
    bidding_order,
    dealer,
    finished,
    forbidden_bid,
    points,
    round_points,
    round_problems,
    setup_problems,
    totals,
    tricks_problems,
    winners,
)

THREE = Setup(("Anne", "Ben", "Cara"))


def test_the_worked_rounds_of_the_rules_file() -> None:
    # Round 3, 3 cards: Anne bids 1 takes 1 → 30; Ben bids 0 takes 2 → −20; Cara bids 2 takes 0 → −20.
    assert round_points(Round(3, (1, 0, 2), (1, 2, 0))) == [30, -20, -20]
    # Round 1, 1 card: Anne bids 0 takes 0 → 20; Ben bids 1 takes 1 → 30; Cara bids 1 takes 0 → −10.
    assert round_points(Round(1, (0, 1, 1), (0, 1, 0))) == [20, 30, -10]


@pytest.mark.parametrize("players, rounds", [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_the_pack_of_sixty_makes_the_rounds(players: int, rounds: int) -> None:
    assert Setup(("A", "B", "C", "D", "E", "F")[:players]).rounds == rounds


def test_the_deal_passes_left_and_the_left_of_the_dealer_bids_first() -> None:
    setup = Setup(("Anne", "Ben", "Cara", "Dan"), first_dealer=2)
    assert [dealer(setup, n) for n in range(1, 6)] == [2, 3, 0, 1, 2]
    assert bidding_order(setup, 1) == [3, 0, 1, 2]
    assert bidding_order(setup, 2) == [0, 1, 2, 3]


def test_no_even_bids_forbids_one_number_to_the_last_bidder_only() -> None:
    strict = Setup(THREE.players, no_even_bids=True)
    assert forbidden_bid(strict, 3, [1, 1]) == 1
    assert forbidden_bid(strict, 3, [2, 2]) is None  # already over: any bid is allowed
    assert forbidden_bid(THREE, 3, [1, 1]) is None
    refused = bid_problems(strict, 3, 0, 1, [1, 1])
    assert [p.message() for p in refused] == [
        "Round 3, Anne: you bid last and may not bid 1: the bids would then add up to 3, the cards dealt "
        "(no even bids)."]
    assert bid_problems(strict, 3, 0, 1, [1]) == []  # not the last bidder
    assert bid_problems(strict, 3, 0, 2, [1, 1]) == []


def test_the_two_house_rules_cannot_go_together() -> None:
    assert [p.message() for p in setup_problems(["Anne", "Ben", "Cara"], SECRET, True)] == [
        "“No even bids” needs bids in turn: with secret bids nobody bids last."]
    assert setup_problems(["Anne", "Ben", "Cara"], IN_TURN, True) == []
    assert "3 to 6 players" in setup_problems(["Anne", "Ben"], IN_TURN, False)[0].message()
    assert "3 to 6 players" in setup_problems(["A", "B", "C", "D", "E", "F", "G"], IN_TURN, False)[0].message()


def test_tricks_must_add_up_to_the_cards_dealt() -> None:
    assert tricks_problems(THREE, 3, [1, 1, None]) == []
    wrong = tricks_problems(THREE, 3, [1, 1, 0])
    assert [p.message() for p in wrong] == [
        "Round 3, Anne, Ben and Cara: your tricks add up to 2, but this round has 3: every trick goes to somebody. "
        "Check yours."]
    assert "tricks are 0 to 3" in tricks_problems(THREE, 3, [4, None, None])[0].message()
    strict = Setup(THREE.players, no_even_bids=True)
    # Round 2 is dealt by Ben, who bids last; the bids add up to the cards, which the rule forbids.
    assert round_problems(strict, Round(2, (1, 0, 1), (1, 1, 0)))[0].players == ("Ben",)
    assert round_problems(THREE, Round(2, (1, 0, 1), (1, 1, 0))) == []


rounds_of_three = st.integers(1, 20).flatmap(
    lambda cards: st.tuples(
        st.just(cards),
        st.lists(st.integers(0, cards), min_size=3, max_size=3),
        st.lists(st.integers(0, cards), min_size=2, max_size=2).filter(lambda t: sum(t) <= cards)))


@given(st.integers(0, 20), st.integers(0, 20))
def test_a_made_bid_scores_twenty_and_ten_a_trick_a_missed_one_never_more_than_nothing(bid: int, tricks: int) -> None:
    if bid == tricks:
        assert points(bid, tricks) == 20 + 10 * tricks
    else:
        assert points(bid, tricks) <= -10 < 0
        assert points(bid, tricks) == -10 * abs(bid - tricks)


@given(st.lists(rounds_of_three, min_size=0, max_size=20))
def test_totals_are_the_sums_of_the_rounds(drawn: list[tuple[int, list[int], list[int]]]) -> None:
    played = [Round(cards, tuple(bids), (*taken, cards - sum(taken))) for cards, bids, taken in drawn]
    for played_round in played:
        assert tricks_problems(THREE, played_round.cards, list(played_round.tricks or ())) == []
    found = totals(THREE, played)
    assert found == [sum(round_points(r)[seat] for r in played) for seat in range(3)]
    best = max(found)
    assert winners(THREE, played) == [seat for seat in range(3) if found[seat] == best]
    assert finished(THREE, played) == (len(played) >= 20)
