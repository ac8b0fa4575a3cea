"""One ranking with ties for every game: the leaderboards, the crews' statistics and BG Stats share it."""

from __future__ import annotations

from scorekeeper.standings import Standing, leaderboard, ranks


def test_ties_share_a_rank_and_the_next_one_skips() -> None:
    assert ranks([30, 10, 30, 5]) == [1, 3, 1, 4]
    assert ranks([0, 0]) == [1, 1]
    assert ranks([]) == []


def test_the_leaderboard_puts_the_leader_first_and_ties_in_seat_order() -> None:
    board = leaderboard(["Anne", "Ben", "Cara"], [20, 50, 50], [None, 60, None])
    assert board == [Standing(1, "Ben", 50, 0, 60), Standing(1, "Cara", 50, 0, None), Standing(3, "Anne", 20, 30, None)]
