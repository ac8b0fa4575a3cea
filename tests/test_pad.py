"""The pad file: scoring, round trips, and a test of every refusal's message."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.padfile import PadError
from scorekeeper.shelf import read_any, score_any
from scorekeeper.shelf.skullking.pad import write_pad
from scorekeeper.shelf.skullking.rules import Entry, Hand, Setup
from tests.conftest import EXAMPLE_PAD
from tests.strategies import legal_hands, tables

# The format description, shipped with the project so this check runs in every clone.
FORMAT_DESCRIPTION = Path(__file__).resolve().parents[1] / "docs" / "pad-format.md"


def refusal(doc: object) -> list[str]:
    """The messages a pad document is refused with."""
    with pytest.raises(PadError) as caught:
        score_any(json.dumps(doc))
    return caught.value.messages()


def test_the_example_pad_scores_to_its_totals(example_pad: dict[str, Any]) -> None:
    completed = score_any(json.dumps(example_pad))
    assert completed["totals"] == {"Anne": 10, "Ben": 30, "Cara": 0}
    assert [e["points"] for e in completed["hands"][1]["entries"]] == [-10, 20, -10]


def test_the_shipped_example_is_the_one_of_the_format_description() -> None:
    block = re.search(r"```json\n(.*?)```", FORMAT_DESCRIPTION.read_text(encoding="utf-8"), re.S)
    assert block and json.loads(block.group(1)) == json.loads(EXAMPLE_PAD.read_text(encoding="utf-8"))


def test_points_and_totals_are_optional_and_filled_in(example_pad: dict[str, Any]) -> None:
    bare = copy.deepcopy(example_pad)
    del bare["totals"]
    for hand in bare["hands"]:
        for entry in hand["entries"]:
            del entry["points"]
    assert score_any(json.dumps(bare)) == score_any(json.dumps(example_pad))


@st.composite
def games(draw: st.DrawFn) -> tuple[Setup, list[Hand]]:
    """A table with some legal finished hands, and perhaps an unfinished last one."""
    table = draw(tables())
    hands = draw(st.lists(legal_hands(table), max_size=4))
    if draw(st.booleans()):
        bidding = draw(legal_hands(table))
        hands.append(Hand(bidding.cards, tuple(Entry(e.player, e.bid, shot=e.shot) for e in bidding.entries)))
    return table, hands


@given(games())
def test_export_import_export_gives_the_same_document(game: tuple[Setup, list[Hand]]) -> None:
    table, hands = game
    exported = write_pad(table, hands)
    text = json.dumps(exported)
    kind, (reread_table, reread_hands) = read_any(text, check=False)
    # Read back as the game stores its hands (a hand's row, seats in order), written again as it was.
    assert kind.write_pad(reread_table, reread_hands) == exported
    assert score_any(text) == exported


def test_a_hand_s_entries_in_any_order_are_written_in_seat_order(example_pad: dict[str, Any]) -> None:
    """A hand is kept as its seats have it: a file listing a hand's entries in another order scores to the same pad,
    in the order of `players`."""
    shuffled = copy.deepcopy(example_pad)
    for hand in shuffled["hands"]:
        hand["entries"].reverse()
    completed = score_any(json.dumps(shuffled))
    assert completed == score_any(json.dumps(example_pad))
    assert [e["player"] for e in completed["hands"][0]["entries"]] == ["Anne", "Ben", "Cara"]


def test_the_first_dealer_is_named_or_the_first_player(example_pad: dict[str, Any]) -> None:
    assert read_any(json.dumps(example_pad), check=False)[1][0].first_dealer == 0
    example_pad["first_dealer"] = "Cara"
    table = read_any(json.dumps(example_pad), check=False)[1][0]
    assert table.players == ("Anne", "Ben", "Cara") and table.first_dealer == 2
    assert score_any(json.dumps(example_pad))["first_dealer"] == "Cara"
    example_pad["first_dealer"] = "Zed"
    with pytest.raises(PadError, match="“first_dealer” must be the name of a player, not \"Zed\""):
        read_any(json.dumps(example_pad), check=False)[1]


def test_an_unfinished_last_hand_is_kept_without_points(example_pad: dict[str, Any]) -> None:
    example_pad["hands"].append({"cards": 3, "entries": [
        {"player": "Anne", "bid": 1}, {"player": "Ben", "bid": 2}, {"player": "Cara", "bid": 0}]})
    completed = score_any(json.dumps(example_pad))
    assert completed["hands"][2]["entries"][1] == {"player": "Ben", "bid": 2}
    assert completed["totals"] == {"Anne": 10, "Ben": 30, "Cara": 0}


def test_points_that_differ_are_each_reported(example_pad: dict[str, Any]) -> None:
    example_pad["hands"][1]["entries"][1]["points"] = 60
    example_pad["hands"][0]["entries"][0]["points"] = 40
    example_pad["totals"]["Ben"] = 70
    assert refusal(example_pad) == [
        "Hand 1, Anne: the pad says 40, the rules give 20.",
        "Hand 2, Ben: the pad says 60, the rules give 20.",
        "totals, Ben: the pad says 70, the rules give 30.",
    ]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d.update(colour="red"), ["unknown key “colour”."]),
        (lambda d: d.update(format="score-pad"), ["“format” must be one of skull-king-pad, skip-bo-pad, dracula-pad, free-pad, wizard-pad, not \"score-pad\"."]),
        (lambda d: d.update(version=2),
         ["“version” must be 1, not 2: this app reads version 1."]),
        (lambda d: d.update(version=True),
         ["“version” must be 1, not true: this app reads version 1."]),
        (lambda d: d.update(ruleset="poker"),
         ["“ruleset” must be classic, doubloons or modern, not \"poker\"."]),
        (lambda d: d.update(options=[]), ["“options” must be an object, not []."]),
        (lambda d: d["options"].update(speed=3), ["options: unknown key “speed”."]),
        (lambda d: d["options"].update(scoring="fast"),
         ["options: “scoring” must be standard or rascal, not \"fast\"."]),
        (lambda d: d["options"].update(scoring="rascal"),
         ["Rascal's scoring, cannonball, advanced cards and wagers are options of the modern rules only."]),
        (lambda d: d["options"].update(cannonball="yes"),
         ["options: “cannonball” must be true or false, not \"yes\"."]),
        (lambda d: d["options"].update(rounds="forever"),
         ["options: “rounds” must be one of standard, even-keeled, skip-to-the-brawl, swift-n-salty, "
          "broadside-barrage, whirlpool, past-your-bedtime or a list of whole numbers, not \"forever\"."]),
        (lambda d: d.update(players="Anne, Ben"), ["“players” must be a list of names, not \"Anne, Ben\"."]),
        (lambda d: d.update(players=["Anne", "Anne", "Cara"]), ["Anne: each player needs a different name."]),
        (lambda d: d.update(hands={}), ["“hands” must be a list of hands, not {}."]),
        (lambda d: d["hands"].__setitem__(0, "hand"), ["Hand 1: a hand must be an object, not \"hand\"."]),
        (lambda d: d["hands"][0].update(dealer="Anne"), ["Hand 1: unknown key “dealer”."]),
        (lambda d: d["hands"][0].pop("cards"), ["Hand 1: “cards” is missing."]),
        (lambda d: d["hands"][0].update(cards=1.0), ["Hand 1: “cards” must be a whole number, not 1.0."]),
        (lambda d: d["hands"][0].update(entries=None),
         ["Hand 1: “entries” must be a list, one per player, not null."]),
        (lambda d: d["hands"][0]["entries"].__setitem__(2, 7),
         ["Hand 1: entry 3 must be an object, not 7."]),
        (lambda d: d["hands"][0]["entries"][2].update(player=3),
         ["Hand 1: entry 3: “player” must be a player's name, not 3."]),
        (lambda d: d["hands"][0]["entries"][1].update(bid="none"),
         ["Hand 1, Ben: “bid” must be a whole number, not \"none\"."]),
        (lambda d: d["hands"][0]["entries"][1].update(bid=False),
         ["Hand 1, Ben: “bid” must be a whole number, not false."]),
        (lambda d: d["hands"][0]["entries"][1].pop("bid"), ["Hand 1, Ben: “bid” is missing."]),
        (lambda d: d["hands"][0]["entries"][1].update(fist=1), ["Hand 1, Ben: unknown key “fist”."]),
        (lambda d: d["hands"][0]["entries"][0].update(bonuses={"black_fourteen": 1}),
         ["Hand 1, Anne: “black_fourteen” is not a bonus of the classic rules."]),
        (lambda d: d["hands"][0]["entries"][0].update(bonuses={"pirates_by_skull_king": "one"}),
         ["Hand 1, Anne: the bonus “pirates_by_skull_king” must be a whole number, not \"one\"."]),
        (lambda d: d["hands"][0]["entries"][0].update(bonuses=3),
         ["Hand 1, Anne: “bonuses” must be an object of counts, not 3."]),
        (lambda d: d["hands"][0]["entries"][0].update(loot_with="Ben"),
         ["Hand 1, Anne: “loot_with” must be a list of player names, not \"Ben\"."]),
        (lambda d: d["hands"][0]["entries"][0].update(shot=1),
         ["Hand 1, Anne: “shot” must be grapeshot or cannonball, not 1."]),
        (lambda d: d["hands"][0]["entries"][0].update(wager=10),
         ["Hand 1, Anne: wagers need the modern rules with the Rascal of Roatán option."]),
        (lambda d: d["hands"][0]["entries"][1].update(tricks=1),
         ["Hand 1: the tricks won add up to 2 (Anne 1, Ben 1, Cara 0), but they must add up to the cards dealt: 1."]),
        (lambda d: [(e.pop("tricks"), e.pop("points")) for e in d["hands"][0]["entries"]],
         ["Hand 1: only the last hand may be unfinished; tricks are missing for Anne, Ben and Cara."]),
        (lambda d: d["hands"][1]["entries"][0].pop("tricks"),
         ["Hand 2, Anne: “points” needs the tricks won, which are missing."]),
        (lambda d: d["hands"].extend([d["hands"][0]] * 9),
         ["the pad has 11 hands, but this game has only 10."]),
        (lambda d: d.update(totals=[10, 30, 0]),
         ["“totals” must be an object of player names and numbers, not [10, 30, 0]."]),
        (lambda d: d["totals"].update(Dan=0), ["totals: “Dan” is not playing in this game."]),
        (lambda d: d["totals"].update(Ben="30"), ["totals, Ben: must be a whole number, not \"30\"."]),
        (lambda d: d["totals"].pop("Cara"), ["totals: Cara is missing."]),
    ],
)
def test_every_refusal_names_its_problem(example_pad: dict[str, Any], change, expected: list[str]) -> None:
    change(example_pad)
    assert refusal(example_pad) == expected


def test_a_rule_broken_in_a_hand_is_refused_with_the_rules_message(example_pad: dict[str, Any]) -> None:
    example_pad["hands"][1]["entries"][0]["bonuses"] = {"pirates_by_skull_king": 1}
    example_pad["hands"][1]["entries"][1]["bonuses"] = {"skull_king_by_mermaid": 1}
    assert refusal(example_pad) == [
        "Hand 2: Ben won no tricks, so cannot have captured any cards.",
        "Hand 2: Anne and Ben both claim the Skull King — there is only one.",
    ]


def test_problems_of_several_hands_are_reported_together(example_pad: dict[str, Any]) -> None:
    example_pad["hands"][0]["entries"][0]["bid"] = 2
    example_pad["hands"][1]["entries"][2]["tricks"] = 3
    assert refusal(example_pad) == [
        "Hand 1, Anne: bid 2 is more than the cards dealt (1).",
        "Hand 2, Cara: tricks won 3 is more than the cards dealt (2).",
        "Hand 2: the tricks won add up to 5 (Anne 2, Ben 0, Cara 3), but they must add up to the cards dealt: 2.",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{not json", "The file is not valid JSON: Expecting property name enclosed in double quotes: "
                      "line 1 column 2 (char 1)."),
        ("[1, 2]", "A pad file is a JSON object, not a list."),
        ("null", "A pad file is a JSON object, not null."),
    ],
)
def test_a_file_that_is_not_a_pad_is_refused(text: str, expected: str) -> None:
    with pytest.raises(PadError) as caught:
        read_any(text, check=False)[1]
    assert caught.value.messages() == [expected]


def test_an_imported_hand_keeps_its_tricks_nobody_won(client) -> None:
    """A hand of the file with tricks nobody won (the Kraken's) comes back out of the pad file as it went in."""
    doc = {"format": "skull-king-pad", "version": 1, "ruleset": "modern",
           "options": {"scoring": "standard", "advanced_cards": True}, "players": ["Anne", "Ben"],
           "hands": [{"cards": 2, "lost_tricks": 1, "entries": [{"player": "Anne", "bid": 1, "tricks": 1},
                                                                {"player": "Ben", "bid": 0, "tricks": 0}]}]}
    imported = client.post("/games/import", json=doc)
    assert imported.status_code == 201, imported.json
    game = imported.headers["Location"].replace("http://localhost", "")
    exported = client.get(f"{game}/pad.json").get_json()
    assert exported["hands"][0]["lost_tricks"] == 1
    assert exported["hands"][0]["entries"][0]["points"] == 20
