"""The games on the shelf, each an add-on package: Skull King, Skip-Bo, Dracula, the free pad and Wizard.

Each package brings its rules (plain values in and out), its pad file, its storage, its pages, their
templates and static files (its folder, `kinds.game_folder`), as a `scorekeeper.kinds.GameKind`. The table
knows none of them: `create_app` offers the kinds listed here. Adding a game is adding its package and naming
it in the one line below.
"""

from __future__ import annotations

from typing import Any

from ..kinds import GameKind, OnPlays, PlayedRules, Shelf
from ..padfile import JSONObject
from .dracula import kind as dracula
from .dracula.rules import Setup as DraculaSetup
from .freepad import kind as freepad
from .freepad.rules import Setup as FreePadSetup
from .skipbo import kind as skipbo
from .skipbo.rules import GameResult
from .skipbo.rules import Setup as SkipBoSetup
from .skullking.kind import SKULL_KING
from .wizard import WIZARD

# Each typed as the interface with its own setup, plays and drafts: mypy checks every game's rules against it.
SKIP_BO: PlayedRules[SkipBoSetup, GameResult, GameResult, skipbo.Tap] = skipbo
DRACULA: PlayedRules[DraculaSetup, dracula.Round, dracula.Round, dracula.Tap] = dracula
FREE_PAD: PlayedRules[FreePadSetup, freepad.Round, freepad.Round, freepad.Tap] = freepad

# The games an app offers unless told otherwise; the first is the one the start page offers first.
INSTALLED: tuple[GameKind[Any, Any], ...] = (SKULL_KING, OnPlays(SKIP_BO), OnPlays(DRACULA), OnPlays(FREE_PAD), WIZARD)


def read_any(text: str | bytes, check: bool = True) -> tuple[GameKind[Any, Any], tuple[object, list[object]]]:
    """A pad file of any installed game: its kind, and (its setup, its plays). PadError with every problem."""
    return Shelf(INSTALLED).read_any(text, check)


def score_any(text: str | bytes) -> JSONObject:
    """Read, check and complete a pad file of any installed game; PadError with every problem."""
    return Shelf(INSTALLED).score_any(text)
