"""The kinds of game a table plays: the interface every game brings, and the registry of those an app offers.

The table (its models, reading, changes, views and live stream) knows no game by name: it asks
the kind of a game, found in this registry, which `create_app` builds from the games it is
given (`scorekeeper.shelf.INSTALLED` by default) into `app.extensions`. Every game is a
`GameKind`: its names, its pad file, its new-game form, how a new game is stored and read back
as plain values, what it leaves for a crew's statistics and BG Stats, and what it brings to the
app (`init_app`: its Blueprint, its pages). Every game is a module of `PlayedRules` made a `GameKind` by
`OnPlays`, whose plays the table keeps and whose one screen it draws; a game that brings more (pages of its own,
its own CSV) extends `OnPlays`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, NotRequired, Protocol, TypeAlias, TypedDict, TypeVar, cast

from cattrs import Converter
from flask import Blueprint, current_app
from typing_extensions import TypeVar as DefaultedTypeVar

from .access import Actor
from .padfile import JSON, JSONObject, PadError, json_kind, read_json, shown, write_rounds_csv
from .problems import N_, Problem

if TYPE_CHECKING:
    import click
    from flask import Flask
    from werkzeug.datastructures import MultiDict


# What a template is given to draw a page (or a part of one).
Context: TypeAlias = dict[str, object]
# A form as a page posts it.
Form: TypeAlias = "MultiDict[str, str]"


# A game's closed play and its open play's draft, as its rules hold them: without a game's own types, as the table
# stores them (JSON objects).
ClosedT = DefaultedTypeVar("ClosedT", default=JSONObject)
DraftT = DefaultedTypeVar("DraftT", default=JSONObject)


class Columns(TypedDict):
    """A game's setup as the database keeps it besides its seats' names: its ruleset (a game with one: its name), who
    dealt first (a game that names no dealer: the first seat) and its options."""

    ruleset: str
    first_dealer: int
    options: JSONObject


class Summary(TypedDict):
    """What a finished game leaves for its crew's statistics (`stats`), kept with it as JSON: its players, their
    totals and points per play, who won, its teams; a game's own figures besides (bids made, bonus points; a free
    pad's name)."""

    kind: str
    players: list[str]
    totals: list[int]
    winners: list[str]
    per_hand: list[list[int]]
    ruleset: NotRequired[str]
    group: NotRequired[str]
    name: NotRequired[str]
    lowest_wins: NotRequired[bool]
    teams: NotRequired[list[list[int]]]  # who scores together, by the players' places in `players`; none: alone
    bids_made: NotRequired[list[int]]
    zero_bids: NotRequired[list[int]]
    zero_bids_made: NotRequired[list[int]]
    bonus: NotRequired[list[int]]


@dataclass(frozen=True)
class Change(Generic[ClosedT, DraftT]):
    """What a game's decision writes: one of its answers (`Decided`). The table writes it (`service.play`); the
    decision reads plain values only. A game whose plays are its own types answers in them (`Change[Round, Draft]`);
    the table stores them with their codecs (`stored_with`).

    `play` is the number of the play it writes (the open one, or a scored one it corrects);
    `draft` that play's new values, still open; `closed` its values, complete now (or corrected);
    `secret` a seat's secret entry of it, which the table keeps and reveals with the others
    (`Secrets`); `shown` entries of it shown already that change (a bid Harry the Giant
    changes); `collects` the secret entries the table collects from now on (play, name),
    `forget` those entered before forgotten (a new deal); `opens` the values the next play opens
    with; `summary` what the game leaves for its crew's statistics, once it is over (a correction
    of a finished game changes it). `entered_for` are the seats whose own entries it makes (a
    bid, tricks, points): the table lets the host make them only for seats without a phone.
    `event` is what the table logs.
    """

    draft: DraftT | None = None
    closed: ClosedT | None = None
    play: int | None = None
    secret: SeatEntry | None = None
    shown: tuple[SeatEntry, ...] = ()
    collects: tuple[int, str] | None = None
    forget: bool = False
    opens: DraftT | None = None
    summary: Summary | None = None
    entered_for: tuple[int, ...] = ()
    event: str = "play"

    @property
    def seats(self) -> set[int]:
        """Every seat whose own entry this change makes, its secret entry's too."""
        return {*self.entered_for, *((self.secret.seat,) if self.secret is not None else ())}

    def stored_with(self, closed: Codec[ClosedT], drafts: Codec[DraftT]) -> Change:
        """The same change with its plays as the table stores them."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update({name: None if values[name] is None else codec.dump(values[name])
                       for name, codec in (("draft", drafts), ("closed", closed), ("opens", drafts))})
        return Change(**values)


@dataclass(frozen=True)
class SeatEntry:
    """A seat's entry of a play that the table keeps apart from the play: a secret entry (a bid, a cannon's load),
    or one of them shown already that a change corrects."""

    seat: int
    name: str
    value: Any


@dataclass(frozen=True)
class Refused:
    """A decision's answer when the rules refuse the change, as `problems` say: nothing is written."""

    problems: tuple[Problem, ...]


