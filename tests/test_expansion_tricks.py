"""The trick judge with the 2025 Expansion Pack: every worked trick of its rules file, how its cards are written,
what is refused in words, and `--json`, on the command line and in the pure judge."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from scorekeeper.cli import main
from scorekeeper.shelf.skullking.tricks import TrickError, judge, parse_trick


def judged(written: str):
    """The judgement of a trick written as the rules file writes it, with the expansion."""
    return judge("modern", parse_trick("modern", written, expansion=True), expansion=True)


# (trick, winner's position, the winner's capture points, captures that must be counted)
WORKED = [
    ("yellow 8c, yellow 8", 0, 5, {"expansion_eights": 1}),
    ("green 5, green 0/14 as 14, green 14", 1, 10, {"standard_fourteens": 1}),
    ("purple 3, wild 15, purple 13", 1, 0, {}),
    ("black 4, wild 15, black 2", 0, 0, {}),
    ("rosie, con, skull king", 2, 60, {"pirates_by_skull_king": 1, "first_mate_taken": 1}),
    ("harry, con", 1, 0, {}),
    ("pirate, con, mermaid", 2, 30, {"first_mate_taken": 1}),
    ("mermaid, skull king, con", 0, 70, {"skull_king_by_mermaid": 1, "first_mate_taken": 1}),
    ("kraken, yellow 5, davy jones, yellow 9", 3, 0, {}),
    ("yellow 3, kraken, stingray, yellow 9", 0, 0, {}),
    ("yellow 6, last volley, yellow 9, then yellow 12", 1, 0, {}),
    ("rosie, walk the plank, yellow 9", 2, 0, {}),
    ("skull king, harry, walk the plank: harry", 0, 0, {}),
    ("walk the plank, escape, escape", 1, 0, {}),
    ("yellow 9, stingray, black 2, yellow 4", 2, 0, {}),
]


@pytest.mark.parametrize(("written", "winner", "points", "captured"), WORKED, ids=[w[0] for w in WORKED])
def test_every_worked_trick(written: str, winner: int, points: int, captured: dict[str, int]) -> None:
    judgement = judged(written)
    assert (judgement.outcome, judgement.winner, judgement.next_leader, judgement.points) == \
        ("won", winner, winner, points)
    counted = {kind: n for kind, n in judgement.captures.as_bonuses().items() if n}
    assert counted == captured


def test_davy_jones_destroys_the_monsters_for_its_player_whoever_wins() -> None:
    judgement = judged("kraken, yellow 5, davy jones, yellow 9")
    assert judgement.davy_jones == (2, 1)
    assert judged("davy jones, yellow 3").davy_jones == (0, 0)
    assert judged("yellow 3, escape").davy_jones is None


def test_a_lone_kraken_destroys_the_trick_and_a_stingray_of_specials_is_discarded() -> None:
    assert (judged("yellow 3, kraken, yellow 9").outcome, judged("yellow 3, kraken, yellow 9").next_leader) == \
        ("destroyed", 2)
    discarded = judged("pirate, stingray, skull king")
    assert (discarded.outcome, discarded.winner, discarded.next_leader) == ("discarded", None, 1)
    nothing = judged("walk the plank, last volley, davy jones")
    assert (nothing.outcome, nothing.winner, nothing.next_leader) == ("discarded", None, 0)


@pytest.mark.parametrize(("written", "outcome", "leader"), [
    ("yellow 3, yellow 9, kraken", "destroyed", 1),  # the would-be winner, not the player left of the Kraken's
    ("yellow 9, kraken, yellow 3", "destroyed", 0),
    ("kraken, stingray, pirate", "discarded", 1),  # the Stingray acts (the last monster): specials only
    ("yellow 3, stingray, kraken, yellow 9", "destroyed", 3),  # without either monster the yellow 9 wins
    ("white whale, kraken, walk the plank", "destroyed", 0),  # nothing left can win: the trick's leader
    ("rosie, walk the plank: rosie, davy jones", "discarded", 0),  # Rosie walked; nothing can win: 0 leads again
    ("walk the plank, rosie, last volley, then davy jones", "discarded", 0),
])
def test_who_leads_after_a_kraken_or_a_trick_nothing_wins(written: str, outcome: str, leader: int) -> None:
    judgement = judged(written)
    assert (judgement.outcome, judgement.winner, judgement.next_leader) == (outcome, None, leader)
    shown = CliRunner().invoke(main, ["trick", "modern", "--expansion", "--json", written])
    assert shown.exit_code == 0, shown.output
    assert (json.loads(shown.output)["outcome"], json.loads(shown.output)["next_leader"]) == (outcome, leader)


@pytest.mark.parametrize(("written", "said"), [
    ("wild 15, yellow 3", "The Wild 15 sets the suit here: name its colour (“wild 15 as yellow”)."),
    ("wild 15 as black, yellow 3", "The Wild 15 is green, yellow or purple, never “black”."),
    ("harry, rosie, walk the plank", "Several Pirates in the trick: say which one walks the plank"),
    ("harry, walk the plank: con", "“con” cannot walk the plank: no such Pirate in this trick."),
    ("harry, walk the plank: rosie", "“rosie” cannot walk the plank: no such Pirate in this trick."),
    ("yellow 3, green 0/14", "A 0/14 is played as 0 or as 14"),
    ("yellow 3, escape, then yellow 5", "there is no Last Volley here."),
    ("yellow 8c, yellow 8c", "The pack holds only 1 × yellow 8c."),
])
def test_a_trick_that_cannot_be_is_refused_in_words(written: str, said: str) -> None:
    with pytest.raises(TrickError) as caught:
        parse_trick("modern", written, expansion=True)
    assert said in str(caught.value)


@pytest.mark.parametrize("card", ["yellow 8c", "green 0/14 as 0", "wild 15 as yellow", "mary", "con",
                                  "walk the plank", "stingray", "last volley", "davy jones"])
def test_an_expansion_card_without_the_expansion_is_refused_in_words(card: str) -> None:
    refused = CliRunner().invoke(main, ["trick", "modern", f"yellow 3, {card}"])
    assert refused.exit_code == 2 and f"“{card}” is not a card of these rules." in refused.output


def test_the_json_with_the_expansion_names_davy_jones_player_and_the_new_captures() -> None:
    result = CliRunner().invoke(main, ["trick", "modern", "--expansion", "--json",
                                       "kraken, yellow 8c, davy jones, yellow 9"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {
        "outcome": "won", "winner": 3, "next_leader": 3,
        "captures": {"pirates_by_skull_king": 0, "skull_king_by_mermaid": 0, "mermaids_by_pirate": 0,
                     "standard_fourteens": 0, "black_fourteen": 0, "expansion_eights": 1, "expansion_sevens": 0,
                     "first_mate_taken": 0, "loot_from": [], "davy_jones": {"player": 2, "monsters": 1}},
        "points": 5}
    # The Volley's player wins with its second card: named by the position of "last volley".
    volley = CliRunner().invoke(main, ["trick", "modern", "--expansion", "--json",
                                       "yellow 6, last volley, yellow 9, then yellow 12"])
    assert json.loads(volley.output)["winner"] == 1


def test_the_expansion_is_for_the_modern_rules_only() -> None:
    refused = CliRunner().invoke(main, ["trick", "classic", "--expansion", "yellow 3"])
    assert refused.exit_code == 2 and "modern rules only" in refused.output


def test_a_loot_keeps_its_player_s_position_when_a_card_before_it_leaves_the_trick() -> None:
    # Rosie walks the plank: the Loot is still the second card written, its player the winner's ally.
    judgement = judged("rosie, loot, walk the plank, yellow 9")
    assert (judgement.winner, judgement.captures.loot_from) == (3, (1,))
