"""Skip-Bo and Dracula: every worked example of their rules files, and properties of their scoring."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.shelf.dracula import rules as dracula
from scorekeeper.shelf.dracula.rules import KING, QUEEN
from scorekeeper.shelf.skipbo import rules as skipbo

# --- Skip-Bo: the worked examples -----------------------------------------------------------

THREE = skipbo.Setup(("Anne", "Ben", "Cara"), stock=30)
TEAMS = skipbo.Setup(("Anne", "Ben", "Cara", "Dan"), stock=30, teams=((0, 2), (1, 3)))


def test_skipbo_1_anne_wins_with_ben_4_and_cara_7_left_scores_80() -> None:
    result = skipbo.GameResult(0, {"Ben": 4, "Cara": 7})
    assert skipbo.validate_game(THREE, 1, result) == []
    assert skipbo.points(result) == 80


def test_skipbo_2_a_team_out_scores_the_other_teams_cards_40() -> None:
    result = skipbo.GameResult(0, {"Ben": 3, "Dan": 0})
    assert skipbo.validate_game(TEAMS, 1, result) == []
    assert skipbo.points(result) == 40
    assert TEAMS.side_name(0) == "Anne + Cara"


def test_skipbo_3_the_target_ends_the_match_and_refuses_another_game() -> None:
    setup = skipbo.Setup(("Anne", "Ben"), stock=30, target=100)
    first = skipbo.GameResult(0, {"Ben": 11})
    assert skipbo.points(first) == 80 and skipbo.match_winner(setup, [first]) is None
    second = skipbo.GameResult(0, {"Ben": 1})
    assert skipbo.totals(setup, [first, second]) == [110, 0]
    assert skipbo.match_winner(setup, [first, second]) == 0
    third = skipbo.GameResult(1, {"Anne": 5})
    assert [p.message() for p in skipbo.validate_game(setup, 3, third, [first, second])] == [
        "Game 3: the match is already won: no game after it."]


def test_skipbo_refuses_what_cannot_happen() -> None:
    def said(setup: skipbo.Setup, result: skipbo.GameResult) -> list[str]:
        return [p.message() for p in skipbo.validate_game(setup, 2, result)]

    assert said(THREE, skipbo.GameResult(0, {"Anne": 3, "Ben": 1, "Cara": 2})) == [
        "Game 2: Anne went out, so has no cards left to count."]
    assert said(THREE, skipbo.GameResult(0, {"Ben": 0, "Cara": 2})) == [
        "Game 2, Ben: with 0 cards left the game would have ended with Ben."]
    assert said(THREE, skipbo.GameResult(0, {"Ben": 31, "Cara": 2})) == [
        "Game 2, Ben: cards left must be 0 to 30, the stock pile, not 31."]
    assert said(THREE, skipbo.GameResult(0, {"Ben": 3})) == [
        "Game 2, Cara: the cards left in the stock pile are missing."]
    assert said(TEAMS, skipbo.GameResult(0, {"Ben": 0, "Dan": 0})) == [
        "Game 2, Ben and Dan: both stock piles empty means this team went out."]
    assert said(THREE, skipbo.GameResult(5, {})) == ["Game 2: the winner must be one of the players."]
    assert skipbo.default_stock(4) == 30 and skipbo.default_stock(5) == 20


@given(st.lists(st.integers(1, 30), min_size=1, max_size=5))
def test_skipbo_points_are_25_and_5_per_card_left(left: list[int]) -> None:
    names = [f"P{i}" for i in range(len(left) + 1)]
    setup = skipbo.Setup(tuple(names), stock=30)
    result = skipbo.GameResult(0, dict(zip(names[1:], left)))
    assert skipbo.validate_game(setup, 1, result) == []
    assert skipbo.points(result) == 25 + 5 * sum(left)


# --- Dracula: the worked examples -----------------------------------------------------------

EXAMPLE_1 = (("5H", "7H", "2C"), ("QS", "9D", "QH"), ("KD", "4S", "10S"))
EXAMPLE_2 = (("3D", "4D", "5D"), ("2C", "V", "6S"), ("9H", "8H", "7H"))


def test_dracula_1_queens_way_29_kings_way_20() -> None:
    assert [line.score for line in dracula.lines(EXAMPLE_1, QUEEN)] == [28, 29, 28]
    assert [line.multiplier for line in dracula.lines(EXAMPLE_1, QUEEN)] == [2, 1, 2]
    assert [line.score for line in dracula.lines(EXAMPLE_1, KING)] == [15, 20, 12]
    assert dracula.round_points(EXAMPLE_1) == (29, 20)


def test_dracula_2_a_vampire_at_the_centre_kills_the_middle_row_and_column() -> None:
    assert [line.score for line in dracula.lines(EXAMPLE_2, QUEEN)] == [60, 0, 120]
    assert [line.score for line in dracula.lines(EXAMPLE_2, KING)] == [14, 0, 18]
    assert dracula.round_points(EXAMPLE_2) == (120, 18)


def test_dracula_3_tied_best_lines_score_the_second_best() -> None:
    # Bests 40 and 40, second-bests 30 and 24; then equal seconds go to the thirds, equal or not.
    assert dracula.credited_scores([40, 30, 5], [40, 24, 9]) == (30, 24)
    assert dracula.credited_scores([40, 30, 5], [40, 30, 9]) == (5, 9)
    assert dracula.credited_scores([40, 30, 5], [40, 30, 5]) == (5, 5)


def test_dracula_4_the_set_leader_gets_the_difference() -> None:
    assert dracula.set_bonus((410, 350)) == (60, 0)
    assert dracula.set_bonus((300, 300)) == (0, 0)


def test_dracula_a_set_is_six_rounds_and_the_game_ends_at_the_target_after_the_bonus() -> None:
    setup = dracula.Setup("Anne", "Ben", target=250)
    five = dracula.standing(setup, [EXAMPLE_2] * 5)
    assert five.totals == (600, 90) and five.winner is None and five.rounds_in_set == 5
    six = dracula.standing(setup, [EXAMPLE_2] * 6)
    assert six.bonuses == ((612, 0),) and six.totals == (720 + 612, 108) and six.winner == 0
    assert [p.message() for p in dracula.validate_round(7, EXAMPLE_1, six.winner is not None)] == [
        "Round 7: the game is over: no round after it."]
    assert [p.message() for p in dracula.validate_round(301, EXAMPLE_1, False)] == [
        "Round 301: a game has at most 300 rounds."]


def test_dracula_refuses_impossible_coffins() -> None:
    def said(coffin) -> list[str]:
        return [p.message() for p in dracula.validate_coffin(coffin, 3)]

    assert said((("5H", "5H", "2C"), ("QS", "9D", "QH"), ("KD", "4S", "10S"))) == [
        "Round 3: a card can be in the coffin only once: 5H."]
    assert said((("V", "V", "V"), ("QS", "9D", "QH"), ("KD", "4S", "10S"))) == [
        "Round 3: the pack has only two Vampires."]
    assert said((("1H", "5H", "2C"), ("QS", "9D", "QH"), ("KD", "4S", "ZZ"))) == [
        "Round 3: not a card of the pack: 1H, ZZ."]
    assert said((("5H", "7H"), ("QS", "9D", "QH"), ("KD", "4S", "10S"))) == [
        "Round 3: a coffin is three rows of three cards."]


# --- Dracula: properties ----------------------------------------------------------------------

PACK = [rank + suit for rank in dracula.RANKS for suit in dracula.SUITS]
coffins = st.lists(st.sampled_from(PACK), min_size=9, max_size=9, unique=True).map(
    lambda cards: tuple(tuple(cards[row * 3:row * 3 + 3]) for row in range(3)))


def swap_royals(card: str) -> str:
    rank, suit = card[:-1], card[-1]
    return {"Q": "K", "K": "Q"}.get(rank, rank) + suit


@given(coffins)
def test_transposing_and_swapping_queens_with_kings_swaps_the_players_points(coffin) -> None:
    mirrored = tuple(tuple(swap_royals(coffin[row][column]) for row in range(3)) for column in range(3))
    queen, king = dracula.round_points(coffin)
    assert dracula.round_points(mirrored) == (king, queen)


@given(coffins, st.integers(0, 2), st.integers(0, 2))
def test_a_vampire_zeroes_exactly_its_row_and_column(coffin, row: int, column: int) -> None:
    bitten = tuple(tuple("V" if (r, c) == (row, column) else coffin[r][c] for c in range(3)) for r in range(3))
    for way, index in ((QUEEN, row), (KING, column)):
        before, after = dracula.lines(coffin, way), dracula.lines(bitten, way)
        for place in range(3):
            if place == index:
                assert after[place].score == 0
            else:
                assert after[place] == before[place]


@given(coffins)
def test_multipliers_never_lower_a_line(coffin) -> None:
    for way in (QUEEN, KING):
        for scored in dracula.lines(coffin, way):
            assert scored.score >= scored.total >= 0