@dataclass(frozen=True)
class Denied:
    """A decision's answer when the acting browser may not make the change; `phone_seat`: the host's, for a seat
    that has its own phone. Nothing is written."""

    phone_seat: bool = False


@dataclass(frozen=True)
class Stale:
    """A decision's answer when the play the screen was drawn for has moved on (a late autosave, a second tap):
    nothing is written."""


@dataclass(frozen=True)
class Missing:
    """A decision's answer when the play (or the game) it is asked about does not exist: nothing is written."""

    what: object


# What a game's decision answers: a change to write, or one of the ways nothing is written.
Decided: TypeAlias = Change[ClosedT, DraftT] | Refused | Denied | Stale | Missing


T = TypeVar("T")

# One converter for every game's plays: each is a dataclass of plain values (numbers, names, lists, mappings).
_CONVERTER = Converter()


class Codec(Generic[T]):
    """How a game's play (or its open play's draft), a dataclass of its own, is stored: as a JSON object, and read
    back. Seats as keys of a mapping are stored as strings, as JSON has them."""

    def __init__(self, cls: type[T]) -> None:
        self.cls = cls

    def load(self, data: Mapping[str, object]) -> T:
        """The play a stored JSON object holds."""
        return _CONVERTER.structure(data, self.cls)

    def dump(self, value: T) -> JSONObject:
        """The JSON object the table stores of a play."""
        dumped = _as_json(_CONVERTER.unstructure(value, self.cls))
        assert isinstance(dumped, dict)
        return dumped


def _as_json(value: object) -> JSON:
    """A value with every mapping's keys as JSON keeps them (strings) and every sequence a list."""
    if isinstance(value, Mapping):
        return {str(key): _as_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_as_json(item) for item in value]
    if isinstance(value, Enum):
        # A string enum's value as the plain string JSON has (cattrs leaves a `StrEnum` as it is).
        return cast(JSON, value.value)
    # What cattrs leaves of a play of plain values: a string, a number, a truth or nothing.
    return cast(JSON, value)


@dataclass(frozen=True)
class Started:
    """What a new game starts with, for the table to store: its plays in order (values, closed), the secret entries
    entered already (play, seat, name, value: an imported pad's, shown), and the entries it collects first in secret
    (play, name), if any."""

    plays: tuple[tuple[JSONObject, bool], ...] = ()
    secrets: tuple[tuple[int, int, str, JSON], ...] = ()
    collects: tuple[int, str] | None = None


# A change whose play has moved on since its screen was drawn (a late autosave, a second tap): nothing is written.
STALE = Stale()


def refused(*problems: Problem) -> Refused:
    """A change the rules refuse, as `problems` say."""
    return Refused(problems)


@dataclass(frozen=True)
class Secrets:
    """The secret entries of the open play as one screen may see them (`games.secrets_for`): by name, then seat, the
    value, or None for an entry that is in but not shown to this screen; the name of the entries the table
    collects or counts of this play, if any; while the count runs, when it ends; whether it is over (everyone
    sees them); and the seats whose entry of the count still to run was cleared when they changed phones."""

    entries: Mapping[str, Mapping[int, Any]] = field(default_factory=dict)
    reveal_at: datetime | None = None
    shown: bool = False
    counted: str | None = None
    cleared: frozenset[int] = frozenset()

    def of(self, name: str) -> Mapping[int, Any]:
        """The entries called `name`, by seat."""
        return self.entries.get(name, {})


