"""The trick judge: every worked example of the tricks rules file (also through the command line),
and properties over random legal tricks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.cli import main
from scorekeeper.shelf.skullking import tricks
from scorekeeper.shelf.skullking.tricks import Card, judge, parse_trick

# (ruleset, trick as written, outcome, winner, next leader, capture points, loot partners) from
# shared/rules/skull-king-tricks.md, "Worked examples".
EXAMPLES = [
    ("classic", "yellow 2, yellow 12, blue 13, black 1", "won", 3, 3, 0, []),
    ("classic", "yellow 2, yellow 12, blue 13", "won", 1, 1, 0, []),
    ("classic", "escape, escape, escape", "won", 0, 0, 0, []),
    ("classic", "pirate, skull king, mermaid", "won", 2, 2, 50, []),
    ("classic", "pirate, skull king, escape, scary mary as escape", "won", 1, 1, 60, []),
    ("classic", "pirate, pirate", "won", 0, 0, 0, []),
    ("classic", "mermaid, mermaid", "won", 0, 0, 0, []),
    ("modern", "yellow 14, pirate, skull king, mermaid", "won", 3, 3, 50, []),
    ("modern", "black 2, pirate, yellow 14, skull king, white whale", "won", 2, 2, 10, []),
    ("modern", "white whale, pirate, mermaid", "discarded", None, 0, 0, []),
    ("modern", "yellow 3, yellow 9, kraken", "destroyed", None, 1, 0, []),
    ("modern", "yellow 12, black 3, white whale, kraken", "destroyed", None, 1, 0, []),
    ("modern", "pirate, mermaid, green 14", "won", 0, 0, 30, []),
    ("modern", "loot, escape, escape", "won", 0, 0, 0, []),
    ("modern", "green 7, loot, green 9", "won", 2, 2, 0, [1]),
    ("modern", "tigress as escape, skull king", "won", 1, 1, 0, []),
    ("doubloons", "circle 3, circle 8, star 0", "won", 2, 2, 0, []),
]


@pytest.mark.parametrize(("ruleset", "written", "outcome", "winner", "leader", "points", "loot"), EXAMPLES,
                         ids=[f"{r}: {w}" for r, w, *_ in EXAMPLES])
def test_every_worked_example(ruleset: str, written: str, outcome: str, winner: int | None, leader: int,
                              points: int, loot: list[int]) -> None:
    judgement = judge(ruleset, parse_trick(ruleset, written))
    assert (judgement.outcome, judgement.winner, judgement.next_leader, judgement.points) == \
        (outcome, winner, leader, points)
    assert list(judgement.captures.loot_from) == loot
    # The same through the command line, as JSON.
    result = CliRunner().invoke(main, ["trick", ruleset, written, "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert (document["outcome"], document["winner"], document["next_leader"], document["points"]) == \
        (outcome, winner, leader, points)
    assert document["captures"]["loot_from"] == loot


@pytest.mark.parametrize(("written", "leader"), [
    ("yellow 3, yellow 9, kraken", 1),  # not the player left of the Kraken's (0)
    ("kraken, yellow 3, yellow 9", 2),
    ("yellow 9, kraken, yellow 3", 0),
    ("pirate, kraken, skull king", 2),
    ("escape, kraken, escape", 0),
    ("kraken, escape, escape", 1),  # the first Escape left: the Kraken was never played
    ("white whale, kraken", 0),  # nothing left: the trick's own leader
])
def test_after_the_kraken_the_player_who_would_have_won_without_it_leads(written: str, leader: int) -> None:
    """The publisher's FAQ (one print run's player aids said the player left of the Kraken's)."""
    assert (judge("modern", parse_trick("modern", written)).next_leader) == leader
    shown = CliRunner().invoke(main, ["trick", "modern", written, "--json"])
    assert json.loads(shown.output)["next_leader"] == leader


