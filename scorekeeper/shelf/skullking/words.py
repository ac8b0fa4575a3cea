"""Skull King's words for its pages: rulesets, round structures, captures, cards and bids in the reader's language."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from flask import Flask

from ...i18n import gettext
from ...problems import Problem
from ...views.labels import join_names, say
from . import rules, tricks
from .forms import CAPTURE_TOGGLES, MAX_SEATS, RARE_CAPTURES
from .storage import Phase


def ruleset_name(ruleset: str) -> str:
    """A ruleset's name for people."""
    return str({
        "classic": gettext("Classic (2007)"),
        "doubloons": gettext("Doubloons (tactile edition)"),
        "modern": gettext("Skull King 2021"),
    }[ruleset])


def ruleset_blurb(ruleset: str) -> str:
    """One line on what a ruleset is."""
    return {
        "classic": gettext("The original rules: 2–6 players, Scary Mary, Skull King +30 per pirate, Mermaid +50."),
        "doubloons": gettext("The coin edition for blind and low-vision players: classic scoring, 2–6 players."),
        "modern": gettext("The current edition: 2–8 players, Tigress, 14s, Rascal's scoring, advanced cards."),
    }[ruleset]


def round_name(name: str) -> str:
    """A round structure's name for people."""
    return {
        "standard": gettext("Standard"),
        "even-keeled": gettext("Even-keeled"),
        "skip-to-the-brawl": gettext("Skip to the brawl"),
        "swift-n-salty": gettext("Swift 'n' salty"),
        "broadside-barrage": gettext("Broadside barrage"),
        "whirlpool": gettext("Whirlpool"),
        "past-your-bedtime": gettext("Past your bedtime"),
    }[name]


def bids_text(entries: Sequence[rules.Entry]) -> str:
    """The bids of a hand in one line, to be read out: "Anne 2, Ben 0 and Cara 1"."""
    return join_names([f"{e.player} {e.bid}" for e in entries])


def lost_trick_causes(table: rules.Setup) -> str:
    """What can leave a trick won by nobody in this game, as a list to read beside "Tricks nobody won"."""
    causes = []
    if table.ruleset == "modern" and table.options.advanced_cards:
        causes += [gettext("Kraken"), gettext("White Whale")]
    if table.expansion:
        causes += [gettext("Spotted Stingray"), gettext("a trick no card could win")]
    if len(table.players) == 2:
        causes.append(gettext("the two-player ghost"))
    return ", ".join(causes)


def capture_label(kind: str) -> str:
    """The name of a capture, as the rulebook of the reader's language says it."""
    labels = {
        rules.PIRATES_BY_SKULL_KING: gettext("Pirates taken by the Skull King"),
        rules.SKULL_KING_BY_MERMAID: gettext("Mermaid took the Skull King"),
        rules.MERMAIDS_BY_PIRATE: gettext("Mermaids taken by a Pirate"),
        rules.STANDARD_FOURTEENS: gettext("Yellow, purple or green 14s"),
        rules.BLACK_FOURTEEN: gettext("Black 14"),
        rules.EXPANSION_EIGHTS: gettext("Compass 8s"),
        rules.EXPANSION_SEVENS: gettext("Compass 7s"),
        rules.FIRST_MATE_TAKEN: gettext("First Mate Con taken by your Skull King or Mermaid"),
        rules.DAVY_JONES_MONSTERS: gettext("Sea monsters your Davy Jones destroyed"),
    }
    return labels[kind]


def shot_label(shot: str) -> str:
    """A cannon's load for people."""
    return {"grapeshot": gettext("Grapeshot"), "cannonball": gettext("Cannonball")}[shot]


