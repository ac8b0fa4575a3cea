"""The pad file (`skull-king-pad`, version 1): strict reading, checking and writing.

Pure Python like the rules: a JSON document in, rules values and problems out.
Reading refuses anything it does not understand and reports every problem at once.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...padfile import JSON, JSONObject, PadError, Reader, inert_cell, is_names, is_whole, json_kind, shown
from . import rules
from .rules import N_, Entry, Hand, Options, Problem, Setup

FORMAT = "skull-king-pad"
VERSION = 1

TOP_KEYS = ("format", "version", "ruleset", "options", "players", "first_dealer", "hands", "totals")
OPTION_KEYS = ("scoring", "cannonball", "rounds", "advanced_cards", "rascal_wagers", "expansion")
HAND_KEYS = ("cards", "lost_tricks", "entries")
ENTRY_KEYS = ("player", "bid", "tricks", "bonuses", "loot_with", "wager", "shot",
              "bid_changed_from", "points")
# What a player can already have before the hand is played out.
UNFINISHED_ENTRY_KEYS = ("player", "bid", "shot")


@dataclass
class Pad:
    """A read pad: the table, its hands, and the points and totals it claimed."""

    table: Setup
    hands: list[Hand]
    # Points claimed per player, by hand number: hands refused on reading are absent.
    claimed_points: dict[int, dict[str, int]] = field(default_factory=dict)
    claimed_totals: dict[str, int] | None = None


class _PadReader(Reader):
    """Reads a Skull King pad file."""

    def read(self, doc: object) -> Pad | None:
        if not isinstance(doc, dict):
            self.add(N_("A pad file is a JSON object, not %(value)s."), value=json_kind(doc))
            return None
        self.unknown_keys(doc, TOP_KEYS)
        if doc.get("format") != FORMAT:
            self.add(N_("“format” must be “%(format)s”, not %(value)s."),
                     format=FORMAT, value=shown(doc.get("format")))
        self.version_is(doc, VERSION)
        ruleset = doc.get("ruleset")
        if ruleset not in rules.RULESETS:
            self.add(N_("“ruleset” must be classic, doubloons or modern, not %(value)s."),
                     value=shown(ruleset))
        options = self.read_options(doc.get("options", {}))
        players = self.read_players(doc.get("players"))
        if ruleset not in rules.RULESETS or options is None or players is None:
            return None
        first_dealer = self.read_first_dealer(doc, players)
        if first_dealer is None:
            return None
        table = Setup(ruleset, tuple(players), options, first_dealer)
        table_problems = rules.validate_table(table)
        self.extend(table_problems)
        if table_problems:
            return None
        pad = Pad(table, [])
        raw_hands = doc.get("hands")
        if not isinstance(raw_hands, list):
            self.add(N_("“hands” must be a list of hands, not %(value)s."), value=shown(raw_hands))
            return None
        planned = rules.cards_per_hand(table)
        if len(raw_hands) > len(planned):
            self.add(N_("the pad has %(count)d hands, but this game has only %(planned)d."),
                     count=len(raw_hands), planned=len(planned))
            # Reading thousands of hands only to refuse them would let one pad hold the server up.
            return None
        for number, raw in enumerate(raw_hands, start=1):
            last = number == len(raw_hands)
            hand, claimed = self.read_hand(table, number, raw, last)
            if hand is not None:
                pad.hands.append(hand)
                pad.claimed_points[number] = claimed
        if "totals" in doc:
            pad.claimed_totals = self.read_totals(table, doc["totals"])
        return pad

    def read_options(self, raw: object) -> Options | None:
        if not isinstance(raw, dict):
            self.add(N_("“options” must be an object, not %(value)s."), value=shown(raw))
            return None
        for key in raw:
            if key not in OPTION_KEYS:
                self.add(N_("options: unknown key “%(key)s”."), key=key)
        ok = True
        # The options' own values, checked one by one above each: what `Options` is made of.
        values: dict[str, Any] = {}
        if "scoring" in raw:
            if raw["scoring"] not in rules.SCORINGS:
                self.add(N_("options: “scoring” must be standard or rascal, not %(value)s."),
                         value=shown(raw["scoring"]))
                ok = False
            values["scoring"] = raw["scoring"]
        for key in ("cannonball", "advanced_cards", "rascal_wagers", "expansion"):
            if key in raw:
                if not isinstance(raw[key], bool):
                    self.add(N_("options: “%(key)s” must be true or false, not %(value)s."),
                             key=key, value=shown(raw[key]))
                    ok = False
                values[key] = raw[key]
        if "rounds" in raw:
            rounds = raw["rounds"]
            if isinstance(rounds, list) and all(is_whole(n) for n in rounds):
                values["rounds"] = tuple(rounds)
            elif isinstance(rounds, str) and rounds in rules.ROUND_STRUCTURES:
                values["rounds"] = rounds
            else:
                self.add(N_("options: “rounds” must be one of %(names)s or a list of whole "
                            "numbers, not %(value)s."),
                         names=", ".join(rules.ROUND_STRUCTURES), value=shown(rounds))
                ok = False
        return Options(**values) if ok else None

    def read_players(self, raw: object) -> list[str] | None:
        if not is_names(raw):
            self.add(N_("“players” must be a list of names, not %(value)s."), value=shown(raw))
            return None
        return raw

    def read_first_dealer(self, doc: JSONObject, players: list[str]) -> int | None:
        """The seat of the first dealer: named by `first_dealer`, or the first player when it is missing."""
        if "first_dealer" not in doc:
            return 0
        name = doc["first_dealer"]
        if not isinstance(name, str) or name not in players:
            self.add(N_("“first_dealer” must be the name of a player, not %(value)s."), value=shown(name))
            return None
        return players.index(name)

    def read_hand(self, table: Setup, number: int, raw: object, last: bool
                  ) -> tuple[Hand | None, dict[str, int]]:
        claimed: dict[str, int] = {}
        if not isinstance(raw, dict):
            self.add(N_("a hand must be an object, not %(value)s."), number, value=shown(raw))
            return None, claimed
        before = len(self.problems)
        self.unknown_keys(raw, HAND_KEYS, number)
        cards = self.whole(raw, "cards", number)
        lost = self.whole(raw, "lost_tricks", number, required=False) or 0
        raw_entries = raw.get("entries")
        entries: list[Entry] = []
        if not isinstance(raw_entries, list):
            self.add(N_("“entries” must be a list, one per player, not %(value)s."), number,
                     value=shown(raw_entries))
        else:
            for position, raw_entry in enumerate(raw_entries, start=1):
                entry, points = self.read_entry(table, number, position, raw_entry)
                if entry is not None:
                    entries.append(entry)
                    if points is not None:
                        claimed[entry.player] = points
        if len(self.problems) > before or cards is None:
            return None, claimed
        hand = Hand(cards=cards, entries=tuple(entries), lost_tricks=lost)
        if not hand.finished and not last:
            waiting = tuple(e.player for e in entries if e.tricks is None)
            self.add(N_("only the last hand may be unfinished; tricks are missing for %(names)s."),
                     number, waiting)
        hand_problems = rules.validate_hand(table, number, hand)
        self.extend(hand_problems)
        if hand_problems or len(self.problems) > before:
            return None, claimed
        return hand, claimed

    def read_entry(self, table: Setup, number: int, position: int, raw: object
                   ) -> tuple[Entry | None, int | None]:
        if not isinstance(raw, dict):
            self.add(N_("entry %(position)d must be an object, not %(value)s."), number,
                     position=position, value=shown(raw))
            return None, None
        player = raw.get("player")
        if not isinstance(player, str):
            self.add(N_("entry %(position)d: “player” must be a player's name, not %(value)s."),
                     number, position=position, value=shown(player))
            return None, None
        who = (player,)
        before = len(self.problems)
        finished = "tricks" in raw
        allowed = ENTRY_KEYS if finished else UNFINISHED_ENTRY_KEYS
        self.unknown_keys(raw, ENTRY_KEYS, number, who)
        for key in raw:
            if key in ENTRY_KEYS and key not in allowed:
                self.add(N_("%(names)s: “%(key)s” needs the tricks won, which are missing."),
                         number, who, key=key)
        bid = self.whole(raw, "bid", number, who)
        tricks = self.whole(raw, "tricks", number, who, required=False)
        bonuses = self.read_bonuses(table, number, who, raw.get("bonuses", {}))
        loot_with = raw.get("loot_with", [])
        if not is_names(loot_with):
            self.add(N_("%(names)s: “loot_with” must be a list of player names, not %(value)s."),
                     number, who, value=shown(loot_with))
        wager = self.whole(raw, "wager", number, who, required=False)
        shot = raw.get("shot")
        if shot is not None and not isinstance(shot, str):
            self.add(N_("%(names)s: “shot” must be grapeshot or cannonball, not %(value)s."),
                     number, who, value=shown(shot))
        changed = self.whole(raw, "bid_changed_from", number, who, required=False)
        points = self.whole(raw, "points", number, who, required=False)
        if len(self.problems) > before:
            return None, None
        entry = Entry(player=player, bid=bid, tricks=tricks, bonuses=bonuses or {},
                      loot_with=tuple(loot_with), wager=wager, shot=shot,
                      bid_changed_from=changed)
        return entry, points

    def read_bonuses(self, table: Setup, number: int, who: tuple[str, ...], raw: object
                     ) -> dict[str, int] | None:
        if not isinstance(raw, dict):
            self.add(N_("%(names)s: “bonuses” must be an object of counts, not %(value)s."),
                     number, who, value=shown(raw))
            return None
        bonuses = {}
        for key, value in raw.items():
            refusal = rules.bonus_refusal(table, key)
            if refusal is not None:
                self.add(refusal[0], number, who, **refusal[1])
            elif not is_whole(value):
                self.add(N_("%(names)s: the bonus “%(key)s” must be a whole number, not %(value)s."),
                         number, who, key=key, value=shown(value))
            else:
                bonuses[key] = value
        return bonuses

    def read_totals(self, table: Setup, raw: object) -> dict[str, int] | None:
        if not isinstance(raw, dict):
            self.add(N_("“totals” must be an object of player names and numbers, not %(value)s."),
                     value=shown(raw))
            return None
        totals = {}
        for name, value in raw.items():
            if name not in table.players:
                self.add(N_("totals: “%(name)s” is not playing in this game."), name=name)
            elif not is_whole(value):
                self.add(N_("totals, %(name)s: must be a whole number, not %(value)s."),
                         name=name, value=shown(value))
            else:
                totals[name] = value
        return totals


def read_pad(doc: object, check: bool = False) -> Pad:
    """Read a parsed pad document strictly; raise PadError with every problem.

    With `check`, the points and totals the pad claims must also match the rules.
    """
    reader = _PadReader()
    pad = reader.read(doc)
    problems = list(reader.problems)
    if check and pad is not None:
        problems.extend(check_claims(pad, with_totals=not problems))
    if problems or pad is None:
        raise PadError(problems)
    return pad


def check_claims(pad: Pad, with_totals: bool = True) -> list[Problem]:
    """Every difference between the points and totals the pad claims and the rules.

    Totals are only comparable when every hand was read, hence `with_totals`.
    """
    problems = []
    for hand, (number, claimed) in zip(pad.hands, pad.claimed_points.items(), strict=True):
        if not hand.finished:
            continue
        given = rules.score_hand(pad.table, hand)
        for player in pad.table.players:
            if player in claimed and claimed[player] != given[player]:
                problems.append(Problem(
                    N_("%(names)s: the pad says %(claimed)d, the rules give %(given)d."),
                    {"claimed": claimed[player], "given": given[player]}, number, (player,)))
    if with_totals and pad.claimed_totals is not None:
        totals = totals_of(pad.table, pad.hands)
        for player in pad.table.players:
            claimed_total = pad.claimed_totals.get(player)
            if claimed_total is None:
                problems.append(Problem(N_("totals: %(names)s is missing."), players=(player,)))
            elif claimed_total != totals[player]:
                problems.append(Problem(
                    N_("totals, %(names)s: the pad says %(claimed)d, the rules give %(given)d."),
                    {"claimed": claimed_total, "given": totals[player]}, players=(player,)))
    return problems


def totals_of(table: Setup, hands: list[Hand]) -> dict[str, int]:
    """Each player's total over the finished hands."""
    running = rules.running_totals(table, hands)
    return running[-1] if running else dict.fromkeys(table.players, 0)


