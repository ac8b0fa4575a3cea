"""The 2025 Expansion Pack in the pure rules: every worked example of its rules file, what cannot happen, the deck's
cap, and properties over hands a real deal could produce."""

from __future__ import annotations

import csv
import dataclasses
import io
import json

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scorekeeper.padfile import PadError
from scorekeeper.shelf import read_any, score_any
from scorekeeper.shelf.skullking.pad import write_csv, write_pad
from scorekeeper.shelf.skullking.rules import (
    Entry,
    Hand,
    Options,
    Setup,
    cards_per_hand,
    max_cards,
    score_hand,
    validate_hand,
    validate_table,
)
from tests.strategies import NAMES, legal_hands, tables, tables_and_hands

THREE = ("Anne", "Ben", "Cara")
STANDARD = Setup("modern", THREE, Options(expansion=True))
ADVANCED = Setup("modern", THREE, Options(expansion=True, advanced_cards=True))
RASCAL = Setup("modern", THREE, Options(scoring="rascal", expansion=True))
CANNONBALL = Setup("modern", THREE, Options(scoring="rascal", cannonball=True, expansion=True))
# Written out again from the rules file, so the tests do not trust the code's own table.
EXPANSION_POINTS = {"expansion_eights": 5, "expansion_sevens": -5, "first_mate_taken": 30, "davy_jones_monsters": 20}
HAND_NUMBER = 4


def points_of_anne(table: Setup, cards: int, anne: Entry, shot: str | None = None) -> int:
    """Anne's points in a hand where Ben bids 0 and takes the tricks she did not, and Cara bids and takes 0."""
    left = cards - (anne.tricks or 0)
    others = (Entry("Ben", 0, left, shot=shot), Entry("Cara", 0, 0, shot=shot))
    hand = Hand(cards, (dataclasses.replace(anne, shot=shot), *others))
    assert [p.message() for p in validate_hand(table, HAND_NUMBER, hand)] == []
    return score_hand(table, hand)["Anne"]


# --- the worked examples ----------------------------------------------------------------------------------------


def test_bid_2_won_2_with_an_8_a_7_con_and_one_monster_scores_90() -> None:
    anne = Entry("Anne", 2, 2, {"expansion_eights": 1, "expansion_sevens": 1, "first_mate_taken": 1,
                                "davy_jones_monsters": 1})
    assert points_of_anne(STANDARD, 5, anne) == 90


def test_bid_2_won_3_with_two_8s_and_a_7_scores_minus_10() -> None:
    anne = Entry("Anne", 2, 3, {"expansion_eights": 2, "expansion_sevens": 1})
    assert points_of_anne(STANDARD, 5, anne) == -10


def test_bid_1_won_1_with_two_7s_scores_10() -> None:
    assert points_of_anne(STANDARD, 3, Entry("Anne", 1, 1, {"expansion_sevens": 2})) == 10


def test_a_made_zero_bid_earns_davy_jones_two_monsters_80() -> None:
    assert points_of_anne(ADVANCED, 4, Entry("Anne", 0, 0, {"davy_jones_monsters": 2})) == 80


def test_a_mermaid_taking_the_skull_king_and_con_scores_90() -> None:
    anne = Entry("Anne", 1, 1, {"skull_king_by_mermaid": 1, "first_mate_taken": 1})
    assert points_of_anne(STANDARD, 3, anne) == 90


def test_rascal_off_by_one_halves_the_mermaid_and_drops_the_8_for_40() -> None:
    anne = Entry("Anne", 3, 4, {"mermaids_by_pirate": 1, "expansion_eights": 1})
    assert points_of_anne(RASCAL, 6, anne) == 40


def test_rascal_exact_with_an_8_and_con_scores_95() -> None:
    anne = Entry("Anne", 3, 3, {"expansion_eights": 1, "first_mate_taken": 1})
    assert points_of_anne(RASCAL, 6, anne) == 95


def test_rascal_cannonball_made_with_a_7_scores_55() -> None:
    anne = Entry("Anne", 2, 2, {"expansion_sevens": 1})
    assert points_of_anne(CANNONBALL, 4, anne, shot="cannonball") == 55