def suit_label(suit: str) -> str:
    """A suit of the trick judge's keypad, as the rulebook of the reader's language says it."""
    return {
        "yellow": gettext("Yellow"), "blue": gettext("Blue"), "red": gettext("Red"), "black": gettext("Black"),
        "green": gettext("Green"), "purple": gettext("Purple"),
        "circle": gettext("Circle"), "triangle": gettext("Triangle"), "square": gettext("Square"),
        "star": gettext("Star"),
    }[suit]


def card_label(card: tricks.Card) -> str:
    """One card of a trick in words: "Yellow 14", "Skull King", "Tigress as Escape"."""
    if card.kind == tricks.SUIT and card.mark == tricks.WILD:
        return gettext("Wild 15 as %(suit)s", suit=suit_label(card.suit)) if card.suit else gettext("Wild 15")
    if card.kind == tricks.SUIT and card.mark == tricks.ZERO_OR_FOURTEEN:
        return gettext("%(suit)s 0/14 as %(number)d", suit=suit_label(card.suit or ""), number=card.number or 0)
    if card.kind == tricks.SUIT and card.mark == tricks.COMPASS:
        return gettext("%(suit)s %(number)d with compass", suit=suit_label(card.suit or ""), number=card.number or 0)
    if card.kind == tricks.SUIT:
        return gettext("%(suit)s %(number)d", suit=suit_label(card.suit or ""), number=card.number or 0)
    names = special_names()
    if card.kind == tricks.VOLLEY and card.second is not None:
        return gettext("Last Volley, then %(card)s", card=card_label(card.second))
    if card.name in tricks.EITHER_WAY:
        played = gettext("%(card)s as Pirate") if card.kind == tricks.PIRATE else gettext("%(card)s as Escape")
        return played % {"card": names[card.name]}
    # A modern pirate's own name matters for its ability, not for who wins: the judge says "Pirate".
    return names.get(card.name, names[card.kind])


def reason_in_words(reason: Problem) -> str:
    """Why a card wins, in the reader's language, the suit it names too."""
    if "suit" in reason.params:
        reason = replace(reason, params={**reason.params, "suit": suit_label(str(reason.params["suit"]))})
    return say(reason)


def special_names() -> dict[str, str]:
    """The special cards' names by how the judge writes them, as the rulebook of the reader's language says them."""
    return {
        tricks.ESCAPE: gettext("Escape"), tricks.PIRATE: gettext("Pirate"), tricks.MERMAID: gettext("Mermaid"),
        tricks.SKULL_KING: gettext("Skull King"), tricks.LOOT: gettext("Loot"), tricks.KRAKEN: gettext("Kraken"),
        tricks.WHITE_WHALE: gettext("White Whale"), "flag": gettext("Flag"), "scary mary": gettext("Scary Mary"),
        "tigress": gettext("Tigress"), tricks.FIRST_MATE: gettext("First Mate Con"),
        tricks.PLANK: gettext("Walk the Plank"), tricks.STINGRAY: gettext("Spotted Stingray"),
        tricks.VOLLEY: gettext("Last Volley"), tricks.DAVY_JONES: gettext("Davy Jones' Locker"),
        # Mary Thorne by her name: Walk the Plank may have to tell her from another Pirate.
        "mary": gettext("Mary Thorne"),
    }


def init_app(app: Flask) -> None:
    """Give Skull King's templates these words, and its rules' constants and hand phases so no template retypes them."""
    app.jinja_env.globals.update(
        capture_label=capture_label,
        shot_label=shot_label,
        card_label=card_label,
        suit_label=suit_label,
        ruleset_name=ruleset_name,
        ruleset_blurb=ruleset_blurb,
        round_name=round_name,
        bids_text=bids_text,
        lost_trick_causes=lost_trick_causes,
        Phase=Phase,
        RULESETS=rules.RULESETS,
        MAX_SEATS=MAX_SEATS,
        CAPTURE_TOGGLES=CAPTURE_TOGGLES,
        RARE_CAPTURES=RARE_CAPTURES,
        WAGERS=rules.WAGERS,
        SHOTS=rules.SHOTS,
    )
