"""The games on the shelf besides Skull King: each brings its pure rules, its pad file and its screens.

A game here is a package (`skipbo`, `dracula`) with `rules.py` (plain values in and out),
`pad.py` (its pad file, read strictly and written with points) and `kind.py` (what the
table machinery needs of it: how a match is set up, stored, shown and changed), plus its
templates in `templates/<name>/`. Adding a game is adding such a package and naming it in
`kinds()`; new game, join, seats, the live table, pad export and import, CSV, crews and
their statistics, BG Stats, `scorekeeper score` and languages come from the table. What a
kind must bring is the `Kind` protocol below; mypy checks each registered module against it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..problems import Problem


@dataclass(frozen=True)
class Applied:
    """What a change does to a match: the entries of the play still open, a play to close, or why not.

    `draft` is the open play's new entries (None: none open); `closed` the entries of a play
    that is complete now; `denied` that the acting browser may not make this change.
    """

    draft: dict[str, Any] | None = None
    closed: dict[str, Any] | None = None
    problems: tuple[Problem, ...] = ()
    denied: bool = False


@dataclass(frozen=True)
class Player:
    """Who acts at a match: a seat's phone, the host, or both unknown (a viewer)."""

    seat: int | None = None
    is_host: bool = False


@dataclass
class NewMatch:
    """A new match as its form describes it: the setup, or the problems, and the names typed."""

    setup: Any = None
    problems: list[Problem] = field(default_factory=list)
    names: list[str] = field(default_factory=list)


class Kind(Protocol):
    """What a game on the shelf brings to the table: its names, its setup, its plays and its screen.

    A kind's setup is its own value (plain, frozen); its plays are plain dicts as stored, the
    closed ones in order plus the open one's `draft`. The table stores, locks, versions and
    pushes them; the kind alone knows what they mean.
    """

    NAME: str  # in addresses and the database
    FORMAT: str  # the pad file's `format`
    TITLE: str  # its name for people, marked for translation
    TEMPLATE: str  # its one screen
    NEW_TEMPLATE: str  # its new-game form

    def setup_from_form(self, form: Any) -> NewMatch: ...
    def form_fields(self, setup: Any) -> list[tuple[str, str]]: ...
    def stored(self, setup: Any) -> tuple[list[str], dict[str, Any]]: ...
    def from_stored(self, players: list[str], options: Mapping[str, Any]) -> Any: ...
    def label(self, options: Mapping[str, Any]) -> str: ...
    def read_pad(self, doc: dict[str, Any], check: bool = False) -> tuple[Any, list[dict[str, Any]]]: ...
    def write_pad(self, setup: Any, plays: Sequence[Mapping[str, Any]]) -> dict[str, Any]: ...
    def finished(self, setup: Any, plays: Sequence[Mapping[str, Any]]) -> bool: ...
    def parse_change(self, form: Any) -> dict[str, Any] | None: ...
    def apply(self, setup: Any, plays: Sequence[Mapping[str, Any]], draft: Mapping[str, Any] | None, actor: Player,
              change: Mapping[str, Any]) -> Applied: ...
    def context(self, setup: Any, plays: Sequence[Mapping[str, Any]], draft: Mapping[str, Any] | None,
                actor: Player) -> dict[str, Any]: ...
    def card_state(self, setup: Any, plays: Sequence[Mapping[str, Any]], draft: Mapping[str, Any] | None,
                   actor: Player) -> object: ...
    def summary(self, setup: Any, plays: Sequence[Mapping[str, Any]]) -> dict[str, Any]: ...
    def bg_stats_game(self, setup: Any) -> tuple[str, int | None]: ...


def kinds() -> dict[str, Kind]:
    """The games on the shelf by name, each its `kind` module."""
    from .dracula import kind as dracula
    from .freepad import kind as freepad
    from .skipbo import kind as skipbo

    found: list[Kind] = [skipbo, dracula, freepad]
    return {kind.NAME: kind for kind in found}


def by_format(format_name: object) -> Kind | None:
    """The game whose pad file has this `format`, if one on the shelf has."""
    return next((kind for kind in kinds().values() if kind.FORMAT == format_name), None)


def read_any(text: str | bytes, check: bool = True) -> tuple[Kind | None, Any]:
    """A pad file of any game, told apart by its `format`: (None, Skull King's `Pad`) or (the
    shelf game, (its setup, its plays)). PadError with every problem."""
    from ..pad import FORMAT, PadError, read_json, read_pad, shown
    from ..problems import N_

    doc = read_json(text)
    found = doc.get("format") if isinstance(doc, dict) else None
    kind = by_format(found)
    if kind is not None and isinstance(doc, dict):
        return kind, kind.read_pad(doc, check)
    if isinstance(doc, dict) and found not in (FORMAT, None):
        formats = ", ".join([FORMAT, *(k.FORMAT for k in kinds().values())])
        raise PadError([Problem(N_("“format” must be one of %(formats)s, not %(value)s."),
                                {"formats": formats, "value": shown(found)})])
    return None, read_pad(doc, check)


def score_any(text: str | bytes) -> dict[str, Any]:
    """Read, check and complete a pad file of any game; PadError with every problem."""
    from ..pad import write_pad

    kind, read = read_any(text)
    if kind is None:
        return write_pad(read.table, read.hands)
    setup, plays = read
    return kind.write_pad(setup, plays)


@dataclass(frozen=True)
class Stored:
    """A stored game of the shelf as its kind reads it: the kind, its setup, the entries of its
    closed plays in order, and its open play (the record, still being entered), if any."""

    kind: Kind
    setup: Any
    closed: list[dict[str, Any]]
    open_play: Any = None

    @property
    def draft(self) -> dict[str, Any] | None:
        """The entries of the open play so far."""
        return self.open_play.data if self.open_play is not None else None


def stored(game: Any) -> Stored | None:
    """A stored game (record) as its shelf kind reads it; None for Skull King or an unknown kind."""
    kind = kinds().get(game.kind)
    if kind is None:
        return None
    return Stored(kind, kind.from_stored([s.name for s in game.seats], game.options),
                  [p.data for p in game.plays if p.closed], next((p for p in game.plays if not p.closed), None))