class Seated(Protocol):
    """A seat of a stored game, as a kind reads it."""

    @property
    def name(self) -> str: ...


class KeptPlay(Protocol):
    """A play of a stored game as the table keeps it: its JSON object, and whether it is closed."""

    @property
    def data(self) -> Mapping[str, object]: ...
    @property
    def closed(self) -> bool: ...


class OfKind(Protocol):
    """A stored game as the shelf finds its kind: its state, its row or a summary's row."""

    @property
    def kind(self) -> str: ...


class Labelled(OfKind, Protocol):
    """A stored game as a list names it: its state, its row or a row of the games a browser played."""

    @property
    def ruleset(self) -> str: ...
    @property
    def options(self) -> Mapping[str, JSON] | None: ...


class StoredGame(Labelled, Protocol):
    """A stored game as a kind reads its setup from it: the table's state of it (`games.GameState`) or its row."""

    @property
    def first_dealer(self) -> int: ...
    @property
    def seats(self) -> Sequence[Seated]: ...


class PlayedGame(StoredGame, Protocol):
    """A stored game with its plays, as the table keeps them for every game."""

    @property
    def plays(self) -> Sequence[KeptPlay]: ...


# A kind's own plain values: its setup (players, rules, options) and one of its plays (a hand, a round).
SetupT = TypeVar("SetupT")
PlayT = TypeVar("PlayT")
# A tap on a game's screen as its rules read it (`parse_change`, then `apply`): a value of its own.
TapT = DefaultedTypeVar("TapT", default=JSONObject)


@dataclass
class NewMatch(Generic[SetupT]):
    """A new game as its form describes it: the setup, or the problems, and the names typed."""

    setup: SetupT | None = None
    problems: list[Problem] = field(default_factory=list)
    names: list[str] = field(default_factory=list)


class GameKind(Protocol[SetupT, PlayT]):
    """What the table machinery asks of every game: its names, its setup, its stored plays, its pad file.

    A setup is the kind's own plain value (the players, the rules and options chosen); its
    plays are plain values too (hands or rounds as its rules have them, or the dicts the table
    stores for it), the closed ones in order. The table stores, locks, versions and pushes a
    game, and keeps its secret entries; the kind alone knows what its setup and plays mean.
    """

    NAME: str  # in addresses and the database
    FORMAT: str  # the pad file's `format`
    TITLE: str  # its name for people, marked for translation
    NEW_TEMPLATE: str  # its new-game form
    # The names of its secret entries (a bid, a cannon's load): each is seen by its own phone alone until the
    # table reveals them together (`service.enter_secret`, `games.as_seen_by`, `games.as_it_stands`).
    SECRETS: tuple[str, ...]
    # Its own style sheets and scripts, (endpoint, filename) for `url_for`: the table's frame loads them with its
    # pages, never inside a part a tap swaps (`views.labels.game_assets`).
    ASSETS: tuple[tuple[str, str], ...]
    # Its rules page (`/games/<id>/rules`, linked from every screen of a game): the cards, what beats what, the
    # points and the options of the game shown, from `rules_context`, which reads them from its scoring module.
    RULES_TEMPLATE: str

    @property
    def played_rules(self) -> PlayedRules[SetupT, PlayT, Any, Any]:
        """Its rules: what its form, a tap and its screen mean, its plays kept by the table."""
        ...

    def init_app(self, app: Flask) -> None:
        """What it brings to the app before its pages are registered: views of its own, its templates' words."""
        ...

    def commands(self) -> Sequence[click.Command]:
        """Commands of its own for `scorekeeper`."""
        ...

    def setup_from_form(self, form: Form) -> NewMatch[SetupT]: ...
    def new_game_context(self) -> Context: ...
    def form_fields(self, setup: SetupT) -> list[tuple[str, str]]: ...
    def columns(self, setup: SetupT) -> tuple[list[str], JSONObject]: ...
    def setup_of(self, game: StoredGame) -> SetupT: ...
    def rematch(self, setup: SetupT) -> SetupT: ...
    def label(self, game: Labelled) -> str: ...
    def read_pad(self, doc: object, check: bool = False) -> tuple[SetupT, list[PlayT]]: ...
    def write_pad(self, setup: SetupT, plays: Sequence[PlayT]) -> JSONObject: ...
    def write_csv(self, setup: SetupT, plays: Sequence[PlayT]) -> str: ...
    def finished(self, setup: SetupT, plays: Sequence[PlayT]) -> bool: ...
    def summary(self, setup: SetupT, plays: Sequence[PlayT]) -> Summary: ...
    def bg_stats_game(self, setup: SetupT) -> tuple[str, int | None, int]: ...
    def start(self, setup: SetupT, plays: Sequence[PlayT]) -> Started: ...
    def played(self, game: PlayedGame) -> list[PlayT]: ...
    def rules_context(self, setup: SetupT) -> Context: ...