def entry_document(table: Setup, entry: Entry, points: int | None) -> JSONObject:
    """One entry as the pad file writes it; `points` None for an unfinished hand."""
    doc: JSONObject = {"player": entry.player, "bid": entry.bid}
    if entry.tricks is not None:
        doc["tricks"] = entry.tricks
        bonuses: JSONObject = {k: entry.bonuses[k] for k in table.spec.bonus_values if entry.bonuses.get(k)}
        if bonuses:
            doc["bonuses"] = bonuses
        if entry.loot_with:
            doc["loot_with"] = list(entry.loot_with)
        if entry.wager is not None:
            doc["wager"] = entry.wager
    if entry.shot is not None:
        doc["shot"] = entry.shot
    if entry.tricks is not None and entry.bid_changed_from is not None:
        doc["bid_changed_from"] = entry.bid_changed_from
    if points is not None:
        doc["points"] = points
    return doc


def write_pad(table: Setup, hands: list[Hand]) -> JSONObject:
    """The pad document for a game, with points and totals computed by the rules.

    The caller passes only hands whose bids the table has seen revealed.
    """
    hand_docs: list[JSON] = []
    for hand in hands:
        points = rules.score_hand(table, hand) if hand.finished else {}
        doc: JSONObject = {"cards": hand.cards}
        if hand.lost_tricks:
            doc["lost_tricks"] = hand.lost_tricks
        doc["entries"] = [entry_document(table, e, points.get(e.player)) for e in hand.entries]
        hand_docs.append(doc)
    return {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": table.ruleset,
        "options": table.options.to_document(table.ruleset),
        "players": list(table.players),
        # Written only when someone other than the first player dealt first, as version 1 began.
        **({"first_dealer": table.players[table.first_dealer]} if table.first_dealer else {}),
        "hands": hand_docs,
        "totals": {**totals_of(table, hands)},
    }


