"""Typed plays: every game's plays are dataclasses of its own, which the table stores as JSON with their codec, so
that mypy checks a game's code against its own types, not `Any`."""

from __future__ import annotations

import dataclasses
import json
import sys
import types
from collections.abc import Sequence
from typing import Any, get_type_hints

import pytest
from cattrs.errors import ClassValidationError

from scorekeeper.kinds import Codec, Decided, GameKind
from scorekeeper.shelf import INSTALLED
from scorekeeper.shelf.freepad import kind as freepad
from scorekeeper.shelf.wizard import kind as wizard
from scorekeeper.shelf.wizard.rules import Round
from tests.highcard.kind import HIGH_CARD

# What a game's rules take of its plays, by function, and which parameter; and what `apply` answers.
TAKES_PLAYS = ("write_pad", "finished", "apply", "context", "card_state", "summary")
TAKES_DRAFT = ("apply", "context", "card_state")


def every_game() -> list[GameKind[Any, Any]]:
    """The games on the shelf and the test game."""
    return [*INSTALLED, HIGH_CARD]


def untyped_plays(rules: Any) -> list[str]:
    """Where a game's rules hold their plays as anything but their own dataclasses: codecs of no dataclass,
    plays, drafts or answers typed otherwise."""
    name = getattr(rules, "NAME", "?")
    play, draft = getattr(rules, "PLAY", None), getattr(rules, "DRAFT", None)
    if not isinstance(play, Codec) or not isinstance(draft, Codec):
        return [f"{name}: no codec of its plays"]
    found = [f"{name}: {codec.cls!r} is no dataclass" for codec in (play, draft)
             if not dataclasses.is_dataclass(codec.cls)]
    for function in TAKES_PLAYS:
        hints = get_type_hints(getattr(rules, function), vars(sys.modules[rules.__name__]))
        if hints.get("plays") != Sequence[play.cls]:
            found.append(f"{name}.{function}: plays are {hints.get('plays')}")
        if function in TAKES_DRAFT and hints.get("draft") != draft.cls | None:
            found.append(f"{name}.{function}: a draft is {hints.get('draft')}")
        if function == "apply" and hints.get("return") != Decided[play.cls, draft.cls]:
            found.append(f"{name}.apply answers {hints.get('return')}")
    return found


@pytest.mark.parametrize("kind", every_game(), ids=lambda kind: kind.NAME)
def test_every_game_holds_its_plays_as_its_own_dataclasses(kind: GameKind[Any, Any]) -> None:
    """Every game (Skull King's hands too) reads, decides and shows its plays as its own types (`PlayedRules`)."""
    assert untyped_plays(kind.played_rules) == []


def test_a_game_holding_its_plays_as_dicts_would_be_found() -> None:
    """The check above reads what it should: plays as mappings, or no codec, are found."""
    source = '''
from collections.abc import Mapping, Sequence
from typing import Any
from scorekeeper.kinds import Decided, Codec
NAME = "loose"
PLAY = DRAFT = Codec(dict)
def write_pad(setup: Any, plays: Sequence[Mapping[str, Any]]) -> dict[str, Any]: ...
def finished(setup: Any, plays: Sequence[Mapping[str, Any]]) -> bool: ...
def apply(setup: Any, plays: Sequence[Mapping[str, Any]], draft: Mapping[str, Any] | None, actor: Any,
          change: Any, secrets: Any) -> Decided: ...
def context(setup: Any, plays: Sequence[Mapping[str, Any]], draft: Any, actor: Any, secrets: Any) -> Any: ...
def card_state(setup: Any, plays: Any, draft: Any, actor: Any, secrets: Any) -> Any: ...
def summary(setup: Any, plays: Any) -> Any: ...
'''
    module = types.ModuleType("loose_game")
    sys.modules[module.__name__] = module
    try:
        exec(compile(source, "loose_game.py", "exec"), vars(module))
        found = untyped_plays(module)
    finally:
        del sys.modules[module.__name__]
    assert "loose: <class 'dict'> is no dataclass" in found
    assert any(line.startswith("loose.apply answers") for line in found)
    assert sum(line.startswith("loose.") for line in found) >= len(TAKES_PLAYS) + len(TAKES_DRAFT)
    assert untyped_plays(types.SimpleNamespace(NAME="none")) == ["none: no codec of its plays"]


def test_a_codec_stores_a_play_as_json_has_it_and_reads_it_back() -> None:
    """Seats as keys are stored as strings and read back as numbers; tuples as lists; what JSON gives back of the
    stored object is read as the same play."""
    draft = wizard.Draft(bids={0: 2, 2: 0}, tricks={1: 3})
    stored = wizard.DRAFT.dump(draft)
    assert stored == {"bids": {"0": 2, "2": 0}, "tricks": {"1": 3}}
    assert wizard.DRAFT.load(json.loads(json.dumps(stored))) == draft
    played = Round(3, (1, 0, 2), (1, 1, 1))
    assert wizard.PLAY.dump(played) == {"cards": 3, "bids": [1, 0, 2], "tricks": [1, 1, 1], "corrected": False}
    assert wizard.PLAY.load(json.loads(json.dumps(wizard.PLAY.dump(played)))) == played


def test_plays_stored_before_their_types_read_as_they_were() -> None:
    """A game stored before its plays had types (no `corrected` on a round, a draft with bids only, the free pad's
    end as a play of its own) reads as it was stored."""
    assert wizard.PLAY.load({"cards": 2, "bids": [1, 0], "tricks": [1, 1]}) == Round(2, (1, 0), (1, 1))
    assert wizard.PLAY.load({"cards": 2, "bids": [1, 0], "tricks": [1, 1], "corrected": True}).corrected
    assert wizard.DRAFT.load({"bids": {"1": 0}}) == wizard.Draft(bids={1: 0})
    assert freepad.PLAY.load({"end": True}) == freepad.Round(end=True)
    assert freepad.PLAY.load({"points": {"Anne": 5, "Ben": -2}}).points == {"Anne": 5, "Ben": -2}


def test_a_stored_play_that_is_not_the_games_is_refused() -> None:
    """A stored object missing what a play needs is not read as a play with holes."""
    with pytest.raises(ClassValidationError):
        wizard.PLAY.load({"bids": [1, 0]})
