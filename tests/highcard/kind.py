"""High card, a kind of game that lives in the tests: each round every player draws a card and enters its value
(1 to 13) on their own phone, in secret; once all are in, the table counts YO-HO-HO and shows them together; the
highest card takes the round, the first to win `target` rounds wins.

It is registered with one line (`create_app(..., games=[*INSTALLED, HIGH_CARD])`) and gets the table's seats,
joining, the lost phone's way back, the big screen, the live stream, the secret entries and their count, the pad
file and crews with no change outside the tests.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask

from scorekeeper.access import Actor
from scorekeeper.kinds import Change, Codec, Columns, Decided, Denied, NewMatch, OnPlays, Refused, SeatEntry, Secrets
from scorekeeper.padfile import PadError
from scorekeeper.problems import Problem
from scorekeeper.standings import leaderboard

NAME = "high-card"
FORMAT = "high-card-pad"
PLAY_WORD = "round"
TITLE = "High card"
TEMPLATE = "highcard/round.html"
NEW_TEMPLATE = "highcard/new.html"
RULES_TEMPLATE = "highcard/rules.html"
# Each player's card of a round is secret until all are in and the count has run.
SECRETS: tuple[str, ...] = ("card",)
ASSETS: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Setup:
    """The players in seat order, and the rounds a player must win."""

    players: tuple[str, ...]
    target: int = 3


@dataclass(frozen=True)
class Round:
    """A round drawn: each seat's card."""

    cards: Mapping[int, int]


# A round closes once its cards are shown: no draft stays open between taps.
PLAY = Codec(Round)
DRAFT = PLAY


def wins(setup: Setup, plays: Sequence[Round]) -> list[int]:
    """Rounds won by each player: the highest card of a round takes it (a tie takes it for each of them)."""
    won = [0] * len(setup.players)
    for play in plays:
        best = max(play.cards.values())
        for seat, value in play.cards.items():
            won[seat] += value == best
    return won


def rules_context(setup: Setup) -> dict[str, Any]:
    """Its rules page: the rounds a player must win."""
    return {"target": setup.target}


def setup_from_form(form: Any) -> NewMatch:
    names = [n.strip() for n in form.getlist("player") if n.strip()]
    found = NewMatch(names=names)
    if not 2 <= len(names) <= 6:
        found.problems.append(Problem("High card is for 2 to 6 players."))
    else:
        found.setup = Setup(tuple(names))
    return found


def form_fields(setup: Setup) -> list[tuple[str, str]]:
    return [("player", name) for name in setup.players]


def stored(setup: Setup) -> tuple[list[str], Columns]:
    return list(setup.players), Columns(ruleset=NAME, first_dealer=0, options={"target": setup.target})


def from_stored(players: list[str], columns: Columns) -> Setup:
    return Setup(tuple(players), int(str(columns["options"].get("target", 3))))


def label(ruleset: str, options: Mapping[str, Any]) -> str:
    return TITLE


def read_pad(doc: dict[str, Any], check: bool = False) -> tuple[Setup, list[Round]]:
    if not isinstance(doc.get("players"), list) or not isinstance(doc.get("rounds"), list):
        raise PadError([Problem("A high card pad has players and rounds.")])
    return Setup(tuple(doc["players"])), [PLAY.load({"cards": r}) for r in doc["rounds"]]


def write_pad(setup: Setup, plays: Sequence[Round]) -> dict[str, Any]:
    return {"format": FORMAT, "players": list(setup.players),
            "rounds": [{str(seat): card for seat, card in p.cards.items()} for p in plays], "wins": wins(setup, plays)}


def finished(setup: Setup, plays: Sequence[Round]) -> bool:
    return max(wins(setup, plays), default=0) >= setup.target


def parse_change(form: Any) -> dict[str, Any] | None:
    if form.get("next") == "1":
        return {"next": True}
    raw, seat = str(form.get("card", "")), str(form.get("seat", ""))
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 2):
        return None
    return {"card": int(raw), "seat": int(seat) if seat.isascii() and seat.isdigit() else None}


def apply(setup: Setup, plays: Sequence[Round], draft: Round | None, actor: Actor,
          change: Mapping[str, Any], secrets: Secrets) -> Decided[Round, Round]:
    if actor.seat is None and not actor.is_host:
        return Denied()
    if change.get("next"):
        cards = secrets.of("card")
        if not secrets.shown or len(cards) < len(setup.players):
            return Refused((Problem("The cards are shown once everyone has drawn."),))
        return Change(closed=Round(dict(sorted(cards.items()))))
    seat = actor.seat if actor.seat is not None else change.get("seat")
    if seat is None or not 0 <= seat < len(setup.players):
        return Denied()
    if secrets.shown:
        return Refused((Problem("The cards of this round are shown already."),))
    if not 1 <= change["card"] <= 13:
        return Refused((Problem("A card is 1 to 13.", players=(setup.players[seat],)),))
    return Change(secret=SeatEntry(seat, "card", change["card"]))


def context(setup: Setup, plays: Sequence[Round], draft: Round | None,
            actor: Actor, secrets: Secrets) -> dict[str, Any]:
    won = wins(setup, plays)
    over = finished(setup, plays)
    cards = secrets.of("card")
    return {"setup": setup, "standings": leaderboard(list(setup.players), won, [None] * len(won)),
            "rounds": [[p.cards.get(s) for s in range(len(setup.players))] for p in plays],
            "champion": setup.players[won.index(max(won))] if over else None,
            "entered": [s in cards for s in range(len(setup.players))],
            # What the table lets this screen see: the kind decides nothing of secrecy (`games.as_seen_by` does).
            "shown": [cards.get(s) for s in range(len(setup.players))],
            "counting": secrets.reveal_at is not None, "revealed": secrets.shown,
            "mine": cards.get(actor.seat) if actor.seat is not None else None}


def card_state(setup: Setup, plays: Sequence[Round], draft: Round | None,
               actor: Actor, secrets: Secrets) -> object:
    return (len(plays), secrets.of("card").get(actor.seat) if actor.seat is not None else None, secrets.shown)


def summary(setup: Setup, plays: Sequence[Round]) -> dict[str, Any]:
    won = wins(setup, plays)
    return {"kind": NAME, "players": list(setup.players), "totals": won,
            "winners": [p for p, w in zip(setup.players, won) if w == max(won)],
            "per_hand": [[p.cards[s] for s in range(len(setup.players))] for p in plays]}


def bg_stats_game(setup: Setup) -> tuple[str, int | None]:
    return TITLE, None


class HighCardKind(OnPlays):
    """The kind, with its templates on a Blueprint of its own (they live beside this module)."""

    def init_app(self, app: Flask) -> None:
        app.register_blueprint(Blueprint("high_card", __name__,
                                         template_folder=str(Path(__file__).parent / "templates")))


HIGH_CARD = HighCardKind(sys.modules[__name__])  # type: ignore[arg-type]


def example_pad() -> str:
    """A finished pad file of high card: Anne wins three rounds to one."""
    rounds = [{"0": 13, "1": 2}, {"0": 4, "1": 9}, {"0": 12, "1": 11}, {"0": 10, "1": 3}]
    return json.dumps({"format": FORMAT, "players": ["Anne", "Ben"], "rounds": rounds})
