"""The Skip-Bo and Dracula pad files: the format's own examples, export → import → export, refusals, the CLI."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.padfile import PadError
from scorekeeper.shelf import read_any, score_any
from scorekeeper.shelf.dracula import pad as dracula_pad
from scorekeeper.shelf.skipbo import pad as skipbo_pad
from scorekeeper.shelf.skipbo.rules import GameResult, Setup
from tests.test_cli import run

# The examples of the pad format description, as written there.
SKIPBO = {
    "format": "skip-bo-pad", "version": 1, "players": ["Anne", "Ben", "Cara"], "stock": 30, "target": 500,
    "games": [{"winner": "Anne", "left": {"Ben": 4, "Cara": 7}, "points": 80},
              {"winner": "Cara", "left": {"Anne": 2, "Ben": 9}, "points": 80}],
    "totals": {"Anne": 80, "Ben": 0, "Cara": 80},
}
DRACULA = {
    "format": "dracula-pad", "version": 1, "players": {"queen": "Anne", "king": "Ben"}, "target": 1000,
    "sets": [{"rounds": [{"coffin": [["5H", "7H", "2C"], ["QS", "9D", "QH"], ["KD", "4S", "10S"]],
                          "points": {"Anne": 29, "Ben": 20}}],
              "bonus": {"Anne": 0, "Ben": 0}}],
    "totals": {"Anne": 29, "Ben": 20},
}


@pytest.mark.parametrize("doc", [SKIPBO, DRACULA], ids=["skip-bo", "dracula"])
def test_the_format_examples_score_to_themselves(doc: dict[str, Any]) -> None:
    assert score_any(json.dumps(doc)) == doc


def test_points_and_totals_are_optional_and_filled_in() -> None:
    bare = copy.deepcopy(SKIPBO)
    del bare["totals"]
    for game in bare["games"]:
        del game["points"]
    del bare["stock"], bare["target"]
    assert score_any(json.dumps(bare)) == SKIPBO


def test_skipbo_teams_write_totals_by_team_position() -> None:
    doc = {"format": "skip-bo-pad", "version": 1, "teams": [["Anne", "Cara"], ["Ben", "Dan"]],
           "games": [{"winner": 0, "left": {"Ben": 3, "Dan": 0}}]}
    completed = score_any(json.dumps(doc))
    assert completed["games"][0]["points"] == 40 and completed["totals"] == [40, 0]
    assert completed["stock"] == 30 and completed["target"] == 500


@pytest.mark.parametrize("change, expected", [
    (lambda d: d["games"][0].update(points=85), "Game 1, Anne: the pad says 85, the rules give 80."),
    (lambda d: d["totals"].update(Ben=5), "totals: Ben: the pad says 5, the rules give 0."),
    (lambda d: d["games"][0]["left"].update(Ben=0), "Game 1, Ben: with 0 cards left the game would have ended with Ben."),
    (lambda d: d["games"][1].update(winner="Zed"), "Game 2: “winner” must be a player's name, not \"Zed\"."),
    (lambda d: d["games"][1].update(extra=1), "Game 2: unknown key “extra”."),
    (lambda d: d.update(stock=40), "A stock pile has 5 to 30 cards, not 40."),
    (lambda d: d.update(target=80), "Game 2: the match is already won: no game after it."),
    (lambda d: d.update(games={"1": {}}), "“games” must be a list of games, not {\"1\": {}}."),
])
def test_a_broken_skipbo_pad_is_refused_naming_game_and_player(change, expected: str) -> None:
    doc = copy.deepcopy(SKIPBO)
    change(doc)
    with pytest.raises(PadError) as refused:
        score_any(json.dumps(doc))
    assert expected in refused.value.messages()


@pytest.mark.parametrize("change, expected", [
    (lambda d: d["sets"][0]["rounds"][0].update(points={"Anne": 30, "Ben": 20}),
     "Round 1, Anne: the pad says 30, the rules give 29."),
    (lambda d: d["sets"][0]["rounds"][0]["coffin"][0].__setitem__(1, "5H"),
     "Round 1: a card can be in the coffin only once: 5H."),
    (lambda d: d["sets"][0]["rounds"][0]["coffin"].pop(), "Round 1: a coffin is three rows of three cards."),
    (lambda d: d["sets"][0]["rounds"].extend([d["sets"][0]["rounds"][0]] * 6),
     "set 1 has 7 rounds: a set is six rounds (the last may have fewer)."),
    (lambda d: d.update(totals={"Anne": 1, "Ben": 20}), "totals: Anne: the pad says 1, the rules give 29."),
    (lambda d: d.update(players={"queen": "Anne", "king": "Anne"}),
     "“players” must name two different players: {\"queen\": …, \"king\": …}, not {\"queen\": \"Anne\", \"king\": \"Anne\"}."),
    (lambda d: d.update(sets="all"), "“sets” must be a list of sets, not \"all\"."),
])
def test_a_broken_dracula_pad_is_refused_naming_round_and_player(change, expected: str) -> None:
    doc = copy.deepcopy(DRACULA)
    change(doc)
    with pytest.raises(PadError) as refused:
        score_any(json.dumps(doc))
    assert expected in refused.value.messages()


def test_a_full_dracula_set_gets_its_bonus_and_a_game_past_the_target_takes_no_round() -> None:
    coffin = [["3D", "4D", "5D"], ["2C", "V", "6S"], ["9H", "8H", "7H"]]
    doc = {"format": "dracula-pad", "version": 1, "players": {"queen": "Anne", "king": "Ben"}, "target": 250,
           "sets": [{"rounds": [{"coffin": coffin}] * 6}]}
    completed = score_any(json.dumps(doc))
    assert completed["sets"][0]["bonus"] == {"Anne": 612, "Ben": 0}
    assert completed["totals"] == {"Anne": 1332, "Ben": 108}
    doc["sets"].append({"rounds": [{"coffin": coffin}]})
    with pytest.raises(PadError, match="Round 7: the game is over: no round after it."):
        score_any(json.dumps(doc))


def test_an_unknown_format_is_named() -> None:
    with pytest.raises(PadError, match="“format” must be one of skull-king-pad, skip-bo-pad, dracula-pad"):
        read_any(json.dumps({"format": "uno-pad"}))


@given(st.lists(st.tuples(st.integers(0, 2), st.lists(st.integers(1, 30), min_size=2, max_size=2)), max_size=5))
def test_skipbo_export_import_export_is_the_same(games: list) -> None:
    setup = Setup(("Anne", "Ben", "Cara"), 30, 10_000)
    results = []
    for winner, left in games:
        others = [name for seat, name in enumerate(setup.players) if seat != winner]
        results.append(GameResult(winner, dict(zip(others, left))))
    doc = skipbo_pad.write(setup, results)
    assert score_any(json.dumps(doc)) == doc
    assert [g["points"] for g in doc["games"]] == [25 + 5 * sum(left) for _, left in games]


def test_dracula_export_import_export_is_the_same() -> None:
    doc = dracula_pad.write(dracula_pad.Setup("Anne", "Ben"), [DRACULA["sets"][0]["rounds"][0]["coffin"]] * 8)
    assert [len(s["rounds"]) for s in doc["sets"]] == [6, 2]
    assert score_any(json.dumps(doc)) == doc


def test_the_command_line_scores_both_kinds_and_refuses_broken_ones(tmp_path) -> None:
    for doc in (SKIPBO, DRACULA):
        bare = copy.deepcopy(doc)
        del bare["totals"]
        path = tmp_path / f"{doc['format']}.json"
        path.write_text(json.dumps(bare), encoding="utf-8")
        result = run("score", str(path))
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout) == doc
    broken = copy.deepcopy(SKIPBO)
    broken["games"][0]["left"]["Ben"] = 0
    broken["games"][1]["points"] = 5
    result = run("score", "-", stdin=json.dumps(broken))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines() == ["Game 1, Ben: with 0 cards left the game would have ended with Ben.",
                                          "Game 2, Cara: the pad says 5, the rules give 80."]
