"""The `wizard-pad` file: the rules file's example, what it fills in, an unfinished round, every refusal in words
with its round and player, the command line, and export → import → export."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.padfile import PadError
from scorekeeper.shelf import read_any, score_any
from scorekeeper.shelf.wizard import WIZARD
from scorekeeper.shelf.wizard import pad as wizard_pad
from scorekeeper.shelf.wizard.rules import Round, Setup
from tests.test_cli import run

# The example of the rules file, as written there.
EXAMPLE: dict[str, Any] = {
    "format": "wizard-pad",
    "version": 1,
    "players": ["Anne", "Ben", "Cara"],
    "first_dealer": "Anne",
    "options": {"bidding": "in-turn", "no_even_bids": False},
    "rounds": [
        {"cards": 1, "entries": [
            {"player": "Anne", "bid": 0, "tricks": 0, "points": 20},
            {"player": "Ben", "bid": 1, "tricks": 1, "points": 30},
            {"player": "Cara", "bid": 1, "tricks": 0, "points": -10}]},
    ],
    "totals": {"Anne": 20, "Ben": 30, "Cara": -10},
}


def with_round(doc: dict[str, Any], entries: list[tuple[str, int, int | None]]) -> dict[str, Any]:
    """`doc` with one more round: (player, bid, tricks or None) each."""
    doc = copy.deepcopy(doc)
    cards = len(doc["rounds"]) + 1
    doc["rounds"].append({"cards": cards, "entries": [
        {"player": p, "bid": b, **({"tricks": t} if t is not None else {})} for p, b, t in entries]})
    doc.pop("totals", None)
    return doc


def test_the_example_scores_to_itself() -> None:
    assert score_any(json.dumps(EXAMPLE)) == EXAMPLE


def test_points_totals_dealer_and_options_are_optional_and_filled_in() -> None:
    bare = copy.deepcopy(EXAMPLE)
    del bare["totals"], bare["first_dealer"], bare["options"]
    for entry in bare["rounds"][0]["entries"]:
        del entry["points"]
    assert score_any(json.dumps(bare)) == EXAMPLE


def test_an_unfinished_last_round_is_read_and_written_back() -> None:
    doc = with_round(EXAMPLE, [("Anne", 1, None), ("Ben", 0, None), ("Cara", 2, None)])
    kind, (setup, plays) = read_any(json.dumps(doc))
    assert kind is WIZARD and setup == Setup(("Anne", "Ben", "Cara"))
    assert plays[-1] == Round(2, (1, 0, 2))
    written = score_any(json.dumps(doc))
    assert written["rounds"][1] == {"cards": 2, "entries": [{"player": "Anne", "bid": 1}, {"player": "Ben", "bid": 0},
                                                            {"player": "Cara", "bid": 2}]}
    assert written["totals"] == EXAMPLE["totals"]


def broken(change) -> dict[str, Any]:
    doc = copy.deepcopy(EXAMPLE)
    change(doc)
    return doc


@pytest.mark.parametrize("doc, expected", [
    (broken(lambda d: d["rounds"][0]["entries"][1].update(points=25)),
     ["Round 1, Ben: the pad says 25 points, the rules give 30."]),
    (broken(lambda d: d["totals"].update(Cara=0)), ["totals: Cara: the pad says 0, the rules give -10."]),
    (broken(lambda d: d["rounds"][0]["entries"][2].update(tricks=1)),
     ["Round 1, Anne, Ben and Cara: your tricks add up to 2, but this round has 1: every trick goes to somebody. "
      "Check yours."]),
    (broken(lambda d: d["rounds"][0]["entries"][0].update(bid=2)),
     ["Round 1, Anne: a bid is 0 to 1, the cards dealt, not 2."]),
    (broken(lambda d: d["rounds"][0].update(cards=2)),
     ["Round 1: “cards” must be 1, the round's number (round n deals n cards to each player), not 2."]),
    (broken(lambda d: d["rounds"][0]["entries"].pop()), ["Round 1, Cara: no entry: every player bids in every round."]),
    (broken(lambda d: d["rounds"][0]["entries"][0].pop("tricks")),
     ["Round 1, Anne: no tricks, while the others have theirs: a round is finished for all or for none."]),
    (broken(lambda d: d["rounds"][0]["entries"][1].update(bid="one")),
     ["Round 1, Ben: “bid” must be a whole number, not \"one\"."]),
    (broken(lambda d: d["rounds"][0]["entries"][1].update(player="Bob")),
     ["Round 1: an entry must name one of the players, not {\"player\": \"Bob\", \"bid\": 1, \"tricks\": 1, \"points\": 30}.",
      "Round 1, Ben: no entry: every player bids in every round."]),
    (broken(lambda d: d.update(options={"bidding": "secret", "no_even_bids": True})),
     ["“no_even_bids” must be false with secret bids: with secret bids nobody bids last."]),
    (broken(lambda d: d.update(options={"bidding": "shouted"})),
     ["“bidding” must be “in-turn” or “secret”, not \"shouted\"."]),
    (broken(lambda d: d.update(players=["Anne", "Ben"])),
     ["“players” must name 3 to 6 different players in seat order, not [\"Anne\", \"Ben\"]."]),
    (broken(lambda d: d.update(first_dealer="Dan")), ["“first_dealer” must be one of the players, not \"Dan\"."]),
    (broken(lambda d: d["rounds"].extend([d["rounds"][0]] * 20)), ["21 rounds: with 3 players the game has 20."]),
    (broken(lambda d: d.update(options={"no_even_bids": True}, rounds=[
        {"cards": 1, "entries": [{"player": "Anne", "bid": 0, "tricks": 0}, {"player": "Ben", "bid": 1, "tricks": 1},
                                 {"player": "Cara", "bid": 0, "tricks": 0}]}])),
     ["Round 1, Anne: the bids add up to 1, the cards dealt, which “no even bids” does not allow."]),
])
def test_a_broken_pad_is_refused_naming_round_and_player(doc: dict[str, Any], expected: list[str]) -> None:
    with pytest.raises(PadError) as refused:
        read_any(json.dumps(doc))
    assert refused.value.messages() == expected


def test_every_problem_of_a_file_is_named_at_once() -> None:
    doc = with_round(EXAMPLE, [("Anne", 3, 2), ("Ben", 0, 0), ("Cara", 0, 0)])
    doc["rounds"].append({"cards": 3, "entries": [{"player": "Anne", "bid": 0}]})
    with pytest.raises(PadError) as refused:
        read_any(json.dumps(doc))
    assert refused.value.messages() == [
        "Round 2, Anne: a bid is 0 to 2, the cards dealt, not 3.",
        "Round 3, Ben and Cara: no entry: every player bids in every round."]


def test_only_the_last_round_may_be_unfinished() -> None:
    doc = with_round(EXAMPLE, [("Anne", 1, None), ("Ben", 0, None), ("Cara", 2, None)])
    doc = with_round(doc, [("Anne", 1, 1), ("Ben", 0, 1), ("Cara", 2, 1)])
    with pytest.raises(PadError) as refused:
        read_any(json.dumps(doc))
    assert refused.value.messages() == ["Round 2: no tricks: only the last round may be unfinished."]


def test_the_command_line_scores_a_wizard_pad_and_refuses_a_broken_one(tmp_path) -> None:
    bare = copy.deepcopy(EXAMPLE)
    del bare["totals"]
    path = tmp_path / "wizard.json"
    path.write_text(json.dumps(bare), encoding="utf-8")
    result = run("score", str(path))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == EXAMPLE
    wrong = broken(lambda d: d["rounds"][0]["entries"][1].update(points=25))
    result = run("score", "-", stdin=json.dumps(wrong))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines() == ["Round 1, Ben: the pad says 25 points, the rules give 30."]


@st.composite
def games(draw: st.DrawFn) -> tuple[Setup, list[Round]]:
    """A game of Wizard of 3 to 6 players in any state, its rounds as a real table could have played them."""
    count = draw(st.integers(3, 6))
    setup = Setup(("Anne", "Ben", "Cara", "Dan", "Eve", "Finn")[:count], draw(st.integers(0, count - 1)))
    rounds = []
    for cards in range(1, draw(st.integers(0, 60 // count)) + 1):
        bids = tuple(draw(st.lists(st.integers(0, cards), min_size=count, max_size=count)))
        winners = draw(st.lists(st.integers(0, count - 1), min_size=cards, max_size=cards))
        rounds.append(Round(cards, bids, tuple(winners.count(seat) for seat in range(count))))
    return setup, rounds


@settings(max_examples=40)
@given(games())
def test_export_import_export_is_the_same(game: tuple[Setup, list[Round]]) -> None:
    setup, rounds = game
    written = wizard_pad.write(setup, rounds)
    read = wizard_pad.read(json.loads(json.dumps(written)), check=True)
    assert (read.setup, read.rounds) == (setup, rounds)
    assert wizard_pad.write(read.setup, read.rounds) == written


def test_an_unfinished_round_breaking_no_even_bids_is_refused_as_a_finished_one_would_be() -> None:
    """Under "no even bids" an unfinished round's bids may not add up to the cards dealt either: imported, it would
    make a game whose own export is refused once the round closes. The last bidder is named (round 2: Ben deals,
    so Cara, Anne, then Ben)."""
    doc = copy.deepcopy(EXAMPLE)
    doc["options"]["no_even_bids"] = True
    unfinished = with_round(doc, [("Anne", 1, None), ("Ben", 0, None), ("Cara", 1, None)])
    with pytest.raises(PadError) as refused:
        read_any(json.dumps(unfinished))
    assert refused.value.messages() == [
        "Round 2, Ben: the bids add up to 2, the cards dealt, which “no even bids” does not allow."]
    # The same bids finished are refused alike; bids that do not add up are read, and the export reads again.
    with pytest.raises(PadError):
        read_any(json.dumps(with_round(doc, [("Anne", 1, 1), ("Ben", 0, 0), ("Cara", 1, 1)])))
    fine = with_round(doc, [("Anne", 2, None), ("Ben", 0, None), ("Cara", 1, None)])
    assert read_any(json.dumps(score_any(json.dumps(fine))))[1] == read_any(json.dumps(fine))[1]