class PlayedRules(Protocol[SetupT, PlayT, DraftT, TapT]):
    """A game whose plays the table keeps and whose one screen it draws: what its form, a tap and its screen mean.
    Its closed plays (`PlayT`) and its open play's draft (`DraftT`) are dataclasses of its own, stored as JSON by
    their codecs (`PLAY`, `DRAFT`). A module; `OnPlays` makes it a `GameKind`."""

    __name__: str  # its module's: the package beside it is the game's folder (`game_folder`)
    NAME: str
    FORMAT: str
    TITLE: str
    PLAY_WORD: str  # what its pad calls a play ("round", "game"), as the CSV's first column names it
    TEMPLATE: str  # its one screen
    NEW_TEMPLATE: str
    RULES_TEMPLATE: str  # its rules page
    PLAY: Codec[PlayT]
    DRAFT: Codec[DraftT]
    # Its secret entries (`Change.secret`; each play collects the first of them), () when it has none: declared by
    # every game, so a misspelt name is mypy's error, not a game without secrets.
    SECRETS: tuple[str, ...]
    # Its own style sheets and scripts, (blueprint's static endpoint, file), () when its screen has none.
    ASSETS: tuple[tuple[str, str], ...]

    def setup_from_form(self, form: Form) -> NewMatch[SetupT]: ...
    def form_fields(self, setup: SetupT) -> list[tuple[str, str]]: ...
    def stored(self, setup: SetupT) -> tuple[list[str], Columns]: ...
    def from_stored(self, players: list[str], columns: Columns) -> SetupT: ...
    def label(self, ruleset: str, options: Mapping[str, JSON]) -> str: ...
    def read_pad(self, doc: JSONObject, check: bool = False) -> tuple[SetupT, list[PlayT]]: ...
    def write_pad(self, setup: SetupT, plays: Sequence[PlayT]) -> JSONObject: ...
    def finished(self, setup: SetupT, plays: Sequence[PlayT]) -> bool: ...
    def parse_change(self, form: Form) -> TapT | None: ...
    def apply(self, setup: SetupT, plays: Sequence[PlayT], draft: DraftT | None, actor: Actor,
              change: TapT, secrets: Secrets) -> Decided[PlayT, DraftT]: ...
    def context(self, setup: SetupT, plays: Sequence[PlayT], draft: DraftT | None,
                actor: Actor, secrets: Secrets) -> Context: ...
    def card_state(self, setup: SetupT, plays: Sequence[PlayT], draft: DraftT | None,
                   actor: Actor, secrets: Secrets) -> object: ...
    def summary(self, setup: SetupT, plays: Sequence[PlayT]) -> Summary: ...
    def bg_stats_game(self, setup: SetupT) -> tuple[str, int | None]: ...
    def rules_context(self, setup: SetupT) -> Context: ...