def test_an_exact_rascal_hand_can_go_below_zero() -> None:
    """1 card, bid 1 won 1, an 8 and four 7s: 10 + 5 − 20 = −5; no clamp. The rules file's sum, not a hand that
    can be played (one trick of two players holds three cards at most: the check says so); a real one is below."""
    table = Setup("modern", ("Anne", "Ben"), Options(scoring="rascal", expansion=True))
    hand = Hand(1, (Entry("Anne", 1, 1, {"expansion_eights": 1, "expansion_sevens": 4}), Entry("Ben", 0, 0)))
    assert score_hand(table, hand)["Anne"] == -5
    assert any("captured cards" in p.message() for p in validate_hand(table, 1, hand))
    # Nine players, 1 card, a trick with four compass 7s in it: 10 − 20 = −10.
    nine = Setup("modern", NAMES, Options(scoring="rascal", expansion=True))
    played = Hand(1, tuple(Entry(name, int(name == "Anne"), int(name == "Anne"),
                                 {"expansion_sevens": 4} if name == "Anne" else {}) for name in NAMES))
    assert validate_hand(nine, 1, played) == []
    assert score_hand(nine, played)["Anne"] == -10


@pytest.mark.parametrize(("advanced", "cards"), [(False, 9), (True, 10)])
def test_nine_players_get_9_cards_in_hand_10_or_10_with_the_advanced_cards(advanced: bool, cards: int) -> None:
    table = Setup("modern", NAMES, Options(expansion=True, advanced_cards=advanced))
    assert validate_table(table) == []
    assert cards_per_hand(table)[9] == cards


def test_eight_players_get_the_full_ten_cards_with_the_expansion_and_nine_without() -> None:
    assert cards_per_hand(Setup("modern", NAMES[:8], Options(expansion=True)))[9] == 10
    # Without it the 70-card rule stands, even with the advanced cards: games made before keep their deal.
    assert cards_per_hand(Setup("modern", NAMES[:8], Options(advanced_cards=True)))[9] == 8


def test_nine_players_need_the_expansion() -> None:
    found = [p.message() for p in validate_table(Setup("modern", NAMES))]
    assert found == ["The modern rules are for 2 to 8 players, not 9."]


def test_the_expansion_is_an_option_of_the_modern_rules_only() -> None:
    found = [p.message() for p in validate_table(Setup("classic", THREE, Options(expansion=True)))]
    assert "The Expansion Pack is an option of the modern rules only." in found


# --- the deck's cap ----------------------------------------------------------------------------------------------


