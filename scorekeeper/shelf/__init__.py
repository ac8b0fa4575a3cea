"""The games on the shelf besides Skull King: each brings its pure rules, its pad file and its screens.

A game here is a package (`skipbo`, `dracula`) with `rules.py` (plain values in and out),
`pad.py` (its pad file, read strictly and written with points) and `kind.py` (what the
table machinery needs of it: how a match is set up, stored, shown and changed), plus its
templates in `templates/<name>/`. Adding a game is adding such a package and naming it in
`kinds()`; new game, join, seats, the live table, pad export and import, `scorekeeper
score` and languages come from the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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


def kinds() -> dict[str, Any]:
    """The games on the shelf by name, each its `kind` module."""
    from .dracula import kind as dracula
    from .skipbo import kind as skipbo

    return {skipbo.NAME: skipbo, dracula.NAME: dracula}


def by_format(format_name: object) -> Any | None:
    """The game whose pad file has this `format`, if one on the shelf has."""
    return next((kind for kind in kinds().values() if kind.FORMAT == format_name), None)


def read_any(text: str | bytes, check: bool = True) -> tuple[Any | None, Any]:
    """A pad file of any game, told apart by its `format`: (None, Skull King's `Pad`) or (the
    shelf game, (its setup, its plays)). PadError with every problem."""
    from ..pad import FORMAT, PadError, read_json, read_pad, shown
    from ..problems import N_

    doc = read_json(text)
    found = doc.get("format") if isinstance(doc, dict) else None
    kind = by_format(found)
    if kind is not None:
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

    kind: Any
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
