"""Words for the pages: names of rulesets, rounds and captures, scores and lists in the reader's language."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from babel.lists import format_list
from flask import Flask
from flask_babel import get_locale, gettext

from .. import shelf
from ..models import Phase
from ..shelf.skullking import rules, tricks
from ..shelf.skullking.forms import CAPTURE_TOGGLES, MAX_SEATS
from ..shelf.skullking.kind import ruleset_name
from ..shelf.skullking.rules import Problem


def join_names(names: Sequence[str]) -> str:
    """Names joined as a sentence in the reader's language."""
    if not names:
        return ""
    return format_list(list(names), locale=str(get_locale() or "en"))


def say(problem: Problem) -> str:
    """A problem as a sentence in the reader's language."""
    return problem.message(translate=gettext, join=join_names)


def problems_by_player(problems: list[Problem], seated: int) -> dict[str, list[str]]:
    """Each player's problems, so a screen can show them next to that player.

    A problem that concerns the whole table is only shown once, above everyone.
    """
    found: dict[str, list[str]] = {}
    for problem in problems:
        if len(problem.players) >= seated:
            continue
        for player in problem.players:
            found.setdefault(player, []).append(say(problem))
    return found


def format_score(points: int | None) -> str:
    """A score with a true minus sign, which reads better than a hyphen."""
    if points is None:
        return ""
    return f"−{-points}" if points < 0 else str(points)


def bids_text(entries: Sequence[rules.Entry]) -> str:
    """The bids of a hand in one line, to be read out: "Anne 2, Ben 0 and Cara 1"."""
    return join_names([f"{e.player} {e.bid}" for e in entries])


def standings_text(standings: Sequence[Any]) -> str:
    """The leaderboard in one line, to be read out."""
    return join_names([f"{s.name} {format_score(s.total)}" for s in standings])


def capture_label(kind: str) -> str:
    """The name of a capture, as the rulebook of the reader's language says it."""
    labels = {
        rules.PIRATES_BY_SKULL_KING: gettext("Pirates taken by the Skull King"),
        rules.SKULL_KING_BY_MERMAID: gettext("Mermaid took the Skull King"),
        rules.MERMAIDS_BY_PIRATE: gettext("Mermaids taken by a Pirate"),
        rules.STANDARD_FOURTEENS: gettext("Yellow, purple or green 14s"),
        rules.BLACK_FOURTEEN: gettext("Black 14"),
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
    if card.kind == tricks.SUIT:
        return gettext("%(suit)s %(number)d", suit=suit_label(card.suit or ""), number=card.number or 0)
    names = {
        tricks.ESCAPE: gettext("Escape"), tricks.PIRATE: gettext("Pirate"), tricks.MERMAID: gettext("Mermaid"),
        tricks.SKULL_KING: gettext("Skull King"), tricks.LOOT: gettext("Loot"), tricks.KRAKEN: gettext("Kraken"),
        tricks.WHITE_WHALE: gettext("White Whale"), "flag": gettext("Flag"), "scary mary": gettext("Scary Mary"),
        "tigress": gettext("Tigress"),
    }
    if card.name in tricks.EITHER_WAY:
        played = gettext("%(card)s as Pirate") if card.kind == tricks.PIRATE else gettext("%(card)s as Escape")
        return played % {"card": names[card.name]}
    # A modern pirate's own name matters for its ability, not for who wins: the judge says "Pirate".
    return names.get(card.name, names[card.kind])


def game_label(game: Any) -> str:
    """A game's name in a list, as its kind gives it (a Skull King game's ruleset, a free pad's game as typed)."""
    return shelf.kind_of(game).label(game)


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


# Each language in its own words, so everyone finds theirs.
LANGUAGE_NAMES = (("en", "English"), ("de", "Deutsch"), ("fr", "Français"), ("it", "Italiano"))


def init_app(app: Flask) -> None:
    """Give every template these words, and the rules' constants so no template retypes them."""
    app.jinja_env.filters["score"] = format_score
    app.jinja_env.globals.update(
        capture_label=capture_label,
        shot_label=shot_label,
        card_label=card_label,
        suit_label=suit_label,
        ruleset_name=ruleset_name,
        ruleset_blurb=ruleset_blurb,
        round_name=round_name,
        bids_text=bids_text,
        standings_text=standings_text,
        current_locale=lambda: str(get_locale() or "en"),
        now_ms=lambda: int(time.time() * 1000),
        language_names=LANGUAGE_NAMES,
        join_names=join_names,
        game_label=game_label,
        # The games the start page offers besides the first, whose new game is its big button.
        more_kinds=lambda: list(shelf.kinds().values())[1:],
        Phase=Phase,
        RULESETS=rules.RULESETS,
        MAX_SEATS=MAX_SEATS,
        MAX_NAME=rules.MAX_NAME,
        CAPTURE_TOGGLES=CAPTURE_TOGGLES,
        WAGERS=rules.WAGERS,
        SHOTS=rules.SHOTS,
    )
