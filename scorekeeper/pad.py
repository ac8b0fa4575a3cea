"""The pad file (`skull-king-pad`, version 1): strict reading, checking and writing.

Pure Python like the rules: a JSON document in, rules values and problems out.
Reading refuses anything it does not understand and reports every problem at once.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from . import rules
from .rules import N_, Entry, Hand, Options, Problem, Table

FORMAT = "skull-king-pad"
VERSION = 1

TOP_KEYS = ("format", "version", "ruleset", "options", "players", "first_dealer", "hands", "totals")
OPTION_KEYS = ("scoring", "cannonball", "rounds", "advanced_cards", "rascal_wagers")
HAND_KEYS = ("cards", "lost_tricks", "entries")
ENTRY_KEYS = ("player", "bid", "tricks", "bonuses", "loot_with", "wager", "shot",
              "bid_changed_from", "points")
# What a player can already have before the hand is played out.
UNFINISHED_ENTRY_KEYS = ("player", "bid", "shot")


class PadError(Exception):
    """A pad that cannot be read or scored; `problems` says every reason."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(p.message() for p in problems))
        self.problems = problems

    def messages(self) -> list[str]:
        """The problems as plain sentences, one each."""
        return [p.message() for p in self.problems]


@dataclass
class Pad:
    """A read pad: the table, its hands, and the points and totals it claimed."""

    table: Table
    hands: list[Hand]
    # Points claimed per player, by hand number: hands refused on reading are absent.
    claimed_points: dict[int, dict[str, int]] = field(default_factory=dict)
    claimed_totals: dict[str, int] | None = None


def is_whole(value: object) -> TypeGuard[int]:
    """Whether a JSON value is a whole number (true and false are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def shown(value: object) -> str:
    """A JSON value as a message quotes it, cut short when long."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "…"


def _json_kind(value: object) -> str:
    """What a JSON value is, in JSON's own words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    return "a list"


# A refused file lists this many problems at most.
MAX_PROBLEMS = 50


class Reader:
    """Walks a document, collecting problems instead of stopping at the first.

    `unit` says what the numbers in its problems count: hands here, games or rounds in the
    pads of the other games on the shelf, which read theirs with it too.
    """

    unit = "hand"

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, template: str, hand: int | None = None, players: tuple[str, ...] = (),
            **params: object) -> None:
        self.extend([Problem(template, params, hand, players, self.unit)])

    def extend(self, problems: list[Problem]) -> None:
        """Keep these problems too; stop reading once there are MAX_PROBLEMS."""
        self.problems.extend(problems)
        if len(self.problems) >= MAX_PROBLEMS:
            # Nobody reads a thousand problems, and a file made of mistakes must cost little to refuse.
            raise PadError(self.problems[:MAX_PROBLEMS])

    def version_is(self, doc: Mapping[str, Any], version: int) -> None:
        """A problem unless the document's `version` is the one this app reads."""
        if doc.get("version") != version or not is_whole(doc.get("version")):
            self.add(N_("“version” must be %(version)d, not %(value)s: this app reads version %(version)d."),
                     version=version, value=shown(doc.get("version")))

    def unknown_keys(self, obj: Mapping[str, Any], allowed: tuple[str, ...],
                     hand: int | None = None, players: tuple[str, ...] = ()) -> None:
        for key in obj:
            if key in allowed:
                continue
            if players:
                self.add(N_("%(names)s: unknown key “%(key)s”."), hand, players, key=key)
            else:
                self.add(N_("unknown key “%(key)s”."), hand, key=key)

    def whole(self, obj: Mapping[str, Any], key: str, hand: int | None = None,
              players: tuple[str, ...] = (), required: bool = True) -> int | None:
        if key not in obj:
            if required and players:
                self.add(N_("%(names)s: “%(key)s” is missing."), hand, players, key=key)
            elif required:
                self.add(N_("“%(key)s” is missing."), hand, key=key)
            return None
        value = obj[key]
        if not is_whole(value):
            if players:
                self.add(N_("%(names)s: “%(key)s” must be a whole number, not %(value)s."),
                         hand, players, key=key, value=shown(value))
            else:
                self.add(N_("“%(key)s” must be a whole number, not %(value)s."),
                         hand, key=key, value=shown(value))
            return None
        return value


