"""The `wizard-pad` file: read strictly (every problem at once, with its round and player), written with points."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...padfile import JSON, JSONObject, Reader, inert_cell, is_whole, read_strictly, shown
from ...problems import N_, Problem, name_problems
from .rules import (
    BIDDINGS,
    IN_TURN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SECRET,
    Round,
    Setup,
    dealer,
    round_points,
    round_problems,
    totals,
)

FORMAT = "wizard-pad"
VERSION = 1
TOP_KEYS = ("format", "version", "players", "first_dealer", "options", "rounds", "totals")
OPTION_KEYS = ("bidding", "no_even_bids")
ROUND_KEYS = ("cards", "entries")
ENTRY_KEYS = ("player", "bid", "tricks", "points")


@dataclass
class Game:
    """A read pad: the setup and its rounds in order (the last may be unfinished), with what it claimed."""

    setup: Setup
    rounds: list[Round]
    claimed: list[Problem] = field(default_factory=list)


class _Reader(Reader):
    unit = "round"

    def read(self, doc: JSONObject, check: bool) -> Game | None:
        self.unknown_keys(doc, TOP_KEYS)
        self.version_is(doc, VERSION)
        setup = self.read_setup(doc)
        if setup is None:
            return None
        raw_rounds = doc.get("rounds", [])
        if not isinstance(raw_rounds, list):
            self.add(N_("“rounds” must be a list of rounds, not %(value)s."), value=shown(raw_rounds))
            return None
        if len(raw_rounds) > setup.rounds:
            self.add(N_("%(count)d rounds: with %(seated)d players the game has %(most)d."),
                     count=len(raw_rounds), seated=len(setup.players), most=setup.rounds)
            return None
        game = Game(setup, [])
        for number, raw in enumerate(raw_rounds, start=1):
            played = self.read_round(setup, number, raw, last=number == len(raw_rounds))
            if played is None:
                continue
            game.rounds.append(played)
            if check and played.finished:
                self.compare_points(game, number, raw, round_points(played))
        if check and "totals" in doc and not self.problems:
            self.compare_totals(game, doc["totals"])
        return game

    def read_setup(self, doc: Mapping[str, Any]) -> Setup | None:
        players = doc.get("players")
        if (not isinstance(players, list) or not all(isinstance(n, str) and n.strip() for n in players)
                or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS or len(set(players)) != len(players)):
            self.add(N_("“players” must name 3 to 6 different players in seat order, not %(value)s."),
                     value=shown(players))
            return None
        if name_problems(players):
            self.extend(name_problems(players))
            return None
        first = doc.get("first_dealer", players[0])
        if first not in players:
            self.add(N_("“first_dealer” must be one of the players, not %(value)s."), value=shown(first))
            return None
        options = doc.get("options", {})
        if not isinstance(options, dict):
            self.add(N_("“options” must be an object, not %(value)s."), value=shown(options))
            return None
        self.unknown_keys(options, OPTION_KEYS)
        bidding = options.get("bidding", IN_TURN)
        no_even = options.get("no_even_bids", False)
        if bidding not in BIDDINGS:
            self.add(N_("“bidding” must be “in-turn” or “secret”, not %(value)s."), value=shown(bidding))
            return None
        if not isinstance(no_even, bool):
            self.add(N_("“no_even_bids” must be true or false, not %(value)s."), value=shown(no_even))
            return None
        if bidding == SECRET and no_even:
            self.add(N_("“no_even_bids” must be false with secret bids: with secret bids nobody bids last."))
            return None
        return Setup(tuple(players), players.index(first), bidding, no_even)

    def read_round(self, setup: Setup, number: int, raw: object, last: bool) -> Round | None:
        if not isinstance(raw, dict) or not isinstance(raw.get("entries"), list):
            self.add(N_("a round must be an object with its “cards” and a list of “entries”, not %(value)s."),
                     number, value=shown(raw))
            return None
        self.unknown_keys(raw, ROUND_KEYS, number)
        cards = self.whole(raw, "cards", number)
        if cards is not None and cards != number:
            self.add(N_("“cards” must be %(round)d, the round's number (round n deals n cards to each player), "
                        "not %(value)s."), number, round=number, value=shown(cards))
        bids: dict[str, int] = {}
        tricks: dict[str, int] = {}
        seen: set[str] = set()
        scored_early: list[str] = []
        readable = True
        for entry in raw["entries"]:
            name = entry.get("player") if isinstance(entry, dict) else None
            if not isinstance(name, str) or name not in setup.players:
                self.add(N_("an entry must name one of the players, not %(value)s."), number, value=shown(entry))
                readable = False
                continue
            if name in seen:
                self.add(N_("%(names)s: the round has this player's entry twice."), number, (name,))
                readable = False
                continue
            seen.add(name)
            self.unknown_keys(entry, ENTRY_KEYS, number, (name,))
            bid = self.whole(entry, "bid", number, (name,))
            readable = readable and bid is not None
            if bid is not None:
                bids[name] = bid
            if "tricks" in entry:
                taken = self.whole(entry, "tricks", number, (name,))
                readable = readable and taken is not None
                if taken is not None:
                    tricks[name] = taken
            if "points" in entry and "tricks" not in entry:
                scored_early.append(name)
        missing = [name for name in setup.players if name not in seen]
        if missing:
            self.add(N_("%(names)s: no entry: every player bids in every round."), number, tuple(missing))
            return None
        if tricks and len(tricks) < len(setup.players):
            self.add(N_("%(names)s: no tricks, while the others have theirs: a round is finished for all or for "
                        "none."), number, tuple(n for n in setup.players if n not in tricks))
            return None
        if not tricks and not last:
            self.add(N_("no tricks: only the last round may be unfinished."), number)
            return None
        if scored_early:
            self.add(N_("%(names)s: points without tricks: a round is scored once its tricks are in."),
                     number, tuple(scored_early))
            return None
        if not readable or cards != number:
            return None
        played = Round(number, tuple(bids[n] for n in setup.players),
                       tuple(tricks[n] for n in setup.players) if tricks else None)
        problems = round_problems(setup, played)
        self.extend(problems)
        return None if problems else played

    def compare_points(self, game: Game, number: int, raw: JSON, given: Sequence[int]) -> None:
        # A round read whole already: its entries, each a player's, are as the reader found them.
        entries = raw.get("entries") if isinstance(raw, dict) else None
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, dict) or "points" not in entry:
                continue
            name = entry.get("player")
            if not isinstance(name, str) or name not in game.setup.players:
                continue
            points = given[game.setup.players.index(name)]
            if entry["points"] != points:
                game.claimed.append(Problem(N_("%(names)s: the pad says %(claimed)s points, the rules give "
                                               "%(given)d."), {"claimed": shown(entry["points"]), "given": points},
                                            number, (name,), "round"))

    def compare_totals(self, game: Game, claimed: object) -> None:
        names = game.setup.players
        if not isinstance(claimed, dict) or set(claimed) != set(names):
            self.add(N_("“totals” must give every player a number, not %(value)s."), value=shown(claimed))
            return
        for name, total in zip(names, totals(game.setup, game.rounds)):
            if claimed[name] != total or not is_whole(claimed[name]):
                game.claimed.append(Problem(N_("totals: %(names)s: the pad says %(claimed)s, the rules give "
                                               "%(given)d."), {"claimed": shown(claimed[name]), "given": total},
                                            None, (name,), "round"))


def read(doc: JSONObject, check: bool = False) -> Game:
    """Read a `wizard-pad` document (its format already known); PadError with every problem."""
    reader = _Reader()
    game = reader.read(doc, check)
    return read_strictly(reader, game, game.claimed if game is not None else ())


def write(setup: Setup, rounds: Sequence[Round]) -> JSONObject:
    """The pad document of a game: each round's entries in seat order, with points once its tricks are in."""
    names = setup.players
    written: list[JSON] = []
    for played in rounds:
        entries: list[JSON]
        if played.tricks is None:
            entries = [{"player": name, "bid": bid} for name, bid in zip(names, played.bids)]
        else:
            entries = [{"player": name, "bid": bid, "tricks": taken, "points": points}
                       for name, bid, taken, points in zip(names, played.bids, played.tricks, round_points(played))]
        written.append({"cards": played.cards, "entries": entries})
    return {"format": FORMAT, "version": VERSION, "players": list(names), "first_dealer": names[setup.first_dealer],
            "options": {"bidding": setup.bidding, "no_even_bids": setup.no_even_bids}, "rounds": written,
            "totals": dict(zip(names, totals(setup, rounds)))}


def write_csv(setup: Setup, rounds: Sequence[Round]) -> str:
    """The pad as CSV: a row per round and player with the dealer, bid, tricks, points and running total."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["round", "cards", "dealer", "player", "bid", "tricks", "points", "total"])
    running = [0] * len(setup.players)
    for played in rounds:
        if played.tricks is None:
            continue
        dealt_by = inert_cell(setup.players[dealer(setup, played.cards)])
        for seat, points in enumerate(round_points(played)):
            running[seat] += points
            writer.writerow([played.cards, played.cards, dealt_by, inert_cell(setup.players[seat]), played.bids[seat],
                             played.tricks[seat], points, running[seat]])
    return out.getvalue()
