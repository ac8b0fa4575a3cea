"""Skull King's rules page: the cards of the game's ruleset and options, what beats what (example tricks judged by
the trick judge itself), and the points and bonuses, every number read from the scoring rules (`rules.py`) and the
pack (`tricks.py`), so none is written twice."""

from __future__ import annotations

from dataclasses import dataclass

from ...kinds import Context
from . import rules, tricks
from .words import capture_label, card_label, reason_in_words, ruleset_name, special_names, suit_label

# What beats what, in examples: each trick (as the judge writes one) judged by the judge, strongest rule first.
EXAMPLES = {
    "classic": ("mermaid, pirate, skull king", "pirate, skull king", "mermaid, pirate", "escape, mermaid",
                "red 13, black 2", "yellow 3, yellow 9, blue 13", "escape, escape"),
    "doubloons": ("mermaid, pirate, skull king", "pirate, skull king", "mermaid, pirate", "flag, mermaid",
                  "circle 9, star 0", "triangle 3, triangle 7, square 9", "flag, flag"),
    "modern": ("mermaid, pirate, skull king", "pirate, skull king", "mermaid, pirate", "escape, mermaid",
               "purple 14, black 2", "yellow 3, yellow 9, green 14", "escape, escape"),
}
ADVANCED_EXAMPLES = ("skull king, kraken", "skull king, white whale, yellow 9, green 3")
EXPANSION_EXAMPLES = ("pirate, con", "con, mermaid", "skull king, stingray, yellow 9, green 3")


@dataclass(frozen=True)
class Example:
    """A trick and the judge's verdict on it."""

    cards: str
    verdict: str


def _judged(ruleset: str, written: str, expansion: bool = False) -> Example:
    """A trick as the judge writes it, in the reader's words, with the judge's verdict."""
    cards = tricks.parse_trick(ruleset, written, expansion=expansion)
    judgement = tricks.judge(ruleset, cards, expansion=expansion)
    return Example(", ".join(card_label(card) for card in cards), reason_in_words(judgement.reason))


def sheet(table: rules.Setup) -> Context:
    """What the rules page shows of a game under `table`'s rules and options."""
    modern = table.ruleset == "modern"
    options = table.options
    deck = tricks.DECKS[table.ruleset]
    advanced = modern and options.advanced_cards
    written = EXAMPLES[table.ruleset] + (ADVANCED_EXAMPLES if advanced else ())
    examples = [_judged(table.ruleset, trick) for trick in written]
    if table.expansion:
        examples += [_judged(table.ruleset, trick, expansion=True) for trick in EXPANSION_EXAMPLES]
    names = special_names()
    counts = {kind: count for kind, count in deck.specials.items() if advanced or kind not in tricks.ADVANCED}
    if table.expansion:
        counts[tricks.PIRATE] += len(tricks.EXPANSION_PIRATES)
        counts.update(tricks.EXPANSION_SPECIALS)
    # The tactile edition's Escapes are its flags.
    escape = "flag" if table.ruleset == "doubloons" else tricks.ESCAPE
    specials_shown = [(names[escape if kind == tricks.ESCAPE else kind], count) for kind, count in counts.items()]
    rascal = modern and options.scoring == "rascal"
    return {
        "ruleset_label": ruleset_name(table.ruleset),
        "suits": [suit_label(suit) for suit in deck.suits],
        "trump": suit_label(deck.trump),
        "low": deck.low, "high": deck.high,
        "specials": specials_shown,
        "deck_size": rules.deck_size(table),
        "hands": rules.cards_per_hand(table),
        "examples": examples,
        "rascal": rascal, "cannonball": rascal and options.cannonball, "wagers": modern and options.rascal_wagers,
        "advanced": advanced, "expansion": table.expansion,
        "points": {
            "bid_made_per_trick": rules.BID_MADE_PER_TRICK, "missed_per_trick": rules.MISSED_PER_TRICK,
            "zero_bid_per_card": rules.ZERO_BID_PER_CARD, "rascal_stake_per_card": rules.RASCAL_STAKE_PER_CARD,
            "cannonball_per_card": rules.CANNONBALL_PER_CARD, "loot": rules.LOOT_BONUS,
        },
        "wager_values": rules.WAGERS,
        "bonuses": [(capture_label(kind), value) for kind, value in table.spec.bonus_values.items()],
    }
