"""Why something cannot be, in words: shared by the rules of every game on the shelf.

A `Problem` holds an English template and its values; the web layer translates it, the
command line prints it as is. Pure Python, like the rules.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field


def N_(text: str) -> str:
    """Mark a message for translation without translating it here."""
    return text


@dataclass(frozen=True)
class Problem:
    """Why a table, hand or entry cannot be: an English template and its values.

    `hand` is the hand number (None for the table); `players` are the players
    concerned, so screens can show the problem next to them.
    """

    template: str
    params: Mapping[str, object] = field(default_factory=dict)
    hand: int | None = None
    players: tuple[str, ...] = ()
    # What `hand` numbers: a hand, a game of a match, a round, as the game calls its plays.
    unit: str = "hand"

    def message(
        self,
        translate: Callable[[str], str] = lambda s: s,
        join: Callable[[Sequence[str]], str] | None = None,
    ) -> str:
        """The plain sentence, starting with the hand, the players' names joined."""
        join = join or join_names
        values = dict(self.params)
        values.setdefault("names", join(self.players))
        text = translate(self.template) % values
        if self.hand is None:
            return text
        # "Hand 4, Ben: …" reads better than "Hand 4: Ben: …".
        named = self.template.startswith("%(names)s: ")
        return translate(PLACES[self.unit][named]) % {"number": self.hand, "text": text}

    def __str__(self) -> str:
        return self.message()


def join_names(names: Sequence[str]) -> str:
    """Join names as in an English sentence: "Ann", "Ann and Ben", "Ann, Ben and Cara"."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]




# Where a problem is, before its sentence: without and with a name leading the sentence.
PLACES = {
    "hand": (N_("Hand %(number)d: %(text)s"), N_("Hand %(number)d, %(text)s")),
    "game": (N_("Game %(number)d: %(text)s"), N_("Game %(number)d, %(text)s")),
    "round": (N_("Round %(number)d: %(text)s"), N_("Round %(number)d, %(text)s")),
}


# A game played to a target ends at a sensible number of points: far above any real table's
# choice, far below where totals stop meaning anything.
MAX_TARGET = 100_000


def target_problems(target: int) -> list[Problem]:
    """Why a target cannot be (a whole number of points, 1 to MAX_TARGET); none if it can."""
    if 1 <= target <= MAX_TARGET:
        return []
    return [Problem(N_("The target must be a whole number of points from 1 to %(most)d, not %(target)d."),
                    {"most": MAX_TARGET, "target": target})]



# A seat's name: long enough for anyone's, short enough for a column of the pad on a phone.
MAX_NAME = 40


def name_problems(names: Sequence[str]) -> list[Problem]:
    """Why players' names cannot be seats at a table (empty, too long, control or invisible characters)."""
    problems = []
    if any(not name.strip() for name in names):
        problems.append(Problem(N_("Every player needs a name.")))
    if any(len(name) > MAX_NAME for name in names):
        problems.append(Problem(N_("A name can have at most %(most)d characters."), {"most": MAX_NAME}))
    return problems + character_problems(names)


def character_problems(texts: Sequence[str]) -> list[Problem]:
    """Why these names (of players, a game, a team) cannot be shown: control or invisible characters. The same
    check for every name a page shows."""
    problems = []
    if any(unicodedata.category(char) in ("Cc", "Cs") for text in texts for char in text):
        problems.append(Problem(N_("A name cannot contain control characters.")))
    # Format characters (zero-width, right-to-left overrides) make one name look like another.
    if any(unicodedata.category(char) == "Cf" for text in texts for char in text):
        problems.append(Problem(N_("A name cannot contain invisible or direction-changing characters.")))
    return problems