def test_the_json_of_the_rules_file() -> None:
    """The example the rules file gives for `--json`, key for key."""
    result = CliRunner().invoke(main, ["trick", "modern", "yellow 14, pirate, skull king, mermaid", "--json"])
    assert json.loads(result.output) == {
        "outcome": "won", "winner": 3, "next_leader": 3,
        "captures": {"pirates_by_skull_king": 0, "skull_king_by_mermaid": 1, "mermaids_by_pirate": 0,
                     "standard_fourteens": 1, "black_fourteen": 0, "loot_from": []},
        "points": 50}


def test_the_judgement_in_words_and_a_card_the_rules_do_not_have() -> None:
    result = CliRunner().invoke(main, ["trick", "classic", "pirate, skull king, mermaid"])
    assert result.exit_code == 0
    assert result.output.splitlines()[:2] == ["The Mermaid takes the Skull King.", "Winner: mermaid (card 3)."]
    assert "Capture points: 50." in result.output
    following = CliRunner().invoke(main, ["trick", "modern", "escape, yellow 3, green 14, black 2"])
    assert "Suit to follow: yellow." in following.output
    assert "green 14 (card 3) had to follow yellow if its player held it." in following.output
    assert "black 2 (card 4) had to follow yellow if its player held it." in following.output
    for ruleset, written, message in [
        ("classic", "green 3", "“green 3” is not a card of these rules."),
        ("modern", "yellow 15", "“yellow 15” is not a card of these rules."),
        ("doubloons", "loot", "“loot” is not a card of these rules."),
        ("modern", "skull king, skull king", "The pack holds only 1 × skull king."),
        ("modern", "rosie, rosie", "The pack holds only 1 × rosie."),
    ]:
        refused = CliRunner().invoke(main, ["trick", ruleset, written])
        assert refused.exit_code == 2 and message in refused.output, (written, refused.output)
    basic = CliRunner().invoke(main, ["trick", "modern", "kraken, yellow 3", "--no-advanced"])
    assert basic.exit_code == 2