class _PadReader(Reader):
    """Reads a Skull King pad file."""

    def read(self, doc: object) -> Pad | None:
        if not isinstance(doc, dict):
            self.add(N_("A pad file is a JSON object, not %(value)s."), value=_json_kind(doc))
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
        table = Table(ruleset, tuple(players), options, first_dealer)
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
        values: dict[str, Any] = {}
        if "scoring" in raw:
            if raw["scoring"] not in rules.SCORINGS:
                self.add(N_("options: “scoring” must be standard or rascal, not %(value)s."),
                         value=shown(raw["scoring"]))
                ok = False
            values["scoring"] = raw["scoring"]
        for key in ("cannonball", "advanced_cards", "rascal_wagers"):
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
        if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
            self.add(N_("“players” must be a list of names, not %(value)s."), value=shown(raw))
            return None
        return raw

    def read_first_dealer(self, doc: dict[str, Any], players: list[str]) -> int | None:
        """The seat of the first dealer: named by `first_dealer`, or the first player when it is missing."""
        if "first_dealer" not in doc:
            return 0
        name = doc["first_dealer"]
        if not isinstance(name, str) or name not in players:
            self.add(N_("“first_dealer” must be the name of a player, not %(value)s."), value=shown(name))
            return None
        return players.index(name)

    def read_hand(self, table: Table, number: int, raw: object, last: bool
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

    def read_entry(self, table: Table, number: int, position: int, raw: object
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
        if not isinstance(loot_with, list) or not all(isinstance(p, str) for p in loot_with):
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

    def read_bonuses(self, table: Table, number: int, who: tuple[str, ...], raw: object
                     ) -> dict[str, int] | None:
        if not isinstance(raw, dict):
            self.add(N_("%(names)s: “bonuses” must be an object of counts, not %(value)s."),
                     number, who, value=shown(raw))
            return None
        bonuses = {}
        for key, value in raw.items():
            if key not in table.spec.bonus_values:
                self.add(N_("%(names)s: “%(key)s” is not a bonus of the %(ruleset)s rules."),
                         number, who, key=key, ruleset=table.ruleset)
            elif not is_whole(value):
                self.add(N_("%(names)s: the bonus “%(key)s” must be a whole number, not %(value)s."),
                         number, who, key=key, value=shown(value))
            else:
                bonuses[key] = value
        return bonuses

    def read_totals(self, table: Table, raw: object) -> dict[str, int] | None:
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


# A pad nests six deep (pad, hands, hand, entries, entry, bonuses); deeper is not a pad.
MAX_DEPTH = 16
# Possessive: a string is read once, never tried again from a later quote, so text full of
# quotes and backslashes costs one pass (an unclosed string runs to the end: json.loads refuses it).
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*+"?')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_INNERMOST = re.compile(r"\[\]|\{\}")


def nests_deeper_than(text: str, most: int) -> bool:
    """Whether the lists and objects of a JSON text nest deeper than `most`, strings left out.

    Read before parsing, in time linear in the text: one pass takes the strings out, then each
    round takes away the innermost pairs, `most` rounds at most, whatever the text.
    """
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    for _ in range(most):
        brackets, found = _INNERMOST.subn("", brackets)
        if not brackets or not found:
            # Nothing left, or brackets that do not pair up: the JSON parser says what is wrong.
            return False
    return True


# No number in a pad of any game comes near this, either way: points, totals, targets, counts.
MAX_NUMBER = 1_000_000


def numbers_out_of_bounds(value: object) -> list[Problem]:
    """A problem for the first number of a parsed pad beyond ±MAX_NUMBER (or not finite); none if all are within."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, (int, float)) and not isinstance(item, bool) and not -MAX_NUMBER <= item <= MAX_NUMBER:
            return [Problem(N_("Every number in a pad file is from -%(most)d to %(most)d; this one has %(value)s."),
                            {"most": MAX_NUMBER, "value": shown(item)})]
    return []


def read_json(text: str | bytes) -> object:
    """A pad file's JSON, of whichever game; PadError for text that is not JSON, nests too deep, or
    holds a number no pad could."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        if nests_deeper_than(text, MAX_DEPTH):
            raise PadError([Problem(N_("The file nests lists and objects deeper than a pad file ever does."))])
        doc = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise PadError([Problem(N_("The file is not valid JSON: %(error)s."),
                                {"error": str(error)[:200]})]) from None
    problems = numbers_out_of_bounds(doc)
    if problems:
        raise PadError(problems)
    return doc


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


def totals_of(table: Table, hands: list[Hand]) -> dict[str, int]:
    """Each player's total over the finished hands."""
    running = rules.running_totals(table, hands)
    return running[-1] if running else dict.fromkeys(table.players, 0)


def entry_document(table: Table, entry: Entry, points: int | None) -> dict[str, Any]:
    """One entry as the pad file writes it; `points` None for an unfinished hand."""
    doc: dict[str, Any] = {"player": entry.player, "bid": entry.bid}
    if entry.tricks is not None:
        doc["tricks"] = entry.tricks
        bonuses = {k: entry.bonuses[k] for k in table.spec.bonus_values if entry.bonuses.get(k)}
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


def write_pad(table: Table, hands: list[Hand]) -> dict[str, Any]:
    """The pad document for a game, with points and totals computed by the rules.

    The caller passes only hands whose bids the table has seen revealed.
    """
    hand_docs = []
    for hand in hands:
        points = rules.score_hand(table, hand) if hand.finished else {}
        doc: dict[str, Any] = {"cards": hand.cards}
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
        "totals": totals_of(table, hands),
    }


CSV_BONUSES = (rules.PIRATES_BY_SKULL_KING, rules.SKULL_KING_BY_MERMAID, rules.MERMAIDS_BY_PIRATE,
               rules.STANDARD_FOURTEENS, rules.BLACK_FOURTEEN)
# A spreadsheet reads a cell starting with one of these as a formula (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def inert_cell(value: object) -> object:
    """`value` as a CSV cell no spreadsheet runs: text that would start a formula gets a leading '.

    Spreadsheets skip leading spaces of any kind (a no-break space too) and read full-width
    signs (＝, ＋) as their plain twins, so the check looks past the one and folds the other.
    """
    if not isinstance(value, str):
        return value
    head = value.lstrip()
    while head and unicodedata.category(head[0]) in ("Cf", "Cc", "Zs", "Zl", "Zp"):
        head = head[1:].lstrip()
    if value.startswith(FORMULA_STARTS) or unicodedata.normalize("NFKC", head[:1]).startswith(FORMULA_STARTS):
        return "'" + value
    return value


def write_rounds_csv(players: Sequence[str], per_round: Sequence[Sequence[int]]) -> str:
    """The pad of any game as CSV: one row per round (game, hand) and player, with points and running total."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["round", "player", "points", "total"])
    totals = [0] * len(players)
    for number, points in enumerate(per_round, start=1):
        for index, player in enumerate(players):
            totals[index] += points[index]
            writer.writerow([number, inert_cell(player), points[index], totals[index]])
    return out.getvalue()


def write_csv(doc: Mapping[str, Any]) -> str:
    """A written pad as CSV: one row per hand and player, with points and running total."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["hand", "cards", "dealer", "player", "bid", "tricks", *CSV_BONUSES,
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
                *(bonuses.get(k, 0) for k in CSV_BONUSES),
                " ".join(entry.get("loot_with", [])), entry.get("wager", ""), entry.get("shot", ""),
                entry.get("bid_changed_from", ""),
                "" if points is None else points, "" if points is None else totals[entry["player"]],
            ]
            writer.writerow([inert_cell(cell) for cell in row])
    return out.getvalue()
