"""What every game's pad file shares: strict reading that reports every problem, safe JSON, CSV cells.

Pure Python: each game's `pad.py` reads and writes its own file with these.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias, TypeGuard, TypeVar

from .problems import N_, Problem

# A JSON value, as a pad file holds a game and as the table stores a play and a summary.
JSON: TypeAlias = "str | int | float | bool | None | list[JSON] | dict[str, JSON]"
JSONObject: TypeAlias = "dict[str, JSON]"


class PadError(Exception):
    """A pad that cannot be read or scored; `problems` says every reason."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(p.message() for p in problems))
        self.problems = problems

    def messages(self) -> list[str]:
        """The problems as plain sentences, one each."""
        return [p.message() for p in self.problems]


def is_whole(value: object) -> TypeGuard[int]:
    """Whether a JSON value is a whole number (true and false are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_names(value: object) -> TypeGuard[list[str]]:
    """Whether a JSON value is a list of strings (names, cards)."""
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def is_name_lists(value: object) -> TypeGuard[list[list[str]]]:
    """Whether a JSON value is a list of lists of strings (teams of names, a coffin's rows of cards)."""
    return isinstance(value, list) and all(is_names(item) for item in value)


def shown(value: object) -> str:
    """A JSON value as a message quotes it, cut short when long."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "…"


def json_kind(value: object) -> str:
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
# The largest pad a table can make (a free pad's 1,000 rounds of twelve) is under 200 KiB; anything larger is refused
# unread, by the app (its requests) and the command line alike.
MAX_BYTES = 256 * 1024


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

    def listed(self, doc: Mapping[str, Any], key: str, most: int, not_a_list: str) -> list[Any] | None:
        """The list a pad keeps under `key` (none: empty), if it is one of at most `most` items; else a problem (for
        what is no list, `not_a_list` said of its value), and nothing more is read of it: a file past the limits
        costs no more to refuse than its parsing did."""
        items = doc.get(key, [])
        if not isinstance(items, list):
            self.add(not_a_list, value=shown(items))
            return None
        if len(items) > most:
            self.add(N_("“%(key)s” holds %(count)d items: a pad holds at most %(most)d."),
                     key=key, count=len(items), most=most)
            return None
        return items

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


Read = TypeVar("Read")


def read_strictly(reader: Reader, found: Read | None, claimed: Sequence[Problem] = ()) -> Read:
    """What `reader` read, or PadError: its problems, else (a pad read without any) the points it claims wrongly."""
    problems = list(reader.problems) or (list(claimed) if found is not None else [])
    if problems or found is None:
        raise PadError(problems)
    return found


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


class KeyTwice(ValueError):
    """An object of the file names one key twice: which of the two is meant, nobody can say."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _without_twice(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """An object of the file, refused when it names a key twice (JSON would keep the last one silently)."""
    found: dict[str, object] = {}
    for key, value in pairs:
        if key in found:
            raise KeyTwice(key)
        found[key] = value
    return found


def read_json(text: str | bytes) -> object:
    """A pad file's JSON, of whichever game; PadError for text that is not JSON, names a key twice in one object,
    nests too deep, or holds a number no pad could."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        if nests_deeper_than(text, MAX_DEPTH):
            raise PadError([Problem(N_("The file nests lists and objects deeper than a pad file ever does."))])
        doc = json.loads(text, object_pairs_hook=_without_twice)
    except KeyTwice as twice:
        raise PadError([Problem(N_("The file names the key “%(key)s” twice in one object: which one is meant?"),
                                {"key": twice.key[:40]})]) from None
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise PadError([Problem(N_("The file is not valid JSON: %(error)s."),
                                {"error": str(error)[:200]})]) from None
    problems = numbers_out_of_bounds(doc)
    if problems:
        raise PadError(problems)
    return doc


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


def write_rounds_csv(players: Sequence[str], per_round: Sequence[Sequence[int]], play_word: str) -> str:
    """The pad of any game as CSV: one row per play (`play_word`: a round, a game) and player, with points and
    running total."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([play_word, "player", "points", "total"])
    totals = [0] * len(players)
    for number, points in enumerate(per_round, start=1):
        for index, player in enumerate(players):
            totals[index] += points[index]
            writer.writerow([number, inert_cell(player), points[index], totals[index]])
    return out.getvalue()