CSV_BONUSES = (rules.PIRATES_BY_SKULL_KING, rules.SKULL_KING_BY_MERMAID, rules.MERMAIDS_BY_PIRATE,
               rules.STANDARD_FOURTEENS, rules.BLACK_FOURTEEN)
# The Expansion Pack's columns follow the base game's, in a game with it only: a pad without it keeps its bytes.
CSV_EXPANSION_BONUSES = (rules.EXPANSION_EIGHTS, rules.EXPANSION_SEVENS, rules.FIRST_MATE_TAKEN,
                         rules.DAVY_JONES_MONSTERS)


def write_csv(doc: Mapping[str, Any]) -> str:
    """A written pad as CSV: one row per hand and player, with points and running total."""
    out = io.StringIO()
    writer = csv.writer(out)
    columns = CSV_BONUSES + (CSV_EXPANSION_BONUSES if doc.get("options", {}).get("expansion") else ())
    writer.writerow(["hand", "cards", "dealer", "player", "bid", "tricks", *columns,
                     "loot_with", "wager", "shot", "bid_changed_from", "points", "total"])
    players = doc["players"]
    first = players.index(doc["first_dealer"]) if "first_dealer" in doc else 0
    totals = dict.fromkeys(players, 0)
    for number, hand in enumerate(doc["hands"], start=1):
        dealer = players[(first + number - 1) % len(players)]
        for entry in hand["entries"]:
            points = entry.get("points")
            if points is not None:
                totals[entry["player"]] += points
            bonuses = entry.get("bonuses", {})
            row = [
                number, hand["cards"], dealer, entry["player"], entry["bid"], entry.get("tricks", ""),
                *(bonuses.get(k, 0) for k in columns),
                " ".join(entry.get("loot_with", [])), entry.get("wager", ""), entry.get("shot", ""),
                entry.get("bid_changed_from", ""),
                "" if points is None else points, "" if points is None else totals[entry["player"]],
            ]
            writer.writerow([inert_cell(cell) for cell in row])
    return out.getvalue()