class OnPlays(Generic[SetupT, PlayT, DraftT, TapT]):
    """A game whose plays the table keeps, as a `GameKind`: its rules, and the table's storage of plays."""

    def __init__(self, rules: PlayedRules[SetupT, PlayT, DraftT, TapT]) -> None:
        self.rules = rules
        self.NAME, self.FORMAT, self.TITLE = rules.NAME, rules.FORMAT, rules.TITLE
        self.NEW_TEMPLATE, self.RULES_TEMPLATE = rules.NEW_TEMPLATE, rules.RULES_TEMPLATE
        self.SECRETS, self.ASSETS = rules.SECRETS, rules.ASSETS

    @property
    def played_rules(self) -> PlayedRules[SetupT, PlayT, DraftT, TapT]:
        """Its rules: the table draws its screen from them."""
        return self.rules

    def init_app(self, app: Flask) -> None:
        """Its folder on the app (its templates, static files and words, `game_folder`); the table draws its one screen
        (`views.plays`)."""
        open_folder(app, game_folder(self.NAME, self.rules.__name__))

    def commands(self) -> Sequence[click.Command]:
        """None: the pad file's `scorekeeper score` is the table's."""
        return ()

    def setup_from_form(self, form: Form) -> NewMatch[SetupT]:
        """The game its new-game form describes."""
        return self.rules.setup_from_form(form)

    def new_game_context(self) -> Context:
        """Nothing besides the form: the form says all."""
        return {}

    def form_fields(self, setup: SetupT) -> list[tuple[str, str]]:
        """The new-game form filled in for another game with the same players."""
        return self.rules.form_fields(setup)

    def columns(self, setup: SetupT) -> tuple[list[str], JSONObject]:
        """The seats' names, and the game's columns as its rules store them."""
        players, columns = self.rules.stored(setup)
        return players, {"ruleset": columns["ruleset"], "first_dealer": columns["first_dealer"],
                         "options": columns["options"]}

    def setup_of(self, game: StoredGame) -> SetupT:
        """The setup of a stored game (a record or its plain values)."""
        columns = Columns(ruleset=game.ruleset, first_dealer=game.first_dealer, options=dict(game.options or {}))
        return self.rules.from_stored([s.name for s in game.seats], columns)

    def rematch(self, setup: SetupT) -> SetupT:
        """The same game again ("New game with these players" asks the form instead)."""
        return setup

    def label(self, game: Labelled) -> str:
        """The game's name in lists."""
        return self.rules.label(game.ruleset, game.options or {})

    def read_pad(self, doc: object, check: bool = False) -> tuple[SetupT, list[PlayT]]:
        """A pad file's setup and plays (a document `read_any` found of its format); PadError with every problem."""
        assert isinstance(doc, dict)
        setup, plays = self.rules.read_pad(doc, check)
        return setup, list(plays)

    def write_pad(self, setup: SetupT, plays: Sequence[PlayT]) -> JSONObject:
        """The pad file, with points."""
        return self.rules.write_pad(setup, plays)

    def write_csv(self, setup: SetupT, plays: Sequence[PlayT]) -> str:
        """The pad as CSV: a row per play (a round, a game) and player, with points and running total."""
        summary = self.rules.summary(setup, plays)
        return write_rounds_csv(summary["players"], summary["per_hand"], self.rules.PLAY_WORD)

    def finished(self, setup: SetupT, plays: Sequence[PlayT]) -> bool:
        """Whether these plays end the game."""
        return self.rules.finished(setup, plays)

    def summary(self, setup: SetupT, plays: Sequence[PlayT]) -> Summary:
        """What a finished game leaves for its crew's statistics."""
        return self.rules.summary(setup, plays)

    def bg_stats_game(self, setup: SetupT) -> tuple[str, int | None, int]:
        """The game as BG Stats knows it; the first seat starts."""
        return (*self.rules.bg_stats_game(setup), 0)

    def start(self, setup: SetupT, plays: Sequence[PlayT]) -> Started:
        """The closed plays a new game starts with (an imported pad's); the first play still open collects its
        secret entries."""
        collects = (len(plays) + 1, self.SECRETS[0]) if self.SECRETS else None
        return Started(tuple((self.rules.PLAY.dump(play), True) for play in plays), collects=collects)

    def played(self, game: PlayedGame) -> list[PlayT]:
        """The closed plays of a stored game, in order, as its rules hold them."""
        return decoded_plays(self.rules, game)[0]

    def rules_context(self, setup: SetupT) -> Context:
        """What its rules page shows of this game, from its rules."""
        return self.rules.rules_context(setup)