@given(st.integers(2, 9), st.booleans())
def test_the_deck_is_shared_out_evenly_for_two_to_nine_players(count: int, advanced: bool) -> None:
    table = Setup("modern", NAMES[:count], Options(expansion=True, advanced_cards=advanced))
    deck = 70 + 19 + (4 if advanced else 0) - (6 if count == 2 else 0)
    assert max_cards(table) == deck // count
    assert cards_per_hand(table) == tuple(min(n, deck // count) for n in range(1, 11))


# --- what cannot happen ------------------------------------------------------------------------------------------


def refused(table: Setup, hand: Hand) -> list[str]:
    """Every problem of the hand, as said."""
    return [p.message() for p in validate_hand(table, HAND_NUMBER, hand)]


@pytest.mark.parametrize("kind", sorted(EXPANSION_POINTS))
def test_an_expansion_bonus_without_the_expansion_is_refused_naming_hand_and_player(kind: str) -> None:
    hand = Hand(3, (Entry("Anne", 1, 1, {kind: 1}), Entry("Ben", 1, 2), Entry("Cara", 0, 0)))
    assert (f"Hand {HAND_NUMBER}, Anne: “{kind}” is a bonus of the Expansion Pack, which this game does not use."
            in refused(Setup("modern", THREE), hand))


@pytest.mark.parametrize(("kind", "word"), [("expansion_eights", "compass 8s"), ("expansion_sevens", "compass 7s")])
def test_more_than_four_compass_cards_of_a_kind_are_refused(kind: str, word: str) -> None:
    hand = Hand(5, (Entry("Anne", 2, 2, {kind: 3}), Entry("Ben", 3, 3, {kind: 2}), Entry("Cara", 0, 0)))
    assert f"Hand {HAND_NUMBER}, Anne and Ben: 5 {word} taken, but there are only 4." in refused(STANDARD, hand)


@pytest.mark.parametrize("kind", ["expansion_eights", "expansion_sevens", "first_mate_taken"])
def test_a_capture_of_the_expansion_without_a_trick_is_refused(kind: str) -> None:
    hand = Hand(3, (Entry("Anne", 0, 0, {kind: 1}), Entry("Ben", 3, 3), Entry("Cara", 0, 0)))
    assert (f"Hand {HAND_NUMBER}: Anne won no tricks, so cannot have captured any cards."
            in refused(STANDARD, hand))


def test_con_taken_twice_is_refused() -> None:
    hand = Hand(3, (Entry("Anne", 1, 1, {"first_mate_taken": 1}), Entry("Ben", 2, 2, {"first_mate_taken": 1}),
                    Entry("Cara", 0, 0)))
    assert (f"Hand {HAND_NUMBER}, Anne and Ben: First Mate Con is claimed 2 times, but there is only one."
            in refused(STANDARD, hand))


@pytest.mark.parametrize(("table", "monsters"), [(STANDARD, 1), (ADVANCED, 3)])
def test_more_monsters_than_the_deck_holds_are_refused(table: Setup, monsters: int) -> None:
    hand = Hand(3, (Entry("Anne", 0, 0, {"davy_jones_monsters": monsters + 1}), Entry("Ben", 3, 3),
                    Entry("Cara", 0, 0)))
    assert (f"Hand {HAND_NUMBER}, Anne: Davy Jones destroyed {monsters + 1} sea monsters, but the deck holds only "
            f"{monsters}." in refused(table, hand))


def test_davy_jones_for_two_players_is_refused() -> None:
    hand = Hand(3, (Entry("Anne", 0, 0, {"davy_jones_monsters": 1}), Entry("Ben", 3, 3, {"davy_jones_monsters": 1}),
                    Entry("Cara", 0, 0)))
    assert (f"Hand {HAND_NUMBER}: Anne and Ben each claim Davy Jones' Locker, but there is only one."
            in refused(ADVANCED, hand))


def test_seven_pirates_by_the_skull_king_are_allowed_and_eight_refused() -> None:
    nine = Setup("modern", NAMES, Options(expansion=True))

    def hand(pirates: int) -> Hand:
        return Hand(9, tuple(Entry(name, 9 if name == "Anne" else 0, 9 if name == "Anne" else 0,
                                   {"pirates_by_skull_king": pirates} if name == "Anne" else {}) for name in NAMES))
    assert refused(nine, hand(7)) == []
    assert f"Hand {HAND_NUMBER}, Anne: 8 pirates taken, but the deck holds only 7." in refused(nine, hand(8))


def test_tricks_nobody_won_can_happen_with_the_expansion_alone() -> None:
    hand = Hand(3, (Entry("Anne", 1, 1), Entry("Ben", 1, 1), Entry("Cara", 0, 0)), lost_tricks=1)
    assert refused(STANDARD, hand) == []
    assert refused(Setup("modern", THREE), hand) != []
    too_many = dataclasses.replace(hand, lost_tricks=4)
    assert any("cannot be more than the cards dealt" in m for m in refused(STANDARD, too_many))


# --- properties --------------------------------------------------------------------------------------------------


@given(tables_and_hands(expansion=True))
def test_validation_accepts_every_legal_expansion_hand(case: tuple[Setup, Hand]) -> None:
    table, hand = case
    assert refused(table, hand) == []


def without_expansion_bonuses(hand: Hand, player: str) -> Hand:
    """The hand with `player`'s Expansion Pack bonuses taken out."""
    return dataclasses.replace(hand, entries=tuple(
        dataclasses.replace(e, bonuses={k: n for k, n in e.bonuses.items() if k not in EXPANSION_POINTS})
        if e.player == player else e for e in hand.entries))


def expansion_points(entry: Entry) -> int:
    return sum(EXPANSION_POINTS.get(kind, 0) * count for kind, count in entry.bonuses.items())


@given(tables_and_hands(expansion=True), st.data())
def test_a_compass_8_and_a_compass_7_cancel(case: tuple[Setup, Hand], data: st.DataObject) -> None:
    table, hand = case
    takers = [e for e in hand.entries if e.tricks and e.bonuses.get("expansion_eights", 0) < 4
              and e.bonuses.get("expansion_sevens", 0) < 4]
    assume(takers)
    entry = data.draw(st.sampled_from(takers))
    more = {**entry.bonuses, "expansion_eights": entry.bonuses.get("expansion_eights", 0) + 1,
            "expansion_sevens": entry.bonuses.get("expansion_sevens", 0) + 1}
    changed = dataclasses.replace(hand, entries=tuple(dataclasses.replace(e, bonuses=more) if e is entry else e
                                                      for e in hand.entries))
    assert score_hand(table, changed)[entry.player] == score_hand(table, hand)[entry.player]


@given(tables_and_hands(expansion=True))
def test_no_expansion_bonus_counts_on_a_missed_bid_in_standard_scoring(case: tuple[Setup, Hand]) -> None:
    table, hand = case
    assume(table.options.scoring == "standard")
    for entry in hand.entries:
        if entry.bid != entry.tricks:
            stripped = without_expansion_bonuses(hand, entry.player)
            assert score_hand(table, stripped)[entry.player] == score_hand(table, hand)[entry.player]


@given(tables_and_hands(expansion=True))
def test_under_rascal_an_exact_bid_adds_them_in_full_and_a_glancing_blow_never(case: tuple[Setup, Hand]) -> None:
    table, hand = case
    assume(table.options.scoring == "rascal")
    for entry in hand.entries:
        stripped = without_expansion_bonuses(hand, entry.player)
        difference = score_hand(table, hand)[entry.player] - score_hand(table, stripped)[entry.player]
        if entry.bid == entry.tricks:
            assert difference == expansion_points(entry)
        else:
            assert difference == 0


# --- the pad file ------------------------------------------------------------------------------------------------


@st.composite
def expansion_games(draw: st.DrawFn) -> tuple[Setup, list[Hand]]:
    """An expansion table with some legal finished hands."""
    table = draw(tables(expansion=True))
    return table, draw(st.lists(legal_hands(table), min_size=1, max_size=3))


@given(expansion_games())
def test_an_expansion_pad_exports_imports_and_scores_to_itself(game: tuple[Setup, list[Hand]]) -> None:
    table, hands = game
    exported = write_pad(table, hands)
    assert exported["options"]["expansion"] is True
    text = json.dumps(exported)
    kind, (reread_table, reread_hands) = read_any(text, check=False)
    # Read back as the game stores its hands (a hand's row, seats in order), written again as it was.
    assert reread_table.expansion and kind.write_pad(reread_table, reread_hands) == exported
    assert score_any(text) == exported


def test_a_pad_without_the_expansion_writes_no_such_option_or_column() -> None:
    table = Setup("modern", THREE)
    hand = Hand(3, (Entry("Anne", 1, 1), Entry("Ben", 2, 2), Entry("Cara", 0, 0)))
    exported = write_pad(table, [hand])
    assert "expansion" not in exported["options"]
    assert "expansion_eights" not in write_csv(exported).splitlines()[0]


def test_the_csv_of_an_expansion_pad_has_its_bonus_columns() -> None:
    hand = Hand(5, (Entry("Anne", 2, 2, {"expansion_eights": 1, "expansion_sevens": 1, "first_mate_taken": 1,
                                         "davy_jones_monsters": 1}), Entry("Ben", 3, 3), Entry("Cara", 0, 0)))
    rows = list(csv.DictReader(io.StringIO(write_csv(write_pad(STANDARD, [hand])))))
    anne = rows[0]
    assert (anne["expansion_eights"], anne["expansion_sevens"], anne["first_mate_taken"],
            anne["davy_jones_monsters"], anne["points"]) == ("1", "1", "1", "1", "90")


def pad_of(options: dict[str, object], players: list[str], bonuses: dict[str, int]) -> str:
    """A one-hand modern pad in which the first player bid 1, won the one trick and took `bonuses`."""
    entries = [{"player": p, "bid": int(i == 0), "tricks": int(i == 0), **({"bonuses": bonuses} if i == 0 else {})}
               for i, p in enumerate(players)]
    return json.dumps({"format": "skull-king-pad", "version": 1, "ruleset": "modern", "options": options,
                       "players": players, "hands": [{"cards": 1, "entries": entries}]})


def test_a_file_with_expansion_keys_but_without_the_option_is_refused_in_words() -> None:
    with pytest.raises(PadError) as caught:
        score_any(pad_of({"scoring": "standard"}, list(THREE), {"expansion_eights": 1}))
    assert caught.value.messages() == [
        "Hand 1, Anne: “expansion_eights” is a bonus of the Expansion Pack, which this game does not use."]


def test_nine_players_are_refused_without_the_expansion_and_scored_with_it() -> None:
    with pytest.raises(PadError) as caught:
        score_any(pad_of({"scoring": "standard"}, list(NAMES), {}))
    assert caught.value.messages() == ["The modern rules are for 2 to 8 players, not 9."]
    scored = score_any(pad_of({"scoring": "standard", "expansion": True}, list(NAMES), {"expansion_eights": 1}))
    assert scored["totals"]["Anne"] == 25


@pytest.mark.parametrize(("bonuses", "said"), [
    ({"expansion_eights": 5}, "Hand 1, Anne: 5 compass 8s taken, but there are only 4."),
    ({"first_mate_taken": 2}, "Hand 1, Anne: First Mate Con is claimed 2 times, but there is only one."),
    ({"davy_jones_monsters": 2}, "Hand 1, Anne: Davy Jones destroyed 2 sea monsters, but the deck holds only 1."),
])
def test_the_score_command_refuses_what_cannot_happen_with_hand_and_player(bonuses: dict[str, int], said: str
                                                                         ) -> None:
    from tests.test_cli import run

    result = run("score", "-", stdin=pad_of({"scoring": "standard", "expansion": True}, list(NAMES), bonuses))
    assert result.returncode == 1 and result.stdout == ""
    assert said in result.stderr.splitlines()


def nine_player_pad(entries: dict[str, dict[str, object]], options: dict[str, object] | None = None,
                    cards: int = 4, lost: int = 0) -> dict[str, object]:
    """A one-hand pad of nine players: Anne bids and wins the tricks not lost, the others bid and win nothing,
    unless `entries` says otherwise."""
    lines = [{"player": p, "bid": 0, "tricks": 0, **entries.get(p, {})} for p in NAMES]
    if "Anne" not in entries:
        lines[0].update(bid=cards - lost, tricks=cards - lost)
    return {"format": "skull-king-pad", "version": 1, "ruleset": "modern",
            "options": options if options is not None else {"expansion": True}, "players": list(NAMES),
            "hands": [{"cards": cards, **({"lost_tricks": lost} if lost else {}), "entries": lines}]}


CANNOT_HAPPEN = {
    "a bonus of the expansion without it": (
        json.loads(pad_of({"scoring": "standard"}, list(THREE), {"first_mate_taken": 1})),
        "Hand 1, Anne: “first_mate_taken” is a bonus of the Expansion Pack, which this game does not use."),
    "five compass 8s": (
        nine_player_pad({"Anne": {"bid": 2, "tricks": 2, "bonuses": {"expansion_eights": 3}},
                         "Ben": {"bid": 2, "tricks": 2, "bonuses": {"expansion_eights": 2}}}),
        "Hand 1, Anne and Ben: 5 compass 8s taken, but there are only 4."),
    "five compass 7s": (
        nine_player_pad({"Anne": {"bid": 4, "tricks": 4, "bonuses": {"expansion_sevens": 5}}}),
        "Hand 1, Anne: 5 compass 7s taken, but there are only 4."),
    "a compass card without a trick": (
        nine_player_pad({"Ben": {"bonuses": {"expansion_sevens": 1}}}),
        "Hand 1: Ben won no tricks, so cannot have captured any cards."),
    "Con taken twice": (
        nine_player_pad({"Anne": {"bid": 2, "tricks": 2, "bonuses": {"first_mate_taken": 1}},
                         "Ben": {"bid": 2, "tricks": 2, "bonuses": {"first_mate_taken": 1}}}),
        "Hand 1, Anne and Ben: First Mate Con is claimed 2 times, but there is only one."),
    "Con without a trick": (
        nine_player_pad({"Ben": {"bonuses": {"first_mate_taken": 1}}}),
        "Hand 1: Ben won no tricks, so cannot have captured any cards."),
    "more monsters than the deck": (
        nine_player_pad({"Ben": {"bonuses": {"davy_jones_monsters": 2}}}),
        "Hand 1, Ben: Davy Jones destroyed 2 sea monsters, but the deck holds only 1."),
    "Davy Jones for two players": (
        nine_player_pad({"Ben": {"bonuses": {"davy_jones_monsters": 1}}, "Cara": {"bonuses": {"davy_jones_monsters": 1}}},
                        {"expansion": True, "advanced_cards": True}),
        "Hand 1: Ben and Cara each claim Davy Jones' Locker, but there is only one."),
    "eight Pirates for the Skull King": (
        nine_player_pad({"Anne": {"bid": 4, "tricks": 4, "bonuses": {"pirates_by_skull_king": 8}}}),
        "Hand 1, Anne: 8 pirates taken, but the deck holds only 7."),
    "more tricks nobody won than cards": (
        nine_player_pad({"Anne": {"bid": 0, "tricks": 0}}, cards=4, lost=5),
        "Hand 1: tricks nobody won (5) cannot be more than the cards dealt (4)."),
}


@pytest.mark.parametrize("case", sorted(CANNOT_HAPPEN))
def test_the_score_command_and_the_import_refuse_what_cannot_happen(case: str, client) -> None:
    from tests.test_cli import run

    doc, said = CANNOT_HAPPEN[case]
    scored = run("score", "-", stdin=json.dumps(doc))
    assert scored.returncode == 1 and scored.stdout == ""
    assert said in scored.stderr.splitlines(), scored.stderr
    imported = client.post("/games/import", json=doc)
    assert imported.status_code == 422
    assert said in json.dumps(imported.json, ensure_ascii=False), imported.json
