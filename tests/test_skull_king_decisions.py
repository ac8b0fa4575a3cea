"""Skull King's changes decide on plain values alone: its setup, its hands, the open one's secret entries as the
acting browser may see them, and who acts (no database, no game read: the values are made here by hand)."""

from __future__ import annotations

from datetime import UTC, datetime

from scorekeeper.access import VIEWER, Actor, Role
from scorekeeper.kinds import Change, Denied, Missing, Refused, SeatEntry, Secrets
from scorekeeper.shelf.skullking import reading, storage
from scorekeeper.shelf.skullking.changes import change_cards, claim_trick, place_bid
from scorekeeper.shelf.skullking.reading import GameSeen
from scorekeeper.shelf.skullking.rules import Options, Setup
from scorekeeper.shelf.skullking.storage import BID, SHOT, HandRow, Phase

SETUP = Setup("modern", ("Ann", "Bob", "Cy"))
HOST_WITH_BOB_S_PHONE = Actor(Role.HOST, phones=frozenset({1}))
BOB = Actor(Role.SEAT, 1)
SOON = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def opening(cards: int = 1, cannons: bool = False) -> HandRow:
    """A hand as its play stores it when it opens to be bid."""
    return storage.opening(cards, cannons, len(SETUP.players))


def game(secrets: Secrets, row: HandRow | None = None, setup: Setup = SETUP) -> GameSeen:
    """A game whose first hand is open, its secret entries as `secrets` show them."""
    return GameSeen(setup, (reading.hand_of_play(1, row or opening(), secrets),))


def test_a_bid_that_is_not_the_last_writes_the_secret_entry_alone() -> None:
    decided = place_bid(game(Secrets({BID: {0: None}}, counted=BID)), BOB, 1, None, 1)
    assert decided == Change(secret=SeatEntry(1, BID, 1), play=1, event="bid")


def test_the_last_bid_starts_the_count_though_the_phone_sees_no_other_bid() -> None:
    # Bob's phone sees that Ann and Cy have bid, not what: that is enough to know his bid completes them.
    decided = place_bid(game(Secrets({BID: {0: None, 2: None}}, counted=BID)), BOB, 1, None, 0)
    assert isinstance(decided, Change)
    assert (decided.secret, decided.event, decided.play) == (SeatEntry(1, BID, 0), "count", 1)
    # The hand's play holds no bid (nothing of it changes): they stay the table's secret entries until scored.
    assert decided.draft is None and decided.closed is None


def test_the_host_bids_for_a_seat_without_a_phone_only() -> None:
    open_hand = game(Secrets(counted=BID))
    assert place_bid(open_hand, HOST_WITH_BOB_S_PHONE, 1, 1, 1) == Denied(phone_seat=True)
    assert isinstance(place_bid(open_hand, HOST_WITH_BOB_S_PHONE, 1, 2, 1), Change)
    assert place_bid(open_hand, BOB, 1, 2, 1) == Denied()
    assert place_bid(open_hand, VIEWER, 1, None, 1) == Denied()
    assert place_bid(open_hand, BOB, 2, None, 1) == Missing(2)


def test_a_bid_is_refused_once_the_count_ran() -> None:
    shown = game(Secrets({BID: {0: 1, 1: 0, 2: 1}}, shown=True, counted=BID))
    assert shown.current is not None and shown.current.phase == Phase.PLAYING
    refusal = place_bid(shown, BOB, 1, None, 1)
    assert isinstance(refusal, Refused)
    assert refusal.problems[0].template == "The bids of this hand are already revealed."


def test_a_hand_s_phase_follows_the_count_its_secrets_say() -> None:
    bidding, loading = opening(cannons=True), HandRow(1, 0, Phase.LOADING, False, True, (), opening().entries)
    assert reading.hand_of_play(1, bidding, Secrets()).phase == Phase.BIDDING
    assert reading.hand_of_play(1, bidding, Secrets(reveal_at=SOON, counted=BID)).phase == Phase.COUNTING
    # With the cannonball rule, the bids' count gives way to the loading of the cannons, then to play.
    assert reading.hand_of_play(1, bidding, Secrets(shown=True, counted=BID)).phase == Phase.LOADING
    assert reading.hand_of_play(1, loading, Secrets(shown=True, counted=BID)).phase == Phase.LOADING
    assert reading.hand_of_play(1, loading, Secrets(reveal_at=SOON, counted=SHOT)).phase == Phase.FIRING
    assert reading.hand_of_play(1, loading, Secrets(shown=True, counted=SHOT)).phase == Phase.PLAYING


def test_changing_the_cards_is_the_host_s_and_everyone_bids_again() -> None:
    open_hand = game(Secrets({BID: {0: None}}, counted=BID))
    assert change_cards(open_hand, BOB, 1, 2) == Denied()
    decided = change_cards(open_hand, HOST_WITH_BOB_S_PHONE, 1, 2)
    assert isinstance(decided, Change) and (decided.collects, decided.forget) == ((1, BID), True)
    assert decided.draft is not None and decided.draft.cards == 2


def test_davy_jones_s_monsters_are_written_for_a_seat_the_claiming_browser_enters_for() -> None:
    """A trick claimed by the host for Cy (no phone), in which Bob (a phone) played Davy Jones: the host writes Cy's
    trick, never Bob's destroyed monster, which Bob's phone counts; for Ann (no phone) the host writes both."""
    setup = Setup("modern", ("Ann", "Bob", "Cy"), Options(advanced_cards=True, expansion=True))
    row = HandRow(3, 0, Phase.PLAYING, False, False, (), opening().entries)
    playing = game(Secrets({BID: {0: 1, 1: 1, 2: 1}}, shown=True, counted=BID), row, setup)
    for cards, entered, destroyed in (("kraken, davy jones, yellow 5", (2,), {}),
                                      ("davy jones, kraken, yellow 5", (2, 0), {"davy_jones_monsters": 1})):
        decided = claim_trick(playing, HOST_WITH_BOB_S_PHONE, 1, 0, cards)
        assert isinstance(decided, Change), decided
        assert decided.entered_for == entered
        assert decided.draft is not None
        written = decided.draft
        assert written.entries[2].tricks == 1 and written.entries[0].bonuses == destroyed
        assert written.entries[1].bonuses == {}
    # Bob's own phone claims a trick he won: his line only, not Ann's monster, which is hers to count.
    decided = claim_trick(playing, BOB, 1, 0, "davy jones, yellow 9, kraken")
    assert isinstance(decided, Change) and decided.entered_for == (1,)
    assert decided.draft is not None and decided.draft.entries[0].bonuses == {}