def test_the_installed_command_judges_a_trick() -> None:
    """`scorekeeper trick` as a table would type it, in a process of its own."""
    done = subprocess.run([sys.executable, "-m", "scorekeeper.cli", "trick", "doubloons", "circle 3, flag, star 0"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "Winner: star 0 (card 3)." in done.stdout


# --- properties over random legal tricks -------------------------------------------------


def deck_cards(ruleset: str) -> list[Card]:
    """Every card of a ruleset's pack, Scary Mary / Tigress once each way (a trick holds one of the two)."""
    deck = tricks.DECKS[ruleset]
    cards = [Card(tricks.SUIT, suit, n) for suit in deck.suits for n in range(deck.low, deck.high + 1)]
    either = tricks.EITHER[ruleset]
    for kind, count in deck.specials.items():
        if kind == either:
            continue
        if kind == tricks.PIRATE and ruleset == "modern":
            cards += [Card(tricks.PIRATE, name=name) for name in tricks.MODERN_PIRATES]
        else:
            cards += [Card(kind, name="flag" if ruleset == "doubloons" and kind == tricks.ESCAPE else "")] * count
    return cards


@st.composite
def legal_tricks(draw: st.DrawFn, rulesets: tuple[str, ...] = tuple(tricks.DECKS)) -> tuple[str, list[Card]]:
    """A ruleset and a trick its pack could deal: 2 to 8 distinct cards, Scary Mary / Tigress said one way."""
    ruleset = draw(st.sampled_from(rulesets))
    pack = deck_cards(ruleset)
    size = draw(st.integers(2, 6 if ruleset != "modern" else 8))
    picked = draw(st.lists(st.integers(0, len(pack) - 1), min_size=size, max_size=size, unique=True))
    cards = [pack[i] for i in picked]
    if draw(st.booleans()):
        either = Card(draw(st.sampled_from([tricks.PIRATE, tricks.ESCAPE])), name=tricks.EITHER[ruleset])
        cards[draw(st.integers(0, len(cards) - 1))] = either
    return ruleset, cards


@settings(max_examples=300, deadline=None)
@given(legal_tricks())
def test_exactly_one_winner_unless_destroyed_or_discarded(trick: tuple[str, list[Card]]) -> None:
    ruleset, cards = trick
    judgement = judge(ruleset, cards)
    kinds = {c.kind for c in cards}
    if judgement.outcome == "won":
        assert judgement.winner is not None and 0 <= judgement.winner < len(cards)
        assert judgement.next_leader == judgement.winner
    else:
        assert judgement.winner is None and judgement.points == 0
        assert (tricks.KRAKEN in kinds) if judgement.outcome == "destroyed" else (tricks.WHITE_WHALE in kinds)
    assert judgement.next_leader is not None and 0 <= judgement.next_leader < len(cards)


@settings(max_examples=300, deadline=None)
@given(legal_tricks())
def test_with_no_creature_and_no_mermaid_the_skull_king_always_wins(trick: tuple[str, list[Card]]) -> None:
    ruleset, cards = trick
    kinds = [c.kind for c in cards]
    if tricks.SKULL_KING in kinds and not {tricks.KRAKEN, tricks.WHITE_WHALE, tricks.MERMAID} & set(kinds):
        assert judge(ruleset, cards).winner == kinds.index(tricks.SKULL_KING)


@settings(max_examples=300, deadline=None)
@given(legal_tricks(), st.sampled_from(["escape", "loot"]))
def test_an_escape_played_last_never_changes_the_winner(trick: tuple[str, list[Card]], last: str) -> None:
    ruleset, cards = trick
    escape = Card(tricks.LOOT) if last == "loot" and ruleset == "modern" else Card(tricks.ESCAPE)
    try:
        tricks.check_trick(ruleset, [*cards, escape])
    except tricks.TrickError:
        return  # the pack has no Escape left for it, or the table no seat
    before, after = judge(ruleset, cards), judge(ruleset, [*cards, escape])
    assert (after.outcome, after.winner) == (before.outcome, before.winner)


@settings(max_examples=300, deadline=None)
@given(legal_tricks())
def test_without_a_white_whale_a_suit_neither_led_nor_trump_never_wins(trick: tuple[str, list[Card]]) -> None:
    ruleset, cards = trick
    if any(c.kind == tricks.WHITE_WHALE for c in cards):
        return
    judgement = judge(ruleset, cards)
    if judgement.winner is not None and cards[judgement.winner].kind == tricks.SUIT:
        assert cards[judgement.winner].suit in (tricks.suit_led(cards), tricks.DECKS[ruleset].trump)


@settings(max_examples=300, deadline=None)
@given(legal_tricks())
def test_the_captures_count_only_cards_the_winner_took(trick: tuple[str, list[Card]]) -> None:
    ruleset, cards = trick
    judgement = judge(ruleset, cards)
    captures = judgement.captures
    if judgement.outcome != "won":
        assert captures == tricks.Captures()
        return
    won_by = cards[judgement.winner]
    pirates = sum(c.kind == tricks.PIRATE or (ruleset != "modern" and c.name == "scary mary") for c in cards)
    assert captures.pirates_by_skull_king <= (pirates if won_by.kind == tricks.SKULL_KING else 0)
    assert captures.skull_king_by_mermaid <= (won_by.kind == tricks.MERMAID
                                             and any(c.kind == tricks.SKULL_KING for c in cards))
    assert captures.mermaids_by_pirate <= (sum(c.kind == tricks.MERMAID for c in cards)
                                           if won_by.kind == tricks.PIRATE else 0)
    fourteens = [c for c in cards if c.kind == tricks.SUIT and c.number == 14]
    assert captures.standard_fourteens + captures.black_fourteen == (len(fourteens) if ruleset == "modern" else 0)
    assert all(cards[i].kind == tricks.LOOT and i != judgement.winner for i in captures.loot_from)
    values = {"classic": (30, 50, 0, 0, 0), "doubloons": (30, 50, 0, 0, 0), "modern": (30, 40, 20, 10, 20)}[ruleset]
    counts = (captures.pirates_by_skull_king, captures.skull_king_by_mermaid, captures.mermaids_by_pirate,
              captures.standard_fourteens, captures.black_fourteen)
    assert judgement.points == sum(v * c for v, c in zip(values, counts))