def decoded_plays(rules: PlayedRules[Any, PlayT, DraftT, Any], game: PlayedGame, known: Sequence[PlayT] = ()
                  ) -> tuple[list[PlayT], DraftT | None]:
    """A stored game's closed plays in order and its open play's draft (None: no play open), as its rules hold them
    (a record or its plain values); `known`: its first closed plays, read already."""
    stored = [p.data for p in game.plays if p.closed]
    closed = [*known, *(rules.PLAY.load(data) for data in stored[len(known):])]
    return closed, next((rules.DRAFT.load(p.data) for p in game.plays if not p.closed), None)


class Shelf:
    """The kinds of game an app offers, by name, in the order the start page offers them."""

    def __init__(self, kinds: Iterable[GameKind[Any, Any]]) -> None:
        self.by_name: dict[str, GameKind[Any, Any]] = {}
        for kind in kinds:
            if kind.NAME in self.by_name:
                raise ValueError(f"two kinds of game are named {kind.NAME!r}")
            self.by_name[kind.NAME] = kind

    def __getitem__(self, name: str) -> GameKind[Any, Any]:
        return self.by_name[name]

    def __contains__(self, name: object) -> bool:
        return name in self.by_name

    def __iter__(self) -> Iterator[GameKind[Any, Any]]:
        return iter(self.by_name.values())

    def of(self, game: OfKind) -> GameKind[Any, Any]:
        """The kind of a stored game (a record, its plain values or a summary's row)."""
        return self.by_name[game.kind]

    def read_any(self, text: str | bytes, check: bool = True) -> tuple[GameKind[Any, Any], tuple[Any, list[Any]]]:
        """A pad file of any game, told apart by its `format`: its kind, and (its setup, its plays).
        PadError with every problem."""
        doc = read_json(text)
        if not isinstance(doc, dict):
            raise PadError([Problem(N_("A pad file is a JSON object, not %(value)s."), {"value": json_kind(doc)})])
        found = doc.get("format")
        kinds = list(self)
        # A document that names no format goes to the first game's reader, the oldest pad file, which says what
        # is missing in its own terms.
        kind = next((k for k in kinds if k.FORMAT == found), None) if found is not None else kinds[0]
        if kind is None:
            raise PadError([Problem(N_("“format” must be one of %(formats)s, not %(value)s."),
                                    {"formats": ", ".join(k.FORMAT for k in kinds), "value": shown(found)})])
        return kind, kind.read_pad(doc, check)

    def score_any(self, text: str | bytes) -> JSONObject:
        """Read, check and complete a pad file of any game; PadError with every problem."""
        kind, (setup, plays) = self.read_any(text)
        return kind.write_pad(setup, plays)


EXTENSION = "scorekeeper.kinds"


def game_folder(name: str, import_name: str) -> Blueprint:
    """A game's Blueprint over its package's folder (that of the module `import_name`): its templates in its own
    `templates/<package>/`, its static files in its own `static/`, served under `/static/<package>/` (beside the
    table's, so the phones' service worker keeps them as the table's), as the endpoint `<name>.static`."""
    blueprint = Blueprint(blueprint_name(name), import_name, template_folder="templates", static_folder="static")
    blueprint.static_url_path = f"/static/{Path(blueprint.root_path).name}"
    return blueprint


def open_folder(app: Flask, folder: Blueprint) -> None:
    """A game's folder on the app: its Blueprint (pages, templates, static files) and its words, the catalog in its
    own `translations/`, read beside the table's."""
    app.register_blueprint(folder)
    words = Path(folder.root_path) / "translations"
    if words.is_dir():
        app.extensions["babel"].translation_directories.append(str(words))


def blueprint_name(name: str) -> str:
    """The name of the Blueprint of the game called `name` (a Python name: `-` becomes `_`); its static files are
    the endpoint `<that name>.static`."""
    return name.replace("-", "_")


def init_app(app: Flask, kinds: Iterable[GameKind[Any, Any]]) -> Shelf:
    """Offer these kinds of game in `app`."""
    shelf = app.extensions[EXTENSION] = Shelf(kinds)
    return shelf


def registered() -> Shelf:
    """The kinds of game the current app offers."""
    shelf: Shelf = current_app.extensions[EXTENSION]
    return shelf


def kind_of(game: OfKind) -> GameKind[Any, Any]:
    """The kind of a stored game in the current app (a record, its plain values or a summary's row)."""
    return registered().of(game)
