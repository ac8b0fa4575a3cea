"""Reading the app's HTML forms, with a plain-words problem for bad input: what every game's forms share."""

from __future__ import annotations

from dataclasses import dataclass, field

from werkzeug.datastructures import MultiDict

from .problems import N_, Problem

# The most rows of names a new-game form is read for: more than any game allows, so that one name too many is
# refused in words by the game's rules rather than dropped, and few enough that a flood costs nothing.
MOST_NAMES_READ = 64


@dataclass
class Parsed:
    """What a form gave, and the problems met reading it."""

    problems: list[Problem] = field(default_factory=list)

    def add(self, template: str, players: tuple[str, ...] = (), hand: int | None = None,
            **params: object) -> None:
        self.problems.append(Problem(template, params, hand, players))


def whole_number(form: MultiDict[str, str], key: str, parsed: Parsed, default: int | None = None,
                 player: str | None = None, hand: int | None = None) -> int | None:
    """The whole number in `form[key]`; a problem and None if it is not one."""
    raw = form.get(key, "").strip()
    if raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or abs(value) > 10_000:
        if player:
            parsed.add(N_("%(names)s: “%(value)s” is not a whole number."), (player,), hand, value=raw[:20])
        else:
            parsed.add(N_("“%(value)s” is not a whole number."), (), hand, value=raw[:20])
        return None
    return value
